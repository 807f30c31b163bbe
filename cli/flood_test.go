package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// floodSize is how much a flooding server offers in one message: far more
// than Gatehouse may hold, sent from a generator (the test never holds it).
const floodSize = 1 << 30

// peakLimitKB is the most memory (peak resident set, in KB) `gatehouse
// tools` may use on a flooding server (issue 22, item 2); more under the race
// detector (raceMemory).
const peakLimitKB = raceMemory * 200 << 10

// floodServer is a remote MCP server that answers every POST with one
// message of floodSize bytes that never ends its line: an event stream's
// data line, or a JSON body, as contentType says. With legacy it is a
// legacy HTTP+SSE server instead, which refuses the Streamable HTTP POST
// and floods the event stream of its GET after the endpoint event. It stops
// when the client goes away.
func floodServer(t *testing.T, contentType string, legacy bool) (url string) {
	t.Helper()
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		head := `{"jsonrpc":"2.0","id":1,"result":{"padding":"`
		switch {
		case legacy && r.Method == http.MethodGet:
			head = "event: endpoint\ndata: /messages\n\nevent: message\ndata: " + head
		case legacy && r.URL.Path == "/messages":
			w.WriteHeader(http.StatusAccepted)
			return
		case legacy || r.Method != http.MethodPost:
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		case strings.HasPrefix(contentType, "text/event-stream"):
			head = "event: message\ndata: " + head
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		if _, err := w.Write([]byte(head)); err != nil {
			return
		}
		for n := 0; n < floodSize; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client hung up
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// TestCLI_ToolsOnAFloodingServerStaysSmall runs the real `gatehouse tools`
// in a process of its own against a server whose answer is a gigabyte
// without a newline, and measures the process's peak memory as the kernel
// counted it (the child's ru_maxrss). The connection must fail with a
// sentence that says why, in the person's language, and the peak must stay
// under 200 MB (issue 22, item 2: before, it grew by about 1 GB/s).
func TestCLI_ToolsOnAFloodingServerStaysSmall(t *testing.T) {
	remote := func(contentType string, legacy bool) func(t *testing.T) []string {
		return func(t *testing.T) []string {
			url := floodServer(t, contentType, legacy)
			return []string{"--url", url}
		}
	}
	// A stdio server: the start of a JSON-RPC answer, then a gigabyte of
	// one string without end.
	stdio := func(t *testing.T) []string {
		return []string{"--", "sh", "-c", `printf '{"jsonrpc":"2.0","id":1,"result":{"padding":"'; head -c ` +
			strconv.Itoa(floodSize) + ` /dev/zero | tr '\0' a`}
	}
	for _, tc := range []struct {
		name   string
		server func(t *testing.T) []string // the arguments of servers add
		lang   string
		want   string
	}{
		{"an event stream whose data line never ends", remote("text/event-stream", false), "en_US.UTF-8",
			"the server sent a message larger than 16 MB"},
		{"a JSON answer that never ends", remote("application/json", false), "en_US.UTF-8",
			"the server sent a message larger than 16 MB"},
		{"a JSON answer that never ends, said in Chinese", remote("application/json", false), "zh_CN.UTF-8",
			"服务器发送的消息超过 16 MB"},
		{"a legacy SSE stream whose data line never ends", remote("text/event-stream", true), "en_US.UTF-8",
			"the server sent a message larger than 16 MB"},
		{"a stdio server whose line never ends", stdio, "en_US.UTF-8",
			"the server sent a message larger than 16 MB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if code, _, errOut := gh(t, dir, append([]string{"servers", "add", "Flood"}, tc.server(t)...)...); code != 0 {
				t.Fatalf("servers add: %d %s", code, errOut)
			}
			code, stderr, peakKB := runMainMeasured(t, []string{"GATEHOUSE_DATA_DIR=" + dir, "LANG=" + tc.lang}, "tools", "Flood")
			t.Logf("peak %d MB; stderr:\n%s", peakKB>>10, stderr)
			if peakKB >= peakLimitKB {
				t.Errorf("gatehouse tools reached %d MB of memory, want under %d MB", peakKB>>10, peakLimitKB>>10)
			}
			if code == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant a failure saying %q", code, stderr, tc.want)
			}
		})
	}
}

// runMainMeasured runs Main in a child process as runMain does and returns
// its exit code, its stderr and its peak resident memory in KB. A child
// that passes twice peakLimitKB is killed at once (the test has failed by
// then, and the machine is shared).
func runMainMeasured(t *testing.T, env []string, args ...string) (code int, stderr string, peakKB int64) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "DISPLAY", "WAYLAND_DISPLAY", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(append(cmd.Env, "GATEHOUSE_CLI_MAIN=1"), env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(60 * time.Second)
	killed := ""
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-deadline:
			killed = "still running after 60 s"
			_ = cmd.Process.Kill()
		case <-tick.C:
			if rss := residentKB(cmd.Process.Pid); rss > 2*peakLimitKB && killed == "" {
				killed = fmt.Sprintf("killed at %d MB resident", rss>>10)
				_ = cmd.Process.Kill()
			}
		}
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peakKB = ru.Maxrss
	}
	if killed != "" {
		t.Logf("gatehouse %v %s", args, killed)
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, errb.String(), peakKB
}

// residentKB is a process's resident memory now (VmRSS), 0 when it cannot
// be read.
func residentKB(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
