package cli

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/mcp/oauthtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// runningApp opens a core on a new data folder and serves the command line
// from it, as the window does while it is open: the core holds the data
// file's lock throughout. Its questions not routed to a terminal are
// cancelled unseen (the core's default answerer), so a call's question that
// reached the window instead of the terminal would show as "cancel".
func runningApp(t *testing.T) (dir string, core *app.Core) {
	t.Helper()
	return runningAppWindow(t, nil)
}

// runningAppWindow is runningApp whose window hears the app's events
// (window may be nil), set as the window sets it: before servers connect.
func runningAppWindow(t *testing.T, window app.Emitter) (dir string, core *app.Core) {
	t.Helper()
	dir = t.TempDir()
	core, err := app.OpenCore(app.CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	if window != nil {
		core.SetEmitter(window)
	}
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	if err := core.ServeCLI(); err != nil {
		t.Fatal(err)
	}
	return dir, core
}

// TestCLI_WaitsForAStartingWindow: a command run while the window starts
// (it holds the data file but serves the command line only once its first
// frame is drawn) waits for it and runs there, instead of saying Gatehouse
// is already running.
func TestCLI_WaitsForAStartingWindow(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	dir := t.TempDir()
	core, err := app.OpenCore(app.CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	served := make(chan error, 1)
	time.AfterFunc(time.Second, func() { served <- core.ServeCLI() })
	code, out, errOut := gh(t, dir, "servers", "list")
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if code != 0 || !strings.Contains(out, "Demo server") {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestCLI_SameOutputWithTheWindowOpen runs the same commands on two data
// folders, one held by a running app (they go over its socket) and one not
// (the CLI opens the data file), and expects the very same exit codes and
// output, step by step.
func TestCLI_SameOutputWithTheWindowOpen(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	standInBrowser(t) // no step opens the real one
	window := &windowEvents{}
	withApp, core := runningAppWindow(t, window)
	without := t.TempDir()
	// The stand-in model (no model runs on these machines) answers each chat
	// step twice, without the app and then with it: its turns come in pairs.
	callEcho := llmtest.Turn{Text: []string{"Let me echo."}, ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "echo", Arguments: []string{`{"message":`, `"来自聊天"}`}}}}
	callAskCity := llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "ask_city", Arguments: []string{`{}`}}}}
	var turns []llmtest.Turn
	for _, step := range [][]llmtest.Turn{
		{{Text: []string{"里斯本五月", "很暖和。"}}},
		{callEcho, {Text: []string{"The server said ", "来自聊天", "."}}},
		{callEcho, {Text: []string{"OK, I won't."}}},
		{callEcho, {Text: []string{"Echoed."}}},
		{callAskCity, {Text: []string{"You chose a city."}}},
		{{Status: 401, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`}},
	} {
		turns = append(turns, step...)
		turns = append(turns, step...)
	}
	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: turns})
	importFile := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	if err := os.WriteFile(importFile, []byte(`{"mcpServers": {
		"files": {"command": "true", "args": ["--root", "/tmp"], "env": {"API_TOKEN": "secret-1"}},
		"Docs": {"type": "http", "url": "https://docs.example.com/mcp", "headers": {"Authorization": "Bearer secret-2"}}
	}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	folder := t.TempDir() // a folder the Files server may see
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
		{"roots: none by default", "", []string{"servers", "roots", "files"}, 0},
		{"roots: add a folder", "", []string{"servers", "roots", "files", "add", folder}, 0},
		{"roots: add one that is no folder", "", []string{"servers", "roots", "files", "add", filepath.Join(folder, "missing")}, 0},
		{"roots: list", "", []string{"servers", "roots", "Files"}, 0},
		{"roots: remove one it does not see", "", []string{"servers", "roots", "files", "remove", "/nowhere"}, 0},
		{"roots: remove", "", []string{"servers", "roots", "files", "remove", folder}, 0},
		{"roots: a wrong word", "", []string{"servers", "roots", "files", "forget", folder}, 0},
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
		{"providers: none yet", "", []string{"providers", "list"}, 0},
		{"providers add", "", []string{"providers", "add", "Local", "--base-url", "http://127.0.0.1:9/v1", "--model", "m1"}, 0},
		{"providers add: a key on the command line is refused", "", []string{"providers", "add", "Other", "--api-key", "sk-1"}, 0},
		{"providers add: a name that exists", "", []string{"providers", "add", "local", "--base-url", "http://127.0.0.1:9/v1", "--model", "m2"}, 0},
		{"providers list", "", []string{"providers", "list"}, 0},
		{"providers test: nothing answers", "", []string{"providers", "test", "local"}, 0},
		{"providers test: no such provider", "", []string{"providers", "test", "Nope"}, 0},
		{"providers remove: no such provider", "", []string{"providers", "remove", "Nope"}, 0},
		{"providers remove", "", []string{"providers", "remove", "LOCAL"}, 0},
		{"chat list: none yet", "", []string{"chat", "list"}, 0},
		{"chat export: no such conversation", "", []string{"chat", "export", "c-nope"}, 0},
		{"providers add the stand-in model", "", []string{"providers", "add", "Stand-in", "--base-url", stand.URL, "--model", "m"}, 0},
		{"chat: no such provider", "", []string{"chat", "--provider", "Nope", "hello"}, 0},
		{"chat: the model's text streams", "", []string{"chat", "--provider", "Stand-in", "五月的里斯本怎么样？"}, 0},
		{"chat: a tool call allowed from a script", "", []string{"chat", "--provider", "Stand-in", "--answers", answersFile(t, `["allow"]`), "Please echo"}, 0},
		{"chat: a tool call denied from a script", "", []string{"chat", "--provider", "Stand-in", "--answers", answersFile(t, `["deny"]`), "Please echo"}, 0},
		{"chat: a tool call allowed at the prompt", "o\n", []string{"chat", "--provider", "Stand-in", "Please echo"}, 0},
		{"chat: the server's form during the model's call", "", []string{"chat", "--provider", "Stand-in", "--answers", answersFile(t, `["allow", {"city":"Oslo"}]`), "Which city?"}, 0},
		{"chat: the provider fails", "", []string{"chat", "--provider", "Stand-in", "hello"}, 0},
		{"policies", "", []string{"policies"}, 0},
		{"policies set", "", []string{"policies", "set", "demo server", "allow"}, 0},
		{"policies set for one tool", "", []string{"policies", "set", "Demo server", "--tool", "echo", "deny"}, 0},
		{"policies set: a mode that does not exist", "", []string{"policies", "set", "Demo server", "maybe"}, 0},
		{"policies trust", "", []string{"policies", "trust", "Demo server", "on"}, 0},
		{"policies of one server", "", []string{"policies", "Demo server"}, 0},
		{"policies of no such server", "", []string{"policies", "Nope"}, 0},
		{"import: the preview only", "", []string{"servers", "import", importFile, "--dry-run"}, 0},
		{"import: not confirmed off a terminal", "", []string{"servers", "import", importFile}, 0},
		{"import: confirmed", "", []string{"servers", "import", importFile, "--yes"}, 0},
		{"import: again, the names exist", "", []string{"servers", "import", importFile, "--dry-run"}, 0},
		{"import: a file in no format", "", []string{"servers", "import", answersFile(t, `{"hello":1}`), "--yes"}, 0},
		{"list after importing", "", []string{"servers", "list"}, 0},
		{"signin: a local server does not sign in", "", []string{"servers", "signin", "Demo server"}, 0},
		{"signin: no such server", "", []string{"servers", "signin", "Nope"}, 0},
		{"signin: a server turned off", "", []string{"servers", "signin", "Trusted"}, 0},
		{"signout: a local server does not sign in", "", []string{"servers", "signout", "Demo server"}, 0},
		{"signout", "", []string{"servers", "signout", "Docs"}, 0},
		{"resources", "", []string{"resources", "Demo server"}, 0},
		{"resources of a server turned off", "", []string{"resources", "files"}, 0},
		{"resources of no such server", "", []string{"resources", "Nope"}, 0},
		{"read: text", "", []string{"read", "Demo server", "gatehouse-demo://readme"}, 0},
		{"read: JSON from a template, pretty-printed", "", []string{"read", "demo server", "gatehouse-demo://forecast/Oslo"}, 0},
		{"read: an image to a pipe", "", []string{"read", "Demo server", "gatehouse-demo://logo.png"}, 0},
		{"read: an image to a file", "", []string{"read", "Demo server", "gatehouse-demo://logo.png", "--out", filepath.Join(t.TempDir(), "logo.png")}, 0},
		{"read: a resource the server does not have", "", []string{"read", "Demo server", "gatehouse-demo://nope"}, 0},
		{"read needs a URI", "", []string{"read", "Demo server"}, 0},
		{"prompts", "", []string{"prompts", "Demo server"}, 0},
		{"prompt", "", []string{"prompt", "Demo server", "weekend_plan", `{"city":"Oslo","pace":"busy"}`}, 0},
		{"prompt: a required argument missing", "", []string{"prompt", "Demo server", "weekend_plan"}, 0},
		{"prompt: arguments that are not an object", "", []string{"prompt", "Demo server", "weekend_plan", `[1]`}, 0},
		{"prompt: no such prompt", "", []string{"prompt", "Demo server", "nope"}, 0},
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
	// The chat turns ran in the app: its store has their conversations, and
	// the window heard each turn as it ran and when it ended.
	convs, err := core.Store.Conversations(store.ConversationFilter{})
	if err != nil || len(convs) != 6 {
		t.Errorf("the app has %d conversations (%v)", len(convs), err)
	}
	if ended := window.chatEnded(); len(ended) != 6 {
		t.Errorf("the window heard %d turns end", len(ended))
	}
}

// windowEvents records what the app tells its window.
type windowEvents struct {
	mu      sync.Mutex
	events  []app.ChatEvent
	servers app.ServerList // the newest list, as the window shows it
}

// Emit implements app.Emitter.
func (w *windowEvents) Emit(name string, data any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch v := data.(type) {
	case app.ChatEvent:
		if name == app.EventChat {
			w.events = append(w.events, v)
		}
	case app.ServerList:
		if name == app.EventServers && v.Version > w.servers.Version {
			w.servers = v
		}
	}
}

// serverState is the state of the named server in the newest server list
// the window got.
func (w *windowEvents) serverState(name string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, v := range w.servers.Servers {
		if v.Input.Name == name {
			return v.Status.State
		}
	}
	return ""
}

// chatEnded returns the conversations whose turn the window saw end.
func (w *windowEvents) chatEnded() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var ids []string
	for _, ev := range w.events {
		if ev.Kind == app.ChatDone || ev.Kind == app.ChatFailed {
			ids = append(ids, ev.ConversationID)
		}
	}
	return ids
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
	path, err := applink.SocketPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := gh(t, dir, "servers", "list"); code != 0 || !strings.Contains(out, "Demo server") {
		t.Fatalf("no socket: code %d\n%s\n%s", code, out, errOut)
	}
	l, err := applink.Listen(path)
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
	path, err := applink.SocketPath(dir)
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

// TestCLI_URLTypedThroughTheApp: at the terminal of a call the running app
// makes, Enter says the opened web page is finished and c stops waiting for
// it, as without the app (TestCLI_URLTyped): the app's broker, which keeps
// the page, hears it and lists it no more. (Not in the byte-for-byte
// comparison: whether the wait is announced again after the result depends
// on when the line is read, with or without the app.)
func TestCLI_URLTypedThroughTheApp(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	dir, core := runningApp(t)
	cases := []struct {
		name, stdin, want string
	}{
		{"Enter", "o\n\n", "You said the web page is finished."},
		{"c", "o\nc\n", "You stopped waiting for the web page."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			record := standInBrowser(t)
			code, out, errOut := ghIn(t, dir, tc.stdin, "call", "Demo server", "connect_account")
			if code != 0 || !strings.Contains(out, "Opened the sign-in page") || !strings.Contains(errOut, "press Enter when you are done") || !strings.Contains(errOut, tc.want) {
				t.Errorf("code %d\nstdout: %s\nstderr: %s", code, out, errOut)
			}
			if runs := browserRuns(t, record); len(runs) != 1 {
				t.Errorf("the browser ran %d times; want 1", len(runs))
			}
			if opened := core.Broker.Opened(); len(opened) != 0 {
				t.Errorf("the app still waits for %d web pages", len(opened))
			}
		})
	}
}

// TestCLI_SignInThroughTheApp_E33: with the window open, `servers signin`
// signs in the app's own connection: the consent is asked in the terminal
// that ran it (the app's broker routes it there and records it), the
// start page, and through it the authorization page, opens in the
// (stand-in) browser only after "o", and
// the window shows the server connected as soon as the command says so.
// The terminal says the same as without the app (TestCLI_SignIn_E33),
// addresses aside: each side has its own authorization server and port.
func TestCLI_SignInThroughTheApp_E33(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	window := &windowEvents{}
	withApp, core := runningAppWindow(t, window)
	without := t.TempDir()
	type output struct {
		code        int
		out, errOut string
	}
	signIn := func(t *testing.T, dir string) output {
		t.Helper()
		record := standInBrowser(t)
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		peer, err := oauthtest.Start(ctx, oauthtest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := gh(t, dir, "servers", "add", "Calendar", "--url", peer.URL); code != 0 {
			t.Fatalf("add: %s", errOut)
		}
		if code, _, errOut := gh(t, dir, "call", "Calendar", "whoami"); code == 0 || !strings.Contains(errOut, "needs you to sign in first") {
			t.Fatalf("call before sign-in: %d %s", code, errOut)
		}
		done, run := ghAsync(t, dir, "o\n", "servers", "signin", "Calendar")
		run.stderr.waitFor(t, "Calendar wants you to sign in", done)
		startURL := waitBrowser(t, record, done)
		if !strings.HasPrefix(startURL, "http://127.0.0.1:") || !strings.Contains(startURL, "/start?s=") {
			t.Fatalf("browser got %q; want Gatehouse's start page", startURL)
		}
		resp, err := http.Get(startURL) // the browser: on to the authorization server, back to Gatehouse's loopback address
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		waitRun(t, done)
		if code, out, errOut := gh(t, dir, "call", "Calendar", "whoami"); code != 0 || !strings.Contains(out, "signed in") {
			t.Errorf("call after sign-in: %d %q %q", code, out, errOut)
		}
		if n := len(browserRuns(t, record)); n != 1 {
			t.Errorf("the browser ran %d times; want once", n)
		}
		return output{run.code, loopbackURLs.ReplaceAllString(run.out, "URL"), loopbackURLs.ReplaceAllString(run.errOut, "URL")}
	}
	want := signIn(t, without)
	got := signIn(t, withApp)
	if want.code != 0 || !strings.Contains(want.out, "Calendar: signed in.") || got != want {
		t.Errorf("with the app: %+v\nwithout: %+v", got, want)
	}
	if state := window.serverState("Calendar"); state != "connected" {
		t.Errorf("the window shows Calendar %q", state)
	}
	core.Broker.FlushHistory()
	hist, err := core.Store.History(store.HistoryFilter{ServerID: mustServer(t, core, "Calendar").ID})
	if err != nil || !slices.ContainsFunc(hist, func(h store.HistoryEntry) bool {
		return h.Mode == "signin" && h.Outcome == store.OutcomeAccepted
	}) {
		t.Errorf("the app's history lacks the accepted sign-in: %+v (%v)", hist, err)
	}
}

// loopbackURLs are the addresses of a sign-in test's own servers.
var loopbackURLs = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+[^\s]*`)

// TestCLI_ChatStoppedThroughTheApp: Ctrl-C during a chat turn the running
// app runs stops it there, and the terminal ends as without the app: the
// text so far, the stop said, exit 1. (The stand-in model holds its answer
// open until it is stopped; no model runs on these machines.)
func TestCLI_ChatStoppedThroughTheApp(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	window := &windowEvents{}
	withApp, core := runningAppWindow(t, window)
	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: []string{"Thinking"}, Hold: true},
		{Text: []string{"Thinking"}, Hold: true},
	}})
	type output struct {
		code        int
		out, errOut string
	}
	stopped := func(t *testing.T, dir string) output {
		t.Helper()
		if code, _, errOut := gh(t, dir, "providers", "add", "Stand-in", "--base-url", stand.URL, "--model", "m"); code != 0 {
			t.Fatalf("providers add: %s", errOut)
		}
		var out, errOut bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &syncBuffer{b: &out}, stderr: &errOut}
		rest, err := e.globalFlags([]string{"--data-dir", dir, "chat", "--provider", "Stand-in", "think"})
		if err != nil {
			t.Fatal(err)
		}
		ctx, interrupt := context.WithCancel(context.Background()) // what Ctrl-C ends
		done := make(chan int)
		go func() { done <- e.run(ctx, rest) }()
		deadline := time.Now().Add(30 * time.Second)
		for !strings.Contains(e.stdout.(*syncBuffer).String(), "Thinking") {
			if time.Now().After(deadline) {
				t.Fatal("the model's text did not stream")
			}
			time.Sleep(10 * time.Millisecond)
		}
		interrupt()
		select {
		case code := <-done:
			return output{code, e.stdout.(*syncBuffer).String(), errOut.String()}
		case <-time.After(30 * time.Second):
			t.Fatal("the turn did not stop")
		}
		return output{}
	}
	want := stopped(t, t.TempDir())
	got := stopped(t, withApp)
	if want.code != exitError || want.out != "Thinking\n" || got != want {
		t.Errorf("with the app: %+v\nwithout: %+v", got, want)
	}
	if stand.Answering() != 0 {
		t.Error("the model still answers")
	}
	if ended := window.chatEnded(); len(ended) != 1 {
		t.Errorf("the window heard %d turns end", len(ended))
	}
	if convs, err := core.Store.Conversations(store.ConversationFilter{}); err != nil || len(convs) != 1 {
		t.Errorf("the app has %d conversations (%v)", len(convs), err)
	}
}

// syncBuffer is a bytes.Buffer that a test reads while the command writes.
type syncBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
