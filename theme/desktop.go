package theme

import (
	"context"
	"errors"
	"os"
	"sync/atomic"
	"time"

	"github.com/godbus/dbus/v5"
)

// The settings portal on the session bus.
const (
	portalName      = "org.freedesktop.portal.Desktop"
	portalPath      = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	portalInterface = "org.freedesktop.portal.Settings"

	appearanceNamespace = "org.freedesktop.appearance"
	colorSchemeKey      = "color-scheme"
	gnomeNamespace      = "org.gnome.desktop.interface"
	gnomeThemeKey       = "gtk-theme"
)

// portalTimeout bounds the questions to the portal for one reading. The
// window waits for the first reading before it opens (to pick its
// background colour), and a portal that is activatable but slow to start
// must not hold it up.
const portalTimeout = 300 * time.Millisecond

// A Desktop reads the desktop's light or dark preference: the settings
// portal over the session bus when there is one, and GTK's environment
// and settings files. Its methods are safe for concurrent use.
type Desktop struct {
	conn   *dbus.Conn // nil without a session bus
	getenv func(string) string
	closed atomic.Bool
}

// Open returns a Desktop on the session bus named by the environment
// (DBUS_SESSION_BUS_ADDRESS, or $XDG_RUNTIME_DIR/bus). Without a session
// bus it still reads GTK's environment and files. It never starts a bus.
func Open() *Desktop {
	d := &Desktop{getenv: os.Getenv}
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return d
	}
	if err := conn.Auth(nil); err != nil {
		_ = conn.Close()
		return d
	}
	if err := conn.Hello(); err != nil {
		_ = conn.Close()
		return d
	}
	d.conn = conn
	return d
}

// Close ends the D-Bus connection; Watch then returns nil.
func (d *Desktop) Close() error {
	d.closed.Store(true)
	if d.conn == nil {
		return nil
	}
	return d.conn.Close()
}

// Sources reads every place the preference can come from now.
func (d *Desktop) Sources(ctx context.Context) Sources {
	s := Sources{GTKThemeEnv: d.getenv("GTK_THEME"), GTKSettings: readGTKSettings(d.getenv)}
	if d.conn == nil {
		return s
	}
	ctx, cancel := context.WithTimeout(ctx, portalTimeout)
	defer cancel()
	var scheme uint32
	err := d.read(ctx, appearanceNamespace, colorSchemeKey, &scheme)
	if err == nil {
		s.PortalColorScheme = &scheme
	}
	if ctx.Err() == nil && (err != nil || scheme == portalNoPreference) {
		_ = d.read(ctx, gnomeNamespace, gnomeThemeKey, &s.GNOMETheme)
	}
	return s
}

// Scheme returns the desktop's preference now.
func (d *Desktop) Scheme(ctx context.Context) Scheme {
	return d.Sources(ctx).Resolve()
}

// read asks the portal for one setting. ReadOne (portal version 2) returns
// the value in one variant; the older Read wraps it in a second one.
func (d *Desktop) read(ctx context.Context, namespace, key string, into any) error {
	obj := d.conn.Object(portalName, portalPath)
	var v dbus.Variant
	err := obj.CallWithContext(ctx, portalInterface+".ReadOne", 0, namespace, key).Store(&v)
	if err != nil {
		var dbusErr dbus.Error
		if !errors.As(err, &dbusErr) || dbusErr.Name != "org.freedesktop.DBus.Error.UnknownMethod" {
			return err
		}
		if err := obj.CallWithContext(ctx, portalInterface+".Read", 0, namespace, key).Store(&v); err != nil {
			return err
		}
	}
	for {
		inner, ok := v.Value().(dbus.Variant)
		if !ok {
			break
		}
		v = inner
	}
	return dbus.Store([]any{v.Value()}, into)
}

// Watch calls changed with the new preference each time the portal says a
// setting it depends on changed, until ctx ends (it returns ctx's error),
// the Desktop is closed (nil) or the bus goes away. Without a session bus it
// returns an error at once.
func (d *Desktop) Watch(ctx context.Context, changed func(Scheme)) error {
	if d.conn == nil {
		return errors.New("no session bus: the desktop's changes cannot be followed")
	}
	match := []dbus.MatchOption{
		dbus.WithMatchSender(portalName),
		dbus.WithMatchObjectPath(portalPath),
		dbus.WithMatchInterface(portalInterface),
		dbus.WithMatchMember("SettingChanged"),
	}
	if err := d.conn.AddMatchSignalContext(ctx, match...); err != nil {
		return err
	}
	signals := make(chan *dbus.Signal, 8)
	d.conn.Signal(signals)
	defer d.conn.RemoveSignal(signals)
	last := d.Scheme(ctx)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-d.conn.Context().Done():
			return d.lost()
		case sig, ok := <-signals:
			if !ok {
				return d.lost()
			}
			if !relevant(sig) {
				continue
			}
			if now := d.Scheme(ctx); now != last {
				last = now
				changed(now)
			}
		}
	}
}

// lost is Watch's result when the connection ended: nil if Close ended it.
func (d *Desktop) lost() error {
	if d.closed.Load() {
		return nil
	}
	return errors.New("the session bus connection closed")
}

// relevant reports whether a signal is the portal saying that a setting
// the preference depends on changed.
func relevant(sig *dbus.Signal) bool {
	if sig.Name != portalInterface+".SettingChanged" || sig.Path != portalPath || len(sig.Body) < 2 {
		return false
	}
	namespace, _ := sig.Body[0].(string)
	key, _ := sig.Body[1].(string)
	return namespace == appearanceNamespace && key == colorSchemeKey || namespace == gnomeNamespace && key == gnomeThemeKey
}
