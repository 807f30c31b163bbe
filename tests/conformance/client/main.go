// Command conformance-client is the client under test for the official MCP
// conformance suite (@modelcontextprotocol/conformance) in client mode. It is
// Gatehouse itself without a window: the same store, elicitation broker and
// connection manager as the app, connected to the suite's scenario server, with
// an automatic answerer in place of the person.
//
// Usage, as the suite runs it:
//
//	MCP_CONFORMANCE_SCENARIO=<name> [MCP_CONFORMANCE_CONTEXT=<json>] conformance-client <server-url>
//
// It does what the scenario expects of a host (see scenarios.go), and exits 0
// when that went through, or non-zero with a sentence saying what did not.
// The suite's checks, not this exit status, decide whether a scenario passes.
//
// See tests/conformance/README.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// runTimeout bounds one scenario; the suite kills the client after 30 s.
const runTimeout = 25 * time.Second

// connectTimeout bounds the wait for the first connection.
const connectTimeout = 15 * time.Second

func main() {
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[len(os.Args)-1], "-") {
		fmt.Fprintln(os.Stderr, "usage: conformance-client <server-url>")
		fmt.Fprintln(os.Stderr, "  with MCP_CONFORMANCE_SCENARIO set to the scenario name (and MCP_CONFORMANCE_CONTEXT when it has one)")
		os.Exit(2)
	}
	serverURL := os.Args[len(os.Args)-1] // the suite appends it last
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	if scenario == "" {
		fail("MCP_CONFORMANCE_SCENARIO is not set")
	}
	var scenarioCtx map[string]any
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &scenarioCtx); err != nil {
			fail("MCP_CONFORMANCE_CONTEXT is not a JSON object: %v", err)
		}
	}
	logf("scenario %s against %s (protocol version asked by the suite: %s)", scenario, serverURL,
		valueOr(os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"), "not given"))

	run, ok := scenarioFor(scenario)
	if !ok {
		fail("scenario %q is not known to this client; add it to tests/conformance/client/scenarios.go", scenario)
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	if err := run(ctx, serverURL, scenarioCtx); err != nil {
		fail("scenario %s: %v", scenario, err)
	}
	logf("scenario %s: done", scenario)
}

// host is Gatehouse's core as the app builds it (app.OpenCore), minus the
// window: a store in a temporary folder, the broker with the automatic
// answerer, and the manager with one HTTP server.
type host struct {
	dir     string
	store   *store.Store
	broker  *mcp.Broker
	manager *mcp.Manager
	answers *autoAnswerer
	server  store.Server
}

// startHost opens the store, adds the scenario server (with oauth as its
// sign-in client settings, nil for none), and waits until the manager has
// connected to it (and read its lists). A server that needs sign-in is signed
// in to, as a person would: Sign in, then the consent (accepted by the
// answerer, which plays the browser).
func startHost(ctx context.Context, serverURL string, oauth *store.OAuthConfig) (*host, error) {
	dir, err := os.MkdirTemp("", "gatehouse-conformance-")
	if err != nil {
		return nil, err
	}
	h := &host{dir: dir, answers: newAutoAnswerer()}
	h.store, err = store.Open(dir, nil)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("opening the store: %w", err)
	}
	h.broker = mcp.NewBroker(mcp.BrokerOptions{Answerer: h.answers, Store: h.store})
	h.manager = mcp.NewManager(mcp.Options{
		ClientName:    "gatehouse-conformance",
		ClientVersion: version(),
		Asker:         h.broker,
		Tokens:        newMemTokens(),
		Logger:        slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})),
	})
	h.server, err = h.store.PutServer(store.Server{
		Name: "conformance", Enabled: true, Transport: store.TransportHTTP,
		HTTP: &store.HTTPConfig{URL: serverURL, OAuth: oauth},
	})
	if err != nil {
		h.close()
		return nil, fmt.Errorf("adding the server: %w", err)
	}
	h.manager.Set(h.server)
	wctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	err = h.manager.WaitConnected(wctx, h.server.ID)
	if errors.Is(err, mcp.ErrNeedsSignIn) {
		logf("the server needs sign-in; signing in")
		err = h.signIn(wctx)
	}
	if err != nil {
		h.dumpLog()
		h.close()
		return nil, fmt.Errorf("connecting: %w", err)
	}
	st, _ := h.manager.Status(h.server.ID)
	logf("connected over %s, protocol %s, server %q %s, capabilities %v, %d tools, %d resources, %d prompts",
		st.Transport, st.ProtocolVersion, st.ServerName, st.ServerVersion, st.Capabilities, st.Tools, st.Resources, st.Prompts)
	return h, nil
}

// signIn presses Sign in for the server and waits for the connection that
// follows: connected, or the reason it is not (a refused sign-in leaves the
// server needing sign-in, with the reason in its status).
func (h *host) signIn(ctx context.Context) error {
	before, err := h.manager.Status(h.server.ID)
	if err != nil {
		return err
	}
	if err := h.manager.SignIn(h.server.ID); err != nil {
		return err
	}
	// Wait for the attempt that SignIn started, so that the "needs sign-in"
	// state from before is not taken for its outcome.
	for {
		st, err := h.manager.Status(h.server.ID)
		if err != nil {
			return err
		}
		if st.Attempts > before.Attempts {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the sign-in did not start: %w", ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
	done := make(chan error, 1)
	go func() { done <- h.manager.WaitConnected(ctx, h.server.ID) }()
	select {
	case err = <-done:
	case err = <-h.answers.browserFailed:
		return fmt.Errorf("signing in: %w", err)
	}
	if errors.Is(err, mcp.ErrNeedsSignIn) {
		st, _ := h.manager.Status(h.server.ID)
		return fmt.Errorf("not signed in: %s", st.Message)
	}
	return err
}

// close disconnects, closes the store and removes its folder.
func (h *host) close() {
	if h.manager != nil {
		h.manager.Close()
	}
	if h.store != nil {
		_ = h.store.Close()
	}
	_ = os.RemoveAll(h.dir)
}

// dumpLog writes the server's connection log (what the app shows as the
// server's log) to stderr, which the suite keeps as stderr.txt.
func (h *host) dumpLog() {
	if h.manager == nil {
		return
	}
	if l, err := h.manager.Log(h.server.ID); err == nil && l != "" {
		fmt.Fprintf(os.Stderr, "--- server log ---\n%s--- end of server log ---\n", l)
	}
}

// callTool calls a tool the way the app does and reports a tool error
// (isError) as an error too.
func (h *host) callTool(ctx context.Context, name string, args map[string]any) error {
	res, err := h.manager.CallTool(ctx, h.server.ID, name, args)
	if err != nil {
		return err
	}
	text := resultText(res.Content)
	if res.IsError {
		return fmt.Errorf("tool %s returned an error: %s", name, text)
	}
	logf("tool %s: %s", name, text)
	return nil
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "conformance-client: "+format+"\n", args...)
}

func fail(format string, args ...any) {
	logf(format, args...)
	os.Exit(1)
}

func valueOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// errUnsupported marks what this client (or Gatehouse) does not do yet.
var errUnsupported = errors.New("not supported")
