package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/oauth2"

	"github.com/gatehouse-app/gatehouse/mcp/oauthtest"
	"github.com/gatehouse-app/gatehouse/oauthflow"
	"github.com/gatehouse-app/gatehouse/store"
)

// memTokens is an in-memory TokenStore; the app's keyring and data-file
// stores are tested in app/.
type memTokens struct {
	mu     sync.Mutex
	tokens map[string]*SavedToken
	saves  int
}

func (m *memTokens) LoadToken(id, resource string) (*SavedToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tokens[id]
	if t == nil || t.Resource != resource {
		return nil, nil
	}
	c := *t
	return &c, nil
}

func (m *memTokens) SaveToken(id string, t *SavedToken) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := *t
	m.tokens[id] = &c
	m.saves++
	return nil
}

func (m *memTokens) DeleteToken(id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.tokens, id)
	return nil
}

// browse does what a browser does with the authorization URL: follows the
// redirects, here from the test authorization server (which approves at
// once) to Gatehouse's loopback redirect.
func browse(t *testing.T, u string) string {
	resp, err := http.Get(u)
	if err != nil {
		t.Errorf("browser: %v", err)
		return ""
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	n, _ := resp.Body.Read(buf)
	b.Write(buf[:n])
	return b.String()
}

type oauthHarness struct {
	*elicitHarness
	tokens *memTokens
	peer   *oauthtest.Server
	pages  chan string
}

func newOAuthHarness(t *testing.T, lifetime time.Duration, answer string) *oauthHarness {
	t.Helper()
	return newOAuthHarnessWith(t, oauthtest.Options{TokenLifetime: lifetime}, answer)
}

// newOAuthHarnessWith runs the test authorization server with opts; the
// answerer gives answer to every sign-in consent (and opens the browser when
// it accepts).
func newOAuthHarnessWith(t *testing.T, opts oauthtest.Options, answer string) *oauthHarness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	peer, err := oauthtest.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	tokens := &memTokens{tokens: map[string]*SavedToken{}}
	pages := make(chan string, 10)
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ans := newScripted(func(r *Question) (Response, bool) {
		if r.Kind != KindSignIn {
			return Response{Action: ActionCancel}, true
		}
		if answer == ActionAccept {
			go func() { pages <- browse(t, r.Link.URL) }() // the browser the answerer opened
		}
		return Response{Action: answer}, true
	})
	broker := NewBroker(BrokerOptions{Answerer: ans, Store: st})
	m := NewManager(Options{ClientName: "gatehouse-test", Asker: broker, Tokens: tokens})
	t.Cleanup(func() { m.Close(); st.Close() })
	return &oauthHarness{elicitHarness: &elicitHarness{m: m, st: st, ans: ans, broker: broker}, tokens: tokens, peer: peer, pages: pages}
}

func (h *oauthHarness) addServer(t *testing.T, name, url string) store.Server {
	t.Helper()
	return h.addServerWith(t, name, url, nil)
}

// addServerWith adds an HTTP server with sign-in client settings.
func (h *oauthHarness) addServerWith(t *testing.T, name, url string, oauth *store.OAuthConfig) store.Server {
	t.Helper()
	srv, err := h.st.PutServer(store.Server{Name: name, Enabled: true, Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: url, OAuth: oauth}})
	if err != nil {
		t.Fatal(err)
	}
	h.m.Set(srv)
	return srv
}

// signIn waits for the server to need sign-in (without asking), presses
// Sign in, and waits for the outcome: connected, or needing sign-in again.
func (h *oauthHarness) signIn(t *testing.T, srv store.Server) Status {
	t.Helper()
	asked := h.ans.shownCount()
	before := waitState(t, h.m, srv.ID, StateNeedsSignIn)
	if n := h.ans.shownCount(); n != asked {
		t.Fatalf("a server asked to sign in before the person did (%d consents)", n-asked)
	}
	if err := h.m.SignIn(srv.ID); err != nil {
		t.Fatal(err)
	}
	var st Status
	waitFor(t, "the sign-in's outcome", 30*time.Second, func() bool {
		st, _ = h.m.Status(srv.ID)
		return st.Attempts > before.Attempts && (st.State == StateConnected || st.State == StateNeedsSignIn || st.State == StateError)
	})
	return st
}

func waitState(t *testing.T, m *Manager, id string, want State) Status {
	t.Helper()
	var st Status
	waitFor(t, "state "+string(want), 30*time.Second, func() bool {
		st, _ = m.Status(id)
		return st.State == want
	})
	return st
}

// TestOAuth_SignIn_E33: a server that requires sign-in waits in "needs
// sign-in" without asking; Sign in shows the consent with the server's name
// and the authorization server's domain, the browser comes back to the
// loopback redirect, and calls work. The token is kept, refreshed when it
// expires, reused after a restart, and deleted by Sign out.
func TestOAuth_SignIn_E33(t *testing.T) {
	// A 1 s token is already "expired" for oauth2 (10 s early expiry), so
	// every use refreshes it.
	h := newOAuthHarness(t, time.Second, ActionAccept)
	srv := h.addServer(t, "Protected", h.peer.URL)

	st := waitState(t, h.m, srv.ID, StateNeedsSignIn)
	if h.ans.shownCount() != 0 || !strings.Contains(st.Message.String(), "sign in") {
		t.Fatalf("a server must not ask to sign in unprompted: shown %d, %q", h.ans.shownCount(), st.Message)
	}
	if err := h.m.SignIn(srv.ID); err != nil {
		t.Fatal(err)
	}
	waitState(t, h.m, srv.ID, StateConnected)
	shown := h.ans.shown[0]
	if shown.Kind != KindSignIn || shown.Message != "Protected wants you to sign in at 127.0.0.1." || !shown.Link.Loopback {
		t.Errorf("consent = %+v", shown)
	}
	if page := <-h.pages; !strings.Contains(page, "Gatehouse received your sign-in") {
		t.Errorf("the browser page after the redirect: %q", page)
	}
	if got := h.call(t, srv, "whoami", nil); got != "signed in" {
		t.Errorf("whoami = %q", got)
	}
	c := h.peer.Counts()
	if c.Registrations != 1 || c.TokenGrants != 1 || c.Refreshes < 1 {
		t.Errorf("counts = %+v; want one registration, one code grant, refreshes", c)
	}
	saved, _ := h.tokens.LoadToken(srv.ID, h.peer.URL)
	if saved == nil || saved.ClientID == "" || saved.TokenURL != h.peer.Issuer+"/token" {
		t.Fatalf("saved token = %+v", saved)
	}

	// A restart: a new manager with the same token store connects without asking.
	m2 := NewManager(Options{ClientName: "gatehouse-test", Asker: h.broker, Tokens: h.tokens})
	defer m2.Close()
	m2.Set(srv)
	waitState(t, m2, srv.ID, StateConnected)
	if n := h.ans.shownCount(); n != 1 {
		t.Errorf("the restart asked to sign in again (%d consents)", n)
	}
	m2.Close()

	// Sign out deletes the token; the server needs sign-in again.
	if err := h.m.SignOut(srv.ID); err != nil {
		t.Fatal(err)
	}
	waitState(t, h.m, srv.ID, StateNeedsSignIn)
	if saved, _ := h.tokens.LoadToken(srv.ID, h.peer.URL); saved != nil {
		t.Error("sign out left the token")
	}
}

// TestOAuth_Declined_E33: declining the sign-in leaves the server waiting,
// says so, and stores nothing.
func TestOAuth_Declined_E33(t *testing.T) {
	h := newOAuthHarness(t, time.Hour, ActionDecline)
	srv := h.addServer(t, "Protected", h.peer.URL)
	waitState(t, h.m, srv.ID, StateNeedsSignIn)
	if err := h.m.SignIn(srv.ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the consent", 10*time.Second, func() bool { return h.ans.shownCount() == 1 })
	waitFor(t, "the declined state", 10*time.Second, func() bool {
		st, _ := h.m.Status(srv.ID)
		return st.State == StateNeedsSignIn && strings.Contains(st.Message.String(), "did not sign in")
	})
	time.Sleep(200 * time.Millisecond)
	if h.ans.shownCount() != 1 || h.peer.Counts().Authorizations != 0 || len(h.tokens.tokens) != 0 {
		t.Errorf("after declining: shown %d, counts %+v, tokens %d", h.ans.shownCount(), h.peer.Counts(), len(h.tokens.tokens))
	}
}

// TestOAuth_TokenForAnotherResource_E33: a token is loaded only for the
// resource it was issued for, and the resource server refuses it elsewhere.
func TestOAuth_TokenForAnotherResource_E33(t *testing.T) {
	h := newOAuthHarness(t, time.Hour, ActionAccept)
	srv := h.addServer(t, "Protected", h.peer.URL)
	waitState(t, h.m, srv.ID, StateNeedsSignIn)
	if err := h.m.SignIn(srv.ID); err != nil {
		t.Fatal(err)
	}
	waitState(t, h.m, srv.ID, StateConnected)
	saved, _ := h.tokens.LoadToken(srv.ID, h.peer.URL)

	// The same server pointed at another resource: the token is not sent.
	moved := *srv.HTTP
	moved.URL = h.peer.OtherURL
	srv.HTTP = &moved
	if _, err := h.st.PutServer(srv); err != nil {
		t.Fatal(err)
	}
	h.m.Set(srv)
	waitState(t, h.m, srv.ID, StateNeedsSignIn)

	// And the resource server refuses it there.
	req, _ := http.NewRequest(http.MethodPost, h.peer.OtherURL, strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+saved.Token.AccessToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("token for another audience: %s", resp.Status)
	}
}

// TestOAuth_RefusesNonHTTPSAuthorization_E33: an authorization endpoint that
// is not https (other than this computer) is refused before anything is shown.
func TestOAuth_RefusesNonHTTPSAuthorization_E33(t *testing.T) {
	h := newOAuthHarness(t, time.Hour, ActionAccept)
	s := &session{m: h.m, srv: store.Server{ID: "x", Name: "X"}, signInRequested: true}
	r, err := oauthflow.NewRedirect()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	wait, err := r.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer wait.Close()
	fetch := h.m.codeFetcher(s)
	ctx := context.WithValue(context.Background(), signInWaitKey{}, wait)
	for _, u := range []string{"http://auth.example/authorize?state=s", "javascript:alert(1)", "https://user@auth.example/authorize?state=s"} {
		if _, err := fetch(ctx, &auth.AuthorizationArgs{URL: u}); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("%s: %v", u, err)
		}
	}
	// The person's browser is not sent into their own network or computer
	// on a remote server's say-so: the person was shown the server's host.
	for i, u := range []string{"https://192.168.1.1/apply.cgi?reboot=1", "http://127.0.0.1:631/admin?op=purge", "https://localhost/authorize",
		"https://[fd00::1]/authorize", "https://10.0.0.1/authorize"} {
		short, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := fetch(short, &auth.AuthorizationArgs{URL: fmt.Sprintf("%s&state=private-%d", strings.Replace(u, "authorize", "authorize?x=1", 1), i)})
		cancel()
		if err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("%s: %v", u, err)
		}
	}
	// Without a sign-in the person agreed to, nothing is fetched at all.
	if _, err := fetch(context.Background(), &auth.AuthorizationArgs{URL: "https://auth.example/authorize?state=s"}); !errors.Is(err, ErrNeedsSignIn) {
		t.Errorf("without a wait: %v", err)
	}
	if h.ans.shownCount() != 0 {
		t.Error("a refused sign-in address was shown")
	}

}

// TestOAuth_SignInRefused_E33: a sign-in whose metadata or authorization
// response fails a check stops at that check, says why, stores nothing, and
// leaves the server waiting for the person: it is neither retried nor asked
// again by itself, and the SDK's fallbacks (initialize after
// server/discover) do not start a second sign-in.
func TestOAuth_SignInRefused_E33(t *testing.T) {
	defer func(d time.Duration) { oauthRequestTimeout = d }(oauthRequestTimeout)
	oauthRequestTimeout = 500 * time.Millisecond // for the authorization server that never answers

	evil := func(string) string { return "https://evil.example" }
	for _, tc := range []struct {
		name string
		opts oauthtest.Options
		// want is in the status message; authorizations is how often the
		// browser reached the authorization endpoint (once when the
		// refusal comes after it). The person is asked once either way,
		// before anything is sent.
		want           string
		authorizations int
	}{
		{"iss of another issuer (RFC 9207)", oauthtest.Options{AdvertiseIss: true, RedirectIss: evil},
			`authorization response issuer "https://evil.example" does not match expected issuer`, 1},
		{"iss that matches only once normalized", oauthtest.Options{AdvertiseIss: true, RedirectIss: func(iss string) string { return iss + "/" }},
			`/" does not match expected issuer`, 1},
		{"iss advertised but missing", oauthtest.Options{AdvertiseIss: true},
			"advertises RFC 9207 iss parameter support but none was received", 1},
		{"unadvertised iss of another issuer", oauthtest.Options{RedirectIss: evil},
			`authorization response issuer "https://evil.example" does not match`, 1},
		{"metadata naming another issuer (RFC 8414 3.3)", oauthtest.Options{MetadataIssuer: "https://attacker.example"},
			`metadata issuer "https://attacker.example" does not match issuer URL`, 0},
		{"authorization endpoint over http", oauthtest.Options{AuthorizationEndpoint: "http://auth.example/authorize"},
			`"http://auth.example/authorize" does not use HTTPS`, 0},
		{"protected resource metadata for another resource (RFC 9728 3.3)", oauthtest.Options{Resource: "https://evil.example/mcp"},
			`is for "https://evil.example/mcp"); Gatehouse does not sign in with it`, 0},
		{"authorization server that never answers", oauthtest.Options{Unresponsive: true},
			"the authorization server did not answer in time", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newOAuthHarnessWith(t, tc.opts, ActionAccept)
			srv := h.addServer(t, "Protected", h.peer.URL)
			st := h.signIn(t, srv)
			if st.State != StateNeedsSignIn || !strings.Contains(st.Message.String(), tc.want) || !strings.HasPrefix(st.Message.String(), "Signing in did not work: ") ||
				!strings.HasSuffix(st.Message.String(), "Sign in to try again.") || !errors.Is(st.Err(), ErrSignInFailed) {
				t.Fatalf("status %s %q (%v); want needs sign-in saying %q", st.State, st.Message, st.Err(), tc.want)
			}
			// Nothing is retried by itself: the state holds and nobody is asked again.
			time.Sleep(1500 * time.Millisecond)
			if st2, _ := h.m.Status(srv.ID); st2.State != StateNeedsSignIn || st2.Attempts != st.Attempts {
				t.Errorf("after the refusal: %s, %d attempts (was %d)", st2.State, st2.Attempts, st.Attempts)
			}
			c := h.peer.Counts()
			if n := h.ans.shownCount(); n != 1 || c.Authorizations != tc.authorizations {
				t.Errorf("consents %d, authorization requests %d; want 1, %d", n, c.Authorizations, tc.authorizations)
			}
			if c.TokenGrants != 0 || len(h.tokens.tokens) != 0 || h.tokens.saves != 0 {
				t.Errorf("a refused sign-in got or kept a token: counts %+v, %d saved", c, h.tokens.saves)
			}
			if tc.authorizations == 0 && c.Registrations != 0 {
				t.Errorf("registered a client (%d) with an authorization server that failed its checks", c.Registrations)
			}
			// The browser, sent to the start page when the person agreed,
			// is told too.
			if page := <-h.pages; tc.authorizations == 0 && !strings.Contains(page, "Signing in did not work") {
				t.Errorf("the browser page: %q", page)
			}
			if err := h.m.WaitConnected(context.Background(), srv.ID); !errors.Is(err, ErrNeedsSignIn) {
				t.Errorf("WaitConnected = %v", err)
			}
		})
	}
}

// TestOAuth_IssAccepted_E33: an authorization response whose iss is the
// issuer is accepted, advertised or not (RFC 9207 section 2.4), as is one
// without iss from a server that does not advertise it.
func TestOAuth_IssAccepted_E33(t *testing.T) {
	same := func(iss string) string { return iss }
	for _, tc := range []struct {
		name string
		opts oauthtest.Options
	}{
		{"advertised and sent", oauthtest.Options{AdvertiseIss: true, RedirectIss: same}},
		{"sent without being advertised", oauthtest.Options{RedirectIss: same}},
		{"neither", oauthtest.Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newOAuthHarnessWith(t, tc.opts, ActionAccept)
			srv := h.addServer(t, "Protected", h.peer.URL)
			if st := h.signIn(t, srv); st.State != StateConnected {
				t.Fatalf("status %s %q", st.State, st.Message)
			}
			if got := h.call(t, srv, "whoami", nil); got != "signed in" {
				t.Errorf("whoami = %q", got)
			}
		})
	}
}

// TestOAuth_HandshakeWithoutToken_E33: a server that lets the handshake
// through without a token and protects everything else needs sign-in like
// any other (not "connected" with nothing listed), also when the SDK's
// server/discover met the 401 and its initialize fallback went through.
// Signing in happens during the listing, which the person's Sign in covers.
func TestOAuth_HandshakeWithoutToken_E33(t *testing.T) {
	for _, tc := range []struct {
		name string
		open []string
	}{
		{"initialize open, server/discover protected", []string{"initialize", "notifications/initialized"}},
		{"server/discover and initialize open", []string{"server/discover", "initialize", "notifications/initialized"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newOAuthHarnessWith(t, oauthtest.Options{Unprotected: tc.open}, ActionAccept)
			srv := h.addServer(t, "Protected", h.peer.URL)
			st := h.signIn(t, srv)
			if st.State != StateConnected || st.Tools != 2 {
				t.Fatalf("status %s %q with %d tools; want connected with whoami and admin", st.State, st.Message, st.Tools)
			}
			if n, c := h.ans.shownCount(), h.peer.Counts(); n != 1 || c.Authorizations != 1 || c.TokenGrants != 1 {
				t.Errorf("consents %d, counts %+v; want one sign-in", n, c)
			}
			if got := h.call(t, srv, "whoami", nil); got != "signed in" {
				t.Errorf("whoami = %q", got)
			}
		})
	}
}

// TestOAuth_StepUp_E33: on a connected server, a call answered 403
// insufficient_scope fails saying the server needs sign-in, and the server
// waits in "needs sign-in" without asking (issue 22: nothing is sent for a
// sign-in the person did not ask for). When they press Sign in, the consent
// comes first, then the challenged scope is authorized together with those
// granted before (SEP-2350); the call then goes through and the new token
// is kept.
func TestOAuth_StepUp_E33(t *testing.T) {
	h := newOAuthHarnessWith(t, oauthtest.Options{}, ActionAccept)
	srv := h.addServer(t, "Protected", h.peer.URL)
	if st := h.signIn(t, srv); st.State != StateConnected {
		t.Fatalf("status %s %q", st.State, st.Message)
	}
	first, _ := h.tokens.LoadToken(srv.ID, h.peer.URL)
	before := h.peer.Counts()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := h.m.CallTool(ctx, srv.ID, "admin", nil); !errors.Is(err, ErrNeedsSignIn) {
		t.Fatalf("admin without the scope: %v; want needs sign-in", err)
	}
	if n := h.ans.shownCount(); n != 1 {
		t.Fatalf("the step-up asked the person by itself (%d consents)", n)
	}
	// Sign in at once, as the command line does: the press is not lost to
	// the connection that is still ending.
	if err := h.m.SignIn(srv.ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the step-up's sign-in", 30*time.Second, func() bool {
		st, _ := h.m.Status(srv.ID)
		return h.ans.shownCount() == 2 && st.State == StateConnected
	})
	if c := h.peer.Counts(); c.MetadataRequests != before.MetadataRequests+1 {
		t.Errorf("counts before %+v, after %+v; want one sign-in more", before, c)
	}
	if got := h.call(t, srv, "admin", nil); got != "admin" {
		t.Errorf("admin = %q", got)
	}
	reqs := h.peer.AuthorizationRequests()
	if h.ans.shownCount() != 2 || len(reqs) != 2 {
		t.Fatalf("consents %d, authorization requests %+v; want a second sign-in for the step-up", h.ans.shownCount(), reqs)
	}
	if got := strings.Fields(reqs[1].Scope); !slices.Contains(got, "tools") || !slices.Contains(got, oauthtest.AdminScope) {
		t.Errorf("step-up scope %q; want the granted tools and the challenged admin", reqs[1].Scope)
	}
	if reqs[1].Resource != h.peer.URL {
		t.Errorf("step-up resource %q", reqs[1].Resource)
	}
	if saved, _ := h.tokens.LoadToken(srv.ID, h.peer.URL); saved == nil || saved.Token.AccessToken == first.Token.AccessToken {
		t.Error("the stepped-up token was not kept")
	}
}

// TestOAuth_ClientSettings_E33: the client Gatehouse signs in as: a client
// ID metadata document when the authorization server supports it, else the
// pre-registered client, else dynamic registration; a client with a secret
// authenticates at the token endpoint the way the server supports, for the
// code and for refreshes.
func TestOAuth_ClientSettings_E33(t *testing.T) {
	const cimd = "https://gatehouse.example/oauth/client.json"
	pre := map[string]string{"gatehouse-desktop": "s3cret"}
	for _, tc := range []struct {
		name         string
		opts         oauthtest.Options
		cfg          *store.OAuthConfig
		wantClientID string // "" for a registered one
		wantAuth     string
	}{
		{"pre-registered, client_secret_basic",
			oauthtest.Options{Preregistered: pre, NoRegistration: true, TokenAuthMethods: []string{"client_secret_basic"}},
			&store.OAuthConfig{ClientID: "gatehouse-desktop", ClientSecret: "s3cret"}, "gatehouse-desktop", "client_secret_basic"},
		{"pre-registered, client_secret_post",
			oauthtest.Options{Preregistered: pre, NoRegistration: true, TokenAuthMethods: []string{"client_secret_post"}},
			&store.OAuthConfig{ClientID: "gatehouse-desktop", ClientSecret: "s3cret"}, "gatehouse-desktop", "client_secret_post"},
		{"pre-registered before dynamic registration",
			oauthtest.Options{Preregistered: pre, TokenAuthMethods: []string{"client_secret_basic", "none"}},
			&store.OAuthConfig{ClientID: "gatehouse-desktop", ClientSecret: "s3cret", ClientMetadataURL: cimd}, "gatehouse-desktop", "client_secret_basic"},
		{"client ID metadata document when supported",
			oauthtest.Options{ClientIDMetadataDocuments: true},
			&store.OAuthConfig{ClientMetadataURL: cimd}, cimd, "none"},
		{"dynamic registration when the metadata document is not supported",
			oauthtest.Options{},
			&store.OAuthConfig{ClientMetadataURL: cimd}, "", "none"},
		{"dynamic registration with a secret, client_secret_basic",
			oauthtest.Options{TokenAuthMethods: []string{"client_secret_basic"}},
			nil, "", "client_secret_basic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.TokenLifetime = time.Second // every use refreshes
			h := newOAuthHarnessWith(t, tc.opts, ActionAccept)
			srv := h.addServerWith(t, "Protected", h.peer.URL, tc.cfg)
			if st := h.signIn(t, srv); st.State != StateConnected {
				t.Fatalf("status %s %q", st.State, st.Message)
			}
			if got := h.call(t, srv, "whoami", nil); got != "signed in" {
				t.Errorf("whoami = %q", got)
			}
			c, reqs := h.peer.Counts(), h.peer.AuthorizationRequests()
			registered := tc.wantClientID == ""
			if len(reqs) != 1 || (!registered && reqs[0].ClientID != tc.wantClientID) || (c.Registrations == 1) != registered {
				t.Errorf("authorization requests %+v, counts %+v; want client %q", reqs, c, tc.wantClientID)
			}
			if c.Refreshes < 1 || c.TokenAuth != tc.wantAuth {
				t.Errorf("counts %+v; want refreshes authenticated with %s", c, tc.wantAuth)
			}
		})
	}
}

// TestOAuth_RedirectPort_E33: no loopback port is listened on until the first
// sign-in, and none between sign-ins; a port another program took meanwhile
// fails that sign-in with a sentence, and the next one uses a new port.
func TestOAuth_RedirectPort_E33(t *testing.T) {
	h := newOAuthHarnessWith(t, oauthtest.Options{}, ActionAccept)
	redirect := func() *oauthflow.Redirect {
		h.m.mu.Lock()
		defer h.m.mu.Unlock()
		return h.m.redirect
	}
	srv := h.addServer(t, "Protected", h.peer.URL)
	waitState(t, h.m, srv.ID, StateNeedsSignIn)
	if redirect() != nil {
		t.Fatal("a redirect port was taken before anyone signed in")
	}
	if st := h.signIn(t, srv); st.State != StateConnected {
		t.Fatalf("status %s %q", st.State, st.Message)
	}
	r := redirect()
	if r == nil {
		t.Fatal("no redirect after the sign-in")
	}
	addr := strings.TrimSuffix(strings.TrimPrefix(r.URL(), "http://"), "/callback")
	// Between sign-ins nothing listens on it.
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the redirect port is held between sign-ins: %v", err)
	}
	// Another program holds it now: the next sign-in says so and stores
	// nothing; the one after that uses a new port.
	other := h.addServer(t, "Other", h.peer.OtherURL)
	if st := h.signIn(t, other); st.State == StateConnected || !strings.Contains(st.Message.String(), "taken by another program") {
		t.Fatalf("sign-in with the port taken: %s %q", st.State, st.Message)
	}
	l.Close()
	if st := h.signIn(t, other); st.State != StateConnected || redirect() == r {
		t.Fatalf("sign-in after: %s %q; new redirect: %v", st.State, st.Message, redirect() != r)
	}
	h.m.Close()
}

// blockingSource is a token source whose Token waits for release, as a
// refresh the authorization server is slow to answer.
type blockingSource struct {
	called  chan struct{}
	release chan struct{}
	tok     *oauth2.Token
}

func (b blockingSource) Token() (*oauth2.Token, error) {
	close(b.called)
	<-b.release
	return b.tok, nil
}

// A Sign out is not undone by a token refresh that was on its way: before,
// the refreshed token was saved back after Sign out deleted it, and the
// next start connected signed in without the person.
func TestOAuth_SignOutIsNotUndoneByARefreshOnItsWay(t *testing.T) {
	h := newOAuthHarness(t, time.Hour, ActionAccept)
	srv := h.addServer(t, "Slow", h.peer.URL)
	saved := &SavedToken{Resource: h.peer.URL, Token: &oauth2.Token{AccessToken: "old", Expiry: time.Now().Add(-time.Minute)}}
	if err := h.tokens.SaveToken(srv.ID, saved); err != nil {
		t.Fatal(err)
	}
	base := blockingSource{called: make(chan struct{}), release: make(chan struct{}), tok: &oauth2.Token{AccessToken: "refreshed", Expiry: time.Now().Add(time.Hour)}}
	source := h.m.savingTokenSource(srv.ID, h.m.signOutsOf(srv.ID), saved, base)
	refreshed := make(chan struct{})
	go func() {
		_, _ = source.Token()
		close(refreshed)
	}()
	<-base.called
	if err := h.m.SignOut(srv.ID); err != nil {
		t.Fatal(err)
	}
	close(base.release)
	<-refreshed
	if tok, _ := h.tokens.LoadToken(srv.ID, h.peer.URL); tok != nil {
		t.Errorf("after Sign out, the store holds the token %q that a refresh on its way saved", tok.Token.AccessToken)
	}
}

// One Sign in, at most maxSignIns sign-ins (the second for a server that
// moved to another authorization server): a server that takes each token
// once only, and so asks for a sign-in on every request, is not signed in
// to again and again (each time another consent, registration, browser
// tab and token grant: one per request of the attempt before); it waits
// in "needs sign-in", saying the server refused the new sign-in.
func TestOAuth_OneClickIsOneSignIn_E33(t *testing.T) {
	h := newOAuthHarnessWith(t, oauthtest.Options{OneUseTokens: true}, ActionAccept)
	srv := h.addServer(t, "Refuser", h.peer.URL)
	h.signIn(t, srv)
	time.Sleep(2 * time.Second) // any further sign-in of this attempt would have asked by now
	if n := h.ans.shownCount(); n != maxSignIns {
		t.Errorf("one Sign in asked %d times, want %d", n, maxSignIns)
	}
	if c := h.peer.Counts(); c.TokenGrants != maxSignIns {
		t.Errorf("one Sign in made %d token grants, want %d", c.TokenGrants, maxSignIns)
	}
	st, _ := h.m.Status(srv.ID)
	if st.State != StateNeedsSignIn || !strings.Contains(st.Message.String(), "refused the sign-in it had just accepted") {
		t.Errorf("status %s: %q", st.State, st.Message)
	}
}
