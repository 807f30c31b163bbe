//go:build windowtest

package window

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/theme/themetest"
)

// secondStartLimit is how soon a second start must be gone: it opens no
// window and no data file, only asks the session bus.
const secondStartLimit = 5 * time.Second

// TestWindowSecondStartBringsTheFirstForward starts Gatehouse, covers its
// window with another one, starts Gatehouse again with arguments on the
// same session bus, display and data, and checks what a person would see:
// the second start leaves at once with status 0 and says nothing, there is
// still exactly one Gatehouse window, and it is on top again, visible and
// focused. Screenshots of the whole screen before and after:
// window-second-start-before.png, window-second-start-after.png.
func TestWindowSecondStartBringsTheFirstForward(t *testing.T) {
	bin := binaryPath(t)
	requireTools(t, "Xvfb", "xdotool", "import", "convert", "display", "dbus-daemon", "xwininfo")
	out := outputDir(t)

	bus := themetest.StartBus(t)
	display := startXvfb(t)
	data := t.TempDir()
	first, win := launch(t, bin, display, data, filepath.Join(out, "window-second-start-app.log"), "DBUS_SESSION_BUS_ADDRESS="+bus)
	waitForDrawing(t, first, display, win, filepath.Join(out, "window-second-start-first.png"))
	geo := windowGeometry(t, display, win)

	// Another window over the whole screen, as a person's other work would be.
	coverWindow(t, display)
	before := filepath.Join(out, "window-second-start-before.png")
	if !waitForScreen(t, display, geo, before, isCover) {
		t.Fatalf("the cover window does not hide Gatehouse's (see %s)", before)
	}

	start := time.Now()
	// The one argument a window start takes: the data folder, here the
	// same one (an unknown argument is refused before any of this).
	code, output := runOnce(t, bin, display, data, []string{"DBUS_SESSION_BUS_ADDRESS=" + bus}, "--data-dir", data)
	took := time.Since(start)
	t.Logf("the second start exited %d after %.2fs", code, took.Seconds())
	if code != 0 || took > secondStartLimit || output != "" {
		t.Fatalf("the second start: exit %d after %v, output %q; want exit 0 within %v and no output",
			code, took, output, secondStartLimit)
	}

	after := filepath.Join(out, "window-second-start-after.png")
	if !waitForScreen(t, display, geo, after, func(c string) bool { return !isCover(c) }) {
		t.Fatalf("Gatehouse's window did not come to the front (see %s); log:\n%s", after, readLog(first.logPath))
	}
	if first.exited() {
		t.Fatalf("the first Gatehouse exited: %v; log:\n%s", first.err, readLog(first.logPath))
	}
	if ids := gatehouseWindows(t, display); len(ids) != 1 || ids[0] != win {
		t.Fatalf("visible Gatehouse windows %v; want only the first one's (%s)", ids, win)
	}
	if top := topWindow(t, display); top != win {
		t.Errorf("the window on top is %s, not Gatehouse's %s", top, win)
	}
	if focus := xdotool(t, display, "getwindowfocus"); focus != win {
		t.Errorf("keyboard focus is on window %s, not Gatehouse's %s", focus, win)
	}
	if log := readLog(first.logPath); !strings.Contains(log, fmt.Sprintf(`started again (arguments ["--data-dir" %q]`, data)) {
		t.Errorf("the first Gatehouse did not log the second start's arguments; log:\n%s", log)
	}
	t.Logf("before: %s, after: %s", before, after)
}

// TestWindowSecondStartWithoutBusSaysAlreadyRunning starts Gatehouse, then
// starts it again where there is no session bus for the two to meet on:
// the data file's lock refuses the second, which says so in a small dialog
// of its own (window-second-start-nobus.png) and on stderr, never drawing a
// second main window, and exits 1 once the dialog is closed.
func TestWindowSecondStartWithoutBusSaysAlreadyRunning(t *testing.T) {
	bin := binaryPath(t)
	requireTools(t, "Xvfb", "xdotool", "import", "convert", "dbus-run-session")
	out := outputDir(t)

	display := startXvfb(t)
	data := t.TempDir()
	first, win := launch(t, bin, display, data, filepath.Join(out, "window-second-start-nobus-first-app.log"))
	waitForDrawing(t, first, display, win, filepath.Join(out, "window-second-start-nobus-first.png"))

	second := startApp(t, bin, display, data, filepath.Join(out, "window-second-start-nobus-app.log"), "DBUS_SESSION_BUS_ADDRESS=")
	ctx, cancel := context.WithTimeout(context.Background(), windowTimeout)
	defer cancel()
	search := exec.CommandContext(ctx, "xdotool", "search", "--sync", "--onlyvisible", "--name", "^Gatehouse cannot start$")
	search.Env = append(cleanEnv(), "DISPLAY="+display)
	outb, err := search.Output()
	dialog := strings.Fields(string(outb))
	if err != nil || len(dialog) != 1 {
		t.Fatalf("no dialog saying Gatehouse cannot start (%v, %q); log:\n%s", err, outb, readLog(second.logPath))
	}
	shot := filepath.Join(out, "window-second-start-nobus.png")
	waitForDrawing(t, second, display, dialog[0], shot)
	if ids := gatehouseWindows(t, display); len(ids) != 1 || ids[0] != win {
		t.Fatalf("visible Gatehouse windows %v; want only the first one's (%s)", ids, win)
	}
	xdotool(t, display, "windowfocus", "--sync", dialog[0], "key", "Return")
	select {
	case <-second.done:
	case <-time.After(15 * time.Second):
		t.Fatalf("the second start did not exit within 15s of closing its dialog; log:\n%s", readLog(second.logPath))
	}
	var exit *exec.ExitError
	if !errors.As(second.err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("the second start exited with %v, want status 1", second.err)
	}
	if log := readLog(second.logPath); !strings.Contains(log, "gatehouse: Gatehouse is already running") {
		t.Errorf("the second start did not say Gatehouse is already running; log:\n%s", log)
	}
	if first.exited() {
		t.Fatalf("the first Gatehouse exited: %v", first.err)
	}
	t.Logf("dialog: %s", shot)
}

// TestWindowWithoutDisplaySaysSo runs the production binary with no
// display and with one that cannot be opened: a sentence, status 1, no
// panic, no stack trace, and no window or data file opened.
func TestWindowWithoutDisplaySaysSo(t *testing.T) {
	bin := binaryPath(t)
	const want = "Gatehouse’s window needs a desktop session, and there is no display here to open it on " +
		"(DISPLAY or WAYLAND_DISPLAY). The command-line commands work without one: see gatehouse help.\n"
	for _, tc := range []struct {
		name string
		env  []string
	}{
		{"no DISPLAY or WAYLAND_DISPLAY", nil},
		{"a DISPLAY no X server answers", []string{"DISPLAY=:93"}},
		{"a WAYLAND_DISPLAY no compositor answers", []string{"WAYLAND_DISPLAY=wayland-93", "XDG_SESSION_TYPE=wayland"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			cmd := exec.Command(bin)
			cmd.Env = append(cleanEnv(), "LANG=C.UTF-8", "LANGUAGE=", "HOME="+t.TempDir(), "XDG_RUNTIME_DIR="+t.TempDir(),
				"GATEHOUSE_DATA_DIR="+data)
			cmd.Env = append(cmd.Env, tc.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 || stderr.String() != want || stdout.Len() > 0 {
				t.Fatalf("gatehouse: %v, stdout %q, stderr %q; want exit status 1 and stderr %q", err, stdout.String(), stderr.String(), want)
			}
			if entries, _ := os.ReadDir(data); len(entries) > 0 {
				t.Errorf("the data directory was written to: %v", entries)
			}
		})
	}
}

// TestWindowOpensWhereItWasLeft moves the window, quits with Ctrl+Q and
// starts again: the window opens where it was left. Then, on a smaller
// screen, a window saved partly off it opens moved fully onto it, and one
// saved where there is no screen now opens centred.
func TestWindowOpensWhereItWasLeft(t *testing.T) {
	bin := binaryPath(t)
	requireTools(t, "Xvfb", "xdotool", "import", "convert", "dbus-run-session")
	out := outputDir(t)

	t.Run("moved, quit, started again", func(t *testing.T) {
		display := startXvfb(t)
		data := t.TempDir()
		a, win := launch(t, bin, display, data, filepath.Join(out, "window-position-app.log"))
		waitForDrawing(t, a, display, win, filepath.Join(out, "window-position-first.png"))
		xdotool(t, display, "windowsize", "--sync", win, "900", "640")
		xdotool(t, display, "windowmove", "--sync", win, "250", "150")
		xdotool(t, display, "windowfocus", "--sync", win, "key", "ctrl+q")
		select {
		case <-a.done:
		case <-time.After(15 * time.Second):
			t.Fatalf("Ctrl+Q did not quit Gatehouse within 15s; log:\n%s", readLog(a.logPath))
		}
		b, win := launch(t, bin, display, data, filepath.Join(out, "window-position-again-app.log"))
		waitForDrawing(t, b, display, win, filepath.Join(out, "window-position-again.png"))
		if got, want := waitForGeometry(t, display, win, rect{250, 150, 900, 640}), (rect{250, 150, 900, 640}); got != want {
			t.Errorf("the window opened at %v, want where it was left: %v", got, want)
		}
	})

	for _, tc := range []struct {
		name  string
		saved store.Settings
		want  rect
	}{
		{"partly off a smaller screen: moved onto it",
			store.Settings{WindowWidth: 1100, WindowHeight: 700, WindowX: 1000, WindowY: 400, WindowPlaced: true},
			rect{180, 20, 1100, 700}},
		{"on a screen that is gone: centred",
			store.Settings{WindowWidth: 1000, WindowHeight: 600, WindowX: 2400, WindowY: 300, WindowPlaced: true},
			rect{140, 60, 1000, 600}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			st, err := store.Open(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.PutSettings(tc.saved); err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			display := startXvfbScreen(t, "1280x720x24")
			name := strings.ReplaceAll(strings.SplitN(tc.name, ":", 2)[0], " ", "-")
			a, win := launch(t, bin, display, data, filepath.Join(out, "window-position-"+name+"-app.log"))
			waitForDrawing(t, a, display, win, filepath.Join(out, "window-position-"+name+".png"))
			if got := waitForGeometry(t, display, win, tc.want); got != tc.want {
				t.Errorf("the window opened at %v, want %v on the 1280x720 screen", got, tc.want)
			}
		})
	}
}

// rect is a window's place on the screen.
type rect struct{ X, Y, Width, Height int }

// windowGeometry is win's place on the screen.
func windowGeometry(t *testing.T, display, win string) rect {
	t.Helper()
	var r rect
	for _, line := range strings.Fields(xdotool(t, display, "getwindowgeometry", "--shell", win)) {
		k, v, _ := strings.Cut(line, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "X":
			r.X = n
		case "Y":
			r.Y = n
		case "WIDTH":
			r.Width = n
		case "HEIGHT":
			r.Height = n
		}
	}
	return r
}

// waitForGeometry waits up to 5s for win to be at want (Gatehouse places it
// just after it is shown) and returns where it is.
func waitForGeometry(t *testing.T, display, win string, want rect) rect {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := windowGeometry(t, display, win)
		if got == want || time.Now().After(deadline) {
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// xdotool runs xdotool on display and returns its output, trimmed.
func xdotool(t *testing.T, display string, args ...string) string {
	t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(cleanEnv(), "DISPLAY="+display)
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("xdotool %v: %v", args, err)
	}
	return strings.TrimSpace(string(outb))
}

// coverColour is the colour of the window that covers Gatehouse's.
const coverColour = "#c83232"

// isCover says whether a colour (as convert prints it) is the cover's.
func isCover(c string) bool { return strings.EqualFold(c, coverColour) }

// coverWindow opens a window of one colour over the whole screen
// (ImageMagick's display) and waits until it is mapped.
func coverWindow(t *testing.T, display string) {
	t.Helper()
	cmd := exec.Command("display", "-geometry", "+0+0", "-title", "cover", "-size", "1920x1080", "xc:"+coverColour)
	cmd.Env = append(cleanEnv(), "DISPLAY="+display)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start display: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() { stopGroup(t, cmd.Process.Pid, done) })
	ctx, cancel := context.WithTimeout(context.Background(), windowTimeout)
	defer cancel()
	search := exec.CommandContext(ctx, "xdotool", "search", "--sync", "--onlyvisible", "--name", "^cover$")
	search.Env = append(cleanEnv(), "DISPLAY="+display)
	if outb, err := search.CombinedOutput(); err != nil {
		t.Fatalf("the cover window did not appear: %v (%s)", err, outb)
	}
}

// waitForScreen screenshots the whole screen until the colour in the
// middle of area satisfies ok, for up to renderTimeout; the last
// screenshot stays at path.
func waitForScreen(t *testing.T, display string, area rect, path string, ok func(colour string) bool) bool {
	t.Helper()
	deadline := time.Now().Add(renderTimeout)
	for {
		imp := exec.Command("import", "-display", display, "-window", "root", path)
		if outb, err := imp.CombinedOutput(); err != nil {
			t.Fatalf("import -window root: %v\n%s", err, outb)
		}
		// The mean colour of a strip of the window's sidebar.
		crop := strconv.Itoa(100) + "x" + strconv.Itoa(200) + "+" + strconv.Itoa(area.X+10) + "+" + strconv.Itoa(area.Y+300)
		outb, err := exec.Command("convert", path, "-crop", crop, "+repage", "-scale", "1x1!", "-format", "#%[hex:u.p{0,0}]", "info:").CombinedOutput()
		if err != nil {
			t.Fatalf("convert %s: %v\n%s", path, err, outb)
		}
		c := strings.TrimSpace(string(outb))
		if len(c) > 7 {
			c = c[:7] // #RRGGBB of #RRGGBBAA
		}
		if ok(c) {
			t.Logf("%s: the window's area shows %s", filepath.Base(path), c)
			return true
		}
		if time.Now().After(deadline) {
			t.Logf("%s: the window's area still shows %s after %v", filepath.Base(path), c, renderTimeout)
			return false
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// gatehouseWindows lists the visible windows titled as Gatehouse's main one.
func gatehouseWindows(t *testing.T, display string) []string {
	t.Helper()
	cmd := exec.Command("xdotool", "search", "--onlyvisible", "--name", windowTitle)
	cmd.Env = append(cleanEnv(), "DISPLAY="+display)
	outb, _ := cmd.Output() // exit status 1 is "none"
	return strings.Fields(string(outb))
}

// topWindow is the mapped top-level window highest in the stacking order.
func topWindow(t *testing.T, display string) string {
	t.Helper()
	cmd := exec.Command("xwininfo", "-root", "-children")
	cmd.Env = append(cleanEnv(), "DISPLAY="+display)
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("xwininfo: %v", err)
	}
	// Children are listed top first; keep the first that is viewable.
	for _, line := range strings.Split(string(outb), "\n") {
		f := strings.Fields(strings.TrimSpace(line))
		if len(f) == 0 || !strings.HasPrefix(f[0], "0x") {
			continue
		}
		id, err := strconv.ParseInt(f[0], 0, 64)
		if err != nil {
			continue
		}
		info := exec.Command("xwininfo", "-id", f[0])
		info.Env = cmd.Env
		if b, err := info.Output(); err == nil && strings.Contains(string(b), "IsViewable") {
			return strconv.FormatInt(id, 10)
		}
	}
	return ""
}

// runOnce runs the binary with args to its end on display with data and
// the variables env, as a second start does, and returns its exit status
// and output.
func runOnce(t *testing.T, bin, display, data string, env []string, args ...string) (int, string) {
	t.Helper()
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(cleanEnv(), "DISPLAY="+display, "HOME="+home, "XDG_RUNTIME_DIR="+home, "GATEHOUSE_DATA_DIR="+data)
	cmd.Env = append(cmd.Env, env...)
	outb, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, string(outb)
	case errors.As(err, &exit):
		return exit.ExitCode(), string(outb)
	default:
		t.Fatalf("%s: %v", bin, err)
		return 0, ""
	}
}
