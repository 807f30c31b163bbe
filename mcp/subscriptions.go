package mcp

import (
	"context"
	"slices"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// From 2026-07-28 a subscription is a subscriptions/listen stream, and the
// go-sdk's ClientSession.Subscribe returns as soon as it has asked: the
// server takes the subscription when its notifications/subscriptions/
// acknowledged arrives. Until then a change of the resource is not
// announced, so Subscribe waits for that acknowledgement (a person who
// ticks "Notify me" and then changes the resource must hear of it).

// subscribeAckTimeout is how long Subscribe waits for the acknowledgement.
const subscribeAckTimeout = 15 * time.Second

// listensForUpdates reports whether the connection subscribes with
// subscriptions/listen streams (2026-07-28 and later).
func listensForUpdates(cs *sdk.ClientSession) bool {
	res := cs.InitializeResult()
	return res != nil && res.ProtocolVersion >= "2026-07-28"
}

// methodSubscriptionsAcknowledged is the server's acknowledgement of a
// subscriptions/listen stream.
const methodSubscriptionsAcknowledged = "notifications/subscriptions/acknowledged"

// subscriptionAcks are the Subscribe calls of one session waiting for their
// acknowledgement, by URI.
type subscriptionAcks struct {
	mu      sync.Mutex
	waiting map[string][]chan struct{}
}

// expect returns a channel closed when the server takes the subscription
// of uri.
func (a *subscriptionAcks) expect(uri string) chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.waiting == nil {
		a.waiting = map[string][]chan struct{}{}
	}
	ch := make(chan struct{})
	a.waiting[uri] = append(a.waiting[uri], ch)
	return ch
}

// forget drops a wait that ended without an acknowledgement.
func (a *subscriptionAcks) forget(uri string, ch chan struct{}) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.waiting[uri] = slices.DeleteFunc(a.waiting[uri], func(c chan struct{}) bool { return c == ch })
	if len(a.waiting[uri]) == 0 {
		delete(a.waiting, uri)
	}
}

// acknowledged ends the waits for the URIs the server took.
func (a *subscriptionAcks) acknowledged(taken []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, uri := range taken {
		for _, ch := range a.waiting[uri] {
			close(ch)
		}
		delete(a.waiting, uri)
	}
}

// middleware watches the session's incoming messages for the
// acknowledgements, which the go-sdk passes on to no handler of ours.
func (a *subscriptionAcks) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method == methodSubscriptionsAcknowledged {
			if p, ok := req.GetParams().(*sdk.SubscriptionsAcknowledgedParams); ok && p != nil {
				a.acknowledged(p.Notifications.ResourceSubscriptions)
			}
		}
		return next(ctx, method, req)
	}
}
