package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// These tests re-run the test binary as a second process, selected by
// -test.run and told what to do through an environment variable. The helper
// "tests" return at once when their variable is unset.
const (
	envWriterDir = "GATEHOUSE_STORE_TEST_WRITER_DIR"
	envHolderDir = "GATEHOUSE_STORE_TEST_HOLDER_DIR"
)

// TestHelperWriter, as a child, writes servers until it is killed, printing
// "id <ID>" after each PutServer returns: a printed ID is committed.
func TestHelperWriter(t *testing.T) {
	dir := os.Getenv(envWriterDir)
	if dir == "" {
		return
	}
	s, err := Open(dir, &Options{LockTimeout: 10 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, "writer:", err)
		os.Exit(2)
	}
	run := rand.Uint64()
	var mine []Server
	for i := 0; ; i++ {
		srv, err := s.PutServer(Server{
			Name:      fmt.Sprintf("w%x-%d", run, i),
			Transport: TransportStdio,
			// Values of varying size split and merge pages.
			Stdio: &StdioConfig{Command: "cmd", Args: []string{strings.Repeat("x", rand.N(3000))}},
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "writer:", err)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stdout, "id %s\n", srv.ID)
		mine = append(mine, srv)

		// Rewrites free pages, so the freelist is in play too.
		if i%3 == 2 {
			old := mine[rand.N(len(mine))]
			old.Enabled = !old.Enabled
			old.Stdio.Args = []string{strings.Repeat("y", rand.N(3000))}
			if _, err := s.PutServer(old); err != nil {
				fmt.Fprintln(os.Stderr, "writer:", err)
				os.Exit(2)
			}
		}
		if i%5 == 4 {
			if err := s.PutSettings(Settings{WindowWidth: i}); err != nil {
				fmt.Fprintln(os.Stderr, "writer:", err)
				os.Exit(2)
			}
		}
	}
}

// TestHelperHolder, as a child, opens the store, prints "ready", and keeps
// it open until its stdin closes.
func TestHelperHolder(t *testing.T) {
	dir := os.Getenv(envHolderDir)
	if dir == "" {
		return
	}
	s, err := Open(dir, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "holder:", err)
		os.Exit(2)
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "holder:", err)
		os.Exit(2)
	}
}

// child is a running helper process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr bytes.Buffer
	lines  chan string // stdout, line by line; closed at EOF
}

// startChild runs the helper test named helper with env set.
func startChild(t *testing.T, helper, env string) *child {
	t.Helper()
	c := &child{cmd: exec.Command(os.Args[0], "-test.run=^"+helper+"$")}
	// A race-enabled child would otherwise sleep a second at exit.
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	c.cmd.Env = append(os.Environ(), env, "GORACE="+gorace)
	c.cmd.Stderr = &c.stderr
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			_ = c.cmd.Process.Kill()
			_ = c.cmd.Wait()
		}
	})
	c.lines = make(chan string, 1024)
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	return c
}

// TestKilledWriterLosesNothingCommitted kills a writing process with
// SIGKILL at random moments, over and over on one file, and checks after
// each kill that the file opens and holds every server the writer reported
// as stored.
func TestKilledWriterLosesNothingCommitted(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	dir := t.TempDir()
	var committed []string
	const kills = 24
	for round := range kills {
		c := startChild(t, "TestHelperWriter", envWriterDir+"="+dir)

		if round%4 == 0 {
			// Sometimes anywhere, even while it opens or upgrades the file.
			time.Sleep(rand.N(60 * time.Millisecond))
		} else {
			// Mostly mid-write: after its first commit.
			line, ok := <-c.lines
			if !ok {
				_ = c.cmd.Wait()
				t.Fatalf("round %d: writer exited before writing: %s", round, c.stderr.String())
			}
			committed = appendID(t, committed, line)
			time.Sleep(rand.N(50 * time.Millisecond))
		}
		if err := c.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		for line := range c.lines {
			committed = appendID(t, committed, line)
		}
		if err := c.cmd.Wait(); err == nil {
			t.Fatalf("round %d: writer exited by itself: %s", round, c.stderr.String())
		}
		if strings.Contains(c.stderr.String(), "writer:") {
			t.Fatalf("round %d: writer failed: %s", round, c.stderr.String())
		}

		s, err := Open(dir, nil)
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		for _, id := range committed {
			if _, err := s.Server(id); err != nil {
				t.Errorf("round %d: committed server %s: %v", round, id, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if t.Failed() {
			return
		}
	}
	if len(committed) == 0 {
		t.Fatal("no writer ever committed; the test proved nothing")
	}
	t.Logf("%d kills, %d committed servers checked", kills, len(committed))
}

func appendID(t *testing.T, ids []string, line string) []string {
	t.Helper()
	id, ok := strings.CutPrefix(line, "id ")
	if !ok {
		return ids // testing's own output
	}
	return append(ids, id)
}

// TestSecondInstanceIsRefused opens the store while another process holds
// it.
func TestSecondInstanceIsRefused(t *testing.T) {
	tests := []struct {
		name string
		opts *Options
	}{
		{"waiting the default time", nil},
		{"a single attempt", &Options{LockTimeout: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := withServers(t, 3)
			path := filepath.Join(dir, FileName)
			c := startChild(t, "TestHelperHolder", envHolderDir+"="+dir)
			if line, ok := <-c.lines; !ok || line != "ready" {
				_ = c.cmd.Wait()
				t.Fatalf("holder did not get ready (%q): %s", line, c.stderr.String())
			}
			before := takeSnapshot(t, path)

			s, err := Open(dir, tc.opts)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded while another process holds the file")
			}
			if !errors.Is(err, ErrLocked) {
				t.Fatalf("Open: %v, want ErrLocked", err)
			}
			if got := err.Error(); got != "Gatehouse is already running" {
				t.Errorf("message = %q, want exactly %q", got, "Gatehouse is already running")
			}
			assertUnchanged(t, path, before)

			// Once the other process lets go, the file opens.
			if err := c.stdin.Close(); err != nil {
				t.Fatal(err)
			}
			for range c.lines {
			}
			if err := c.cmd.Wait(); err != nil {
				t.Fatalf("holder: %v: %s", err, c.stderr.String())
			}
			s = openT(t, dir)
			if all, err := s.Servers(); err != nil || len(all) != 3 {
				t.Errorf("after the holder exited: %d servers, %v; want 3", len(all), err)
			}
		})
	}
}
