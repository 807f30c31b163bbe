package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/oauthflow"
	"github.com/gatehouse-app/gatehouse/store"
)

// State is the connection state of a server.
type State string

// Connection states.
const (
	StateConnecting State = "connecting"
	StateConnected  State = "connected"
	StateError      State = "error"
	StateDisabled   State = "disabled"
	// StateNeedsSignIn is a server that requires OAuth sign-in: it waits
	// for the person to sign in (Manager.SignIn) instead of retrying.
	StateNeedsSignIn State = "needs-sign-in"
)

// Status is a snapshot of one server's connection.
type Status struct {
	ServerID string
	State    State
	// Message explains an error state in a sentence a person understands.
	Message i18n.Message
	// Transport is how the session runs: "stdio", "streamable HTTP" or "legacy SSE".
	Transport       string
	ProtocolVersion string
	ServerName      string // what the server calls itself (not to be trusted)
	ServerVersion   string
	Capabilities    []string
	Tools           int
	Resources       int
	Prompts         int
	Since           time.Time // when this state began
	NextRetry       time.Time // set in the error state while a reconnect is planned
	// Recovers is set in the error state of a server whose connection was
	// up before it broke: the next call reconnects it at once and waits
	// (Await), so what it offered may still be offered meanwhile.
	Recovers bool
	Attempts int // connection attempts since the server was (re)configured
	// Stderr are the last lines a stdio server's process wrote to its
	// stderr during the attempt that failed (set in the error state; at
	// most a few, each bounded): often the cause ("Error: Cannot find
	// module …"). They are the server's text, never to be interpreted.
	Stderr []string
	err    error
}

// Err returns the error behind an error state, for errors.Is checks.
func (s Status) Err() error { return s.err }

// Peer identifies the server behind a request, for the person deciding on it.
type Peer struct {
	// Server is the server as the person configured it: its Name is what the
	// dialog shows first (E27).
	Server store.Server
	// Where says where it runs: the command line or the URL.
	Where string
	// SelfName and SelfVersion are what the server calls itself in
	// initialize. They are claims, shown second ("calls itself ...").
	SelfName, SelfVersion string

	// urlMode is true when URL-mode elicitation was offered to the server.
	urlMode bool
	// session is the connection a request came on: URL-mode state is bound
	// to it (E24, E30), and connDone ends with it.
	session  *sdk.ClientSession
	connDone <-chan struct{}
}

// offers reports whether the elicitation mode was declared to the server (E4).
func (p Peer) offers(mode string) bool {
	switch mode {
	case "form":
		return true
	case "url":
		return p.urlMode
	}
	return false
}

// Asker is how the core reaches a person for requests that need one
// (elicitation and consent). The GUI, the CLI and tests each provide one.
type Asker interface {
	// Elicit asks the person on behalf of peer and returns their answer.
	Elicit(ctx context.Context, peer Peer, req *sdk.ElicitRequest) (*sdk.ElicitResult, error)
	// Complete handles notifications/elicitation/complete from peer; it
	// reports whether the id named a URL request of that peer's connection.
	Complete(peer Peer, elicitationID string) bool
	// WaitCompleted waits until the URL request the person opened for peer
	// is done (E25); nil means the call may be retried.
	WaitCompleted(ctx context.Context, peer Peer, elicitationID string) error
	// SignIn asks the person whether to sign in to peer (E33), before
	// anything is sent to its authorization server; true means they
	// agreed and the answerer opened link in the browser. link is
	// Gatehouse's own start page on this computer, which sends the
	// browser on to the authorization server's sign-in page once Gatehouse
	// has learnt it (or says why the sign-in stopped).
	SignIn(ctx context.Context, peer Peer, link *linkcheck.Report) (bool, error)
	// Sample reviews a server's sampling request with the person and runs
	// the host's model on it (see Broker.Sample).
	Sample(ctx context.Context, peer Peer, p *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error)
}

// Options configures a Manager. The zero value is usable.
type Options struct {
	// ClientName and ClientVersion identify Gatehouse to servers.
	ClientName    string
	ClientVersion string
	// OnStatus is called after every status change, from the session's goroutine.
	// It must not block for long.
	OnStatus func(Status)
	// OnListsChanged is called when a server's tools, resources or prompts
	// have been (re)read.
	OnListsChanged func(serverID string)
	// OnResourceUpdated is called when a server says a resource subscribed
	// to with Subscribe changed (notifications/resources/updated).
	OnResourceUpdated func(serverID, uri string)
	// OnLog is called after lines were added to a server's log (LogLines),
	// possibly many times a second. It must not block.
	OnLog func(serverID string)
	// Asker answers elicitations. When nil, no elicitation capability is declared.
	Asker Asker
	// Sampling declares the sampling capability to servers (the Asker then
	// reviews and runs their requests): only when a model is set up, which
	// SetSampling changes later.
	Sampling bool
	// Tokens keeps OAuth tokens. When nil (or Asker is nil), servers that
	// require sign-in cannot be used.
	Tokens TokenStore
	// ProtocolVersion is the protocol revision offered to every server;
	// empty means the newest the SDK speaks. The peer matrix tests pin
	// older revisions with it.
	ProtocolVersion string
	// Logger receives the host's own diagnostics; nil discards them.
	Logger *slog.Logger
}

// Manager keeps one session per enabled server. It is safe for concurrent use.
// Its sign-in methods (SignIn, SignOut and the OAuth handler they drive)
// are in oauth.go, beside the sign-in types.
type Manager struct {
	opts Options
	base context.Context
	stop context.CancelFunc

	mu       sync.Mutex
	sessions map[string]*session // by server ID, only for enabled servers
	servers  map[string]store.Server
	logs     map[string]*serverLog // kept across reconnects and while disabled
	closed   bool
	// redirect is the loopback redirect of sign-ins (package oauthflow), made at
	// the first one and closed by Close.
	redirect *oauthflow.Redirect

	// tokenMu orders saving a server's sign-in tokens with deleting them;
	// signOuts counts each server's Sign outs (and removals), so that a
	// token from before one is not saved after it (saveToken).
	tokenMu  sync.Mutex
	signOuts map[string]int
}

// NewManager returns a manager with no servers. Call Close when done.
func NewManager(opts Options) *Manager {
	if opts.ClientName == "" {
		opts.ClientName = "gatehouse"
	}
	if opts.ClientVersion == "" {
		opts.ClientVersion = "dev"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{
		opts:     opts,
		base:     ctx,
		stop:     cancel,
		sessions: map[string]*session{},
		servers:  map[string]store.Server{},
		logs:     map[string]*serverLog{},
	}
}

// Set adds or updates a server. An enabled server starts connecting in the
// background (Set never waits for the network); a changed configuration
// reconnects it; a disabled one is disconnected.
func (m *Manager) Set(srv store.Server) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	old, had := m.servers[srv.ID]
	m.servers[srv.ID] = srv
	log := m.logs[srv.ID]
	if log == nil {
		id := srv.ID
		log = &serverLog{changed: func() { m.notifyLog(id) }}
		m.logs[srv.ID] = log
	}
	prev := m.sessions[srv.ID]
	unchanged := had && prev != nil && sameConnection(old, srv)
	if unchanged { // a rename, the folders it may see or its log level: keep the live session
		m.mu.Unlock()
		prev.setRoots(srv.Roots)
		prev.setLogLevel(srv.LogLevel)
		return
	}
	delete(m.sessions, srv.ID)
	var next *session
	if srv.Enabled {
		next = newSession(m, srv, log)
		ctx, cancel := context.WithCancel(m.base)
		next.cancel = cancel
		m.sessions[srv.ID] = next
		go next.run(ctx)
	}
	m.mu.Unlock()
	if prev != nil {
		prev.stop()
	}
	if !srv.Enabled {
		log.event("turned off")
		m.notifyStatus(Status{ServerID: srv.ID, State: StateDisabled, Since: time.Now()})
	}
}

// sameConnection reports whether two configurations of a server connect the
// same way, so that renaming does not drop a live session, nor a change of
// what the live session can change itself (roots, log level).
func sameConnection(a, b store.Server) bool {
	a.Name, b.Name = "", ""
	a.UpdatedAt, b.UpdatedAt = time.Time{}, time.Time{}
	a.Roots, b.Roots = nil, nil
	a.LogLevel, b.LogLevel = "", ""
	return reflect.DeepEqual(a, b) // follows the Stdio/HTTP pointers
}

// Remove disconnects a server and forgets it.
func (m *Manager) Remove(id string) {
	_ = m.forgetTokens(id, false) // a refresh on its way saves nothing after
	m.mu.Lock()
	s := m.sessions[id]
	delete(m.sessions, id)
	delete(m.servers, id)
	delete(m.logs, id)
	m.mu.Unlock()
	if s != nil {
		s.stop()
	}
}

// SetSampling declares (or stops declaring) the sampling capability: the
// servers connected now reconnect, so that each is told, and the ones that
// connect later are told at once. Declared only while a model is set up.
func (m *Manager) SetSampling(on bool) {
	m.mu.Lock()
	if m.opts.Sampling == on {
		m.mu.Unlock()
		return
	}
	m.opts.Sampling = on
	sessions := slices.Collect(maps.Values(m.sessions))
	m.mu.Unlock()
	for _, s := range sessions {
		s.reconnect()
	}
}

// Reconnect drops a server's connection and connects again at once,
// skipping any backoff wait.
func (m *Manager) Reconnect(id string) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	s.reconnect()
	return nil
}

// Status returns a server's current status.
func (m *Manager) Status(id string) (Status, error) {
	m.mu.Lock()
	_, known := m.servers[id]
	s := m.sessions[id]
	m.mu.Unlock()
	if !known {
		return Status{}, fmt.Errorf("%w: %s", ErrUnknownServer, id)
	}
	if s == nil {
		return Status{ServerID: id, State: StateDisabled}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statusLocked(), nil
}

// Log returns the tail of a server's log as text: its stderr, its log
// messages and the connection events.
func (m *Manager) Log(id string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.logs[id]
	if l == nil {
		return "", fmt.Errorf("%w: %s", ErrUnknownServer, id)
	}
	return l.String(), nil
}

// LogLines returns the tail of a server's log, line by line with where
// each came from, oldest first.
func (m *Manager) LogLines(id string) ([]LogLine, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.logs[id]
	if l == nil {
		return nil, fmt.Errorf("%w: %s", ErrUnknownServer, id)
	}
	return l.Lines(), nil
}

// WaitConnected blocks until the server is connected, ctx ends, or the
// server reports an error (returned with its sentence). Used by the CLI.
func (m *Manager) WaitConnected(ctx context.Context, id string) error {
	for {
		st, err := m.Status(id)
		if err != nil {
			return err
		}
		switch st.State {
		case StateConnected:
			return nil
		case StateDisabled:
			return ErrDisabled
		case StateError:
			return notConnected(st.Message)
		case StateNeedsSignIn:
			return i18n.Wrap(errors.Join(ErrNotConnected, ErrNeedsSignIn), "mcp.error.notConnectedBecause", "detail", ErrNeedsSignIn)
		}
		select {
		case <-ctx.Done():
			return i18n.Wrap(errors.Join(ErrNotConnected, ctx.Err()), "mcp.error.stillConnecting")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Tools returns the tools the server listed, sorted by name.
func (m *Manager) Tools(id string) ([]*sdk.Tool, error) {
	s, err := m.session(id)
	if err != nil {
		return nil, err
	}
	if _, err := s.live(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	tools := append([]*sdk.Tool(nil), s.tools...)
	s.mu.Unlock()
	sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
	return tools, nil
}

// Resources returns the resources the server listed.
func (m *Manager) Resources(id string) ([]*sdk.Resource, error) {
	s, err := m.session(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*sdk.Resource(nil), s.resources...), nil
}

// Prompts returns the prompts the server listed.
func (m *Manager) Prompts(id string) ([]*sdk.Prompt, error) {
	s, err := m.session(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*sdk.Prompt(nil), s.prompts...), nil
}

// CallTool calls a tool and returns its result. A server that is
// connecting, or waiting to reconnect after its connection broke, is waited
// for (reconnected at once) within ctx instead of failing the call (see
// session.await). Cancelling ctx cancels the
// call on the server (notifications/cancelled). The call asks for progress
// notifications, which go to the report of ctx (WithProgress). A tool that
// can only run as an MCP task is not called: ErrTaskRequired.
func (m *Manager) CallTool(ctx context.Context, id, name string, args map[string]any) (*sdk.CallToolResult, error) {
	ctx, s, cs, release, err := m.liveSession(ctx, id)
	if err != nil {
		return nil, err
	}
	defer release()
	if s.needsTask(name) {
		return nil, ErrTaskRequired
	}
	if args == nil {
		args = map[string]any{}
	}
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	defer s.progress.track(ctx, params)()
	res, err := cs.CallTool(ctx, params)
	seen := map[string]bool{}
	for round := 1; err != nil; round++ {
		var needed []*sdk.ElicitParams
		needed, err = m.urlsRequired(err, round, seen)
		if err != nil {
			break
		}
		if err = m.completeURLs(ctx, s, cs, needed); err != nil {
			break
		}
		res, err = cs.CallTool(ctx, params) // E25: retried once the pages are done
	}
	if err = connectionEnded(ctx, err); err != nil {
		return nil, fmt.Errorf("calling %s on %s: %w", name, m.config(id, s.srv).Name, err)
	}
	return res, nil
}

// MaxURLRounds bounds how often one tool call is retried after -32042: a
// server that keeps asking for pages cannot keep the person in a loop.
const MaxURLRounds = 3

// urlsRequired reads a URLElicitationRequired error (-32042) into the URL
// requests it lists (E25). Any other error is returned as is. A round past
// MaxURLRounds, or one that asks again for an elicitationId already done,
// ends the call with a sentence saying so.
func (m *Manager) urlsRequired(err error, round int, seen map[string]bool) ([]*sdk.ElicitParams, error) {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != sdk.CodeURLElicitationRequired {
		return nil, err
	}
	if m.opts.Asker == nil {
		return nil, i18n.Wrap(err, "mcp.url.cannotShow", "detail", err)
	}
	if round > MaxURLRounds {
		return nil, i18n.Err("mcp.url.tooManyRounds", "n", MaxURLRounds)
	}
	var data struct {
		Elicitations []*sdk.ElicitParams `json:"elicitations"`
	}
	if len(rpcErr.Data) == 0 || json.Unmarshal(rpcErr.Data, &data) != nil || len(data.Elicitations) == 0 {
		return nil, i18n.Err("mcp.url.noneListed")
	}
	for _, p := range data.Elicitations {
		if p == nil || (p.Mode != "url" && p.Mode != "") || p.URL == "" {
			return nil, i18n.Err("mcp.url.notAPage")
		}
		p.Mode = "url"
		if seen[p.ElicitationID] {
			return nil, i18n.Err("mcp.url.again", "id", p.ElicitationID)
		}
		seen[p.ElicitationID] = true
	}
	return data.Elicitations, nil
}

// completeURLs shows each listed URL request through the Asker, in the same
// dialog as requests the server sends itself, then waits for all of them to
// be done. Declining any of them ends the call.
func (m *Manager) completeURLs(ctx context.Context, s *session, cs *sdk.ClientSession, needed []*sdk.ElicitParams) error {
	s.mu.Lock()
	peerOf := s.peerOf
	s.mu.Unlock()
	if peerOf == nil {
		return ErrNotConnected
	}
	peer := peerOf(cs)
	asker := m.opts.Asker
	for _, p := range needed {
		res, err := asker.Elicit(ctx, peer, &sdk.ElicitRequest{Session: cs, Params: p})
		if err != nil {
			return i18n.Wrap(err, "mcp.url.refused", "detail", err)
		}
		if res.Action != ActionAccept {
			return i18n.Err("mcp.url.notOpened", "action", res.Action)
		}
	}
	for _, p := range needed {
		if err := asker.WaitCompleted(ctx, peer, p.ElicitationID); err != nil {
			return err
		}
	}
	return nil
}

// Await waits, within ctx, until a server a call is about to use is
// connected: one that is connecting, or waiting to reconnect after its
// connection broke (which reconnects at once, see session.await). A server
// that failed again, or never connected, fails at once with its reason.
// The call paths that look at the server first (Peer, Tool: the person's
// Tools pane, the chat) call it before them; CallTool, ReadResource,
// GetPrompt and Complete wait this way themselves.
func (m *Manager) Await(ctx context.Context, id string) error {
	_, _, _, release, err := m.liveSession(ctx, id)
	if err == nil {
		release()
	}
	return err
}

// Tool returns one tool by name.
func (m *Manager) Tool(id, name string) (*sdk.Tool, error) {
	s, err := m.session(id)
	if err != nil {
		return nil, err
	}
	if _, err := s.live(); err != nil {
		return nil, err
	}
	// Every call asks for its tool: no copy or sorting of the list.
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tools {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, i18n.Err("mcp.error.noTool", "tool", strconv.Quote(name))
}

// Close disconnects every server, stopping their processes, and waits for it.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	sessions := make([]*session, 0, len(m.sessions))
	for _, s := range m.sessions {
		sessions = append(sessions, s)
	}
	m.sessions = map[string]*session{}
	redirect := m.redirect
	m.mu.Unlock()
	m.stop()
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Go(s.stop)
	}
	wg.Wait()
	if redirect != nil {
		redirect.Close()
	}
}

// Peer describes a connected server for a question the host asks about it
// (a tool-call approval): its configured name, where it runs, what it calls
// itself, and the live connection, so that the question ends with it.
func (m *Manager) Peer(id string) (Peer, error) {
	s, err := m.session(id)
	if err != nil {
		return Peer{}, err
	}
	cs, err := s.live()
	if err != nil {
		return Peer{}, err
	}
	s.mu.Lock()
	peerOf := s.peerOf
	s.mu.Unlock()
	if peerOf != nil {
		return peerOf(cs), nil
	}
	p := m.peer(s)
	p.session = cs
	return p, nil
}

// peer describes a session's server for an elicitation dialog.
func (m *Manager) peer(s *session) Peer {
	srv := m.config(s.srv.ID, s.srv)
	p := Peer{Server: srv, Where: Where(srv)}
	s.mu.Lock()
	cs := s.cs
	s.mu.Unlock()
	if cs != nil {
		if res := cs.InitializeResult(); res != nil && res.ServerInfo != nil {
			p.SelfName, p.SelfVersion = res.ServerInfo.Name, res.ServerInfo.Version
		}
	}
	return p
}

// config returns the server's current configuration (which may have been
// renamed since the session started), or fallback if it was removed.
func (m *Manager) config(id string, fallback store.Server) store.Server {
	m.mu.Lock()
	defer m.mu.Unlock()
	if srv, ok := m.servers[id]; ok {
		return srv
	}
	return fallback
}

func (m *Manager) session(id string) (*session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.servers[id]; !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownServer, id)
	}
	s := m.sessions[id]
	if s == nil {
		return nil, ErrDisabled
	}
	return s, nil
}

// newClient builds the go-sdk client for one connection attempt, with
// handlers that know which server they serve. connCtx ends with the
// connection.
func (m *Manager) newClient(s *session, connCtx context.Context) *sdk.Client {
	opts := &sdk.ClientOptions{
		// Roots: the folders the person lets the server see (roots.go).
		Capabilities:               &sdk.ClientCapabilities{RootsV2: &sdk.RootCapabilities{ListChanged: true}},
		ToolListChangedHandler:     func(context.Context, *sdk.ToolListChangedRequest) { s.onListChanged(connCtx, listTools) },
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { s.onListChanged(connCtx, listResources) },
		PromptListChangedHandler:   func(context.Context, *sdk.PromptListChangedRequest) { s.onListChanged(connCtx, listPrompts) },
		ResourceUpdatedHandler:     func(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) { s.onResourceUpdated(req) },
		LoggingMessageHandler:      func(_ context.Context, req *sdk.LoggingMessageRequest) { s.log.message(req.Params) },
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			s.progress.deliver(req.Params)
		},
		Logger: m.opts.Logger.With("server", s.srv.ID),
	}
	if m.opts.Asker != nil {
		asker := m.opts.Asker
		// E1: both modes are declared explicitly, URL mode unless the person
		// turned it off for this server (then a URL request is refused, E4).
		urlMode := !s.srv.DisableURLMode
		opts.Capabilities.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}}
		if urlMode {
			opts.Capabilities.Elicitation.URL = &sdk.URLElicitationCapabilities{}
		}
		peerOf := func(cs *sdk.ClientSession) Peer {
			p := m.peer(s)
			p.urlMode, p.session, p.connDone = urlMode, cs, connCtx.Done()
			return p
		}
		opts.ElicitationHandler = func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			// A nested request's context ends with the connection, but input
			// requests (2026-07-28) are fulfilled under the tool call's
			// context: bind both to the connection so a dialog closes when
			// its server goes away.
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			stop := context.AfterFunc(connCtx, cancel)
			defer stop()
			return asker.Elicit(ctx, peerOf(req.Session), req)
		}
		opts.ElicitationCompleteHandler = func(_ context.Context, req *sdk.ElicitationCompleteNotificationRequest) {
			if req.Params == nil || !asker.Complete(peerOf(req.Session), req.Params.ElicitationID) {
				m.opts.Logger.Info("ignored an elicitation completion that names no request of this connection", "server", s.srv.ID)
			}
		}
		m.mu.Lock()
		sampling := m.opts.Sampling
		m.mu.Unlock()
		if sampling {
			opts.CreateMessageHandler = func(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
				ctx, cancel := context.WithCancel(ctx)
				defer cancel()
				stop := context.AfterFunc(connCtx, cancel)
				defer stop()
				return asker.Sample(ctx, peerOf(req.Session), req.Params)
			}
		}
		s.mu.Lock()
		s.peerOf = peerOf // for -32042 retries on this connection (CallTool)
		s.mu.Unlock()
	}
	client := sdk.NewClient(&sdk.Implementation{Name: m.opts.ClientName, Title: "Gatehouse", Version: m.opts.ClientVersion}, opts)
	client.AddReceivingMiddleware(s.acks.middleware)
	s.useClient(client)
	return client
}

// sessionOptions are the go-sdk options of each connection.
func (m *Manager) sessionOptions() *sdk.ClientSessionOptions {
	if m.opts.ProtocolVersion == "" {
		return nil
	}
	return &sdk.ClientSessionOptions{ProtocolVersion: m.opts.ProtocolVersion}
}

func (m *Manager) notifyStatus(st Status) {
	if m.opts.OnStatus != nil {
		m.opts.OnStatus(st)
	}
}

func (m *Manager) notifyLog(id string) {
	if m.opts.OnLog != nil {
		m.opts.OnLog(id)
	}
}

func (m *Manager) notifyLists(id string) {
	if m.opts.OnListsChanged != nil {
		m.opts.OnListsChanged(id)
	}
}
