//go:build windowtest

package window

import (
	"cmp"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestWindowChat drives a chat in the production binary's real WebKit
// window with real input events (xdotool), as a person would: the model
// calls server-everything's echo, the consent dialog asks, the person
// allows it from the keyboard, and the model gets the result; then the
// model calls the demo server's ask_city, whose question comes up in the
// middle of the call and is answered from the keyboard. It asserts what a
// person would check: the model received the echo's result and the city
// typed, and the history (read from the data file after the app closed)
// shows each call allowed once and the question answered.
//
// The model is a stand-in (llm/llmtest): no model can run on these
// machines. It streams OpenAI's chat completions format and answers the
// turns below in order. The MCP servers are real.
//
// The screenshots are for the closing note: window-chat-approval.png (a
// chat with a tool call card waiting behind the approval dialog) and
// window-chat-elicitation.png (a server's question in the middle of a chat
// tool call).
func TestWindowChat(t *testing.T) {
	bin := binaryPath(t)
	requireTools(t, "Xvfb", "xdotool", "import", "convert", "dbus-run-session", "node")
	out := outputDir(t)
	everything := filepath.Join(repoRoot(t), "testdata", "peers", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(everything); err != nil {
		t.Fatalf("server-everything not installed: run `make peers` (%v)", err)
	}
	node, _ := exec.LookPath("node")

	const greeting = "Hello from the window test"
	model := llmtest.NewOpenAI(t, llmtest.Script{Models: []string{"standin-chat-1"}, Turns: []llmtest.Turn{
		// The echo tool's name is prefixed with its server's: the demo server has an echo too.
		{ToolCalls: []llmtest.ToolCall{{ID: "call_echo", Name: "Everything__echo",
			Arguments: []string{`{"mess`, `age":"` + greeting[:9], greeting[9:] + `"}`}}},
			Usage: &llmtest.Usage{Input: 412, Output: 23}},
		{Text: llmtest.Chunks("The server echoed your greeting back: **"+greeting+"**.", 7),
			Usage: &llmtest.Usage{Input: 455, Output: 17}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_city", Name: "ask_city", Arguments: []string{`{`, `}`}}},
			Usage: &llmtest.Usage{Input: 490, Output: 12}},
		{Text: llmtest.Chunks("You said Lisbon: I will look up the weather there.", 7),
			Usage: &llmtest.Usage{Input: 530, Output: 14}},
	}})

	data := t.TempDir()
	cli(t, bin, data, "providers", "add", "Stand-in model", "--base-url", model.URL, "--model", "standin-chat-1")
	cli(t, bin, data, "servers", "add", "Everything", "--", node, everything, "stdio")

	display := startXvfb(t)
	app, win := launch(t, bin, display, data, filepath.Join(out, "window-chat-app.log"))
	// Screenshots between the ones a person looks at all go to one file.
	scratch := filepath.Join(out, "window-chat.png")
	waitForDrawing(t, app, display, win, scratch)
	waitForProcess(t, app, everything)
	// server-everything takes a moment to answer initialize after it starts.
	time.Sleep(2 * time.Second)

	w := &windowInput{t: t, display: display, win: win}
	w.click(40, 69) // Chat, the first section of the sidebar
	w.click(750, 650)
	w.typeText("Please echo a greeting")
	w.key("Return")

	approval := filepath.Join(out, "window-chat-approval.png")
	if !waitForBrightness(t, app, display, win, approval, func(b float64) bool { return b < 0.8 }) {
		t.Fatalf("no approval dialog came up (see %s); the stand-in got %d chat requests; log:\n%s",
			approval, len(model.ChatRequests()), readLog(app.logPath))
	}
	time.Sleep(700 * time.Millisecond) // fonts and layout settle before the screenshot a person looks at
	waitForBrightness(t, app, display, win, approval, func(b float64) bool { return b < 0.8 })
	first := model.ChatRequests()
	if len(first) != 1 || !offers(t, first[0], "Everything__echo") || !offers(t, first[0], "ask_city") {
		t.Fatalf("the first request should offer Everything__echo and ask_city (are the servers connected?): %d requests", len(first))
	}
	t.Logf("approval dialog on screen; screenshot %s", approval)

	w.allowOnce()
	if !waitForBrightness(t, app, display, win, scratch, func(b float64) bool { return b > 0.9 }) {
		t.Fatalf("the approval dialog did not close after Allow once")
	}
	echoed := waitForChatRequests(t, app, model, 2)
	if got, want := lastToolResult(t, echoed[1]), `"Echo: `+greeting+`"`; got != want {
		t.Fatalf("the model's second request should end with the echo's result %s; it ends with %q", want, got)
	}

	// A second message: the model calls the demo server's ask_city, which
	// asks the person for a city in the middle of the call.
	w.click(750, 650)
	w.typeText("What is the weather where I am?")
	w.key("Return")
	if !waitForBrightness(t, app, display, win, scratch, func(b float64) bool { return b < 0.8 }) {
		t.Fatalf("no approval dialog came up for ask_city (see %s)", scratch)
	}
	time.Sleep(500 * time.Millisecond)
	w.allowOnce()
	// The approval dialog closes and the server's question opens in its
	// place: the window stays dimmed, so give the question time to come.
	time.Sleep(1500 * time.Millisecond)
	elicitation := filepath.Join(out, "window-chat-elicitation.png")
	if !waitForBrightness(t, app, display, win, elicitation, func(b float64) bool { return b < 0.8 }) {
		t.Fatalf("the server's question did not come up (see %s)", elicitation)
	}
	t.Logf("the server's question on screen; screenshot %s", elicitation)

	// The form's first field has the focus: type the city, Enter submits.
	w.typeText("Lisbon")
	w.key("Return")
	answered := waitForChatRequests(t, app, model, 4)
	if got := lastToolResult(t, answered[3]); !strings.Contains(got, "Lisbon") {
		t.Fatalf("the model's last request should end with ask_city's result holding the answer Lisbon; it ends with %q", got)
	}
	done := filepath.Join(out, "window-chat-done.png")
	waitForBrightness(t, app, display, win, done, func(b float64) bool { return b > 0.9 })
	time.Sleep(time.Second)
	waitForBrightness(t, app, display, win, done, func(b float64) bool { return b > 0.9 })

	// What the History pane shows, read from the data file once the app
	// has closed it: each call was asked and allowed once (the key presses
	// reached Allow once, not another button), and the city was answered.
	stopGroup(t, app.pid, app.done)
	st, err := store.Open(data, nil)
	if err != nil {
		t.Fatalf("open the data folder after the app closed: %v", err)
	}
	defer st.Close()
	entries, err := st.History(store.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := len(entries) - 1; i >= 0; i-- { // oldest first
		e := entries[i]
		if e.Mode == "tool-run" {
			continue // the calls as they ran; this test is about the questions
		}
		got = append(got, e.ServerName+": "+cmp.Or(e.Message, e.Tool)+": "+e.Outcome+" "+e.Detail.In(i18n.English))
	}
	want := []string{
		"Everything: echo: accepted allowed: once",
		"Demo server: ask_city: accepted allowed: once",
		"Demo server: Which city should I look up?: accepted ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the history should read\n%s\nit reads\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// waitForChatRequests waits until the stand-in model has received n chat
// requests and returns them.
func waitForChatRequests(t *testing.T, a *app, model *llmtest.Server, n int) []llmtest.Received {
	t.Helper()
	deadline := time.Now().Add(renderTimeout)
	for {
		if got := model.ChatRequests(); len(got) >= n {
			return got
		}
		if a.exited() {
			t.Fatalf("gatehouse exited: %v; log:\n%s", a.err, readLog(a.logPath))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stand-in model got %d chat requests within %v, not %d; log:\n%s",
				len(model.ChatRequests()), renderTimeout, n, readLog(a.logPath))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// offers reports whether a chat request offers the model a tool of that name.
func offers(t *testing.T, r llmtest.Received, name string) bool {
	var req struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	r.Decode(t, &req)
	for _, tool := range req.Tools {
		if tool.Function.Name == name {
			return true
		}
	}
	return false
}

// lastToolResult returns the content of a chat request's last message when
// it is a tool result, else "".
func lastToolResult(t *testing.T, r llmtest.Received) string {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	r.Decode(t, &req)
	if len(req.Messages) == 0 || req.Messages[len(req.Messages)-1].Role != "tool" {
		return ""
	}
	return string(req.Messages[len(req.Messages)-1].Content)
}

// cli runs a gatehouse command on a data folder before the window starts.
func cli(t *testing.T, bin, data string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--data-dir", data}, args...)...)
	cmd.Env = append(cleanEnv(), "HOME="+t.TempDir())
	if outb, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gatehouse %s: %v\n%s", strings.Join(args, " "), err, outb)
	}
}

// waitForProcess waits until the app has started a process whose command
// line contains what.
func waitForProcess(t *testing.T, a *app, what string) {
	t.Helper()
	deadline := time.Now().Add(windowTimeout)
	for time.Now().Before(deadline) {
		for _, p := range descendants(a.pid) {
			if strings.Contains(p.cmd, what) {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the app did not start %s within %v; log:\n%s", what, windowTimeout, readLog(a.logPath))
}

// windowInput sends real input events (XTEST) to the app's window. There is
// no window manager on Xvfb, so each focuses the window first.
type windowInput struct {
	t       *testing.T
	display string
	win     string
}

func (w *windowInput) xdotool(args ...string) {
	w.t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(cleanEnv(), "DISPLAY="+w.display)
	if outb, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("xdotool %s: %v\n%s", strings.Join(args, " "), err, outb)
	}
}

// click clicks at x, y in the window's coordinates.
func (w *windowInput) click(x, y int) {
	w.t.Helper()
	w.xdotool("windowfocus", "--sync", w.win, "mousemove", "--window", w.win, itoa(x), itoa(y), "click", "1")
	time.Sleep(200 * time.Millisecond)
}

// typeText types text as key presses.
func (w *windowInput) typeText(text string) {
	w.t.Helper()
	w.xdotool("windowfocus", "--sync", w.win, "type", "--delay", "30", text)
}

// key presses keys (xdotool names: Return, Tab, shift+Tab), one after the other.
func (w *windowInput) key(keys ...string) {
	w.t.Helper()
	w.xdotool(append([]string{"windowfocus", "--sync", w.win, "key", "--delay", "80"}, keys...)...)
}

// allowOnce answers the tool call approval on screen with Allow once, from
// the keyboard: the dialog opens with the focus on its safe choice, Deny,
// and Allow once is the third button after it (Always allow this tool,
// Allow in this conversation, Allow once). One Tab more wraps round to the
// arguments' tree: the dialog keeps the focus inside itself.
func (w *windowInput) allowOnce() {
	w.t.Helper()
	w.key("Tab", "Tab", "Tab", "Return")
}

func itoa(i int) string { return strconv.Itoa(i) }
