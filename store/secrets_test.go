package store

import (
	"errors"
	"strings"
	"testing"
)

func TestSecrets(t *testing.T) {
	s := openT(t, t.TempDir())
	srv, err := s.PutServer(Server{Name: "Remote", Enabled: true, Transport: TransportHTTP, HTTP: &HTTPConfig{URL: "https://mcp.example/mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	prov, err := s.PutProvider(Provider{Name: "DeepSeek", Kind: ProviderOpenAI, BaseURL: "https://api.deepseek.com"})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{SecretSignIn, SecretAPIKey} {
		if v, err := s.Secret(kind, srv.ID); err != nil || v != nil {
			t.Fatalf("no %s secret yet: %q %v", kind, v, err)
		}
	}
	const key = "sk-0123456789abcdef0123456789abcdef"
	tests := []struct {
		name  string
		kind  string
		id    string
		value string
		want  error
	}{
		{"a sign-in for an unknown server is refused", SecretSignIn, "nope", `{}`, ErrNotFound},
		{"a sign-in under a provider's ID is refused", SecretSignIn, prov.ID, `{}`, ErrNotFound},
		{"an API key for an unknown provider is refused", SecretAPIKey, "nope", key, ErrNotFound},
		{"an API key under a server's ID is refused", SecretAPIKey, srv.ID, key, ErrNotFound},
		{"an owner without an ID is refused", SecretAPIKey, "", key, ErrNotFound},
		{"an unknown kind is refused", "password", srv.ID, key, ErrInvalid},
		{"an empty secret is refused", SecretAPIKey, prov.ID, ``, ErrInvalid},
		{"a sign-in is saved", SecretSignIn, srv.ID, `{"token":"t"}`, nil},
		{"an API key is saved as it is, not as JSON", SecretAPIKey, prov.ID, key, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := s.PutSecret(tc.kind, tc.id, []byte(tc.value))
			if !errors.Is(err, tc.want) {
				t.Fatalf("PutSecret = %v, want %v", err, tc.want)
			}
			if err != nil && tc.value != "" && strings.Contains(err.Error(), tc.value) {
				t.Errorf("the error %q carries the secret", err)
			}
		})
	}
	if v, _ := s.Secret(SecretSignIn, srv.ID); string(v) != `{"token":"t"}` {
		t.Errorf("sign-in = %q", v)
	}
	if v, _ := s.Secret(SecretAPIKey, prov.ID); string(v) != key {
		t.Errorf("API key = %q", v)
	}
	if _, err := s.Secret("password", srv.ID); !errors.Is(err, ErrInvalid) {
		t.Errorf("Secret of an unknown kind = %v, want ErrInvalid", err)
	}

	// Deleting an owner deletes its secret, and only its own.
	if err := s.DeleteServer(srv.ID); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Secret(SecretSignIn, srv.ID); v != nil {
		t.Errorf("sign-in of a removed server: %q", v)
	}
	if v, _ := s.Secret(SecretAPIKey, prov.ID); string(v) != key {
		t.Errorf("removing a server took the provider's key: %q", v)
	}
	if err := s.DeleteProvider(prov.ID); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Secret(SecretAPIKey, prov.ID); v != nil {
		t.Errorf("API key of a removed provider: %q", v)
	}
	if err := s.DeleteSecret(SecretAPIKey, "nope"); err != nil {
		t.Errorf("deleting no secret: %v", err)
	}
}
