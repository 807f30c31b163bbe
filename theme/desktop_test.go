package theme

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/theme/themetest"
)

var gnomeTheme = themetest.Key{Namespace: gnomeNamespace, Name: gnomeThemeKey}

// isolate gives the test a home and XDG directories of its own, no bus and
// no GTK_THEME, so that the machine's own desktop does not count.
func isolate(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CONFIG_DIRS", filepath.Join(home, "etc-xdg"))
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(home, "run"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("GTK_THEME", "")
}

// onTestBus isolates the test and puts it on a private session bus.
func onTestBus(t *testing.T) string {
	addr := themetest.StartBus(t)
	isolate(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	return addr
}

func writeUserSettings(t *testing.T, text string) {
	t.Helper()
	dir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gtk-3.0")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.ini"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDesktopReadsThePortal(t *testing.T) {
	tests := []struct {
		name     string
		version  int
		values   map[themetest.Key]any
		settings string // the user's GTK settings.ini
		want     Scheme
	}{
		{"prefer dark", 2, map[themetest.Key]any{themetest.Appearance: uint32(1)}, "", Dark},
		{"prefer light", 2, map[themetest.Key]any{themetest.Appearance: uint32(2)}, "", Light},
		{"no preference", 2, map[themetest.Key]any{themetest.Appearance: uint32(0)}, "", NoPreference},
		{"prefer dark from an old portal with Read only", 1, map[themetest.Key]any{themetest.Appearance: uint32(1)}, "", Dark},
		{"prefer light from an old portal wins over GTK's dark file", 1, map[themetest.Key]any{themetest.Appearance: uint32(2)},
			"[Settings]\ngtk-application-prefer-dark-theme=1\n", Light},
		{"GNOME's dark theme name when color-scheme is unknown", 2, map[themetest.Key]any{gnomeTheme: "Adwaita-dark"}, "", Dark},
		{"GTK's settings.ini when the portal knows nothing", 2, map[themetest.Key]any{}, "[Settings]\ngtk-theme-name=Adwaita-dark\n", Dark},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr := onTestBus(t)
			themetest.StartPortal(t, addr, tc.version, tc.values)
			if tc.settings != "" {
				writeUserSettings(t, tc.settings)
			}
			d := Open()
			defer d.Close()
			if d.conn == nil {
				t.Fatal("Open did not connect to the test bus")
			}
			if got := d.Scheme(context.Background()); got != tc.want {
				t.Errorf("Scheme() = %q, want %q (sources %+v)", got, tc.want, d.Sources(context.Background()))
			}
		})
	}
}

func TestDesktopDoesNotWaitForASlowPortal(t *testing.T) {
	addr := onTestBus(t)
	portal := themetest.StartPortal(t, addr, 2, map[themetest.Key]any{themetest.Appearance: uint32(2)})
	portal.SetDelay(3 * time.Second)
	writeUserSettings(t, "[Settings]\ngtk-application-prefer-dark-theme=1\n")
	d := Open()
	defer d.Close()
	start := time.Now()
	got := d.Scheme(context.Background())
	if took := time.Since(start); took > portalTimeout+500*time.Millisecond {
		t.Errorf("Scheme() took %v with a portal that answers after 3 s; want about %v", took, portalTimeout)
	}
	if got != Dark {
		t.Errorf("Scheme() = %q, want dark from settings.ini when the portal is too slow", got)
	}
}

func TestDesktopWithoutABus(t *testing.T) {
	isolate(t)
	writeUserSettings(t, "[Settings]\ngtk-application-prefer-dark-theme=true\n")
	d := Open()
	defer d.Close()
	if d.conn != nil {
		t.Fatal("Open connected to a bus although none is set")
	}
	if got := d.Scheme(context.Background()); got != Dark {
		t.Errorf("Scheme() = %q, want dark from settings.ini", got)
	}
	if err := d.Watch(context.Background(), func(Scheme) {}); err == nil {
		t.Error("Watch without a bus returned no error")
	}
}

// startWatching runs d.Watch until the test ends and returns the changes it
// reports and Watch's result; it returns once Watch has subscribed.
func startWatching(t *testing.T, d *Desktop, portal *themetest.Portal) (context.CancelFunc, <-chan Scheme, <-chan error) {
	changes := make(chan Scheme, 8)
	watched := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { watched <- d.Watch(ctx, func(s Scheme) { changes <- s }) }()
	// Watch subscribes, then reads the value it starts from.
	deadline := time.Now().Add(5 * time.Second)
	for portal.Reads() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("Watch never read the portal")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cancel, changes, watched
}

func TestDesktopFollowsThePortal(t *testing.T) {
	addr := onTestBus(t)
	portal := themetest.StartPortal(t, addr, 2, map[themetest.Key]any{themetest.Appearance: uint32(0)})
	d := Open()
	defer d.Close()
	cancel, changes, watched := startWatching(t, d, portal)

	expect := func(want Scheme, what string) {
		t.Helper()
		select {
		case got := <-changes:
			if got != want {
				t.Errorf("%s: changed(%q), want %q", what, got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no change reported", what)
		}
	}
	expectNothing := func(what string) {
		t.Helper()
		select {
		case got := <-changes:
			t.Errorf("%s: changed(%q), want no call", what, got)
		case <-time.After(300 * time.Millisecond):
		}
	}

	portal.Set(t, themetest.Appearance, uint32(1))
	expect(Dark, "the desktop switched to its dark style")
	portal.Set(t, themetest.Key{Namespace: "org.gnome.desktop.interface", Name: "font-name"}, "Cantarell 11")
	expectNothing("another setting changed")
	portal.Set(t, themetest.Appearance, uint32(1))
	expectNothing("the same value again")

	// Anyone may send a signal that looks like the portal's; only the
	// portal's own are believed.
	portal.Change(themetest.Appearance, uint32(2))
	themetest.Emit(t, addr, themetest.Appearance, uint32(2))
	expectNothing("a look-alike signal from another sender")

	portal.Set(t, themetest.Appearance, uint32(2))
	expect(Light, "the desktop switched to its light style")

	cancel()
	select {
	case err := <-watched:
		if err != context.Canceled {
			t.Errorf("Watch after its context ended = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Watch did not return after its context ended")
	}
}

func TestDesktopWatchEndsOnClose(t *testing.T) {
	addr := onTestBus(t)
	portal := themetest.StartPortal(t, addr, 2, map[themetest.Key]any{})
	d := Open()
	_, _, watched := startWatching(t, d, portal)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-watched:
		if err != nil {
			t.Errorf("Watch after Close = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Watch did not return after Close")
	}
}
