package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/store"
)

// Elicitation, the Broker's first kind of question: a server asks the
// person to fill in a form (form mode, E3–E17) or to open a web page (URL
// mode). Elicit checks the request before anything is shown and asks it;
// the page lifecycle of URL mode follows it here.
//
// URL mode (E18–E25): a server sends the person to a web page for what must
// not pass through the host (keys, third-party sign-in, payments). The
// broker asks a KindURL question; when the person consents, their side opens
// the page in the system browser and answers accept. The request is then
// "opened" (Broker.finish): it waits, bound to the connection it came on, for
// that server's notifications/elicitation/complete, for the person to say
// they finished, or for the answer time to run out.

// MaxElicitationIDLength bounds a URL request's elicitationId.
const MaxElicitationIDLength = 256

// ErrURLCancelled is returned by WaitCompleted when the person stopped
// waiting for a page they opened (or never opened it).
var ErrURLCancelled = i18n.Err("mcp.url.stoppedWaiting")

// openedURL is a URL request the person opened, until it ends.
type openedURL struct {
	q        *Question
	openedAt time.Time
	done     chan struct{} // closed when it ends
	err      error         // why it ended: nil when completed or finished
	stop     func()        // stops the expiry watchers
}

// checkURLRequest checks a URL-mode request before anything is shown: it must
// carry url, elicitationId and message (E18), no form schema, and a URL the
// link-safety analysis accepts (E22).
func checkURLRequest(p *sdk.ElicitParams) (*linkcheck.Report, error) {
	switch {
	case p.Message == "":
		return nil, errors.New("a URL request must have a message saying why")
	case p.ElicitationID == "":
		return nil, errors.New("a URL request must have an elicitationId")
	case p.URL == "":
		return nil, errors.New("a URL request must have a url")
	case p.RequestedSchema != nil || hasCarriedSchema(p.Meta):
		return nil, errors.New("a URL request must not have a requestedSchema")
	case len(p.ElicitationID) > MaxElicitationIDLength || !utf8.ValidString(p.ElicitationID):
		return nil, fmt.Errorf("the elicitationId is over %d bytes or not text", MaxElicitationIDLength)
	}
	link, err := linkcheck.Check(p.URL)
	if err != nil {
		return nil, fmt.Errorf("the url is refused: %w", err)
	}
	return link, nil
}

// Elicit implements Asker: it is called on the session's goroutine for each
// elicitation/create and returns when the person (or policy, or a limit) has
// answered it.
func (b *Broker) Elicit(ctx context.Context, peer Peer, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	now := b.opts.Now()
	p := req.Params
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: p.Mode, Message: p.Message}
	if entry.Mode == "" {
		entry.Mode = KindForm // E3
	}
	refuse := func(msg string) (*sdk.ElicitResult, error) {
		entry.Outcome, entry.Detail = store.OutcomeInvalid, msg
		b.record(entry)
		return nil, invalidParams(msg)
	}
	rateLimited := func() (*sdk.ElicitResult, error) {
		entry.Outcome, entry.Detail = store.OutcomeRateLimited, "refused: the server sent too many requests"
		b.record(entry)
		return nil, &jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many elicitation requests from this server; the user was not asked"}
	}
	if !peer.offers(entry.Mode) {
		return refuse(fmt.Sprintf("elicitation mode %q was not offered to this server", p.Mode)) // E4
	}
	if utf8.RuneCountInString(p.Message) > MaxMessageLength {
		return refuse(fmt.Sprintf("the message is over %d characters", MaxMessageLength))
	}
	if b.overLimit(peer) {
		return rateLimited()
	}
	q := &Question{ID: newQuestionID(), Kind: entry.Mode, Server: serverRef(peer), Message: p.Message,
		ReceivedAt: now, Peer: peer, ElicitationID: p.ElicitationID}
	if q.Kind == KindURL {
		entry.URL = p.URL
		link, err := checkURLRequest(p)
		if err != nil {
			return refuse(err.Error()) // E18, E22: nothing is shown
		}
		q.Link = link
		entry.URL = link.URL // the address as checked and as it would open
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
		fs, err := b.parseSchema(peer.Server.ID, raw)
		if err != nil {
			return refuse(err.Error()) // E6: nothing is shown
		}
		q.schema, q.Form, q.raw = fs, &fs.Form, raw
		for _, f := range fs.Form.Fields {
			entry.Fields = append(entry.Fields, f.Name)
			if f.Label != "" && f.Label != f.Name {
				if entry.Titles == nil {
					entry.Titles = map[string]string{}
				}
				entry.Titles[f.Name] = f.Label
			}
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
	q.Deadline = now.Add(timeout)
	resp, shown, err := b.ask(ctx, q, false)
	entry.AnswerMs = shown.Milliseconds()
	switch {
	case errors.Is(err, errRateLimited):
		return rateLimited()
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		entry.Outcome, entry.Detail = store.OutcomeTimedOut, "no answer within "+i18n.Duration(timeout).In(i18n.English)
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionCancel}, nil // E26: a timeout is a cancel
	case err != nil:
		entry.Outcome, entry.Detail = store.OutcomeServerCancelled, "the server withdrew the request or disconnected"
		b.record(entry)
		return nil, ctx.Err()
	}
	entry.Detail = resp.detail
	switch {
	case resp.Action == ActionAccept && q.Kind == KindURL:
		// E23: accept is consent to open, and carries no content. The
		// person's side opened the URL; the broker now waits for the server
		// to say it is done (finish, openLocked).
		entry.Outcome = store.OutcomeAccepted
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionAccept}, nil
	case resp.Action == ActionAccept:
		// E15: the values the person sent are checked by the broker,
		// whatever the UI did: by Answer (every form answer goes through it),
		// else here.
		content, errs := resp.content, map[string]i18n.Message(nil)
		if !resp.validated {
			content, errs = q.schema.Validate(resp.Values)
		}
		if len(errs) > 0 {
			// Send nothing the person did not see validated; treat it as a cancel.
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

// parseSchema is forms.ParseElicitation with a small per-server cache, keyed
// by the schema's bytes as the server sent them. A forms.Schema is not
// changed after parsing, so questions can share one.
func (b *Broker) parseSchema(serverID string, raw json.RawMessage) (*forms.Schema, error) {
	key := string(raw)
	b.mu.Lock()
	q := b.queueLocked(serverID)
	fs := q.schemas[key]
	b.mu.Unlock()
	if fs != nil {
		return fs, nil
	}
	fs, err := forms.ParseElicitation(raw)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	if q.schemas == nil || len(q.schemas) >= maxCachedSchemas {
		q.schemas = map[string]*forms.Schema{}
	}
	q.schemas[key] = fs
	b.mu.Unlock()
	return fs, nil
}

// openLocked records an accepted URL request as opened, in the same step
// that takes it off the screen, so that a completion notice finds it
// whenever it comes. b.mu is held; watchOpened must follow.
func (b *Broker) openLocked(pd *pending) *openedURL {
	o := &openedURL{q: pd.q, openedAt: b.opts.Now(), done: make(chan struct{}), stop: func() {}}
	b.openedURLs = append(b.openedURLs, o)
	return o
}

// watchOpened ends an opened request when the answer time runs out (counted
// again from the consent) or its connection ends, or at once when the
// server said it was done before the consent was recorded.
func (b *Broker) watchOpened(o *openedURL, completedEarly bool) {
	q := o.q
	timeout := q.Deadline.Sub(q.ReceivedAt)
	timer := time.AfterFunc(timeout, func() {
		b.endOpened(o, i18n.Err("mcp.url.noConfirmation", "server", q.Server.Name, "duration", i18n.Duration(timeout)))
	})
	stopWatch := make(chan struct{})
	if q.Peer.connDone != nil {
		go func() {
			select {
			case <-q.Peer.connDone:
				b.endOpened(o, i18n.Err("mcp.url.disconnected", "server", q.Server.Name))
			case <-stopWatch:
			}
		}()
	}
	b.mu.Lock()
	o.stop = func() { timer.Stop(); close(stopWatch) }
	ended := slices.Index(b.openedURLs, o) < 0
	b.mu.Unlock()
	if ended {
		o.stop() // ended before the watchers were set
	}
	if completedEarly {
		b.endOpened(o, nil)
	}
}

// endOpened ends an opened request once; err nil means it is done.
func (b *Broker) endOpened(o *openedURL, err error) bool {
	b.mu.Lock()
	i := slices.Index(b.openedURLs, o)
	if i < 0 {
		b.mu.Unlock()
		return false
	}
	b.openedURLs = slices.Delete(b.openedURLs, i, i+1)
	o.err = err
	close(o.done)
	// Remembered for a while, so a wait that starts just after the server's
	// notice (it may come before the accept reached the server) sees it.
	b.endedURLs = append(b.endedURLs, o)
	if len(b.endedURLs) > maxEndedURLs {
		b.endedURLs = slices.Delete(b.endedURLs, 0, len(b.endedURLs)-maxEndedURLs)
	}
	stop := o.stop
	b.mu.Unlock()
	stop()
	b.publish()
	return true
}

func (b *Broker) openedLocked() []OpenedPage {
	out := make([]OpenedPage, 0, len(b.openedURLs))
	for _, o := range b.openedURLs {
		out = append(out, OpenedPage{ID: o.q.ID, ElicitationID: o.q.ElicitationID, ServerID: o.q.Server.ID,
			ServerName: o.q.Server.Name, Message: o.q.Message, Link: o.q.Link, OpenedAt: o.openedAt})
	}
	return out
}

// Opened returns the web pages the person opened that are not finished yet.
func (b *Broker) Opened() []OpenedPage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.openedLocked()
}

// Complete is called for notifications/elicitation/complete from peer. It is
// honoured only for an opened request of that same server and connection
// (E24); unknown, finished or another server's ids are ignored, and Complete
// reports false.
func (b *Broker) Complete(peer Peer, elicitationID string) bool {
	same := func(q *Question) bool {
		return q.ElicitationID == elicitationID && q.Peer.Server.ID == peer.Server.ID && q.Peer.session == peer.session
	}
	b.mu.Lock()
	var found *openedURL
	for _, o := range b.openedURLs {
		if same(o.q) {
			found = o
			break
		}
	}
	if found == nil {
		// The page may finish before the consent is recorded (the browser
		// opened, the answer is on its way): remember it for finish.
		for _, pd := range b.byID {
			if pd.q.Kind == KindURL && same(pd.q) {
				pd.completed = true
				b.mu.Unlock()
				return true
			}
		}
	}
	b.mu.Unlock()
	return found != nil && b.endOpened(found, nil)
}

// FinishOpened is the person saying they finished the web page (or "Retry
// now"): the request stops waiting as if the server had confirmed.
func (b *Broker) FinishOpened(id string) error { return b.endOpenedByID(id, nil) }

// CancelOpened is the person no longer waiting for the web page.
func (b *Broker) CancelOpened(id string) error { return b.endOpenedByID(id, ErrURLCancelled) }

func (b *Broker) endOpenedByID(id string, err error) error {
	b.mu.Lock()
	var found *openedURL
	for _, o := range b.openedURLs {
		if o.q.ID == id {
			found = o
		}
	}
	b.mu.Unlock()
	if found == nil || !b.endOpened(found, err) {
		return i18n.Err("mcp.url.pageNotWaiting")
	}
	return nil
}

// OpenedLink returns the checked link of an opened request, for "Open again".
func (b *Broker) OpenedLink(id string) (*linkcheck.Report, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, o := range b.openedURLs {
		if o.q.ID == id {
			return o.q.Link, nil
		}
	}
	return nil, i18n.Err("mcp.url.pageNotWaiting")
}

// WaitCompleted waits until the opened request with the elicitation id from
// peer's connection is done: confirmed by the server, or finished or
// cancelled by the person, or expired. It returns nil when the call may go
// on. A request that is not opened (the person declined) is ErrURLCancelled.
func (b *Broker) WaitCompleted(ctx context.Context, peer Peer, elicitationID string) error {
	b.mu.Lock()
	var found *openedURL
	for _, o := range slices.Concat(b.endedURLs, b.openedURLs) { // the newest match wins
		p := o.q.Peer
		if o.q.ElicitationID == elicitationID && p.Server.ID == peer.Server.ID && p.session == peer.session {
			found = o
		}
	}
	b.mu.Unlock()
	if found == nil {
		return ErrURLCancelled
	}
	select {
	case <-found.done:
		return found.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
