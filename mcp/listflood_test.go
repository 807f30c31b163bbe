package mcp

import (
	"context"
	"encoding/json"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/store"
)

// peak samples the process's goroutines and live heap until stop is
// called, and returns the most of each it saw.
func peak(t *testing.T) (stop func() (goroutines int, heap uint64)) {
	t.Helper()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var (
		mu       sync.Mutex
		maxG     int
		maxHeap  uint64
		done     = make(chan struct{})
		finished = make(chan struct{})
	)
	go func() {
		defer close(finished)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			mu.Lock()
			maxG = max(maxG, runtime.NumGoroutine())
			maxHeap = max(maxHeap, sample[0].Value.Uint64())
			mu.Unlock()
		}
	}()
	return func() (int, uint64) {
		close(done)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return maxG, maxHeap
	}
}

// floodStats is flood-server.mjs's stats tool's answer for one kind of list.
type floodStats struct {
	Requests    int `json:"requests"`
	MaxInFlight int `json:"maxInFlight"`
}

// TestManager_ListChangedFlood: a TypeScript SDK server sends 10,000
// tools/list_changed in 10 s and answers its list requests after random
// delays. Gatehouse keeps at most one listing of each kind in flight (and
// one waiting), so its goroutines and memory stay flat, the server never
// sees two listings of one kind at once, and the list Gatehouse ends with
// is the server's last (issue 22, item 7).
func TestManager_ListChangedFlood(t *testing.T) {
	const count = 10000
	m, _ := newTestManager(t)
	srv := store.Server{ID: "flood", Name: "Flood", Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: "node", Args: []string{peerScript(t, "flood-server.mjs")}}}
	m.Set(srv)
	connected(t, m, srv.ID)
	waitFor(t, "the first list", 10*time.Second, func() bool { _, err := m.Tool(srv.ID, "v0"); return err == nil })

	runtime.GC()
	baseG := runtime.NumGoroutine()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := peak(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := m.CallTool(ctx, srv.ID, "list_flood", map[string]any{"count": count, "seconds": 10}); err != nil {
		t.Fatal(err)
	}
	final := func() bool {
		_, err := m.Tool(srv.ID, "v10000")
		prompts, _ := m.Prompts(srv.ID)
		resources, _ := m.Resources(srv.ID)
		return err == nil && len(prompts) == 1 && prompts[0].Name == "p1" && len(resources) == 1 && resources[0].URI == "flood://r1"
	}
	waitFor(t, "the last lists", 20*time.Second, final)
	// The lists stay the last ones: no older answer lands after them.
	time.Sleep(500 * time.Millisecond)
	maxG, maxHeap := stop()
	if !final() {
		tools, _ := m.Tools(srv.ID)
		names := make([]string, len(tools))
		for i, tl := range tools {
			names[i] = tl.Name
		}
		t.Errorf("an older list replaced the last one: tools %v", names)
	}
	t.Logf("goroutines: %d before, at most %d during; live heap: %d MB before, at most %d MB during",
		baseG, maxG, base.HeapAlloc>>20, maxHeap>>20)
	if maxG > baseG+50 {
		t.Errorf("goroutines grew from %d to %d during the flood, want at most 50 more", baseG, maxG)
	}
	if maxHeap > base.HeapAlloc+64<<20 {
		t.Errorf("the live heap grew from %d MB to %d MB during the flood, want at most 64 MB more", base.HeapAlloc>>20, maxHeap>>20)
	}

	res, err := m.CallTool(ctx, srv.ID, "stats", nil)
	if err != nil {
		t.Fatal(err)
	}
	var stats map[string]floodStats
	if err := json.Unmarshal([]byte(textOf(res)), &stats); err != nil {
		t.Fatalf("stats: %v: %s", err, textOf(res))
	}
	t.Logf("the server's list requests: %+v", stats)
	for kind, s := range stats {
		if s.MaxInFlight > 1 {
			t.Errorf("%s: the server had %d listings in flight at once, want 1", kind, s.MaxInFlight)
		}
	}
	if s := stats["tools"]; s.Requests > count {
		t.Errorf("tools: %d listings for %d changes", s.Requests, count)
	}
}
