package mcp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress is one notifications/progress a server sent about a request of
// Gatehouse's: how far it got, of how much when it knows (Total 0: it does
// not), and its message, which is server text.
type Progress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total"`
	Message  string  `json:"message"`
}

// progressKey is the context key of WithProgress.
type progressKey struct{}

// WithProgress returns a context under which the manager's requests that
// can report progress (CallTool, and the resource reads and prompt gets)
// hand their progress notifications to report as they arrive, at most
// ProgressEvery apart: one that comes sooner waits, and only the newest
// waiting one is reported. The last one that arrived before the request
// ended is always reported, before the request returns. report is never
// called twice at the same time and must not block for long.
func WithProgress(ctx context.Context, report func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, report)
}

// ProgressEvery is the least time between two progress reports of one
// request (WithProgress): about 30 a second, as often as a progress bar can
// show a change, however many notifications a server sends (issue 22,
// item 7).
const ProgressEvery = time.Second / 30

// progressTokens numbers the progress tokens of every connection: a token
// names one request, and is never reused while Gatehouse runs.
var progressTokens atomic.Uint64

// progressRoutes sends each progress notification of a connection to the
// request whose token it carries. The zero value is ready to use.
type progressRoutes struct {
	mu     sync.Mutex
	routes map[string]*Coalescer[Progress]
}

// track gives params a progress token of their own (every request that can
// report progress asks for it, MCP's progressToken), routes the
// notifications that carry it to the report of ctx (WithProgress), if any,
// and returns the function that ends the route: call it when the request
// is over, so that a late notification is dropped. Requests of package mcp
// use it as
//
//	defer s.progress.track(ctx, params)()
func (r *progressRoutes) track(ctx context.Context, params sdk.RequestParams) (untrack func()) {
	token := fmt.Sprintf("gatehouse-%d", progressTokens.Add(1))
	params.SetProgressToken(token)
	report, _ := ctx.Value(progressKey{}).(func(Progress))
	if report == nil {
		return func() {}
	}
	route := &Coalescer[Progress]{Every: ProgressEvery, Send: report}
	r.mu.Lock()
	if r.routes == nil {
		r.routes = map[string]*Coalescer[Progress]{}
	}
	r.routes[token] = route
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.routes, token)
		r.mu.Unlock()
		route.Close() // the last progress before the end is never lost, and none comes after
	}
}

// deliver hands a progress notification to the request it names; one for
// no request in flight (a late one, or a token the server made up) is
// dropped.
func (r *progressRoutes) deliver(p *sdk.ProgressNotificationParams) {
	if p == nil {
		return
	}
	token, ok := p.ProgressToken.(string)
	if !ok {
		return // Gatehouse's tokens are strings: a number names none of its requests
	}
	r.mu.Lock()
	route := r.routes[token]
	r.mu.Unlock()
	if route != nil {
		route.Put(Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}
