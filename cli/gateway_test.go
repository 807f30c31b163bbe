package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// allowingPerson stands in for the window: it allows every tool call once.
type allowingPerson struct{ asked chan *mcp.Question }

func (p allowingPerson) Present(_ context.Context, q *mcp.Question) (mcp.Response, error) {
	p.asked <- q
	return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeOnce}, nil
}
func (allowingPerson) Notify(mcp.Notice)              {}
func (allowingPerson) OpenedChanged([]mcp.OpenedPage) {}

// TestGateway_PipesToTheRunningApp: `gatehouse gateway` passes a client's
// messages to the running app's gateway and its answers back, and a call
// through it is asked in the app (its window), naming the app as it claims.
func TestGateway_PipesToTheRunningApp(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	entry := everythingEntry(t)
	dir := t.TempDir()
	core, err := app.OpenCore(app.CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	srv, err := core.Store.PutServer(store.Server{Name: "Everything", Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: "node", Args: []string{entry, "stdio"}}})
	if err != nil {
		t.Fatal(err)
	}
	person := allowingPerson{asked: make(chan *mcp.Question, 4)}
	core.SetAnswerer(person)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := core.Manager.WaitConnected(ctx, srv.ID); err != nil {
		t.Fatal(err)
	}
	if err := core.ServeGateway(); err != nil {
		t.Fatal(err)
	}

	clientIn, gatewayOut := io.Pipe()
	gatewayIn, clientOut := io.Pipe()
	var stderr bytes.Buffer
	e := &env{stdin: gatewayIn, stdout: gatewayOut, stderr: &stderr, dataDir: dir}
	done := make(chan int, 1)
	go func() { done <- e.exit(e.gateway(ctx, nil)) }()

	cs, err := sdk.NewClient(&sdk.Implementation{Name: "pipe-client", Version: "0.1"}, nil).Connect(ctx,
		&sdk.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) == 0 {
		t.Fatalf("tools/list through the pipe: %+v, %v", tools, err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Everything__echo", Arguments: map[string]any{"message": "through the pipe"}})
	if err != nil || res.IsError {
		t.Fatalf("call: %+v, %v", res, err)
	}
	q := <-person.asked
	if q.ToolCall == nil || q.ToolCall.Client == nil || q.ToolCall.Client.Name != "pipe-client" || q.ToolCall.Client.Launcher == "" {
		t.Errorf("the question: %+v", q.ToolCall)
	}
	clientOut.Close() // the other app ends
	select {
	case code := <-done:
		if code != exitOK || stderr.Len() > 0 {
			t.Errorf("gateway ended %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the gateway did not end with its client")
	}
}

// TestGateway_NoDisplayNoApp: with no app running and no display to start
// one on, `gatehouse gateway` says so on stderr, writes nothing on stdout
// (the MCP channel) and never opens the data file.
func TestGateway_NoDisplayNoApp(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t))
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, dataDir: dir}
	code := e.exit(e.gateway(context.Background(), nil))
	if code != exitError || stdout.Len() > 0 || !strings.Contains(stderr.String(), i18n.M("cli.gateway.noDisplay").String()) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, store.FileName)); !os.IsNotExist(err) {
		t.Errorf("the data file was touched: %v", err)
	}
	if code := e.exit(e.gateway(context.Background(), []string{"extra"})); code != exitUsage {
		t.Errorf("gateway extra: exit %d", code)
	}
}
