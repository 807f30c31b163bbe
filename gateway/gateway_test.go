package gateway

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// The gateway's tests run real servers (testdata/peers: server-everything,
// TypeScript SDK peers) behind it, and real clients in front of it: the
// go-sdk's client here, on both revisions it speaks; MCP Inspector's CLI
// and the TypeScript SDK's client in clients_test.go. The person answers
// through the broker, as the window would.

// revisions are the protocol revisions the go-sdk speaks.
var revisions = []string{"2025-11-25", "2026-07-28"}

// peersDir returns testdata/peers, skipping the test when the peers are
// not installed (failing it under GATEHOUSE_REQUIRE_PEERS=1, as make test
// runs).
func peersDir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "testdata", "peers")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything")); err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatal("the peers are not installed (run: make peers)")
		}
		t.Skip("the peers are not installed (run: make peers)")
	}
	return dir
}

// person answers the broker's questions as the test says, and keeps them.
type person struct {
	mu     sync.Mutex
	answer func(*mcp.Question) mcp.Response
	asked  []*mcp.Question
}

// Present answers q as p.answer says; with no answer, no one answers (the
// question waits until the broker withdraws it).
func (p *person) Present(ctx context.Context, q *mcp.Question) (mcp.Response, error) {
	p.mu.Lock()
	p.asked = append(p.asked, q)
	answer := p.answer
	p.mu.Unlock()
	if answer == nil {
		<-ctx.Done()
		return mcp.Response{}, ctx.Err()
	}
	return answer(q), nil
}
func (p *person) Notify(mcp.Notice)              {}
func (p *person) OpenedChanged([]mcp.OpenedPage) {}

func (p *person) questions(kind string) []*mcp.Question {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*mcp.Question
	for _, q := range p.asked {
		if q.Kind == kind {
			out = append(out, q)
		}
	}
	return out
}

// allowOnce allows every tool call once and cancels anything else.
func allowOnce(q *mcp.Question) mcp.Response {
	if q.Kind == mcp.KindToolCall {
		return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeOnce}
	}
	return mcp.Response{Action: mcp.ActionCancel}
}

// launcher is the program the tests' clients seem to be launched by.
var launcher = Launcher{PID: 4242, Exe: "/usr/bin/fake-agent", Command: "fake-agent --mcp gatehouse"}

type fixture struct {
	st     *store.Store
	broker *mcp.Broker
	m      *mcp.Manager
	gw     *Gateway
	person *person
	peers  string
}

func newFixture(t testing.TB, answer func(*mcp.Question) mcp.Response, limits Limits) *fixture {
	t.Helper()
	f := &fixture{person: &person{answer: answer}, peers: peersDir(t)}
	var err error
	if f.st, err = store.Open(t.TempDir(), nil); err != nil {
		t.Fatal(err)
	}
	f.broker = mcp.NewBroker(mcp.BrokerOptions{Store: f.st, Answerer: f.person})
	f.m = mcp.NewManager(mcp.Options{ClientName: "gatehouse-test", Asker: f.broker,
		// Wired as the app wires them (app.OpenCore).
		OnStatus: func(st mcp.Status) {
			if f.gw != nil {
				f.gw.Changed(st.ServerID)
			}
		},
		OnListsChanged: func(id string) {
			if f.gw != nil {
				f.gw.Changed(id)
			}
		},
		OnResourceUpdated: func(id, uri string) {
			if f.gw != nil {
				f.gw.ResourceUpdated(id, uri)
			}
		}})
	f.gw = New(Options{Store: f.st, Manager: f.m, Broker: f.broker, Version: "test", Limits: limits,
		CallTimeout: func() time.Duration { return time.Minute }})
	t.Cleanup(func() { f.gw.Close(); f.m.Close(); f.broker.FlushHistory(); f.st.Close() })
	return f
}

// add configures and connects a stdio server: script is a file of
// testdata/peers, or "everything".
func (f *fixture) add(t testing.TB, name, script string, args ...string) store.Server {
	t.Helper()
	path := filepath.Join(f.peers, script)
	if script == "everything" {
		path = filepath.Join(f.peers, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
		args = append([]string{"stdio"}, args...)
	}
	srv, err := f.st.PutServer(store.Server{Name: name, Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: "node", Args: append([]string{path}, args...)}})
	if err != nil {
		t.Fatal(err)
	}
	f.m.Set(srv)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := f.m.WaitConnected(ctx, srv.ID); err != nil {
		t.Fatal(err)
	}
	f.gw.Changed(srv.ID)
	return srv
}

// clientOptions configures connect.
type clientOptions struct {
	name     string
	revision string
	sdk      *sdk.ClientOptions
}

// connect connects a go-sdk client to the gateway over two pipes, as the
// app serves another app's standard input and output, as a client
// launched by launcher.
func (f *fixture) connect(t testing.TB, o clientOptions) *sdk.ClientSession {
	t.Helper()
	ct := f.serve(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if o.name == "" {
		o.name = "fake-agent"
	}
	c := sdk.NewClient(&sdk.Implementation{Name: o.name, Version: "1.2.3"}, o.sdk)
	cs, err := c.Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: o.revision})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// serve serves a client on two OS pipes, as the gateway serves another
// app's standard input and output, and returns the client's end.
func (f *fixture) serve(t testing.TB) sdk.Transport {
	t.Helper()
	clientIn, clientOut := f.servePipes(t)
	return &sdk.IOTransport{Reader: clientIn, Writer: clientOut}
}

// servePipes serves a client on two OS pipes and returns the client's
// ends: what it reads, what it writes.
func (f *fixture) servePipes(t testing.TB) (clientIn, clientOut *os.File) {
	t.Helper()
	clientIn, gatewayOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	gatewayIn, clientOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.gw.Serve(context.Background(), gatewayIn, gatewayOut, launcher); err != nil {
		t.Fatal(err)
	}
	return clientIn, clientOut
}

func names[T any](items []T, name func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = name(it)
	}
	slices.Sort(out)
	return out
}

func resultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestGateway_OffersTheServersOnBothRevisions(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	every := f.add(t, "Everything", "everything")
	f.add(t, "Ledger", "ledger-server.mjs", filepath.Join(t.TempDir(), "ledger"))
	upstream, err := f.m.Tool(every.ID, "echo")
	if err != nil {
		t.Fatal(err)
	}
	structured, err := f.m.Tool(every.ID, "get-structured-content")
	if err != nil || structured.OutputSchema == nil {
		t.Fatalf("server-everything's structured tool: %+v, %v", structured, err)
	}
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cs := f.connect(t, clientOptions{revision: rev})
			if got := cs.InitializeResult().ProtocolVersion; got != rev {
				t.Fatalf("speaks %s, want %s", got, rev)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			toolNames := names(tools.Tools, func(t *sdk.Tool) string { return t.Name })
			for _, want := range []string{"Everything__echo", "Everything__get-sum", "Ledger__send_payment"} {
				if !slices.Contains(toolNames, want) {
					t.Errorf("tools/list lacks %s: %q", want, toolNames)
				}
			}
			for _, tool := range tools.Tools {
				if !strings.HasPrefix(tool.Name, "Everything__") && !strings.HasPrefix(tool.Name, "Ledger__") {
					t.Errorf("%s does not say its server", tool.Name)
				}
				if tool.Name == "Everything__echo" {
					a, _ := json.Marshal(upstream.InputSchema)
					b, _ := json.Marshal(tool.InputSchema)
					if tool.Description != upstream.Description || tool.Title != upstream.Title || string(a) != string(b) {
						t.Errorf("echo as offered: %+v; as the server lists it: %+v", tool, upstream)
					}
				}
				if tool.Name == "Everything__get-structured-content" {
					a, _ := json.Marshal(structured.OutputSchema)
					b, _ := json.Marshal(tool.OutputSchema)
					if string(a) != string(b) {
						t.Errorf("output schema offered %s, listed %s", b, a)
					}
				}
				if tool.Name == "Ledger__send_payment" && (tool.Annotations == nil || tool.Annotations.DestructiveHint == nil || !*tool.Annotations.DestructiveHint) {
					t.Errorf("the ledger's annotations were not passed through: %+v", tool.Annotations)
				}
			}

			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Everything__echo", Arguments: map[string]any{"message": "hello " + rev}})
			if err != nil || res.IsError || !strings.Contains(resultText(res), "hello "+rev) {
				t.Fatalf("echo: %+v, %v", res, err)
			}

			resources, err := cs.ListResources(ctx, nil)
			if err != nil || len(resources.Resources) == 0 {
				t.Fatalf("resources/list: %+v, %v", resources, err)
			}
			first := resources.Resources[0]
			if !strings.HasPrefix(first.Name, "Everything__") {
				t.Errorf("resource name %q does not say its server", first.Name)
			}
			read, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: first.URI})
			if err != nil || len(read.Contents) == 0 {
				t.Fatalf("resources/read %s: %+v, %v", first.URI, read, err)
			}
			templates, err := cs.ListResourceTemplates(ctx, nil)
			if err != nil || len(templates.ResourceTemplates) == 0 {
				t.Fatalf("resources/templates/list: %+v, %v", templates, err)
			}
			dyn, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "demo://resource/dynamic/text/7"})
			if err != nil || len(dyn.Contents) == 0 {
				t.Fatalf("reading through a template: %+v, %v", dyn, err)
			}

			prompts, err := cs.ListPrompts(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(prompts.Prompts, func(p *sdk.Prompt) string { return p.Name }); !slices.Contains(got, "Everything__args-prompt") {
				t.Fatalf("prompts/list: %q", got)
			}
			prompt, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "Everything__args-prompt", Arguments: map[string]string{"city": "Oslo"}})
			if err != nil || len(prompt.Messages) == 0 {
				t.Fatalf("prompts/get: %+v, %v", prompt, err)
			}
			if b, _ := json.Marshal(prompt.Messages); !strings.Contains(string(b), "Oslo") {
				t.Errorf("the prompt did not get its argument: %s", b)
			}
			done, err := cs.Complete(ctx, &sdk.CompleteParams{Ref: &sdk.CompleteReference{Type: "ref/prompt", Name: "Everything__completable-prompt"},
				Argument: sdk.CompleteParamsArgument{Name: "department", Value: "E"}})
			if err != nil || len(done.Completion.Values) == 0 {
				t.Fatalf("completion/complete: %+v, %v", done, err)
			}
		})
	}
}
