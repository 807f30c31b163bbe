package app

import (
	"context"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestClientApps_ChangesReachOpenSessions: what the person changes for an
// app in Settings reaches its open session at once: limited to no server,
// it is told its tools changed and lists none; cut off, it is refused
// with a sentence; let back in and allowed every server, it sees them
// again.
func TestClientApps_ChangesReachOpenSessions(t *testing.T) {
	shortRuntimeDir(t)
	dir := t.TempDir()
	core, err := OpenCore(CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	changed := make(chan struct{}, 10)
	cs := gatewayClient(t, core, "settings-test", &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	})
	count := func() int {
		t.Helper()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Tools)
	}
	// waitFor lists again after each list_changed until want holds.
	waitFor := func(what string, want func(int) bool) {
		t.Helper()
		for n := count(); !want(n); n = count() {
			select {
			case <-changed:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: still %d tools", what, n)
			}
		}
	}
	waitFor("the demo server's tools", func(n int) bool { return n > 0 })

	svc := NewClientAppsService(core)
	apps, err := svc.List()
	if err != nil || len(apps) != 1 || apps[0].Name != "settings-test" {
		t.Fatalf("List = %+v, %v", apps, err)
	}
	if _, err := svc.Update(store.ClientApp{ID: apps[0].ID, Limited: true}); err != nil {
		t.Fatal(err)
	}
	waitFor("limited to no server", func(n int) bool { return n == 0 })

	if _, err := svc.CutOff(apps[0].ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ListTools(ctx, nil); err == nil || !strings.Contains(err.Error(), "cut settings-test off") {
		t.Errorf("a cut-off app lists: %v", err)
	}
	if _, err := svc.Update(store.ClientApp{ID: apps[0].ID}); err != nil {
		t.Fatal(err)
	}
	waitFor("let back in, every server", func(n int) bool { return n > 0 })
}

// shortRuntimeDir sets XDG_RUNTIME_DIR to a new folder of a short path
// (a socket's path is bounded), removed after the test.
func shortRuntimeDir(t *testing.T) {
	t.Helper()
	runtime, err := os.MkdirTemp("", "gh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtime) })
	t.Setenv("XDG_RUNTIME_DIR", runtime)
}

// gatewayClient serves the gateway of core (shortRuntimeDir first) and
// connects a go-sdk client named name to its socket, as `gatehouse
// gateway` does; it is closed after the test.
func gatewayClient(t *testing.T, core *Core, name string, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	if err := core.ServeGateway(); err != nil {
		t.Fatal(err)
	}
	path, err := applink.GatewaySocketPath(core.Store.Dir())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, opts).Connect(ctx, &sdk.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
