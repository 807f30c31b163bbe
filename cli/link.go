package cli

import (
	"context"
	"errors"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Every command reaches the core one way: it calls the tools of the
// command line's server (applink; app.Commands are its tools) as an MCP
// client. While the window is open the running app holds the data file and
// serves them on its socket; otherwise this command opens the core itself
// and serves them in memory. Either way the same code does the work, the
// same sentences come out, and a command's questions are answered here in
// the terminal.

// connect connects this command to the core: the running app on this data
// folder, or a core it opens; closeFn ends either. answerer (may be nil)
// answers the questions of this command's calls; notices (may be nil) gets
// the notifications/progress of its calls whole.
func (e *env) connect(ctx context.Context, answerer *terminalAnswerer, notices func(*sdk.ProgressNotificationParams)) (cs *sdk.ClientSession, closeFn func(), err error) {
	dir := e.dataDir
	if dir == "" {
		if dir, err = store.DefaultDir(); err != nil {
			return nil, nil, err
		}
	}
	opts := applink.ClientOptions{Version: app.Version, Progress: e.progress, Notices: notices}
	if answerer != nil {
		opts.Pages = applink.NewPages()
		answerer.usePages(opts.Pages)
		opts.Answer = func(ctx context.Context, q *mcp.Question) (mcp.Response, error) {
			resp, err := answerer.Present(ctx, q)
			if err == nil && ctx.Err() == nil && resp.Action == mcp.ActionAccept && q.Kind == mcp.KindURL {
				answerer.opened(q)
			}
			return resp, err
		}
	}
	cs, err = applink.Dial(ctx, dir, opts)
	switch {
	case err == nil:
		return cs, func() { cs.Close() }, nil
	case !errors.Is(err, applink.ErrNoApp):
		return nil, nil, i18n.Wrap(err, "socket.unreachable", "detail", err)
	}
	core, err := e.openCore()
	if errors.Is(err, store.ErrLocked) {
		// The window holds the data file but does not serve the command
		// line yet: it starts, and serves it once its first frame is
		// drawn (app's later start, at most 3 s after it began).
		if cs, err = dialStarting(ctx, dir, opts); err == nil {
			return cs, func() { cs.Close() }, nil
		}
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	if cs, err = core.ConnectCLI(ctx, opts); err != nil {
		core.Close()
		return nil, nil, err
	}
	return cs, func() { cs.Close(); core.Close() }, nil
}

// startingWait bounds how long a command waits for a window that holds
// the data file to serve the command line: longer than the window's own
// wait for its first frame.
const startingWait = 5 * time.Second

// dialStarting dials the app's socket until it answers, while the app
// holds the data file, at most startingWait. It returns store.ErrLocked
// ("already running") when the app never serves it.
func dialStarting(ctx context.Context, dir string, opts applink.ClientOptions) (*sdk.ClientSession, error) {
	ctx, cancel := context.WithTimeout(ctx, startingWait)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, store.ErrLocked
		case <-tick.C:
		}
		cs, err := applink.Dial(ctx, dir, opts)
		switch {
		case err == nil:
			return cs, nil
		case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
			return nil, store.ErrLocked // the dial's time ran out with the wait's
		case !errors.Is(err, applink.ErrNoApp):
			return nil, i18n.Wrap(err, "socket.unreachable", "detail", err)
		}
	}
}

// do runs one command on a connection of its own: tool with in as its
// arguments, its result read into out.
func (e *env) do(ctx context.Context, tool string, in, out any) error {
	cs, closeFn, err := e.connect(ctx, nil, nil)
	if err != nil {
		return err
	}
	defer closeFn()
	return run(ctx, cs, tool, in, out)
}

// run is applink.Run with the CLI's own sentence for a server that could
// not be connected.
func run(ctx context.Context, cs *sdk.ClientSession, tool string, in, out any) error {
	err := applink.Run(ctx, cs, tool, in, out)
	var ce *applink.ConnectError
	if errors.As(err, &ce) {
		return connectFailed(ce)
	}
	return err
}
