package mcp

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/gatehouse-app/gatehouse/store"
)

// TestHistoryWriter: entries are written in order, many per write, and
// flush waits for all of them; beyond store.MaxHistory waiting entries the
// oldest are dropped (the history keeps no more anyway).
func TestHistoryWriter(t *testing.T) {
	var mu sync.Mutex
	var written []string
	writes := 0
	block := make(chan struct{})
	w := newHistoryWriter(func(es []store.HistoryEntry) error {
		<-block
		mu.Lock()
		defer mu.Unlock()
		writes++
		for _, e := range es {
			written = append(written, e.Message)
		}
		return nil
	})
	for i := range 100 {
		w.record(store.HistoryEntry{Message: fmt.Sprint(i)})
	}
	close(block)
	w.flush()
	mu.Lock()
	if len(written) != 100 || written[0] != "0" || written[99] != "99" || writes > 2 {
		t.Errorf("%d entries in %d writes, first %q", len(written), writes, written[0])
	}
	mu.Unlock()

	// A flood larger than the history, while a write is in progress: of
	// those waiting, only the newest store.MaxHistory are kept.
	hold, started := make(chan struct{}), make(chan struct{}, 1)
	var got int
	w2 := newHistoryWriter(func(es []store.HistoryEntry) error {
		started <- struct{}{}
		<-hold
		got += len(es)
		return nil
	})
	w2.record(store.HistoryEntry{})
	<-started // the first write holds one entry
	for range store.MaxHistory + 500 {
		w2.record(store.HistoryEntry{})
	}
	go func() {
		for range started {
		}
	}()
	close(hold)
	w2.flush()
	close(started)
	if got != 1+store.MaxHistory {
		t.Errorf("wrote %d entries; want %d", got, 1+store.MaxHistory)
	}
}

// TestBroker_SchemaCache: a form asked again is parsed once per server; the
// cache is per server and bounded.
func TestBroker_SchemaCache(t *testing.T) {
	f := newBrokerFixture(t, newScripted(nil), BrokerOptions{})
	raw := json.RawMessage(nameSchema)
	a1, err := f.broker.parseSchema(f.a.Server.ID, raw)
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := f.broker.parseSchema(f.a.Server.ID, raw)
	b1, _ := f.broker.parseSchema(f.b.Server.ID, raw)
	if a1 != a2 || a1 == b1 {
		t.Error("the same form must be reused for one server and not shared with another")
	}
	reordered := json.RawMessage(`{"properties":{"name":{"minLength":1,"type":"string"}},"required":["name"],"type":"object"}`)
	if o, _ := f.broker.parseSchema(f.a.Server.ID, reordered); o == a1 {
		t.Error("a schema written differently is another form")
	}
	for i := range maxCachedSchemas + 5 {
		s := fmt.Sprintf(`{"type":"object","properties":{"f%d":{"type":"string"}}}`, i)
		if _, err := f.broker.parseSchema(f.a.Server.ID, json.RawMessage(s)); err != nil {
			t.Fatal(err)
		}
	}
	f.broker.mu.Lock()
	n := len(f.broker.servers[f.a.Server.ID].schemas)
	f.broker.mu.Unlock()
	if n > maxCachedSchemas {
		t.Errorf("cache holds %d forms, over %d", n, maxCachedSchemas)
	}
	if _, err := f.broker.parseSchema(f.a.Server.ID, json.RawMessage(`{"type":"object","properties":{"x":{"type":"object"}}}`)); err == nil {
		t.Error("an invalid form must still be refused")
	}
}
