package app

import (
	"context"
	"net"
	"os"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/applink"
)

// TestClientApps_TheWindowFollowsTheRecords: Settings → Connected apps
// shows an app that connects while it is open, and its calls, without a
// reload: the core sends EventClientApps with the app's ID when it first
// uses the gateway and when its calls are counted; forgetting it says so
// too.
func TestClientApps_TheWindowFollowsTheRecords(t *testing.T) {
	runtime, err := os.MkdirTemp("", "gh")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(runtime)
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	dir := t.TempDir()
	core, rec := openTestCoreIn(t, dir)
	if err := core.ServeGateway(); err != nil {
		t.Fatal(err)
	}
	path, err := applink.GatewaySocketPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "events-test", Version: "1"}, nil).
		Connect(ctx, &sdk.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	sent := func() []any {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return slices.Clone(rec.events[EventClientApps])
	}
	waitUntil(t, "the event of a new app", func() bool { return len(sent()) > 0 })
	svc := NewClientAppsService(core)
	apps, err := svc.List()
	if err != nil || len(apps) != 1 || sent()[0] != apps[0].ID {
		t.Fatalf("sent %v; the apps: %+v, %v", sent(), apps, err)
	}
	if err := svc.Forget(apps[0].ID); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the event of a forgotten app", func() bool { return len(sent()) > 1 })
}
