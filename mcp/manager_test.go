package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/store"
)

// newTestManager returns a manager that is closed when the test ends, and a
// function returning every status it reported for one server so far.
func newTestManager(t *testing.T) (*Manager, func(id string) []Status) {
	t.Helper()
	var mu sync.Mutex
	seen := map[string][]Status{}
	m := NewManager(Options{ClientName: "gatehouse-test", OnStatus: func(st Status) {
		mu.Lock()
		seen[st.ServerID] = append(seen[st.ServerID], st)
		mu.Unlock()
	}})
	t.Cleanup(m.Close)
	return m, func(id string) []Status {
		mu.Lock()
		defer mu.Unlock()
		return append([]Status(nil), seen[id]...)
	}
}

func connected(t *testing.T, m *Manager, id string) Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		err := m.WaitConnected(ctx, id)
		if err == nil {
			break
		}
		// An error state may be a transient first attempt; keep waiting until ctx ends.
		if ctx.Err() != nil || errors.Is(err, ErrDisabled) || errors.Is(err, ErrUnknownServer) {
			log, _ := m.Log(id)
			t.Fatalf("server %s did not connect: %v\nlog:\n%s", id, err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	st, _ := m.Status(id)
	return st
}

// TestManager_RealPeers connects to real servers over every transport,
// lists their tools and calls one, as a person would in the Tools pane.
func TestManager_RealPeers(t *testing.T) {
	cases := []struct {
		name     string
		server   func(t *testing.T) store.Server
		tool     string
		args     map[string]any
		wantText string
		wantHow  string
	}{
		{
			name:     "go-sdk demo server over stdio",
			server:   func(t *testing.T) store.Server { return peerServer(t, "demo", "demo", nil) },
			tool:     "echo",
			args:     map[string]any{"message": "hello gatehouse"},
			wantText: "hello gatehouse",
			wantHow:  "stdio",
		},
		{
			name: "server-everything over stdio",
			server: func(t *testing.T) store.Server {
				return store.Server{ID: "everything", Name: "Everything", Enabled: true, Transport: store.TransportStdio,
					Stdio: &store.StdioConfig{Command: "node", Args: []string{everythingPath(t), "stdio"}}}
			},
			tool: "echo", args: map[string]any{"message": "over stdio"}, wantText: "over stdio", wantHow: "stdio",
		},
		{
			name: "server-everything over Streamable HTTP",
			server: func(t *testing.T) store.Server {
				return store.Server{ID: "everything-http", Name: "Everything HTTP", Enabled: true, Transport: store.TransportHTTP,
					HTTP: &store.HTTPConfig{URL: startEverythingHTTP(t, "streamableHttp") + "/mcp"}}
			},
			tool: "echo", args: map[string]any{"message": "over http"}, wantText: "over http", wantHow: "streamable HTTP",
		},
		{
			name: "server-everything over legacy SSE falls back from Streamable HTTP",
			server: func(t *testing.T) store.Server {
				return store.Server{ID: "everything-sse", Name: "Everything SSE", Enabled: true, Transport: store.TransportHTTP,
					HTTP: &store.HTTPConfig{URL: startEverythingHTTP(t, "sse") + "/sse"}}
			},
			tool: "echo", args: map[string]any{"message": "over sse"}, wantText: "over sse", wantHow: "legacy SSE",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestManager(t)
			srv := tc.server(t)
			m.Set(srv)
			st := connected(t, m, srv.ID)
			if st.Transport != tc.wantHow {
				t.Errorf("transport = %q, want %q", st.Transport, tc.wantHow)
			}
			if st.ProtocolVersion == "" || st.ServerName == "" {
				t.Errorf("status lacks protocol or server name: %+v", st)
			}
			waitFor(t, "tools to be listed", 10*time.Second, func() bool {
				tools, err := m.Tools(srv.ID)
				return err == nil && len(tools) > 0
			})
			if _, err := m.Tool(srv.ID, tc.tool); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res, err := m.CallTool(ctx, srv.ID, tc.tool, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(res); !strings.Contains(got, tc.wantText) || res.IsError {
				t.Errorf("result = %q (isError %v), want it to contain %q", got, res.IsError, tc.wantText)
			}
		})
	}
}

func TestManager_PaginationAndListChanged(t *testing.T) {
	m, _ := newTestManager(t)
	var listsChanged atomic.Int32
	m.opts.OnListsChanged = func(string) { listsChanged.Add(1) }
	srv := peerServer(t, "paged", "paged", nil)
	m.Set(srv)
	connected(t, m, srv.ID)
	waitFor(t, "all 8 tools across 4 pages", 10*time.Second, func() bool {
		tools, _ := m.Tools(srv.ID)
		return len(tools) == 8
	})
	before := listsChanged.Load()
	if _, err := m.CallTool(context.Background(), srv.ID, "grow", nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the new tool after tools/list_changed", 10*time.Second, func() bool {
		_, err := m.Tool(srv.ID, "grown")
		return err == nil
	})
	if listsChanged.Load() <= before {
		t.Error("OnListsChanged was not called after the list changed")
	}
	if st, _ := m.Status(srv.ID); st.Tools != 9 {
		t.Errorf("status counts %d tools, want 9", st.Tools)
	}
}

func TestManager_CallCanBeCancelled(t *testing.T) {
	m, _ := newTestManager(t)
	srv := peerServer(t, "paged", "paged", nil)
	m.Set(srv)
	connected(t, m, srv.ID)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := m.CallTool(ctx, srv.ID, "block", nil)
		errc <- err
	}()
	time.Sleep(200 * time.Millisecond)
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelled call did not return")
	}
	// The session survives a cancelled call.
	if _, err := m.CallTool(context.Background(), srv.ID, "tool1", nil); err != nil {
		t.Errorf("call after cancel: %v", err)
	}
}

func TestManager_KilledServerReconnects(t *testing.T) {
	m, statuses := newTestManager(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	srv := peerServer(t, "victim", "demo", map[string]string{"GATEHOUSE_TEST_PIDFILE": pidFile})
	m.Set(srv)
	connected(t, m, srv.ID)
	pid := readPID(t, pidFile)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the error status after the kill", 10*time.Second, func() bool {
		for _, st := range statuses(srv.ID) {
			if st.State == StateError {
				return true
			}
		}
		return false
	})
	var errSt Status
	for _, st := range statuses(srv.ID) {
		if st.State == StateError {
			errSt = st
		}
	}
	if !strings.Contains(errSt.Message.String(), "stopped by signal killed") {
		t.Errorf("error message = %q, want it to say the server was killed", errSt.Message)
	}
	waitFor(t, "reconnection with a new process", 20*time.Second, func() bool {
		st, _ := m.Status(srv.ID)
		b, _ := os.ReadFile(pidFile)
		return st.State == StateConnected && string(b) != strconv.Itoa(pid)
	})
	if _, err := m.CallTool(context.Background(), srv.ID, "echo", map[string]any{"message": "back"}); err != nil {
		t.Errorf("call after reconnect: %v", err)
	}
}

// TestManager_ReconnectIsNoFailure: a reconnect the app asks for (the
// person's Reconnect, or sampling declared once a model provider is added)
// goes straight back to connecting: the server never shows as failed, with
// the untranslated "reconnect requested", while it waits out a backoff.
func TestManager_ReconnectIsNoFailure(t *testing.T) {
	cases := []struct {
		name      string
		reconnect func(m *Manager, id string) error
	}{
		{"Reconnect", func(m *Manager, id string) error { return m.Reconnect(id) }},
		{"sampling declared", func(m *Manager, _ string) error { m.SetSampling(true); return nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, statuses := newTestManager(t)
			srv := peerServer(t, "steady", "demo", nil)
			m.Set(srv)
			connected(t, m, srv.ID)
			before := len(statuses(srv.ID))
			if err := c.reconnect(m, srv.ID); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "connected again", 10*time.Second, func() bool {
				after := statuses(srv.ID)[before:]
				return len(after) >= 2 && after[len(after)-1].State == StateConnected
			})
			var states []string
			for _, st := range statuses(srv.ID)[before:] {
				if len(states) == 0 || states[len(states)-1] != string(st.State) {
					states = append(states, string(st.State)) // a step may be told twice
				}
			}
			if strings.Join(states, ",") != "connecting,connected" {
				t.Errorf("states after the reconnect = %v, want connecting, connected", states)
			}
			if log, _ := m.Log(srv.ID); !strings.Contains(log, "reconnecting, as asked") {
				t.Errorf("the log does not say why the server reconnected:\n%s", log)
			}
		})
	}
}

// TestManager_CrashLoopIsBounded: a server that exits at once is restarted
// with growing delays, never in a busy loop.
func TestManager_CrashLoopIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 10 s")
	}
	m, _ := newTestManager(t)
	srv := peerServer(t, "crasher", "exit", nil)
	m.Set(srv)
	time.Sleep(10 * time.Second)
	st, _ := m.Status(srv.ID)
	// Delays: ~0.5, 1, 2, 4, 8 s (each jittered down to half) → at most ~9 attempts in 10 s.
	if st.Attempts < 2 || st.Attempts > 10 {
		t.Errorf("%d connection attempts in 10 s, want between 2 and 10", st.Attempts)
	}
	if st.State == StateConnected {
		t.Error("a server that always exits shows as connected")
	}
	if !strings.Contains(st.Message.String()+lastError(t, m, srv.ID), "exited with code 3") {
		t.Errorf("message = %q, want the exit code", st.Message)
	}
	if log, _ := m.Log(srv.ID); !strings.Contains(log, "peer: failing on purpose") {
		t.Errorf("the server's stderr is not in its log:\n%s", log)
	}
}

func lastError(t *testing.T, m *Manager, id string) string {
	log, _ := m.Log(id)
	return log
}

func TestManager_BadConfigurations(t *testing.T) {
	cases := []struct {
		name    string
		srv     store.Server
		wantMsg string
	}{
		{"unknown command", store.Server{Transport: store.TransportStdio, Stdio: &store.StdioConfig{Command: "gatehouse-no-such-command"}},
			"command not found: gatehouse-no-such-command"},
		{"missing program given as a path", store.Server{Transport: store.TransportStdio, Stdio: &store.StdioConfig{Command: "/nonexistent/mcp-server"}},
			"command not found: /nonexistent/mcp-server"},
		{"missing working folder", store.Server{Transport: store.TransportStdio, Stdio: &store.StdioConfig{Command: "sh", Dir: "/nonexistent/gatehouse"}},
			"Working folder not found: /nonexistent/gatehouse"},
		{"stdio without command", store.Server{Transport: store.TransportStdio, Stdio: &store.StdioConfig{}},
			"A stdio server needs a command."},
		{"unreachable URL", store.Server{Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: "http://127.0.0.1:9/mcp"}},
			"connection refused"},
		{"non-http URL", store.Server{Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: "ftp://example.com/mcp"}},
			"The URL must start with http:// or https://"},
		{"URL with credentials", store.Server{Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: "https://user:pw@example.com/mcp"}},
			"must not contain a user name or password"},
		{"unknown host", store.Server{Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: "https://gatehouse-test.invalid/mcp"}},
			"unknown host: gatehouse-test.invalid"},
		{"plain http to another computer", store.Server{Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: "http://gatehouse-test.invalid/mcp"}},
			"Plain http:// is only for servers on this computer; use https:// for gatehouse-test.invalid."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, statuses := newTestManager(t)
			srv := tc.srv
			srv.ID, srv.Name, srv.Enabled = "bad", "Bad", true
			m.Set(srv)
			waitFor(t, "an error status", 15*time.Second, func() bool {
				st, _ := m.Status(srv.ID)
				return st.State == StateError
			})
			st, _ := m.Status(srv.ID)
			if !strings.Contains(st.Message.String(), tc.wantMsg) {
				t.Errorf("message = %q, want it to contain %q (all: %+v)", st.Message, tc.wantMsg, statuses(srv.ID))
			}
			if _, err := m.CallTool(context.Background(), srv.ID, "x", nil); !errors.Is(err, ErrNotConnected) {
				t.Errorf("CallTool err = %v, want ErrNotConnected", err)
			}
		})
	}
}

func TestManager_DisableRenameAndRemove(t *testing.T) {
	m, _ := newTestManager(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	srv := peerServer(t, "s1", "demo", map[string]string{"GATEHOUSE_TEST_PIDFILE": pidFile})
	m.Set(srv)
	connected(t, m, srv.ID)
	pid := readPID(t, pidFile)

	// The store hands out a fresh copy on every read: same settings, new pointers.
	stdio := *srv.Stdio
	srv.Stdio = &stdio
	srv.Name = "Renamed"
	m.Set(srv)
	if st, _ := m.Status(srv.ID); st.State != StateConnected {
		t.Errorf("renaming dropped the session: %+v", st)
	}
	if readPID(t, pidFile) != pid {
		t.Error("renaming restarted the process")
	}

	// Passing the whole environment takes a new process: the running one
	// keeps the environment it started with.
	inherit := *srv.Stdio
	inherit.InheritEnv = true
	srv.Stdio = &inherit
	m.Set(srv)
	connected(t, m, srv.ID)
	waitFor(t, "a new process", 10*time.Second, func() bool { return readPID(t, pidFile) != pid })
	if processAlive(pid) {
		t.Error("the old process still runs after the environment option changed")
	}
	pid = readPID(t, pidFile)

	srv.Enabled = false
	m.Set(srv)
	if st, _ := m.Status(srv.ID); st.State != StateDisabled {
		t.Errorf("state = %s, want disabled", st.State)
	}
	if processAlive(pid) {
		t.Error("the process still runs after the server was turned off")
	}
	if _, err := m.CallTool(context.Background(), srv.ID, "echo", nil); !errors.Is(err, ErrDisabled) {
		t.Errorf("err = %v, want ErrDisabled", err)
	}

	srv.Enabled = true
	m.Set(srv)
	connected(t, m, srv.ID)
	m.Remove(srv.ID)
	if _, err := m.Status(srv.ID); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("status after remove: %v", err)
	}
}

// TestManager_StopsWholeProcessGroup: a server's own children are stopped
// with it, on removal and when the manager closes (app exit).
func TestManager_StopsWholeProcessGroup(t *testing.T) {
	for _, how := range []string{"remove", "close"} {
		t.Run(how, func(t *testing.T) {
			m, _ := newTestManager(t)
			childFile := filepath.Join(t.TempDir(), "child")
			srv := peerServer(t, "spawner", "spawner", map[string]string{"GATEHOUSE_TEST_CHILDPID": childFile})
			m.Set(srv)
			connected(t, m, srv.ID)
			child := readPID(t, childFile)
			if !processAlive(child) {
				t.Fatal("grandchild did not start")
			}
			if how == "remove" {
				m.Remove(srv.ID)
			} else {
				m.Close()
			}
			waitFor(t, "the grandchild to be gone", 5*time.Second, func() bool { return !processAlive(child) })
		})
	}
}

func readPID(t *testing.T, file string) int {
	t.Helper()
	var pid int
	waitFor(t, "pid file "+file, 10*time.Second, func() bool {
		b, err := os.ReadFile(file)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	return pid
}

// processAlive reports whether pid exists and is not a zombie.
func processAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(b))
	return len(fields) > 2 && fields[2] != "Z"
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	prevMax := time.Duration(0)
	for n := 1; n <= 20; n++ {
		d := backoff(n)
		want := backoffMin << min(n-1, 16)
		if want > backoffMax {
			want = backoffMax
		}
		if d < want/2 || d > want {
			t.Fatalf("backoff(%d) = %s, want within [%s, %s]", n, d, want/2, want)
		}
		prevMax = max(prevMax, d)
	}
	if prevMax > backoffMax {
		t.Errorf("backoff exceeded the cap: %s", prevMax)
	}
}
