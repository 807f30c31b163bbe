package themetest

import (
	"bufio"
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

// The portal's names, as xdg-desktop-portal's Settings interface has them.
const (
	portalName      = "org.freedesktop.portal.Desktop"
	portalPath      = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	portalInterface = "org.freedesktop.portal.Settings"
)

// Appearance is the namespace and key of the desktop's colour scheme: a
// uint32, 0 no preference, 1 prefer dark, 2 prefer light.
var Appearance = Key{"org.freedesktop.appearance", "color-scheme"}

// A Key names one setting.
type Key struct{ Namespace, Name string }

// StartBus starts a private session bus (dbus-daemon) for the test and
// returns its address; the bus stops when the test ends. Without dbus-daemon
// the test is skipped, or fails under GATEHOUSE_REQUIRE_PEERS=1 (make test).
func StartBus(t testing.TB) string {
	t.Helper()
	return startDaemon(t, "--session")
}

// bareBusConfig is a session bus with no activatable services.
const bareBusConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// StartBareBus is StartBus on a bus that starts no service by itself: a
// service the machine installs (such as a notification daemon's D-Bus
// service file) is there only when the test provides it.
func StartBareBus(t testing.TB) string {
	t.Helper()
	config := filepath.Join(t.TempDir(), "bus.conf")
	if err := os.WriteFile(config, []byte(bareBusConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	return startDaemon(t, "--config-file="+config)
}

// startDaemon runs dbus-daemon with the given configuration argument.
func startDaemon(t testing.TB, configArg string) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatal("dbus-daemon is not installed (Debian package dbus; scripts/deps.sh test installs it)")
		}
		t.Skip("dbus-daemon is not installed (Debian package dbus): no session bus to test on")
	}
	bus := exec.Command("dbus-daemon", configArg, "--nofork", "--print-address=1")
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
	return strings.TrimSpace(addr)
}

// A Portal plays the settings portal on a bus.
type Portal struct {
	conn   *dbus.Conn
	mu     sync.Mutex
	values map[Key]any
	reads  int
	delay  time.Duration
}

// portalV2 has ReadOne (portal version 2) and Read.
type portalV2 struct{ *Portal }

// portalV1 has only Read, which wraps the value in a second variant.
type portalV1 struct{ *Portal }

func (p *Portal) value(namespace, key string) (any, *dbus.Error) {
	p.mu.Lock()
	delay := p.delay
	p.mu.Unlock()
	time.Sleep(delay)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reads++
	v, ok := p.values[Key{namespace, key}]
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

// StartPortal owns the portal's name on the bus at addr and serves values.
// Version 1 offers only Read; version 2 also ReadOne.
func StartPortal(t testing.TB, addr string, version int, values map[Key]any) *Portal {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	p := &Portal{conn: conn, values: map[Key]any{}}
	for k, v := range values {
		p.values[k] = v
	}
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

// Set changes a setting and announces it with SettingChanged, as the portal
// does when the person flips the desktop's dark style.
func (p *Portal) Set(t testing.TB, k Key, v any) {
	t.Helper()
	p.Change(k, v)
	if err := p.conn.Emit(portalPath, portalInterface+".SettingChanged", k.Namespace, k.Name, dbus.MakeVariant(v)); err != nil {
		t.Fatal(err)
	}
}

// Change changes a setting without announcing it.
func (p *Portal) Change(k Key, v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.values[k] = v
}

// SetDelay makes every answer wait d, as a portal that is slow to start.
func (p *Portal) SetDelay(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.delay = d
}

// Reads is how many times the portal was asked for a setting.
func (p *Portal) Reads() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reads
}

// Emit sends a signal that looks like the portal's from another connection
// on the bus at addr: a look-alike that must not be believed.
func Emit(t testing.TB, addr string, k Key, v any) {
	t.Helper()
	other, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Emit(portalPath, portalInterface+".SettingChanged", k.Namespace, k.Name, dbus.MakeVariant(v)); err != nil {
		t.Fatal(err)
	}
}
