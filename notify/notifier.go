package notify

import (
	"context"
	"errors"
	"fmt"
	"log"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/gatehouse-app/gatehouse/icon"
)

// The notification service's names on the session bus.
const (
	serviceName      = "org.freedesktop.Notifications"
	servicePath      = dbus.ObjectPath("/org/freedesktop/Notifications")
	serviceInterface = "org.freedesktop.Notifications"
)

// defaultAction is the action key the specification reserves for a click
// on the notification itself.
const defaultAction = "default"

// urgencyNormal is the "urgency" hint's value for an ordinary notification
// (0 low, 1 normal, 2 critical): a question waits, it is not an alarm.
const urgencyNormal byte = 1

// expireDefault lets the notification service decide how long the
// notification stays on screen.
const expireDefault int32 = -1

// callTimeout bounds each call to the notification service. The window
// waits for Notify while a question arrives; a service that hangs must not
// hold it up, and the question waits in the window anyway.
const callTimeout = 3 * time.Second

// ErrUnavailable is returned by Notify when there is no session bus or no
// notification service answers on it. The Notifier has then logged it once;
// callers need not log it again.
var ErrUnavailable = errors.New("no desktop notification service")

// Gatehouse as the notification service learns it with every notification.
const (
	// AppName is the application's name the service shows.
	AppName = "Gatehouse"
	// IconName is the app icon's name in the icon theme, as the package
	// installs it (hicolor, issue 13). A service that does not find it (a
	// build run from source) shows the icon's pixels sent with it.
	IconName = "gatehouse"
	// DesktopEntry is the name of the .desktop file without its extension,
	// for services that group notifications by application.
	DesktopEntry = "gatehouse"
)

// ImageSize is the size, in pixels, of the icon sent in each notification:
// sharp at the size services show (up to about 64 logical pixels on a
// display scaled 2×) for 64 KiB of pixels per notification.
const ImageSize = 128

// Options configures a Notifier. The zero value ignores clicks and logs
// with log.Printf.
type Options struct {
	// OnActivate is called, on a goroutine of the Notifier, when the person
	// clicks Gatehouse's notification. Nil ignores clicks and offers no
	// action.
	OnActivate func()
	// Logf writes the Notifier's one line when notifications are
	// unavailable; nil is log.Printf.
	Logf func(format string, args ...any)
}

// A Message is one notification: a summary line and a body, both plain
// text, and the label of the default action (some services show it as a
// button; a click on the notification is the action either way).
type Message struct {
	Summary     string
	Body        string
	ActionLabel string
}

// A Notifier sends notifications to the session bus's notification
// service and listens for clicks on them. Its methods are safe for
// concurrent use.
type Notifier struct {
	opts  Options
	image *Image     // the app icon, sent as the "image-data" hint
	conn  *dbus.Conn // nil without a session bus
	// noBus is why there is no connection.
	noBus error

	mu sync.Mutex
	// shown is the service's ID of the notification on screen, replaced by
	// the next one; 0 when there is none.
	shown uint32
	// unavailable is set once the lack of a service was logged, until a
	// notification goes through again.
	unavailable bool

	signals chan *dbus.Signal
	stopped chan struct{}
}

// Open returns a Notifier on the session bus named by the environment
// (DBUS_SESSION_BUS_ADDRESS, or $XDG_RUNTIME_DIR/bus). It never starts a
// bus; without one, Notify returns ErrUnavailable.
func Open(opts Options) *Notifier {
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err == nil {
		if err = conn.Auth(nil); err == nil {
			err = conn.Hello()
		}
		if err != nil {
			_ = conn.Close()
		}
	}
	if err != nil {
		n := newNotifier(nil, opts)
		n.noBus = fmt.Errorf("no session bus: %w", err)
		return n
	}
	return New(conn, opts)
}

// New returns a Notifier on a connection the caller opened and
// authenticated (a test's private bus). The Notifier owns conn from now on:
// Close closes it.
func New(conn *dbus.Conn, opts Options) *Notifier {
	n := newNotifier(conn, opts)
	// Only the service's own signals: the bus matches the sender against
	// the name's owner, so another client cannot fake a click.
	err := conn.AddMatchSignal(dbus.WithMatchSender(serviceName), dbus.WithMatchObjectPath(servicePath),
		dbus.WithMatchInterface(serviceInterface))
	if err != nil {
		n.noBus = fmt.Errorf("listening to the notification service: %w", err)
		return n
	}
	n.signals = make(chan *dbus.Signal, 16)
	conn.Signal(n.signals)
	go n.listen()
	return n
}

func newNotifier(conn *dbus.Conn, opts Options) *Notifier {
	if opts.Logf == nil {
		opts.Logf = log.Printf
	}
	n := &Notifier{opts: opts, conn: conn, stopped: make(chan struct{})}
	b, err := icon.PNG(ImageSize)
	if err == nil {
		n.image, err = ImageFromPNG(b)
	}
	if err != nil { // a build mistake, caught by the tests; the notification still goes
		n.opts.Logf("gatehouse: the notification icon: %v", err)
	}
	return n
}

// Close stops listening and closes the connection.
func (n *Notifier) Close() error {
	if n.conn == nil {
		return nil
	}
	err := n.conn.Close() // closes the signal channel, which ends listen
	if n.signals != nil {
		<-n.stopped
	}
	return err
}

// Notify shows m, in place of Gatehouse's previous notification when that
// one is still on screen. The summary and body are shown as text: when the
// service reads markup in bodies, the body's markup characters are escaped.
// Without a service it returns an error wrapping ErrUnavailable and logs
// one line, the first time only.
func (n *Notifier) Notify(ctx context.Context, m Message) error {
	if n.conn == nil || n.noBus != nil {
		return n.unavailableNow(n.noBus)
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	service := n.conn.Object(serviceName, servicePath)
	var capabilities []string
	if err := service.CallWithContext(ctx, serviceInterface+".GetCapabilities", 0).Store(&capabilities); err != nil {
		return n.unavailableNow(err)
	}
	body := m.Body
	if slices.Contains(capabilities, "body-markup") {
		body = escapeMarkup(body)
	}
	var actions []string
	if n.opts.OnActivate != nil {
		actions = []string{defaultAction, m.ActionLabel}
	}
	hints := map[string]dbus.Variant{
		"urgency":       dbus.MakeVariant(urgencyNormal),
		"desktop-entry": dbus.MakeVariant(DesktopEntry),
	}
	if n.image != nil {
		hints["image-data"] = dbus.MakeVariant(n.image.hint())
	}

	// One notification at a time: the next one replaces this one, so the
	// ID must be known before another Notify reads it.
	n.mu.Lock()
	defer n.mu.Unlock()
	var id uint32
	err := service.CallWithContext(ctx, serviceInterface+".Notify", 0, AppName, n.shown, IconName,
		m.Summary, body, actions, hints, expireDefault).Store(&id)
	if err != nil {
		return fmt.Errorf("showing a desktop notification: %w", err)
	}
	n.shown, n.unavailable = id, false
	return nil
}

// Withdraw takes Gatehouse's notification off the screen, if one is there:
// the question it announced was answered, so it no longer asks for anything.
func (n *Notifier) Withdraw(ctx context.Context) error {
	n.mu.Lock()
	id := n.shown
	n.shown = 0
	n.mu.Unlock()
	if id == 0 || n.conn == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	call := n.conn.Object(serviceName, servicePath).CallWithContext(ctx, serviceInterface+".CloseNotification", 0, id)
	if call.Err != nil {
		return fmt.Errorf("withdrawing the desktop notification: %w", call.Err)
	}
	return nil
}

// unavailableNow logs, once until notifications work again, that there is
// no notification service, and returns ErrUnavailable with the cause.
func (n *Notifier) unavailableNow(cause error) error {
	n.mu.Lock()
	first := !n.unavailable
	n.unavailable = true
	n.mu.Unlock()
	if first {
		n.opts.Logf("gatehouse: desktop notifications unavailable (%v); requests wait in the window", cause)
	}
	return fmt.Errorf("%w: %v", ErrUnavailable, cause)
}

// listen follows the service's signals: a click on Gatehouse's
// notification calls OnActivate, and a closed notification is no longer
// replaced.
func (n *Notifier) listen() {
	defer close(n.stopped)
	for sig := range n.signals {
		if sig.Path != servicePath || len(sig.Body) < 2 {
			continue
		}
		id, _ := sig.Body[0].(uint32)
		switch sig.Name {
		case serviceInterface + ".ActionInvoked":
			key, _ := sig.Body[1].(string)
			if key == defaultAction && n.ours(id) && n.opts.OnActivate != nil {
				n.opts.OnActivate()
			}
		case serviceInterface + ".NotificationClosed":
			n.mu.Lock()
			if id != 0 && id == n.shown {
				n.shown = 0
			}
			n.mu.Unlock()
		}
	}
}

// ours reports whether id is the notification Gatehouse has on screen.
func (n *Notifier) ours(id uint32) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return id != 0 && id == n.shown
}

// markupEscaper escapes the three characters that make markup in a body
// (the specification's markup is a small XML subset).
var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// escapeMarkup makes text show as written in a body the service reads as
// markup: a server's "<a href=...>" stays text, not a link.
func escapeMarkup(text string) string { return markupEscaper.Replace(text) }
