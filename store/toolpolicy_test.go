package store

import (
	"errors"
	"reflect"
	"testing"

	"go.etcd.io/bbolt"
)

func TestPutToolPolicy(t *testing.T) {
	tests := []struct {
		name    string
		before  *ToolPolicy // saved first, if set
		put     ToolPolicy
		unknown bool // for an ID no server has
		wantErr error
		want    ToolPolicy // read back afterwards
		stored  bool       // whether a record is kept
	}{
		{name: "nothing saved reads as the zero policy"},
		{name: "a server-wide allow is saved", put: ToolPolicy{Mode: ToolAllow}, want: ToolPolicy{Mode: ToolAllow}, stored: true},
		{name: "trust alone is saved", put: ToolPolicy{Trusted: true}, want: ToolPolicy{Trusted: true}, stored: true},
		{name: "a server's ask is saved as no mode", put: ToolPolicy{Mode: ToolAsk, Trusted: true}, want: ToolPolicy{Trusted: true}, stored: true},
		{name: "tools set to default are dropped", put: ToolPolicy{Tools: map[string]ToolMode{"rm": ToolDeny, "ls": ToolDefault, "cat": ""}},
			want: ToolPolicy{Tools: map[string]ToolMode{"rm": ToolDeny}}, stored: true},
		{name: "the zero policy removes the saved one", before: &ToolPolicy{Mode: ToolDeny, Trusted: true}, put: ToolPolicy{}},
		{name: "only tools set to default is the zero policy", before: &ToolPolicy{Mode: ToolDeny},
			put: ToolPolicy{Mode: ToolAsk, Tools: map[string]ToolMode{"ls": ToolDefault}}},
		{name: "an unknown mode is refused and keeps the saved policy", before: &ToolPolicy{Mode: ToolDeny},
			put: ToolPolicy{Mode: "always"}, wantErr: ErrInvalid, want: ToolPolicy{Mode: ToolDeny}, stored: true},
		{name: "a tool that asks each time is kept under a server that allows", put: ToolPolicy{Mode: ToolAllow, Tools: map[string]ToolMode{"rm": ToolAsk}},
			want: ToolPolicy{Mode: ToolAllow, Tools: map[string]ToolMode{"rm": ToolAsk}}, stored: true},
		{name: "default is a tool's mode, not a server's", put: ToolPolicy{Mode: ToolDefault}, wantErr: ErrInvalid},
		{name: "an unknown tool mode is refused", put: ToolPolicy{Tools: map[string]ToolMode{"rm": "never"}}, wantErr: ErrInvalid},
		{name: "a tool without a name is refused", put: ToolPolicy{Tools: map[string]ToolMode{" ": ToolDeny}}, wantErr: ErrInvalid},
		{name: "an unknown server is not found", put: ToolPolicy{Mode: ToolAllow}, unknown: true, wantErr: ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			srv, err := s.PutServer(Server{Name: "files"})
			if err != nil {
				t.Fatal(err)
			}
			if tc.before != nil {
				if err := s.PutToolPolicy(srv.ID, *tc.before); err != nil {
					t.Fatal(err)
				}
			}
			id := srv.ID
			if tc.unknown {
				id = "0123456789abcdef"
			}
			if err := s.PutToolPolicy(id, tc.put); !errors.Is(err, tc.wantErr) {
				t.Fatalf("PutToolPolicy = %v, want %v", err, tc.wantErr)
			}
			got, err := s.ToolPolicy(srv.ID)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ToolPolicy = %+v, %v; want %+v", got, err, tc.want)
			}
			if stored := hasRecord(t, s, bucketToolPolicies, srv.ID); stored != tc.stored {
				t.Errorf("record kept = %v, want %v", stored, tc.stored)
			}
		})
	}
}

func TestPutToolMode(t *testing.T) {
	s := openT(t, t.TempDir())
	srv, err := s.PutServer(Server{Name: "files"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutToolPolicy(srv.ID, ToolPolicy{Trusted: true, Tools: map[string]ToolMode{"rm": ToolDeny}}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		tool    string
		mode    ToolMode
		wantErr error
		want    ToolPolicy
	}{
		{"always allow one tool keeps the rest", "read", ToolAllow, nil,
			ToolPolicy{Trusted: true, Tools: map[string]ToolMode{"rm": ToolDeny, "read": ToolAllow}}},
		{"ask each time is kept as the tool's own mode", "rm", ToolAsk, nil,
			ToolPolicy{Trusted: true, Tools: map[string]ToolMode{"rm": ToolAsk, "read": ToolAllow}}},
		{"default removes the tool's own mode", "rm", ToolDefault, nil,
			ToolPolicy{Trusted: true, Tools: map[string]ToolMode{"read": ToolAllow}}},
		{"an unknown mode is refused", "read", "yes", ErrInvalid,
			ToolPolicy{Trusted: true, Tools: map[string]ToolMode{"read": ToolAllow}}},
		{"an empty tool name is refused", "", ToolDeny, ErrInvalid,
			ToolPolicy{Trusted: true, Tools: map[string]ToolMode{"read": ToolAllow}}},
	}
	for _, step := range steps {
		if err := s.PutToolMode(srv.ID, step.tool, step.mode); !errors.Is(err, step.wantErr) {
			t.Fatalf("%s: PutToolMode = %v, want %v", step.name, err, step.wantErr)
		}
		if got, _ := s.ToolPolicy(srv.ID); !reflect.DeepEqual(got, step.want) {
			t.Errorf("%s: policy = %+v, want %+v", step.name, got, step.want)
		}
	}
	if err := s.PutToolMode("0123456789abcdef", "read", ToolAllow); !errors.Is(err, ErrNotFound) {
		t.Errorf("PutToolMode for an unknown server = %v, want ErrNotFound", err)
	}
	if err := s.DeleteServer(srv.ID); err != nil {
		t.Fatal(err)
	}
	if hasRecord(t, s, bucketToolPolicies, srv.ID) {
		t.Error("DeleteServer left the server's tool-call policy")
	}
}

// hasRecord reports whether bucket holds a record under key.
func hasRecord(t *testing.T, s *Store, bucket []byte, key string) bool {
	t.Helper()
	var found bool
	if err := s.db.View(func(tx *bbolt.Tx) error {
		found = tx.Bucket(bucket).Get([]byte(key)) != nil
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return found
}
