package mcp

import (
	"context"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/store"
)

// Routes: a command-line call made through the running app (issue 13) has
// its server's questions answered in the terminal that made it, while the
// window goes on showing everyone else's. The broker still owns every such
// question — the checks, the policy, the rate limit, the history — and only
// who shows it changes: a question a server asks while a route to it is open
// waits in the same queue, and is put in front of the route's terminal
// instead of the window, one at a time. Only form and URL requests are
// routed: a sign-in, a sampling request or a model's tool call is for the
// window.

// A Presenter shows one question to a person and returns their answer,
// blocking meanwhile; when ctx ends (the server withdrew the question, it
// timed out, or the route was released) the display must close and the
// return value is ignored. It is Answerer.Present as a function.
type Presenter func(ctx context.Context, q *Question) (Response, error)

// route is one terminal answering one server's questions.
type route struct {
	serverID string
	present  Presenter
	opened   func(*Question)
	current  *pending // the question the terminal shows, if any
	ctx      context.Context
	cancel   context.CancelFunc
}

// Route has present show the form and URL requests serverID asks from now
// until release is called, instead of the window. Routes to one server
// stack: the newest gets the new questions. On release, questions still
// waiting for the route, and the one it shows, go to the window.
//
// opened (may be nil) is told of each web page the person opened through
// present, once the broker waits for it: WaitCompleted then finds it, and
// says how it ended even after release.
func (b *Broker) Route(serverID string, present Presenter, opened func(*Question)) (release func()) {
	ctx, cancel := context.WithCancel(context.Background())
	r := &route{serverID: serverID, present: present, opened: opened, ctx: ctx, cancel: cancel}
	b.mu.Lock()
	if b.routes == nil {
		b.routes = map[string][]*route{}
	}
	b.routes[serverID] = append(b.routes[serverID], r)
	b.mu.Unlock()
	return func() { b.release(r) }
}

// release ends r: its questions go back to the window.
func (b *Broker) release(r *route) {
	b.mu.Lock()
	i := slices.Index(b.routes[r.serverID], r)
	if i < 0 {
		b.mu.Unlock()
		return
	}
	b.routes[r.serverID] = slices.Delete(b.routes[r.serverID], i, i+1)
	if len(b.routes[r.serverID]) == 0 {
		delete(b.routes, r.serverID)
	}
	r.cancel()
	q := b.servers[r.serverID]
	if pd := r.current; pd != nil && q != nil {
		r.current, pd.shownAt = nil, time.Time{}
		q.waiting = slices.Insert(q.waiting, 0, pd)
	}
	if q != nil {
		for _, pd := range q.waiting {
			if pd.route == r {
				pd.route = nil
			}
		}
	}
	b.dispatchLocked()
	b.mu.Unlock()
	b.publish()
}

// routeLocked returns the route a new question of kind from serverID goes
// to, or nil for the window. b.mu is held.
func (b *Broker) routeLocked(serverID, kind string) *route {
	rs := b.routes[serverID]
	if len(rs) == 0 || (kind != KindForm && kind != KindURL) {
		return nil
	}
	return rs[len(rs)-1]
}

// routeShowingLocked reports whether a terminal shows a question of
// serverID. b.mu is held.
func (b *Broker) routeShowingLocked(serverID string) bool {
	return slices.ContainsFunc(b.routes[serverID], func(r *route) bool { return r.current != nil })
}

// routeBusy reports whether a terminal shows, or will show, a question of
// serverID: a call's own time limit pauses meanwhile, as for the window.
func (b *Broker) routeBusy(serverID string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.routeShowingLocked(serverID) {
		return true
	}
	if q := b.servers[serverID]; q != nil {
		return slices.ContainsFunc(q.waiting, func(pd *pending) bool { return pd.route != nil })
	}
	return false
}

// dispatchRoutesLocked puts each idle route's next question in front of
// its terminal. b.mu is held.
func (b *Broker) dispatchRoutesLocked() {
	for id, rs := range b.routes {
		q := b.servers[id]
		if q == nil {
			continue
		}
		for _, r := range rs {
			if r.current != nil {
				continue
			}
			i := slices.IndexFunc(q.waiting, func(pd *pending) bool { return pd.route == r && pd.ctx.Err() == nil })
			if i < 0 {
				continue
			}
			pd := q.waiting[i]
			q.waiting = slices.Delete(q.waiting, i, i+1)
			r.current, pd.shownAt = pd, b.opts.Now()
			go b.presentRouted(r, pd)
		}
	}
}

// presentRouted shows pd on r's terminal and passes the answer on, unless
// the question or the route ended first.
func (b *Broker) presentRouted(r *route, pd *pending) {
	ctx, cancel := context.WithCancel(pd.ctx)
	defer cancel()
	stop := context.AfterFunc(r.ctx, cancel)
	defer stop()
	resp, err := r.present(ctx, pd.q)
	if ctx.Err() != nil {
		return // withdrawn, timed out, or back with the window
	}
	b.deliver(pd.q, resp, err)
	if r.opened != nil && err == nil && resp.Action == ActionAccept && pd.q.Kind == KindURL {
		r.opened(pd.q) // deliver recorded the page as opened (finish)
	}
}

// RemoteQuestion rebuilds, in the command line, a question the running app
// sent it as elicitation/create (see Broker.Route): server is who asks, as
// the app described it. The request goes through the same checks the broker
// made (the form's schema, carried exactly as written by a transport
// wrapped with CarrySchemas; the URL's analysis), so the terminal shows and
// validates it as it would a question of its own.
func RemoteQuestion(server ServerRef, p *sdk.ElicitParams, now time.Time) (*Question, error) {
	q := &Question{ID: newQuestionID(), Kind: p.Mode, Server: server, Message: p.Message, ReceivedAt: now,
		ElicitationID: p.ElicitationID,
		Peer:          Peer{Server: store.Server{ID: server.ID, Name: server.Name}, Where: server.Where, SelfName: server.SelfName, SelfVersion: server.SelfVersion}}
	if q.Kind == "" {
		q.Kind = KindForm
	}
	if q.Kind == KindURL {
		link, err := checkURLRequest(p)
		if err != nil {
			return nil, err
		}
		q.Link = link
		return q, nil
	}
	raw, carried := rawSchemaOf(p.Meta)
	if !carried {
		return nil, invalidParams("the requestedSchema could not be read exactly as sent")
	}
	fs, err := forms.ParseElicitation(raw)
	if err != nil {
		return nil, invalidParams(err.Error())
	}
	q.schema, q.Form, q.raw = fs, &fs.Form, raw
	return q, nil
}
