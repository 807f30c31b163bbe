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

	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/oauthflow"
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
	err := oauthflow.CheckResourceMetadata(ctx, resp, req.URL.String())
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
		RedirectURL:              redirect.URL(),
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
			RedirectURIs:            []string{redirect.URL()},
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
		return nil, errors.New("Gatehouse is closing")
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

// savingTokenSource saves each new token base gives (after a refresh) in
// the store; saved, the token it starts from, is already there.
func (m *Manager) savingTokenSource(serverID string, saved *SavedToken, base oauth2.TokenSource) oauth2.TokenSource {
	kept := *saved
	return oauthflow.SavingTokenSource(base, saved.Token, func(t *oauth2.Token) {
		kept.Token = t
		if err := m.opts.Tokens.SaveToken(serverID, &kept); err != nil {
			m.opts.Logger.Warn("could not save the refreshed sign-in token", "server", serverID, "error", err)
		}
	})
}

// codeFetcher asks the person to sign in: it shows the authorization URL in
// the consent display, and once they agreed (and the answerer opened it in
// the browser) waits for the loopback redirect.
func (m *Manager) codeFetcher(s *session, redirect *oauthflow.Redirect) auth.AuthorizationCodeFetcher {
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
		wait, err := redirect.Listen(state)
		if errors.Is(err, oauthflow.ErrPortTaken) {
			m.dropRedirect(redirect, s) // the next sign-in registers a new port
		}
		if err != nil {
			return nil, err
		}
		defer wait.Close()
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
		return wait.Result(ctx, SignInTimeout)
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
