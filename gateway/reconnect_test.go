package gateway

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// TestGateway_ACallReconnectsACrashedServer (issue 26): another app's call
// made while a server waits to reconnect after a crash reconnects it at
// once and is answered, instead of failing with "not connected".
func TestGateway_ACallReconnectsACrashedServer(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	srv := f.add(t, "Everything", "everything")
	cs := f.connect(t, clientOptions{revision: "2025-11-25"})
	pid := childRunning(t, "server-everything")
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := f.m.Status(srv.ID)
		if err == nil && st.State == mcp.StateError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed server's status: %+v, %v", st, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Everything__echo", Arguments: map[string]any{"message": "again"}})
	if err != nil {
		t.Fatalf("the call after the crash: %v", err)
	}
	if res.IsError || resultText(res) != "Echo: again" {
		t.Fatalf("the call after the crash: %s", resultText(res))
	}
}

// childRunning is the PID of this process's child whose command line
// contains what.
func childRunning(t *testing.T, what string) int {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		stat, err := os.ReadFile(dir + "/stat")
		if err != nil {
			continue
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		if cmd, _ := os.ReadFile(dir + "/cmdline"); strings.Contains(string(cmd), what) {
			pid, _ := strconv.Atoi(filepath.Base(dir))
			return pid
		}
	}
	t.Fatalf("no child process runs %s", what)
	return 0
}
