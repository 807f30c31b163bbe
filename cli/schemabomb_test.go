package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 22, item 3: `gatehouse call` on a server whose schemas are built to
// make the check endless. The peer is testdata/peers/schema-bomb.mjs.

// addBombPeer adds the schema-bomb peer as "Bombs" to dataDir and returns
// the file it logs its requests to.
func addBombPeer(t *testing.T, dataDir string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	peers := filepath.Join(filepath.Dir(file), "..", "testdata", "peers")
	if _, err := os.Stat(filepath.Join(peers, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatal("the TypeScript peers are not installed (run: make peers)")
		}
		t.Skip("the TypeScript peers are not installed (run: make peers)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed")
	}
	logFile := filepath.Join(t.TempDir(), "requests.log")
	if code, _, errOut := gh(t, dataDir, "servers", "add", "Bombs", "--", node, filepath.Join(peers, "schema-bomb.mjs"), logFile); code != 0 {
		t.Fatal(errOut)
	}
	return logFile
}

func TestCLI_CallRefusesSchemaBombsQuickly(t *testing.T) {
	dir := t.TempDir()
	logFile := addBombPeer(t, dir)
	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string // in stderr
	}{
		{"an input-schema bomb: the call is not made", []string{"call", "Bombs", "bomb_in", `{}`}, 1,
			"The call was not made"},
		{"an output-schema bomb: the result is printed with a warning", []string{"call", "Bombs", "bomb_out"}, 0,
			"Warning: Gatehouse did not check the structured content against the output schema of “bomb_out”"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var code int
			var out, errOut string
			go func() {
				defer close(done)
				code, out, errOut = gh(t, dir, tc.args...)
			}()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
				t.Fatalf("gatehouse %s: still running after 2 s", strings.Join(tc.args, " "))
			}
			if code != tc.wantCode || !strings.Contains(errOut, tc.wantErr) || !strings.Contains(errOut, "more work") {
				t.Errorf("code %d, stdout %q, stderr %q; want code %d and %q", code, out, errOut, tc.wantCode, tc.wantErr)
			}
		})
	}
	if b, _ := os.ReadFile(logFile); strings.Contains(string(b), "tools/call bomb_in") {
		t.Error("bomb_in was called although its arguments could not be checked")
	}
}

// Ctrl+C (SIGINT) and SIGTERM end a `gatehouse call` while it checks a
// result: the check runs under the command's context.
func TestCLI_SignalEndsACallThatIsChecking(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		tool string
		sig  syscall.Signal
	}{
		{"Ctrl+C while a costly result is checked", "heavy_out", syscall.SIGINT},
		{"SIGTERM while a costly result is checked", "heavy_out", syscall.SIGTERM},
		{"Ctrl+C after an output-schema bomb", "bomb_out", syscall.SIGINT},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			logFile := addBombPeer(t, dir)
			cmd := exec.Command(self, "call", "Bombs", tc.tool)
			cmd.Env = append(os.Environ(), "GATEHOUSE_CLI_MAIN=1", "GATEHOUSE_DATA_DIR="+dir, "LANG=C")
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			t.Cleanup(func() {
				if cmd.ProcessState == nil {
					_ = cmd.Process.Kill()
					<-done
				}
			})
			deadline := time.Now().Add(20 * time.Second)
			for {
				if b, _ := os.ReadFile(logFile); strings.Contains(string(b), "sent "+tc.tool) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the peer never sent %s's result; stderr:\n%s", tc.tool, errb.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(3 * time.Second) // the result has arrived and is being checked
			_ = cmd.Process.Signal(tc.sig)
			select {
			case <-done:
				t.Logf("ended: %v; stderr %q", cmd.ProcessState, lastLines(errb.String(), 3))
			case <-time.After(2 * time.Second):
				t.Fatalf("gatehouse call %s: still running 2 s after %v", tc.tool, tc.sig)
			}
		})
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
