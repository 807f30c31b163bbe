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
			"Warning: Gatehouse did not check the structured content against the output schema of bomb_out"},
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
		// checks is true when the result's check runs long enough to be
		// stopped; an output-schema bomb is refused before it starts.
		checks bool
		want   string // in stderr
	}{
		// dense_out: the check of heavy_out's 100,000 rows in a result a
		// tenth of its size, so that the 2 s below measure the signal, not
		// the result's way through the command's MCP connection (with the
		// race detector, 6 MB of JSON took 7 s to go through it, 0.9 s without).
		{"Ctrl+C while a costly result is checked", "dense_out", syscall.SIGINT, true, "Checking was stopped."},
		{"SIGTERM while a costly result is checked", "dense_out", syscall.SIGTERM, true, "Checking was stopped."},
		{"Ctrl+C after an output-schema bomb", "bomb_out", syscall.SIGINT, false, "more work than Gatehouse allows"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			addBombPeer(t, dir)
			marker := filepath.Join(t.TempDir(), "validating")
			cmd := exec.Command(self, "call", "Bombs", tc.tool)
			cmd.Env = append(os.Environ(), "GATEHOUSE_CLI_MAIN=1", "GATEHOUSE_DATA_DIR="+dir, "LANG=C", validatingFileEnv+"="+marker)
			out, errb := &syncBuffer{b: &bytes.Buffer{}}, &syncBuffer{b: &bytes.Buffer{}}
			cmd.Stdout, cmd.Stderr = out, errb
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
			// Wait until the command is inside the validator, or has ended.
			deadline := time.Now().Add(30 * time.Second)
			for {
				if _, err := os.Stat(marker); err == nil {
					break
				}
				select {
				case <-done:
					if tc.checks {
						t.Fatalf("the command ended before its check could be stopped; stderr:\n%s", errb.String())
					}
					if !strings.Contains(errb.String(), tc.want) {
						t.Errorf("stderr %q; want %q", errb.String(), tc.want)
					}
					return
				default:
				}
				if time.Now().After(deadline) {
					t.Fatalf("the command never started checking; stderr:\n%s", errb.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(200 * time.Millisecond) // well into the check
			_ = cmd.Process.Signal(tc.sig)
			// Within 2 s the person has the result and the sentence...
			answered := time.Now().Add(2 * time.Second)
			for !strings.Contains(errb.String(), tc.want) || !strings.Contains(out.String(), tc.tool+" done") {
				if time.Now().After(answered) {
					t.Fatalf("gatehouse call %s: 2 s after %v, stdout %q, stderr %q; want the result and %q",
						tc.tool, tc.sig, lastLines(out.String(), 2), lastLines(errb.String(), 3), tc.want)
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Logf("answered %v after the signal", time.Since(answered.Add(-2*time.Second)))
			// ...and the command has ended. Under the race detector a
			// process's exit walks its shadow memory first (racefini), which
			// took seconds after this check's large result.
			select {
			case <-done:
			case <-time.After(raceExit * 2 * time.Second):
				t.Fatalf("gatehouse call %s: still running %d s after %v", tc.tool, raceExit*2, tc.sig)
			}
		})
	}
}

// validatingFileEnv names the file the command writes, in a test, once it
// is inside the JSON Schema validator (see reportValidating).
const validatingFileEnv = "GATEHOUSE_TEST_VALIDATING_FILE"

// reportValidating, when file is not "", watches this process's goroutines
// and creates file once one of them is inside the JSON Schema validator,
// checking a result: the one sign that the result's check, not the call
// before it, is running.
func reportValidating(file string) {
	if file == "" {
		return
	}
	go func() {
		buf := make([]byte, 1<<22)
		for {
			n := runtime.Stack(buf, true)
			for _, g := range strings.Split(string(buf[:n]), "\n\n") {
				if strings.Contains(g, "forms.CheckStructured(") && strings.Contains(g, "santhosh-tekuri/jsonschema/v6.(*Schema).Validate(") {
					_ = os.WriteFile(file, nil, 0o600)
					return
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
