package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The app quitting (Manager.Close) does not wait for a stdio server that
// stopped reading its input while a call's request was being written to
// it: before, the go-sdk's Close waited for that write, the write for the
// server, and the server's input was closed only after Close, so the app
// never exited (nor did a server's Disable or Remove end).
func TestManager_CloseDoesNotWaitForAServerThatStoppedReading(t *testing.T) {
	m, _ := newTestManager(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	srv := peerServer(t, "deaf", "deaf", map[string]string{"GATEHOUSE_TEST_PIDFILE": pidFile})
	m.Set(srv)
	connected(t, m, srv.ID)
	t.Cleanup(func() { // a hung Close ends with the server, so that the test can
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(string(b)); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, _ = m.CallTool(ctx, srv.ID, "t", map[string]any{"blob": strings.Repeat("x", 1<<20)}) // more than a pipe holds
	}()
	time.Sleep(500 * time.Millisecond)

	closed := make(chan struct{})
	go func() {
		m.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("Close still waits after 20 s for a server that stopped reading")
	}
}
