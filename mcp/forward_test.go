package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

// TestManager_StartToolCall: a forwarded call (the gateway's, P11) of a
// stdio server gets the result the server wrote, the same as CallTool's
// once decoded, also from a go-sdk server speaking 2026-07-28 (whose
// requests must carry the go-sdk's _meta); the server's refusal is an
// error as CallTool's; a remote server's call is not forwarded (its
// connection is the go-sdk's own), and neither is one of a server that
// is gone.
func TestManager_StartToolCall(t *testing.T) {
	m, _ := newTestManager(t)
	demo := peerServer(t, "demo", "demo", nil)
	m.Set(demo)
	st := connected(t, m, demo.ID)
	if st.ProtocolVersion < "2026-07-28" {
		t.Fatalf("the go-sdk peer speaks %s", st.ProtocolVersion)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, tc := range []struct {
		tool, args string
		want       string
	}{
		{"echo", `{"message":"héllo"}`, "héllo"},
		{"add", `{"a":2,"b":0.5}`, "2 + 0.5 = 2.5"},
		{"divide", `{"a":1,"b":0}`, "cannot divide by zero"},
	} {
		raw, err := forwardToolCall(ctx, m, demo.ID, tc.tool, json.RawMessage(tc.args))
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		var forwarded sdk.CallToolResult
		if err := json.Unmarshal(raw, &forwarded); err != nil {
			t.Fatalf("%s: %s: %v", tc.tool, raw, err)
		}
		var args map[string]any
		_ = json.Unmarshal([]byte(tc.args), &args)
		direct, err := m.CallTool(ctx, demo.ID, tc.tool, args)
		if err != nil {
			t.Fatal(err)
		}
		if textOf(&forwarded) != tc.want || textOf(direct) != tc.want || forwarded.IsError != direct.IsError {
			t.Errorf("%s: forwarded %s, CallTool %+v", tc.tool, raw, direct)
		}
	}
	_, err := forwardToolCall(ctx, m, demo.ID, "no-such-tool", json.RawMessage(`{}`))
	var rpcErr *jsonrpc.Error
	_, callErr := m.CallTool(ctx, demo.ID, "no-such-tool", nil)
	if !errors.As(err, &rpcErr) || callErr == nil || err.Error() != callErr.Error() {
		t.Errorf("a tool the server does not have: forwarded %v, CallTool %v", err, callErr)
	}

	remote := store.Server{ID: "remote", Name: "remote", Enabled: true, Transport: store.TransportHTTP,
		HTTP: &store.HTTPConfig{URL: startEverythingHTTP(t, "streamableHttp") + "/mcp"}}
	m.Set(remote)
	connected(t, m, remote.ID)
	if _, err := forwardToolCall(ctx, m, remote.ID, "echo", json.RawMessage(`{"message":"x"}`)); !errors.Is(err, ErrNotForwarded) {
		t.Errorf("a remote server's call: %v", err)
	}
	m.Remove(demo.ID)
	if _, err := forwardToolCall(ctx, m, demo.ID, "echo", json.RawMessage(`{"message":"x"}`)); err == nil || errors.Is(err, ErrNotForwarded) ||
		!strings.Contains(err.Error(), "No such server") {
		t.Errorf("a removed server's call: %v", err)
	}
}

// forwardToolCall makes a forwarded call (Manager.StartToolCall) and

// StartToolCall does not wait for a server that stopped reading its input
// (as its doc says): before, it wrote the request itself, on the
// gateway's goroutine that reads the other app's messages, so one call
// larger than the pipe holds stopped every later message of that app
// until the server read again. The call ends when its context does.
func TestManager_StartToolCallDoesNotWaitForAServerThatStoppedReading(t *testing.T) {
	m, _ := newTestManager(t)
	srv := connectedDeafServer(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	args := json.RawMessage(`{"blob":"` + strings.Repeat("x", 1<<20) + `"}`) // more than a pipe holds
	ended := make(chan error, 1)
	started := make(chan error, 1)
	go func() {
		started <- m.StartToolCall(ctx, srv.ID, "t", args, func(_ json.RawMessage, err error) { ended <- err })
	}()
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("the call was not forwarded: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("StartToolCall waits for a server that stopped reading")
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("the call ended with %v, not its context's end", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not end with its context")
	}
}

// waits for its result.
func forwardToolCall(ctx context.Context, m *Manager, id, name string, arguments json.RawMessage) (json.RawMessage, error) {
	type outcome struct {
		result json.RawMessage
		err    error
	}
	ended := make(chan outcome, 1)
	err := m.StartToolCall(ctx, id, name, arguments, func(result json.RawMessage, err error) { ended <- outcome{result, err} })
	if err != nil {
		return nil, err
	}
	o := <-ended
	return o.result, o.err
}
