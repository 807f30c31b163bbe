package cli

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/mcp/oauthtest"
)

// TestCLI_SignIn_E33: a call to a server that requires sign-in says how to
// sign in; `servers signin` asks on the terminal before anything is sent to
// the authorization server, opens Gatehouse's start page in the (stand-in)
// browser, which is sent on to the authorization page, and once the
// browser comes back the
// server is usable; `servers signout` forgets the sign-in.
func TestCLI_SignIn_E33(t *testing.T) {
	record := standInBrowser(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	peer, err := oauthtest.Start(ctx, oauthtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if code, _, errOut := gh(t, dir, "servers", "add", "Calendar", "--url", peer.URL); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	code, _, errOut := gh(t, dir, "call", "Calendar", "whoami")
	if code == 0 || !strings.Contains(errOut, `Calendar needs you to sign in first: gatehouse servers signin "Calendar"`) {
		t.Fatalf("call before sign-in: %d %s", code, errOut)
	}

	done, run := ghAsync(t, dir, "o\n", "servers", "signin", "Calendar")
	run.stderr.waitFor(t, "Calendar wants you to sign in", done)
	startURL := waitBrowser(t, record, done)
	if !strings.HasPrefix(startURL, "http://127.0.0.1:") || !strings.Contains(startURL, "/start?s=") {
		t.Fatalf("browser got %q; want Gatehouse's start page", startURL)
	}
	resp, err := http.Get(startURL) // what the browser does: on to the authorization server, back to Gatehouse's loopback address
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "Gatehouse received your sign-in") {
		t.Errorf("page: %s", page)
	}
	waitRun(t, done)
	if run.code != 0 || !strings.Contains(run.out, "Calendar: signed in.") {
		t.Fatalf("signin: %d %q %q", run.code, run.out, run.errOut)
	}

	if code, out, errOut := gh(t, dir, "call", "Calendar", "whoami"); code != 0 || !strings.Contains(out, "signed in") {
		t.Fatalf("call after sign-in (the token is kept): %d %q %q", code, out, errOut)
	}
	if code, out, _ := gh(t, dir, "servers", "signout", "Calendar"); code != 0 || !strings.Contains(out, "signed out") {
		t.Fatalf("signout: %d %q", code, out)
	}
	if code, _, errOut := gh(t, dir, "call", "Calendar", "whoami"); code == 0 || !strings.Contains(errOut, "needs you to sign in") {
		t.Fatalf("call after sign-out: %d %s", code, errOut)
	}
	if n := len(browserRuns(t, record)); n != 1 {
		t.Errorf("the browser ran %d times; want once", n)
	}
}
