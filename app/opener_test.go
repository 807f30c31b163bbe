package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
)

// fakeBrowser puts an xdg-open earlier on PATH that records its arguments,
// one "ARG:" line each. It stands in for the system's browser, which cannot
// run here; the rest of the path (the core's checks, OpenLink, exec without a
// shell) is the real one.
func fakeBrowser(t *testing.T) (log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "argv.log")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf 'ARG:%s\\n' \"$a\" >> '" + log + "'; done\n"
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

func browserArgs(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestOpenLink_E21: the URL reaches the browser as exactly one argument;
// hostile strings never run anything; refused URLs never reach it.
func TestOpenLink_E21(t *testing.T) {
	log := fakeBrowser(t)
	pwned := filepath.Join(t.TempDir(), "pwned")
	for _, tc := range []struct {
		raw  string
		open bool
	}{
		// In a shell these would run touch ($IFS is a space); as one argument they are text.
		{"https://example.com/path?q=(a)!~&x=$(touch${IFS}" + pwned + ")", true},
		{"https://example.com/?a=1;touch${IFS}" + pwned + ";`touch${IFS}" + pwned + "`", true},
		{"https://$(touch " + pwned + ")", false},
		{"-a", false},
		{"https://example.com/\nhttps://evil.example/", false},
		{"javascript:alert(1)", false},
		{"file:///etc/passwd", false},
		{"vscode://open", false},
	} {
		before := len(browserArgs(t, log))
		link, err := linkcheck.Check(tc.raw)
		if err == nil {
			err = OpenLink(link)
		}
		got := browserArgs(t, log)
		switch {
		case tc.open && (err != nil || len(got) != before+1 || got[len(got)-1] != "ARG:"+link.URL):
			t.Errorf("%q: err %v, browser got %q; want exactly the URL as one argument", tc.raw, err, got[before:])
		case !tc.open && (err == nil || len(got) != before):
			t.Errorf("%q: err %v, browser got %q; want it refused", tc.raw, err, got[before:])
		}
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("a URL ran a command")
	}
	if err := OpenLink(&linkcheck.Report{URL: "smb://host/share", Scheme: "https"}); err == nil {
		t.Error("a forged report must be checked again")
	}
}

// TestElicitationService_URLMode_E21_E23_E24: the dialog's Open opens the URL
// the core recorded and then answers accept; the demo page's Finish sends
// the completion notice, which ends the wait.
func TestElicitationService_URLMode_E21_E23_E24(t *testing.T) {
	log := fakeBrowser(t)
	core, rec, svc, tools, id := dialogFixture(t)
	result := make(chan string, 1)
	go func() {
		res, err := tools.Call("u1", id, "connect_account", "")
		if err != nil {
			result <- err.Error()
			return
		}
		result <- res.Content[0].Text
	}()
	v := shownRequest(t, rec, 0)
	if v.Kind != "url" || v.Link == nil || !v.Link.Loopback || !strings.HasPrefix(v.Link.URL, "http://127.0.0.1:") {
		t.Fatalf("view = %+v", v)
	}
	if got := browserArgs(t, log); len(got) != 0 {
		t.Fatalf("something opened before consent: %q", got)
	}
	if _, err := svc.Submit(v.ID, nil); err == nil {
		t.Error("a URL request cannot be submitted as a form")
	}
	if err := svc.Open(v.ID); err != nil {
		t.Fatal(err)
	}
	if got := browserArgs(t, log); len(got) != 1 || got[0] != "ARG:"+v.Link.URL {
		t.Fatalf("browser got %q, want the URL", got)
	}
	if out := <-result; out != "Opened the sign-in page; finish there." {
		t.Errorf("tool result %q", out)
	}
	opened := svc.Snapshot().Opened
	if len(opened) != 1 || opened[0].Link.URL != v.Link.URL {
		t.Fatalf("opened = %+v", opened)
	}
	if err := svc.OpenAgain(opened[0].ID); err != nil || len(browserArgs(t, log)) != 2 {
		t.Errorf("open again: %v", err)
	}
	// The person presses Finish on the page: the server confirms.
	finish(t, v.Link.URL)
	waitUntil(t, "the completion notice", func() bool { return len(svc.Snapshot().Opened) == 0 })
	_ = core
}

// finish presses the demo sign-in page's Finish button.
func finish(t *testing.T, pageURL string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := postForm(ctx, pageURL+"/finish"); err != nil {
		t.Fatal(err)
	}
}

func postForm(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(""))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %s: %s", url, resp.Status)
	}
	return nil
}

// TestOpenLink_BrowserFails (issue 26): an opener that fails (xdg-open
// exiting 4 after a broken browser script's complaint) gives a sentence in
// the person's language, and keeps what the program said apart: in the
// error it wraps and in the window's JSON as "details", never in the
// sentence.
func TestOpenLink_BrowserFails(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho '/usr/bin/chromium: 9: [: --enable-features=x: unexpected operator' >&2\nexit 4\n"
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	link, err := linkcheck.Check("https://example.com/sign-in?a=(1)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { i18n.SetLanguage(i18n.English) })
	for _, tc := range []struct {
		lang     i18n.Language
		sentence string
	}{
		{i18n.English, "Your browser could not open the page. Copy the address and open it in your browser yourself."},
		{i18n.Chinese, "浏览器未能打开此页面。请复制地址，在浏览器中自行打开。"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			i18n.SetLanguage(tc.lang)
			err := OpenLink(link)
			if err == nil {
				t.Fatal("a failed opener reported success")
			}
			if err.Error() != tc.sentence {
				t.Errorf("sentence = %q, want %q", err.Error(), tc.sentence)
			}
			var be *BrowserError
			if !errors.As(err, &be) || be.Program != "xdg-open" ||
				!strings.Contains(be.Detail, "exit status 4") || !strings.Contains(be.Detail, "unexpected operator") {
				t.Fatalf("details = %+v, want the exit status and the opener's words", be)
			}
			var sent struct {
				Key     string `json:"key"`
				Text    string `json:"text"`
				Details string `json:"details"`
			}
			raw, _ := windowError(err).(string)
			if !strings.HasPrefix(raw, `{"key":`) || json.Unmarshal([]byte(raw), &sent) != nil {
				t.Fatalf("windowError = %q, want the message's JSON", raw)
			}
			if sent.Key != "links.error.browserFailed" || sent.Text != tc.sentence || sent.Details != be.Details() {
				t.Errorf("the window gets %+v", sent)
			}
		})
	}
	// Details are bounded, and cut on a character.
	long := browserFailure("xdg-open", errors.New("exit status 4"), strings.Repeat("é", maxBrowserDetail))
	if len(long.Detail) > maxBrowserDetail+len("…") || !utf8.ValidString(long.Detail) {
		t.Errorf("details of %d bytes, valid UTF-8 %v", len(long.Detail), utf8.ValidString(long.Detail))
	}
}
