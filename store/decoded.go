package store

import (
	"bytes"
	"maps"
	"sync"
)

// decodedCache keeps values decoded from the data file by key, each with
// the bytes it was decoded from: reading the same bytes again costs a
// comparison, not a JSON decoding. A tool call through the gateway reads
// the settings three times and its server's tool policy once on its way
// (issue 25, P11), each decoding about 5 to 15 µs on a warm core and
// several times that on a cold one. The bytes are the truth: whoever
// wrote them, a value is decoded again when they differ, so nothing has to
// be told of a change.
type decodedCache[T any] struct {
	mu      sync.Mutex
	entries map[string]decodedEntry[T]
}

// decodedEntry is one key's value and the bytes it was decoded from.
type decodedEntry[T any] struct {
	raw []byte
	val T
}

// maxDecoded bounds a cache's keys (servers' tool policies: far fewer).
const maxDecoded = 1024

// get returns the value of key whose stored bytes are raw (valid for the
// read transaction only): the one decoded from the same bytes before, or
// decode's.
func (c *decodedCache[T]) get(key string, raw []byte, decode func() (T, error)) (T, error) {
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		return e.val, nil
	}
	val, err := decode()
	if err != nil {
		return val, err
	}
	c.mu.Lock()
	if c.entries == nil || len(c.entries) >= maxDecoded {
		c.entries = map[string]decodedEntry[T]{}
	}
	c.entries[key] = decodedEntry[T]{raw: bytes.Clone(raw), val: val}
	c.mu.Unlock()
	return val, nil
}

// clone is a copy of p that shares no map with it: a cached policy is
// never handed out itself, as callers change the one they get.
func (p ToolPolicy) clone() ToolPolicy {
	p.Tools = maps.Clone(p.Tools)
	p.Approved = maps.Clone(p.Approved)
	return p
}
