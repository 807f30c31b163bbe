package theme

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// startBus starts a private session bus (dbus-daemon) and points this
// test's environment at it, with a HOME and XDG directories of its own so
// that the machine's GTK settings do not count. It returns the bus address.
func startBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatal("dbus-daemon is not installed (Debian package dbus; scripts/deps.sh test installs it)")
		}
		t.Skip("dbus-daemon is not installed (Debian package dbus)")
	}
	bus := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	bus.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := bus.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := bus.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-bus.Process.Pid, syscall.SIGTERM)
		_ = bus.Wait()
	})
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	isolate(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", strings.TrimSpace(addr))
	return strings.TrimSpace(addr)
}

// isolate gives the test a home and XDG directories of its own, no bus and
// no GTK_THEME.
func isolate(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CONFIG_DIRS", filepath.Join(home, "etc-xdg"))
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(home, "run"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("GTK_THEME", "")
	return home
}

// standInPortal plays xdg-desktop-portal's Settings interface on the test
// bus: the real one is not installed on the test machines and would read
// the machine's own desktop.
type standInPortal struct {
	conn   *dbus.Conn
	mu     sync.Mutex
	values map[[2]string]any
	reads  int
}

// portalV2 has ReadOne (portal version 2) and Read.
type portalV2 struct{ *standInPortal }

// portalV1 has only Read, which wraps the value in a second variant.
type portalV1 struct{ *standInPortal }

func (p *standInPortal) value(namespace, key string) (any, *dbus.Error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reads++
	v, ok := p.values[[2]string{namespace, key}]
	if !ok {
		return nil, dbus.NewError("org.freedesktop.portal.Error.NotFound", []any{"Requested setting not found"})
	}
	return v, nil
}

func (p portalV2) ReadOne(namespace, key string) (dbus.Variant, *dbus.Error) {
	v, err := p.value(namespace, key)
	if err != nil {
		return dbus.Variant{}, err
	}
	return dbus.MakeVariant(v), nil
}

func (p portalV2) Read(namespace, key string) (dbus.Variant, *dbus.Error) {
	return portalV1(p).Read(namespace, key)
}

func (p portalV1) Read(namespace, key string) (dbus.Variant, *dbus.Error) {
	v, err := p.value(namespace, key)
	if err != nil {
		return dbus.Variant{}, err
	}
	return dbus.MakeVariant(dbus.MakeVariant(v)), nil
}

// startPortal owns the portal's name on the bus at addr and serves values.
func startPortal(t *testing.T, addr string, version int, values map[[2]string]any) *standInPortal {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	p := &standInPortal{conn: conn, values: values}
	var obj any = portalV2{p}
	if version == 1 {
		obj = portalV1{p}
	}
	if err := conn.Export(obj, portalPath, portalInterface); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName(portalName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName(%s) = %v, %v", portalName, reply, err)
	}
	return p
}

// set changes a setting and announces it, as the portal does.
func (p *standInPortal) set(t *testing.T, namespace, key string, v any) {
	t.Helper()
	p.mu.Lock()
	p.values[[2]string{namespace, key}] = v
	p.mu.Unlock()
	if err := p.conn.Emit(portalPath, portalInterface+".SettingChanged", namespace, key, dbus.MakeVariant(v)); err != nil {
		t.Fatal(err)
	}
}

func TestDesktopReadsThePortal(t *testing.T) {
	colorScheme := [2]string{appearanceNamespace, colorSchemeKey}
	gnomeTheme := [2]string{gnomeNamespace, gnomeThemeKey}
	tests := []struct {
		name     string
		version  int
		values   map[[2]string]any
		settings string // the user's GTK settings.ini
		want     Scheme
	}{
		{"prefer dark", 2, map[[2]string]any{colorScheme: uint32(1)}, "", Dark},
		{"prefer light", 2, map[[2]string]any{colorScheme: uint32(2)}, "", Light},
		{"no preference", 2, map[[2]string]any{colorScheme: uint32(0)}, "", NoPreference},
		{"prefer dark from an old portal with Read only", 1, map[[2]string]any{colorScheme: uint32(1)}, "", Dark},
		{"prefer light from an old portal wins over GTK's dark file", 1, map[[2]string]any{colorScheme: uint32(2)},
			"[Settings]\ngtk-application-prefer-dark-theme=1\n", Light},
		{"GNOME's dark theme name when color-scheme is unknown", 2, map[[2]string]any{gnomeTheme: "Adwaita-dark"}, "", Dark},
		{"GTK's settings.ini when the portal knows nothing", 2, map[[2]string]any{}, "[Settings]\ngtk-theme-name=Adwaita-dark\n", Dark},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr := startBus(t)
			startPortal(t, addr, tc.version, tc.values)
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

func TestDesktopFollowsThePortal(t *testing.T) {
	addr := startBus(t)
	portal := startPortal(t, addr, 2, map[[2]string]any{{appearanceNamespace, colorSchemeKey}: uint32(0)})
	d := Open()
	defer d.Close()

	changes := make(chan Scheme, 8)
	ctx, cancel := context.WithCancel(context.Background())
	watched := make(chan error, 1)
	go func() { watched <- d.Watch(ctx, func(s Scheme) { changes <- s }) }()
	// Watch subscribes before it reads the first value; wait until the
	// subscription is on the bus by waiting for it to have read once.
	waitFor(t, func() bool { return portalReads(portal) }, "Watch never read the portal")

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

	portal.set(t, appearanceNamespace, colorSchemeKey, uint32(1))
	expect(Dark, "the desktop switched to its dark style")
	portal.set(t, "org.gnome.desktop.interface", "font-name", "Cantarell 11")
	expectNothing("another setting changed")
	portal.set(t, appearanceNamespace, colorSchemeKey, uint32(1))
	expectNothing("the same value again")

	// Anyone may send a signal that looks like the portal's; only the
	// portal's own are believed.
	other, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	portal.mu.Lock()
	portal.values[[2]string{appearanceNamespace, colorSchemeKey}] = uint32(2)
	portal.mu.Unlock()
	if err := other.Emit(portalPath, portalInterface+".SettingChanged", appearanceNamespace, colorSchemeKey, dbus.MakeVariant(uint32(2))); err != nil {
		t.Fatal(err)
	}
	expectNothing("a look-alike signal from another sender")

	portal.set(t, appearanceNamespace, colorSchemeKey, uint32(2))
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
	addr := startBus(t)
	portal := startPortal(t, addr, 2, map[[2]string]any{})
	d := Open()
	watched := make(chan error, 1)
	go func() { watched <- d.Watch(context.Background(), func(Scheme) {}) }()
	waitFor(t, func() bool { return portalReads(portal) }, "Watch never read the portal")
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

// portalReads reports whether the stand-in portal has been asked anything.
func portalReads(p *standInPortal) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reads > 0
}

func waitFor(t *testing.T, ok func() bool, msg string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
