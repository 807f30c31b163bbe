//go:build windowtest

package window

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWindowBridgeIsolatedBeforeItsPageLoads runs the production binary
// under gdb and records, in order, the WebKit calls that decide which frames
// reach Go (package appframe): Wails registers its "external" handler in
// the main world; before Wails loads its page, the handler is moved into
// the isolated world "gatehouse-bridge", the relay (in that world) and the
// shim (in the main world) are added for the top frame only at document
// start, and the apps' scheme is registered. appframe's own WebKit tests
// prove that a view so set up keeps every frame away from the handler; this
// proves that the real window is set up so, with no test code in it.
func TestWindowBridgeIsolatedBeforeItsPageLoads(t *testing.T) {
	bin := binaryPath(t)
	requireTools(t, "Xvfb", "gdb", "dbus-run-session")
	args := map[string][4]string{"amd64": {"$rdi", "$rsi", "$rdx", "$rcx"}, "arm64": {"$x0", "$x1", "$x2", "$x3"}}[runtime.GOARCH]
	if args[0] == "" {
		// gdb reads the traced WebKit calls' arguments from registers, named
		// here for amd64 and arm64; appframe's own WebKit tests still prove
		// the isolation on any architecture.
		t.Skipf("the trace reads WebKit calls' arguments from registers, known here for amd64 and arm64, not %s", runtime.GOARCH)
	}
	// Each breakpoint prints its call (the arguments as the C calling
	// convention passes them); the page's load ends the run.
	trace := func(fn, format string, vals ...string) string {
		return fmt.Sprintf("break %s\ncommands\nsilent\nprintf \"CALL %s\\n\", %s\ncontinue\nend\n", fn, format, strings.Join(vals, ", "))
	}
	script := "set pagination off\nset confirm off\nset breakpoint pending on\n" +
		"handle SIGUSR1 SIGUSR2 SIGPIPE SIGURG SIGPWR SIGXCPU SIG34 SIG35 nostop noprint pass\n" +
		trace("webkit_user_content_manager_register_script_message_handler", "register %s", "(char*)"+args[1]) +
		trace("webkit_user_content_manager_unregister_script_message_handler", "unregister %s", "(char*)"+args[1]) +
		trace("webkit_user_content_manager_register_script_message_handler_in_world", "register %s in %s", "(char*)"+args[1], "(char*)"+args[2]) +
		trace("webkit_user_script_new_for_world", "script frames=%d start=%d in %s", "(int)"+args[1], "(int)"+args[2], "(char*)"+args[3]) +
		trace("webkit_user_script_new", "script frames=%d start=%d", "(int)"+args[1], "(int)"+args[2]) +
		trace("webkit_web_context_register_uri_scheme", "scheme %s", "(char*)"+args[1]) +
		fmt.Sprintf("break webkit_web_view_load_uri\ncommands\nsilent\nprintf \"CALL load %%s\\n\", (char*)%s\nkill\nquit\nend\nrun\n", args[1])
	scriptPath := filepath.Join(t.TempDir(), "trace.gdb")
	if err := os.WriteFile(scriptPath, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}

	display := startXvfb(t)
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "dbus-run-session", "--", "gdb", "-batch", "-x", scriptPath, "--args", bin)
	cmd.Env = append(cleanEnv(), "DISPLAY="+display, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_RUNTIME_DIR="+home, "GATEHOUSE_DATA_DIR="+t.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, err := cmd.CombinedOutput()
	logPath := filepath.Join(outputDir(t), "window-bridge-gdb.log")
	_ = os.WriteFile(logPath, out, 0o644)
	var calls []string
	for _, line := range strings.Split(string(out), "\n") {
		if c, ok := strings.CutPrefix(line, "CALL "); ok {
			calls = append(calls, c)
		}
	}
	t.Logf("WebKit calls in order (gdb: %v; log %s):\n  %s", err, logPath, strings.Join(calls, "\n  "))

	// Enum values of WebKitGTK 4.1: WEBKIT_USER_CONTENT_INJECT_TOP_FRAME is
	// 1, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START 0.
	want := []string{
		"register external", // Wails' NewWindow, in the main world
		"scheme wails",      // Wails' SetupWebview
		"unregister external",
		"register external in gatehouse-bridge",
		"script frames=1 start=0 in gatehouse-bridge", // the relay
		"script frames=1 start=0",                     // the shim, in the main world
		"scheme gatehouse-app",
		"load wails://wails/",
	}
	// Only these calls, in this order (WebKit's own schemes aside), and
	// the load last.
	var got []string
	for _, c := range calls {
		if c != "scheme inspector" && c != "scheme webkit" {
			got = append(got, c)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the window's WebKit set-up:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
