package app

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/gatehouse-app/gatehouse/connectapp"
)

// The entry names the data folder only when it is not the default one,
// so that `gatehouse gateway` reaches the same Gatehouse as the window.
func TestConnectService_EntryNamesTheDataFolderOnlyWhenNotTheDefault(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("HOME", t.TempDir())
	for _, tc := range []struct {
		name, dir string
		args      []string
	}{
		{"the default folder", filepath.Join(config, "gatehouse"), []string{"gateway"}},
		{"a folder of the person's choosing", filepath.Join(t.TempDir(), "work"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			core, err := OpenCore(CoreOptions{DataDir: tc.dir})
			if err != nil {
				t.Fatal(err)
			}
			defer core.Close()
			s := &ConnectService{core: core, exe: "/usr/bin/gatehouse"}
			e, err := s.entry()
			if err != nil {
				t.Fatal(err)
			}
			want := tc.args
			if want == nil {
				want = []string{"--data-dir", tc.dir, "gateway"}
			}
			if e.Command != "/usr/bin/gatehouse" || !slices.Equal(e.Args, want) {
				t.Errorf("entry = %+v, want args %q", e, want)
			}
		})
	}
}

// Two confirmed writes of the same preview at once (the window and the
// command line): one writes, the other is refused as changed, and the one
// undo puts the file back.
func TestConnectService_OneOfTwoWritesAtOnce(t *testing.T) {
	home := t.TempDir()
	core, _ := openTestCore(t)
	s := &ConnectService{core: core, exe: "/usr/bin/gatehouse", home: home}
	file := filepath.Join(home, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ch, err := s.Preview(ConnectRequest{App: "cursor"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Connect(ConnectRequest{App: "cursor", Digest: ch.Digest, Result: ch.Result})
		}()
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || !errors.Is(errors.Join(errs...), connectapp.ErrChanged) {
		t.Fatalf("errors = %v", errs)
	}
	if _, err := s.Undo("cursor"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(file); string(data) != `{"mcpServers":{}}` {
		t.Errorf("after undo: %s", data)
	}
}
