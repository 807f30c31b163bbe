package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp/demo"
	"github.com/gatehouse-app/gatehouse/store"
)

// The test binary doubles as the go-sdk servers these tests talk to: when
// GATEHOUSE_TEST_PEER is set, TestMain runs that peer on stdio instead of the
// tests. These are real MCP servers in real child processes.
const peerEnv = "GATEHOUSE_TEST_PEER"

func TestMain(m *testing.M) {
	if kind := os.Getenv(peerEnv); kind != "" {
		os.Exit(runPeer(kind))
	}
	os.Exit(m.Run())
}

func runPeer(kind string) int {
	ctx := context.Background()
	if f := os.Getenv("GATEHOUSE_TEST_PIDFILE"); f != "" {
		_ = os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o600)
	}
	var err error
	switch kind {
	case "demo":
		err = demo.Run(ctx)
	case "exit":
		fmt.Fprintln(os.Stderr, "peer: failing on purpose")
		return 3
	case "defaults-echo":
		err = defaultsEchoServer().Run(ctx, &sdk.StdioTransport{})
	case "paged":
		err = pagedServer().Run(ctx, &sdk.StdioTransport{})
	case "hostile":
		return hostilePeer()
	case "deaf":
		return deafPeer()
	case "progress":
		err = progressServer().Run(ctx, &sdk.StdioTransport{})
	case "spawner":
		// Starts a grandchild that would outlive a careless host.
		child := exec.Command("sleep", "300")
		if err := child.Start(); err != nil {
			return 4
		}
		_ = os.WriteFile(os.Getenv("GATEHOUSE_TEST_CHILDPID"), []byte(strconv.Itoa(child.Process.Pid)), 0o600)
		err = demo.Run(ctx)
	default:
		fmt.Fprintln(os.Stderr, "unknown peer", kind)
		return 2
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		return 1
	}
	return 0
}

// deafPeer answers the handshake and the tool list, then reads nothing
// more and stays alive: a server stuck in its work, whose input fills up.
func deafPeer() int {
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &msg) != nil || len(msg.ID) == 0 {
			continue // a notification
		}
		switch msg.Method {
		case "initialize":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"deaf","version":"1"}}}`+"\n", msg.ID, msg.Params.ProtocolVersion)
		case "tools/list":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}`+"\n", msg.ID)
			time.Sleep(time.Hour)
			return 0
		default:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"not here"}}`+"\n", msg.ID)
		}
	}
}

// defaultsEchoForm is elicit-server.mjs's defaultsForm: every field type
// that can carry a default, and one required field without.
const defaultsEchoForm = `{"type":"object","properties":{
  "city":{"type":"string","title":"City"},
  "units":{"type":"string","title":"Units","default":"metric"},
  "days":{"type":"integer","title":"Days","minimum":1,"maximum":14,"default":3},
  "threshold":{"type":"number","title":"Rain threshold (mm)","default":0.5},
  "alerts":{"type":"boolean","title":"Send alerts","default":true},
  "language":{"type":"string","title":"Language","enum":["en","zh"],"default":"en"},
  "detail":{"type":"string","title":"Detail","oneOf":[{"const":"short","title":"Short"},{"const":"long","title":"Long"}],"default":"short"},
  "layers":{"type":"array","title":"Map layers","items":{"type":"string","enum":["rain","wind","clouds"]},"default":["rain","wind"]}},
  "required":["city"]}`

// defaultsEchoServer asks defaultsEchoForm as a 2026-07-28 input request and
// returns the answer exactly as it came back in inputResponses. (Before
// 2026-07-28 a go-sdk server adds the defaults to the answers it receives
// itself, so older revisions are tested with the TypeScript peer.)
func defaultsEchoServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "defaults-echo", Version: "0.1"}, nil)
	s.AddTool(&sdk.Tool{Name: "defaults_echo", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if r, ok := req.Params.InputResponses["forecast"].(*sdk.ElicitResult); ok {
				b, err := json.Marshal(r)
				if err != nil {
					return nil, err
				}
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil
			}
			return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"forecast": &sdk.ElicitParams{
				Message: "Which forecast do you want?", RequestedSchema: json.RawMessage(defaultsEchoForm)}}}, nil
		})
	return s
}

// pagedServer lists 7 tools two at a time, adds one more when "grow" is
// called (sending tools/list_changed), and has a "block" tool that waits
// until the call is cancelled.
func pagedServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "paged", Version: "0.1"}, &sdk.ServerOptions{PageSize: 2})
	for i := range 6 {
		name := fmt.Sprintf("tool%d", i)
		s.AddTool(&sdk.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: name}}}, nil
			})
	}
	s.AddTool(&sdk.Tool{Name: "grow", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			s.AddTool(&sdk.Tool{Name: "grown", InputSchema: map[string]any{"type": "object"}},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
					return &sdk.CallToolResult{}, nil
				})
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "grown"}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "block", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	return s
}

// peerServer is a stdio server config that runs this test binary as a peer.
func peerServer(t *testing.T, id, kind string, env map[string]string) store.Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{peerEnv: kind}
	for k, v := range env {
		e[k] = v
	}
	return store.Server{ID: id, Name: id, Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: exe, Args: []string{"-test.run=^$"}, Env: e}}
}

// everythingPath returns server-everything's entry point from testdata/peers,
// or skips the test when the npm peers were not installed (make peers); with
// GATEHOUSE_REQUIRE_PEERS=1 (make test) a missing peer fails the test instead.
func everythingPath(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "testdata", "peers", "node_modules",
		"@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(p); err != nil {
		missingPeer(t, "server-everything is not installed (run: make peers)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		missingPeer(t, "node is not installed")
	}
	return p
}

func missingPeer(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// startEverythingHTTP runs server-everything over HTTP ("streamableHttp" or
// "sse") on a free loopback port and returns its base URL.
func startEverythingHTTP(t *testing.T, mode string) string {
	t.Helper()
	entry := everythingPath(t)
	port := freePort(t)
	cmd := exec.Command("node", entry, mode)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "HOST=127.0.0.1")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(base + "/"); err == nil {
			resp.Body.Close()
			return base
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("server-everything (%s) did not start on %s", mode, base)
	return ""
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func textOf(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
