package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Real clients no one here wrote, in front of `gatehouse gateway` (this
// test binary, run as the CLI) and the running app's gateway: MCP
// Inspector's CLI and the TypeScript SDK's client. Behind it: the real
// server-everything and the ledger server, whose own log proves what it
// received. The person (the window's answerer) allows every call but the
// payments to eve.

// gatewayFixture is a running app serving the gateway, with its servers.
type gatewayFixture struct {
	dir, runtime, ledger string
	core                 *app.Core
	asked                chan *mcp.Question
}

func newGatewayFixture(t *testing.T) *gatewayFixture {
	t.Helper()
	f := &gatewayFixture{dir: t.TempDir(), runtime: runtimeDir(t), asked: make(chan *mcp.Question, 16)}
	f.ledger = filepath.Join(t.TempDir(), "ledger")
	t.Setenv("XDG_RUNTIME_DIR", f.runtime)
	entry := everythingEntry(t)
	core, err := app.OpenCore(app.CoreOptions{DataDir: f.dir})
	if err != nil {
		t.Fatal(err)
	}
	f.core = core
	t.Cleanup(func() { core.Close() })
	_, file, _, _ := runtime.Caller(0)
	ledgerScript := filepath.Join(filepath.Dir(file), "..", "testdata", "peers", "ledger-server.mjs")
	var ids []string
	for _, s := range []store.Server{
		{Name: "Everything", Enabled: true, Transport: store.TransportStdio, Stdio: &store.StdioConfig{Command: "node", Args: []string{entry, "stdio"}}},
		{Name: "Bank", Enabled: true, Transport: store.TransportStdio, Stdio: &store.StdioConfig{Command: "node", Args: []string{ledgerScript, f.ledger}}},
	} {
		srv, err := core.Store.PutServer(s)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, srv.ID)
	}
	core.SetAnswerer(denyEve{f.asked})
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, id := range ids {
		if err := core.Manager.WaitConnected(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if err := core.ServeGateway(); err != nil {
		t.Fatal(err)
	}
	return f
}

// denyEve allows every tool call but those whose arguments name eve.
type denyEve struct{ asked chan *mcp.Question }

func (p denyEve) Present(_ context.Context, q *mcp.Question) (mcp.Response, error) {
	p.asked <- q
	if q.ToolCall != nil && !strings.Contains(string(q.ToolCall.Arguments), "eve") {
		return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeOnce}, nil
	}
	return mcp.Response{Action: mcp.ActionDecline}, nil
}
func (denyEve) Notify(mcp.Notice)              {}
func (denyEve) OpenedChanged([]mcp.OpenedPage) {}

// env is what `gatehouse gateway` (this test binary) needs to find the app.
func (f *gatewayFixture) env() []string {
	return []string{"GATEHOUSE_CLI_MAIN=1", "XDG_RUNTIME_DIR=" + f.runtime, "GATEHOUSE_DATA_DIR=" + f.dir}
}

// ledgerText is the ledger server's own record of what it received.
func (f *gatewayFixture) ledgerText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(f.ledger)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// inspectorCLI returns MCP Inspector's CLI (bench/node's pinned 2.12),
// skipping the test when it is not installed (make test-go and make
// bench-deps install it), and failing it then under
// GATEHOUSE_REQUIRE_PEERS=1, as make test runs.
func inspectorCLI(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "bench", "node", "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatal("MCP Inspector is not installed in bench/node (run: make bench-deps)")
		}
		t.Skip("MCP Inspector is not installed in bench/node (run: make bench-deps)")
	}
	return path
}

// inspector runs the Inspector's CLI against `gatehouse gateway` and
// decodes what it prints.
func (f *gatewayFixture) inspector(t *testing.T, out any, args ...string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmdArgs := []string{inspectorCLI(t), "--cli", self, "gateway"}
	for _, e := range f.env() {
		cmdArgs = append(cmdArgs, "-e", e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append(cmdArgs, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	stdout, err := cmd.Output()
	// Exit 5 is the Inspector's "the tool returned isError": its result is
	// printed all the same.
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 5 {
		err = nil
	}
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("inspector %q: %v\n%s\n%s", args, err, stdout, stderr)
	}
	if err := json.Unmarshal(stdout, out); err != nil {
		t.Fatalf("inspector %q printed %s: %v", args, stdout, err)
	}
}

func TestGateway_MCPInspectorCLI(t *testing.T) {
	f := newGatewayFixture(t)
	var tools struct {
		Tools []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"tools"`
	}
	f.inspector(t, &tools, "--method", "tools/list")
	var toolNames []string
	for _, tool := range tools.Tools {
		toolNames = append(toolNames, tool.Name)
	}
	for _, want := range []string{"Everything__echo", "Bank__send_payment"} {
		if !slices.Contains(toolNames, want) {
			t.Errorf("tools/list lacks %s: %q", want, toolNames)
		}
	}

	var echoed struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	f.inspector(t, &echoed, "--method", "tools/call", "--tool-name", "Everything__echo", "--tool-arg", "message=from the inspector")
	if echoed.IsError || len(echoed.Content) == 0 || !strings.Contains(echoed.Content[0].Text, "from the inspector") {
		t.Errorf("tools/call echo: %+v", echoed)
	}
	var paid, refused struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	f.inspector(t, &paid, "--method", "tools/call", "--tool-name", "Bank__send_payment", "--tool-arg", "to=ada", "amount=5")
	f.inspector(t, &refused, "--method", "tools/call", "--tool-name", "Bank__send_payment", "--tool-arg", "to=eve", "amount=1000")
	if paid.IsError || !refused.IsError || len(refused.Content) == 0 || !strings.Contains(refused.Content[0].Text, "did not call send_payment") {
		t.Errorf("allowed: %+v; denied: %+v", paid, refused)
	}
	if got := f.ledgerText(t); !strings.Contains(got, "paid 5 to ada") || strings.Contains(got, "eve") || strings.Count(got, "request tools/call") != 1 {
		t.Errorf("the ledger server's own log: %q", got)
	}

	var read struct {
		Contents []struct {
			URI  string `json:"uri"`
			Text string `json:"text"`
		} `json:"contents"`
	}
	f.inspector(t, &read, "--method", "resources/read", "--uri", "demo://resource/dynamic/text/3")
	if len(read.Contents) == 0 || read.Contents[0].URI != "demo://resource/dynamic/text/3" {
		t.Errorf("resources/read: %+v", read)
	}
	var prompt struct {
		Messages []json.RawMessage `json:"messages"`
	}
	f.inspector(t, &prompt, "--method", "prompts/get", "--prompt-name", "Everything__args-prompt", "--prompt-args", "city=Oslo")
	if len(prompt.Messages) == 0 || !strings.Contains(string(prompt.Messages[0]), "Oslo") {
		t.Errorf("prompts/get: %s", prompt.Messages)
	}

	var apps []store.ClientApp
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) { // calls are counted every second
		apps, err = f.core.Store.ClientApps()
		if err != nil || len(apps) == 1 && apps[0].Calls == 3 || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || len(apps) != 1 || filepath.Base(apps[0].Launcher) != "node" || apps[0].Calls != 3 {
		t.Errorf("the app as Gatehouse knows it: %+v, %v", apps, err)
	}
	close(f.asked)
	for q := range f.asked {
		if q.ToolCall == nil || q.ToolCall.Client == nil || filepath.Base(q.ToolCall.Client.Launcher) != "node" || q.ToolCall.Client.Name == "" {
			t.Errorf("a question does not say who asks: %+v", q.ToolCall)
		}
	}
}

func TestGateway_TypeScriptSDKClient(t *testing.T) {
	f := newGatewayFixture(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "testdata", "peers", "gateway-client.mjs")
	run := func(tool, args string) map[string]any {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", script, tool, args, "--", self, "gateway")
		cmd.Env = append(os.Environ(), f.env()...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the TypeScript client: %v\n%s", err, out)
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("it printed %s", out)
		}
		return got
	}
	allowed := run("Bank__send_payment", `{"to":"ada","amount":7}`)
	denied := run("Bank__send_payment", `{"to":"eve","amount":7000}`)
	b, _ := json.Marshal(allowed)
	if !strings.Contains(string(b), "Sent 7 to ada") || !strings.Contains(string(b), "Everything__echo") {
		t.Errorf("allowed: %s", b)
	}
	if b, _ := json.Marshal(denied); !strings.Contains(string(b), `"isError":true`) || !strings.Contains(string(b), "did not call send_payment") {
		t.Errorf("denied: %s", b)
	}
	if got := f.ledgerText(t); !strings.Contains(got, "paid 7 to ada") || strings.Contains(got, "eve") {
		t.Errorf("the ledger server's own log: %q", got)
	}
	f.core.Broker.FlushHistory()
	h, err := f.core.Store.History(store.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, e := range h {
		if e.Mode == mcp.KindToolRun {
			runs++
			if e.Source != store.SourceClient || !strings.HasPrefix(e.Client, "ts-sdk-client") || filepath.Base(e.Launcher) != "node" {
				t.Errorf("history run %+v", e)
			}
		}
	}
	if runs != 2 {
		t.Errorf("%d runs in History", runs)
	}
}
