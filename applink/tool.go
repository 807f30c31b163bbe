package applink

import (
	"context"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// A Tool is one command a Server serves, with types of its own (made with
// NewTool or NewCallerTool): the app knows its services' types, which this
// package, below the app, does not.
type Tool struct {
	add func(*Server)
}

// NewTool makes a Tool named name whose arguments are an In and whose
// result is an Out, both JSON objects: run is typically a method of
// app.Commands. An error is a result marked as an error whose structured
// content is a Failure. ctx also ends when the client stops the call
// (ToolStop).
func NewTool[In, Out any](name, description string, run func(ctx context.Context, in In) (Out, error)) Tool {
	return Tool{add: func(s *Server) {
		addTool(s, name, description, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (Out, error) { return run(ctx, in) })
	}}
}

// NewCallerTool is NewTool for a command that talks with the client that
// called it while it runs: the questions it causes are asked there
// (Caller.Route, Caller.RouteServer), and it tells how it goes
// (Caller.Notify, Caller.Progress).
func NewCallerTool[In, Out any](name, description string, run func(ctx context.Context, c *Caller, in In) (Out, error)) Tool {
	return Tool{add: func(s *Server) {
		addTool(s, name, description, func(ctx context.Context, req *sdk.CallToolRequest, in In) (Out, error) {
			return run(ctx, &Caller{s: s, req: req, pages: &pageNotices{sent: map[string]chan struct{}{}}}, in)
		})
	}}
}

// A Caller is the client whose call a NewCallerTool tool runs.
type Caller struct {
	s   *Server
	req *sdk.CallToolRequest
	// pages are the notices of the web pages opened through RouteServer.
	pages *pageNotices

	mu   sync.Mutex
	sent int
}

// Route has the questions match takes asked of the caller, in its terminal,
// until release is called (mcp.Broker.RouteMatching): a sign-in consent as a
// URL-mode request, a model's tool call as a form (see elicitOn). The broker
// keeps owning them; those still unanswered on release are cancelled.
func (c *Caller) Route(match func(*mcp.Question) bool) (release func()) {
	return c.s.opts.Broker.RouteMatching(match, c.s.elicitOn(c.req.Session), c.s.pageOpened(c.req.Session, nil))
}

// RouteServer has the form and URL requests serverID asks while the
// caller's call runs on it asked of the caller, until release is called
// (mcp.Broker.Route): those still unanswered then go to the window.
// EndedPages names the web pages the caller opened that have ended.
func (c *Caller) RouteServer(serverID string) (release func()) {
	return c.s.opts.Broker.Route(serverID, c.s.elicitOn(c.req.Session), c.s.pageOpened(c.req.Session, c.pages))
}

// EndedPages returns the web pages opened through RouteServer that have
// ended, by the elicitationId they were asked with (sorted), once their
// notices are sent: a client handles notifications after its results, so
// it waits for these before it waits for pages still open.
func (c *Caller) EndedPages() []string { return c.pages.waitEnded(c.s.opts.Broker.Opened()) }

// Progress returns ctx with the progress its server reports
// (mcp.WithProgress) passed on to the caller as notifications/progress,
// when it asked to hear it (a progress token, as Run sends).
func (c *Caller) Progress(ctx context.Context) context.Context {
	token := c.req.Params.GetProgressToken()
	if token == nil {
		return ctx
	}
	return mcp.WithProgress(ctx, func(p mcp.Progress) {
		_ = c.req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token,
			Progress: p.Progress, Total: p.Total, Message: p.Message})
	})
}

// Notify tells the caller how its call goes, when it asked to hear it (a
// progress token, as Run sends): notifications/progress with message
// as its text and meta as its _meta, in order. The caller counts them
// (Notified), so that it can wait for the last before it ends.
func (c *Caller) Notify(ctx context.Context, message string, meta sdk.Meta) error {
	token := c.req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock() // in order, one at a time
	c.sent++
	return c.req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(c.sent), Message: message, Meta: meta})
}

// Notified returns how many notifications Notify sent.
func (c *Caller) Notified() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent
}

// Items is the result of a tool that lists: JSON results are objects.
type Items[T any] struct {
	Items []T `json:"items"`
}
