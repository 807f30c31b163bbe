package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// fileError is an error about the data file whose message is a complete
// sentence and which matches its sentinels (and cause) with errors.Is.
type fileError struct {
	msg  string
	errs []error
}

func (e *fileError) Error() string   { return e.msg }
func (e *fileError) Unwrap() []error { return e.errs }

// corruptError reports a damaged file. Callers must not have written to it.
func corruptError(path string, cause error) error {
	return &fileError{
		msg:  fmt.Sprintf("the data file %s is damaged and was left untouched (%v)", path, cause),
		errs: []error{ErrCorrupt, cause},
	}
}

// openError turns a bbolt.Open failure into ErrLocked, an I/O error, or
// ErrCorrupt. Failures that are not the lock or the operating system are
// bbolt refusing the bytes it read: ErrInvalid, ErrVersionMismatch,
// ErrChecksum, "file size too small", or a recovered panic.
func openError(path string, err error) error {
	var pathErr *fs.PathError
	var errno syscall.Errno
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return ErrLocked
	case errors.As(err, &pathErr), errors.As(err, &errno):
		return fmt.Errorf("open the data file: %w", err)
	default:
		return corruptError(path, err)
	}
}

// panicError is a panic inside bbolt, which it raises on pages that are not
// what it expects, turned into an error.
type panicError struct{ v any }

func (e panicError) Error() string { return fmt.Sprintf("bbolt: %v", e.v) }

// openBolt opens path with bbolt, turning its panics and memory faults on
// damaged files into errors. If bbolt panics halfway through Open, the file
// (and with it the lock) is closed here; its memory map is leaked.
func openBolt(path string, readOnly bool, timeout time.Duration) (db *bbolt.DB, err error) {
	var file *os.File
	defer func() {
		if r := recover(); r != nil {
			if file != nil {
				_ = file.Close()
			}
			db, err = nil, panicError{r}
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return bbolt.Open(path, 0o600, &bbolt.Options{
		Timeout:  timeout,
		ReadOnly: readOnly,
		// Read the freelist now, where a bad one is caught, not later.
		PreLoadFreelist: true,
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			f, err := os.OpenFile(name, flag, perm)
			file = f
			return f, err
		},
	})
}

// safeView is db.View that turns panics and memory faults into errors.
// View rolls its transaction back while the panic passes.
func safeView(db *bbolt.DB, fn func(*bbolt.Tx) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError{r}
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return db.View(fn)
}

// inspect opens an existing file read-only and reads all of it, so that a
// damaged or too new file is found before anything writes to it.
//
// First every record of every bucket is read here, under panic-on-fault, so
// that pages bbolt cannot parse, or page pointers past the end of the file,
// become errors. Then bbolt's Tx.Check confirms that the freelist and the
// pages agree (a freelist naming a live page would have the next write
// overwrite data). Check is not first because it runs in a goroutine of its
// own, where a memory fault cannot be recovered; after the walk the pages it
// reads are known to be sound. Both are linear in the file size and take
// about 20 ms each for an 80 MB file with a warm cache.
//
// What keeps a damaged file from being written is the walk and Check; the
// records are decoded besides, so that a file whose servers or settings
// cannot be read is refused rather than half used. History entries, up to
// MaxHistory of them, are only checked to be JSON: decoding them took 40 of
// the 44 ms Open spent on a file with a full history, and a history entry
// that reads badly later fails History without risk to the rest (ClearHistory
// removes it).
func inspect(path string, timeout time.Duration) error {
	db, err := openBolt(path, true, timeout)
	if err != nil {
		return openError(path, err)
	}
	defer db.Close()

	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("open the data file: %w", err)
	}
	var version int
	err = safeView(db, func(tx *bbolt.Tx) error {
		// A commit grows the file before its meta page points past the old
		// end, so a file shorter than its meta says has lost its tail.
		if tx.Size() > fi.Size() {
			return fmt.Errorf("file is %d bytes but its index needs %d; it was cut short", fi.Size(), tx.Size())
		}
		var err error
		if version, err = readVersion(tx); err != nil {
			return err
		}
		if version > schemaVersion() {
			return nil // its layout is not ours to judge
		}
		if err := readAll(tx); err != nil {
			return err
		}
		// Drain the channel: Check's goroutine reads the transaction until it
		// closes it, and it must be done before the transaction ends.
		var first error
		for err := range tx.Check() {
			if first == nil {
				first = err
			}
		}
		return first
	})
	switch {
	case err != nil:
		return corruptError(path, err)
	case version > schemaVersion():
		return newerError(path, version)
	}
	return nil
}

// readAll decodes every record of the known buckets, as the file's version
// lays them out, except that history entries and conversations are only
// checked to be JSON, messages are checked by checkMessages, and secrets
// are opaque; it reads every byte of the other buckets.
func readAll(tx *bbolt.Tx) error {
	version, err := readVersion(tx)
	if err != nil {
		return err
	}
	return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
		switch string(name) {
		case string(bucketServers):
			return b.ForEach(func(k, v []byte) error {
				srv, err := decodeServer(k, v)
				if err != nil {
					return err
				}
				if srv.ID != string(k) {
					return fmt.Errorf("server stored under %q has id %q", k, srv.ID)
				}
				return nil
			})
		case string(bucketPolicies):
			return b.ForEach(func(k, v []byte) error {
				var p Policy
				return decodeValue(name, k, v, &p)
			})
		case string(bucketSecrets):
			if version < 4 { // sign-in tokens' JSON under the bare server ID
				return b.ForEach(func(k, v []byte) error {
					if v == nil || !json.Valid(v) {
						return fmt.Errorf("%s/%s: not a JSON record", name, k)
					}
					return nil
				})
			}
			return b.ForEach(func(k, v []byte) error {
				kind, _, _ := strings.Cut(string(k), "/")
				if _, ok := secretOwners[kind]; !ok {
					return fmt.Errorf("%s: a key that names no kind of secret", name)
				}
				if v == nil {
					return fmt.Errorf("%s: unexpected nested bucket", name)
				}
				return nil
			})
		case string(bucketProviders):
			return b.ForEach(func(k, v []byte) error {
				p, err := decodeProvider(k, v)
				if err != nil {
					return err
				}
				if p.ID != string(k) {
					return fmt.Errorf("provider stored under %q has id %q", k, p.ID)
				}
				return nil
			})
		case string(bucketToolPolicies):
			return b.ForEach(func(k, v []byte) error {
				var p ToolPolicy
				return decodeValue(name, k, v, &p)
			})
		case string(bucketClients):
			return b.ForEach(func(k, v []byte) error {
				var c ClientApp
				return decodeValue(name, k, v, &c)
			})
		case string(bucketConversations):
			// Up to thousands of records: checked to be JSON, like history
			// entries; Conversation decodes them in full.
			return b.ForEach(func(k, v []byte) error {
				if v == nil || !json.Valid(v) {
					return fmt.Errorf("%s/%s: not a JSON record", name, k)
				}
				return nil
			})
		case string(bucketRecent):
			return checkRecent(tx, b)
		case string(bucketMessages):
			return checkMessages(tx, b)
		case string(bucketHistory):
			// Up to MaxHistory records: checking that each is JSON reads all
			// its bytes at a quarter of the cost of decoding it (see
			// BenchmarkOpenWithFullHistory). History decodes them in full.
			return b.ForEach(func(k, v []byte) error {
				id, err := historyID(k)
				if err != nil {
					return err
				}
				if v == nil || !json.Valid(v) {
					return fmt.Errorf("%s/%d: not a JSON record", name, id)
				}
				return nil
			})
		case string(bucketSettings):
			return b.ForEach(func(k, v []byte) error {
				var s Settings
				return decodeValue(name, k, v, &s)
			})
		case string(bucketMeta):
			return b.ForEach(func(k, v []byte) error {
				if string(k) == string(keyInitialized) {
					var t time.Time
					return decodeValue(name, k, v, &t)
				}
				return decodeValue(name, k, v, new(json.RawMessage))
			})
		default:
			return touch(b)
		}
	})
}

// checkRecent checks that the index of conversations names each
// conversation once.
func checkRecent(tx *bbolt.Tx, recent *bbolt.Bucket) error {
	convs := tx.Bucket(bucketConversations)
	if convs == nil {
		return fmt.Errorf("%s: the conversations are missing", bucketRecent)
	}
	n := 0
	err := recent.ForEach(func(k, v []byte) error {
		n++
		if len(k) <= 8 || len(v) != 0 || convs.Get(k[8:]) == nil {
			return fmt.Errorf("%s: an entry %x that names no conversation", bucketRecent, k)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if all := convs.Stats().KeyN; n != all {
		return fmt.Errorf("%s: %d entries for %d conversations", bucketRecent, n, all)
	}
	return nil
}

// checkMessages checks that the messages are in a bucket per existing
// conversation under 8-byte keys, and touches every memory page of their
// values, so that a value past the end of the file faults here. Decoding
// them is left to Messages, like history entries: a conversation may hold
// megabytes of tool results, and one that reads badly fails only itself
// (DeleteConversation removes it). Touching one byte per 1 KiB, not every
// byte, halved the time readAll takes on a 50 MB file of 100,000 messages
// (125 to 60 ms, BenchmarkOpenWithChats); a fault comes a whole memory page
// (4 KiB or more) at a time.
func checkMessages(tx *bbolt.Tx, msgs *bbolt.Bucket) error {
	convs := tx.Bucket(bucketConversations)
	if convs == nil {
		return fmt.Errorf("%s: the conversations are missing", bucketMessages)
	}
	return msgs.ForEach(func(id, v []byte) error {
		b := msgs.Bucket(id)
		if v != nil || b == nil {
			return fmt.Errorf("%s/%s: a record where a conversation's messages belong", bucketMessages, id)
		}
		if convs.Get(id) == nil {
			return fmt.Errorf("%s/%s: messages of a conversation that does not exist", bucketMessages, id)
		}
		var sum byte
		return b.ForEach(func(k, v []byte) error {
			if len(k) != 8 || v == nil {
				return fmt.Errorf("%s/%s: a record under key %x, which is not a message's", bucketMessages, id, k)
			}
			for i := 0; i < len(v); i += 1 << 10 {
				sum ^= v[i]
			}
			if len(v) > 0 {
				sum ^= v[len(v)-1]
			}
			return nil
		})
	})
}

// decodeValue decodes the JSON value v of bucket/key into dst.
func decodeValue(bucket, key, v []byte, dst any) error {
	if v == nil {
		return fmt.Errorf("%s/%s: unexpected nested bucket", bucket, key)
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return fmt.Errorf("%s/%s: %w", bucket, key, err)
	}
	return nil
}

// touch reads every key and value of b and its nested buckets.
func touch(b *bbolt.Bucket) error {
	var sum byte
	return b.ForEach(func(k, v []byte) error {
		for _, c := range k {
			sum ^= c
		}
		if v == nil {
			if nested := b.Bucket(k); nested != nil {
				return touch(nested)
			}
			return nil
		}
		for _, c := range v {
			sum ^= c
		}
		return nil
	})
}
