package gateway

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGateway_TellsWhenAnAppsRecordChanges: Settings → Connected apps
// follows the apps' records live, so the gateway says when it changed one:
// a new app seen (with its new record's ID), and its calls counted; an app
// that does nothing is not reported again.
func TestGateway_TellsWhenAnAppsRecordChanges(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	changed := make(chan string, 64)
	f.gw.Close() // the fixture's, without the callback: before any server
	f.gw = New(Options{Store: f.st, Manager: f.m, Broker: f.broker, Version: "test",
		CallTimeout: func() time.Duration { return time.Minute },
		OnAppsChanged: func(id string) {
			select {
			case changed <- id:
			default:
			}
		}})
	f.add(t, "Bank", "ledger-server.mjs", filepath.Join(t.TempDir(), "ledger"))
	next := func(what string) string {
		t.Helper()
		select {
		case id := <-changed:
			return id
		case <-time.After(10 * time.Second):
			t.Fatalf("not told when %s", what)
			return ""
		}
	}

	cs := f.connect(t, clientOptions{name: "claude-code"})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	id := next("a new app connected")
	apps, err := f.st.ClientApps()
	if err != nil || len(apps) != 1 || apps[0].ID != id || apps[0].Calls != 0 {
		t.Fatalf("told %q; the records: %+v, %v", id, apps, err)
	}
	select {
	case again := <-changed:
		t.Fatalf("told again (%q) with nothing changed", again)
	case <-time.After(2 * countEvery):
	}

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Bank__send_payment", Arguments: map[string]any{"to": "ada", "amount": 5}})
	if err != nil || res.IsError {
		t.Fatalf("call: %+v, %v", res, err)
	}
	if got := next("its call was counted"); got != id {
		t.Fatalf("told %q, want %q", got, id)
	}
	rec, err := f.st.ClientApp(id)
	if err != nil || rec.Calls != 1 {
		t.Fatalf("when told, the record is %+v, %v", rec, err)
	}
}
