package hostapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// ConnectTimeout bounds how long a command waits for its server to connect,
// as the CLI waits when it runs the server itself.
const ConnectTimeout = 30 * time.Second

// Host is what the running app does for the command line the way the
// window does it, so that the window shows the change at once and every
// call keeps its checks, time limit and history.
type Host interface {
	AddServer(in NewServer) (Added, error)
	RemoveServer(id string) error
	SetEnabled(id string, enabled bool) error
	// CallTool makes a tool call as the Tools pane does, until ctx ends,
	// and returns the result view as JSON.
	CallTool(ctx context.Context, serverID, tool, argsJSON string) (json.RawMessage, error)
}

// Options configures Serve. Every field is required.
type Options struct {
	Store   *store.Store
	Manager *mcp.Manager
	// Broker routes the questions of a CLI call to its terminal.
	Broker *mcp.Broker
	Host   Host
	// Version is the app's version, told to the CLI.
	Version string
	// Tools are the app's other commands (may be empty).
	Tools []Tool
}

// A Server serves the command line on the socket: one MCP session per
// connection of this user's processes, until Close.
type Server struct {
	opts     Options
	mcp      *sdk.Server
	listener *net.UnixListener
	// peerUID reads a connection's user; tests give a fake one.
	peerUID func(*net.UnixConn) (int, error)

	mu       sync.Mutex
	sessions map[*sdk.ServerSession]*session
	closed   bool
	wg       sync.WaitGroup
}

// session is what the server keeps of one client's connection.
type session struct {
	// ctx ends with the connection: the watch of its web pages stops.
	ctx    context.Context
	cancel context.CancelFunc
	// pages are the web pages it was asked to open, by ID: those its
	// person opened it may say are finished or stop waiting for. The client
	// hears nothing when the broker records a page as opened, and may end
	// it a moment before: the page is known from the moment it is asked.
	pages map[string]*pageState
}

// pageState is a web page asked of a client: settled is closed once the
// client's answer is in, opened then saying whether the broker waits for
// the page.
type pageState struct {
	settled chan struct{}
	opened  bool
}

// pageOpenWait bounds how long finish_web_page and stop_waiting_web_page
// wait for the broker to record a page the client just opened: it does
// right after the client's answer arrives.
const pageOpenWait = 5 * time.Second

// settle records the outcome of the page id, once. s.mu is held.
func (se *session) settle(id string, opened bool) {
	if st := se.pages[id]; st != nil {
		select {
		case <-st.settled:
		default:
			st.opened = opened
			close(st.settled)
		}
	}
}

// Serve listens on path (see Listen) and serves the command line in the
// background.
func Serve(path string, opts Options) (*Server, error) {
	l, err := Listen(path)
	if err != nil {
		return nil, err
	}
	s := newServer(opts, l)
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

func newServer(opts Options, l *net.UnixListener) *Server {
	s := &Server{opts: opts, listener: l, peerUID: peerUID, sessions: map[*sdk.ServerSession]*session{}}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "gatehouse", Title: "Gatehouse", Version: opts.Version}, nil)
	addTool(s.mcp, ToolListServers, "Lists the configured servers.", s.listServers)
	addTool(s.mcp, ToolAddServer, "Adds a server.", s.addServer)
	addTool(s.mcp, ToolRemoveServer, "Removes a server.", s.removeServer)
	addTool(s.mcp, ToolEnableServer, "Turns a server on.", s.enableServer)
	addTool(s.mcp, ToolDisableServer, "Turns a server off.", s.disableServer)
	addTool(s.mcp, ToolListTools, "Lists a connected server's tools.", s.listTools)
	addTool(s.mcp, ToolCallTool, "Calls a server's tool; its questions are asked of this client.", s.callTool)
	addTool(s.mcp, ToolFinishPage, "Says that a web page this client opened is finished.", s.finishPage)
	addTool(s.mcp, ToolStopWaitingPage, "Stops waiting for a web page this client opened.", s.stopWaitingPage)
	for _, t := range opts.Tools {
		t.add(s)
	}
	return s
}

// Close stops listening, ends every session and removes the socket.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	sessions := make([]*sdk.ServerSession, 0, len(s.sessions))
	for ss := range s.sessions {
		sessions = append(sessions, ss)
	}
	s.mu.Unlock()
	err := s.listener.Close()
	for _, ss := range sessions {
		_ = ss.Close()
	}
	s.wg.Wait()
	return err
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		conn, err := s.listener.AcceptUnix()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				log.Printf("gatehouse: the command-line socket stopped: %v", err)
			}
			return
		}
		uid, err := s.peerUID(conn)
		if err == nil {
			err = samePerson(uid, os.Getuid())
		}
		if err != nil {
			log.Printf("gatehouse: refused a command-line connection: %v", err)
			conn.Close()
			continue
		}
		s.wg.Add(1)
		go s.serve(conn)
	}
}

// serve runs one MCP session on conn until either side ends it.
func (s *Server) serve(conn *net.UnixConn) {
	defer s.wg.Done()
	ss, err := s.mcp.Connect(context.Background(), forwardSchemas{&sdk.IOTransport{Reader: conn, Writer: conn}}, nil)
	if err != nil {
		conn.Close()
		return
	}
	se, ok := s.session(ss)
	if !ok {
		ss.Close()
		return
	}
	_ = ss.Wait()
	s.mu.Lock()
	delete(s.sessions, ss)
	s.mu.Unlock()
	se.cancel()
}

// session returns what is kept of ss, made on first use; false once the
// server is closing.
func (s *Server) session(ss *sdk.ServerSession) (*session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	se := s.sessions[ss]
	if se == nil {
		ctx, cancel := context.WithCancel(context.Background())
		se = &session{ctx: ctx, cancel: cancel, pages: map[string]*pageState{}}
		s.sessions[ss] = se
	}
	return se, true
}

func (s *Server) listServers(context.Context, *sdk.CallToolRequest, struct{}) (ServerList, error) {
	servers, err := s.opts.Store.Servers()
	if err != nil {
		return ServerList{}, err
	}
	return ServerList{Servers: Rows(servers)}, nil
}

func (s *Server) addServer(_ context.Context, _ *sdk.CallToolRequest, in NewServer) (Added, error) {
	return s.opts.Host.AddServer(in)
}

func (s *Server) removeServer(_ context.Context, _ *sdk.CallToolRequest, in ServerName) (Changed, error) {
	srv, err := s.find(in.Name)
	if err != nil {
		return Changed{}, err
	}
	return Changed{Name: srv.Name}, s.opts.Host.RemoveServer(srv.ID)
}

func (s *Server) enableServer(_ context.Context, _ *sdk.CallToolRequest, in ServerName) (Changed, error) {
	return s.setEnabled(in.Name, true)
}

func (s *Server) disableServer(_ context.Context, _ *sdk.CallToolRequest, in ServerName) (Changed, error) {
	return s.setEnabled(in.Name, false)
}

func (s *Server) setEnabled(name string, enabled bool) (Changed, error) {
	srv, err := s.find(name)
	if err != nil {
		return Changed{}, err
	}
	return Changed{Name: srv.Name}, s.opts.Host.SetEnabled(srv.ID, enabled)
}

func (s *Server) listTools(ctx context.Context, _ *sdk.CallToolRequest, in ServerName) (ToolList, error) {
	srv, err := s.connected(ctx, in.Name)
	if err != nil {
		return ToolList{}, err
	}
	tools, err := s.opts.Manager.Tools(srv.ID)
	if err != nil {
		return ToolList{}, err
	}
	list := ToolList{Tools: make([]ToolInfo, 0, len(tools))}
	for _, t := range tools {
		list.Tools = append(list.Tools, ToolInfo{Name: t.Name, Description: t.Description})
	}
	return list, nil
}

// callTool makes the call on the app's open session. While it runs, the
// form and URL requests its server asks are put to this client (the
// terminal that made the call) through the broker, which keeps owning
// them; the window goes on showing everyone else's.
func (s *Server) callTool(ctx context.Context, req *sdk.CallToolRequest, in Call) (CallResult, error) {
	srv, err := s.connected(ctx, in.Server)
	if err != nil {
		return CallResult{}, err
	}
	notices := &pageNotices{sent: map[string]chan struct{}{}}
	release := s.opts.Broker.Route(srv.ID, s.elicitOn(req.Session), s.pageOpened(req.Session, notices))
	defer release()
	if token := req.Params.GetProgressToken(); token != nil {
		// The server's progress goes on to the client, under its token.
		ctx = mcp.WithProgress(ctx, func(p mcp.Progress) {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token,
				Progress: p.Progress, Total: p.Total, Message: p.Message})
		})
	}
	res, err := s.opts.Host.CallTool(ctx, srv.ID, in.Tool, in.Arguments)
	if err != nil {
		return CallResult{}, err
	}
	// The pages of this call that have ended are told before the result,
	// and named in it: else the client would wait for such a page (and say
	// so) a second time.
	return CallResult{Result: res, EndedPages: notices.waitEnded(s.opts.Broker.Opened())}, nil
}

// pageNotices are the notices of the web pages one call opened, each closed
// once its notice is sent (or cannot be).
type pageNotices struct {
	mu   sync.Mutex
	sent map[string]chan struct{} // by question ID
}

// add records the page id; nil notices record nothing.
func (n *pageNotices) add(id string) chan struct{} {
	ch := make(chan struct{})
	if n == nil {
		return ch
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sent[id] = ch
	return ch
}

// pageNoticeWait bounds the wait for the notice of a page that has ended:
// it is on its way.
const pageNoticeWait = 2 * time.Second

// waitEnded waits until the notices of the pages no longer opened are
// sent, and returns their IDs (sorted).
func (n *pageNotices) waitEnded(opened []mcp.OpenedPage) []string {
	n.mu.Lock()
	var ended []string
	sent := map[string]chan struct{}{}
	for id, ch := range n.sent {
		if !slices.ContainsFunc(opened, func(o mcp.OpenedPage) bool { return o.ID == id }) {
			ended, sent[id] = append(ended, id), ch
		}
	}
	n.mu.Unlock()
	slices.Sort(ended)
	limit := time.After(pageNoticeWait)
	for i, id := range ended {
		select {
		case <-sent[id]:
		case <-limit:
			return ended[:i] // the rest the client waits for as open pages
		}
	}
	return ended
}

// pageOpened tells the client of ss how a web page its person opened ends,
// recorded in notices when the caller waits for them (callTool),
// as its server told the app: notifications/elicitation/complete with the
// elicitationId the page was asked with, once the broker stops waiting for
// it — whoever ended it (its server, the person here or in the window, the
// time limit, a disconnection). When the server did not confirm it,
// _meta[PageEndedMeta] says why (a Failure). The broker keeps the page
// meanwhile; the client may end it with finish_web_page and
// stop_waiting_web_page.
func (s *Server) pageOpened(ss *sdk.ServerSession, notices *pageNotices) func(*mcp.Question) {
	return func(q *mcp.Question) {
		s.mu.Lock()
		se := s.sessions[ss]
		if se == nil || s.closed {
			s.mu.Unlock()
			return
		}
		se.settle(q.ID, true)
		s.wg.Add(1)
		s.mu.Unlock()
		sent := notices.add(q.ID)
		go func() {
			defer s.wg.Done()
			defer close(sent)
			err := s.opts.Broker.WaitCompleted(se.ctx, q.Peer, q.ElicitationID)
			if se.ctx.Err() != nil {
				return // the client is gone
			}
			s.mu.Lock()
			delete(se.pages, q.ID)
			s.mu.Unlock()
			p := &sdk.ElicitationCompleteParams{ElicitationID: q.ID}
			if err != nil {
				p.Meta = sdk.Meta{PageEndedMeta: Failure{Error: i18n.ErrorMessage(err)}}
			}
			if err := ss.NotifyElicitationComplete(se.ctx, p); err != nil && se.ctx.Err() == nil {
				log.Printf("gatehouse: telling the command line a web page ended: %v", err)
			}
		}()
	}
}

func (s *Server) finishPage(ctx context.Context, req *sdk.CallToolRequest, in Page) (struct{}, error) {
	if err := s.ownPage(ctx, req.Session, in.ID); err != nil {
		return struct{}{}, err
	}
	return struct{}{}, s.opts.Broker.FinishOpened(in.ID)
}

func (s *Server) stopWaitingPage(ctx context.Context, req *sdk.CallToolRequest, in Page) (struct{}, error) {
	if err := s.ownPage(ctx, req.Session, in.ID); err != nil {
		return struct{}{}, err
	}
	return struct{}{}, s.opts.Broker.CancelOpened(in.ID)
}

// ownPage refuses a page the client of ss did not open: the window's, or
// another command's, are not its to end. A page it has just opened is
// waited for until the broker records it.
func (s *Server) ownPage(ctx context.Context, ss *sdk.ServerSession, id string) error {
	s.mu.Lock()
	var st *pageState
	if se := s.sessions[ss]; se != nil {
		st = se.pages[id]
	}
	s.mu.Unlock()
	if st == nil {
		return i18n.Err("mcp.url.pageNotWaiting")
	}
	select {
	case <-st.settled:
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(pageOpenWait):
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !st.opened {
		return i18n.Err("mcp.url.pageNotWaiting")
	}
	return nil
}

// find looks a server up by its name, as the CLI does.
func (s *Server) find(name string) (store.Server, error) {
	srv, err := s.opts.Store.ServerByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return srv, i18n.Err("cli.servers.noSuch", "name", strconv.Quote(name))
	}
	return srv, err
}

// connected finds the named server and waits until it is connected, with
// the sentences the CLI says when it connects a server itself.
func (s *Server) connected(ctx context.Context, name string) (store.Server, error) {
	srv, err := s.find(name)
	if err != nil {
		return srv, err
	}
	if !srv.Enabled {
		return srv, i18n.Err("cli.turnedOff", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
	}
	wctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	if err := s.opts.Manager.WaitConnected(wctx, srv.ID); err != nil {
		if errors.Is(err, mcp.ErrNeedsSignIn) {
			return srv, i18n.Err("cli.signinFirst", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
		}
		serverLog, _ := s.opts.Manager.Log(srv.ID)
		return srv, &ConnectError{Server: srv.Name, Err: err, Log: serverLog}
	}
	return srv, nil
}

// elicitOn presents a routed question to the client of ss as
// elicitation/create: a form or URL request as it is, a sign-in consent as
// a URL request and a model's tool call as a form (approvalSchema), each
// marked with _meta[KindMeta]. A form's schema travels exactly as its server wrote
// it (forwardSchemas); the SDK itself only sees an empty object schema, so
// that it neither validates the answer a second way nor fills in defaults
// the person cleared: the broker validates it.
func (s *Server) elicitOn(ss *sdk.ServerSession) mcp.Presenter {
	return func(ctx context.Context, q *mcp.Question) (resp mcp.Response, err error) {
		p := &sdk.ElicitParams{Mode: q.Kind, Message: q.Message,
			Meta: sdk.Meta{ServerMeta: q.Server, TimeoutMeta: q.Deadline.Sub(q.ReceivedAt).Milliseconds()}}
		switch q.Kind {
		case mcp.KindURL:
			p.URL, p.ElicitationID = q.Link.URL, q.ID
		case mcp.KindSignIn:
			// The consent to open the sign-in page: a web page to open,
			// whose end the app learns from the browser's return itself.
			p.Mode, p.URL, p.ElicitationID = mcp.KindURL, q.Link.URL, q.ID
			p.Meta[KindMeta] = mcp.KindSignIn
		case mcp.KindToolCall:
			call, err := json.Marshal(q.ToolCall)
			if err != nil {
				return mcp.Response{}, err
			}
			p.Mode = mcp.KindForm
			p.RequestedSchema = json.RawMessage(`{"type":"object"}`)
			p.Meta[mcp.RawSchemaMeta] = approvalSchema
			p.Meta[KindMeta], p.Meta[ToolCallMeta] = mcp.KindToolCall, string(call)
		default:
			p.RequestedSchema = json.RawMessage(`{"type":"object"}`)
			p.Meta[mcp.RawSchemaMeta] = string(q.RequestedSchema())
		}
		if q.Kind == mcp.KindURL {
			s.mu.Lock()
			se := s.sessions[ss]
			if se != nil {
				se.pages[q.ID] = &pageState{settled: make(chan struct{})}
			}
			s.mu.Unlock()
			defer func() { // not opened: not the client's to end (else pageOpened settles it)
				if err == nil && resp.Action == mcp.ActionAccept || se == nil {
					return
				}
				s.mu.Lock()
				defer s.mu.Unlock()
				se.settle(q.ID, false)
				delete(se.pages, q.ID)
			}()
		}
		res, err := ss.Elicit(ctx, p)
		if err != nil {
			return mcp.Response{}, err
		}
		if q.Kind == mcp.KindToolCall {
			return approval(res), nil
		}
		return mcp.Response{Action: res.Action, Values: res.Content}, nil
	}
}

// approvalSchema is the form a model's tool call is asked with: allowing it
// is accepting with its scope, denying it is declining.
const approvalSchema = `{"type":"object","properties":{"scope":{"type":"string","title":"Allow","enum":["once","conversation","always"]}},"required":["scope"]}`

// approval reads the client's answer to a tool call (approvalSchema); an
// accept without a known scope is a cancel.
func approval(res *sdk.ElicitResult) mcp.Response {
	if res.Action != mcp.ActionAccept {
		return mcp.Response{Action: res.Action}
	}
	switch scope, _ := res.Content["scope"].(string); scope {
	case mcp.ScopeOnce, mcp.ScopeConversation, mcp.ScopeAlways:
		return mcp.Response{Action: mcp.ActionAccept, Scope: scope}
	}
	return mcp.Response{Action: mcp.ActionCancel}
}

// addTool registers a tool whose input and output are Go types: their JSON
// schemas are the tool's, the output is the structured content (and its
// JSON the text), and an error is a result marked as an error whose
// structured content is a Failure.
func addTool[In, Out any](s *sdk.Server, name, description string, run func(context.Context, *sdk.CallToolRequest, In) (Out, error)) {
	s.AddTool(&sdk.Tool{Name: name, Description: description, InputSchema: schemaFor[In](), OutputSchema: schemaFor[Out]()},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in In
			if len(req.Params.Arguments) > 0 {
				if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
					return failure(fmt.Errorf("reading the arguments of %s: %w", name, err)), nil
				}
			}
			out, err := run(ctx, req, in)
			if err != nil {
				return failure(err), nil
			}
			b, err := json.Marshal(out)
			if err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
		})
}

// schemaFor is the JSON schema of T; a JSON value passed through
// (json.RawMessage) is an object.
func schemaFor[T any]() any {
	if reflect.TypeFor[T]() == reflect.TypeFor[json.RawMessage]() {
		return json.RawMessage(`{"type":"object"}`)
	}
	schema, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("hostapi: the schema of %v: %v", reflect.TypeFor[T](), err)) // a programming error, found by any test
	}
	return schema
}

// failure is the result of a command that failed.
func failure(err error) *sdk.CallToolResult {
	f := Failure{Error: i18n.ErrorMessage(err)}
	var ce *ConnectError
	if errors.As(err, &ce) {
		f = Failure{Error: i18n.ErrorMessage(ce.Err), Server: ce.Server, Log: ce.Log}
	}
	b, _ := json.Marshal(f)
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}, StructuredContent: json.RawMessage(b)}
}

// forwardSchemas wraps the server's side of a connection: an elicitation
// it writes carries, on the wire, the schema from _meta[mcp.RawSchemaMeta]
// as its requestedSchema, byte for byte (see elicitOn).
type forwardSchemas struct{ sdk.Transport }

func (t forwardSchemas) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return forwardConn{c}, nil
}

type forwardConn struct{ sdk.Connection }

func (c forwardConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.Method == "elicitation/create" {
		if params, ok := withCarriedSchema(r.Params); ok {
			cp := *r
			cp.Params = params
			msg = &cp
		}
	}
	return c.Connection.Write(ctx, msg)
}

// withCarriedSchema moves _meta[mcp.RawSchemaMeta] into requestedSchema.
func withCarriedSchema(params json.RawMessage) (json.RawMessage, bool) {
	var members map[string]json.RawMessage
	var meta map[string]json.RawMessage
	if json.Unmarshal(params, &members) != nil || json.Unmarshal(members["_meta"], &meta) != nil {
		return nil, false
	}
	var schema string
	if json.Unmarshal(meta[mcp.RawSchemaMeta], &schema) != nil || !json.Valid([]byte(schema)) {
		return nil, false
	}
	delete(meta, mcp.RawSchemaMeta)
	members["requestedSchema"] = json.RawMessage(schema)
	m, err := json.Marshal(meta)
	if err != nil {
		return nil, false
	}
	members["_meta"] = m
	out, err := json.Marshal(members)
	return out, err == nil
}
