package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/store"
)

// Elicitation defaults. A server may ask in bursts (a wizard of a few
// questions) but not flood: DefaultBurst requests at once, then one every
// DefaultEvery; at most DefaultQueueSize wait per server (E29).
const (
	DefaultElicitationTimeout = 10 * time.Minute
	DefaultBurst              = 5
	DefaultEvery              = 10 * time.Second
	DefaultQueueSize          = 10
	// noticeEvery bounds how often the flood notice for one server repeats.
	noticeEvery = 30 * time.Second
)

// CodeTooManyRequests answers a request refused by the rate limit or a full
// queue. It is a JSON-RPC error, not "decline": the person did not decline.
const CodeTooManyRequests = -32000

// Actions a person can take (E26).
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// Request is an elicitation waiting for a person. Every string in it that
// came from the server (Message, form labels and descriptions, URL) must be
// shown as text, never as HTML (E16).
type Request struct {
	ID      string // host-assigned and unguessable; not the JSON-RPC id
	Peer    Peer
	Mode    string // "form" or "url"
	Message string
	Form    *Form // form mode
	// Link is the checked URL of a URL-mode request (E20, E22), and
	// ElicitationID the server's id for it, which its completion notice
	// names (E24).
	Link          *linkcheck.Report
	ElicitationID string
	ReceivedAt    time.Time
	Deadline      time.Time // when it is cancelled if still unanswered

	schema *FormSchema
}

// Validate checks form values as Submit would, without answering, and
// returns per-field sentences (empty when valid). The UI calls it to show
// errors inline (E15).
func (r *Request) Validate(values map[string]any) map[string]string {
	if r.schema == nil {
		return nil
	}
	_, errs := r.schema.Validate(values)
	return errs
}

// Response is a person's answer to a Request.
type Response struct {
	Action string         // ActionAccept, ActionDecline or ActionCancel
	Values map[string]any // form values, for ActionAccept

	detail string // for history, set by the broker
}

// QueueEntry is a request waiting behind the one on screen.
type QueueEntry struct {
	ID         string
	ServerID   string
	ServerName string
	Message    string
	ReceivedAt time.Time
}

// Notice is a one-off message about a server, such as a flood.
type Notice struct {
	ServerID   string
	ServerName string
	Kind       string // "flood"
	Refused    int    // requests refused since the last notice
}

// Answerer is the person's side of the broker: the GUI's dialog, the CLI's
// prompts, or a scripted answerer in tests.
type Answerer interface {
	// Present shows one request and blocks until the person answers or ctx
	// ends (the server withdrew it, disconnected, or it timed out); then the
	// display must close and the return value is ignored. The broker calls
	// Present for one request at a time.
	Present(ctx context.Context, req *Request) (Response, error)
	// QueueChanged reports the requests waiting behind the one on screen.
	QueueChanged(waiting []QueueEntry)
	// Notify shows a notice, such as "<server> is sending too many requests".
	Notify(n Notice)
	// OpenedChanged reports the URL-mode requests the person opened whose
	// server has not yet said they are complete ("Finish in your browser").
	OpenedChanged(opened []OpenedURL)
}

// BrokerStore is what the broker keeps in the store: policies to read,
// settings to read, history to write. *store.Store implements it.
type BrokerStore interface {
	Policy(serverID string) (store.Policy, error)
	Settings() (store.Settings, error)
	AddHistories(entries []store.HistoryEntry) error
}

// BrokerOptions configures a Broker. Zero values mean the defaults above.
type BrokerOptions struct {
	Answerer  Answerer
	Store     BrokerStore
	Burst     int
	Every     time.Duration
	QueueSize int
	// Now is the clock; tests may set it.
	Now func() time.Time
}

// Broker receives every elicitation from every server (it is the manager's
// Asker), checks it, applies policy and rate limits, and presents one at a
// time to the Answerer, fairly across servers. It records each outcome.
type Broker struct {
	opts BrokerOptions

	mu       sync.Mutex
	servers  map[string]*serverQueue
	rotation []string // server IDs in the order they first asked
	served   string   // the server whose request was shown last
	current  *pending
	byID     map[string]*pending
	// opened are URL-mode requests the person consented to, waiting for
	// the server's completion notice (see urlmode.go).
	openedURLs []*openedURL
	endedURLs  []*openedURL // the latest that ended, oldest first

	history *historyWriter
}

type serverQueue struct {
	// schemas are this server's recently parsed forms, by their JSON text:
	// a server asking the same form again is not compiled
	// again (issue 6, P1). At most maxCachedSchemas, per server, so a
	// server sending endless new schemas only fills its own.
	schemas    map[string]*FormSchema
	limiter    *rate.Limiter
	waiting    []*pending
	refused    int
	lastNotice time.Time
}

type pending struct {
	req     *Request
	ctx     context.Context
	cancel  context.CancelFunc
	answer  chan Response // buffered 1; written once by whoever finishes it
	shownAt time.Time
	// free requests (a sign-in the person started) spend no rate-limit token.
	free bool
	// completed is set when the server's completion notice for this URL
	// request came before the person's consent was recorded (urlmode.go).
	completed bool
}

// NewBroker returns a broker; opts.Answerer and opts.Store are required.
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
	return &Broker{opts: opts, servers: map[string]*serverQueue{}, byID: map[string]*pending{},
		history: newHistoryWriter(opts.Store.AddHistories)}
}

// invalidParams is the JSON-RPC error for a request the host refuses to show.
func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// Elicit implements Asker: it is called on the session's goroutine for each
// elicitation/create and returns when the person (or policy, or a limit) has
// answered it.
func (b *Broker) Elicit(ctx context.Context, peer Peer, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	now := b.opts.Now()
	p := req.Params
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: p.Mode, Message: p.Message}
	if entry.Mode == "" {
		entry.Mode = "form" // E3
	}
	refuse := func(msg string) (*sdk.ElicitResult, error) {
		entry.Outcome, entry.Detail = store.OutcomeInvalid, msg
		b.record(entry)
		return nil, invalidParams(msg)
	}
	if !peer.offers(entry.Mode) {
		return refuse(fmt.Sprintf("elicitation mode %q was not offered to this server", p.Mode)) // E4
	}
	if utf8.RuneCountInString(p.Message) > MaxMessageLength {
		return refuse(fmt.Sprintf("the message is over %d characters", MaxMessageLength))
	}
	if b.overLimit(peer) {
		entry.Outcome, entry.Detail = store.OutcomeRateLimited, "refused: the server sent too many requests"
		b.record(entry)
		return nil, &jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many elicitation requests from this server; the user was not asked"}
	}
	var fs *FormSchema
	var link *linkcheck.Report
	if entry.Mode == "url" {
		entry.URL = p.URL
		var err error
		if link, err = checkURLRequest(p); err != nil {
			return refuse(err.Error()) // E18, E22: nothing is shown
		}
	} else {
		raw, carried := rawSchemaOf(p.Meta)
		switch {
		case !carried && p.RequestedSchema == nil:
			return refuse("a form request must have a requestedSchema") // E6: nothing is shown
		case !carried:
			// The schema did not come through the host's own reading of the
			// wire (rawschema.go), so what would be sent could differ from
			// what is shown (E14): refuse rather than guess.
			return refuse("the requestedSchema could not be read exactly as sent")
		}
		parsed, err := b.parseSchema(peer.Server.ID, raw)
		if err != nil {
			return refuse(err.Error()) // E6: nothing is shown
		}
		fs = parsed
		for _, f := range fs.Form.Fields {
			entry.Fields = append(entry.Fields, f.Name)
		}
	}

	settings, _ := b.opts.Store.Settings()
	policy, err := b.opts.Store.Policy(peer.Server.ID)
	if err != nil {
		policy = store.Policy{}
	}
	switch policy.Effective(now) {
	case store.PolicyDecline:
		entry.Outcome, entry.Detail = store.OutcomeDeclined, "declined automatically by the server's policy"
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionDecline}, nil
	case store.PolicyMute:
		entry.Outcome, entry.Detail = store.OutcomeCancelled, "not shown: the server is muted until "+policy.MutedUntil.Format(time.RFC3339)
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionCancel}, nil
	}

	timeout := settings.ElicitationTimeout
	if timeout <= 0 {
		timeout = DefaultElicitationTimeout
	}
	r := &Request{ID: newRequestID(), Peer: peer, Mode: entry.Mode, Message: p.Message, Link: link,
		ElicitationID: p.ElicitationID, ReceivedAt: now, Deadline: now.Add(timeout), schema: fs}
	if fs != nil {
		r.Form = &fs.Form
	}
	pctx, cancel := context.WithDeadline(ctx, r.Deadline)
	defer cancel()
	pd := &pending{req: r, ctx: pctx, cancel: cancel, answer: make(chan Response, 1)}
	if !b.admit(pd) {
		entry.Outcome, entry.Detail = store.OutcomeRateLimited, "refused: the server sent too many requests"
		b.record(entry)
		return nil, &jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many elicitation requests from this server; the user was not asked"}
	}

	var resp Response
	select {
	case resp = <-pd.answer:
	case <-pctx.Done():
		b.withdraw(pd)
		select {
		case resp = <-pd.answer: // answered in the same instant: the answer wins
		default:
			if errors.Is(pctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
				entry.Outcome, entry.Detail = store.OutcomeTimedOut, fmt.Sprintf("no answer within %s", timeout)
				b.record(b.withShown(entry, pd))
				return &sdk.ElicitResult{Action: ActionCancel}, nil // E26: a timeout is a cancel
			}
			entry.Outcome, entry.Detail = store.OutcomeServerCancelled, "the server withdrew the request or disconnected"
			b.record(b.withShown(entry, pd))
			return nil, ctx.Err()
		}
	}
	entry = b.withShown(entry, pd)
	entry.Detail = resp.detail
	switch {
	case resp.Action == ActionAccept && r.Mode == "url":
		// E23: accept is consent to open, and carries no content. The
		// answerer opened the URL; now wait for the server to say it is done.
		entry.Outcome = store.OutcomeAccepted
		b.record(entry)
		b.trackOpened(pd, timeout)
		return &sdk.ElicitResult{Action: ActionAccept}, nil
	case resp.Action == ActionAccept:
		content, errs := fs.Validate(resp.Values) // E15: checked again, whatever the UI did
		if len(errs) > 0 {
			// The answerer let an invalid answer through: send nothing the
			// person did not see validated; treat it as a cancel.
			entry.Outcome, entry.Detail = store.OutcomeCancelled, "the answer did not pass validation and was not sent"
			b.record(entry)
			return &sdk.ElicitResult{Action: ActionCancel}, nil
		}
		entry.Outcome = store.OutcomeAccepted
		if settings.RememberAnswers {
			entry.Answer = maps.Clone(content) // written later, in the background
		}
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionAccept, Content: content}, nil
	case resp.Action == ActionDecline:
		entry.Outcome = store.OutcomeDeclined
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionDecline}, nil
	default:
		entry.Outcome = store.OutcomeCancelled
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionCancel}, nil
	}
}

// maxCachedSchemas bounds each server's cache of parsed forms.
const maxCachedSchemas = 16

// parseSchema is ParseRequestedSchema with a small per-server cache, keyed
// by the schema's bytes as the server sent them. A FormSchema is not changed
// after parsing, so requests can share one.
func (b *Broker) parseSchema(serverID string, raw json.RawMessage) (*FormSchema, error) {
	key := string(raw)
	b.mu.Lock()
	q := b.queueLocked(serverID)
	fs := q.schemas[key]
	b.mu.Unlock()
	if fs != nil {
		return fs, nil
	}
	fs, err := ParseRequestedSchema(raw, nil)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	if q.schemas == nil || len(q.schemas) >= maxCachedSchemas {
		q.schemas = map[string]*FormSchema{}
	}
	q.schemas[key] = fs
	b.mu.Unlock()
	return fs, nil
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
// A request that finds its server idle is always admitted (it still spends
// a token if one is left): a server that asks one question after another,
// each after the person answered the last, cannot bury anyone, and refusing
// its sixth question in a minute would only break a conversation the person
// is having. Requests that pile up are what the token bucket limits (E29).
func (b *Broker) idleLocked(id string, q *serverQueue) bool {
	return len(q.waiting) == 0 && (b.current == nil || b.current.req.Peer.Server.ID != id)
}

// refusedLocked counts a refusal and returns the flood notice when one is
// due (at most one per noticeEvery). b.mu is held.
func (b *Broker) refusedLocked(q *serverQueue, peer Peer) *Notice {
	q.refused++
	now := b.opts.Now()
	if now.Sub(q.lastNotice) < noticeEvery {
		return nil
	}
	q.lastNotice = now
	n := &Notice{ServerID: peer.Server.ID, ServerName: peer.Server.Name, Kind: "flood", Refused: q.refused}
	q.refused = 0
	return n
}

// overLimit is admit's check made before the request is parsed, without
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
	var notice *Notice
	if over {
		notice = b.refusedLocked(q, peer)
	}
	b.mu.Unlock()
	if notice != nil {
		b.opts.Answerer.Notify(*notice)
	}
	return over
}

// admit takes a rate-limit token and a queue place for pd, or refuses it.
func (b *Broker) admit(pd *pending) bool {
	id := pd.req.Peer.Server.ID
	b.mu.Lock()
	q := b.queueLocked(id)
	allowed := pd.free || q.limiter.AllowN(b.opts.Now(), 1)
	if len(q.waiting) >= b.opts.QueueSize || (!allowed && !b.idleLocked(id, q)) {
		notice := b.refusedLocked(q, pd.req.Peer)
		b.mu.Unlock()
		if notice != nil {
			b.opts.Answerer.Notify(*notice)
		}
		return false
	}
	q.waiting = append(q.waiting, pd)
	if !slices.Contains(b.rotation, id) {
		b.rotation = append(b.rotation, id)
	}
	b.byID[pd.req.ID] = pd
	b.mu.Unlock()
	b.dispatch()
	return true
}

// dispatch shows the next request if nothing is on screen. Servers take
// turns: after one of a server's requests, every other server with a request
// waiting goes before its next one.
func (b *Broker) dispatch() {
	b.mu.Lock()
	if b.current != nil {
		waiting := b.waitingLocked()
		b.mu.Unlock()
		b.opts.Answerer.QueueChanged(waiting)
		return
	}
	// Round robin: start with the server after the one served last.
	var next *pending
	start := slices.Index(b.rotation, b.served) + 1
	for i := range b.rotation {
		id := b.rotation[(start+i)%len(b.rotation)]
		q := b.servers[id]
		// A request whose server already gave up on it is not shown; its
		// Elicit call takes it out of the queue (withdraw).
		for len(q.waiting) > 0 && q.waiting[0].ctx.Err() != nil {
			q.waiting = q.waiting[1:]
		}
		if len(q.waiting) > 0 {
			next, q.waiting = q.waiting[0], q.waiting[1:]
			b.served = id
			break
		}
	}
	b.current = next
	if next != nil {
		next.shownAt = b.opts.Now()
	}
	waiting := b.waitingLocked()
	b.mu.Unlock()
	b.opts.Answerer.QueueChanged(waiting)
	if next != nil {
		go b.present(next)
	}
}

func (b *Broker) present(pd *pending) {
	resp, err := b.opts.Answerer.Present(pd.ctx, pd.req)
	// The dialog is closed before the server hears the answer, so that the
	// server's next question finds nothing of it on screen (see admit).
	b.mu.Lock()
	if b.current == pd {
		b.current = nil
	}
	delete(b.byID, pd.req.ID)
	b.mu.Unlock()
	if pd.ctx.Err() == nil {
		if err != nil { // the display failed: the person could not answer
			resp = Response{Action: ActionCancel}
		}
		select {
		case pd.answer <- resp:
		default:
		}
	}
	b.dispatch()
}

// withdraw takes a request out of its queue (if still queued) after its
// context ended; a request on screen is closed by Present returning.
func (b *Broker) withdraw(pd *pending) {
	b.mu.Lock()
	q := b.servers[pd.req.Peer.Server.ID]
	removed := false
	if q != nil {
		if i := slices.Index(q.waiting, pd); i >= 0 {
			q.waiting = slices.Delete(q.waiting, i, i+1)
			removed = true
			delete(b.byID, pd.req.ID)
		}
	}
	b.mu.Unlock()
	if removed {
		b.dispatch()
	}
}

// Refuse answers a request that is waiting in the queue, without showing it
// (E28): action is ActionDecline or ActionCancel.
func (b *Broker) Refuse(id, action string) error {
	if action != ActionDecline && action != ActionCancel {
		return fmt.Errorf("a waiting request can only be declined or cancelled")
	}
	b.mu.Lock()
	pd := b.byID[id]
	if pd == nil || pd == b.current {
		b.mu.Unlock()
		if pd != nil {
			return errors.New("that request is on screen: answer it in its dialog")
		}
		return errors.New("that request is no longer waiting")
	}
	q := b.servers[pd.req.Peer.Server.ID]
	if i := slices.Index(q.waiting, pd); i >= 0 {
		q.waiting = slices.Delete(q.waiting, i, i+1)
	}
	delete(b.byID, id)
	b.mu.Unlock()
	select {
	case pd.answer <- Response{Action: action, detail: refusedDetail}:
	default:
	}
	b.dispatch()
	return nil
}

// refusedDetail is recorded when a person refuses a request from the queue.
const refusedDetail = "refused while waiting in the queue"

// RefuseAll answers every waiting request of a server (for Mute).
func (b *Broker) RefuseAll(serverID, action string) {
	b.mu.Lock()
	var ids []string
	if q := b.servers[serverID]; q != nil {
		for _, pd := range q.waiting {
			ids = append(ids, pd.req.ID)
		}
	}
	b.mu.Unlock()
	for _, id := range ids {
		_ = b.Refuse(id, action)
	}
}

// Busy reports whether a request from the server is on screen or waiting,
// so that a tool call's own timeout can pause while the person answers.
func (b *Broker) Busy(serverID string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.current != nil && b.current.req.Peer.Server.ID == serverID {
		return true
	}
	for _, o := range b.openedURLs {
		if o.req.Peer.Server.ID == serverID {
			return true // the person is finishing something in the browser
		}
	}
	q := b.servers[serverID]
	return q != nil && len(q.waiting) > 0
}

// Waiting returns the requests queued behind the one on screen.
func (b *Broker) Waiting() []QueueEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.waitingLocked()
}

func (b *Broker) waitingLocked() []QueueEntry {
	var out []QueueEntry
	for _, id := range b.rotation {
		for _, pd := range b.servers[id].waiting {
			out = append(out, QueueEntry{ID: pd.req.ID, ServerID: id, ServerName: pd.req.Peer.Server.Name,
				Message: pd.req.Message, ReceivedAt: pd.req.ReceivedAt})
		}
	}
	slices.SortStableFunc(out, func(a, b QueueEntry) int { return a.ReceivedAt.Compare(b.ReceivedAt) })
	return out
}

func (b *Broker) withShown(e store.HistoryEntry, pd *pending) store.HistoryEntry {
	b.mu.Lock()
	shown := pd.shownAt
	b.mu.Unlock()
	if !shown.IsZero() {
		e.AnswerMs = b.opts.Now().Sub(shown).Milliseconds()
	}
	return e
}

// record adds a history entry, written in the background (history.go).
func (b *Broker) record(e store.HistoryEntry) {
	b.history.record(e)
}

// FlushHistory waits until every outcome so far is in the store: call it
// before reading the history, and before closing the store.
func (b *Broker) FlushHistory() {
	b.history.flush()
}

func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
