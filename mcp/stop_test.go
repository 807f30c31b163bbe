package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

// The app quitting (Manager.Close) does not wait for a stdio server that
// stopped reading its input while a call's request was being written to
// it: before, the go-sdk's Close waited for that write, the write for the
// server, and the server's input was closed only after Close, so the app
// never exited (nor did a server's Disable or Remove end).
func TestManager_CloseDoesNotWaitForAServerThatStoppedReading(t *testing.T) {
	m, _ := newTestManager(t)
	srv := connectedDeafServer(t, m)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, _ = m.CallTool(ctx, srv.ID, "t", map[string]any{"blob": strings.Repeat("x", 1<<20)}) // more than a pipe holds
	}()
	time.Sleep(500 * time.Millisecond)

	closesWithin(t, m, 20*time.Second, "a server that stopped reading")
}

// Nor does it wait for a server that said its tools changed and then
// never answers the listing that follows: before, that listing ran under
// a context Close did not end, and held Close for its 30 s limit.
func TestManager_CloseDoesNotWaitForAListingThatNeverEnds(t *testing.T) {
	m, _ := newTestManager(t)
	mcpServer := sdk.NewServer(&sdk.Implementation{Name: "mute", Version: "1"}, nil)
	sdk.AddTool(mcpServer, &sdk.Tool{Name: "first"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{}, nil, nil
	})
	var lists atomic.Int32
	relisting, release := make(chan struct{}), make(chan struct{})
	mcpServer.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" && lists.Add(1) == 2 {
				close(relisting)
				select { // never answers, until the client gives up or the test ends
				case <-ctx.Done():
				case <-release:
				}
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	web := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcpServer }, nil))
	t.Cleanup(web.Close)
	t.Cleanup(func() { close(release) }) // first: a hung Close ends, so that the test can
	srv := store.Server{ID: "mute", Name: "Mute", Enabled: true, Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: web.URL}}
	m.Set(srv)
	connected(t, m, srv.ID)
	sdk.AddTool(mcpServer, &sdk.Tool{Name: "second"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{}, nil, nil
	}) // notifications/tools/list_changed
	select {
	case <-relisting:
	case <-time.After(10 * time.Second):
		t.Fatal("the list was not read again after list_changed")
	}

	closesWithin(t, m, 10*time.Second, "a listing the server never answers")
}

// connectedDeafServer adds the deaf peer to m (it answers the handshake
// and the tool list, then reads nothing more) and waits until it is
// connected; the test's end kills it, so that whatever still waits on it
// (a write, a hung Close) ends and the test can.
func connectedDeafServer(t *testing.T, m *Manager) store.Server {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pid")
	srv := peerServer(t, "deaf", "deaf", map[string]string{"GATEHOUSE_TEST_PIDFILE": pidFile})
	m.Set(srv)
	connected(t, m, srv.ID)
	pid := readPID(t, pidFile)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	return srv
}

// closesWithin fails the test when m.Close has not returned within limit;
// waitingFor says what it would be waiting for.
func closesWithin(t *testing.T, m *Manager, limit time.Duration, waitingFor string) {
	t.Helper()
	closed := make(chan struct{})
	go func() {
		m.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(limit):
		t.Fatalf("Close still waits after %s for %s", limit, waitingFor)
	}
}

// Nor does it wait for a tool call an HTTP server is still running: the
// call's context is the caller's (the Tools pane allows up to 24 h), and
// before, the go-sdk's Close waited for it, so quitting or disabling the
// server hung for as long as the call could run. The caller hears the
// connection ended. (A go-sdk server holds the session's DELETE until its
// handler returns, which the client bounds at 5 s.)
func TestManager_CloseDoesNotWaitForACallAnHTTPServerIsRunning(t *testing.T) {
	m, _ := newTestManager(t)
	mcpServer := sdk.NewServer(&sdk.Implementation{Name: "slow", Version: "1"}, nil)
	running, release := make(chan struct{}), make(chan struct{})
	sdk.AddTool(mcpServer, &sdk.Tool{Name: "slow"}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		close(running)
		select { // runs until the client cancels or the test ends
		case <-ctx.Done():
		case <-release:
		}
		return &sdk.CallToolResult{}, nil, nil
	})
	web := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcpServer }, nil))
	t.Cleanup(web.Close)
	t.Cleanup(func() { close(release) }) // first: a hung Close ends, so that the test can
	srv := store.Server{ID: "slow", Name: "Slow", Enabled: true, Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: web.URL}}
	m.Set(srv)
	connected(t, m, srv.ID)
	called := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		_, err := m.CallTool(ctx, srv.ID, "slow", nil)
		called <- err
	}()
	select {
	case <-running:
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not reach the server")
	}

	closesWithin(t, m, 10*time.Second, "a call the server is running")
	select {
	case err := <-called:
		if !errors.Is(err, ErrConnectionEnded) {
			t.Fatalf("the call ended with %v, not saying its connection ended", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call still runs after its connection closed")
	}
}
