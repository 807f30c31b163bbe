package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// failed is a tool result saying, in a sentence the client shows, why the
// call was not made or did not end well.
func failed(m i18n.Message) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: m.String()}}}
}

// callTool is a client's tools/call as the go-sdk's server hands it over:
// with progress, a task or before the client said who it is (the
// forwarded way, forward.go, takes the others).
func (c *conn) callTool(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	a, refused, err := c.admit(ctx, req.Params.Name, req.Params.Arguments, false)
	if refused != nil || err != nil {
		return refused, err
	}
	var progress func(mcp.Progress)
	if token := req.Params.GetProgressToken(); token != nil {
		progress = func(p mcp.Progress) {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token,
				Progress: p.Progress, Total: p.Total, Message: p.Message})
		}
	}
	return c.call(ctx, a, progress)
}

// admitted is a call the person's consent allowed: where it goes, its
// arguments as the client sent them, and its record for History.
type admitted struct {
	r   route
	raw json.RawMessage
	run mcp.ToolRun
}

// errWouldWait is admit's answer to a call made at once that would wait:
// for the person's answer, or for its server to reconnect.
var errWouldWait = errors.New("the call would wait")

// admit puts a client's call of the tool offered as name to the person's
// consent: the one road, chat.Consent, with this app's own modes. A call
// not allowed comes back as the result the client reads (recorded in
// History), or an error for a tool it was never offered or a client that
// left before the person answered. With atOnce (the goroutine that reads
// the client's messages, which must not stop), a call that would wait for
// the person or for its server is errWouldWait, nothing recorded or
// counted: admit it again where it can wait.
func (c *conn) admit(ctx context.Context, name string, arguments json.RawMessage, atOnce bool) (admitted, *sdk.CallToolResult, error) {
	c.mu.Lock()
	r, ok := c.tools[name]
	client, app := c.client, c.app
	c.mu.Unlock()
	if !ok {
		return admitted{}, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: i18n.M("gateway.error.noTool", "tool", name).String()}
	}
	o := c.g.opts
	// app is the session's copy of the app's record, read again at once
	// when the person changes it (Gateway.AppChanged): no read of the data
	// file on a call's way.
	if app.CutOff || !app.Sees(r.serverID) {
		return admitted{}, failed(i18n.M("gateway.error.cutOff", "client", app.Name)), nil
	}
	counted := false
	count := func() {
		if !counted {
			counted = true
			c.g.counted(app.ID)
		}
	}
	run := mcp.ToolRun{ServerID: r.serverID, ServerName: r.serverName, Tool: r.name, Source: store.SourceClient,
		Started: time.Now(), Client: client.Claimed(), Launcher: client.Launcher}
	notRun := func(outcome string, why i18n.Message, say i18n.Message) (admitted, *sdk.CallToolResult, error) {
		count()
		run.Outcome, run.Detail = outcome, why
		o.Broker.RecordToolRun(run)
		return admitted{}, failed(say), nil
	}
	// A server waiting to reconnect after a crash reconnects now, for this
	// call, within the call's time limit (issue 26).
	var awaitErr error
	if !atOnce {
		waitCtx, stop := withinLimit(ctx, c.callLimit())
		awaitErr = o.Manager.Await(waitCtx, r.serverID)
		stop()
	}
	peer, err := o.Manager.Peer(r.serverID)
	if err == nil {
		err = awaitErr
	}
	if err != nil && atOnce {
		return admitted{}, nil, errWouldWait // not connected now: it may reconnect for the call
	}
	if err != nil {
		m := i18n.M("gateway.error.notConnected", "server", r.serverName)
		return notRun(store.OutcomeError, m, m)
	}
	tool, err := o.Manager.Tool(r.serverID, r.name)
	if err != nil {
		m := i18n.M("gateway.error.toolGone", "server", r.serverName, "tool", r.name)
		return notRun(store.OutcomeError, m, m)
	}
	raw := bytes.TrimSpace(arguments)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = json.RawMessage("{}")
	}
	run.RawArguments = raw
	if !atOnce || raw[0] != '{' {
		// At once, the client's message is valid JSON (parseCall): an object
		// is read into Go values only for History, when it keeps them.
		args, err := mcp.DecodeArguments(raw)
		if err != nil {
			m := i18n.M("gateway.error.arguments")
			return notRun(store.OutcomeError, m, m)
		}
		run.Arguments = args
	}
	consented, err := chat.Consent{Broker: o.Broker, Settings: clientSettings{base: c.g.settings(), app: app, allowAlways: c.allowAlways}}.Approve(ctx, chat.ConsentRequest{
		Peer: peer, Tool: tool, Call: mcp.ToolCall{Arguments: raw, Client: client},
		AllowedHere: func(k store.ToolKey) (*store.ToolSeen, bool) {
			c.mu.Lock()
			defer c.mu.Unlock()
			s, ok := c.allowed[k]
			return s, ok
		},
		Here: i18n.M("gateway.why.session"), Fingerprints: &c.g.fingerprints, AtOnce: atOnce})
	if errors.Is(err, chat.ErrWouldAsk) {
		return admitted{}, nil, errWouldWait
	}
	count()
	if err != nil {
		// The client cancelled the call, or left, before the person answered.
		run.Outcome, run.Detail = store.OutcomeCancelled, i18n.M("mcp.history.stopped")
		o.Broker.RecordToolRun(run)
		return admitted{}, nil, err
	}
	if !consented.Allowed && consented.NoAnswer > 0 {
		// The question could not reach the person in time: nothing was
		// sent to the server, and the app reads why.
		d := i18n.Duration(consented.NoAnswer)
		return notRun(store.OutcomeTimedOut, i18n.M("mcp.history.noAnswer", "duration", d),
			i18n.M("gateway.error.noAnswer", "tool", r.name, "duration", d))
	}
	if !consented.Allowed {
		return notRun(store.OutcomeDenied, consented.Reason, i18n.M("gateway.error.denied", "tool", r.name, "why", consented.Reason))
	}
	if consented.Scope == mcp.ScopeConversation {
		seen := consented.Seen
		c.mu.Lock()
		c.allowed[store.ToolKey{ServerID: r.serverID, Tool: tool.Name}] = &seen
		c.mu.Unlock()
	}
	return admitted{r: r, raw: raw, run: run}, nil, nil
}

// callLimit is the time limit of one call (Settings); 0: none.
func (c *conn) callLimit() time.Duration {
	if f := c.g.opts.CallTimeout; f != nil {
		return f()
	}
	return 0
}

// withinLimit is ctx ended after limit, when there is one (above 0), and
// the function that lets its timer go: to call once its wait is over.
func withinLimit(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if limit > 0 {
		return context.WithTimeout(ctx, limit)
	}
	return ctx, func() {}
}

// callEnd is how an allowed call ended.
type callEnd struct {
	res  *sdk.CallToolResult // the result the go-sdk decoded, or why the call did not end well
	body json.RawMessage     // else the result as its server wrote it (the forwarded way)
	err  error               // the client cancelled the call, or left (ctx's error)
	run  mcp.ToolRun         // its record for History
}

// call makes an allowed call on its server: under the call time limit,
// which pauses while the person answers the server's questions; with the
// server's progress passed on (progress, when the client asked for it);
// ended when the client cancels or leaves (ctx). A call that ended badly
// is a result saying why; one the client cancelled is ctx's error.
func (c *conn) call(ctx context.Context, a admitted, progress func(mcp.Progress)) (*sdk.CallToolResult, error) {
	callCtx, cancel, limit := c.callContext(ctx, a.r.serverID)
	defer cancel()
	if progress != nil {
		callCtx = mcp.WithProgress(callCtx, progress)
	}
	e := c.sdkCall(ctx, callCtx, limit, a)
	e.record(c.g.opts.Broker)
	return e.res, e.err
}

// sdkCall makes the call the go-sdk's way (Manager.CallTool).
func (c *conn) sdkCall(ctx, callCtx context.Context, limit time.Duration, a admitted) callEnd {
	run := a.run
	if run.Arguments == nil {
		run.Arguments, _ = mcp.DecodeArguments(a.raw) // an object (admit)
	}
	run.Started = time.Now()
	res, err := c.g.opts.Manager.CallTool(callCtx, a.r.serverID, a.r.name, run.Arguments)
	return c.end(ctx, callCtx, limit, run, res, nil, err)
}

// forward makes an allowed call as call does, the forwarded way: the
// client's arguments as it sent them, the result as the server wrote it
// (Manager.StartToolCall), unless it cannot go so; then the go-sdk's way.
// ended gets how it ended, once, usually on the goroutine that reads the
// server's output: it must not wait (and records History after the
// client's answer is on its way).
func (c *conn) forward(ctx context.Context, a admitted, ended func(callEnd)) {
	callCtx, cancel, limit := c.callContext(ctx, a.r.serverID)
	run := a.run
	run.Started = time.Now()
	err := c.g.opts.Manager.StartToolCall(callCtx, a.r.serverID, a.r.name, a.raw, func(body json.RawMessage, err error) {
		if errors.Is(err, mcp.ErrNotForwarded) {
			go func() { // the server wants pages visited or input first: CallTool asks the person
				defer cancel()
				ended(c.sdkCall(ctx, callCtx, limit, a))
			}()
			return
		}
		c.g.forwarded.Add(1)
		run.Duration = time.Since(run.Started)
		ended(c.end(ctx, callCtx, limit, run, nil, body, err))
		cancel()
	})
	switch {
	case errors.Is(err, mcp.ErrNotForwarded):
		go func() { // the caller may be the goroutine reading the client, which must not wait
			defer cancel()
			ended(c.sdkCall(ctx, callCtx, limit, a))
		}()
	case err != nil:
		defer cancel()
		ended(c.end(ctx, callCtx, limit, run, nil, nil, err))
	}
}

// callContext is an allowed call's context on serverID: under the call
// time limit (Settings), which pauses while the person answers the
// server's questions (Broker.CallTimeout).
func (c *conn) callContext(ctx context.Context, serverID string) (context.Context, context.CancelFunc, time.Duration) {
	limit := c.callLimit()
	callCtx, cancel := c.g.opts.Broker.CallTimeout(ctx, serverID, limit)
	return callCtx, cancel, limit
}

// end is how a call made under callCtx ended: the result the client gets
// and History's record of it.
func (c *conn) end(ctx, callCtx context.Context, limit time.Duration, run mcp.ToolRun, res *sdk.CallToolResult, body json.RawMessage, err error) callEnd {
	if run.Duration == 0 {
		run.Duration = time.Since(run.Started)
	}
	name := run.Tool
	switch {
	case err != nil && ctx.Err() == nil && errors.Is(context.Cause(callCtx), context.DeadlineExceeded):
		m := i18n.M("gateway.error.timeout", "tool", name, "duration", i18n.Duration(limit))
		run.Outcome, run.Detail = store.OutcomeTimedOut, m
		return callEnd{res: failed(m), run: run}
	case err != nil && ctx.Err() != nil:
		run.Outcome, run.Detail = store.OutcomeCancelled, i18n.M("gateway.history.clientCancelled")
		return callEnd{err: ctx.Err(), run: run}
	case err != nil:
		why := mcp.Describe(err)
		run.Outcome, run.Detail = store.OutcomeError, why
		return callEnd{res: failed(i18n.M("gateway.error.failed", "tool", name, "detail", why)), run: run}
	}
	run.Outcome = store.OutcomeOK
	if res != nil {
		run.Result = mcp.ResultText(res)
		if res.IsError {
			run.Outcome = store.OutcomeError
		}
		return callEnd{res: res, run: run}
	}
	run.RawResult = body
	return callEnd{body: body, run: run}
}

// record adds the call to History; a result as its server wrote it is
// read for whether it says it failed only here, after the client's answer
// is on its way.
func (e callEnd) record(b *mcp.Broker) {
	if e.body != nil {
		var flag struct {
			IsError bool `json:"isError"`
		}
		if json.Unmarshal(e.body, &flag) == nil && flag.IsError {
			e.run.Outcome = store.OutcomeError
		}
	}
	b.RecordToolRun(e.run)
}

// getPrompt is a client's prompts/get, on the prompt's server.
func (c *conn) getPrompt(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	c.mu.Lock()
	r, ok := c.prompts[req.Params.Name]
	c.mu.Unlock()
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: i18n.M("gateway.error.noPrompt", "prompt", req.Params.Name).String()}
	}
	res, err := c.g.opts.Manager.GetPrompt(ctx, r.serverID, r.name, req.Params.Arguments)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: i18n.ErrorMessage(err).String()}
	}
	return res, nil
}

// readResource is a client's resources/read, on the server that lists the
// resource, or the one whose template matches its URI (only one may).
func (c *conn) readResource(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	r, err := c.resourceServer(uri)
	if err != nil {
		return nil, err
	}
	res, err := c.g.opts.Manager.ReadResource(ctx, r.serverID, uri)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: i18n.ErrorMessage(err).String()}
	}
	return res.Raw, nil
}

// resourceServer is the server a URI is read from.
func (c *conn) resourceServer(uri string) (route, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.resources[uri]; ok {
		return r, nil
	}
	var found []route
	for tmpl, r := range c.templates {
		t, err := uritemplate.New(tmpl)
		if err != nil || t.Match(uri) == nil {
			continue
		}
		if len(found) == 0 || found[0].serverID != r.serverID {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return route{}, sdk.ResourceNotFoundError(uri)
	}
	return route{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: i18n.M("gateway.error.ambiguous", "uri", uri).String()}
}

// complete is a client's completion/complete, on the server of the prompt
// or template.
func (c *conn) complete(ctx context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
	p := req.Params
	var r route
	var ref mcp.CompletionRef
	c.mu.Lock()
	var ok bool
	switch p.Ref.Type {
	case "ref/prompt":
		r, ok = c.prompts[p.Ref.Name]
		ref.Prompt = r.name
	case "ref/resource":
		r, ok = c.templates[p.Ref.URI]
		ref.Template = r.name
	}
	c.mu.Unlock()
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: i18n.M("gateway.error.noCompletion").String()}
	}
	var filled map[string]string
	if p.Context != nil {
		filled = p.Context.Arguments
	}
	res, err := c.g.opts.Manager.Complete(ctx, r.serverID, ref, p.Argument.Name, p.Argument.Value, filled)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: i18n.ErrorMessage(err).String()}
	}
	return &sdk.CompleteResult{Completion: *res}, nil
}

// settings are the person's Tool permissions the gateway starts from.
func (g *Gateway) settings() chat.ToolSettings {
	if g.opts.Settings != nil {
		return g.opts.Settings
	}
	return storeSettings{g.opts.Store}
}

// clientSettings are the person's Tool permissions with an app's own
// modes over them; an "Always allow" is the app's own (allowAlways).
type clientSettings struct {
	base        chat.ToolSettings
	app         store.ClientApp
	allowAlways func(appID, serverID, tool string, seen store.ToolSeen) error
}

// ToolPolicy is the server's policy as it applies to the app.
func (s clientSettings) ToolPolicy(serverID string) (store.ToolPolicy, error) {
	p, err := s.base.ToolPolicy(serverID)
	return s.app.Policy(serverID, p), err
}

// AllowAlways records "Always allow this tool" as the app's own mode of
// the tool, bound to what the person saw: the chat and the other apps
// still ask.
func (s clientSettings) AllowAlways(serverID, tool string, seen store.ToolSeen) error {
	return s.allowAlways(s.app.ID, serverID, tool, seen)
}

// allowAlways saves the person's "Always allow" of a tool for the app
// (store.AllowClientToolAlways), makes its sessions read its record again
// and tells the window (Options.AppSaved).
func (c *conn) allowAlways(appID, serverID, tool string, seen store.ToolSeen) error {
	if _, err := c.g.opts.Store.AllowClientToolAlways(appID, serverID, tool, seen); err != nil {
		return fmt.Errorf("saving the app's own allow of %s: %w", tool, err)
	}
	c.g.AppChanged(appID)
	if f := c.g.opts.AppSaved; f != nil {
		f(appID, serverID)
	}
	return nil
}

// storeSettings are the Tool permissions in the store, for a gateway
// given none.
type storeSettings struct{ st *store.Store }

// ToolPolicy reads the server's tool policy.
func (s storeSettings) ToolPolicy(serverID string) (store.ToolPolicy, error) {
	return s.st.ToolPolicy(serverID)
}

// AllowAlways saves "Always allow this tool".
func (s storeSettings) AllowAlways(serverID, tool string, seen store.ToolSeen) error {
	return s.st.AllowToolAlways(serverID, tool, seen)
}
