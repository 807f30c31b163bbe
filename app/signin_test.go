package app

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/mcp/oauthtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestSignIn_ThroughTheDialog_E33 drives sign-in the way the person does:
// the server waits in "needs sign-in"; Sign in shows the consent naming the
// server, before anything is sent to its authorization server; Open sends
// Gatehouse's start page to the (stand-in) browser, which is sent on to the
// authorization URL and follows it back to the loopback redirect; the token
// lands in the data file (no keyring here) bound to the server, and Sign
// out deletes it.
func TestSignIn_ThroughTheDialog_E33(t *testing.T) {
	log := fakeBrowser(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A 1 s token is already "expired" for oauth2 (10 s early expiry): every
	// use refreshes it, through the saved refresh token.
	peer, err := oauthtest.Start(ctx, oauthtest.Options{TokenLifetime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	core, rec := openTestCore(t)
	svc := NewQuestionService(core, nil)
	servers := NewServersService(core)
	tools := NewToolsService(core)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	view, err := servers.Add(ServerInput{Name: "Calendar", Enabled: true, Transport: "http", URL: peer.URL})
	if err != nil {
		t.Fatal(err)
	}
	state := func() string { st, _ := core.Manager.Status(view.ID); return string(st.State) }
	waitUntil(t, "needs sign-in", func() bool { return state() == "needs-sign-in" })

	if err := servers.SignIn(view.ID); err != nil {
		t.Fatal(err)
	}
	v := shownRequest(t, rec, 0)
	if v.Kind != mcp.KindSignIn || v.Server.Name != "Calendar" || v.Message != "Calendar wants you to sign in at 127.0.0.1." || v.Link == nil {
		t.Fatalf("sign-in consent = %+v", v)
	}
	if got := browserArgs(t, log); len(got) != 0 {
		t.Fatal("the browser opened before consent")
	}
	if c := peer.Counts(); c != (oauthtest.Counters{}) {
		t.Fatalf("requests to the authorization server before consent: %+v", c)
	}
	if err := svc.Open(v.ID); err != nil {
		t.Fatal(err)
	}
	args := browserArgs(t, log)
	if len(args) != 1 || !strings.HasPrefix(args[0], "ARG:http://127.0.0.1:") || !strings.Contains(args[0], "/start?s=") {
		t.Fatalf("browser got %q", args)
	}
	// What the browser does with it: Gatehouse's start page sends it on to
	// the authorization server, which approves and redirects to Gatehouse's
	// loopback address.
	resp, err := http.Get(strings.TrimPrefix(args[0], "ARG:"))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "Gatehouse received your sign-in") {
		t.Errorf("page after sign-in: %s", page)
	}
	waitUntil(t, "connected", func() bool { return state() == "connected" })
	res, err := tools.Call("w", view.ID, "whoami", "")
	if err != nil || len(res.Content) != 1 || res.Content[0].Text != "signed in" {
		t.Errorf("whoami: %+v %v", res, err)
	}

	first, err := core.tokens.LoadToken(view.ID, peer.URL)
	if err != nil || first == nil || first.Token.AccessToken == "" {
		t.Fatalf("saved sign-in = %+v, %v", first, err)
	}
	if _, err := tools.Call("w2", view.ID, "whoami", ""); err != nil {
		t.Fatal(err)
	}
	if c := peer.Counts(); c.Refreshes < 1 || c.TokenGrants != 1 {
		t.Errorf("counts = %+v; want refreshes and a single sign-in", c)
	}
	if now, _ := core.tokens.LoadToken(view.ID, peer.URL); now == nil || now.Token.AccessToken == first.Token.AccessToken {
		t.Error("the refreshed token was not saved")
	}
	if tok, _ := core.tokens.LoadToken(view.ID, peer.OtherURL); tok != nil {
		t.Error("a token was offered for another resource")
	}
	if info, _ := NewSettingsService(core).Info(); !info.Keyring {
		// No keyring on this machine: the data file holds it, bound to the URL.
		if raw, _ := core.Store.Secret(store.SecretSignIn, view.ID); !strings.Contains(string(raw), `"resource":"`+peer.URL+`"`) {
			t.Errorf("saved sign-in in the data file = %s", raw)
		}
	}

	if err := servers.SignOut(view.ID); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "needs sign-in after sign out", func() bool { return state() == "needs-sign-in" })
	if raw, _ := core.Store.Secret(store.SecretSignIn, view.ID); raw != nil {
		t.Error("sign out left the token in the data file")
	}
	histPage, _ := svc.History(view.ID, "", 0)
	var hist []HistoryView // the sign-in's entry, without the tool runs
	for _, e := range histPage.Entries {
		if e.Mode != mcp.KindToolRun {
			hist = append(hist, e)
		}
	}
	if len(hist) != 1 || hist[0].Mode != mcp.KindSignIn || hist[0].Outcome != store.OutcomeAccepted {
		t.Errorf("history = %+v", hist)
	}
}
