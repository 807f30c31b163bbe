package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/linkcheck"
)

// URL mode (E18–E25): a server sends the person to a web page for what must
// not pass through the host (keys, third-party sign-in, payments). The
// broker shows the URL through the Answerer; when the person consents, the
// answerer opens it in the system browser and answers accept. The request is
// then "opened": it waits, bound to the connection it came on, for that
// server's notifications/elicitation/complete, for the person to say they
// finished, or for the answer time to run out.

// MaxElicitationIDLength bounds a URL request's elicitationId.
const MaxElicitationIDLength = 256

// maxEndedURLs is how many ended URL requests are remembered for
// WaitCompleted.
const maxEndedURLs = 100

// ErrURLCancelled is returned by WaitCompleted when the person stopped
// waiting for a page they opened (or never opened it).
var ErrURLCancelled = errors.New("you stopped waiting for the web page, so the call did not go on")

// OpenedURL is a URL-mode request the person opened in the browser, waiting
// for its server to say the web page is done.
type OpenedURL struct {
	ID            string // the request's ID
	ElicitationID string
	ServerID      string
	ServerName    string
	Message       string
	Link          *linkcheck.Report
	OpenedAt      time.Time
}

type openedURL struct {
	req      *Request
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
	case p.RequestedSchema != nil:
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

// trackOpened records an accepted URL request as waiting for completion,
// until the answer time runs out or its connection ends.
func (b *Broker) trackOpened(pd *pending, timeout time.Duration) {
	r := pd.req
	o := &openedURL{req: r, openedAt: b.opts.Now(), done: make(chan struct{})}
	timer := time.AfterFunc(timeout, func() {
		b.endOpened(o, fmt.Errorf("%s did not confirm within %s that the web page was finished", r.Peer.Server.Name, timeout))
	})
	stopWatch := make(chan struct{})
	if r.Peer.connDone != nil {
		go func() {
			select {
			case <-r.Peer.connDone:
				b.endOpened(o, fmt.Errorf("%s disconnected before the web page was finished", r.Peer.Server.Name))
			case <-stopWatch:
			}
		}()
	}
	o.stop = func() { timer.Stop(); close(stopWatch) }
	b.mu.Lock()
	b.openedURLs = append(b.openedURLs, o)
	early := pd.completed
	list := b.openedLocked()
	b.mu.Unlock()
	b.opts.Answerer.OpenedChanged(list)
	if early {
		b.endOpened(o, nil) // the server was done before the consent was recorded
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
	list := b.openedLocked()
	b.mu.Unlock()
	o.stop()
	b.opts.Answerer.OpenedChanged(list)
	return true
}

func (b *Broker) openedLocked() []OpenedURL {
	out := make([]OpenedURL, 0, len(b.openedURLs))
	for _, o := range b.openedURLs {
		out = append(out, OpenedURL{ID: o.req.ID, ElicitationID: o.req.ElicitationID, ServerID: o.req.Peer.Server.ID,
			ServerName: o.req.Peer.Server.Name, Message: o.req.Message, Link: o.req.Link, OpenedAt: o.openedAt})
	}
	return out
}

// Opened returns the URL requests the person opened that are not finished yet.
func (b *Broker) Opened() []OpenedURL {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.openedLocked()
}

// Complete is called for notifications/elicitation/complete from peer. It is
// honoured only for an opened request of that same server and connection
// (E24); unknown, finished or another server's ids are ignored, and Complete
// reports false.
func (b *Broker) Complete(peer Peer, elicitationID string) bool {
	b.mu.Lock()
	var found *openedURL
	for _, o := range b.openedURLs {
		p := o.req.Peer
		if o.req.ElicitationID == elicitationID && p.Server.ID == peer.Server.ID && p.session == peer.session {
			found = o
			break
		}
	}
	if found == nil {
		// The page may finish before the consent is recorded (the browser
		// opened, the answer is on its way): remember it on the request.
		for _, pd := range b.byID {
			p := pd.req.Peer
			if pd.req.Mode == "url" && pd.req.ElicitationID == elicitationID && p.Server.ID == peer.Server.ID && p.session == peer.session {
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
		if o.req.ID == id {
			found = o
		}
	}
	b.mu.Unlock()
	if found == nil || !b.endOpened(found, err) {
		return errors.New("that web page is no longer waiting")
	}
	return nil
}

// OpenedLink returns the checked link of an opened request, for "Open again".
func (b *Broker) OpenedLink(id string) (*linkcheck.Report, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, o := range b.openedURLs {
		if o.req.ID == id {
			return o.req.Link, nil
		}
	}
	return nil, errors.New("that web page is no longer waiting")
}

// WaitCompleted waits until the opened request with the elicitation id from
// peer's connection is done: confirmed by the server, or finished or
// cancelled by the person, or expired. It returns nil when the call may go
// on. A request that is not opened (the person declined) is ErrURLCancelled.
func (b *Broker) WaitCompleted(ctx context.Context, peer Peer, elicitationID string) error {
	b.mu.Lock()
	var found *openedURL
	for _, o := range slices.Concat(b.endedURLs, b.openedURLs) { // the newest match wins
		p := o.req.Peer
		if o.req.ElicitationID == elicitationID && p.Server.ID == peer.Server.ID && p.session == peer.session {
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
