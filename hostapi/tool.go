package hostapi

import (
	"context"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// A Tool is one more of the CLI's commands that the app serves, with types
// of its own (made with NewTool or NewCallerTool): the app knows its
// services' types, which this package, below the app, does not.
type Tool struct {
	add func(*Server)
}

// NewTool makes a Tool named name whose arguments are an In and whose
// result is an Out, both JSON objects. An error is a result marked as an
// error whose structured content is a Failure, as for the other tools.
func NewTool[In, Out any](name, description string, run func(ctx context.Context, in In) (Out, error)) Tool {
	return Tool{add: func(s *Server) {
		addTool(s.mcp, name, description, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (Out, error) { return run(ctx, in) })
	}}
}

// NewCallerTool is NewTool for a command that talks with the command line
// that called it while it runs: the questions it causes are asked there
// (Caller.Route), and it tells how it goes (Caller.Notify).
func NewCallerTool[In, Out any](name, description string, run func(ctx context.Context, c *Caller, in In) (Out, error)) Tool {
	return Tool{add: func(s *Server) {
		addTool(s.mcp, name, description, func(ctx context.Context, req *sdk.CallToolRequest, in In) (Out, error) {
			return run(ctx, &Caller{s: s, req: req}, in)
		})
	}}
}

// A Caller is the command line whose call a NewCallerTool tool runs.
type Caller struct {
	s   *Server
	req *sdk.CallToolRequest

	mu   sync.Mutex
	sent int
}

// Route has the questions match takes asked of the caller, in its terminal,
// until release is called (mcp.Broker.RouteMatching): a sign-in consent as a
// URL-mode request, a model's tool call as a form (see elicitOn). The broker
// keeps owning them.
func (c *Caller) Route(match func(*mcp.Question) bool) (release func()) {
	return c.s.opts.Broker.RouteMatching(match, c.s.elicitOn(c.req.Session), c.s.pageOpened(c.req.Session, nil))
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
