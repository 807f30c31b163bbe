package cli

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

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
	return e.dialWatching(ctx, answerer, nil)
}

// dialWatching is dial for a command that hears how its call goes:
// notices (may be nil) gets the app's notifications/progress whole.
func (e *env) dialWatching(ctx context.Context, answerer *terminalAnswerer, notices func(*sdk.ProgressNotificationParams)) (*sdk.ClientSession, error) {
	dir := e.dataDir
	if dir == "" {
		d, err := store.DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	opts := hostapi.ClientOptions{Progress: e.progress, Notices: notices}
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
	out := hostapi.CallResult{Result: &res}
	err = run(ctx, cs, hostapi.ToolCallTool, hostapi.Call{Server: server, Tool: tool, Arguments: argsJSON}, &out)
	progress.done()
	if err != nil {
		return e.exit(err), true
	}
	answerer.awaitEnded(out.EndedPages)
	return e.finishCall(res, asJSON, answerer, func() error { return answerer.waitPages(ctx, "") }), true
}

// remoteSignIn signs in to the named server in the running app, whose
// broker asks the consent here, through answerer. Ctrl-C (ctx) stops
// waiting, as without the app; the app then cancels the consent.
func (e *env) remoteSignIn(ctx context.Context, name string, answerer *terminalAnswerer) (signed app.SignedIn, done bool, err error) {
	cs, err := e.dial(ctx, answerer)
	if cs == nil || err != nil {
		return signed, err != nil, err
	}
	defer cs.Close()
	err = run(ctx, cs, app.ToolSignIn, app.CLIName{Name: name}, &signed)
	if err != nil && ctx.Err() != nil {
		err = i18n.Err("cli.signin.unfinished", "server", name)
	}
	return signed, true, err
}

// remoteChat runs a chat turn in the running app, with its providers,
// servers and conversations: the app tells the turn as it goes (its
// notifications/progress, passed on to hooks as without the app) and asks
// its questions here, through answerer. Ctrl-C (ctx) stops the turn, which
// still ends as it does without the app.
func (e *env) remoteChat(ctx context.Context, provider, message string, answerer *terminalAnswerer, hooks app.ChatTurnHooks) (done bool, err error) {
	var mu sync.Mutex
	heard, conversation := 0, ""
	changed := make(chan struct{}, 1)
	progress := func(p *sdk.ProgressNotificationParams) {
		if text, ok := p.Meta[app.ChatEventMeta].(string); ok && hooks.Event != nil {
			var ev app.ChatEvent
			if json.Unmarshal([]byte(text), &ev) == nil {
				hooks.Event(ev)
			}
		}
		if text, ok := p.Meta[app.ChatNotConnectedMeta].(string); ok && hooks.NotConnected != nil {
			var nc app.CLINotConnected
			if json.Unmarshal([]byte(text), &nc) == nil {
				hooks.NotConnected(nc.Server, &i18n.Error{Message: nc.Why})
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if text, ok := p.Meta[app.ChatStartedMeta].(string); ok {
			_ = json.Unmarshal([]byte(text), &conversation)
		}
		heard++
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	cs, err := e.dialWatching(ctx, answerer, progress)
	if cs == nil || err != nil {
		return err != nil, err
	}
	defer cs.Close()
	callCtx, cancelCall := context.WithCancel(context.Background())
	defer cancelCall()
	go func() { // Ctrl-C: the app stops the turn, which then ends as usual
		select {
		case <-ctx.Done():
		case <-callCtx.Done():
			return
		}
		mu.Lock()
		id := conversation
		mu.Unlock()
		if id == "" || run(callCtx, cs, app.ToolStopChatTurn, app.CLIName{Name: id}, &struct{}{}) != nil {
			cancelCall() // not started yet: ending the call stops it
		}
	}()
	var ended app.CLIChatTurnEnded
	if err := hostapi.Run(callCtx, cs, app.ToolChatTurn, app.CLIChatTurn{Provider: provider, Message: message}, &ended); err != nil {
		return true, err
	}
	// The result can overtake the last notifications: wait for them.
	deadline := time.After(chatNoticeWait)
	for {
		mu.Lock()
		all := heard >= ended.Notices
		mu.Unlock()
		if all {
			return true, nil
		}
		select {
		case <-changed:
		case <-deadline:
			return true, nil
		}
	}
}

// chatNoticeWait bounds the wait for a chat turn's last notifications
// after its result: they were sent before it, on the same connection.
const chatNoticeWait = 5 * time.Second

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
