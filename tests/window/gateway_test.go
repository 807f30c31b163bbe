//go:build windowtest

package window

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGatewayStartsTheAppAndStaysSmall: with no Gatehouse running, another
// app launches `gatehouse gateway` (here the go-sdk's client, with the
// environment such an app passes: a display, no session bus): it starts
// Gatehouse's window, waits for its gateway, and serves the person's
// servers (the demo server, seeded on the first start). The process that
// stays for the session is the small gatehouse-gateway program (the same
// process, so the app still knows who launched it), well under 20 MB.
func TestGatewayStartsTheAppAndStaysSmall(t *testing.T) {
	bin := binaryPath(t)
	requireTools(t, "Xvfb")
	if _, err := os.Stat(filepath.Join(filepath.Dir(bin), "gatehouse-gateway")); err != nil {
		t.Fatalf("gatehouse-gateway is not beside %s (make build makes both)", bin)
	}
	display := startXvfb(t)
	data, runtime := t.TempDir(), t.TempDir()
	if err := os.Chmod(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	defer stopAppOn(t, data)

	cmd := exec.Command(bin, "--data-dir", data, "gateway")
	cmd.Env = append(cleanEnv(), "DISPLAY="+display, "XDG_RUNTIME_DIR="+runtime, "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "window-test-agent", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v; stderr: %s", err, stderr.String())
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v; stderr: %s", err, stderr.String())
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "Demo_server__add") {
		t.Fatalf("tools/list after starting the app: %q; stderr: %s", names, stderr.String())
	}
	t.Logf("the first tools/list, starting the app: %v", time.Since(start))

	pid := cmd.Process.Pid
	exe, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if filepath.Base(exe) != "gatehouse-gateway" {
		t.Errorf("the session is served by %s, not gatehouse-gateway", exe)
	}
	rss := vmRSS(t, pid)
	t.Logf("gateway process RSS: %d kB", rss)
	if rss > 20*1024 {
		t.Errorf("the gateway process holds %d kB, more than 20 MB", rss)
	}
}

// vmRSS reads a process's resident memory in kB.
func vmRSS(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// stopAppOn ends the Gatehouse the gateway started on data (it runs
// detached, in a session of its own).
func stopAppOn(t *testing.T, data string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		if args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"); len(args) == 3 && args[1] == "--data-dir" && args[2] == data {
			_ = syscall.Kill(pid, syscall.SIGTERM)
		}
	}
}
