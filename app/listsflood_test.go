package app

import (
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestLists_FloodReachesTheWindowCoalesced: a TypeScript SDK server that
// answers at once sends 10,000 tools/list_changed in 2 s. The window, which
// reads a server's lists again on each event, hears of the change at most
// about 30 times a second, and the list it reads at the end is the last.
func TestLists_FloodReachesTheWindowCoalesced(t *testing.T) {
	core, _ := openTestCore(t)
	w := &listReader{core: core}
	core.SetEmitter(w)
	view, err := NewServersService(core).Add(ServerInput{Name: "Flood", Enabled: true, Transport: store.TransportStdio,
		Command: "node", Args: []string{floodPeer(t), "--fast"}})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the flood server's tools", func() bool {
		_, err := core.Manager.Tool(view.ID, "v0")
		return err == nil
	})
	w.set(view.ID)
	before, _ := w.seen()
	started := time.Now()
	if _, err := NewToolsService(core).Call("", view.ID, "list_flood", `{"count":10000,"seconds":2}`); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the last tool list", func() bool {
		_, err := core.Manager.Tool(view.ID, "v10000")
		return err == nil
	})
	time.Sleep(200 * time.Millisecond) // the last event, if it waits
	took := time.Since(started)
	events, last := w.seen()
	events -= before
	allowed := int(took/mcp.ProgressEvery) + 2
	t.Logf("10,000 list changes became %d tools events in %s (at most %d allowed)", events, took.Round(time.Millisecond), allowed)
	if events > allowed {
		t.Errorf("the window got %d tools events in %s, want at most %d (about 30 a second)", events, took.Round(time.Millisecond), allowed)
	}
	if events == 0 || !last {
		t.Errorf("the window read the lists %d times; the last read had the last list: %v", events, last)
	}
}

// listReader is a window that reads a server's tools again on each
// EventTools, as the Tools pane does, and notes whether it saw the last
// list of flood-server.mjs's list_flood.
type listReader struct {
	core *Core

	mu    sync.Mutex
	id    string
	reads int
	last  bool // the newest read had v10000
}

func (w *listReader) set(id string) { w.mu.Lock(); w.id = id; w.mu.Unlock() }

func (w *listReader) Emit(name string, data any) {
	w.mu.Lock()
	id := w.id
	w.mu.Unlock()
	if name != EventTools || data != id || id == "" {
		return
	}
	_, err := w.core.Manager.Tool(id, "v10000")
	w.mu.Lock()
	w.reads++
	w.last = err == nil
	w.mu.Unlock()
}

func (w *listReader) seen() (reads int, last bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reads, w.last
}
