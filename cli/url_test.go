package cli

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// standInBrowser puts an executable named xdg-open first on PATH. It stands
// in for the real system browser, which these tests must never start: it
// only writes "RUN" and then each argument it was given, one per line as
// "ARG:<value>", to the returned file. The file does not exist until the
// stand-in ran.
func standInBrowser(t *testing.T) (record string) {
	t.Helper()
	return standIn(t, 0)
}

// brokenBrowser is standInBrowser for a browser that fails to start: it
// records its run and exits with status 3.
func brokenBrowser(t *testing.T) (record string) {
	t.Helper()
	return standIn(t, 3)
}

func standIn(t *testing.T, status int) (record string) {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "freebsd" {
		t.Skip("the stand-in browser replaces xdg-open, the opener on Linux and BSD")
	}
	dir := t.TempDir()
	record = filepath.Join(dir, "opened.txt")
	script := "#!/bin/sh\n" +
		"# Stands in for the system browser in Gatehouse's CLI tests: records, opens nothing.\n" +
		"echo RUN >> '" + record + "'\n" +
		"for a in \"$@\"; do printf 'ARG:%s\\n' \"$a\" >> '" + record + "'; done\n" +
		"echo 'no browser here' >&2\n" +
		"exit " + strconv.Itoa(status) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return record
}

// browserRuns returns what the stand-in browser recorded: one entry per run,
// each the list of its arguments.
func browserRuns(t *testing.T, record string) [][]string {
	t.Helper()
	b, err := os.ReadFile(record)
	if os.IsNotExist(err) || (err == nil && len(b) == 0) {
		return nil // not run yet, or the stand-in created the file and has not written to it yet
	}
	if err != nil {
		t.Fatal(err)
	}
	var runs [][]string
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		switch {
		case line == "RUN":
			runs = append(runs, []string{})
		case strings.HasPrefix(line, "ARG:") && len(runs) > 0:
			runs[len(runs)-1] = append(runs[len(runs)-1], strings.TrimPrefix(line, "ARG:"))
		default:
			t.Fatalf("unexpected line from the stand-in browser: %q", line)
		}
	}
	return runs
}

// waitBrowser waits until the stand-in browser ran once and returns the one
// URL it was given, or fails after a while (the CLI runs meanwhile).
func waitBrowser(t *testing.T, record string, done <-chan struct{}) string {
	t.Helper()
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		// A run with no argument yet is the stand-in still writing it.
		if runs := browserRuns(t, record); len(runs) > 1 || len(runs) == 1 && len(runs[0]) > 0 {
			if len(runs) != 1 || len(runs[0]) != 1 {
				t.Fatalf("the browser ran %d times with %q; want once with one argument", len(runs), runs)
			}
			return runs[0][0]
		}
		select {
		case <-done:
			t.Fatal("the command ended before the browser was opened")
		case <-deadline:
			t.Fatal("the browser was not opened")
		case <-tick.C:
		}
	}
}

// finishPage presses the Finish button of a demo server sign-in page, as the
// person would in the browser: the demo server then sends its completion
// notice.
func finishPage(t *testing.T, pageURL string) {
	t.Helper()
	if !strings.HasPrefix(pageURL, "http://127.0.0.1:") {
		t.Fatalf("the demo page is not on this computer: %q", pageURL)
	}
	resp, err := http.Post(pageURL+"/finish", "application/x-www-form-urlencoded", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("finishing the page: %s", resp.Status)
	}
}

type cliRun struct {
	code        int
	out, errOut string
	stderr      *liveBuffer // stderr while the command runs
}

// liveBuffer is an output stream a test can read while the command writes.
type liveBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

func (l *liveBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	close(l.changed)
	l.changed = make(chan struct{})
	return l.b.Write(p)
}

// waitFor waits until the output contains s, failing if the command ends first.
func (l *liveBuffer) waitFor(t *testing.T, s string, done <-chan struct{}) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		l.mu.Lock()
		found, changed := strings.Contains(l.b.String(), s), l.changed
		l.mu.Unlock()
		if found {
			return
		}
		select {
		case <-changed:
		case <-done:
			t.Fatalf("the command ended without saying %q", s)
		case <-deadline:
			t.Fatalf("the command did not say %q", s)
		}
	}
}

// ghAsync runs a CLI command in the background.
func ghAsync(t *testing.T, dataDir, stdin string, args ...string) (done chan struct{}, result *cliRun) {
	done = make(chan struct{})
	result = &cliRun{stderr: &liveBuffer{changed: make(chan struct{})}}
	var out bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: result.stderr}
	rest, err := e.globalFlags(append([]string{"--data-dir", dataDir}, args...))
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(done)
		result.code = e.run(context.Background(), rest)
		result.out = out.String()
		result.stderr.mu.Lock()
		result.errOut = result.stderr.b.String()
		result.stderr.mu.Unlock()
	}()
	return done, result
}

func waitRun(t *testing.T, done <-chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the command did not end")
	}
}

// setTimeout sets how long requests and opened pages wait (Settings).
func setTimeout(t *testing.T, dataDir string, d time.Duration) {
	t.Helper()
	st, err := store.Open(dataDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	set, err := st.Settings()
	if err != nil {
		t.Fatal(err)
	}
	set.ElicitationTimeout = d
	if err := st.PutSettings(set); err != nil {
		t.Fatal(err)
	}
}

// bracketed is how a link is shown when the output is not a terminal.
func bracketed(t *testing.T, raw string) (line string, report *linkcheck.Report) {
	t.Helper()
	report, err := linkcheck.Check(raw)
	if err != nil {
		t.Fatal(err)
	}
	if report.DomainPart == "" {
		return report.Display, report
	}
	return report.Before + "[" + report.DomainPart + "]" + report.After, report
}

// TestCLI_URLAnswers: URL-mode requests of the demo server answered from an
// answers file. Only "open" starts the browser, once, with the URL the core
// checked; everything else leaves it alone.
func TestCLI_URLAnswers(t *testing.T) {
	dir := t.TempDir()
	lookalike, report := bracketed(t, "https://p\u0430ypal.com/verify")
	cases := []struct {
		name       string
		tool       string
		answers    string
		wantCode   int
		wantOut    string   // stdout: what the server received
		wantStderr []string // all of these
	}{
		{"decline", "connect_account", `["decline"]`, 0, "decline", []string{"Sign in to the demo account service", "http://127.0.0.1:", "Answer 1: decline."}},
		{"cancel", "connect_account", `["cancel"]`, 0, "cancel", []string{"Answer 1: cancel."}},
		{"an object for a web page is not an answer", "connect_account", `[{"x":1}]`, 1, "cancel", []string{"asks to open a web page", "Cancelled."}},
		{"open for a form is not an answer", "ask_city", `["open"]`, 1, `cancel`, []string{"is a form, not a web page"}},
		{"a look-alike shows its warnings", "lookalike_link", `["decline"]`, 0, "decline",
			append([]string{"\n" + lookalike + "\n", "International address: " + report.Host + " = " + report.ASCIIHost}, warningLines(report)...)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			record := standInBrowser(t)
			code, out, errOut := ghIn(t, dir, "", "call", "Demo server", tc.tool, "--answers", answersFile(t, tc.answers))
			if code != tc.wantCode || !strings.Contains(out, tc.wantOut) {
				t.Errorf("code %d, stdout %q; want code %d and %q\nstderr:\n%s", code, out, tc.wantCode, tc.wantOut, errOut)
			}
			for _, want := range tc.wantStderr {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			if runs := browserRuns(t, record); runs != nil {
				t.Errorf("the browser ran: %q", runs)
			}
		})
	}
}

func warningLines(r *linkcheck.Report) []string {
	var lines []string
	for _, w := range r.Warnings {
		lines = append(lines, "Warning: "+w.Message.String()+"\n")
	}
	if len(lines) == 0 {
		panic("the look-alike link has no warning")
	}
	return lines
}

// TestCLI_URLOpenWaitsForCompletion: "open" starts the browser once with the
// page's URL, the server hears accept, and the command then waits until the
// page is finished (here by pressing its Finish button, which makes the demo
// server send its completion notice). Both paths: the server's own request
// (connect_account) and the -32042 error of a tool call, which is retried
// once the page is done (sync_calendar).
func TestCLI_URLOpenWaitsForCompletion(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		tool    string
		wantOut string
	}{
		{"connect_account", "Opened the sign-in page; finish there."},
		{"sync_calendar", "Calendar synced: 3 events."},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			record := standInBrowser(t)
			done, run := ghAsync(t, dir, "", "call", "Demo server", tc.tool, "--answers", answersFile(t, `["open"]`))
			pageURL := waitBrowser(t, record, done)
			// The person finishes the page after Gatehouse says to: the
			// broker ignores a completion notice for a page it does not list
			// as opened yet (the browser may still be starting).
			run.stderr.waitFor(t, "Finish in your browser.", done)
			finishPage(t, pageURL)
			waitRun(t, done)
			if run.code != 0 || !strings.Contains(run.out, tc.wantOut) {
				t.Errorf("code %d, stdout %q; want %q\nstderr:\n%s", run.code, run.out, tc.wantOut, run.errOut)
			}
			for _, want := range []string{
				"\n" + pageURL + "\n",
				"Answer 1: opened in your browser.",
				"Finish in your browser. Waiting for Demo server to confirm",
				"The server confirmed the web page is finished.",
			} {
				if !strings.Contains(run.errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, run.errOut)
				}
			}
			if strings.Contains(run.errOut, "press Enter") {
				t.Errorf("a scripted run offered to read the terminal:\n%s", run.errOut)
			}
			if runs := browserRuns(t, record); len(runs) != 1 || len(runs[0]) != 1 || runs[0][0] != pageURL {
				t.Errorf("the browser ran with %q; want once with %q", runs, pageURL)
			}
		})
	}
}

// TestCLI_URLTyped: a person at the terminal. "o" opens the page; then Enter
// says it is finished, and "c" stops waiting for it. For sync_calendar the
// -32042 call is retried after Enter (the demo server, whose page was not
// really finished, asks again; the end of input cancels that second request).
func TestCLI_URLTyped(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name       string
		tool       string
		stdin      string
		wantCode   int
		wantOut    string
		wantStderr []string
		wantRuns   int
	}{
		{"Enter after the server's request", "connect_account", "x\no\n\n", 0, "Opened the sign-in page; finish there.",
			[]string{urlPrompt() + urlPrompt() + "Opened in your browser.", "press Enter when you are done", "You said the web page is finished."}, 1},
		{"c after the server's request", "connect_account", "o\nc\n", 0, "Opened the sign-in page; finish there.",
			[]string{"You stopped waiting for the web page."}, 1},
		{"Enter retries a -32042 call", "sync_calendar", "o\n\n", 1, "",
			[]string{"You said the web page is finished.", "Connect your calendar account first.", "The server needs a web page opened first, and you chose cancel"}, 1},
		{"c ends a -32042 call", "sync_calendar", "open\nc\n", 1, "",
			[]string{"You stopped waiting for the web page.", mcp.ErrURLCancelled.Error()}, 1},
		{"decline", "connect_account", "d\n", 0, "decline", []string{urlPrompt()}, 0},
		{"end of input cancels", "connect_account", "", 0, "cancel", []string{urlPrompt()}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			record := standInBrowser(t)
			done, run := ghAsync(t, dir, tc.stdin, "call", "Demo server", tc.tool)
			waitRun(t, done)
			if run.code != tc.wantCode || !strings.Contains(run.out, tc.wantOut) {
				t.Errorf("code %d, stdout %q; want code %d and %q\nstderr:\n%s", run.code, run.out, tc.wantCode, tc.wantOut, run.errOut)
			}
			for _, want := range tc.wantStderr {
				if !strings.Contains(run.errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, run.errOut)
				}
			}
			runs := browserRuns(t, record)
			if len(runs) != tc.wantRuns {
				t.Errorf("the browser ran %d times (%q); want %d", len(runs), runs, tc.wantRuns)
			}
			for _, r := range runs {
				if len(r) != 1 || !strings.HasPrefix(r[0], "http://127.0.0.1:") || !strings.Contains(run.errOut, "\n"+r[0]+"\n") {
					t.Errorf("the browser got %q; want the one address shown", r)
				}
			}
		})
	}
}

// TestCLI_URLEverything: URL mode against server-everything, which never
// sends a completion notice. A scripted run waits for it only until the
// answer time (lowered to one second here) and then fails, saying the
// server did not confirm; the call does not hang. A look-alike IDN host
// shows its warnings; a javascript: URL is refused by the core before
// anything is shown, and nothing is opened.
func TestCLI_URLEverything(t *testing.T) {
	entry := everythingEntry(t)
	dir := t.TempDir()
	if code, _, errOut := gh(t, dir, "servers", "add", "Everything", "--", "node", entry, "stdio"); code != 0 {
		t.Fatal(errOut)
	}
	setTimeout(t, dir, time.Second)
	prerequisite, _ := bracketed(t, "https://modelcontextprotocol.io")
	idn, idnReport := bracketed(t, "https://xn--80ak6aa92e.com/")
	example, _ := linkcheck.Check("https://example.com/x")
	cases := []struct {
		name       string
		args       string
		answers    string
		wantCode   int
		wantOut    string
		wantStderr []string
		wantOpened []string
	}{
		{"-32042 without a completion notice ends at the time limit", `{"url":"https://example.com/x","errorPath":true}`, `["open","open"]`, 1, "",
			[]string{prerequisite, "Answer 1: opened in your browser.", "Everything did not confirm within 1 s that the web page was finished"},
			[]string{mustCheck(t, "https://modelcontextprotocol.io").URL}},
		{"request path: accepted, then no confirmation within the time limit", `{"url":"https://example.com/x"}`, `["open"]`, 1, `"action": "accept"`,
			[]string{"Finish in your browser. Waiting for Everything to confirm (until ", "gatehouse: Everything did not confirm within 1 s"},
			[]string{example.URL}},
		{"declined", `{"url":"https://example.com/x"}`, `["decline"]`, 0, `"action": "decline"`, []string{"Answer 1: decline."}, nil},
		{"cancelled", `{"url":"https://example.com/x"}`, `["cancel"]`, 0, `"action": "cancel"`, []string{"Answer 1: cancel."}, nil},
		{"look-alike IDN", `{"url":"https://xn--80ak6aa92e.com/"}`, `["decline"]`, 0, `"action": "decline"`,
			append([]string{"\n" + idn + "\n", "International address: " + idnReport.Host + " = xn--80ak6aa92e.com"}, warningLines(idnReport)...), nil},
		{"javascript: is refused unseen", `{"url":"javascript:alert(1)"}`, `["open"]`, 1, `the url is refused`, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			record := standInBrowser(t)
			code, out, errOut := ghIn(t, dir, "", "call", "Everything", "trigger-url-elicitation", tc.args, "--answers", answersFile(t, tc.answers))
			if code != tc.wantCode || !strings.Contains(out, tc.wantOut) {
				t.Errorf("code %d, stdout %q; want code %d and %q\nstderr:\n%s", code, out, tc.wantCode, tc.wantOut, errOut)
			}
			for _, want := range tc.wantStderr {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			var opened []string
			for _, r := range browserRuns(t, record) {
				if len(r) != 1 {
					t.Errorf("the browser got %d arguments: %q", len(r), r)
				}
				opened = append(opened, strings.Join(r, " "))
			}
			if strings.Join(opened, "\n") != strings.Join(tc.wantOpened, "\n") {
				t.Errorf("the browser opened %q; want %q", opened, tc.wantOpened)
			}
			if strings.Contains(tc.args, "javascript:") && strings.Contains(errOut, "is asking") {
				t.Errorf("a refused URL was shown:\n%s", errOut)
			}
		})
	}
}

func mustCheck(t *testing.T, raw string) *linkcheck.Report {
	t.Helper()
	r, err := linkcheck.Check(raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCLI_URLBrowserFails: when the browser cannot be started, nothing is
// sent: the person is told and asked again (here the end of input then
// cancels); a scripted "open" cancels and exits 1.
func TestCLI_URLBrowserFails(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name       string
		stdin      string
		answers    string
		wantCode   int
		wantStderr string
	}{
		{"typed", "o\n", "", 0, "Your browser could not open the page. Copy the address and open it in your browser yourself.\nxdg-open: exit status 3\nno browser here\n" + urlPrompt() + "\nSTDOUT"},
		{"scripted", "", `["open"]`, 1, "gatehouse: answer 1: Your browser could not open the page. Copy the address and open it in your browser yourself. xdg-open: exit status 3 no browser here"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			record := brokenBrowser(t)
			args := []string{"call", "Demo server", "connect_account"}
			if tc.answers != "" {
				args = append(args, "--answers", answersFile(t, tc.answers))
			}
			code, out, errOut := ghIn(t, dir, tc.stdin, args...)
			if code != tc.wantCode || strings.TrimSpace(out) != "cancel" || !strings.Contains(errOut+"\nSTDOUT", tc.wantStderr) {
				t.Errorf("code %d, stdout %q; want code %d, cancel and %q\nstderr:\n%s", code, out, tc.wantCode, tc.wantStderr, errOut)
			}
			if runs := browserRuns(t, record); len(runs) != 1 {
				t.Errorf("the browser ran %d times; want 1", len(runs))
			}
			if strings.Contains(errOut, "Finish in your browser") {
				t.Errorf("a page that did not open is waited for:\n%s", errOut)
			}
		})
	}
}

// TestLinkLine: the registrable domain is bold and underlined on a terminal
// and in brackets elsewhere; an address without one (an IP) is shown as is.
func TestLinkLine(t *testing.T) {
	cases := []struct {
		url           string
		styled, plain string
	}{
		{"https://accounts.google.com.evil.example/login", "https://accounts.google.com.\x1b[1;4mevil.example\x1b[0m/login", "https://accounts.google.com.[evil.example]/login"},
		{"https://xn--mnchen-3ya.de/a?b=c", "https://\x1b[1;4mmünchen.de\x1b[0m/a?b=c", "https://[münchen.de]/a?b=c"},
		{"http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x"},
	}
	for _, tc := range cases {
		l := mustCheck(t, tc.url)
		if got := (&terminalAnswerer{styled: true}).linkLine(l); got != tc.styled {
			t.Errorf("%s on a terminal: %q; want %q", tc.url, got, tc.styled)
		}
		if got := (&terminalAnswerer{}).linkLine(l); got != tc.plain {
			t.Errorf("%s elsewhere: %q; want %q", tc.url, got, tc.plain)
		}
	}
}
