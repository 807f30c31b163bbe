package gateway

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

// waitFor waits, at most d, until ok holds.
func waitFor(t *testing.T, what string, d time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// updates are the notifications/resources/updated a client received.
type updates struct {
	mu   sync.Mutex
	uris []string
}

func (u *updates) handler(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.uris = append(u.uris, req.Params.URI)
}

func (u *updates) count(uri string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	n := 0
	for _, got := range u.uris {
		if got == uri {
			n++
		}
	}
	return n
}

// TestGateway_ResourceSubscriptions: a client's subscription to a resource
// goes to the server that offers it (server-everything, which sends an
// update of every subscribed resource when its toggle-subscriber-updates
// tool starts them); each update reaches the clients subscribed to that
// resource and no other; a subscription ends when its client unsubscribes
// or leaves, and the gateway's end of one leaves the window's own alone.
func TestGateway_ResourceSubscriptions(t *testing.T) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			f := newFixture(t, allowOnce, Limits{})
			every := f.add(t, "Everything", "everything")
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var ua, ub updates
			a := f.connect(t, clientOptions{name: "agent-a", revision: rev, sdk: &sdk.ClientOptions{ResourceUpdatedHandler: ua.handler}})
			b := f.connect(t, clientOptions{name: "agent-b", revision: rev, sdk: &sdk.ClientOptions{ResourceUpdatedHandler: ub.handler}})
			if caps := a.InitializeResult().Capabilities; caps == nil || caps.Resources == nil || !caps.Resources.Subscribe {
				t.Fatalf("the gateway does not offer subscriptions: %+v", caps.Resources)
			}
			list, err := a.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var features, architecture string
			for _, r := range list.Resources {
				switch {
				case strings.HasSuffix(r.URI, "/features.md"):
					features = r.URI
				case strings.HasSuffix(r.URI, "/architecture.md"):
					architecture = r.URI
				}
			}
			if features == "" || architecture == "" {
				t.Fatalf("server-everything's documents: %q, %q", features, architecture)
			}
			if err := a.Subscribe(ctx, &sdk.SubscribeParams{URI: features}); err != nil {
				t.Fatal(err)
			}
			if err := b.Subscribe(ctx, &sdk.SubscribeParams{URI: architecture}); err != nil {
				t.Fatal(err)
			}
			held := func(uri string) bool { return f.m.SubscribedFor(every.ID, uri, holder) }
			waitFor(t, "the gateway's subscriptions on the server", 15*time.Second, func() bool { return held(features) && held(architecture) })
			if subs, _ := f.m.Subscriptions(every.ID); len(subs) != 0 {
				t.Errorf("the window's subscriptions: %v", subs)
			}
			if _, err := f.m.CallTool(ctx, every.ID, "toggle-subscriber-updates", nil); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "each client's update", 15*time.Second, func() bool { return ua.count(features) > 0 && ub.count(architecture) > 0 })
			if ua.count(architecture) != 0 || ub.count(features) != 0 {
				t.Errorf("an update reached a client not subscribed to it: a %v, b %v", ua.uris, ub.uris)
			}

			// A client that leaves ends its subscriptions.
			b.Close()
			waitFor(t, "the end of the leaving client's subscription", 15*time.Second, func() bool { return !held(architecture) })

			// The window's own subscription outlives the gateway's.
			if err := f.m.Subscribe(ctx, every.ID, features); err != nil {
				t.Fatal(err)
			}
			if err := a.Unsubscribe(ctx, &sdk.UnsubscribeParams{URI: features}); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the end of the gateway's subscription", 15*time.Second, func() bool { return !held(features) })
			if subs, _ := f.m.Subscriptions(every.ID); !slices.Equal(subs, []string{features}) {
				t.Errorf("the window's subscriptions after the client's ended: %v", subs)
			}
		})
	}
}

// TestGateway_SubscriptionsOnlyAsServersOfferThem: with no server that
// lets clients subscribe, the gateway does not say it does, and a
// subscription is refused with a sentence.
func TestGateway_SubscriptionsOnlyAsServersOfferThem(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	f.add(t, "Asker", "elicit-server.mjs")
	for _, rev := range revisions {
		cs := f.connect(t, clientOptions{revision: rev})
		if caps := cs.InitializeResult().Capabilities; caps.Resources != nil && caps.Resources.Subscribe {
			t.Errorf("%s: the gateway offers subscriptions no server offers: %+v", rev, caps.Resources)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// (From 2026-07-28 a subscription refused is one the server's
		// acknowledgement leaves out: the client is not told otherwise.)
		if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: "demo://nothing"}); err == nil && rev == "2025-11-25" {
			t.Errorf("%s: a subscription to a resource no server offers was taken", rev)
		}
	}
}

// TestGateway_ASubscriptionEndsWithTheAppsView: once the person limits an
// app to other servers, its subscriptions to the server it no longer sees
// end there.
func TestGateway_ASubscriptionEndsWithTheAppsView(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	every := f.add(t, "Everything", "everything")
	cs := f.connect(t, clientOptions{name: "agent", revision: "2025-11-25"})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const doc = "demo://resource/static/document/features.md"
	if _, err := cs.ListResources(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: doc}); err != nil {
		t.Fatal(err)
	}
	if !f.m.SubscribedFor(every.ID, doc, holder) {
		t.Fatal("not subscribed on the server")
	}
	apps, _ := f.st.ClientApps()
	if _, err := f.st.PutClientAppSettings(store.ClientApp{ID: apps[0].ID, Limited: true, Servers: []string{"other"}}); err != nil {
		t.Fatal(err)
	}
	f.gw.AppChanged(apps[0].ID)
	if f.m.SubscribedFor(every.ID, doc, holder) {
		t.Error("still subscribed to a server the app no longer sees")
	}
}
