package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"golang.org/x/time/rate"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// Broker defaults. A server may ask in bursts (a wizard of a few questions)
// but not flood: DefaultBurst questions at once, then one every DefaultEvery;
// at most DefaultQueueSize wait per server (E29).
const (
	DefaultElicitationTimeout = 10 * time.Minute
	DefaultBurst              = 5
	DefaultEvery              = 10 * time.Second
	DefaultQueueSize          = 10
	// noticeEvery bounds how often the flood notice for one server repeats.
	noticeEvery = 30 * time.Second
	// maxNotices bounds the notices kept for the person; the oldest go.
	maxNotices = 5
	// maxCachedSchemas bounds each server's cache of parsed forms.
	maxCachedSchemas = 16
	// maxEndedURLs is how many ended URL requests are remembered for
	// WaitCompleted.
	maxEndedURLs = 100
	// MaxMessageLength caps the characters of a question's message: one
	// over it is refused, never shown cut short.
	MaxMessageLength = 8 * 1024
)

// CodeTooManyRequests answers a request refused by the rate limit or a full
// queue. It is a JSON-RPC error, not "decline": the person did not decline.
const CodeTooManyRequests = -32000

// errRateLimited is ask's refusal by the rate limit or a full queue.
var errRateLimited = errors.New("too many requests from this server are waiting")

// BrokerStore is what the broker keeps in the store: policies to read,
// settings to read, history to write. *store.Store implements it.
type BrokerStore interface {
	Policy(serverID string) (store.Policy, error)
	Settings() (store.Settings, error)
	AddHistories(entries []store.HistoryEntry) error
}

// BrokerOptions configures a Broker. Zero values mean the defaults above.
type BrokerOptions struct {
	Store BrokerStore // required
	// Answerer, when set, answers the broker's questions one at a time
	// (AnswerWith): the conformance client and tests. The window leaves it
	// nil and answers through Accept, Decline and Cancel; a terminal
	// answers only the questions routed to it (Route).
	Answerer Answerer
	// Sampler runs sampling requests once the person approved them; nil
	// refuses every sampling request (SetSampler may set it later).
	Sampler   Sampler
	Burst     int
	Every     time.Duration
	QueueSize int
	// Now is the clock; tests may set it.
	Now func() time.Time
}

// Broker owns every question waiting for a person, from every server, of
// four kinds:
//
//   - elicitations, form and URL mode, with the web pages the person opened
//     for them (Elicit, elicitation.go);
//   - sign-in consents (SignIn, signin.go);
//   - a model's tool calls waiting for approval (ApproveToolCall,
//     toolcall.go);
//   - sampling reviews, the request and then the model's answer (Sample,
//     sampling.go).
//
// It checks each (E4, E6, E18), applies the server's policy and rate limit
// (E29), queues it, and puts one at a time in front of the person, fairly
// across servers. Accept, Decline, Cancel and Refuse end questions; every
// outcome goes to the history, with every tool call as it ran
// (RecordToolRun). Whoever shows questions follows the broker's Snapshots
// (Subscribe); there is no other copy of this state.
//
// This file holds the engine: the queue, the rate limit, the question on
// screen, the snapshots and the history. Each kind's methods are in its
// own file, named above: issue 23 relaxes for the Broker the project's rule
// that a type's methods live in one file.
type Broker struct {
	opts    BrokerOptions
	history *historyWriter

	mu       sync.Mutex
	servers  map[string]*serverQueue
	rotation []string // server IDs in the order they first asked
	served   string   // the server whose question was shown last
	current  *pending
	byID     map[string]*pending // the current question and those waiting
	// openedURLs are URL requests the person consented to, waiting for the
	// server's completion notice; endedURLs the latest that ended, oldest
	// first (see elicitation.go).
	openedURLs []*openedURL
	endedURLs  []*openedURL
	notices    []Notice
	noticeSeq  int
	// routes send the questions of a command-line command made through
	// the app to its terminal, newest last (route.go).
	routes  []*route
	subs    map[int]func(Snapshot)
	subSeq  int
	sampler Sampler

	// publishMu orders snapshots: each is taken and delivered under it, so
	// subscribers see versions in order.
	publishMu sync.Mutex
	version   uint64
}

type serverQueue struct {
	// schemas are this server's recently parsed forms, by their JSON text:
	// a server asking the same form again is not compiled again (issue 6,
	// P1). At most maxCachedSchemas, per server, so a server sending endless
	// new schemas only fills its own.
	schemas    map[string]*forms.Schema
	limiter    *rate.Limiter
	waiting    []*pending
	refused    int
	lastNotice time.Time
}

type pending struct {
	q       *Question
	ctx     context.Context
	answer  chan Response // buffered 1; written once, by finish
	shownAt time.Time
	// free questions (a sign-in the person started) spend no rate-limit token.
	free bool
	// completed is set when the server's completion notice for this URL
	// request came before the person's consent was recorded.
	completed bool
	// route is the terminal that answers this question instead of the
	// window; nil for the window.
	route *route
}

// NewBroker returns a broker; opts.Store is required.
func NewBroker(opts BrokerOptions) *Broker {
	if opts.Burst <= 0 {
		opts.Burst = DefaultBurst
	}
	if opts.Every <= 0 {
		opts.Every = DefaultEvery
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	b := &Broker{opts: opts, servers: map[string]*serverQueue{}, byID: map[string]*pending{},
		subs: map[int]func(Snapshot){}, history: newHistoryWriter(opts.Store.AddHistories)}
	b.sampler = opts.Sampler
	if opts.Answerer != nil {
		b.AnswerWith(opts.Answerer)
	}
	return b
}

// invalidParams is the JSON-RPC error for a request the host refuses to show.
func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// ask queues q, shows it when its turn comes and waits for the person's
// answer. It ends early with errRateLimited when the server has too many
// questions pending, or with the context's error when ctx ends (the server
// withdrew it or disconnected) or q's deadline passes. shown is how long q
// was on screen.
func (b *Broker) ask(ctx context.Context, q *Question, free bool) (resp Response, shown time.Duration, err error) {
	pctx, cancel := context.WithDeadline(ctx, q.Deadline)
	defer cancel()
	pd := &pending{q: q, ctx: pctx, answer: make(chan Response, 1), free: free}
	if !b.admit(pd) {
		return Response{}, 0, errRateLimited
	}
	select {
	case resp = <-pd.answer:
	case <-pctx.Done():
		if !b.withdraw(pd, errors.Is(pctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil) {
			resp = <-pd.answer // answered in the same instant: the answer wins
			break
		}
		err = pctx.Err()
	}
	b.mu.Lock()
	if !pd.shownAt.IsZero() {
		shown = b.opts.Now().Sub(pd.shownAt)
	}
	b.mu.Unlock()
	return resp, shown, err
}

// queueLocked returns the server's queue, creating it. b.mu is held.
func (b *Broker) queueLocked(id string) *serverQueue {
	q := b.servers[id]
	if q == nil {
		q = &serverQueue{limiter: rate.NewLimiter(rate.Every(b.opts.Every), b.opts.Burst)}
		b.servers[id] = q
	}
	return q
}

// idleLocked reports whether nothing of the server is on screen or waiting.
// A question that finds its server idle is always admitted (it still spends
// a token if one is left): a server that asks one question after another,
// each after the person answered the last, cannot bury anyone, and refusing
// its sixth question in a minute would only break a conversation the person
// is having. Questions that pile up are what the token bucket limits (E29).
func (b *Broker) idleLocked(id string, q *serverQueue) bool {
	return len(q.waiting) == 0 && (b.current == nil || b.current.q.Server.ID != id) && !b.routeShowingLocked(id)
}

// refusedLocked counts a refusal and adds the flood notice when one is due
// (at most one per noticeEvery); it reports whether it added one. b.mu is held.
func (b *Broker) refusedLocked(q *serverQueue, server ServerRef) bool {
	q.refused++
	now := b.opts.Now()
	if now.Sub(q.lastNotice) < noticeEvery {
		return false
	}
	q.lastNotice = now
	// One flood notice per server: a new one replaces the old.
	b.notices = slices.DeleteFunc(b.notices, func(n Notice) bool { return n.Kind == NoticeFlood && n.ServerID == server.ID })
	b.addNoticeLocked(Notice{Kind: NoticeFlood, ServerID: server.ID, ServerName: server.Name, Refused: q.refused,
		Message: i18n.M("mcp.notice.flood", "server", server.Name)})
	q.refused = 0
	return true
}

// addNoticeLocked keeps n for the person (the newest maxNotices). b.mu is held.
func (b *Broker) addNoticeLocked(n Notice) {
	b.noticeSeq++
	n.ID = fmt.Sprintf("n%d", b.noticeSeq)
	b.notices = append(b.notices, n)
	if len(b.notices) > maxNotices {
		b.notices = slices.Delete(b.notices, 0, len(b.notices)-maxNotices)
	}
}

// overLimit is admit's check made before the question is parsed, without
// spending anything: a flood is refused for the cost of a lock, not of a
// schema compilation each (issue 6, P5).
func (b *Broker) overLimit(peer Peer) bool {
	id := peer.Server.ID
	b.mu.Lock()
	q := b.servers[id]
	if q == nil {
		b.mu.Unlock()
		return false
	}
	over := len(q.waiting) >= b.opts.QueueSize || (!b.idleLocked(id, q) && q.limiter.TokensAt(b.opts.Now()) < 1)
	noticed := over && b.refusedLocked(q, serverRef(peer))
	b.mu.Unlock()
	if noticed {
		b.publish()
	}
	return over
}

// admit takes a rate-limit token and a queue place for pd, or refuses it.
func (b *Broker) admit(pd *pending) bool {
	id := pd.q.Server.ID
	b.mu.Lock()
	q := b.queueLocked(id)
	allowed := pd.free || q.limiter.AllowN(b.opts.Now(), 1)
	if len(q.waiting) >= b.opts.QueueSize || (!allowed && !b.idleLocked(id, q)) {
		noticed := b.refusedLocked(q, pd.q.Server)
		b.mu.Unlock()
		if noticed {
			b.publish()
		}
		return false
	}
	pd.route = b.routeLocked(pd.q)
	q.waiting = append(q.waiting, pd)
	if !slices.Contains(b.rotation, id) {
		b.rotation = append(b.rotation, id)
	}
	b.byID[pd.q.ID] = pd
	b.dispatchLocked()
	b.mu.Unlock()
	b.publish()
	return true
}

// dispatchLocked puts the next question on screen if none is. Servers take
// turns: after one of a server's questions, every other server with a
// question waiting goes before its next one. b.mu is held.
func (b *Broker) dispatchLocked() {
	b.dispatchRoutesLocked()
	if b.current != nil {
		return
	}
	start := slices.Index(b.rotation, b.served) + 1
	for i := range b.rotation {
		id := b.rotation[(start+i)%len(b.rotation)]
		q := b.servers[id]
		// A question whose server already gave up on it is not shown; its
		// ask call takes it out (withdraw).
		for len(q.waiting) > 0 && q.waiting[0].ctx.Err() != nil {
			q.waiting = q.waiting[1:]
		}
		// Questions routed to a terminal are its to show (route.go).
		if i := slices.IndexFunc(q.waiting, func(pd *pending) bool { return pd.route == nil && pd.ctx.Err() == nil }); i >= 0 {
			b.current = q.waiting[i]
			q.waiting = slices.Delete(q.waiting, i, i+1)
			b.current.shownAt = b.opts.Now()
			b.served = id
			return
		}
	}
}

// takeLocked removes pd from the screen or its queue; it reports false when
// pd was no longer pending (already answered or withdrawn). b.mu is held.
func (b *Broker) takeLocked(pd *pending) bool {
	if b.byID[pd.q.ID] != pd {
		return false
	}
	delete(b.byID, pd.q.ID)
	if b.current == pd {
		b.current = nil
	} else if pd.route != nil && pd.route.current == pd {
		pd.route.current = nil
	} else if q := b.servers[pd.q.Server.ID]; q != nil {
		q.waiting = slices.DeleteFunc(q.waiting, func(w *pending) bool { return w == pd })
	}
	b.dispatchLocked()
	return true
}

// finish ends a pending question with the person's response. The question
// leaves the screen before its asker hears the answer, so that the server's
// next question finds nothing of it on screen (see admit).
func (b *Broker) finish(id string, resp Response, waitingOnly bool) error {
	b.mu.Lock()
	pd := b.byID[id]
	switch {
	case pd == nil:
		b.mu.Unlock()
		return ErrNotOpen
	case waitingOnly && (pd == b.current || pd.route != nil && pd.route.current == pd):
		b.mu.Unlock()
		return i18n.Err("mcp.broker.onScreen")
	}
	b.takeLocked(pd)
	var opened *openedURL
	if resp.Action == ActionAccept && pd.q.Kind == KindURL {
		opened = b.openLocked(pd) // E23: accept is consent to open; wait for the server
	}
	pd.answer <- resp // buffered, and taken only once
	b.mu.Unlock()
	if opened != nil {
		b.watchOpened(opened, pd.completed)
	}
	b.publish()
	return nil
}

// withdraw takes pd off the screen or out of its queue after its context
// ended, and reports whether it did (false: it was answered meanwhile). A
// question the person was looking at leaves a notice saying why it closed.
func (b *Broker) withdraw(pd *pending, timedOut bool) bool {
	b.mu.Lock()
	wasShown := b.current == pd
	if !b.takeLocked(pd) {
		b.mu.Unlock()
		return false
	}
	if wasShown {
		n := Notice{Kind: NoticeWithdrawn, ServerID: pd.q.Server.ID, ServerName: pd.q.Server.Name,
			Message: i18n.M("mcp.notice.withdrawn", "server", pd.q.Server.Name)}
		if timedOut {
			n.Kind = NoticeTimedOut
			n.Message = i18n.M("mcp.notice.timedOut", "server", pd.q.Server.Name,
				"duration", i18n.Duration(pd.q.Deadline.Sub(pd.q.ReceivedAt)))
		}
		b.addNoticeLocked(n)
	}
	b.mu.Unlock()
	b.publish()
	return true
}

// Accept is the person's yes to the question on screen in the window, the
// one with the given id, as r says it for the kind of question they saw.
// The broker looks the question up and checks its kind here, once: a
// question no longer on screen is ErrNotOpen, and a reply meant for
// another kind is refused; nothing is sent then. A form's values are
// validated first (E14, E15): when they do not pass, nothing is sent, the
// question stays, and the problems come back per field. A web page
// question (a URL request, a sign-in, an app's link) is accepted once
// r.Open opened its page (E21, E23). Decline and Cancel are the person's no.
func (b *Broker) Accept(id string, r Reply) (map[string]i18n.Message, error) {
	q, ok := b.OnScreen(id)
	if !ok {
		return nil, ErrNotOpen
	}
	return b.accept(q, r)
}

// accept answers q with r, wherever q is shown (Accept for the window,
// deliver for a terminal).
func (b *Broker) accept(q *Question, r Reply) (map[string]i18n.Message, error) {
	fits := q.Kind == r.Kind
	if r.Kind == KindURL || r.Kind == KindSignIn {
		fits = q.OpensPage() // either kind of web page question, with its page
	}
	if !fits {
		return nil, otherKind(r.Kind)
	}
	resp := Response{Action: ActionAccept, Edit: r.Edit}
	switch r.Kind {
	case KindForm:
		content, errs := q.schema.Validate(r.Values)
		if len(errs) > 0 {
			return errs, nil
		}
		// What passed is what Elicit sends: validated here, once (issue 15, P1).
		resp.Values, resp.content, resp.validated = r.Values, content, true
	case KindToolCall:
		if r.Scope != ScopeOnce && r.Scope != ScopeConversation && r.Scope != ScopeAlways {
			return nil, fmt.Errorf("unknown approval scope %q: use once, conversation or always", r.Scope)
		}
		resp.Scope = r.Scope
	case KindURL, KindSignIn, KindAppLink:
		if r.Open == nil && q.Kind == KindAppLink {
			return nil, i18n.Err("mcp.broker.noPage") // an app hears "opened" only once it was
		}
		if r.Open != nil {
			if err := r.Open(q.Link); err != nil {
				return nil, err // nothing is sent; the question stays
			}
		}
	}
	return nil, b.finish(q.ID, resp, false)
}

// otherKind refuses a reply meant for another kind of question than the
// one it answers.
func otherKind(kind string) error {
	switch kind {
	case KindForm:
		return i18n.Err("mcp.broker.notAForm")
	case KindURL, KindSignIn:
		return i18n.Err("mcp.broker.noPage")
	case KindToolCall:
		return i18n.Err("mcp.broker.notToolCall")
	case KindSampling:
		return i18n.Err("mcp.broker.notSampling")
	case KindAppMessage:
		return i18n.Err("mcp.broker.notAppMessage")
	}
	return i18n.Err("mcp.broker.notAnswer")
}

// Decline answers a question with an explicit no (E26), on screen or waiting.
func (b *Broker) Decline(id string) error {
	return b.finish(id, Response{Action: ActionDecline}, false)
}

// Cancel dismisses a question (E26), on screen or waiting.
func (b *Broker) Cancel(id string) error {
	return b.finish(id, Response{Action: ActionCancel}, false)
}

// Refuse answers a question that is waiting in the queue, without showing
// it (E28): action is ActionDecline or ActionCancel.
func (b *Broker) Refuse(id, action string) error {
	if action != ActionDecline && action != ActionCancel {
		return errors.New("a waiting request can only be declined or cancelled")
	}
	if err := b.finish(id, Response{Action: action, why: i18n.M("mcp.history.refused")}, true); err != nil {
		if errors.Is(err, ErrNotOpen) {
			return i18n.Err("mcp.broker.notWaiting")
		}
		return err
	}
	return nil
}

// RefuseAll answers every waiting question of a server (for Mute and the
// decline policy).
func (b *Broker) RefuseAll(serverID, action string) {
	b.mu.Lock()
	var ids []string
	if q := b.servers[serverID]; q != nil {
		for _, pd := range q.waiting {
			ids = append(ids, pd.q.ID)
		}
	}
	b.mu.Unlock()
	for _, id := range ids {
		_ = b.Refuse(id, action)
	}
}

// Validate checks form values for a pending question as Answer would,
// without answering, so the person sees problems as they type (E15).
func (b *Broker) Validate(id string, values map[string]any) (map[string]i18n.Message, error) {
	b.mu.Lock()
	pd := b.byID[id]
	b.mu.Unlock()
	if pd == nil {
		return nil, ErrNotOpen
	}
	return pd.q.Validate(values), nil
}

// DismissNotice removes a notice the person has read.
func (b *Broker) DismissNotice(id string) {
	b.mu.Lock()
	n := len(b.notices)
	b.notices = slices.DeleteFunc(b.notices, func(x Notice) bool { return x.ID == id })
	changed := len(b.notices) != n
	b.mu.Unlock()
	if changed {
		b.publish()
	}
}

// DismissFlood removes a server's flood notice (after the person muted it).
func (b *Broker) DismissFlood(serverID string) {
	b.mu.Lock()
	b.notices = slices.DeleteFunc(b.notices, func(x Notice) bool { return x.Kind == NoticeFlood && x.ServerID == serverID })
	b.mu.Unlock()
	b.publish()
}

// Busy reports whether a request from the server is on screen or waiting,
// or a page it asked for is open, so that a tool call's own time limit can
// pause while the person answers (CallTimeout). It is Snapshot.Asking on
// the state now: one rule for the Tools pane, the chat and the window.
func (b *Broker) Busy(serverID string) bool {
	return b.Snapshot().Asking(serverID) || b.routeBusy(serverID)
}

// Snapshot returns everything pending now, with the version of the latest
// published snapshot. A window that loads asks for it once, then follows
// the published ones (Subscribe).
func (b *Broker) Snapshot() Snapshot {
	b.publishMu.Lock()
	defer b.publishMu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.snapshotLocked()
}

// Subscribe calls f with every snapshot published from now on, in version
// order, until the returned function is called. f runs on the goroutine that
// changed the state and must not call back into the broker synchronously.
func (b *Broker) Subscribe(f func(Snapshot)) (unsubscribe func()) {
	b.mu.Lock()
	b.subSeq++
	id := b.subSeq
	b.subs[id] = f
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		delete(b.subs, id)
		b.mu.Unlock()
	}
}

// publish sends a new snapshot to every subscriber.
func (b *Broker) publish() {
	b.publishMu.Lock()
	defer b.publishMu.Unlock()
	b.mu.Lock()
	b.version++
	s := b.snapshotLocked()
	subs := slices.Collect(maps.Values(b.subs))
	b.mu.Unlock()
	for _, f := range subs {
		f(s)
	}
}

// snapshotLocked copies the state; b.publishMu and b.mu are held.
func (b *Broker) snapshotLocked() Snapshot {
	s := Snapshot{Version: b.version, Waiting: []Waiting{}, Opened: b.openedLocked(), Notices: slices.Clone(b.notices)}
	if s.Notices == nil {
		s.Notices = []Notice{}
	}
	if b.current != nil {
		s.Current = b.current.q
	}
	for _, id := range b.rotation {
		for _, pd := range b.servers[id].waiting {
			if pd.route != nil {
				continue // a terminal answers it (route.go)
			}
			s.Waiting = append(s.Waiting, Waiting{ID: pd.q.ID, Kind: pd.q.Kind, ServerID: id, ServerName: pd.q.Server.Name,
				Message: pd.q.Message, ReceivedAt: pd.q.ReceivedAt})
		}
	}
	slices.SortStableFunc(s.Waiting, func(a, b Waiting) int { return a.ReceivedAt.Compare(b.ReceivedAt) })
	return s
}

// OnScreen returns the question on screen (in the window, not on a
// terminal's route) if it is the one with the given ID: only that one can
// be answered from the dialog. Unlike Snapshot it copies nothing and does
// not wait for a publication in progress, so an answer does not queue
// behind the event that showed its question (issue 15, P1).
func (b *Broker) OnScreen(id string) (*Question, bool) {
	q, _, ok := b.presenting(id)
	return q, ok
}

// presenting returns the question on screen with its context, for an
// Answerer to present, if it is the one with the given ID.
func (b *Broker) presenting(id string) (*Question, context.Context, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.current == nil || b.current.q.ID != id {
		return nil, nil, false
	}
	return b.current.q, b.current.ctx, true
}

// AnswerWith lets a answer the broker's questions, one at a time as they
// come on screen, until stop is called: the blocking adapter of answerers
// that are not a terminal — the conformance client, tests, and the core's
// "nobody" while no window runs — over the same broker the window uses. A
// terminal answers only what is routed to it (Route, RouteMatching): that
// is the one way the broker asks one. Its notices and opened pages are
// passed on as they change.
func (b *Broker) AnswerWith(a Answerer) (stop func()) {
	var mu sync.Mutex
	presented := ""
	seenNotices := map[string]bool{}
	var lastOpened []OpenedPage
	return b.Subscribe(func(s Snapshot) {
		mu.Lock()
		defer mu.Unlock()
		for _, n := range s.Notices {
			if !seenNotices[n.ID] {
				seenNotices[n.ID] = true
				a.Notify(n)
			}
		}
		if !slices.EqualFunc(s.Opened, lastOpened, func(x, y OpenedPage) bool { return x.ID == y.ID }) {
			lastOpened = s.Opened
			a.OpenedChanged(s.Opened)
		}
		if s.Current == nil || s.Current.ID == presented {
			return
		}
		presented = s.Current.ID
		q, ctx, ok := b.presenting(presented)
		if !ok {
			return
		}
		go func() {
			resp, err := a.Present(ctx, q)
			if ctx.Err() != nil {
				return // withdrawn or timed out: the broker already closed it
			}
			b.deliver(q, resp, err)
		}()
	})
}

// deliver passes an Answerer's response to q on to the broker: a form's
// values are validated first and an answer that does not pass is never
// sent (cancel); an error from the display means the person could not
// answer (cancel).
func (b *Broker) deliver(q *Question, resp Response, err error) {
	if err != nil {
		resp = Response{Action: ActionCancel}
	}
	switch {
	case resp.Action == ActionAccept && q.Kind == KindForm:
		if errs, err := b.accept(q, Reply{Kind: KindForm, Values: resp.Values}); err == nil && len(errs) == 0 {
			return
		}
		resp = Response{Action: ActionCancel, why: i18n.M("mcp.history.notValid")}
	case resp.Action == ActionAccept && q.Kind == KindToolCall && resp.Scope == "":
		resp.Scope = ScopeOnce
	}
	_ = b.finish(q.ID, resp, false)
}

// entry starts the history entry of a question of kind from peer, and
// returns the function that writes it as it is left, in the background
// (history.go). Each kind defers that function, so that however its
// question ends, its entry is written once, and says how it ended with
// ended.
func (b *Broker) entry(peer Peer, kind string) (*store.HistoryEntry, func()) {
	e := &store.HistoryEntry{Time: b.opts.Now(), ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: kind}
	return e, func() { b.history.record(*e) }
}

// ended sets how e's question ended and why, and passes err on: a
// question's every way out is one line.
func ended(e *store.HistoryEntry, outcome string, why i18n.Message, err error) error {
	e.Outcome, e.Detail = outcome, why
	return err
}

// outcomeOf is the history outcome of a person's action.
func outcomeOf(action string) string {
	switch action {
	case ActionAccept:
		return store.OutcomeAccepted
	case ActionDecline:
		return store.OutcomeDeclined
	}
	return store.OutcomeCancelled
}

// unanswered is how a question ended that ask returned err for, for the
// history: refused by the rate limit, no answer within timeout, or
// withdrawn (its server withdrew it or disconnected).
func unanswered(ctx context.Context, err error, timeout time.Duration) (outcome string, why i18n.Message) {
	switch {
	case errors.Is(err, errRateLimited):
		return store.OutcomeRateLimited, i18n.M("mcp.history.flood")
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return store.OutcomeTimedOut, i18n.M("mcp.history.noAnswer", "duration", i18n.Duration(timeout))
	}
	return store.OutcomeServerCancelled, i18n.M("mcp.history.withdrawn")
}

// byPolicy is the server's policy answering for the person (ok): declined,
// or cancelled unseen while it is muted, with the history's outcome and
// why.
func (b *Broker) byPolicy(peer Peer, now time.Time) (outcome string, why i18n.Message, ok bool) {
	policy, err := b.opts.Store.Policy(peer.Server.ID)
	switch {
	case err != nil:
	case policy.Effective(now) == store.PolicyDecline:
		return store.OutcomeDeclined, i18n.M("mcp.history.policyDeclined"), true
	case policy.Effective(now) == store.PolicyMute:
		return store.OutcomeCancelled, i18n.M("mcp.history.muted", "until", policy.MutedUntil.Format(time.RFC3339)), true
	}
	return "", i18n.Message{}, false
}

// answerTime is how long a question waits for the person's answer.
func answerTime(s store.Settings) time.Duration {
	if s.ElicitationTimeout <= 0 {
		return DefaultElicitationTimeout
	}
	return s.ElicitationTimeout
}

// FlushHistory waits until every outcome so far is in the store: call it
// before reading the history, and before closing the store.
func (b *Broker) FlushHistory() {
	b.history.flush()
}

func newQuestionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
