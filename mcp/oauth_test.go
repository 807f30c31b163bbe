package mcp

import (
	"context"

	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/gatehouse-app/gatehouse/mcp/oauthtest"
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
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	peer, err := oauthtest.Start(ctx, oauthtest.Options{TokenLifetime: lifetime})
	if err != nil {
		t.Fatal(err)
	}
	tokens := &memTokens{tokens: map[string]*SavedToken{}}
	pages := make(chan string, 10)
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ans := newScripted(func(r *Request) (Response, bool) {
		if r.Mode != ModeSignIn {
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
	srv, err := h.st.PutServer(store.Server{Name: name, Enabled: true, Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: url}})
	if err != nil {
		t.Fatal(err)
	}
	h.m.Set(srv)
	return srv
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
	if h.ans.shownCount() != 0 || !strings.Contains(st.Message, "sign in") {
		t.Fatalf("a server must not ask to sign in unprompted: shown %d, %q", h.ans.shownCount(), st.Message)
	}
	if err := h.m.SignIn(srv.ID); err != nil {
		t.Fatal(err)
	}
	waitState(t, h.m, srv.ID, StateConnected)
	shown := h.ans.shown[0]
	if shown.Mode != ModeSignIn || shown.Message != "Protected wants you to sign in at 127.0.0.1." || !shown.Link.Loopback {
		t.Errorf("consent = %+v", shown)
	}
	if page := <-h.pages; !strings.Contains(page, "You are signed in") {
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
		return st.State == StateNeedsSignIn && strings.Contains(st.Message, "did not sign in")
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

// TestLoopbackRedirect_E33: the redirect listener takes one answer with the
// right state, refuses others, and ends on timeout.
func TestLoopbackRedirect_E33(t *testing.T) {
	r, err := newLoopbackRedirect()
	if err != nil {
		t.Fatal(err)
	}
	w, err := r.listen("good-state")
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	get := func(q string) int {
		resp, err := http.Get(r.url() + "?" + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("code=x&state=wrong"); code != http.StatusBadRequest {
		t.Errorf("wrong state: %d", code)
	}
	if code := get("code=abc&state=good-state&iss=https://as.example"); code != http.StatusOK {
		t.Errorf("good answer: %d", code)
	}
	if code := get("code=again&state=good-state"); code != http.StatusGone {
		t.Errorf("second answer: %d", code)
	}
	res, err := w.result(context.Background(), time.Second)
	if err != nil || res.Code != "abc" || res.State != "good-state" || res.Iss != "https://as.example" {
		t.Errorf("result = %+v, %v", res, err)
	}
	if _, err := w.result(context.Background(), 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "did not come back") {
		t.Errorf("timeout: %v", err)
	}

	// Only loopback: the listener is not reachable on other addresses.
	if strings.Contains(r.url(), "0.0.0.0") || !strings.HasPrefix(r.url(), "http://127.0.0.1:") {
		t.Errorf("redirect URL %s", r.url())
	}
}

// TestOAuth_RefusesNonHTTPSAuthorization_E33: an authorization endpoint that
// is not https (other than this computer) is refused before anything is shown.
func TestOAuth_RefusesNonHTTPSAuthorization_E33(t *testing.T) {
	h := newOAuthHarness(t, time.Hour, ActionAccept)
	s := &session{m: h.m, srv: store.Server{ID: "x", Name: "X"}, signInRequested: true}
	r, err := newLoopbackRedirect()
	if err != nil {
		t.Fatal(err)
	}
	fetch := h.m.codeFetcher(s, r)
	for _, u := range []string{"http://auth.example/authorize?state=s", "javascript:alert(1)", "https://user@auth.example/authorize?state=s"} {
		if _, err := fetch(context.Background(), &auth.AuthorizationArgs{URL: u}); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("%s: %v", u, err)
		}
	}
	if h.ans.shownCount() != 0 {
		t.Error("a refused sign-in address was shown")
	}

}
