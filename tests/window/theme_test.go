//go:build windowtest

package window

import (
	"path/filepath"
	"testing"

	"github.com/gatehouse-app/gatehouse/theme/themetest"
)

// The sidebar's brightness (0..1) in each theme: #eef0f3 in the light theme,
// #1a1d22 in the dark one (frontend/src/app.css).
var (
	looksLight = func(b float64) bool { return b > 0.85 }
	looksDark  = func(b float64) bool { return b < 0.2 }
)

// TestWindowFollowsTheDesktopTheme starts the production binary in its real
// WebKitGTK window on a session bus where a stand-in settings portal says
// what the desktop prefers, and checks what a person would see: the window
// is dark when the desktop's dark style is on, and turns light while it
// runs when the person switches the desktop back. WebKitGTK 4.1 cannot see
// the portal itself (GTK 3 does not read it); Gatehouse reads it and tells
// the window. GTK_THEME=Adwaita:dark, which WebKitGTK does read, makes the
// window dark without any portal. Screenshots: window-theme-*.png.
func TestWindowFollowsTheDesktopTheme(t *testing.T) {
	bin := binaryPath(t)
	requireTools(t, "Xvfb", "xdotool", "import", "convert", "dbus-daemon")
	out := outputDir(t)

	t.Run("the portal's dark style, then light while it runs", func(t *testing.T) {
		bus := themetest.StartBus(t)
		portal := themetest.StartPortal(t, bus, 2, map[themetest.Key]any{themetest.Appearance: uint32(1)})
		display := startXvfb(t)
		app, win := launch(t, bin, display, t.TempDir(), filepath.Join(out, "window-theme-portal-app.log"),
			"DBUS_SESSION_BUS_ADDRESS="+bus, "GTK_THEME=")
		dark := filepath.Join(out, "window-theme-portal-dark.png")
		waitForDrawing(t, app, display, win, dark)
		if !waitForBrightness(t, app, display, win, dark, looksDark) {
			t.Fatalf("the window is not dark although the desktop prefers dark (see %s); log:\n%s", dark, readLog(app.logPath))
		}

		portal.Set(t, themetest.Appearance, uint32(2))
		light := filepath.Join(out, "window-theme-portal-light.png")
		if !waitForBrightness(t, app, display, win, light, looksLight) {
			t.Fatalf("the window did not turn light when the desktop switched to light (see %s); log:\n%s", light, readLog(app.logPath))
		}
	})

	t.Run("GTK_THEME's dark variant without a portal", func(t *testing.T) {
		display := startXvfb(t)
		app, win := launch(t, bin, display, t.TempDir(), filepath.Join(out, "window-theme-gtk-app.log"), "GTK_THEME=Adwaita:dark")
		shot := filepath.Join(out, "window-theme-gtk-dark.png")
		waitForDrawing(t, app, display, win, shot)
		if !waitForBrightness(t, app, display, win, shot, looksDark) {
			t.Fatalf("the window is not dark under GTK_THEME=Adwaita:dark (see %s); log:\n%s", shot, readLog(app.logPath))
		}
	})

	t.Run("no preference anywhere is light", func(t *testing.T) {
		display := startXvfb(t)
		app, win := launch(t, bin, display, t.TempDir(), filepath.Join(out, "window-theme-none-app.log"), "GTK_THEME=")
		shot := filepath.Join(out, "window-theme-none.png")
		waitForDrawing(t, app, display, win, shot)
		if !waitForBrightness(t, app, display, win, shot, looksLight) {
			t.Fatalf("the window is not light with no preference anywhere (see %s); log:\n%s", shot, readLog(app.logPath))
		}
	})
}
