package applink

import (
	"context"
	"encoding/json"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// Pages are the web pages a client's person opened through the server (the
// URL-mode requests of its calls), seen from the client. The server's
// broker keeps them; Pages only hears how each ends (the server's
// notifications/elicitation/complete) and passes the person's "finished" or
// "stop waiting" on to the broker. A page is named by the elicitationId the
// server asked it with.
type Pages struct {
	mu   sync.Mutex
	cs   *sdk.ClientSession
	ends map[string]*pageEnd
}

// pageEnd is how one page ended, once done is closed.
type pageEnd struct {
	done chan struct{}
	err  error
}

// NewPages returns Pages for ClientOptions.
func NewPages() *Pages { return &Pages{ends: map[string]*pageEnd{}} }

func (p *Pages) attach(cs *sdk.ClientSession) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cs = cs
}

// end returns the record of the page named id, made on first use: the
// server's notice may come before anyone waits for it.
func (p *Pages) end(id string) *pageEnd {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.ends[id]
	if e == nil {
		e = &pageEnd{done: make(chan struct{})}
		p.ends[id] = e
	}
	return e
}

// ended records the server's notice that a page ended; _meta[PageEndedMeta]
// says why when its server did not confirm it.
func (p *Pages) ended(params *sdk.ElicitationCompleteParams) {
	if params == nil || params.ElicitationID == "" {
		return
	}
	e := p.end(params.ElicitationID)
	var err error
	if why, ok := params.Meta[PageEndedMeta]; ok {
		var f Failure
		b, _ := json.Marshal(why)
		if json.Unmarshal(b, &f) != nil || f.Error.Key == "" {
			f.Error = i18n.M("mcp.url.pageNotWaiting")
		}
		err = &i18n.Error{Message: f.Error}
		if m, ok := i18n.MessageOf(mcp.ErrURLCancelled); ok && m.Key == f.Error.Key {
			err = mcp.ErrURLCancelled
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-e.done: // said once
	default:
		e.err = err
		close(e.done)
	}
}

// Wait waits until the server says the page asked with elicitationID
// ended, as mcp.Broker.WaitCompleted: nil when it is finished.
func (p *Pages) Wait(ctx context.Context, elicitationID string) error {
	e := p.end(elicitationID)
	select {
	case <-e.done:
		return e.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Finish is the person saying they finished the page.
func (p *Pages) Finish(id string) error { return p.run(ToolFinishPage, id) }

// StopWaiting is the person no longer waiting for the page.
func (p *Pages) StopWaiting(id string) error { return p.run(ToolStopWaitingPage, id) }

func (p *Pages) run(tool, id string) error {
	p.mu.Lock()
	cs := p.cs
	p.mu.Unlock()
	if cs == nil {
		return i18n.Err("mcp.url.pageNotWaiting")
	}
	return Run(context.Background(), cs, tool, Page{ID: id}, &struct{}{})
}
