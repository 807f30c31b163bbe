package app

import (
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// TestQuestionEvents_InOrderNothingDropped: the window gets every snapshot,
// in the order the broker published them, also after the sending goroutine
// ended for lack of snapshots and a new one started.
func TestQuestionEvents_InOrderNothingDropped(t *testing.T) {
	var mu sync.Mutex
	var got []uint64
	events := newQuestionEvents(func(s mcp.Snapshot) {
		mu.Lock()
		got = append(got, s.Version)
		mu.Unlock()
	})
	received := func() []uint64 {
		mu.Lock()
		defer mu.Unlock()
		return append([]uint64(nil), got...)
	}
	post := func(from, to uint64) {
		for v := from; v <= to; v++ {
			events.post(mcp.Snapshot{Version: v})
		}
	}
	post(1, 500)
	waitUntil(t, "500 snapshots", func() bool { return len(received()) == 500 })
	waitUntil(t, "the sending goroutine to end", func() bool {
		events.mu.Lock()
		defer events.mu.Unlock()
		return !events.running
	})
	post(501, 510)
	waitUntil(t, "510 snapshots", func() bool { return len(received()) == 510 })
	time.Sleep(50 * time.Millisecond) // anything sent twice would be here by now
	all := received()
	if len(all) != 510 {
		t.Fatalf("the window got %d snapshots, want 510", len(all))
	}
	for i, v := range all {
		if v != uint64(i+1) {
			t.Fatalf("snapshot %d is version %d: out of order or dropped", i+1, v)
		}
	}
}
