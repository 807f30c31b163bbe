package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// openT opens a store in dir and closes it when the test ends.
func openT(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// fakeClock makes s stamp records with a clock that advances one second per
// reading, starting at a fixed instant.
func fakeClock(s *Store) {
	t := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	s.now = func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

// snapshot is a file's bytes and modification time.
type snapshot struct {
	data  []byte
	mtime time.Time
}

func takeSnapshot(t *testing.T, path string) snapshot {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return snapshot{data, fi.ModTime()}
}

// assertUnchanged fails the test if path differs from before.
func assertUnchanged(t *testing.T, path string, before snapshot) {
	t.Helper()
	after := takeSnapshot(t, path)
	if !bytes.Equal(before.data, after.data) {
		t.Errorf("%s: bytes changed (%d bytes before, %d after)", path, len(before.data), len(after.data))
	}
	if !before.mtime.Equal(after.mtime) {
		t.Errorf("%s: mtime changed from %v to %v", path, before.mtime, after.mtime)
	}
}

// rawUpdate edits the data file in dir with bbolt directly, bypassing the
// store, to build files the store itself would not write.
func rawUpdate(t *testing.T, dir string, fn func(tx *bbolt.Tx) error) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := bbolt.Open(filepath.Join(dir, FileName), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

// rawVersion reads the schema version recorded in dir's data file.
func rawVersion(t *testing.T, dir string) int {
	t.Helper()
	db, err := bbolt.Open(filepath.Join(dir, FileName), 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.View(func(tx *bbolt.Tx) (err error) {
		v, err = readVersion(tx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return v
}

// withServers returns a closed data file in a new directory holding n
// servers, and the directory.
func withServers(t testing.TB, n int) string {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.db.NoSync = true // the file is built, not crash-tested
	for i := range n {
		if _, err := s.PutServer(Server{
			Name:      fmt.Sprintf("server %d", i),
			Transport: TransportStdio,
			Stdio:     &StdioConfig{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fillHistory adds n entries made by entry(i) to s in one transaction,
// without fsync: fixtures are built, not crash-tested.
func fillHistory(tb testing.TB, s *Store, n int, entry func(i int) HistoryEntry) {
	tb.Helper()
	s.db.NoSync = true
	defer func() { s.db.NoSync = false }()
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketHistory)
		for i := range n {
			if _, err := addHistory(b, entry(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// sampleEntry is a history entry of typical size.
func sampleEntry(i int) HistoryEntry {
	return HistoryEntry{
		Time:       time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute),
		ServerID:   fmt.Sprintf("%016x", i%7),
		ServerName: fmt.Sprintf("server %d", i%7),
		Mode:       "form",
		Message:    "Please provide your GitHub username and the repository to clone, so the server can set up the workspace for you.",
		Fields:     []string{"username", "repository", "branch"},
		Outcome:    outcomes[i%len(outcomes)],
		Detail:     i18n.M("mcp.history.policyDeclined"),
		AnswerMs:   int64(1000 + i),
		Answer:     map[string]any{"username": "ada", "repository": "gatehouse", "branch": "main"},
	}
}
