package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Roots, progress, cancellation, server logs and tasks against real
// servers: server-everything (over stdio and Streamable HTTP) and a go-sdk
// peer that reports when it sees a call cancelled.

// callText calls a tool and returns its result's text.
func callText(t *testing.T, m *Manager, id, tool string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := m.CallTool(ctx, id, tool, args)
	if err != nil {
		t.Fatalf("calling %s: %v", tool, err)
	}
	return textOf(res)
}

// TestRoots_ServerEverythingSeesTheChosenFolders: a server sees no folder
// until the person chooses some; a change reaches the live connection
// (notifications/roots/list_changed, then the server's roots/list) without
// a reconnect.
func TestRoots_ServerEverythingSeesTheChosenFolders(t *testing.T) {
	for _, tc := range everythingServers() {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t)
			srv := tc.srv(t)
			m.Set(srv)
			before := connected(t, m, srv.ID)
			if got := callText(t, m, srv.ID, "get-roots-list", nil); !strings.Contains(got, "no roots are currently configured") {
				t.Fatalf("a new server sees folders: %q", got)
			}

			projects, notes := t.TempDir(), t.TempDir()
			srv.Roots = []string{projects, notes}
			m.Set(srv)
			waitFor(t, "the server to see both folders", 15*time.Second, func() bool {
				got := callText(t, m, srv.ID, "get-roots-list", nil)
				return strings.Contains(got, RootURI(projects)) && strings.Contains(got, RootURI(notes))
			})

			srv.Roots = []string{notes}
			m.Set(srv)
			waitFor(t, "the server to stop seeing the removed folder", 15*time.Second, func() bool {
				got := callText(t, m, srv.ID, "get-roots-list", nil)
				return !strings.Contains(got, RootURI(projects)) && strings.Contains(got, RootURI(notes))
			})

			after, _ := m.Status(srv.ID)
			if after.State != StateConnected || after.Attempts != before.Attempts {
				t.Errorf("changing the folders reconnected the server: attempts %d → %d, state %s", before.Attempts, after.Attempts, after.State)
			}
		})
	}
}

// TestProgress_LongRunningOperationAdvances: every tool call asks for
// progress, and server-everything's notifications reach the call that made
// them, in order, with their total.
func TestProgress_LongRunningOperationAdvances(t *testing.T) {
	for _, tc := range everythingServers() {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t)
			srv := tc.srv(t)
			m.Set(srv)
			connected(t, m, srv.ID)
			var (
				mu   sync.Mutex
				seen []Progress
			)
			ctx := WithProgress(context.Background(), func(p Progress) {
				mu.Lock()
				seen = append(seen, p)
				mu.Unlock()
			})
			ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			res, err := m.CallTool(ctx, srv.ID, "trigger-long-running-operation", map[string]any{"duration": 1, "steps": 4})
			if err != nil || res.IsError {
				t.Fatalf("call: %v %q", err, textOf(res))
			}
			// Another call made meanwhile gets none of them.
			if _, err := m.CallTool(context.Background(), srv.ID, "echo", map[string]any{"message": "quiet"}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			// The last one may come after the result, when it no longer
			// matters: the call is over.
			if len(seen) < 3 || len(seen) > 4 {
				t.Fatalf("progress notifications = %+v, want the 4 steps", seen)
			}
			for i, p := range seen {
				if p.Progress != float64(i+1) || p.Total != 4 {
					t.Errorf("notification %d = %+v, want %d of 4", i, p, i+1)
				}
			}
		})
	}
}

// progressServer is a go-sdk peer with a "work" tool that reports progress
// without a total, with a message, until its call is cancelled, and then
// writes on stderr that it saw the cancellation.
func progressServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "progress", Version: "0.1"}, nil)
	s.AddTool(&sdk.Tool{Name: "work", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			token := req.Params.GetProgressToken()
			for step := 1; ; step++ {
				if token != nil {
					_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token,
						Progress: float64(step), Message: fmt.Sprintf("step %d", step)})
				}
				select {
				case <-ctx.Done():
					fmt.Fprintln(os.Stderr, "peer: the call was cancelled")
					return nil, ctx.Err()
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	return s
}

// TestProgress_CancelStopsTheCallOnTheServer: cancelling a call's context
// ends it at once and the server is told (notifications/cancelled): the
// go-sdk peer sees its call's context end and says so in its log.
func TestProgress_CancelStopsTheCallOnTheServer(t *testing.T) {
	m, _ := newTestManager(t)
	srv := peerServer(t, "progress", "progress", nil)
	m.Set(srv)
	connected(t, m, srv.ID)
	first := make(chan Progress, 100)
	ctx, cancel := context.WithCancel(WithProgress(context.Background(), func(p Progress) { first <- p }))
	done := make(chan error, 1)
	go func() {
		_, err := m.CallTool(ctx, srv.ID, "work", nil)
		done <- err
	}()
	select {
	case p := <-first:
		if p.Total != 0 || p.Message != "step 1" {
			t.Errorf("first progress = %+v, want step 1 without a total", p)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no progress arrived")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled call did not return")
	}
	waitFor(t, "the server to see the cancellation", 10*time.Second, func() bool {
		log, _ := m.Log(srv.ID)
		return strings.Contains(log, "peer: the call was cancelled")
	})
}

// TestLogs_SimulatedLoggingGoesToTheServerLog: server-everything's log
// messages land in the server's log beside its stderr, with level and
// logger; the chosen level is asked of the server at once and again on
// every reconnection.
func TestLogs_SimulatedLoggingGoesToTheServerLog(t *testing.T) {
	for _, tc := range everythingServers() {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t)
			srv := tc.srv(t)
			srv.LogLevel = "debug"
			m.Set(srv)
			connected(t, m, srv.ID)
			asked := func() int {
				log, _ := m.Log(srv.ID)
				return strings.Count(log, "asked the server for log messages from level debug")
			}
			if asked() != 1 {
				t.Fatalf("the level was asked %d times on connecting, want once", asked())
			}
			callText(t, m, srv.ID, "toggle-simulated-logging", nil)
			var msg LogLine
			waitFor(t, "a log message", 30*time.Second, func() bool {
				lines, _ := m.LogLines(srv.ID)
				for _, l := range lines {
					if l.Source == LogMessage {
						msg = l
						return true
					}
				}
				return false
			})
			if !ValidLogLevel(msg.Level) || msg.Text == "" || msg.At == "" {
				t.Errorf("log message = %+v, want a level, a time and text", msg)
			}
			if log, _ := m.Log(srv.ID); !strings.Contains(log, "["+msg.Level+" "+msg.At+"] ") {
				t.Errorf("the text log does not show the message with its level:\n%s", log)
			}

			srv.LogLevel = "error"
			m.Set(srv)
			askedError := func() int {
				log, _ := m.Log(srv.ID)
				return strings.Count(log, "asked the server for log messages from level error")
			}
			waitFor(t, "the new level to be asked", 10*time.Second, func() bool { return askedError() == 1 })
			if err := m.Reconnect(srv.ID); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the level to be asked again after reconnecting", 30*time.Second, func() bool { return askedError() == 2 })
		})
	}
}

// TestTasks_ToolThatRequiresATaskIsNotCalled: server-everything's
// simulate-research-query can only run as an MCP task: it is marked, and a
// call says in a sentence that Gatehouse does not support tasks, without
// sending it; other tools are not marked.
func TestTasks_ToolThatRequiresATaskIsNotCalled(t *testing.T) {
	for _, tc := range everythingServers() {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t)
			srv := tc.srv(t)
			m.Set(srv)
			connected(t, m, srv.ID)
			research, err := m.Tool(srv.ID, "simulate-research-query")
			if err != nil {
				t.Fatal(err)
			}
			if !NeedsTask(research) || TaskSupport(research) != "required" {
				t.Errorf("simulate-research-query: task support %q, want required", TaskSupport(research))
			}
			echo, err := m.Tool(srv.ID, "echo")
			if err != nil {
				t.Fatal(err)
			}
			if NeedsTask(echo) || TaskSupport(echo) != "forbidden" { // as the TypeScript SDK lists every plain tool
				t.Errorf("echo: task support %q, want forbidden", TaskSupport(echo))
			}
			_, err = m.CallTool(context.Background(), srv.ID, "simulate-research-query", map[string]any{"topic": "tides"})
			if !errors.Is(err, ErrTaskRequired) || !strings.Contains(err.Error(), "does not support MCP tasks yet") {
				t.Errorf("call = %v, want the sentence that tasks are not supported", err)
			}
		})
	}
}
