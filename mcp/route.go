package mcp

import (
	"context"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// Routes: a command-line command made through the running app (issue 13)
// has the questions it causes answered in the terminal that made it, while
// the window goes on showing everyone else's. The broker still owns every
// such question — the checks, the policy, the rate limit, the history — and
// only who shows it changes: a question that matches a route when it is
// asked waits in the same queue, and is put in front of the route's
// terminal instead of the window, one at a time. A call's route takes its
// server's form and URL requests (Route); a sign-in or a chat turn from the
// command line chooses its own questions (RouteMatching).

// A Presenter shows one question to a person and returns their answer,
// blocking meanwhile; when ctx ends (the server withdrew the question, it
// timed out, or the route was released) the display must close and the
// return value is ignored. It is Answerer.Present as a function.
type Presenter func(ctx context.Context, q *Question) (Response, error)

// route is one terminal answering the questions match takes.
type route struct {
	match   func(*Question) bool
	present Presenter
	opened  func(*Question)
	current *pending // the question the terminal shows, if any
	// dropOnRelease cancels the route's questions on release instead of
	// giving them to the window (RouteMatching).
	dropOnRelease bool
	ctx           context.Context
	cancel        context.CancelFunc
}

// Route has present show the form and URL requests serverID asks from now
// until release is called, instead of the window. Routes stack: the newest
// that matches gets a new question. On release, questions still waiting for
// the route, and the one it shows, go to the window.
//
// opened (may be nil) is told of each web page the person opened through
// present, once the broker waits for it: WaitCompleted then finds it, and
// says how it ended even after release.
func (b *Broker) Route(serverID string, present Presenter, opened func(*Question)) (release func()) {
	return b.route(&route{match: func(q *Question) bool {
		return q.Server.ID == serverID && (q.Kind == KindForm || q.Kind == KindURL)
	}, present: present, opened: opened})
}

// RouteMatching is Route for the questions match takes, of any kind and
// server: a sign-in consent, a model's tool call. match is called with the
// broker's lock held, once per question as it is asked; it must be quick
// and must not call the broker. On release, the route's questions still
// unanswered are cancelled: they belong to what the terminal started (its
// sign-in, its chat turn), which nobody in the window is waiting for.
func (b *Broker) RouteMatching(match func(*Question) bool, present Presenter, opened func(*Question)) (release func()) {
	return b.route(&route{match: match, present: present, opened: opened, dropOnRelease: true})
}

func (b *Broker) route(r *route) (release func()) {
	r.ctx, r.cancel = context.WithCancel(context.Background())
	b.mu.Lock()
	b.routes = append(b.routes, r)
	b.mu.Unlock()
	return func() { b.release(r) }
}

// release ends r: its questions go back to the window, or are cancelled
// (r.dropOnRelease).
func (b *Broker) release(r *route) {
	b.mu.Lock()
	i := slices.Index(b.routes, r)
	if i < 0 {
		b.mu.Unlock()
		return
	}
	b.routes = slices.Delete(b.routes, i, i+1)
	r.cancel()
	var dropped []string
	if pd := r.current; pd != nil {
		r.current, pd.shownAt = nil, time.Time{}
		if q := b.servers[pd.q.Server.ID]; q != nil {
			q.waiting = slices.Insert(q.waiting, 0, pd)
		}
	}
	for _, q := range b.servers {
		for _, pd := range q.waiting {
			switch {
			case pd.route != r:
			case r.dropOnRelease: // shown nowhere until cancelled below
				dropped = append(dropped, pd.q.ID)
			default:
				pd.route = nil
			}
		}
	}
	if len(dropped) > 0 {
		b.mu.Unlock()
		for _, id := range dropped {
			_ = b.finish(id, Response{Action: ActionCancel, why: i18n.M("mcp.history.commandEnded")}, false)
		}
		b.mu.Lock()
	}
	b.dispatchLocked()
	b.mu.Unlock()
	b.publish()
}

// routeLocked returns the route a new question goes to, or nil for the
// window. b.mu is held.
func (b *Broker) routeLocked(q *Question) *route {
	for i := len(b.routes) - 1; i >= 0; i-- {
		if r := b.routes[i]; r.match(q) {
			return r
		}
	}
	return nil
}

// routeShowingLocked reports whether a terminal shows a question of
// serverID. b.mu is held.
func (b *Broker) routeShowingLocked(serverID string) bool {
	return slices.ContainsFunc(b.routes, func(r *route) bool { return r.current != nil && r.current.q.Server.ID == serverID })
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
// its terminal: the oldest of those waiting for it. b.mu is held.
func (b *Broker) dispatchRoutesLocked() {
	for _, r := range b.routes {
		if r.current != nil {
			continue
		}
		var next *pending
		var from *serverQueue
		for _, id := range b.rotation {
			q := b.servers[id]
			i := slices.IndexFunc(q.waiting, func(pd *pending) bool { return pd.route == r && pd.ctx.Err() == nil })
			if i >= 0 && (next == nil || q.waiting[i].q.ReceivedAt.Before(next.q.ReceivedAt)) {
				next, from = q.waiting[i], q
			}
		}
		if next == nil {
			continue
		}
		from.waiting = slices.DeleteFunc(from.waiting, func(pd *pending) bool { return pd == next })
		r.current, next.shownAt = next, b.opts.Now()
		go b.presentRouted(r, next)
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
