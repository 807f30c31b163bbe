//go:build windowtest

package window

import (
	"path/filepath"
	"testing"
	"time"
)

// laterStartWait is app/startup.go's: how long the window's start waits for
// the page's word that its first frame is drawn before it connects the
// servers and opens its sockets anyway.
const laterStartWait = 3 * time.Second

// TestWindowServesOnceDrawn checks that the page of the production window
// tells Go when its first frame is drawn (app.StartService.Drawn), so that
// the work the start leaves until then (connecting the servers, the command
// line's and the gateway's sockets) follows the first frame at once, not
// only when the start stops waiting for the page. It watches the command
// line's socket appear.
func TestWindowServesOnceDrawn(t *testing.T) {
	bin := binaryPath(t)
	requireTools(t, "Xvfb", "xdotool", "import", "convert", "dbus-run-session")
	out := outputDir(t)

	display := startXvfb(t)
	run := t.TempDir()
	app, win := launch(t, bin, display, t.TempDir(), filepath.Join(out, "window-start-app.log"), "XDG_RUNTIME_DIR="+run)
	waitForDrawing(t, app, display, win, filepath.Join(out, "window-start.png"))
	drawn := time.Since(app.started)
	socket := filepath.Join(run, "gatehouse", "cli-*.sock")
	// Well before the start's own deadline: only the page's word opens it then.
	deadline := app.started.Add(laterStartWait - 500*time.Millisecond)
	for {
		if found, _ := filepath.Glob(socket); len(found) > 0 {
			t.Logf("window drawn %.2fs after start, command line's socket open at %.2fs", drawn.Seconds(), time.Since(app.started).Seconds())
			return
		}
		if time.Now().After(deadline) {
			if drawn > laterStartWait-time.Second {
				// A machine this loaded cannot tell the page's word from the deadline.
				t.Logf("window drawn only %.2fs after start: too late to tell whether the page said so", drawn.Seconds())
				return
			}
			t.Fatalf("window drawn %.2fs after start, but the command line's socket (%s) was not open %.2fs after start: the page did not tell Go it had drawn; log:\n%s",
				drawn.Seconds(), socket, time.Since(app.started).Seconds(), readLog(app.logPath))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
