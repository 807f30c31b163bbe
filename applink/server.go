package applink

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// Options configures NewServer.
type Options struct {
	// Broker puts the questions of a caller's commands to it (Caller.Route,
	// Caller.RouteServer) and keeps the web pages it opens. Required.
	Broker *mcp.Broker
	// Version is the app's version, told to clients.
	Version string
	// Tools are the commands served, besides the package's own: ToolStop,
	// ToolFinishPage and ToolStopWaitingPage.
	Tools []Tool
}

// A Server serves a table of tools to MCP clients: one session per
// Connect, on any transport, until Close. ServeUnix also accepts this
// user's processes on a unix socket.
type Server struct {
	opts Options
	mcp  *sdk.Server
	// served are the names of the tools served (addTool), which a stop
	// (ToolStop) may name.
	served map[string]bool
	// peerUID reads a socket connection's user; tests give a fake one.
	peerUID func(*net.UnixConn) (int, error)

	mu       sync.Mutex
	listener *net.UnixListener // nil until ServeUnix
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
	// running are its calls in progress, each with the tool it calls;
	// stopped are the tools it stopped (ToolStop): a call of one of them
	// that arrives after the stop, as calls are handled concurrently, is
	// stopped at once.
	running map[*context.CancelFunc]string
	stopped map[string]bool
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

// NewServer returns a server of opts.Tools, connected to nothing yet.
func NewServer(opts Options) *Server {
	s := &Server{opts: opts, peerUID: peerUID, sessions: map[*sdk.ServerSession]*session{}, served: map[string]bool{}}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "gatehouse", Title: "Gatehouse", Version: opts.Version}, nil)
	addTool(s, ToolStop, "Stops this client's running calls of a tool; each still answers.", s.stop)
	addTool(s, ToolFinishPage, "Says that a web page this client opened is finished.", s.finishPage)
	addTool(s, ToolStopWaitingPage, "Stops waiting for a web page this client opened.", s.stopWaitingPage)
	for _, t := range opts.Tools {
		t.add(s)
	}
	return s
}

// Connect serves one client's session on t (a socket connection, one end
// of sdk.NewInMemoryTransports, stdio) in the background, until either
// side ends it or Close.
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	ss, err := s.mcp.Connect(ctx, forwardSchemas{t}, nil)
	if err != nil {
		return nil, fmt.Errorf("serving a session of Gatehouse's commands: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		ss.Close()
		return nil, net.ErrClosed
	}
	se := s.sessionLocked(ss)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = ss.Wait()
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
		se.cancel()
	}()
	return ss, nil
}

// ServeUnix listens on path (see Listen) and serves this user's processes
// that connect there, in the background, until Close.
func (s *Server) ServeUnix(path string) error {
	l, err := Listen(path)
	if err != nil {
		return err
	}
	s.serveListener(l)
	return nil
}

func (s *Server) serveListener(l *net.UnixListener) {
	s.mu.Lock()
	s.listener = l
	s.mu.Unlock()
	s.wg.Add(1)
	go s.accept(l)
}

// Close stops listening, ends every session and removes the socket. The
// calls still running end as when their client stops them (ToolStop), and
// the waits for the web pages they opened end: the go-sdk's session waits
// for its running calls before it closes, and the app's exit must not wait
// for a call that waits on a server or on a question nobody answers.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	l := s.listener
	sessions := make([]*sdk.ServerSession, 0, len(s.sessions))
	for ss, se := range s.sessions {
		sessions = append(sessions, ss)
		se.cancel()
		for cancel := range se.running {
			(*cancel)()
		}
	}
	s.mu.Unlock()
	var err error
	if l != nil {
		err = l.Close()
	}
	for _, ss := range sessions {
		_ = ss.Close()
	}
	s.wg.Wait()
	return err
}

func (s *Server) accept(l *net.UnixListener) {
	defer s.wg.Done()
	peerOf := func(c *net.UnixConn) (Peer, error) {
		uid, err := s.peerUID(c)
		return Peer{UID: uid}, err
	}
	AcceptPeers(l, "command-line", peerOf, func(conn *net.UnixConn, _ Peer) {
		if _, err := s.Connect(context.Background(), &sdk.IOTransport{Reader: conn, Writer: conn}); err != nil {
			conn.Close()
		}
	})
}

// sessionLocked returns what is kept of ss, made on first use: a call may
// come in before Connect has kept it. s.mu is held.
func (s *Server) sessionLocked(ss *sdk.ServerSession) *session {
	se := s.sessions[ss]
	if se == nil {
		ctx, cancel := context.WithCancel(context.Background())
		se = &session{ctx: ctx, cancel: cancel, pages: map[string]*pageState{},
			running: map[*context.CancelFunc]string{}, stopped: map[string]bool{}}
		s.sessions[ss] = se
	}
	return se
}

// started registers a call of tool by the client of ss: the returned ctx
// ends when the client stops it (ToolStop) or the server closes; done must
// be called when the call is over.
func (s *Server) started(ctx context.Context, ss *sdk.ServerSession, tool string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.sessionLocked(ss)
	if se.stopped[tool] || s.closed {
		cancel()
	}
	se.running[&cancel] = tool
	return ctx, func() {
		s.mu.Lock()
		delete(se.running, &cancel)
		s.mu.Unlock()
		cancel()
	}
}

// stop stops the client's calls of a tool, those running and those on
// their way: each ends as it would on its own context ending (a tool call
// is cancelled on its server, a chat turn stops, a sign-in stops waiting)
// and still answers its client, which then ends as it does without the
// app (Run).
func (s *Server) stop(_ context.Context, req *sdk.CallToolRequest, in Stop) (struct{}, error) {
	if !s.served[in.Tool] {
		return struct{}{}, i18n.Err("applink.stop.unknownTool", "tool", in.Tool)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.sessionLocked(req.Session)
	se.stopped[in.Tool] = true
	for cancel, tool := range se.running {
		if tool == in.Tool {
			(*cancel)()
		}
	}
	return struct{}{}, nil
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
// recorded in notices when the caller waits for them (Caller.RouteServer),
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
			// Its arguments exactly as the model wrote them: json.Marshal
			// would escape <, >, & and U+2028 in them, which the terminal
			// would then show as such instead of marking them.
			var call bytes.Buffer
			enc := json.NewEncoder(&call)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(q.ToolCall); err != nil {
				return mcp.Response{}, err
			}
			p.Mode = mcp.KindForm
			p.RequestedSchema = json.RawMessage(`{"type":"object"}`)
			p.Meta[mcp.RawSchemaMeta] = approvalSchema
			p.Meta[KindMeta], p.Meta[ToolCallMeta] = mcp.KindToolCall, call.String()
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
// structured content is a Failure. Its context also ends when the client
// stops the call (ToolStop).
func addTool[In, Out any](s *Server, name, description string, run func(context.Context, *sdk.CallToolRequest, In) (Out, error)) {
	s.served[name] = true
	s.mcp.AddTool(&sdk.Tool{Name: name, Description: description, InputSchema: schemaFor[In](), OutputSchema: schemaFor[Out]()},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in In
			if len(req.Params.Arguments) > 0 {
				if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
					return failure(fmt.Errorf("reading the arguments of %s: %w", name, err)), nil
				}
			}
			ctx, done := s.started(ctx, req.Session, name)
			defer done()
			out, err := run(ctx, req, in)
			if err != nil {
				return failure(err), nil
			}
			b, err := json.Marshal(out)
			if err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{}, StructuredContent: json.RawMessage(b)}, nil
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
		panic(fmt.Sprintf("applink: the schema of %v: %v", reflect.TypeFor[T](), err)) // a programming error, found by any test
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
	if n := (*Noticed)(nil); errors.As(err, &n) {
		f.Notices = n.Notices
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
