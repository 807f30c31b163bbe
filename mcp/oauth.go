package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/store"
)

// MCP authorization (E33): remote servers may require OAuth 2.1. The flow
// itself (protected resource metadata, authorization server metadata,
// client registration, PKCE, the token exchange, refresh, step-up) is the
// go-sdk's auth.AuthorizationCodeHandler. Gatehouse adds what a desktop app
// must: the person's consent before the browser opens (the same display as
// URL mode), a loopback redirect (RFC 8252) that accepts one answer with the
// right state, tokens kept in a TokenStore bound to the server and its URL,
// and no sign-in prompt out of the blue: a server that needs one waits in
// the "needs sign-in" state until the person asks to sign in.

// ErrNeedsSignIn is the connection error of a server that requires sign-in
// which the person has not started.
var ErrNeedsSignIn = errors.New("this server needs you to sign in")

// ErrSignInDeclined is returned when the person chose not to sign in.
var ErrSignInDeclined = errors.New("you did not sign in")

// ErrSignInFailed wraps why a sign-in the person started did not complete:
// metadata that fails its checks, an authorization response from the wrong
// issuer, a token request that was refused, an authorization server that
// does not answer. Nothing is stored then, and the server waits in "needs
// sign-in" with the reason; it is not retried by itself.
var ErrSignInFailed = errors.New("signing in failed")

// SignInTimeout bounds the wait for the browser to come back to the
// loopback redirect after the person agreed to sign in.
const SignInTimeout = 5 * time.Minute

// oauthRequestTimeout bounds each request Gatehouse makes to an
// authorization server or for metadata (a variable for tests).
var oauthRequestTimeout = 30 * time.Second

// TokenStore keeps OAuth tokens per server. A token is only ever loaded for
// the server and resource (the MCP server URL) it was issued for. The app
// implements it with the OS keyring and falls back to the data file.
type TokenStore interface {
	// LoadToken returns the saved token, or nil when there is none.
	LoadToken(serverID, resource string) (*SavedToken, error)
	SaveToken(serverID string, tok *SavedToken) error
	DeleteToken(serverID string) error
}

// SavedToken is a token with what is needed to refresh it: the token
// endpoint and the client it was issued to. Resource is the MCP server URL it
// is for.
type SavedToken struct {
	Resource     string        `json:"resource"`
	TokenURL     string        `json:"tokenUrl"`
	ClientID     string        `json:"clientId"`
	ClientSecret string        `json:"clientSecret,omitempty"`
	AuthStyle    int           `json:"authStyle,omitempty"`
	Token        *oauth2.Token `json:"token"`
}

// oauthState is a session's sign-in state, kept across reconnects: the
// token saved from an earlier run, and the go-sdk handler, made at the
// session's first sign-in so that its dynamic registration and tokens are
// reused until the session ends or the person signs out.
type oauthState struct {
	initial oauth2.TokenSource             // the saved token, until the handler exists
	handler *auth.AuthorizationCodeHandler // nil until the first sign-in
}

// askingHandler is the session's auth.OAuthHandler. It lets the go-sdk
// handler start a sign-in (metadata discovery, client registration, the
// authorization request) only when the person may be asked; otherwise the
// server waits in "needs sign-in" and nothing is sent to its authorization
// server.
type askingHandler struct {
	m         *Manager
	s         *session
	serverURL string
}

// TokenSource is the signed-in token, if any.
func (h askingHandler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.s.mu.Lock()
	st := h.s.oauth
	h.s.mu.Unlock()
	switch {
	case st == nil: // signed out meanwhile
		return nil, nil
	case st.handler != nil:
		return st.handler.TokenSource(ctx)
	}
	return st.initial, nil
}

func (h askingHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	s := h.s
	if !s.mayAskSignIn() {
		resp.Body.Close()
		s.mu.Lock()
		s.signInRefused = true
		s.mu.Unlock()
		return ErrNeedsSignIn
	}
	err := checkResourceMetadata(ctx, resp, req.URL.String())
	var handler *auth.AuthorizationCodeHandler
	if err == nil {
		handler, err = h.m.signInHandler(s, h.serverURL)
	}
	if err == nil {
		err = handler.Authorize(ctx, req, resp)
	} else {
		resp.Body.Close()
	}
	if err == nil || errors.Is(err, ErrSignInDeclined) || errors.Is(err, ErrNeedsSignIn) {
		return err
	}
	// The sign-in is over: later requests of this attempt (the SDK's
	// fallbacks) must not start another one and ask the person again.
	err = fmt.Errorf("%w: %s", ErrSignInFailed, describeSignInError(err))
	s.mu.Lock()
	s.signInRequested, s.signInFailure = false, err
	s.mu.Unlock()
	return err
}

// describeSignInError says why a sign-in failed, keeping the SDK's wording
// (which names the value that was refused) unless a request timed out. The
// SDK flattens some errors to text, so a timeout of the HTTP client is also
// recognised by net/http's wording.
func describeSignInError(err error) string {
	msg := err.Error()
	if isTimeout(err) || strings.Contains(msg, "Client.Timeout exceeded") {
		return "the authorization server did not answer in time"
	}
	return msg
}

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
		return fmt.Errorf("%w (then: %v)", ErrNeedsSignIn, err)
	}
	return err
}

// oauthHandler returns the session's OAuth handler for an HTTP server, or
// nil when the manager has no TokenStore (then servers that require sign-in
// fail with the server's 401). It is called at the start of every
// connection attempt.
func (m *Manager) oauthHandler(s *session, serverURL string) (auth.OAuthHandler, error) {
	if m.opts.Tokens == nil || m.opts.Asker == nil {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signInFailure, s.signInRefused = nil, false // a new attempt
	if s.oauth == nil {
		s.oauth = &oauthState{initial: m.savedTokenSource(s.srv.ID, serverURL)}
	}
	return askingHandler{m: m, s: s, serverURL: serverURL}, nil
}

// oauthHTTPClient makes Gatehouse's requests to authorization servers.
func oauthHTTPClient() *http.Client { return &http.Client{Timeout: oauthRequestTimeout} }

// savedTokenSource is the token kept for the server and resource, refreshed
// with the token endpoint and client it was issued by, or nil.
func (m *Manager) savedTokenSource(serverID, serverURL string) oauth2.TokenSource {
	saved, err := m.opts.Tokens.LoadToken(serverID, serverURL)
	if err != nil || saved == nil || saved.Token == nil {
		return nil
	}
	c := &oauth2.Config{ClientID: saved.ClientID, ClientSecret: saved.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: saved.TokenURL, AuthStyle: oauth2.AuthStyle(saved.AuthStyle)}}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, oauthHTTPClient())
	return m.savingTokenSource(serverID, saved, c.TokenSource(ctx, saved.Token))
}

// signInHandler returns the session's go-sdk handler, made at its first
// sign-in with the manager's loopback redirect.
func (m *Manager) signInHandler(s *session, serverURL string) (*auth.AuthorizationCodeHandler, error) {
	redirect, err := m.loopback()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.oauth == nil { // signed out since this attempt began
		s.oauth = &oauthState{}
	}
	if s.oauth.handler != nil {
		return s.oauth.handler, nil
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect.url(),
		AuthorizationCodeFetcher: m.codeFetcher(s, redirect),
		RequestRefreshToken:      true,
		// RFC 9207 section 2.4: an iss in the authorization response is
		// compared with the issuer whether or not the metadata advertised
		// it; a match is the right answer and is accepted, anything else
		// (and a missing iss where it was advertised) is refused.
		AcceptUnadvertisedIss: true,
		Client:                oauthHTTPClient(),
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:              "Gatehouse",
			RedirectURIs:            []string{redirect.url()},
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			TokenEndpointAuthMethod: "none",
		}},
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			saved := &SavedToken{Resource: serverURL, TokenURL: c.Endpoint.TokenURL, ClientID: c.ClientID,
				ClientSecret: c.ClientSecret, AuthStyle: int(c.Endpoint.AuthStyle), Token: tok}
			if err := m.opts.Tokens.SaveToken(s.srv.ID, saved); err != nil {
				m.opts.Logger.Warn("could not save the sign-in token", "server", s.srv.ID, "error", err)
			}
			return m.savingTokenSource(s.srv.ID, saved, c.TokenSource(ctx, tok)), nil
		},
		InitialTokenSource: s.oauth.initial,
	}
	if o := s.srv.HTTP.OAuth; o != nil {
		if o.ClientID != "" {
			cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: o.ClientID}
			if o.ClientSecret != "" {
				cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: o.ClientSecret}
			}
		}
		if o.ClientMetadataURL != "" {
			cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: o.ClientMetadataURL}
		}
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return nil, fmt.Errorf("setting up sign-in: %w", err)
	}
	s.oauth.handler = h
	return h, nil
}

// dropRedirect forgets a redirect whose port was taken, and the session's
// handler that registered it.
func (m *Manager) dropRedirect(r *loopbackRedirect, s *session) {
	m.mu.Lock()
	if m.redirect == r {
		m.redirect = nil
	}
	m.mu.Unlock()
	s.mu.Lock()
	s.oauth = nil
	s.mu.Unlock()
}

// loopback returns the manager's loopback redirect. Its port is chosen at
// the first sign-in and reused by later ones (clients registered it); it
// listens only while a sign-in waits for the browser.
func (m *Manager) loopback() (*loopbackRedirect, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errors.New("Gatehouse is closing")
	}
	if m.redirect == nil {
		r, err := newLoopbackRedirect()
		if err != nil {
			return nil, err
		}
		m.redirect = r
	}
	return m.redirect, nil
}

// savingTokenSource saves each new token base gives (after a refresh) in
// the store; saved, the token it starts from, is already there.
func (m *Manager) savingTokenSource(serverID string, saved *SavedToken, base oauth2.TokenSource) oauth2.TokenSource {
	return &savingSource{base: base, saved: *saved, last: saved.Token,
		save: func(t *SavedToken) error { return m.opts.Tokens.SaveToken(serverID, t) }}
}

type savingSource struct {
	mu    sync.Mutex
	base  oauth2.TokenSource
	saved SavedToken
	last  *oauth2.Token
	save  func(*SavedToken) error
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	t, err := s.base.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil || t.AccessToken != s.last.AccessToken {
		s.last = t
		s.saved.Token = t
		_ = s.save(&s.saved)
	}
	return t, nil
}

// codeFetcher asks the person to sign in: it shows the authorization URL in
// the consent display, and once they agreed (and the answerer opened it in
// the browser) waits for the loopback redirect.
func (m *Manager) codeFetcher(s *session, redirect *loopbackRedirect) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if !s.mayAskSignIn() {
			return nil, ErrNeedsSignIn
		}
		link, err := linkcheck.Check(args.URL)
		if err != nil {
			return nil, fmt.Errorf("the sign-in address is refused: %w", err)
		}
		u, _ := url.Parse(args.URL)
		state := u.Query().Get("state")
		if state == "" {
			return nil, errors.New("the sign-in address has no state parameter")
		}
		wait, err := redirect.listen(state)
		if errors.Is(err, errRedirectPortTaken) {
			m.dropRedirect(redirect, s) // the next sign-in registers a new port
		}
		if err != nil {
			return nil, err
		}
		defer wait.close()
		ok, err := m.opts.Asker.SignIn(ctx, m.peer(s), link)
		if err != nil {
			return nil, err
		}
		if !ok {
			s.mu.Lock()
			s.signInRequested, s.signInDeclined = false, true
			s.mu.Unlock()
			return nil, ErrSignInDeclined
		}
		return wait.result(ctx, SignInTimeout)
	}
}

// signInMessage says what a server that needs sign-in waits for.
func (s *session) signInMessage() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.signInFailure != nil {
		return "Signing in did not work: " + strings.TrimPrefix(s.signInFailure.Error(), ErrSignInFailed.Error()+": ") + ". Sign in to try again."
	}
	if s.signInDeclined {
		return "You did not sign in. Sign in to use this server."
	}
	return "This server needs you to sign in."
}

// ModeSignIn is the Request.Mode of a sign-in consent (not an elicitation:
// a server cannot send one).
const ModeSignIn = "signin"

// SignIn implements Asker: the sign-in consent is shown like a URL request,
// one dialog at a time, and recorded in the history. The person started it,
// so it spends no rate-limit token.
func (b *Broker) SignIn(ctx context.Context, peer Peer, link *linkcheck.Report) (bool, error) {
	now := b.opts.Now()
	where := link.Domain
	if where == "" {
		where = link.Host
	}
	msg := fmt.Sprintf("%s wants you to sign in at %s.", peer.Server.Name, where)
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: ModeSignIn, Message: msg, URL: link.URL}
	r := &Request{ID: newRequestID(), Peer: peer, Mode: ModeSignIn, Message: msg, Link: link, ReceivedAt: now, Deadline: now.Add(SignInTimeout)}
	pctx, cancel := context.WithDeadline(ctx, r.Deadline)
	defer cancel()
	pd := &pending{req: r, ctx: pctx, cancel: cancel, answer: make(chan Response, 1), free: true}
	if !b.admit(pd) {
		entry.Outcome = store.OutcomeRateLimited
		b.record(entry)
		return false, errors.New("too many requests from this server are waiting; answer them first")
	}
	var resp Response
	select {
	case resp = <-pd.answer:
	case <-pctx.Done():
		b.withdraw(pd)
		entry.Outcome = store.OutcomeCancelled
		b.record(b.withShown(entry, pd))
		return false, fmt.Errorf("the sign-in was not answered: %w", pctx.Err())
	}
	entry = b.withShown(entry, pd)
	switch resp.Action {
	case ActionAccept:
		entry.Outcome = store.OutcomeAccepted
	case ActionDecline:
		entry.Outcome = store.OutcomeDeclined
	default:
		entry.Outcome = store.OutcomeCancelled
	}
	b.record(entry)
	return resp.Action == ActionAccept, nil
}

// SignIn starts signing in to a server that needs it: the next connection
// attempt, made at once, may show the sign-in consent.
func (m *Manager) SignIn(id string) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.signInRequested, s.signInDeclined = true, false
	s.mu.Unlock()
	return m.Reconnect(id)
}

// SignOut deletes a server's tokens and connects again without them.
func (m *Manager) SignOut(id string) error {
	if m.opts.Tokens == nil {
		return errors.New("sign-in is not available")
	}
	if err := m.opts.Tokens.DeleteToken(id); err != nil {
		return fmt.Errorf("deleting the sign-in: %w", err)
	}
	if s, err := m.session(id); err == nil {
		s.mu.Lock()
		s.oauth = nil // forget the handler and its tokens in memory too
		s.mu.Unlock()
	}
	return m.Reconnect(id)
}

// mayAskSignIn reports whether a sign-in may be shown now: when the person
// asked for it, or for a server in use (step-up: more permissions for a
// call the person made).
func (s *session) mayAskSignIn() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.signInRequested || s.status.State == StateConnected
}

func (s *session) signInDone() {
	s.mu.Lock()
	s.signInRequested = false
	s.mu.Unlock()
}

// loopbackRedirect is the redirect URI of RFC 8252:
// http://127.0.0.1:PORT/callback, one per manager. The port is chosen at the
// first sign-in and listened on from then until that sign-in ends, so no
// other program can take it between the client registration (which names
// it) and the browser's return. Between sign-ins nothing listens; a later
// sign-in listens on the same port again, and if another program took it,
// that sign-in fails with a sentence and the next one picks a new port. It
// answers only a redirect that carries the state of a sign-in waiting now,
// once; anything else gets a page saying so.
type loopbackRedirect struct {
	port int

	mu    sync.Mutex
	srv   *http.Server             // nil while no sign-in waits
	waits map[string]*redirectWait // by state
}

// newLoopbackRedirect picks the port and listens on it at once: the first
// sign-in (which registers the redirect URI) follows immediately, so the
// port cannot be taken in between.
func newLoopbackRedirect() (*loopbackRedirect, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("no loopback port for the sign-in redirect: %w", err)
	}
	r := &loopbackRedirect{port: l.Addr().(*net.TCPAddr).Port, waits: map[string]*redirectWait{}}
	r.serveLocked(l)
	return r, nil
}

// serveLocked serves the callback on l. r.mu is held (or r is new).
func (r *loopbackRedirect) serveLocked(l net.Listener) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /callback", r.callback)
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func(srv *http.Server) { _ = srv.Serve(l) }(r.srv)
}

func (r *loopbackRedirect) url() string {
	return "http://127.0.0.1:" + strconv.Itoa(r.port) + "/callback"
}

// errRedirectPortTaken means another program took the redirect port while no
// sign-in waited; the next sign-in uses a new port.
var errRedirectPortTaken = errors.New("the sign-in redirect port was taken by another program; sign in again")

// close stops the listener.
func (r *loopbackRedirect) close() {
	r.mu.Lock()
	srv := r.srv
	r.srv = nil
	r.mu.Unlock()
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
}

func (r *loopbackRedirect) callback(rw http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	r.mu.Lock()
	w := r.waits[q.Get("state")]
	r.mu.Unlock()
	if w == nil || q.Get("state") == "" {
		page(rw, http.StatusBadRequest, "This sign-in answer is not the one Gatehouse is waiting for. Start the sign-in again from Gatehouse.")
		return
	}
	used := true
	w.once.Do(func() {
		used = false
		if e := q.Get("error"); e != "" {
			w.fail <- fmt.Errorf("the sign-in was refused: %s %s", e, q.Get("error_description"))
			return
		}
		w.got <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
	})
	if used {
		page(rw, http.StatusGone, "This sign-in answer was already used.")
		return
	}
	page(rw, http.StatusOK, "Gatehouse received your sign-in. You can close this tab and return to Gatehouse, which finishes it.")
}

// redirectWait is one sign-in's wait at the loopback redirect: it takes
// the first redirect that carries its state, once.
type redirectWait struct {
	r     *loopbackRedirect
	state string
	got   chan *auth.AuthorizationResult
	fail  chan error
	once  sync.Once
}

// listen starts waiting for the redirect of the sign-in whose authorization
// request carries state.
func (r *loopbackRedirect) listen(state string) (*redirectWait, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.waits[state]; dup {
		return nil, errors.New("a sign-in with the same state is already waiting")
	}
	if r.srv == nil { // listen again, on the port the client registered
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(r.port))
		if err != nil {
			return nil, fmt.Errorf("%w (port %d: %v)", errRedirectPortTaken, r.port, err)
		}
		r.serveLocked(l)
	}
	w := &redirectWait{r: r, state: state, got: make(chan *auth.AuthorizationResult, 1), fail: make(chan error, 1)}
	r.waits[state] = w
	return w, nil
}

// result waits for the redirect, the context, or the timeout.
func (w *redirectWait) result(ctx context.Context, timeout time.Duration) (*auth.AuthorizationResult, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case res := <-w.got:
		return res, nil
	case err := <-w.fail:
		return nil, err
	case <-timer.C:
		return nil, fmt.Errorf("the browser did not come back from the sign-in within %s", timeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// close ends the wait; the listener closes when no other sign-in waits, so
// the port is open only while the browser is expected back.
func (w *redirectWait) close() {
	w.r.mu.Lock()
	delete(w.r.waits, w.state)
	idle := len(w.r.waits) == 0
	w.r.mu.Unlock()
	if idle {
		w.r.close()
	}
}

// page answers the browser with a small page of plain text.
func page(w http.ResponseWriter, code int, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>Gatehouse</title><p style=\"font:16px system-ui;margin:3em\">%s</p>", html.EscapeString(text))
}

// checkResourceMetadata refuses to sign in to a server whose protected
// resource metadata (RFC 9728) is for another resource. The SDK skips such
// metadata, and when it finds no other it falls back to the 2025-03-26 rule
// (the server's own origin as authorization server), as if the server had
// published none; but metadata naming another resource must not be used at
// all (RFC 9728 section 3.3), so Gatehouse stops there, before any request
// to an authorization server. It looks where the SDK looks, in the same
// order (the challenge's resource_metadata, then the path-based and the root
// well-known URLs), and is satisfied by the first metadata for the right
// resource; metadata it cannot fetch or read is left to the SDK.
func checkResourceMetadata(ctx context.Context, resp *http.Response, serverURL string) error {
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return nil // the SDK reports it
	}
	metadataURL, bearerError := "", ""
	for _, c := range challenges {
		if metadataURL == "" {
			metadataURL = c.Params["resource_metadata"]
		}
		if c.Scheme == "bearer" && bearerError == "" {
			bearerError = c.Params["error"]
		}
	}
	if resp.StatusCode == http.StatusForbidden && bearerError != "insufficient_scope" {
		return nil // not a sign-in: the SDK retries the request as it is
	}
	var wrong []string
	tried := map[string]bool{}
	for _, c := range resourceMetadataCandidates(metadataURL, serverURL) {
		if tried[c.url] {
			continue // the challenge named the usual place
		}
		tried[c.url] = true
		resource, ok := fetchResourceMetadata(ctx, c.url)
		if !ok {
			continue
		}
		if resource == c.resource {
			return nil
		}
		wrong = append(wrong, fmt.Sprintf("%s is for %q", c.url, resource))
	}
	if len(wrong) == 0 {
		return nil
	}
	return fmt.Errorf("the server's protected resource metadata is for another resource than %s (%s); Gatehouse does not sign in with it",
		serverURL, strings.Join(wrong, "; "))
}

type metadataCandidate struct{ url, resource string }

// resourceMetadataCandidates lists where protected resource metadata for
// serverURL may be, with the resource each must name: the URL of the 401's
// challenge, then "/.well-known/oauth-protected-resource" with the server's
// path (for the server URL), then without it (for the origin).
func resourceMetadataCandidates(challengeURL, serverURL string) []metadataCandidate {
	var out []metadataCandidate
	if challengeURL != "" {
		out = append(out, metadataCandidate{challengeURL, serverURL})
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return out
	}
	wk := *u
	wk.Path, wk.RawPath = "/.well-known/oauth-protected-resource/"+strings.TrimLeft(u.Path, "/"), ""
	out = append(out, metadataCandidate{wk.String(), serverURL})
	wk.Path = "/.well-known/oauth-protected-resource"
	origin := *u
	origin.Path, origin.RawPath = "", ""
	return append(out, metadataCandidate{wk.String(), origin.String()})
}

// fetchResourceMetadata reads the resource a protected resource metadata
// document names; ok is false when there is no readable document at u. Like
// the SDK it fetches only https (or http on this computer) and only from
// public addresses, and it does not follow redirects.
func fetchResourceMetadata(ctx context.Context, u string) (resource string, ok bool) {
	if _, err := linkcheck.Check(u); err != nil { // https, or http on this computer
		return "", false
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", false
	}
	req.Header.Set("Accept", "application/json")
	client := metadataClient
	if proxy, _ := http.ProxyFromEnvironment(req); proxy != nil {
		client = proxiedMetadataClient // the address check would only see the proxy
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", false
	}
	var prm struct {
		Resource *string `json:"resource"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&prm); err != nil || prm.Resource == nil {
		return "", false
	}
	return *prm.Resource, true
}

// metadataClient fetches metadata from public addresses and this computer
// only, so a server cannot make Gatehouse reach into the local network.
var metadataClient = &http.Client{
	Timeout:       10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Transport: func() http.RoundTripper {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil
		t.DialContext = (&net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				host = address
			}
			ip, err := netip.ParseAddr(host)
			if err != nil || !(linkcheck.PublicIP(ip) || ip.Unmap().IsLoopback()) {
				return fmt.Errorf("metadata is not fetched from %s, which is not a public address", host)
			}
			return nil
		}}).DialContext
		return t
	}(),
}

var proxiedMetadataClient = &http.Client{
	Timeout:       10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}
