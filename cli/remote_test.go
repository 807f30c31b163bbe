package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/hostapi"
	"github.com/gatehouse-app/gatehouse/store"
)

// runningApp opens a core on a new data folder and serves the command line
// from it, as the window does while it is open: the core holds the data
// file's lock throughout. Its questions not routed to a terminal are
// cancelled unseen (the core's default answerer), so a call's question that
// reached the window instead of the terminal would show as "cancel".
func runningApp(t *testing.T) (dir string, core *app.Core) {
	t.Helper()
	dir = t.TempDir()
	core, err := app.OpenCore(app.CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	if err := core.ServeCLI(); err != nil {
		t.Fatal(err)
	}
	return dir, core
}

// TestCLI_SameOutputWithTheWindowOpen runs the same commands on two data
// folders, one held by a running app (they go over its socket) and one not
// (the CLI opens the data file), and expects the very same exit codes and
// output, step by step.
func TestCLI_SameOutputWithTheWindowOpen(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	standInBrowser(t) // no step opens the real one
	withApp, core := runningApp(t)
	without := t.TempDir()
	steps := []struct {
		name  string
		stdin string
		args  []string
		// finish, when not 0, finishes the web page the command opens, in
		// the browser, once the command said that many times to finish it
		// there: twice when the call's result comes first (the wait after
		// the result says it again).
		finish int
	}{
		{"list", "", []string{"servers", "list"}, 0},
		{"add stdio", "", []string{"servers", "add", "Files", "--disabled", "--env", "ROOT=/tmp", "--", "true", "-y", "some-server"}, 0},
		{"add http with the whole environment refused", "", []string{"servers", "add", "WebAll", "--inherit-env", "--url", "https://x.example"}, 0},
		{"add with the whole environment", "", []string{"servers", "add", "Trusted", "--disabled", "--inherit-env", "--", "node", "trusted.js"}, 0},
		{"add a name that exists", "", []string{"servers", "add", "files", "--", "other"}, 0},
		{"add a bad URL", "", []string{"servers", "add", "Ftp", "--url", "ftp://example.com"}, 0},
		{"add http", "", []string{"servers", "add", "Remote", "--disabled", "--url", "https://mcp.example.com/mcp", "--header", "X-Team=blue"}, 0},
		{"list after adding", "", []string{"servers", "list"}, 0},
		{"tools of a server turned off", "", []string{"tools", "files"}, 0},
		{"enable", "", []string{"servers", "enable", "trusted"}, 0},
		{"disable", "", []string{"servers", "disable", "Trusted"}, 0},
		{"remove one that does not exist", "", []string{"servers", "remove", "Nope"}, 0},
		{"remove", "", []string{"servers", "remove", "Remote"}, 0},
		{"remove takes one name", "", []string{"servers", "remove"}, 0},
		{"list at the end", "", []string{"servers", "list"}, 0},
		{"tools", "", []string{"tools", "demo server"}, 0},
		{"tools of no such server", "", []string{"tools", "Nope"}, 0},
		{"call: text", "", []string{"call", "Demo server", "echo", `{"message":"hello from the CLI"}`}, 0},
		{"call: structured", "", []string{"call", "Demo server", "forecast", `{"city":"Oslo","days":2}`}, 0},
		{"call: a resource link", "", []string{"call", "Demo server", "readme_link"}, 0},
		{"call: an error result", "", []string{"call", "Demo server", "divide", `{"a":1,"b":0}`}, 0},
		{"call: control characters", "", []string{"call", "Demo server", "echo", `{"message":"\u001b[31mred\u0007"}`}, 0},
		{"call: arguments that are not an object", "", []string{"call", "Demo server", "echo", `[1]`}, 0},
		{"call: arguments that fail the schema", "", []string{"call", "Demo server", "forecast", `{"days":"two"}`}, 0},
		{"call: unknown tool", "", []string{"call", "Demo server", "nope"}, 0},
		{"call: a form answered from a script", "", []string{"call", "Demo server", "ask_city", "--answers", answersFile(t, `[{"city":"Oslo"}]`)}, 0},
		{"call: two forms, defaults from the script", "", []string{"call", "Demo server", "plan_trip", "--answers", answersFile(t, `[{"city":"Rome"},{}]`)}, 0},
		{"call: an invalid scripted answer is not sent", "", []string{"call", "Demo server", "register", "--answers",
			answersFile(t, `[{"name":"Ada","email":"nope","arrival":"2026-02-30","track":"go"}]`)}, 0},
		{"call: declined", "", []string{"call", "Demo server", "ask_city", "--answers", answersFile(t, `["decline"]`)}, 0},
		{"call: typed at the prompt", "Paris\ns\n", []string{"call", "Demo server", "ask_city"}, 0},
		{"call: a wrong choice is asked again", "9\n1\ns\n", []string{"call", "Demo server", "legacy_priority"}, 0},
		{"call: end of input cancels", "", []string{"call", "Demo server", "ask_city"}, 0},
		{"call: a web page declined", "", []string{"call", "Demo server", "connect_account", "--answers", answersFile(t, `["decline"]`)}, 0},
		// Once a calendar is connected, the app's demo server (which runs on)
		// no longer asks for it: this comes before connect_account.
		{"call: -32042, a web page opened, then finished and the call retried", "", []string{"call", "Demo server", "sync_calendar", "--answers", answersFile(t, `["open"]`)}, 1},
		{"call: a web page opened, then finished", "", []string{"call", "Demo server", "connect_account", "--answers", answersFile(t, `["open"]`)}, 2},
		{"call: a web page opened, then Enter says it is finished", "o\n\n", []string{"call", "Demo server", "connect_account"}, 0},
		{"call: a web page opened, then c stops waiting", "o\nc\n", []string{"call", "Demo server", "connect_account"}, 0},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			run := ghIn
			if s.finish > 0 {
				run = func(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
					return openAndFinish(t, s.finish, dir, stdin, args...)
				}
			}
			code, out, errOut := run(t, without, s.stdin, s.args...)
			rcode, rout, rerrOut := run(t, withApp, s.stdin, s.args...)
			errOut, rerrOut = samePage(errOut), samePage(rerrOut)
			if rcode != code || rout != out || rerrOut != errOut {
				t.Errorf("with the app: code %d\nstdout:\n%s\nstderr:\n%s\nwithout: code %d\nstdout:\n%s\nstderr:\n%s", rcode, rout, rerrOut, code, out, errOut)
			}
			if strings.Contains(rerrOut, "already running") {
				t.Errorf("the command did not reach the running app:\n%s", rerrOut)
			}
		})
	}
	// The calls ran on the app's own session: its history has them.
	core.Broker.FlushHistory()
	hist, err := core.Store.History(store.HistoryFilter{ServerID: mustServer(t, core, app.DemoServerName).ID})
	if err != nil || len(hist) < 10 {
		t.Errorf("the app's history has %d entries (%v)", len(hist), err)
	}
}

// demoPage hides what changes from run to run in the address of a demo
// web page: the port and the request's token; untilTime, the clock time
// until which an opened page is waited for.
var (
	demoPage  = regexp.MustCompile(`127\.0\.0\.1:[0-9]+/connect/[A-Za-z0-9_-]+`)
	untilTime = regexp.MustCompile(`[0-9]{2}:[0-9]{2}:[0-9]{2}`)
)

func samePage(s string) string {
	return untilTime.ReplaceAllString(demoPage.ReplaceAllString(s, "127.0.0.1:PORT/connect/TOKEN"), "HH:MM:SS")
}

// openAndFinish runs a command that opens a demo web page in the stand-in
// browser and, once the command said times times to finish it there,
// presses the page's Finish button, as the person would.
func openAndFinish(t *testing.T, times int, dataDir, stdin string, args ...string) (code int, out, errOut string) {
	t.Helper()
	record := standInBrowser(t)
	done, run := ghAsync(t, dataDir, stdin, args...)
	pageURL := waitBrowser(t, record, done)
	run.stderr.waitForCount(t, "Finish in your browser.", times, done)
	finishPage(t, pageURL)
	waitRun(t, done)
	return run.code, run.out, run.errOut
}

func mustServer(t *testing.T, core *app.Core, name string) store.Server {
	t.Helper()
	srv, err := core.Store.ServerByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestCLI_NoAppOpensTheDataFile: with no app, or only the socket a crashed
// app left, the CLI opens the data file itself.
func TestCLI_NoAppOpensTheDataFile(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	dir := t.TempDir()
	path, err := hostapi.SocketPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := gh(t, dir, "servers", "list"); code != 0 || !strings.Contains(out, "Demo server") {
		t.Fatalf("no socket: code %d\n%s\n%s", code, out, errOut)
	}
	l, err := hostapi.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close() // as a crash leaves it: the file, and nobody listening
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := gh(t, dir, "servers", "list"); code != 0 || !strings.Contains(out, "Demo server") {
		t.Errorf("stale socket: code %d\n%s\n%s", code, out, errOut)
	}
	if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*")); len(matches) != 1 {
		t.Errorf("socket folder holds %v", matches)
	}
}

// runtimeDir is a new XDG_RUNTIME_DIR with a short path: a socket's path
// is at most 107 bytes.
func runtimeDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// TestCLI_AppClosingRemovesItsSocket: once the app closes, its socket is
// gone and the CLI opens the data file again.
func TestCLI_AppClosingRemovesItsSocket(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	dir, core := runningApp(t)
	path, err := hostapi.SocketPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no socket while the app runs: %v", err)
	}
	core.Close()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the socket is still there: %v", err)
	}
	if code, out, errOut := gh(t, dir, "servers", "list"); code != 0 || !strings.Contains(out, "Demo server") {
		t.Errorf("code %d\n%s\n%s", code, out, errOut)
	}
}

// waitForCount waits until the output says s n times, failing if the
// command ends first.
func (l *liveBuffer) waitForCount(t *testing.T, s string, n int, done <-chan struct{}) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		l.mu.Lock()
		found, changed := strings.Count(l.b.String(), s) >= n, l.changed
		l.mu.Unlock()
		if found {
			return
		}
		select {
		case <-changed:
		case <-done:
			t.Fatalf("the command ended without saying %q %d times", s, n)
		case <-deadline:
			t.Fatalf("the command did not say %q %d times", s, n)
		}
	}
}
