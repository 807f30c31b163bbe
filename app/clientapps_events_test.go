package app

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestClientApps_TheWindowFollowsTheRecords: Settings → Connected apps
// shows an app that connects while it is open without a reload: the core
// sends EventClientApps with the app's ID when it first uses the gateway
// (and when its calls are counted: gateway's
// TestGateway_TellsWhenAnAppsRecordChanges); forgetting it says so too.
func TestClientApps_TheWindowFollowsTheRecords(t *testing.T) {
	shortRuntimeDir(t)
	core, rec := openTestCore(t)
	cs := gatewayClient(t, core, "events-test", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
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
