package applink

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// ErrNoApp is Dial's answer when no app answers on the socket: none is
// running for this data folder (or one crashed and left its socket). The
// CLI then opens the data file itself, and its Server (InMemory).
var ErrNoApp = errors.New("no running Gatehouse answers on the command-line socket")

// ProtocolVersion is the revision the CLI speaks to the app. The app asks
// the CLI the questions of its calls with elicitation/create sent while the
// call runs, which 2026-07-28 replaced with input requests returned in the
// result (multi round-trip requests, SEP-2322): that would end the upstream
// server's call, which is still waiting for its answer.
const ProtocolVersion = "2025-11-25"

// Elicitation answers a question the app forwards for one of the client's
// calls; q was checked again on this side (mcp.RemoteQuestion).
type Elicitation func(ctx context.Context, q *mcp.Question) (mcp.Response, error)

// ClientOptions configures Dial and InMemory. The zero value is a client
// that answers no questions.
type ClientOptions struct {
	// Version is the client's version, told to the server.
	Version string
	// Answer answers the questions of the client's calls.
	Answer Elicitation
	// Pages, when set, learns how the web pages opened through Answer end,
	// and ends them on the person's word.
	Pages *Pages
	// Progress, when set, receives the progress of the client's calls (Run
	// asks for it), as their servers report it.
	Progress func(mcp.Progress)
	// Notices, when set, hears the same notifications/progress whole, with
	// their _meta, in the order they were sent: a command that tells how it
	// goes (Caller.Notify, a chat turn) carries its news there.
	Notices func(*sdk.ProgressNotificationParams)
}

// Dial connects to the app serving dataDir, or returns ErrNoApp.
func Dial(ctx context.Context, dataDir string, o ClientOptions) (*sdk.ClientSession, error) {
	path, err := SocketPath(dataDir)
	if err != nil {
		return nil, err
	}
	if len(path) >= maxSocketPath {
		return nil, ErrNoApp // no app can listen there either
	}
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "unix", path)
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
		return nil, ErrNoApp
	}
	if err != nil {
		return nil, fmt.Errorf("reaching the running Gatehouse: %w", err)
	}
	cs, err := connect(ctx, &sdk.IOTransport{Reader: conn, Writer: conn}, o)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return cs, nil
}

// InMemory connects a client to s in memory (the go-sdk's in-memory
// transport): the command line's road to a core it opened itself, the
// same as Dial's to the running app's.
func InMemory(ctx context.Context, s *Server, o ClientOptions) (*sdk.ClientSession, error) {
	serverSide, clientSide := sdk.NewInMemoryTransports()
	if _, err := s.Connect(context.WithoutCancel(ctx), serverSide); err != nil {
		return nil, err
	}
	return connect(ctx, clientSide, o)
}

// connect starts the client's session on t.
func connect(ctx context.Context, t sdk.Transport, o ClientOptions) (*sdk.ClientSession, error) {
	opts := &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}}
	if o.Answer != nil {
		opts.Capabilities.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}, URL: &sdk.URLElicitationCapabilities{}}
		opts.ElicitationHandler = func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return answerRequest(ctx, req.Params, o.Answer)
		}
	}
	if o.Pages != nil {
		opts.ElicitationCompleteHandler = func(_ context.Context, req *sdk.ElicitationCompleteNotificationRequest) {
			o.Pages.ended(req.Params)
		}
	}
	if o.Progress != nil || o.Notices != nil {
		opts.ProgressNotificationHandler = func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			p := req.Params
			if p == nil {
				return
			}
			if o.Progress != nil {
				o.Progress(mcp.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
			}
			if o.Notices != nil {
				o.Notices(p)
			}
		}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "gatehouse-cli", Version: o.Version}, opts)
	cs, err := client.Connect(ctx, mcp.CarrySchemas(t), &sdk.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err != nil {
		return nil, fmt.Errorf("talking to the running Gatehouse: %w", err)
	}
	if o.Pages != nil {
		o.Pages.attach(cs)
	}
	return cs, nil
}

// answerRequest rebuilds the question and has answer answer it: a server's
// form or URL request, or what the app marked as a sign-in consent or a
// model's tool call (KindMeta).
func answerRequest(ctx context.Context, p *sdk.ElicitParams, answer Elicitation) (*sdk.ElicitResult, error) {
	var who mcp.ServerRef
	if b, err := json.Marshal(p.Meta[ServerMeta]); err == nil {
		_ = json.Unmarshal(b, &who)
	}
	q, err := mcp.RemoteQuestion(who, p, time.Now())
	if err != nil {
		return nil, err
	}
	if ms, ok := p.Meta[TimeoutMeta].(float64); ok && ms > 0 {
		q.Deadline = q.ReceivedAt.Add(time.Duration(ms) * time.Millisecond)
	}
	kind, _ := p.Meta[KindMeta].(string)
	switch {
	case kind == mcp.KindSignIn && q.Kind == mcp.KindURL:
		q.Kind = mcp.KindSignIn
	case kind == mcp.KindToolCall && q.Kind == mcp.KindForm:
		text, _ := p.Meta[ToolCallMeta].(string)
		var call mcp.ToolCall
		if err := json.Unmarshal([]byte(text), &call); err != nil {
			return nil, fmt.Errorf("reading the tool call the running Gatehouse asks about: %w", err)
		}
		q.Kind, q.ToolCall, q.Form = mcp.KindToolCall, &call, nil
	case kind != "":
		return nil, fmt.Errorf("the running Gatehouse asked a %q question as a %s request", kind, q.Kind)
	case q.Kind == mcp.KindURL:
		// The app names a web page by the elicitationId it asked with: the
		// client's page has that name too (Pages).
		q.ID = q.ElicitationID
	}
	resp, err := answer(ctx, q)
	if err != nil {
		return nil, err
	}
	res := &sdk.ElicitResult{Action: resp.Action}
	switch {
	case resp.Action == mcp.ActionAccept && q.Kind == mcp.KindForm:
		res.Content = resp.Values
	case resp.Action == mcp.ActionAccept && q.Kind == mcp.KindToolCall:
		scope := resp.Scope
		if scope == "" {
			scope = mcp.ScopeOnce
		}
		res.Content = map[string]any{"scope": scope}
	}
	return res, nil
}

// Run calls one of the server's tools with in as its arguments and reads
// its structured result into out. A result marked as an error is returned
// as the error it describes. Ending ctx (Ctrl-C) stops the call on the
// server (ToolStop), and Run still waits for its answer: the command ends
// there as it would on its own context ending, and says so.
func Run(ctx context.Context, cs *sdk.ClientSession, tool string, in, out any) error {
	params := &sdk.CallToolParams{Name: tool, Arguments: in}
	params.SetProgressToken(tool) // one call of a tool at a time: its name is token enough
	callCtx := context.WithoutCancel(ctx)
	defer context.AfterFunc(ctx, func() {
		_, _ = cs.CallTool(callCtx, &sdk.CallToolParams{Name: ToolStop, Arguments: Stop{Tool: tool}})
	})()
	res, err := cs.CallTool(callCtx, params)
	if err != nil {
		return fmt.Errorf("the running Gatehouse did not answer: %w", err)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	if res.IsError {
		var f Failure
		if err := json.Unmarshal(b, &f); err != nil || (f.Error.Key == "" && len(f.Error.Args) == 0) {
			return fmt.Errorf("the running Gatehouse could not do it: %s", resultText(res))
		}
		cause := error(&i18n.Error{Message: f.Error})
		if f.Server != "" {
			cause = &ConnectError{Server: f.Server, Err: cause, Log: f.Log}
		}
		if len(f.Notices) > 0 {
			cause = &Noticed{Notices: f.Notices, Err: cause}
		}
		return cause
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("reading the running Gatehouse's answer: %w", err)
	}
	return nil
}

func resultText(res *sdk.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
