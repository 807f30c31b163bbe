package store

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

func TestDefaultDir(t *testing.T) {
	tmp := t.TempDir()
	configDir, configErr := os.UserConfigDir()
	tests := []struct {
		name string
		env  string
		want string
	}{
		{"env var overrides the config dir", tmp, tmp},
		{"relative env var is made absolute", "rel", filepath.Join(tmp, "rel")},
		{"without env var it is gatehouse in the user config dir", "", filepath.Join(configDir, "gatehouse")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tmp)
			t.Setenv(DataDirEnv, tc.env)
			if tc.env == "" && configErr != nil {
				t.Skipf("no user config dir here: %v", configErr)
			}
			got, err := DefaultDir()
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("DefaultDir() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestOpenMakesDirAndFilePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permissions")
	}
	tests := []struct {
		name string
		// defaultDir opens gatehouse in the user config dir, Gatehouse's own;
		// otherwise a directory of the user's choosing (DataDirEnv, a flag).
		defaultDir bool
		// viaLink opens the directory through a symbolic link to it.
		viaLink bool
		// dirMode and fileMode are the modes before Open; zero means missing.
		dirMode, fileMode os.FileMode
		wantDir, wantFile os.FileMode
	}{
		{name: "a missing chosen dir is created 0700 and the file 0600", wantDir: 0o700, wantFile: 0o600},
		{name: "a missing default dir is created 0700 and the file 0600", defaultDir: true, wantDir: 0o700, wantFile: 0o600},
		{name: "an existing chosen dir keeps its permissions", dirMode: 0o755, wantDir: 0o755, wantFile: 0o600},
		{name: "an existing chosen dir shared with the group keeps its permissions", dirMode: 0o770, wantDir: 0o770, wantFile: 0o600},
		{name: "a world-readable default dir is narrowed to 0700", defaultDir: true, dirMode: 0o755, wantDir: 0o700, wantFile: 0o600},
		{name: "the default dir reached through a link is narrowed to 0700", defaultDir: true, viaLink: true,
			dirMode: 0o755, wantDir: 0o700, wantFile: 0o600},
		{name: "a world-readable file in a chosen dir is narrowed to 0600 and the dir kept",
			dirMode: 0o755, fileMode: 0o644, wantDir: 0o755, wantFile: 0o600},
		{name: "a world-readable file in the default dir is narrowed to 0600",
			defaultDir: true, dirMode: 0o755, fileMode: 0o666, wantDir: 0o700, wantFile: 0o600},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			// os.UserConfigDir reads these (XDG on Linux, HOME on macOS).
			t.Setenv("HOME", filepath.Join(tmp, "home"))
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(tmp, "config"))
			dir := filepath.Join(tmp, "a", "gatehouse")
			if tc.defaultDir {
				base, err := os.UserConfigDir()
				if err != nil {
					t.Fatal(err)
				}
				dir = filepath.Join(base, "gatehouse")
			}
			if tc.dirMode != 0 {
				mustMkdir(t, dir, tc.dirMode)
			}
			if tc.fileMode != 0 {
				s := openT(t, dir)
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				mustChmod(t, s.Path(), tc.fileMode)
				mustChmod(t, dir, tc.dirMode)
			}
			open := dir
			if tc.viaLink {
				open = filepath.Join(tmp, "link")
				if err := os.Symlink(dir, open); err != nil {
					t.Fatal(err)
				}
			}

			s := openT(t, open)
			if got := modeOf(t, dir); got != tc.wantDir {
				t.Errorf("dir mode = %v, want %v", got, tc.wantDir)
			}
			if got := modeOf(t, s.Path()); got != tc.wantFile {
				t.Errorf("file mode = %v, want %v", got, tc.wantFile)
			}
		})
	}
}

func TestOpenPaths(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	if s.Dir() != dir {
		t.Errorf("Dir() = %q, want %q", s.Dir(), dir)
	}
	if want := filepath.Join(dir, "gatehouse.db"); s.Path() != want {
		t.Errorf("Path() = %q, want %q", s.Path(), want)
	}
}

func TestOpenRefusesEmptyDir(t *testing.T) {
	t.Chdir(t.TempDir())
	if _, err := Open("", nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Open(\"\") = %v, want ErrInvalid", err)
	}
}

func TestOpenWhileOpenInSameProcess(t *testing.T) {
	tests := []struct {
		name string
		opts *Options
	}{
		{"default timeout", nil},
		{"short timeout", &Options{LockTimeout: 60 * time.Millisecond}},
		{"single attempt", &Options{LockTimeout: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			first := openT(t, dir)
			if _, err := first.PutServer(Server{Name: "kept"}); err != nil {
				t.Fatal(err)
			}
			before := takeSnapshot(t, first.Path())

			second, err := Open(dir, tc.opts)
			if err == nil {
				second.Close()
				t.Fatal("second Open succeeded while the first is open")
			}
			if !errors.Is(err, ErrLocked) {
				t.Fatalf("second Open: %v, want ErrLocked", err)
			}
			if got := err.Error(); got != "Gatehouse is already running" {
				t.Errorf("message = %q, want exactly %q", got, "Gatehouse is already running")
			}
			assertUnchanged(t, first.Path(), before)

			if err := first.Close(); err != nil {
				t.Fatal(err)
			}
			third := openT(t, dir)
			if _, err := third.ServerByName("kept"); err != nil {
				t.Errorf("after the first closed, reopen: %v", err)
			}
		})
	}
}

func TestCloseTwice(t *testing.T) {
	s := openT(t, t.TempDir())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestOpenRefusesDamagedFile(t *testing.T) {
	tests := []struct {
		name string
		// damage turns the data file in dir, holding a few servers, into a
		// damaged one.
		damage func(t *testing.T, path string)
	}{
		{"random bytes", func(t *testing.T, path string) {
			writeFile(t, path, randomBytes(64<<10))
		}},
		{"a few random bytes", func(t *testing.T, path string) {
			writeFile(t, path, randomBytes(100))
		}},
		{"zeros", func(t *testing.T, path string) {
			writeFile(t, path, make([]byte, 64<<10))
		}},
		{"a text file", func(t *testing.T, path string) {
			writeFile(t, path, []byte(`{"servers": []}`+"\n"))
		}},
		{"both meta pages garbled", func(t *testing.T, path string) {
			m := readMeta(t, path)
			patch(t, path, 0, randomBytes(2*m.pageSize))
		}},
		{"cut to one page", func(t *testing.T, path string) {
			mustTruncate(t, path, int64(readMeta(t, path).pageSize))
		}},
		{"cut short by one page", func(t *testing.T, path string) {
			m := readMeta(t, path)
			mustTruncate(t, path, int64((m.pgid-1)*m.pageSize))
		}},
		{"cut short where only free pages were", func(t *testing.T, path string) {
			// Nothing reachable is lost, but the file is not what was
			// written, and the next write would extend it past a hole.
			s := openT(t, filepath.Dir(path))
			all, err := s.Servers()
			if err != nil {
				t.Fatal(err)
			}
			for _, srv := range all[:30] {
				if err := s.DeleteServer(srv.ID); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			m := readMeta(t, path)
			last := lastUsedPage(t, path)
			if last >= m.pgid-1 {
				t.Fatalf("last used page %d of %d: no free pages at the end to cut", last, m.pgid)
			}
			mustTruncate(t, path, int64((last+1)*m.pageSize))
		}},
		{"root page garbled", func(t *testing.T, path string) {
			m := readMeta(t, path)
			patch(t, path, m.root*m.pageSize, randomBytes(m.pageSize))
		}},
		{"every page after the meta pages garbled", func(t *testing.T, path string) {
			m := readMeta(t, path)
			patch(t, path, 2*m.pageSize, randomBytes((m.pgid-2)*m.pageSize))
		}},
		{"freelist naming a live page", func(t *testing.T, path string) {
			// As after a sync tool mixes pages of two versions: every page
			// parses, but the next write would overwrite the root.
			m := readMeta(t, path)
			page := make([]byte, 24)
			binary.LittleEndian.PutUint64(page, uint64(m.freelist))
			binary.LittleEndian.PutUint16(page[8:], 0x10) // freelist page
			binary.LittleEndian.PutUint16(page[10:], 1)   // one id
			binary.LittleEndian.PutUint64(page[16:], uint64(m.root))
			patch(t, path, m.freelist*m.pageSize, page)
		}},
		{"server record that is not JSON", func(t *testing.T, path string) {
			rawUpdate(t, filepath.Dir(path), func(tx *bbolt.Tx) error {
				return tx.Bucket(bucketServers).Put([]byte("abc"), []byte("{not json"))
			})
		}},
		{"server stored under another server's id", func(t *testing.T, path string) {
			rawUpdate(t, filepath.Dir(path), func(tx *bbolt.Tx) error {
				return tx.Bucket(bucketServers).Put([]byte("abc"), []byte(`{"id":"xyz","name":"x"}`))
			})
		}},
		{"settings that are not JSON", func(t *testing.T, path string) {
			rawUpdate(t, filepath.Dir(path), func(tx *bbolt.Tx) error {
				return tx.Bucket(bucketSettings).Put(keySettings, []byte("garbage"))
			})
		}},
		{"policy that is not JSON", func(t *testing.T, path string) {
			rawUpdate(t, filepath.Dir(path), func(tx *bbolt.Tx) error {
				return tx.Bucket(bucketPolicies).Put([]byte("abc"), []byte("decline"))
			})
		}},
		{"history entry that is not JSON", func(t *testing.T, path string) {
			rawUpdate(t, filepath.Dir(path), func(tx *bbolt.Tx) error {
				return tx.Bucket(bucketHistory).Put(historyKey(1), []byte(`{"id":1,"outcome":"acc`))
			})
		}},
		{"history key that is not an 8-byte id", func(t *testing.T, path string) {
			rawUpdate(t, filepath.Dir(path), func(tx *bbolt.Tx) error {
				return tx.Bucket(bucketHistory).Put([]byte("1"), []byte(`{"id":1}`))
			})
		}},
		{"unreadable schema version", func(t *testing.T, path string) {
			rawUpdate(t, filepath.Dir(path), func(tx *bbolt.Tx) error {
				return tx.Bucket(bucketMeta).Put(keyVersion, []byte(`"one"`))
			})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := withServers(t, 40)
			path := filepath.Join(dir, FileName)
			tc.damage(t, path)
			before := takeSnapshot(t, path)

			// Twice: a failed Open must not leave the file locked.
			for range 2 {
				s, err := Open(dir, nil)
				if err == nil {
					s.Close()
					t.Fatal("Open succeeded on a damaged file")
				}
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("Open: %v, want ErrCorrupt", err)
				}
				prefix := "the data file " + path + " is damaged and was left untouched ("
				if !strings.HasPrefix(err.Error(), prefix) {
					t.Errorf("message = %q, want it to start %q", err, prefix)
				}
			}
			assertUnchanged(t, path, before)
		})
	}
}

// TestSafeViewTurnsFaultsIntoErrors covers what no damaged file reaches
// reliably: a read of a mapped page that is no longer backed by the file
// (SIGBUS) becomes an error, not a crash.
func TestSafeViewTurnsFaultsIntoErrors(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a mapped file cannot be truncated on Windows")
	}
	dir := withServers(t, 3)
	path := filepath.Join(dir, FileName)
	db, err := openBolt(path, true, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustTruncate(t, path, int64(2*readMeta(t, path).pageSize))

	err = safeView(db, readAll)
	var pe panicError
	if !errors.As(err, &pe) {
		t.Fatalf("safeView over a truncated mapping = %v, want a panicError", err)
	}
}

func TestReopenKeepsData(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	srv, err := s.PutServer(Server{Name: "files", Transport: TransportHTTP, HTTP: &HTTPConfig{URL: "http://localhost:1234/mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutSettings(Settings{WindowWidth: 800}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before := takeSnapshot(t, s.Path())

	s = openT(t, dir)
	got, err := s.Server(srv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.HTTP == nil || got.HTTP.URL != srv.HTTP.URL {
		t.Errorf("server after reopen = %+v, want %+v", got, srv)
	}
	if set, err := s.Settings(); err != nil || set.WindowWidth != 800 {
		t.Errorf("settings after reopen = %+v, %v", set, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Opening an up-to-date file reads it but does not write it.
	assertUnchanged(t, s.Path(), before)
}

// meta is what the tests need of a bbolt meta page, all in pages except
// pageSize.
type meta struct {
	pageSize, root, freelist, pgid int
}

// readMeta parses the newer valid-looking meta page of the file at path.
func readMeta(t *testing.T, path string) meta {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Page header: id u64, flags u16, count u16, overflow u32 (16 bytes).
	// Meta: magic u32, version u32, pageSize u32, flags u32, root {pgid u64,
	// sequence u64}, freelist u64, pgid u64, txid u64, checksum u64.
	parse := func(off int) (meta, uint64) {
		m := data[off+16:]
		return meta{
			pageSize: int(binary.LittleEndian.Uint32(m[8:])),
			root:     int(binary.LittleEndian.Uint64(m[16:])),
			freelist: int(binary.LittleEndian.Uint64(m[32:])),
			pgid:     int(binary.LittleEndian.Uint64(m[40:])),
		}, binary.LittleEndian.Uint64(m[48:])
	}
	m0, tx0 := parse(0)
	m1, tx1 := parse(m0.pageSize)
	if tx1 > tx0 {
		return m1
	}
	return m0
}

// lastUsedPage returns the highest page of the file at path that is not free.
func lastUsedPage(t *testing.T, path string) int {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	last := -1
	err = db.View(func(tx *bbolt.Tx) error {
		for id := range int(tx.Size()) / db.Info().PageSize {
			p, err := tx.Page(id)
			if err != nil {
				return err
			}
			if p.Type != "free" {
				last = id
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return last
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// patch overwrites the file at path with data from offset off.
func patch(t *testing.T, path string, off int, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(data, int64(off)); err != nil {
		t.Fatal(err)
	}
}

func mustTruncate(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(dir, mode); err != nil {
		t.Fatal(err)
	}
	mustChmod(t, dir, mode)
}

func mustChmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func modeOf(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}
