//go:build windowtest

package window

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

const (
	// agentServer is the gateway's entry name in Qwen Code's settings, as
	// Connect an app writes it.
	agentServer = "gatehouse"
	// agentTool is the ledger server's send_payment as Qwen Code names it:
	// mcp__<its server>__<the tool as the gateway lists it>, and the
	// gateway lists it under the chat's unique name Ledger__send_payment.
	agentTool = "mcp__" + agentServer + "__Ledger__send_payment"
	// agentTimeout bounds one headless run of the agent.
	agentTimeout = 90 * time.Second
)

// TestWindowAgentQwenCode drives a real coding agent from npm, Qwen Code
// (testdata/agents, pinned), through Gatehouse's gateway as a person would
// set it up: Gatehouse's window runs with a ledger server (a TypeScript SDK
// server that logs every request it receives), `gatehouse connect qwen
// --yes` (Connect an app, answered by the running app) writes the gateway
// into Qwen Code's own ~/.qwen/settings.json, and Qwen Code runs headless
// with nothing else configured. The model is the stand-in of llm/llmtest
// (no model can run on these machines): it finds the deferred MCP tool with
// Qwen Code's tool_search and calls it with tool_call, as a model must.
//
// First run: Gatehouse's approval comes up in the real window naming the
// app (window-agent-approval.png), a real mouse click on Allow once lets it
// through; the ledger's own log shows the call and the payment, and Qwen
// Code printed the server's result and sent it back to the model. Second
// run: a click on Deny; the ledger never saw a second tools/call, and the
// agent printed Gatehouse's refusal. History names the app both times.
//
// Qwen Code runs with --yolo: without it a headless run refuses every tool
// that needs its own confirmation. Gatehouse's dialog is then the only gate,
// which is what this test is about.
func TestWindowAgentQwenCode(t *testing.T) {
	started := time.Now()
	bin := binaryPath(t)
	requireTools(t, "Xvfb", "xdotool", "import", "convert", "dbus-run-session", "node")
	out := outputDir(t)
	root := repoRoot(t)
	qwen := filepath.Join(root, "testdata", "agents", "node_modules", "@qwen-code", "qwen-code", "cli-entry.js")
	if _, err := os.Stat(qwen); err != nil {
		t.Fatalf("Qwen Code not installed: run `make agents` (%v)", err)
	}
	ledgerPeer := filepath.Join(root, "testdata", "peers", "ledger-server.mjs")
	if _, err := os.Stat(filepath.Join(root, "testdata", "peers", "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Fatalf("test peers not installed: run `make peers` (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(bin), "gatehouse-gateway")); err != nil {
		t.Fatalf("gatehouse-gateway is not beside %s (make build makes both)", bin)
	}
	node, _ := exec.LookPath("node")

	model := llmtest.NewOpenAI(t, llmtest.Script{Models: []string{"standin-agent-1"}, Turns: []llmtest.Turn{
		// Allowed: find the deferred tool, call it, say what happened.
		{ToolCalls: []llmtest.ToolCall{{ID: "call_search_1", Name: "tool_search",
			Arguments: []string{`{"query":"select:` + agentTool + `"}`}}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_pay_1", Name: "tool_call",
			Arguments: []string{`{"name":"` + agentTool + `",`, `"arguments":{"to":"Alice","amount":12}}`}}}},
		{Text: llmtest.Chunks("I am a stand-in model: the payment call came back.", 9)},
		// Denied: the same, to Bob.
		{ToolCalls: []llmtest.ToolCall{{ID: "call_search_2", Name: "tool_search",
			Arguments: []string{`{"query":"select:` + agentTool + `"}`}}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_pay_2", Name: "tool_call",
			Arguments: []string{`{"name":"` + agentTool + `",`, `"arguments":{"to":"Bob","amount":99}}`}}}},
		{Text: llmtest.Chunks("I am a stand-in model: the payment call came back.", 9)},
	}})

	data := t.TempDir()
	ledger := filepath.Join(t.TempDir(), "ledger.log")
	cli(t, bin, data, "servers", "add", "Ledger", "--", node, ledgerPeer, ledger)

	// The person's home and runtime folder, shared by the window, the
	// command line and the agent (and so the gateway the agent launches).
	home, runtime := t.TempDir(), t.TempDir()
	if err := os.Chmod(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	person := []string{"HOME=" + home, "XDG_RUNTIME_DIR=" + runtime,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share")}

	display := startXvfb(t)
	app, win := launch(t, bin, display, data, filepath.Join(out, "window-agent-app.log"), person...)
	scratch := filepath.Join(out, "window-agent.png")
	waitForDrawing(t, app, display, win, scratch)
	waitForProcess(t, app, ledgerPeer)

	// Qwen Code's own settings, there before Gatehouse: no usage statistics
	// or update checks sent from a test. Connect an app must keep them.
	settings := filepath.Join(home, ".qwen", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(qwenSettings), 0o600); err != nil {
		t.Fatal(err)
	}

	// Connect an app, from the command line, answered by the running app.
	connect := exec.Command(bin, "--data-dir", data, "connect", "qwen", "--yes")
	connect.Env = append(cleanEnv(), person...)
	connected, err := connect.CombinedOutput()
	if err != nil {
		t.Fatalf("gatehouse connect qwen --yes: %v\n%s\nlog:\n%s", err, connected, readLog(app.logPath))
	}
	t.Logf("gatehouse connect qwen --yes:\n%s", connected)
	checkQwenSettings(t, settings, bin, data)

	w := &windowInput{t: t, display: display, win: win}

	// Allowed.
	run := startAgent(t, qwen, node, display, person, model.URL, "Pay Alice 12 with the ledger.")
	approval := filepath.Join(out, "window-agent-approval.png")
	if !waitForBrightness(t, app, display, win, approval, func(b float64) bool { return b < 0.8 }) {
		t.Fatalf("no approval dialog came up for the agent's call (see %s); the stand-in got %d chat requests; agent:\n%s\nlog:\n%s",
			approval, len(model.ChatRequests()), run.output(), readLog(app.logPath))
	}
	time.Sleep(700 * time.Millisecond) // fonts and layout settle before the screenshot a person looks at
	waitForBrightness(t, app, display, win, approval, func(b float64) bool { return b < 0.8 })
	t.Logf("approval dialog on screen; screenshot %s", approval)
	if got := ledgerLines(t, ledger); slices.Contains(got, "request tools/call send_payment") {
		t.Fatalf("the ledger server got the call before the person answered: %q", got)
	}
	first := model.ChatRequests()[0]
	if !strings.Contains(string(first.Body), agentTool) {
		t.Fatalf("Qwen Code's first request does not name %s among its deferred tools: is the gateway connected?\n%.3000s", agentTool, first.Body)
	}
	// tool_search gave the model the tool's declaration as the gateway
	// passed it on: the server's own description.
	if got := lastToolResult(t, model.ChatRequests()[1]); !strings.Contains(got, "Sends money from your account to someone.") {
		t.Fatalf("Qwen Code's tool_search did not give the model send_payment's description: %q", got)
	}
	w.allowOnce() // from the keyboard, as the chat's window test answers: the same dialog in any theme and language
	allowed := run.wait(t)
	keep(t, filepath.Join(out, "window-agent-qwen-allow.jsonl"), allowed)
	if got, isErr := agentToolResult(t, allowed, "call_pay_1"); got != "Sent 12 to Alice." || isErr {
		t.Fatalf("Qwen Code should have printed the server's result \"Sent 12 to Alice.\" for its tool_call; it printed %q (error: %v):\n%s", got, isErr, allowed)
	}
	if got := ledgerLines(t, ledger); !slices.Contains(got, "request tools/call send_payment") || !slices.Contains(got, "paid 12 to Alice") {
		t.Fatalf("after Allow the ledger should show the call and the payment; it reads %q", got)
	}
	if got := lastToolResult(t, model.ChatRequests()[2]); !strings.Contains(got, "Sent 12 to Alice.") {
		t.Fatalf("Qwen Code did not send the server's result back to the model: %q", got)
	}
	t.Logf("allowed: the ledger ran it and Qwen Code printed the result (%v so far)", time.Since(started).Round(time.Second))

	// Denied.
	if !waitForBrightness(t, app, display, win, scratch, func(b float64) bool { return b > 0.9 }) {
		t.Fatalf("the approval dialog did not close after Allow once (see %s)", scratch)
	}
	before := ledgerLines(t, ledger)
	run = startAgent(t, qwen, node, display, person, model.URL, "Pay Bob 99 with the ledger.")
	denial := filepath.Join(out, "window-agent-approval-deny.png")
	if !waitForBrightness(t, app, display, win, denial, func(b float64) bool { return b < 0.8 }) {
		t.Fatalf("no approval dialog came up for the second call (see %s); agent:\n%s", denial, run.output())
	}
	time.Sleep(700 * time.Millisecond)
	waitForBrightness(t, app, display, win, denial, func(b float64) bool { return b < 0.8 })
	w.key("Return") // the dialog opens with the focus on its safe choice, Deny
	denied := run.wait(t)
	keep(t, filepath.Join(out, "window-agent-qwen-deny.jsonl"), denied)
	if got, isErr := agentToolResult(t, denied, "call_pay_2"); !strings.Contains(got, "Gatehouse did not call") || !isErr {
		t.Fatalf("Qwen Code should have printed Gatehouse's refusal as its tool_call's error; it printed %q (error: %v):\n%s", got, isErr, denied)
	}
	after := ledgerLines(t, ledger)
	if calls := count(after, "request tools/call send_payment"); calls != 1 || slices.Contains(after, "paid 99 to Bob") {
		t.Fatalf("after Deny the ledger should still show one call only; it reads %q (before the run: %q)", after, before)
	}
	if got := lastToolResult(t, model.ChatRequests()[5]); !strings.Contains(got, "Gatehouse did not call") {
		t.Fatalf("the model should have got Gatehouse's refusal as the tool's result; it got %q", got)
	}

	// The History pane, for a person to look at: both calls, the app named.
	if !waitForBrightness(t, app, display, win, scratch, func(b float64) bool { return b > 0.9 }) {
		t.Fatalf("the approval dialog did not close after Deny (see %s)", scratch)
	}
	w.click(40, 178)                 // History, the fourth section of the sidebar
	w.xdotool("mousemove", "0", "0") // no tooltip over what the screenshot shows
	time.Sleep(time.Second)
	history := filepath.Join(out, "window-agent-history.png")
	waitForDrawing(t, app, display, win, history)
	t.Logf("History pane: screenshot %s", history)

	// Undo puts Qwen Code's settings back as they were, byte for byte.
	undo := exec.Command(bin, "--data-dir", data, "connect", "--undo", "qwen", "--yes")
	undo.Env = append(cleanEnv(), person...)
	if outb, err := undo.CombinedOutput(); err != nil {
		t.Fatalf("gatehouse connect --undo qwen --yes: %v\n%s", err, outb)
	}
	if b, err := os.ReadFile(settings); err != nil || string(b) != qwenSettings {
		t.Fatalf("after undo %s should read as before Connect an app:\n%s\nit reads (%v):\n%s", settings, qwenSettings, err, b)
	}

	// History, read from the data file once the app has closed it: both
	// calls, from the app, named as it claims and as the system reports.
	stopGroup(t, app.pid, app.done)
	checkAgentHistory(t, data)
	t.Logf("the whole test took %v", time.Since(started).Round(time.Second))
}

// qwenSettings is the person's own ~/.qwen/settings.json before Connect an
// app: Qwen Code sends no usage statistics and checks for no update. It is
// as Qwen Code itself writes it, with its "$version": a file without one,
// Qwen Code rewrites at its start (checked with 0.24.4), and Gatehouse then
// refuses to undo, rightly, since the file changed after it wrote it.
const qwenSettings = `{
  "privacy": {
    "usageStatisticsEnabled": false
  },
  "general": {
    "enableAutoUpdate": false
  },
  "$version": 4
}
`

// checkQwenSettings checks the entry Connect an app wrote into Qwen Code's
// settings (the installed program, the data folder, the gateway command),
// and that the person's own settings are still there.
func checkQwenSettings(t *testing.T, path, bin, data string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s after Connect an app: %v", path, err)
	}
	var settings struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
		Privacy struct {
			UsageStatisticsEnabled *bool `json:"usageStatisticsEnabled"`
		} `json:"privacy"`
		General struct {
			EnableAutoUpdate *bool `json:"enableAutoUpdate"`
		} `json:"general"`
	}
	if err := json.Unmarshal(b, &settings); err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", path, err, b)
	}
	e, ok := settings.MCPServers[agentServer]
	want := []string{"--data-dir", data, "gateway"}
	realBin, _ := filepath.EvalSymlinks(bin)
	if !ok || e.Command != realBin || !slices.Equal(e.Args, want) {
		t.Fatalf("%s should run %s %q as %q; it holds:\n%s", path, realBin, want, agentServer, b)
	}
	if p, g := settings.Privacy.UsageStatisticsEnabled, settings.General.EnableAutoUpdate; p == nil || *p || g == nil || *g {
		t.Fatalf("Connect an app lost Qwen Code's own settings in %s:\n%s", path, b)
	}
}

// agentRun is one headless run of the agent.
type agentRun struct {
	cmd  *exec.Cmd
	buf  *syncBuffer
	done chan error
}

// startAgent runs Qwen Code headless in a fresh project folder, with the
// person's environment (its home holds the settings Connect an app wrote),
// against the stand-in model, printing its events as JSON lines.
func startAgent(t *testing.T, qwen, node, display string, person []string, modelURL, prompt string) *agentRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, node, qwen, "--auth-type", "openai", "--openai-base-url", modelURL,
		"--openai-api-key", "standin", "-m", "standin-agent-1", "--yolo", "-o", "stream-json", prompt)
	cmd.Dir = t.TempDir()
	cmd.Env = append(append(cleanEnv(), person...), "DISPLAY="+display)
	// Its own process group: qwen's entry starts the agent as a child
	// process, which launches the gateway; a time out or the test's end
	// stops them all, and so closes the output they share.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	r := &agentRun{cmd: cmd, buf: &syncBuffer{}, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = r.buf, r.buf
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Qwen Code: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	go func() { r.done <- cmd.Wait() }()
	return r
}

// syncBuffer is a bytes.Buffer the agent's output goroutines and the test
// may use at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// output is what the agent printed so far, for failure messages.
func (r *agentRun) output() string { return r.buf.String() }

// wait waits for the run to end and returns what it printed.
func (r *agentRun) wait(t *testing.T) string {
	t.Helper()
	if err := <-r.done; err != nil {
		t.Fatalf("Qwen Code: %v\n%s", err, r.buf.String())
	}
	return r.buf.String()
}

// agentToolResult finds, in what Qwen Code printed (-o stream-json: one
// JSON event a line), the tool result it got for the model's call id, and
// whether it was an error.
func agentToolResult(t *testing.T, output, id string) (string, bool) {
	t.Helper()
	for _, line := range strings.Split(output, "\n") {
		var ev struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil || ev.Type != "user" {
			continue
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			IsError   bool            `json:"is_error"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(ev.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type != "tool_result" || b.ToolUseID != id {
				continue
			}
			var text string
			if json.Unmarshal(b.Content, &text) != nil {
				text = string(b.Content)
			}
			return text, b.IsError
		}
	}
	return "", false
}

// keep writes what the agent printed into the test's output folder.
func keep(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ledgerLines reads the ledger server's own log.
func ledgerLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the ledger server's log: %v", err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func count(lines []string, line string) int {
	n := 0
	for _, l := range lines {
		if l == line {
			n++
		}
	}
	return n
}

// checkAgentHistory checks that History has both calls, allowed then
// denied, each from the app through the gateway with its name and its
// launcher. The gateway's fields are read from the entry's JSON.
func checkAgentHistory(t *testing.T, data string) {
	t.Helper()
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
		b, err := json.Marshal(entries[i])
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Mode, Tool, Outcome, Source, Client, Launcher string }
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(e.Client, "qwen") || e.Launcher == "" {
			t.Errorf("History entry %+v does not name Qwen Code (as it calls itself) and the program that launched the gateway", e)
		}
		got = append(got, strings.Join([]string{e.Mode, e.Tool, e.Outcome, e.Source}, " "))
		t.Logf("history: %s | %s | %s", got[len(got)-1], e.Client, e.Launcher)
	}
	// The question and its answer, then the call as it ran (or not).
	want := []string{"tool-call send_payment accepted client", "tool-run send_payment ok client",
		"tool-call send_payment declined client", "tool-run send_payment denied client"}
	if !slices.Equal(got, want) {
		t.Fatalf("History should hold, oldest first (mode tool outcome source):\n%s\nit holds:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}
