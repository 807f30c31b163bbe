package store

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

func TestPutServer(t *testing.T) {
	stdio := &StdioConfig{Command: "npx", Args: []string{"-y", "pkg"}, Env: map[string]string{"K": "v"}}
	tests := []struct {
		name     string
		existing []string // names stored first, in order
		// put builds the server to store; ids holds the existing IDs by name.
		put     func(ids map[string]Server) Server
		wantErr error
		check   func(t *testing.T, got Server, ids map[string]Server)
	}{
		{
			name: "insert assigns an id and stamps both times",
			put: func(map[string]Server) Server {
				return Server{Name: "files", Transport: TransportStdio, Stdio: stdio, Enabled: true}
			},
			check: func(t *testing.T, got Server, _ map[string]Server) {
				if got.ID == "" {
					t.Error("no ID assigned")
				}
				if got.CreatedAt.IsZero() || !got.UpdatedAt.Equal(got.CreatedAt) {
					t.Errorf("times = %v / %v, want both set and equal", got.CreatedAt, got.UpdatedAt)
				}
				if !got.Enabled || got.Stdio == nil || got.Stdio.Command != "npx" {
					t.Errorf("fields not kept: %+v", got)
				}
			},
		},
		{
			name: "insert ignores the caller's timestamps",
			put: func(map[string]Server) Server {
				return Server{Name: "files", CreatedAt: time.Unix(1, 0), UpdatedAt: time.Unix(2, 0)}
			},
			check: func(t *testing.T, got Server, _ map[string]Server) {
				if got.CreatedAt.Equal(time.Unix(1, 0)) || got.UpdatedAt.Equal(time.Unix(2, 0)) {
					t.Errorf("times = %v / %v, want the store's clock", got.CreatedAt, got.UpdatedAt)
				}
			},
		},
		{
			name: "name is trimmed",
			put:  func(map[string]Server) Server { return Server{Name: "  files\t"} },
			check: func(t *testing.T, got Server, _ map[string]Server) {
				if got.Name != "files" {
					t.Errorf("Name = %q, want %q", got.Name, "files")
				}
			},
		},
		{
			name:    "empty name is invalid",
			put:     func(map[string]Server) Server { return Server{Name: ""} },
			wantErr: ErrInvalid,
		},
		{
			name:    "blank name is invalid",
			put:     func(map[string]Server) Server { return Server{Name: " \t "} },
			wantErr: ErrInvalid,
		},
		{
			name:     "same name in another case is a duplicate",
			existing: []string{"Files"},
			put:      func(map[string]Server) Server { return Server{Name: "fILES"} },
			wantErr:  ErrDuplicateName,
		},
		{
			name:     "same name after trimming is a duplicate",
			existing: []string{"files"},
			put:      func(map[string]Server) Server { return Server{Name: " files "} },
			wantErr:  ErrDuplicateName,
		},
		{
			name:     "renaming onto another server's name is a duplicate",
			existing: []string{"a", "b"},
			put: func(ids map[string]Server) Server {
				srv := ids["a"]
				srv.Name = "B"
				return srv
			},
			wantErr: ErrDuplicateName,
		},
		{
			name:     "update may keep its own name in another case",
			existing: []string{"files"},
			put: func(ids map[string]Server) Server {
				srv := ids["files"]
				srv.Name = "FILES"
				return srv
			},
			check: func(t *testing.T, got Server, ids map[string]Server) {
				if got.ID != ids["files"].ID || got.Name != "FILES" {
					t.Errorf("got %q %q, want the same ID renamed to FILES", got.ID, got.Name)
				}
			},
		},
		{
			name:     "update keeps id and CreatedAt and moves UpdatedAt",
			existing: []string{"files"},
			put: func(ids map[string]Server) Server {
				srv := ids["files"]
				srv.Enabled = true
				srv.CreatedAt = time.Time{} // a caller cannot rewrite it
				return srv
			},
			check: func(t *testing.T, got Server, ids map[string]Server) {
				old := ids["files"]
				if got.ID != old.ID || !got.CreatedAt.Equal(old.CreatedAt) {
					t.Errorf("got %q created %v, want %q created %v", got.ID, got.CreatedAt, old.ID, old.CreatedAt)
				}
				if !got.UpdatedAt.After(old.UpdatedAt) {
					t.Errorf("UpdatedAt = %v, want after %v", got.UpdatedAt, old.UpdatedAt)
				}
				if !got.Enabled {
					t.Error("change not stored")
				}
			},
		},
		{
			name: "url mode is allowed unless disabled",
			put:  func(map[string]Server) Server { return Server{Name: "files"} },
			check: func(t *testing.T, got Server, _ map[string]Server) {
				if got.DisableURLMode {
					t.Error("DisableURLMode set on a server that did not ask for it")
				}
			},
		},
		{
			name:     "disabling url mode is kept",
			existing: []string{"files"},
			put: func(ids map[string]Server) Server {
				srv := ids["files"]
				srv.DisableURLMode = true
				return srv
			},
			check: func(t *testing.T, got Server, _ map[string]Server) {
				if !got.DisableURLMode {
					t.Error("DisableURLMode not stored")
				}
			},
		},
		{
			name:    "update of an unknown id is not found",
			put:     func(map[string]Server) Server { return Server{ID: "nope", Name: "files"} },
			wantErr: ErrNotFound,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fakeClock(s)
			ids := map[string]Server{}
			for _, name := range tc.existing {
				srv, err := s.PutServer(Server{Name: name})
				if err != nil {
					t.Fatal(err)
				}
				ids[name] = srv
			}
			before, err := s.Servers()
			if err != nil {
				t.Fatal(err)
			}

			got, err := s.PutServer(tc.put(ids))
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("PutServer = %v, want %v", err, tc.wantErr)
				}
				after, err := s.Servers()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(after, before) {
					t.Errorf("a refused PutServer changed the servers:\n%+v\nto\n%+v", before, after)
				}
				return
			}
			if err != nil {
				t.Fatalf("PutServer: %v", err)
			}
			stored, err := s.Server(got.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(stored, got) {
				t.Errorf("PutServer returned\n%+v\nbut Server reads\n%+v", got, stored)
			}
			tc.check(t, got, ids)
		})
	}
}

func TestPutServerReturnsACopy(t *testing.T) {
	s := openT(t, t.TempDir())
	in := Server{Name: "files", Stdio: &StdioConfig{Command: "a", Args: []string{}}}
	got, err := s.PutServer(in)
	if err != nil {
		t.Fatal(err)
	}
	in.Stdio.Command = "changed after the call"
	if got.Stdio.Command != "a" {
		t.Errorf("returned server shares memory with the argument")
	}
	if got.Stdio.Args != nil {
		t.Errorf("Args = %#v, want nil as stored (empty args are omitted)", got.Stdio.Args)
	}
}

func TestErrorMessagesAreSentences(t *testing.T) {
	s := openT(t, t.TempDir())
	if _, err := s.PutServer(Server{Name: "Files"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"empty name", func() error { _, err := s.PutServer(Server{}); return err }, "invalid: a server needs a name"},
		{"duplicate name names the existing server", func() error { _, err := s.PutServer(Server{Name: "files"}); return err },
			`duplicate name: a server named "Files" already exists`},
		{"unknown id", func() error { _, err := s.Server("x1"); return err }, `server "x1": not found`},
		{"unknown name", func() error { _, err := s.ServerByName(" nope "); return err }, `server named "nope": not found`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err(); got == nil || got.Error() != tc.want {
				t.Errorf("error = %v, want %q", got, tc.want)
			}
		})
	}
}

func TestServerByName(t *testing.T) {
	s := openT(t, t.TempDir())
	files, err := s.PutServer(Server{Name: "My Files"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutServer(Server{Name: "Other"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		query   string
		wantErr error
	}{
		{"exact name", "My Files", nil},
		{"other case", "my files", nil},
		{"surrounding spaces", "  MY FILES\n", nil},
		{"unknown name", "files", ErrNotFound},
		{"empty name", "", ErrNotFound},
		{"inner spaces matter", "My  Files", ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.ServerByName(tc.query)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("ServerByName(%q) = %v, want %v", tc.query, err, tc.wantErr)
			}
			if tc.wantErr == nil && got.ID != files.ID {
				t.Errorf("ServerByName(%q) = %q, want %q", tc.query, got.ID, files.ID)
			}
		})
	}
}

func TestServersOrder(t *testing.T) {
	tests := []struct {
		name string
		// sameTime stamps every insert with one instant.
		sameTime bool
		inserts  []string
		want     []string
	}{
		{"oldest first", false, []string{"c", "a", "b"}, []string{"c", "a", "b"}},
		{"same time falls back to name", true, []string{"c", "a", "b"}, []string{"a", "b", "c"}},
		{"none is an empty list", false, nil, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fakeClock(s)
			if tc.sameTime {
				at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
				s.now = func() time.Time { return at }
			}
			for _, name := range tc.inserts {
				if _, err := s.PutServer(Server{Name: name}); err != nil {
					t.Fatal(err)
				}
			}
			all, err := s.Servers()
			if err != nil {
				t.Fatal(err)
			}
			if all == nil {
				t.Fatal("Servers() = nil, want a non-nil slice")
			}
			got := []string{}
			for _, srv := range all {
				got = append(got, srv.Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("order = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestDeleteServer(t *testing.T) {
	tests := []struct {
		name    string
		id      func(kept, gone Server) string
		wantErr error
	}{
		{"deletes only that server", func(kept, gone Server) string { return gone.ID }, nil},
		{"unknown id is not found", func(kept, gone Server) string { return "nope" }, ErrNotFound},
		{"empty id is not found", func(kept, gone Server) string { return "" }, ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			kept, err := s.PutServer(Server{Name: "kept"})
			if err != nil {
				t.Fatal(err)
			}
			gone, err := s.PutServer(Server{Name: "gone"})
			if err != nil {
				t.Fatal(err)
			}
			err = s.DeleteServer(tc.id(kept, gone))
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("DeleteServer = %v, want %v", err, tc.wantErr)
			}
			if _, err := s.Server(kept.ID); err != nil {
				t.Errorf("other server: %v", err)
			}
			_, err = s.Server(gone.ID)
			if deleted := errors.Is(err, ErrNotFound); deleted != (tc.wantErr == nil) {
				t.Errorf("Server(gone) after DeleteServer = %v, want ErrNotFound only if the delete succeeded", err)
			}
		})
	}
}

func TestDeleteFreesTheNameButNotTheID(t *testing.T) {
	s := openT(t, t.TempDir())
	first, err := s.PutServer(Server{Name: "files"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteServer(first.ID); err != nil {
		t.Fatal(err)
	}
	again, err := s.PutServer(Server{Name: "Files"})
	if err != nil {
		t.Fatalf("name of a deleted server is still taken: %v", err)
	}
	if again.ID == first.ID {
		t.Errorf("ID %q reused", again.ID)
	}
}

func TestConcurrentInsertsOfOneName(t *testing.T) {
	s := openT(t, t.TempDir())
	errs := make(chan error)
	const n = 8
	for i := range n {
		go func() {
			_, err := s.PutServer(Server{Name: strings.Repeat(" ", i) + "same"})
			errs <- err
		}()
	}
	var ok, dup int
	for range n {
		switch err := <-errs; {
		case err == nil:
			ok++
		case errors.Is(err, ErrDuplicateName):
			dup++
		default:
			t.Errorf("PutServer: %v", err)
		}
	}
	if ok != 1 || dup != n-1 {
		t.Errorf("%d stored and %d duplicates, want 1 and %d", ok, dup, n-1)
	}
}

// TestServerRootsAndLogLevel: a server record from before roots and log
// levels reads as seeing no folder and asking no level; both are kept
// through a reopen of the file.
func TestServerRootsAndLogLevel(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	old, err := s.PutServer(Server{Name: "Files", Enabled: true, Transport: TransportStdio, Stdio: &StdioConfig{Command: "files"}})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	// The record as a Gatehouse from before this field wrote it.
	rawUpdate(t, dir, func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketServers).Put([]byte(old.ID),
			[]byte(`{"id":"`+old.ID+`","name":"Files","enabled":true,"transport":"stdio","stdio":{"command":"files"}}`))
	})
	s = openT(t, dir)
	got, err := s.Server(old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Roots != nil || got.LogLevel != "" {
		t.Fatalf("an old record reads as roots %v and level %q, want none", got.Roots, got.LogLevel)
	}
	got.Roots, got.LogLevel = []string{"/home/ada/projects", "/home/ada/notes"}, "warning"
	if _, err := s.PutServer(got); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	s = openT(t, dir)
	again, err := s.Server(old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Roots, got.Roots) || again.LogLevel != "warning" {
		t.Errorf("after a reopen: roots %v, level %q", again.Roots, again.LogLevel)
	}
}
