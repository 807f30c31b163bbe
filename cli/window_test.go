package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// mainForTest runs Main in a process of its own (this test binary again,
// with GATEHOUSE_CLI_MAIN=1; see TestMain), so that a test sees its real
// exit code and streams.
func mainForTest() int {
	reportValidating(os.Getenv(validatingFileEnv))
	assets := fstest.MapFS{"frontend/dist/index.html": {Data: []byte("<!doctype html>")}}
	return Main(os.Args[1:], assets)
}

// runMain runs Main with args in a child process whose environment is env
// on top of this one without any display, and returns its exit code and
// output.
func runMain(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
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
	cmd.Env = append(cmd.Env, "GATEHOUSE_CLI_MAIN=1", "GATEHOUSE_DATA_DIR="+t.TempDir())
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("gatehouse %v still running after 30s; stderr so far:\n%s", args, errb.String())
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

func TestCLI_NoDisplaySaysTheWindowNeedsADesktop(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{"in English", []string{"LANG=en_US.UTF-8"},
			"Gatehouse’s window needs a desktop session, and there is no display here to open it on (DISPLAY or WAYLAND_DISPLAY). " +
				"The command-line commands work without one: see gatehouse help.\n"},
		{"in Chinese", []string{"LANG=zh_CN.UTF-8"},
			"Gatehouse 的窗口需要桌面会话，而这里没有可以打开窗口的显示器（DISPLAY 或 WAYLAND_DISPLAY）。命令行命令不需要桌面会话：见 gatehouse help。\n"},
		{"an empty DISPLAY is none", []string{"LANG=C", "DISPLAY=", "WAYLAND_DISPLAY="},
			"Gatehouse’s window needs a desktop session, and there is no display here to open it on (DISPLAY or WAYLAND_DISPLAY). " +
				"The command-line commands work without one: see gatehouse help.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tc.env)
			if code != exitError || stderr != tc.want || stdout != "" {
				t.Errorf("gatehouse without a display: exit %d, stdout %q, stderr %q; want exit %d and stderr %q",
					code, stdout, stderr, exitError, tc.want)
			}
		})
	}
}

// TestCLI_CommandsNeedNoDisplay: what the sentence promises.
func TestCLI_CommandsNeedNoDisplay(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help"}, "Usage:"},
		{[]string{"servers", "list"}, "Demo server"}, // the server a new data file starts with
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runMain(t, []string{"LANG=C"}, tc.args...)
			if code != exitOK || stderr != "" || !strings.Contains(stdout, tc.want) {
				t.Errorf("gatehouse %v without a display: exit %d, stdout %q, stderr %q; want exit 0 and %q",
					tc.args, code, stdout, stderr, tc.want)
			}
		})
	}
}
