package cli

import (
	"context"
	"errors"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/hostapi"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// While the window is open it holds the data file, so these commands ask
// the running app instead, over its socket (hostapi): the same arguments
// are checked first, the same sentences come out, and a call's questions
// are answered here in the terminal. With no app running, each returns
// done = false and the command opens the data file itself.

// dial connects to the app running on this data folder; nil, nil when none
// is. answerer (may be nil) answers the questions of this command's calls.
func (e *env) dial(ctx context.Context, answerer *terminalAnswerer) (*sdk.ClientSession, error) {
	dir := e.dataDir
	if dir == "" {
		d, err := store.DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	opts := hostapi.ClientOptions{Progress: e.progress}
	if answerer != nil {
		opts.Pages = hostapi.NewPages()
		answerer.usePages(opts.Pages)
		opts.Answer = func(ctx context.Context, q *mcp.Question) (mcp.Response, error) {
			resp, err := answerer.Present(ctx, q)
			if err == nil && ctx.Err() == nil && resp.Action == mcp.ActionAccept && q.Kind == mcp.KindURL {
				answerer.openedThroughApp(q)
			}
			return resp, err
		}
	}
	cs, err := hostapi.Dial(ctx, dir, app.Version, opts)
	if errors.Is(err, hostapi.ErrNoApp) {
		return nil, nil
	}
	if err != nil {
		return nil, i18n.Wrap(err, "socket.unreachable", "detail", err)
	}
	return cs, nil
}

// remoteServers runs `servers list|add|remove|enable|disable` in the running
// app. The command line is read first, so a mistake in it is said the same
// way whether or not the app runs.
func (e *env) remoteServers(args []string) (done bool, err error) {
	var call func(ctx context.Context, cs *sdk.ClientSession) error
	switch args[0] {
	case "list":
		call = func(ctx context.Context, cs *sdk.ClientSession) error {
			var list hostapi.ServerList
			if err := run(ctx, cs, hostapi.ToolListServers, struct{}{}, &list); err != nil {
				return err
			}
			return e.printServers(list.Servers)
		}
	case "add":
		in, err := parseAdd(args[1:])
		if err != nil {
			return true, err
		}
		call = func(ctx context.Context, cs *sdk.ClientSession) error {
			var added hostapi.Added
			if err := run(ctx, cs, hostapi.ToolAddServer, newServer(in), &added); err != nil {
				return err
			}
			e.printAdded(added)
			return nil
		}
	case "remove", "enable", "disable":
		if len(args) != 2 {
			return true, usageErr(i18n.M("cli.servers.oneName", "command", args[0]))
		}
		tool := map[string]string{"remove": hostapi.ToolRemoveServer, "enable": hostapi.ToolEnableServer, "disable": hostapi.ToolDisableServer}[args[0]]
		call = func(ctx context.Context, cs *sdk.ClientSession) error {
			var changed hostapi.Changed
			if err := run(ctx, cs, tool, hostapi.ServerName{Name: args[1]}, &changed); err != nil {
				return err
			}
			e.printChanged(args[0], changed.Name)
			return nil
		}
	default:
		return false, nil // not served by the app: the data file it is
	}
	ctx := context.Background()
	cs, err := e.dial(ctx, nil)
	if cs == nil || err != nil {
		return err != nil, err
	}
	defer cs.Close()
	return true, call(ctx, cs)
}

// remoteTools runs `tools SERVER` in the running app, on its open session.
func (e *env) remoteTools(ctx context.Context, server string) (done bool, err error) {
	cs, err := e.dial(ctx, nil)
	if cs == nil || err != nil {
		return err != nil, err
	}
	defer cs.Close()
	var list hostapi.ToolList
	if err := run(ctx, cs, hostapi.ToolListTools, hostapi.ServerName{Name: server}, &list); err != nil {
		return true, err
	}
	e.printTools(list.Tools)
	return true, nil
}

// remoteCall makes `call` in the running app, on its open session, and
// returns its exit code. The form and URL requests of the call are answered
// by answerer, here; the web pages the person opened are then waited for as
// without the app (finishCall), while the app's broker keeps them.
func (e *env) remoteCall(ctx context.Context, server, tool, argsJSON string, asJSON bool, answerer *terminalAnswerer, progress *progressPrinter) (code int, done bool) {
	cs, err := e.dial(ctx, answerer)
	if err != nil {
		return e.exit(err), true
	}
	if cs == nil {
		return 0, false
	}
	defer cs.Close()
	var res app.ToolResultView
	err = run(ctx, cs, hostapi.ToolCallTool, hostapi.Call{Server: server, Tool: tool, Arguments: argsJSON}, &res)
	progress.done()
	if err != nil {
		return e.exit(err), true
	}
	return e.finishCall(res, asJSON, answerer, func() error { return answerer.waitPages(ctx, "") }), true
}

// run is hostapi.Run with the CLI's own sentence for a server that could
// not be connected.
func run(ctx context.Context, cs *sdk.ClientSession, tool string, in, out any) error {
	err := hostapi.Run(ctx, cs, tool, in, out)
	var ce *hostapi.ConnectError
	if errors.As(err, &ce) {
		return connectFailed(ce)
	}
	return err
}

// newServer is the server `servers add` read, as the app's tool takes it.
func newServer(in app.ServerInput) hostapi.NewServer {
	return hostapi.NewServer{Name: in.Name, Enabled: in.Enabled, Transport: in.Transport, Command: in.Command, Args: in.Args,
		Env: in.Env, Dir: in.Dir, InheritEnv: in.InheritEnv, URL: in.URL, Headers: in.Headers}
}
