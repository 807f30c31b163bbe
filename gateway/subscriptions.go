package gateway

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// A client's resources/subscribe (or, from 2026-07-28, the URIs of its
// subscriptions/listen) goes to the server that offers the resource: the
// gateway holds one subscription there for all its clients
// (mcp.Manager.SubscribeFor, holder "gateway", beside the window's own),
// passes each notifications/resources/updated on to the clients
// subscribed to that URI and to no other, and ends a client's
// subscriptions when it unsubscribes, leaves, or may no longer see the
// server.

// holder is the gateway's name among the holders of a server's
// subscriptions (mcp.Manager.SubscribeFor).
const holder = "gateway"

// maxSubscriptions bounds the resources one client subscribes to.
const maxSubscriptions = 64

// subscribeTimeout bounds asking a server for a subscription.
const subscribeTimeout = 20 * time.Second

// subscription is one resource of one server.
type subscription struct{ serverID, uri string }

// subscribe is a client's subscription to a resource: on the server that
// offers it, which must let clients subscribe.
func (c *conn) subscribe(ctx context.Context, req *sdk.SubscribeRequest) error {
	if err := c.identify(req); err != nil { // a subscriptions/listen skips the guard's
		return err
	}
	uri := req.Params.URI
	r, err := c.resourceServer(uri)
	if err != nil {
		return err
	}
	c.mu.Lock()
	_, already := c.subscribed[uri]
	full := len(c.subscribed) >= maxSubscriptions
	c.mu.Unlock()
	if already {
		return nil
	}
	if full {
		return refusal(i18n.M("gateway.error.subscriptions", "max", maxSubscriptions))
	}
	return c.g.subscribe(ctx, c, subscription{r.serverID, uri})
}

// unsubscribe ends a client's subscription to a resource.
func (c *conn) unsubscribe(ctx context.Context, req *sdk.UnsubscribeRequest) error {
	c.mu.Lock()
	serverID, ok := c.subscribed[req.Params.URI]
	c.mu.Unlock()
	if ok {
		c.g.unsubscribe(ctx, c, subscription{serverID, req.Params.URI})
	}
	return nil
}

// subscribe adds c to the subscribers of s, asking its server first when c
// is the gateway's first.
func (g *Gateway) subscribe(ctx context.Context, c *conn, s subscription) error {
	g.subsMu.Lock()
	defer g.subsMu.Unlock()
	g.mu.Lock()
	first := len(g.subs[s]) == 0
	g.mu.Unlock()
	if first {
		ctx, cancel := context.WithTimeout(ctx, subscribeTimeout)
		defer cancel()
		if err := g.opts.Manager.SubscribeFor(ctx, s.serverID, s.uri, holder); err != nil {
			return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: i18n.ErrorMessage(err).String()}
		}
	}
	g.mu.Lock()
	if g.subs[s] == nil {
		g.subs[s] = map[*conn]bool{}
	}
	g.subs[s][c] = true
	g.mu.Unlock()
	c.mu.Lock()
	c.subscribed[s.uri] = s.serverID
	c.mu.Unlock()
	return nil
}

// unsubscribe removes c from the subscribers of s, telling its server when
// c was the gateway's last.
func (g *Gateway) unsubscribe(ctx context.Context, c *conn, s subscription) {
	g.subsMu.Lock()
	defer g.subsMu.Unlock()
	c.mu.Lock()
	delete(c.subscribed, s.uri)
	c.mu.Unlock()
	g.mu.Lock()
	was := g.subs[s][c]
	delete(g.subs[s], c)
	last := was && len(g.subs[s]) == 0
	if last {
		delete(g.subs, s)
	}
	g.mu.Unlock()
	if !last {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), subscribeTimeout)
	defer cancel()
	_ = g.opts.Manager.UnsubscribeFor(ctx, s.serverID, s.uri, holder)
}

// unsubscribeAll ends c's subscriptions: all of them (keep nil), or those
// to servers keep says it may no longer see.
func (g *Gateway) unsubscribeAll(c *conn, keep func(serverID string) bool) {
	c.mu.Lock()
	var gone []subscription
	for uri, serverID := range c.subscribed {
		if keep == nil || !keep(serverID) {
			gone = append(gone, subscription{serverID, uri})
		}
	}
	c.mu.Unlock()
	for _, s := range gone {
		g.unsubscribe(context.Background(), c, s)
	}
}

// ResourceUpdated tells the gateway that a server's resource changed
// (mcp.Options.OnResourceUpdated): each client subscribed to it is told,
// and no other. It does not wait for the clients.
func (g *Gateway) ResourceUpdated(serverID, uri string) {
	g.mu.Lock()
	var to []*conn
	for c := range g.subs[subscription{serverID, uri}] {
		to = append(to, c)
	}
	g.mu.Unlock()
	for _, c := range to {
		c.updated(uri)
	}
}

// updated tells the client that uri changed, in the background: updates
// waiting for a slow client are gathered (one per URI), never piled up.
func (c *conn) updated(uri string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.updates == nil {
		c.updates = map[string]bool{}
	}
	c.updates[uri] = true
	if !c.sending {
		c.sending = true
		go c.sendUpdates()
	}
}

// sendUpdates sends the updates waiting, until none waits.
func (c *conn) sendUpdates() {
	for {
		c.mu.Lock()
		var uri string
		for u := range c.updates {
			uri = u
			break
		}
		if uri == "" || c.ctx.Err() != nil {
			c.updates, c.sending = nil, false
			c.mu.Unlock()
			return
		}
		delete(c.updates, uri)
		c.mu.Unlock()
		// The go-sdk sends it to the client's session, which subscribed.
		_ = c.srv.ResourceUpdated(c.ctx, &sdk.ResourceUpdatedNotificationParams{URI: uri})
	}
}

// subscribable reports whether a server the app may see lets clients
// subscribe to its resources: what the gateway advertises to it.
func (g *Gateway) subscribable(app store.ClientApp) bool {
	for _, l := range g.current() {
		if l.subscribe && !app.CutOff && app.Sees(l.id) {
			return true
		}
	}
	return false
}
