package store

import (
	"errors"
	"testing"
)

func TestSecrets(t *testing.T) {
	s := openT(t, t.TempDir())
	srv, err := s.PutServer(Server{Name: "Remote", Enabled: true, Transport: TransportHTTP, HTTP: &HTTPConfig{URL: "https://mcp.example/mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.Secret(srv.ID); err != nil || v != nil {
		t.Fatalf("no secret yet: %q %v", v, err)
	}
	for _, tc := range []struct {
		name  string
		id    string
		value string
		want  error
	}{
		{"unknown server", "nope", `{}`, ErrNotFound},
		{"not JSON", srv.ID, `{`, ErrInvalid},
		{"saved", srv.ID, `{"token":"t"}`, nil},
	} {
		if err := s.PutSecret(tc.id, []byte(tc.value)); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if v, _ := s.Secret(srv.ID); string(v) != `{"token":"t"}` {
		t.Errorf("secret = %q", v)
	}
	// Deleting the server deletes its secret.
	if err := s.DeleteServer(srv.ID); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Secret(srv.ID); v != nil {
		t.Errorf("secret of a removed server: %q", v)
	}
	if err := s.DeleteSecret("nope"); err != nil {
		t.Error(err)
	}
}
