package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/oauthflow"
)

// MCP authorization (E33): remote servers may require OAuth 2.1. The flow
// itself (protected resource metadata, authorization server metadata,
// client registration, PKCE, the token exchange, refresh, step-up) is the
// go-sdk's auth.AuthorizationCodeHandler. Gatehouse adds what a desktop app
// must: the person's consent before anything is sent to the server's
// authorization server and before the browser opens (the same display as
// URL mode), a loopback redirect (RFC 8252, package oauthflow) that accepts
// one answer with the right state, tokens kept in a TokenStore bound to the
// server and its URL, every sign-in request kept to the addresses a sign-in
// may reach (oauthflow.NewClient), and no sign-in prompt out of the blue: a
// server that needs one, connected or not, waits in the "needs sign-in"
// state until the person asks to sign in.
//
// This file holds the sign-in types and errors and the Manager's side of
// sign-in (its handler, the loopback redirect, SignIn and SignOut): by
// concept, so the Manager's methods are in manager.go and here. A
// session's are in session.go; the person's consent is the Broker's
// (signin.go); the redirect is package oauthflow.

// ErrNeedsSignIn is the connection error of a server that requires sign-in
// which the person has not started.
var ErrNeedsSignIn = i18n.Err("mcp.signin.needed")

// ErrSignInDeclined is returned when the person chose not to sign in.
var ErrSignInDeclined = i18n.Err("mcp.signin.youDeclined")

// ErrSignInFailed wraps why a sign-in the person started did not complete:
// metadata that fails its checks, an authorization response from the wrong
// issuer, a token request that was refused, an authorization server that
// does not answer. Nothing is stored then, and the server waits in "needs
// sign-in" with the reason; it is not retried by itself.
var ErrSignInFailed = i18n.Err("mcp.signin.failedShort")

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
// session's first sign-in so that its tokens are used (and refreshed) until
// the session ends or the person signs out. The go-sdk registers a client
// again at each sign-in it runs (a step-up too); the handler does not keep
// the registration between them.
type oauthState struct {
	initial oauth2.TokenSource             // the saved token, until the handler exists
	handler *auth.AuthorizationCodeHandler // nil until the first sign-in
}

// askingHandler is the session's auth.OAuthHandler. Nothing of a sign-in
// (metadata discovery, client registration, the authorization request) is
// sent before the person has asked to sign in to the server and agreed to
// its consent: a 401, or a 403 asking for more scope, on a server the
// person has not asked to sign in to, connected or not, leaves it waiting
// in "needs sign-in" (issue 22).
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

// Authorize signs in when the person asked to: it asks their consent
// first, and only then lets the go-sdk handler discover, register and
// authorize, every request through oauthflow's guarded client. When they
// have not asked, the server waits in "needs sign-in" (a connected one
// drops its connection) and nothing is sent. A failure ends the attempt's
// sign-in with ErrSignInFailed and the reason.
func (h askingHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	// Only the status and headers are read: the body would hold the
	// connection while the person decides.
	resp.Body.Close()
	if !oauthflow.StartsSignIn(resp) {
		return nil // a 403 that asks for no more scope: the SDK retries as it is, and that answer stands
	}
	s := h.s
	s.mu.Lock()
	if s.signIns >= maxSignIns {
		// The server refuses the tokens it has just accepted sign-ins for:
		// signing in again would ask the person again, register again and
		// open another tab, for as long as the server kept refusing.
		err := &signInFailure{why: i18n.M("mcp.signin.refusedNew")}
		s.signInFailure = err
		s.mu.Unlock()
		return err
	}
	s.mu.Unlock()
	if !s.mayAskSignIn() {
		s.needSignIn(req, resp)
		return ErrNeedsSignIn
	}
	err := h.signIn(ctx, req, resp)
	if err == nil {
		s.mu.Lock()
		s.signIns++
		s.mu.Unlock()
		return nil
	}
	if errors.Is(err, ErrSignInDeclined) || errors.Is(err, ErrNeedsSignIn) {
		return err
	}
	// The sign-in is over: later requests of this attempt (the SDK's
	// fallbacks) must not start another one and ask the person again.
	err = &signInFailure{why: describeSignInError(err)}
	s.mu.Lock()
	s.signInRequested, s.signInFailure = false, err
	s.mu.Unlock()
	return err
}

// signIn is one sign-in the person asked for. Its consent names the
// server and its URL and comes before any request: the authorization
// server's sign-in page cannot be known before them, so the page the
// person agrees to open is Gatehouse's own start page on the loopback
// address, which sends the browser on to the sign-in page once the
// metadata and the registration are done (or says why they failed). One
// question, and the person's yes precedes every request.
func (h askingHandler) signIn(ctx context.Context, req *http.Request, resp *http.Response) error {
	m, s := h.m, h.s
	redirect, err := m.loopback()
	if err != nil {
		return err
	}
	wait, err := redirect.Begin()
	if errors.Is(err, oauthflow.ErrPortTaken) {
		m.dropRedirect(redirect, s) // the next sign-in registers a new port
	}
	if err != nil {
		return err
	}
	defer wait.Close()
	link, err := linkcheck.Check(wait.StartURL())
	if err != nil {
		return err
	}
	ok, err := m.opts.Asker.SignIn(ctx, m.peer(s), link)
	if err != nil {
		return err
	}
	if !ok {
		s.mu.Lock()
		s.signInRequested, s.signInDeclined = false, true
		s.mu.Unlock()
		wait.Stop(i18n.M("mcp.signin.youDeclined"))
		return ErrSignInDeclined
	}
	// The person agreed, and their browser was sent to the start page: from
	// here requests go out, each through oauthflow's guarded client.
	wait.Opened()
	err = oauthflow.CheckResourceMetadata(ctx, resp, req.URL.String())
	var handler *auth.AuthorizationCodeHandler
	if err == nil {
		handler, err = m.signInHandler(s, h.serverURL)
	}
	if err == nil {
		err = handler.Authorize(context.WithValue(ctx, signInWaitKey{}, wait), req, resp)
	}
	if err != nil {
		wait.Stop(describeSignInError(err))
	}
	return err
}

// maxSignIns bounds the sign-ins of one Sign in (one connection attempt):
// the second is for a server that moved to another authorization server
// right after the first (the MCP authorization specification's
// migration), and none comes after it.
const maxSignIns = 2

// signInWaitKey carries a sign-in's wait at the loopback address from
// askingHandler.signIn, through the go-sdk handler, to the code fetcher.
type signInWaitKey struct{}

// signInWait is the wait of the sign-in ctx belongs to, or nil.
func signInWait(ctx context.Context) *oauthflow.Wait {
	w, _ := ctx.Value(signInWaitKey{}).(*oauthflow.Wait)
	return w
}

// describeSignInError says why a sign-in failed: a request the guarded
// client refused, in its own words; a request that timed out; else the
// SDK's wording (which names the value that was refused). The SDK flattens
// some errors to text, so a timeout of the HTTP client is also recognised
// by net/http's wording, with or without its "Client.Timeout" note (which
// net/http leaves out when the request's deadline fires before its timer).
func describeSignInError(err error) i18n.Message {
	if why, ok := oauthflow.Refusal(err); ok {
		return why
	}
	msg := err.Error()
	if isTimeout(err) || errors.Is(err, context.DeadlineExceeded) ||
		strings.Contains(msg, "Client.Timeout exceeded") || strings.Contains(msg, context.DeadlineExceeded.Error()) {
		return i18n.M("mcp.signin.timeout")
	}
	if m, ok := i18n.MessageOf(err); ok {
		return m
	}
	return i18n.Text(oauthflow.ServerLine(msg)) // may hold a token endpoint's answer: one short line
}

// signInFailure is a sign-in that failed, and why; it matches
// ErrSignInFailed with errors.Is.
type signInFailure struct{ why i18n.Message }

func (e *signInFailure) Error() string {
	return i18n.M("mcp.signin.failedBecause", "detail", e.why).String()
}

func (e *signInFailure) Unwrap() error { return ErrSignInFailed }

// oauthHTTPClient makes Gatehouse's requests to the authorization server of
// the MCP server at serverURL, and for its metadata: every one guarded (see
// oauthflow.NewClient), refreshes of saved tokens included.
func oauthHTTPClient(serverURL string) *http.Client {
	return oauthflow.NewClient(serverURL, oauthRequestTimeout)
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
	s.signInFailure, s.signInRefused, s.signIns = nil, false, 0 // a new attempt
	select {
	case <-s.signInNeeded: // from the last connection
	default:
	}
	if s.oauth == nil {
		s.oauth = &oauthState{initial: m.savedTokenSource(s.srv.ID, serverURL)}
	}
	return askingHandler{m: m, s: s, serverURL: serverURL}, nil
}

// savedTokenSource is the token kept for the server and resource, refreshed
// with the token endpoint and client it was issued by, or nil.
func (m *Manager) savedTokenSource(serverID, serverURL string) oauth2.TokenSource {
	saved, err := m.opts.Tokens.LoadToken(serverID, serverURL)
	if err != nil || saved == nil || saved.Token == nil {
		return nil
	}
	c := &oauth2.Config{ClientID: saved.ClientID, ClientSecret: saved.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: saved.TokenURL, AuthStyle: oauth2.AuthStyle(saved.AuthStyle)}}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, oauthHTTPClient(serverURL))
	return m.savingTokenSource(serverID, m.signOutsOf(serverID), saved, c.TokenSource(ctx, saved.Token))
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
	signOuts := m.signOutsOf(s.srv.ID) // a Sign out during this sign-in keeps its token out
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect.URL(),
		AuthorizationCodeFetcher: m.codeFetcher(s),
		RequestRefreshToken:      true,
		// RFC 9207 section 2.4: an iss in the authorization response is
		// compared with the issuer whether or not the metadata advertised
		// it; a match is the right answer and is accepted, anything else
		// (and a missing iss where it was advertised) is refused.
		AcceptUnadvertisedIss: true,
		Client:                oauthHTTPClient(serverURL),
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:              "Gatehouse",
			RedirectURIs:            []string{redirect.URL()},
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			TokenEndpointAuthMethod: "none",
		}},
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			saved := &SavedToken{Resource: serverURL, TokenURL: c.Endpoint.TokenURL, ClientID: c.ClientID,
				ClientSecret: c.ClientSecret, AuthStyle: int(c.Endpoint.AuthStyle), Token: tok}
			if err := m.saveToken(s.srv.ID, signOuts, saved); err != nil {
				m.opts.Logger.Warn("could not save the sign-in token", "server", s.srv.ID, "error", err)
			}
			return m.savingTokenSource(s.srv.ID, signOuts, saved, c.TokenSource(ctx, tok)), nil
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
func (m *Manager) dropRedirect(r *oauthflow.Redirect, s *session) {
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
func (m *Manager) loopback() (*oauthflow.Redirect, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, i18n.Err("mcp.error.closing")
	}
	if m.redirect == nil {
		r, err := oauthflow.NewRedirect()
		if err != nil {
			return nil, err
		}
		m.redirect = r
	}
	return m.redirect, nil
}

// signOutsOf is how many times the server was signed out of (or removed):
// a token got under one count is not saved under another (saveToken).
func (m *Manager) signOutsOf(serverID string) int {
	m.tokenMu.Lock()
	defer m.tokenMu.Unlock()
	return m.signOuts[serverID]
}

// saveToken saves a server's sign-in token got while the server had been
// signed out of signOuts times; none when it has been signed out of (or
// removed) since: a refresh on its way does not undo a Sign out.
func (m *Manager) saveToken(serverID string, signOuts int, t *SavedToken) error {
	m.tokenMu.Lock()
	defer m.tokenMu.Unlock()
	if m.signOuts[serverID] != signOuts {
		return nil
	}
	return m.opts.Tokens.SaveToken(serverID, t)
}

// forgetTokens counts a sign-out of the server, so that no token on its
// way is saved after it, and deletes its sign-in tokens when del is set
// (Remove leaves that to its caller, with the server's other secrets).
func (m *Manager) forgetTokens(serverID string, del bool) error {
	m.tokenMu.Lock()
	defer m.tokenMu.Unlock()
	if m.signOuts == nil {
		m.signOuts = map[string]int{}
	}
	m.signOuts[serverID]++
	if !del || m.opts.Tokens == nil {
		return nil
	}
	return m.opts.Tokens.DeleteToken(serverID)
}

// savingTokenSource saves each new token base gives (after a refresh) in
// the store, unless the server was signed out of since it had been
// signed out of signOuts times; saved, the token it starts from, is
// already there.
func (m *Manager) savingTokenSource(serverID string, signOuts int, saved *SavedToken, base oauth2.TokenSource) oauth2.TokenSource {
	kept := *saved
	return oauthflow.SavingTokenSource(base, saved.Token, func(t *oauth2.Token) {
		kept.Token = t
		if err := m.saveToken(serverID, signOuts, &kept); err != nil {
			m.opts.Logger.Warn("could not save the refreshed sign-in token", "server", serverID, "error", err)
		}
	})
}

// codeFetcher sends the person's browser, waiting at the sign-in's start
// page since they agreed (askingHandler.signIn), on to the authorization
// URL once it passed linkcheck, and waits for the loopback redirect.
func (m *Manager) codeFetcher(s *session) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		wait := signInWait(ctx)
		if wait == nil || !s.mayAskSignIn() {
			return nil, ErrNeedsSignIn
		}
		link, err := linkcheck.Check(args.URL)
		if err != nil {
			return nil, fmt.Errorf("the sign-in address is refused: %w", err)
		}
		u, _ := url.Parse(link.URL)
		serverURL := ""
		if s.srv.HTTP != nil {
			serverURL = s.srv.HTTP.URL
		}
		if err := oauthflow.CheckBrowserAddress(ctx, serverURL, u); err != nil {
			return nil, fmt.Errorf("the sign-in address is refused: %w", err)
		}
		state := u.Query().Get("state")
		if state == "" {
			return nil, errors.New("the sign-in address has no state parameter")
		}
		if err := wait.Expect(state); err != nil {
			return nil, err
		}
		wait.Proceed(link.URL)
		return wait.Result(ctx, SignInTimeout)
	}
}

// SignIn starts signing in to a server that needs it: the next connection
// attempt, made at once, may show the sign-in consent.
func (m *Manager) SignIn(id string) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.signInPending, s.signInDeclined = true, false
	s.mu.Unlock()
	return m.Reconnect(id)
}

// SignOut deletes a server's tokens and connects again without them.
func (m *Manager) SignOut(id string) error {
	if m.opts.Tokens == nil {
		return i18n.Err("mcp.signin.unavailable")
	}
	if err := m.forgetTokens(id, true); err != nil {
		return fmt.Errorf("deleting the sign-in: %w", err)
	}
	if s, err := m.session(id); err == nil {
		s.mu.Lock()
		s.oauth, s.stepUp = nil, nil // forget the handler and its tokens in memory too
		s.mu.Unlock()
	}
	return m.Reconnect(id)
}
