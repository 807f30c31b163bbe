package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
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
	p := req.Params
	e, record := b.entry(peer, cmp.Or(p.Mode, KindForm)) // E3: form when no mode is named
	defer record()
	e.Message = p.Message
	refuse := func(why i18n.Message) (*sdk.ElicitResult, error) {
		return nil, ended(e, store.OutcomeInvalid, why, invalidParams(why.In(i18n.English)))
	}
	rateLimited := func() (*sdk.ElicitResult, error) {
		return nil, ended(e, store.OutcomeRateLimited, i18n.M("mcp.history.flood"),
			&jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many elicitation requests from this server; the user was not asked"})
	}
	if !peer.offers(e.Mode) {
		return refuse(i18n.M("mcp.history.modeNotOffered", "mode", strconv.Quote(p.Mode))) // E4
	}
	if utf8.RuneCountInString(p.Message) > MaxMessageLength {
		return refuse(i18n.M("mcp.history.messageTooLong", "max", MaxMessageLength))
	}
	if b.overLimit(peer) {
		return rateLimited()
	}
	q := &Question{ID: newQuestionID(), Kind: e.Mode, Server: serverRef(peer), Message: p.Message,
		ReceivedAt: e.Time, Peer: peer, ElicitationID: p.ElicitationID}
	if q.Kind == KindURL {
		e.URL = p.URL
		link, err := checkURLRequest(p)
		if err != nil {
			return refuse(i18n.ErrorMessage(err)) // E18, E22: nothing is shown
		}
		q.Link = link
		e.URL = link.URL // the address as checked and as it would open
	} else {
		raw, carried := rawSchemaOf(p.Meta)
		switch {
		case !carried && p.RequestedSchema == nil:
			return refuse(i18n.M("mcp.history.noSchema")) // E6: nothing is shown
		case !carried:
			// The schema did not come through the host's own reading of the
			// wire (rawschema.go), so what would be sent could differ from
			// what is shown (E14): refuse rather than guess.
			return refuse(i18n.M("mcp.history.schemaNotExact"))
		}
		fs, err := b.parseSchema(peer.Server.ID, raw)
		if err != nil {
			return refuse(i18n.ErrorMessage(err)) // E6: nothing is shown
		}
		q.schema, q.Form, q.raw = fs, &fs.Form, raw
		for _, f := range fs.Form.Fields {
			e.Fields = append(e.Fields, f.Name)
			if f.Label != "" && f.Label != f.Name {
				if e.Titles == nil {
					e.Titles = map[string]string{}
				}
				e.Titles[f.Name] = f.Label
			}
		}
	}

	if outcome, why, ok := b.byPolicy(peer, e.Time); ok {
		action := ActionCancel // muted
		if outcome == store.OutcomeDeclined {
			action = ActionDecline
		}
		return &sdk.ElicitResult{Action: action}, ended(e, outcome, why, nil)
	}
	settings, _ := b.opts.Store.Settings()
	timeout := answerTime(settings)
	q.Deadline = e.Time.Add(timeout)
	resp, shown, err := b.ask(ctx, q, false)
	e.AnswerMs = shown.Milliseconds()
	if err != nil {
		outcome, why := unanswered(ctx, err, timeout)
		switch outcome {
		case store.OutcomeRateLimited:
			return rateLimited()
		case store.OutcomeTimedOut:
			return &sdk.ElicitResult{Action: ActionCancel}, ended(e, outcome, why, nil) // E26: a timeout is a cancel
		}
		return nil, ended(e, outcome, why, ctx.Err())
	}
	why := resp.why
	result := &sdk.ElicitResult{Action: ActionCancel}
	if resp.Action == ActionAccept || resp.Action == ActionDecline {
		result.Action = resp.Action
	}
	if resp.Action == ActionAccept && q.Kind == KindForm {
		// E15: the values the person sent are checked by the broker,
		// whatever the UI did: by accept (every form answer goes through
		// it), else here. E23: a URL request's accept is consent to open,
		// and carries no content; the person's side opened the URL and the
		// broker now waits for the server to say it is done (finish).
		content, errs := resp.content, map[string]i18n.Message(nil)
		if !resp.validated {
			content, errs = q.schema.Validate(resp.Values)
		}
		if len(errs) > 0 {
			// Send nothing the person did not see validated; treat it as a cancel.
			return &sdk.ElicitResult{Action: ActionCancel}, ended(e, store.OutcomeCancelled, i18n.M("mcp.history.notValid"), nil)
		}
		if settings.RememberAnswers {
			e.Answer = maps.Clone(content) // written later, in the background
		}
		result.Content = content
	}
	return result, ended(e, outcomeOf(resp.Action), why, nil)
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
