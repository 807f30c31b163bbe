package mcp

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// Reconnect timing. A server that crashes at once must not make the host spin:
// the delay doubles from backoffMin up to backoffMax, with full jitter so that
// many servers failing together do not retry in lockstep. A connection that
// stayed up for stableAfter resets the delay.
const (
	backoffMin     = 500 * time.Millisecond
	backoffMax     = 30 * time.Second
	stableAfter    = 30 * time.Second
	connectTimeout = 30 * time.Second
	// listTimeout bounds one refresh of the tools, resources and prompts lists.
	listTimeout = 30 * time.Second
)

// backoff returns the wait before reconnect attempt n (n >= 1): a random
// duration in [d/2, d] where d = backoffMin·2^(n-1), capped at backoffMax.
func backoff(n int) time.Duration {
	d := backoffMin << min(n-1, 16)
	if d > backoffMax || d <= 0 {
		d = backoffMax
	}
	return d/2 + rand.N(d/2+1)
}

// session keeps one server connected for as long as it is enabled in the
// manager: it connects, watches the connection, and reconnects with backoff.
type session struct {
	m      *Manager
	srv    store.Server
	log    *serverLog
	cancel context.CancelFunc
	done   chan struct{} // closed when run returns
	kick   chan struct{} // a request to reconnect now
	hurry  chan struct{} // a call waits: end the backoff wait now (await)

	mu     sync.Mutex
	status Status
	// changed is closed and replaced at every status change, for await.
	changed chan struct{}
	// mayHurry lets one call end the backoff wait after a crash of a
	// connection that was up; hurried is set while that reconnect is on
	// its way. A server that keeps failing to start waits its backoff.
	mayHurry, hurried bool
	cs                *sdk.ClientSession
	connCtx           context.Context // ends when cs's connection ends
	// forward sends the gateway's calls on cs's connection, when it is a
	// stdio one (forward.go); a newer connection's cs does not match it.
	forward   forwardOn
	tools     []*sdk.Tool
	resources []*sdk.Resource
	prompts   []*sdk.Prompt
	// listers run the listings of each kind one at a time (lister.go).
	listers  [listKinds]lister
	attempts int // connection attempts since the session started
	// peerOf describes the server for requests on a connection (set by
	// Manager.newClient for the newest connection).
	peerOf func(*sdk.ClientSession) Peer
	// oauth is the sign-in handler of an HTTP server (oauth.go);
	// signInPending is set when the person asked to sign in
	// (Manager.SignIn), and becomes signInRequested for the next
	// connection attempt, which it covers (signInDone): a Sign in pressed
	// while an attempt ends is not spent by that attempt.
	oauth           *oauthState
	signInPending   bool
	signInRequested bool
	signInDeclined  bool // the person said no to the last sign-in
	// signInFailure is why the last sign-in did not complete (ErrSignInFailed);
	// signInRefused is set when a request of the current connection attempt
	// needed a sign-in that could not be shown. Both are reset at the start
	// of each attempt (oauthHandler).
	signInFailure error
	signInRefused bool
	// signIns counts the sign-ins of the current attempt that completed:
	// past maxSignIns, a request of that attempt that needs a sign-in again
	// fails the attempt instead of asking again.
	signIns int
	// signInNeeded ends a connected session's connection when a request
	// on it needed a sign-in the person has not asked for (needSignIn);
	// stepUp is the 403 that asked for more scope then, for the sign-in
	// the person asks for next.
	signInNeeded chan struct{}
	stepUp       *challenge
	// subscribed are the resource URIs subscribed to (resources.go), each
	// with its holders ("" the window), made again on every connection;
	// subMu keeps their changes, with the server's answers, in order.
	subscribed map[string]map[string]bool
	subMu      sync.Mutex
	// acks are the subscriptions waiting for the server to take them
	// (subscriptions.go).
	acks subscriptionAcks
	// client is the go-sdk client of the newest connection attempt, and
	// roots the folders the server may see (roots.go); rootsMu keeps
	// changes of the roots in order.
	client  *sdk.Client
	roots   []string
	rootsMu sync.Mutex
	// logLevel is the level asked of the server with logging/setLevel at
	// every connection ("" asks nothing).
	logLevel string
	// progress routes the server's progress notifications to the
	// requests waiting for them (progress.go).
	progress progressRoutes
}

func newSession(m *Manager, srv store.Server, log *serverLog) *session {
	return &session{
		m:        m,
		srv:      srv,
		log:      log,
		done:     make(chan struct{}),
		kick:     make(chan struct{}, 1),
		hurry:    make(chan struct{}, 1),
		changed:  make(chan struct{}),
		roots:    srv.Roots,
		logLevel: srv.LogLevel,

		signInNeeded: make(chan struct{}, 1), // buffered: needSignIn never waits
	}
}

// run is the session's life: connect, serve, reconnect, until ctx ends.
func (s *session) run(ctx context.Context) {
	defer close(s.done)
	failures := 0
	for {
		s.setStatus(Status{State: StateConnecting})
		started, mark := time.Now(), s.log.stderrMark()
		err := s.connectAndServe(ctx)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errReconnect) {
			// Asked for (Reconnect, or the declared capabilities changed):
			// not a failure, so no error shown and no backoff wait.
			s.log.event("reconnecting, as asked")
			failures = 0
			continue
		}
		if time.Since(started) > stableAfter {
			failures = 0
		}
		failures++
		delay := backoff(failures)
		next := time.Now().Add(delay)
		// A sign-in the person asked for is spent by one attempt, whatever
		// its outcome: a retry never shows the consent again by itself.
		s.signInDone()
		if errors.Is(err, ErrNeedsSignIn) || errors.Is(err, ErrSignInDeclined) || errors.Is(err, ErrSignInFailed) {
			// No retry loop: a sign-in starts only when the person asks.
			s.log.event("the server requires sign-in: " + Describe(err).In(i18n.English))
			s.setStatus(Status{State: StateNeedsSignIn, Message: s.signInMessage(), err: err})
			select {
			case <-ctx.Done():
				return
			case <-s.kick:
				failures = 0
				continue
			}
		}
		s.log.event(fmt.Sprintf("disconnected: %s; retrying in %s", Describe(err).In(i18n.English), i18n.Duration(delay).In(i18n.English)))
		s.setStatus(Status{State: StateError, Message: Describe(err), NextRetry: next, Stderr: s.log.stderrSince(mark), err: err})
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-s.kick:
			timer.Stop()
			failures = 0
		case <-s.hurry:
			// A call waits (await): reconnect now, but keep the count, so
			// that a server that keeps crashing still waits longer each time.
			timer.Stop()
			s.log.event("reconnecting now: a call is waiting for the server")
		case <-timer.C:
		}
	}
}

// connectAndServe makes one connection and returns when it ends, with the
// reason. It always leaves no process behind.
func (s *session) connectAndServe(ctx context.Context) error {
	s.mu.Lock()
	s.attempts++
	s.signInRequested, s.signInPending = s.signInPending, false
	s.mu.Unlock()
	if err := ValidateConfig(s.srv); err != nil {
		return err
	}
	s.log.event("connecting to " + Where(s.srv))
	// connCtx lives as long as this connection: requests the server makes of
	// the person end with it, whichever way they arrived (E30).
	connCtx, connEnd := context.WithCancel(ctx)
	defer connEnd()
	client := s.m.newClient(s, connCtx)
	// guard ends the connection whose server sends a message too large to
	// read (wirelimit.go), also while connecting.
	guard := newWireGuard(connCtx)

	timeout := connectTimeout
	if s.mayAskSignIn() {
		timeout += SignInTimeout // the person may be signing in in the browser
	}
	cctx, cancel := context.WithTimeout(guard.ctx, timeout)
	defer cancel()
	var (
		cs    *sdk.ClientSession
		proc  *stdioProcess
		how   string
		err   error
		ended = make(chan error, 1)
	)
	switch s.srv.Transport {
	case store.TransportStdio:
		if proc, err = newStdioProcess(s.srv.Stdio, s.log); err != nil {
			return err
		}
		how = "stdio"
		cs, err = client.Connect(cctx, proc.transport(guard), s.m.sessionOptions())
		if err != nil && proc.cmd.Process != nil {
			// The handshake failed but the process may still run: stop it and
			// prefer its exit status as the reason when it has one.
			proc.killGroup()
			if exitErr := proc.exitError(); exitErr != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
				err = exitErr
			}
		}
	default:
		var oauth auth.OAuthHandler
		if oauth, err = s.m.oauthHandler(s, s.srv.HTTP.URL); err != nil {
			return err
		}
		if err = s.stepUpFirst(cctx, oauth); err != nil {
			return s.signInOutcome(err)
		}
		cs, how, err = connectHTTP(cctx, client, s.srv.HTTP, oauth, s.m.sessionOptions(), s.log, guard)
	}
	if tooLarge := guard.tripped(); tooLarge != nil {
		if cs != nil {
			_ = cs.Close()
		}
		return tooLarge // whatever the SDK made of it
	}
	if err != nil {
		// A 401 that could not lead to a sign-in may be hidden behind what
		// the SDK tried next (initialize after server/discover, legacy SSE).
		return s.signInOutcome(err)
	}
	go func() { ended <- cs.Wait() }()
	// A message too large ends the connection at once, so that no request
	// waits on it for its time limit (an event stream's reader would only
	// see its stream break).
	stopGuard := context.AfterFunc(guard.ctx, func() {
		if guard.tripped() != nil {
			_ = cs.Close()
		}
	})
	defer stopGuard()

	s.mu.Lock()
	s.cs, s.connCtx = cs, connCtx
	if proc != nil {
		s.forward = forwardOn{cs: cs, f: proc.fwd.Load()}
	}
	s.mu.Unlock()
	// Read the lists before saying "connected", so that a connected server's
	// tools are known (the CLI calls a tool right after connecting). A sign-in
	// the person asked for covers this too: a server may let the handshake
	// through and require sign-in for everything else.
	s.refreshLists(ctx, cs)
	s.resubscribe(ctx, cs)
	s.signInDone()
	err = s.signInOutcome(nil)
	if tooLarge := guard.tripped(); tooLarge != nil {
		err = tooLarge
	}
	if err != nil {
		s.mu.Lock()
		s.cs, s.connCtx = nil, nil
		s.mu.Unlock()
		connEnd()
		_ = cs.Close()
		return err
	}
	s.sendLogLevel(ctx, cs)
	s.setConnected(cs, how)

	var reason error
	select {
	case <-ctx.Done():
	case <-s.kick:
		reason = errReconnect
	case <-s.signInNeeded:
		reason = ErrNeedsSignIn
	case reason = <-ended:
	case <-guard.done():
	}
	if tooLarge := guard.tripped(); tooLarge != nil {
		reason = tooLarge // whatever the SDK made of it
	}
	s.mu.Lock()
	s.cs, s.connCtx = nil, nil
	s.mu.Unlock()
	connEnd()
	var exitErr error
	if proc != nil {
		// The process first (its input closed, then signalled): the
		// go-sdk's Close waits for the requests being written, and a write
		// to a server that stopped reading ends only with its input.
		exitErr = proc.exitError()
		proc.killGroup()
	}
	_ = cs.Close()
	if exitErr != nil && reason != nil && !errors.Is(reason, errReconnect) && !errors.Is(reason, ErrMessageTooLarge) {
		reason = exitErr
	}
	if reason == nil {
		reason = sdk.ErrConnectionClosed
	}
	return reason
}

var errReconnect = errors.New("reconnect requested")

// setConnected records a fresh session's identity and capabilities.
func (s *session) setConnected(cs *sdk.ClientSession, how string) {
	st := Status{State: StateConnected, Transport: how}
	if res := cs.InitializeResult(); res != nil {
		st.ProtocolVersion = res.ProtocolVersion
		if res.ServerInfo != nil {
			st.ServerName, st.ServerVersion = res.ServerInfo.Name, res.ServerInfo.Version
		}
		st.Capabilities = capabilityNames(res.Capabilities)
	}
	s.log.event(fmt.Sprintf("connected over %s: %s %s, protocol %s", how, st.ServerName, st.ServerVersion, st.ProtocolVersion))
	s.setStatus(st)
}

func capabilityNames(c *sdk.ServerCapabilities) []string {
	if c == nil {
		return nil
	}
	var names []string
	add := func(ok bool, name string) {
		if ok {
			names = append(names, name)
		}
	}
	add(c.Tools != nil, "tools")
	add(c.Resources != nil, "resources")
	add(c.Prompts != nil, "prompts")
	add(c.Completions != nil, "completions")
	add(c.Logging != nil, "logging")
	return names
}

// refreshLists reads the tools, resources and prompts the server offers,
// following pagination, and tells the manager's listener. Each listing
// waits for one of its kind in flight (listers).
func (s *session) refreshLists(ctx context.Context, cs *sdk.ClientSession) {
	kept := false
	for kind := range listKinds {
		s.listers[kind].run(func() { kept = s.relist(ctx, cs, kind) || kept })
	}
	if kept {
		s.listsChanged()
	}
}

// relist reads one kind of list of cs, following pagination, and keeps it
// unless a newer connection replaced cs meanwhile; it reports whether it
// kept it. A kind the server did not declare is an empty list (tools are
// read from a server that declared nothing).
func (s *session) relist(ctx context.Context, cs *sdk.ClientSession, kind listKind) bool {
	timeout := listTimeout
	if s.mayAskSignIn() {
		timeout += SignInTimeout // a listing may need a sign-in (or a step-up)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	caps := cs.InitializeResult().Capabilities
	var (
		tools     []*sdk.Tool
		resources []*sdk.Resource
		prompts   []*sdk.Prompt
	)
	switch {
	case kind == listTools && (caps == nil || caps.Tools != nil):
		tools = collect(s.log, "tools", cs.Tools(ctx, nil))
	case kind == listResources && caps != nil && caps.Resources != nil:
		resources = collect(s.log, "resources", cs.Resources(ctx, nil))
	case kind == listPrompts && caps != nil && caps.Prompts != nil:
		prompts = collect(s.log, "prompts", cs.Prompts(ctx, nil))
	}
	tools, resources, prompts = uniqueTools(s.log, tools), uniqueResources(s.log, resources), uniquePrompts(s.log, prompts)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cs != cs { // a newer connection replaced this one meanwhile
		return false
	}
	switch kind {
	case listTools:
		s.tools, s.status.Tools = tools, len(tools)
	case listResources:
		s.resources, s.status.Resources = resources, len(resources)
	case listPrompts:
		s.prompts, s.status.Prompts = prompts, len(prompts)
	}
	return true
}

// listsChanged tells the manager's listeners that the lists (and so the
// status's counts) changed.
func (s *session) listsChanged() {
	s.mu.Lock()
	st := s.statusLocked()
	s.mu.Unlock()
	s.m.notifyStatus(st)
	s.m.notifyLists(s.srv.ID)
}

// collect reads every page of a list, at most MaxListed items; on an error
// it logs and keeps what it has.
func collect[T any](log *serverLog, what string, seq iter.Seq2[T, error]) []T {
	var items []T
	for item, err := range seq {
		if err != nil {
			log.event(fmt.Sprintf("listing %s failed: %v", what, err))
			break
		}
		if len(items) == MaxListed {
			log.event(fmt.Sprintf("the server lists more than %d %s; only the first %d are used", MaxListed, what, MaxListed))
			break
		}
		items = append(items, item)
	}
	return items
}

// onListChanged reads one kind of list again after the server said it
// changed: on the connection live when the listing starts, after the one
// in flight, and not at all when one is waiting already (lister). connCtx
// is the connection's: a listing still waiting when it ends is given up,
// so that closing the connection does not wait for it.
func (s *session) onListChanged(connCtx context.Context, kind listKind) {
	s.listers[kind].request(func() {
		s.mu.Lock()
		cs := s.cs
		s.mu.Unlock()
		if cs != nil && s.relist(connCtx, cs, kind) {
			s.listsChanged()
		}
	})
}

// setStatus replaces the status (keeping list counts while connected) and
// tells the manager's listener.
func (s *session) setStatus(st Status) {
	s.mu.Lock()
	if st.State != StateConnected {
		s.tools, s.resources, s.prompts = nil, nil, nil
	} else {
		st.Tools, st.Resources, st.Prompts = len(s.tools), len(s.resources), len(s.prompts)
	}
	st.Since = time.Now()
	switch st.State {
	case StateConnected:
		s.mayHurry = true
	case StateError:
		st.Recovers = s.mayHurry && !s.hurried
	default: // an attempt starts (or waits for sign-in): a hurry asked earlier is spent
		s.hurried = false
		select {
		case <-s.hurry:
		default:
		}
	}
	s.status = st
	close(s.changed)
	s.changed = make(chan struct{})
	out := s.statusLocked()
	s.mu.Unlock()
	s.m.notifyStatus(out)
}

func (s *session) statusLocked() Status {
	st := s.status
	st.ServerID = s.srv.ID
	st.Attempts = s.attempts
	st.Capabilities = slices.Clone(st.Capabilities)
	st.Stderr = slices.Clone(st.Stderr)
	return st
}

// live returns the current client session, or an error saying why there is none.
func (s *session) live() (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cs == nil {
		if s.status.State == StateError {
			return nil, notConnected(s.status.Message)
		}
		return nil, ErrNotConnected
	}
	return s.cs, nil
}

// await returns the live connection for a call, and a context that ends
// when that connection ends, waiting for it (until ctx ends) while the
// server connects. A server waiting to reconnect after its
// connection broke is reconnected at once for the first call, which waits
// for it, instead of failing while the backoff runs; a server whose
// attempt failed again (or that never connected) fails the call at once
// with its reason, as live does, and keeps its growing wait.
func (s *session) await(ctx context.Context) (*sdk.ClientSession, context.Context, error) {
	for {
		s.mu.Lock()
		st, changed := s.status, s.changed
		hurry := st.State == StateError && s.mayHurry && !s.hurried
		switch {
		case s.cs != nil && st.State == StateConnected:
			cs, connCtx := s.cs, s.connCtx
			s.mu.Unlock()
			return cs, connCtx, nil
		case hurry:
			s.mayHurry, s.hurried = false, true
			select {
			case s.hurry <- struct{}{}:
			default:
			}
		case st.State == StateError && !s.hurried:
			s.mu.Unlock()
			return nil, nil, notConnected(st.Message)
		case st.State == StateNeedsSignIn:
			s.mu.Unlock()
			return nil, nil, ErrNotConnected
		}
		s.mu.Unlock()
		select {
		case <-changed:
		case <-s.done:
			return nil, nil, ErrNotConnected
		case <-ctx.Done():
			return nil, nil, i18n.Wrap(errors.Join(ErrNotConnected, ctx.Err()), "mcp.error.stillConnecting")
		}
	}
}

// stop ends the session and waits until its process (if any) is gone.
func (s *session) stop() {
	s.cancel()
	<-s.done
}

// reconnect asks the session to drop its connection (if any) and connect again now.
func (s *session) reconnect() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Sign-in (E33): a session's sign-in state, asked by the Manager's sign-in
// methods (manager.go) and the askingHandler (oauth.go).

// signInOutcome is how a connection attempt ended, as far as sign-in goes:
// a failed sign-in, or a request that needed one which could not be shown,
// outweighs whatever the SDK's fallbacks met afterwards (a server/discover
// answered 401 is followed by an initialize that may fail otherwise, or
// succeed on a server that lets only the handshake through). err is the
// attempt's error, nil when it connected.
func (s *session) signInOutcome(err error) error {
	s.mu.Lock()
	failure, refused := s.signInFailure, s.signInRefused
	s.mu.Unlock()
	switch {
	case failure != nil:
		return failure
	case refused && err == nil:
		return ErrNeedsSignIn
	case refused && !errors.Is(err, ErrNeedsSignIn):
		return i18n.Wrap(errors.Join(ErrNeedsSignIn, err), "mcp.signin.needsThen", "detail", err)
	}
	return err
}

// signInMessage says what a server that needs sign-in waits for.
func (s *session) signInMessage() i18n.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.signInFailure != nil {
		var why i18n.Message
		if e, ok := s.signInFailure.(*signInFailure); ok {
			why = e.why
		} else {
			why = i18n.ErrorMessage(s.signInFailure)
		}
		return i18n.M("mcp.signin.failed", "detail", why)
	}
	if s.signInDeclined {
		return i18n.M("mcp.signin.declined")
	}
	return i18n.M("mcp.signin.needed")
}

// mayAskSignIn reports whether a sign-in may be started now: only when the
// person asked to sign in to this server (Manager.SignIn). A connected
// server that asks for one (a 401, or a 403 for more scope: step-up) waits
// for the person like any other (needSignIn), so that no server can make
// Gatehouse send requests on its own (issue 22).
func (s *session) mayAskSignIn() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.signInRequested
}

// challenge is the part of a 401 or 403 a sign-in needs: the request's URL
// (the resource) and the answer's status and WWW-Authenticate header.
type challenge struct {
	url    string
	status int
	header http.Header
}

// needSignIn records that a request needed a sign-in the person has not
// asked for: the attempt ends in "needs sign-in" (signInOutcome), and a
// connected session drops its connection to wait for the person. A 403 for
// more scope is kept, so that the next sign-in asks for that scope.
func (s *session) needSignIn(req *http.Request, resp *http.Response) {
	s.mu.Lock()
	s.signInRefused = true
	if resp.StatusCode == http.StatusForbidden {
		s.stepUp = &challenge{url: req.URL.String(), status: resp.StatusCode, header: resp.Header.Clone()}
	}
	connected := s.status.State == StateConnected
	s.mu.Unlock()
	if connected {
		s.log.event("a request needs sign-in; waiting for the person to sign in")
		select {
		case s.signInNeeded <- struct{}{}:
		default:
		}
	}
}

// stepUpFirst signs in for the scope a connected server asked for last
// (needSignIn), when the person asked to sign in: the connection would
// otherwise succeed with the token it has, and the step-up would never be
// asked for.
func (s *session) stepUpFirst(ctx context.Context, oauth auth.OAuthHandler) error {
	s.mu.Lock()
	c := s.stepUp
	if !s.signInRequested || oauth == nil {
		s.mu.Unlock()
		return nil // kept for the sign-in the person asks for
	}
	s.stepUp = nil
	s.mu.Unlock()
	if c == nil {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, nil)
	if err != nil {
		return err
	}
	return oauth.Authorize(ctx, req, &http.Response{StatusCode: c.status, Header: c.header, Body: http.NoBody, Request: req})
}

// signInDone spends the sign-in the person asked for: it covers one
// connection attempt, and a later one does not show the consent by itself.
func (s *session) signInDone() {
	s.mu.Lock()
	s.signInRequested, s.signIns = false, 0
	s.mu.Unlock()
}

// Live settings: the folders a server may see (roots.go) and the level of
// its log messages, changed on the live connection without reconnecting.

// setRoots makes folders the session's roots: on the live connection's
// client (added and removed ones, each change telling the server), and for
// the connections to come.
func (s *session) setRoots(folders []string) {
	s.rootsMu.Lock()
	defer s.rootsMu.Unlock()
	s.mu.Lock()
	old, client := s.roots, s.client
	s.roots = slices.Clone(folders)
	s.mu.Unlock()
	if client == nil {
		return
	}
	var gone []string
	for _, f := range old {
		if !slices.Contains(folders, f) {
			gone = append(gone, RootURI(f))
		}
	}
	var added []string
	for _, f := range folders {
		if !slices.Contains(old, f) {
			added = append(added, f)
		}
	}
	if len(gone) > 0 {
		client.RemoveRoots(gone...)
	}
	if len(added) > 0 {
		client.AddRoots(rootsOf(added)...)
	}
	if len(gone)+len(added) > 0 {
		s.log.event("the folders this server may see changed; told it")
	}
}

// useClient makes client the session's newest, with the session's roots:
// it has no connection yet, so setting them tells no server.
func (s *session) useClient(client *sdk.Client) {
	s.rootsMu.Lock()
	defer s.rootsMu.Unlock()
	s.mu.Lock()
	s.client = client
	roots := s.roots
	s.mu.Unlock()
	client.AddRoots(rootsOf(roots)...)
}

// setLogLevel makes level the one asked of the server: at once on the live
// connection, when the server logs, and at every connection to come.
func (s *session) setLogLevel(level string) {
	s.mu.Lock()
	changed := s.logLevel != level
	s.logLevel = level
	cs := s.cs
	s.mu.Unlock()
	if changed && cs != nil {
		go s.sendLogLevel(s.m.base, cs)
	}
}

// sendLogLevel asks the server of cs for the session's log level, when one
// is set and the server declared logging; the outcome goes to its log.
func (s *session) sendLogLevel(ctx context.Context, cs *sdk.ClientSession) {
	s.mu.Lock()
	level := s.logLevel
	s.mu.Unlock()
	res := cs.InitializeResult()
	if level == "" || res == nil || res.Capabilities == nil || res.Capabilities.Logging == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: sdk.LoggingLevel(level)}); err != nil {
		s.log.event(fmt.Sprintf("the server refused log level %s: %v", level, err))
		return
	}
	s.log.event("asked the server for log messages from level " + level)
}

// needsTask reports whether the server listed tool as one that can only
// run as an MCP task (tasks.go).
func (s *session) needsTask(tool string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tools {
		if t.Name == tool {
			return NeedsTask(t)
		}
	}
	return false
}
