package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/store"
)

// TestManager_CallReconnectsACrashedServer (issue 26): a server killed five
// times, each time followed by a call shortly after, answers every call: the
// call starts the reconnect at once and waits for it, instead of failing with
// "the server is not connected" while the growing backoff runs. The later
// crashes' planned waits (2 s and more) have not run out when the call is
// answered.
func TestManager_CallReconnectsACrashedServer(t *testing.T) {
	m, statuses := newTestManager(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	srv := peerServer(t, "victim", "demo", map[string]string{"GATEHOUSE_TEST_PIDFILE": pidFile})
	m.Set(srv)
	connected(t, m, srv.ID)
	for round := 1; round <= 5; round++ {
		pid := readPID(t, pidFile)
		before := len(statuses(srv.ID))
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		var crashed Status
		waitFor(t, "the error status after kill "+strconv.Itoa(round), 10*time.Second, func() bool {
			for _, st := range statuses(srv.ID)[before:] {
				if st.State == StateError {
					crashed = st
					return true
				}
			}
			return false
		})
		time.Sleep(100 * time.Millisecond) // "shortly after"
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := m.CallTool(ctx, srv.ID, "echo", map[string]any{"message": "round " + strconv.Itoa(round)})
		cancel()
		answered := time.Now()
		if err != nil {
			log, _ := m.Log(srv.ID)
			t.Fatalf("call %d after the kill failed: %v\nlog:\n%s", round, err, log)
		}
		if got := textOf(res); !strings.Contains(got, "round "+strconv.Itoa(round)) {
			t.Errorf("call %d answered %q", round, got)
		}
		if b, _ := os.ReadFile(pidFile); string(b) == strconv.Itoa(pid) {
			t.Errorf("call %d was answered by the killed process", round)
		}
		// The backoff keeps growing (0.5, 1, 2, 4, 8 s, halved at most by
		// jitter): from the fourth crash on, the call beats the planned retry.
		if round >= 4 && !answered.Before(crashed.NextRetry) {
			t.Errorf("call %d answered at %s, not before the planned retry at %s: it waited out the backoff",
				round, answered.Format(time.StampMilli), crashed.NextRetry.Format(time.StampMilli))
		}
	}
	if log, _ := m.Log(srv.ID); strings.Count(log, "reconnecting now: a call is waiting") != 5 {
		t.Errorf("the log does not say five times why the server reconnected early:\n%s", log)
	}
}

// TestManager_CrashAtStartKeepsItsWait: calls that keep coming to a server
// that exits at start do not make it restart in a tight loop: each call
// fails at once with the reason, and the wait keeps growing.
func TestManager_CrashAtStartKeepsItsWait(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 4 s")
	}
	m, _ := newTestManager(t)
	srv := peerServer(t, "crasher", "exit", nil)
	m.Set(srv)
	calls, slow, reasoned := 0, 0, 0
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); calls++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		start := time.Now()
		_, err := m.CallTool(ctx, srv.ID, "echo", map[string]any{"message": "hi"})
		cancel()
		if err == nil {
			t.Fatal("a server that exits at start answered a call")
		}
		if calls == 0 || strings.Contains(err.Error(), "exited with code 3") {
			reasoned++
		}
		if time.Since(start) > time.Second {
			slow++
		}
		time.Sleep(20 * time.Millisecond)
	}
	if reasoned < calls/2 {
		t.Errorf("only %d of %d calls said why the server is not connected", reasoned, calls)
	}
	st, _ := m.Status(srv.ID)
	// Delays ~0.5, 1, 2, 4 s (each jittered down to half at most) → at most 5 attempts in 4 s.
	if st.Attempts > 5 {
		t.Errorf("%d connection attempts in 4 s under %d calls; want the growing wait kept (≤ 5)", st.Attempts, calls)
	}
	if slow > 0 {
		t.Errorf("%d of %d calls waited more than a second; a server that cannot start fails them at once", slow, calls)
	}
	if !strings.Contains(st.Message.String()+lastError(t, m, srv.ID), "exited with code 3") {
		t.Errorf("message = %q, want the exit code", st.Message)
	}
}

// TestManager_StatusCarriesStderr (issue 26): a real Node script whose
// module is missing exits 1 at start; its status carries the last lines of
// its stderr from the error on, not only "exited with code 1".
func TestManager_StatusCarriesStderr(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missingPeer(t, "node is not installed")
	}
	script := filepath.Join(t.TempDir(), "server.js")
	if err := os.WriteFile(script, []byte("require('x');\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m, statuses := newTestManager(t)
	srv := store.Server{ID: "broken", Name: "broken", Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: node, Args: []string{script}}}
	m.Set(srv)
	var failed Status
	waitFor(t, "the error status", 15*time.Second, func() bool {
		for _, st := range statuses(srv.ID) {
			if st.State == StateError {
				failed = st
				return true
			}
		}
		return false
	})
	if !strings.Contains(failed.Message.String(), "exited with code 1") {
		t.Errorf("message = %q", failed.Message)
	}
	if len(failed.Stderr) == 0 || failed.Stderr[0] != "Error: Cannot find module 'x'" || len(failed.Stderr) > stderrTailLines {
		t.Fatalf("status stderr = %q; want it to start at Node's error", failed.Stderr)
	}
	for _, line := range failed.Stderr {
		if strings.HasPrefix(strings.TrimSpace(line), "at ") {
			t.Errorf("a stack frame is shown: %q", line)
		}
	}
	if st, _ := m.Status(srv.ID); st.State == StateError && len(st.Stderr) == 0 {
		t.Error("Manager.Status drops the stderr lines")
	}
}

// TestStderrSince: the lines a failed attempt's status carries are its own,
// few, bounded and chosen from the error on.
func TestStderrSince(t *testing.T) {
	long := strings.Repeat("é", stderrTailLineSize) // 2 bytes each: a cut must not split one
	cases := []struct {
		name   string
		before string // written before the attempt
		during string
		want   []string
	}{
		{"only the attempt's own lines", "Error: old\n", "starting\nlistening\n", []string{"starting", "listening"}},
		{"the last lines when none is an error", "", "1\n2\n3\n4\n5\n6\n7\n", []string{"3", "4", "5", "6", "7"}},
		{"from the error on, without stack frames or blanks", "",
			"Error: Cannot find module 'x'\n\n    at Module._load (x.js:1:1)\nRequire stack:\n- /s.js\n{\n  code: 'MODULE_NOT_FOUND',\n}\n",
			[]string{"Error: Cannot find module 'x'", "Require stack:", "- /s.js", "{", "  code: 'MODULE_NOT_FOUND',"}},
		{"Python's last line", "", "Traceback (most recent call last):\n  File \"s.py\", line 1\nModuleNotFoundError: No module named 'x'\n",
			[]string{"ModuleNotFoundError: No module named 'x'"}},
		{"a partial last line", "", "half a line", []string{"half a line"}},
		{"a long line is cut on a character", "", long + "\n", []string{strings.Repeat("é", stderrTailLineSize/2) + "…"}},
		{"nothing", "old\n", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var l serverLog
			_, _ = l.Write([]byte(c.before))
			mark := l.stderrMark()
			_, _ = l.Write([]byte(c.during))
			got := l.stderrSince(mark)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") || len(got) != len(c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
