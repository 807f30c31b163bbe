package store

import (
	"bytes"
	"maps"
	"sync"

	"go.etcd.io/bbolt"
)

// decodedCache keeps values decoded from the data file by key: a tool call
// through the gateway reads the settings three times and its server's tool
// policy once on its way (issue 25, P11), each a read transaction and a
// JSON decoding, about 5 to 15 µs on a warm core and several times that on
// the cold core of a call that comes after a pause. A value is current
// while the data file has had no write since it was read (Store.writes;
// History's own writes, which touch nothing else, are not counted), and
// after a write while its bytes are the ones it was decoded from: nothing
// has to be told of a change, whoever made it.
type decodedCache[T any] struct {
	mu      sync.Mutex
	entries map[string]decodedEntry[T]
}

// decodedEntry is one key's value, the bytes it was decoded from (nil:
// none stored) and the count of writes when they were read.
type decodedEntry[T any] struct {
	writes uint64
	raw    []byte
	val    T
}

// maxDecoded bounds a cache's keys (servers' tool policies: far fewer).
const maxDecoded = 1024

// get returns the value stored under key k of bucket (cached as key):
// the one read before when it is current, else read and decoded (decode
// gets nil when nothing is stored).
func (c *decodedCache[T]) get(s *Store, key string, bucket, k []byte, decode func(v []byte) (T, error)) (T, error) {
	writes := s.writes.Load()
	c.mu.Lock()
	e, cached := c.entries[key]
	c.mu.Unlock()
	if cached && e.writes == writes {
		return e.val, nil
	}
	var val T
	var raw []byte
	err := s.db.View(func(tx *bbolt.Tx) (err error) {
		v := tx.Bucket(bucket).Get(k)
		if cached && bytes.Equal(v, e.raw) && (v == nil) == (e.raw == nil) {
			val, raw = e.val, e.raw
			return nil
		}
		if val, err = decode(v); err != nil {
			return err
		}
		raw = bytes.Clone(v)
		return nil
	})
	if err != nil {
		return val, err
	}
	c.mu.Lock()
	if c.entries == nil || len(c.entries) >= maxDecoded {
		c.entries = map[string]decodedEntry[T]{}
	}
	c.entries[key] = decodedEntry[T]{writes: writes, raw: raw, val: val}
	c.mu.Unlock()
	return val, nil
}

// update is db.Update for every write but History's (history.go): it
// counts the writes, for decodedCache. The count goes up once the write
// is done; a value read meanwhile is read again after it.
func (s *Store) update(fn func(*bbolt.Tx) error) error {
	defer s.writes.Add(1)
	return s.db.Update(fn)
}

// clone is a copy of p that shares no map with it: a cached policy is
// never handed out itself, as callers change the one they get.
func (p ToolPolicy) clone() ToolPolicy {
	p.Tools = maps.Clone(p.Tools)
	p.Approved = maps.Clone(p.Approved)
	return p
}
