package app

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// floodPeer returns testdata/peers/flood-server.mjs, or skips the test when
// the TypeScript SDK peers are not installed (failing under
// GATEHOUSE_REQUIRE_PEERS=1, as make test runs).
func floodPeer(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	peers := filepath.Join(filepath.Dir(file), "..", "testdata", "peers")
	if _, err := os.Stat(filepath.Join(peers, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatal("the TypeScript SDK peers are not installed (run: make peers)")
		}
		t.Skip("the TypeScript SDK peers are not installed (run: make peers)")
	}
	return filepath.Join(peers, "flood-server.mjs")
}

// TestToolsCall_ProgressFloodReachesTheWindowCoalesced: a TypeScript SDK
// server sends 10,000 progress notifications for one call of the Tools pane
// as fast as it can. The window hears of them at most about 30 times a
// second, and the last one (10,000 of 10,000, "done") always arrives
// (issue 22, item 7: before, each notification was an event).
func TestToolsCall_ProgressFloodReachesTheWindowCoalesced(t *testing.T) {
	const count = 10000
	core, rec := openTestCore(t)
	servers := NewServersService(core)
	view, err := servers.Add(ServerInput{Name: "Flood", Enabled: true, Transport: store.TransportStdio,
		Command: "node", Args: []string{floodPeer(t)}})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the flood server's tools", func() bool {
		_, err := core.Manager.Tool(view.ID, "progress_flood")
		return err == nil
	})
	tools := NewToolsService(core)
	started := time.Now()
	res, err := tools.Call("flood-call", view.ID, "progress_flood", `{"count":10000}`)
	took := time.Since(started)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}

	rec.mu.Lock()
	var seen []ToolProgress
	for _, ev := range rec.events[EventProgress] {
		if p, ok := ev.(ToolProgress); ok && p.CallID == "flood-call" {
			seen = append(seen, p)
		}
	}
	rec.mu.Unlock()
	// At most one event every 1/30 s, the first at once, and the final one.
	allowed := int(took/mcp.ProgressEvery) + 2
	t.Logf("%d progress notifications became %d events in %s (at most %d allowed)", count, len(seen), took.Round(time.Millisecond), allowed)
	if len(seen) > allowed {
		t.Errorf("the window got %d progress events in %s, want at most %d (about 30 a second)", len(seen), took.Round(time.Millisecond), allowed)
	}
	if len(seen) == 0 {
		t.Fatal("no progress event reached the window")
	}
	if last := seen[len(seen)-1]; last.Progress != count || last.Total != count || last.Message != "done" {
		t.Errorf("the last progress event = %+v, want %d of %d, done", last, count, count)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].Progress <= seen[i-1].Progress {
			t.Errorf("progress went back from %g to %g", seen[i-1].Progress, seen[i].Progress)
			break
		}
	}
}
