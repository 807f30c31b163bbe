package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"go.etcd.io/bbolt"
)

// FileName is the name of the data file inside the data directory.
const FileName = "gatehouse.db"

// DataDirEnv names the environment variable that, when set, overrides the
// data directory returned by DefaultDir.
const DataDirEnv = "GATEHOUSE_DATA_DIR"

// DefaultLockTimeout is how long Open waits for another Gatehouse to let go
// of the data file when Options.LockTimeout is zero.
const DefaultLockTimeout = 500 * time.Millisecond

var (
	// ErrLocked means another process (or another Open in this process)
	// holds the data file. Its message is meant to be shown as it is.
	ErrLocked = i18n.Err("store.error.locked")

	// ErrCorrupt means the data file is not a readable Gatehouse data file.
	// The file is never modified when Open returns it.
	ErrCorrupt = errors.New("data file is damaged")

	// ErrNewerVersion means the data file was written by a newer Gatehouse
	// whose layout this build does not know. The file is not modified.
	ErrNewerVersion = errors.New("data file is from a newer Gatehouse")

	// ErrNotFound means no record has the given ID or name.
	ErrNotFound = errors.New("not found")

	// ErrDuplicateName means another record of the same kind (server,
	// provider) already has the name, ignoring case and surrounding spaces.
	ErrDuplicateName = errors.New("duplicate name")

	// ErrInvalid means a record was refused because a field is unusable; the
	// wrapping error says which in a sentence.
	ErrInvalid = errors.New("invalid")
)

// Options configures Open. The zero value, like a nil *Options, means the
// defaults.
type Options struct {
	// LockTimeout is how long Open waits for the data file's lock before
	// giving up with ErrLocked. Zero means DefaultLockTimeout; a negative
	// value means a single attempt.
	LockTimeout time.Duration
}

// Store is an open data file. It is safe for concurrent use. Every method
// runs in one bbolt transaction, so each call sees and leaves a consistent
// file.
type Store struct {
	db   *bbolt.DB
	dir  string
	path string
	now  func() time.Time // UTC wall clock; tests replace it

	// What Settings and ToolPolicy decoded last, and the count of writes
	// that tells whether it is current (decoded.go).
	settings     decodedCache[Settings]
	toolPolicies decodedCache[ToolPolicy]
	writes       atomic.Uint64
}

// DefaultDir returns the data directory: the value of DataDirEnv when it is
// set (made absolute), else "gatehouse" in os.UserConfigDir. It does not
// create the directory.
func DefaultDir() (string, error) {
	if dir := os.Getenv(DataDirEnv); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("resolve %s=%q: %w", DataDirEnv, dir, err)
		}
		return abs, nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the data directory (set %s to choose one): %w", DataDirEnv, err)
	}
	return filepath.Join(base, "gatehouse"), nil
}

// Open opens the data file in dir, creating dir (0700) and the file (0600)
// when missing. It narrows the file to 0600 when it is wider, and dir to 0700
// only when dir is Gatehouse's own default directory (gatehouse in
// os.UserConfigDir): a directory that existed and was chosen by the user
// (DataDirEnv, a command-line flag) may be shared, such as their home, and
// keeps its permissions. It holds the file's lock until Close.
//
// Open never writes to a file it cannot fully read: a damaged file gives
// ErrCorrupt, a file from a newer Gatehouse gives ErrNewerVersion, and a file
// held by another process gives ErrLocked; in each case the file is left
// exactly as it was. A file with an older layout is upgraded in one
// transaction.
func Open(dir string, opts *Options) (*Store, error) {
	if dir == "" {
		return nil, fmt.Errorf("%w: no data directory given", ErrInvalid)
	}
	timeout := DefaultLockTimeout
	if opts != nil && opts.LockTimeout != 0 {
		timeout = opts.LockTimeout
	}
	deadline := time.Now().Add(timeout)
	path := filepath.Join(dir, FileName)

	_, statErr := os.Stat(dir)
	ownDir := errors.Is(statErr, fs.ErrNotExist) || isDefaultDir(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the data directory: %w", err)
	}

	// Inspect an existing file read-only first. bbolt opened read-write may
	// write before we have looked at the data (on Windows it grows the file
	// to the mapping size), so a file only gets a writer once it has been
	// read in full.
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.Size() > 0:
		if err := inspect(path, timeout); err != nil {
			return nil, err
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("open the data file: %w", err)
	}
	// An empty or missing file has nothing to lose: bbolt initialises it.

	db, err := openBolt(path, false, remaining(timeout, deadline))
	if err != nil {
		return nil, openError(path, err)
	}
	if err := upgrade(db, path); err != nil {
		_ = db.Close()
		return nil, err
	}
	if err := narrowPerms(dir, path, ownDir); err != nil {
		_ = db.Close()
		return nil, err
	}
	return &Store{
		db:   db,
		dir:  dir,
		path: path,
		now:  func() time.Time { return time.Now().UTC() },
	}, nil
}

// Close releases the data file. Calling it again does nothing.
func (s *Store) Close() error {
	return s.db.Close()
}

// Path returns the data file's path, Dir()/FileName.
func (s *Store) Path() string { return s.path }

// Dir returns the data directory as given to Open.
func (s *Store) Dir() string { return s.dir }

// remaining returns the lock timeout left before deadline, never zero
// (which bbolt reads as "wait forever"); negative means one attempt.
func remaining(timeout time.Duration, deadline time.Time) time.Duration {
	if timeout < 0 {
		return timeout
	}
	if left := time.Until(deadline); left > 0 {
		return left
	}
	return -1
}

// isDefaultDir reports whether dir is the directory DefaultDir returns
// without DataDirEnv: Gatehouse's own, which nobody else should read.
func isDefaultDir(dir string) bool {
	base, err := os.UserConfigDir()
	if err != nil {
		return false
	}
	own, err := os.Stat(filepath.Join(base, "gatehouse"))
	if err != nil {
		return false
	}
	fi, err := os.Stat(dir)
	return err == nil && os.SameFile(fi, own)
}

// narrowPerms makes the file 0600, and dir 0700 when narrowDir is set, when
// they grant anything to group or others. POSIX modes mean nothing on
// Windows.
func narrowPerms(dir, path string, narrowDir bool) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	type target struct {
		name string
		mode fs.FileMode
	}
	targets := []target{{path, 0o600}}
	if narrowDir {
		targets = append(targets, target{dir, 0o700})
	}
	for _, f := range targets {
		fi, err := os.Stat(f.name)
		if err != nil {
			return fmt.Errorf("check permissions: %w", err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(f.name, f.mode); err != nil {
				return fmt.Errorf("make %s private: %w", f.name, err)
			}
		}
	}
	return nil
}
