// Package instance keeps Gatehouse to one window per data directory: the
// first start owns a name on the D-Bus session bus, and a later start hands
// its arguments to that first one, which brings its window forward, and
// leaves without opening the data file or the display's window.
//
// The first start serves the freedesktop.org application interface
// (org.freedesktop.Application, from the Desktop Entry Specification's
// "D-Bus Activation"), so `gdbus call … org.freedesktop.Application.Activate {}`
// raises the window too. A later start calls its Activate with platform data
// that carries the start's arguments and working directory beside the
// standard startup-notification keys.
//
// It is Gatehouse's own handshake rather than Wails' SingleInstanceLock:
// Wails claims the name only inside wails.Run, after GTK and the main window
// exist (so after the caller opened the data file, whose lock then reported
// "already running" over a broken second window), and its second start
// exits with status 1.
package instance

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// BaseName is the bus name of the Gatehouse that uses the default data
// directory; it serves Interface at the path made of its name
// (/io/github/gatehouse_app/Gatehouse).
const (
	BaseName = "io.github.gatehouse_app.Gatehouse"
	// Interface is the freedesktop.org application interface.
	Interface = "org.freedesktop.Application"
)

// Platform-data keys of Activate. The first two are the Desktop Entry
// Specification's; the others are Gatehouse's.
const (
	keyStartupID       = "desktop-startup-id" // X11 startup notification (DESKTOP_STARTUP_ID)
	keyActivationToken = "activation-token"   // Wayland xdg-activation (XDG_ACTIVATION_TOKEN)
	keyArgs            = "gatehouse-args"     // the later start's arguments
	keyCwd             = "gatehouse-cwd"      // the later start's working directory
)

// handOverTimeout bounds the call to the running Gatehouse: a first start
// that does not answer within it is treated as not there, and the caller
// falls back to the data file's lock.
const handOverTimeout = 5 * time.Second

// ErrAlreadyRunning is returned by Claim when another Gatehouse owns the
// name and has been handed this start: the caller exits quietly.
var ErrAlreadyRunning = errors.New("gatehouse is already running and was brought forward")

// ErrNoBus is returned (wrapped) by Claim when there is no session bus to
// claim a name on.
var ErrNoBus = errors.New("no D-Bus session bus")

// A Start is one start of Gatehouse as the running one learns of it.
type Start struct {
	// Args are the start's arguments, without the program name.
	Args []string
	// WorkingDir is the directory the start was made in.
	WorkingDir string
	// StartupID is the desktop's token for giving the window focus: X11's
	// DESKTOP_STARTUP_ID or Wayland's XDG_ACTIVATION_TOKEN; empty when
	// started from a terminal.
	StartupID string
}

// Name returns the bus name for a data directory: BaseName for the default
// one, and a name of its own for any other, so that a Gatehouse started on
// another data directory (a test, a second profile) is not taken for the
// running one.
func Name(dataDir string, isDefault bool) string {
	if isDefault {
		return BaseName
	}
	sum := sha256.Sum256([]byte(dataDir))
	return BaseName + ".Dir_" + hex.EncodeToString(sum[:8])
}

// A Lock is the name owned by the first Gatehouse. Later starts arrive on
// Starts until Close.
type Lock struct {
	conn   *dbus.Conn
	starts chan Start
	once   sync.Once
}

// Starts delivers the later starts handed to this Gatehouse, in order. It is
// buffered: starts that arrive before the window reads them wait.
func (l *Lock) Starts() <-chan Start { return l.starts }

// Close gives up the name and closes the bus connection.
func (l *Lock) Close() error {
	var err error
	l.once.Do(func() { err = l.conn.Close() })
	return err
}

// Claim connects to the session bus and asks for name. It returns:
//   - a Lock when this is the first Gatehouse: keep it until the app exits;
//   - ErrAlreadyRunning when another one owns the name and took this start
//     (me): nothing of this start should be opened;
//   - another error (ErrNoBus, a bus failure, a running Gatehouse that does
//     not answer) when the bus cannot decide: the caller goes on, and the
//     data file's own lock keeps a second Gatehouse from using it.
func Claim(ctx context.Context, name string, me Start) (*Lock, error) {
	conn, err := connect()
	if err != nil {
		return nil, err
	}
	l := &Lock{conn: conn, starts: make(chan Start, 8)}
	path := objectPath(name)
	// Served before the name is taken, so a later start that sees the name
	// always finds the object.
	if err := conn.Export(application{l}, path, Interface); err != nil {
		conn.Close()
		return nil, fmt.Errorf("serve %s: %w", Interface, err)
	}
	reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("claim the bus name %s: %w", name, err)
	}
	if reply == dbus.RequestNameReplyPrimaryOwner || reply == dbus.RequestNameReplyAlreadyOwner {
		return l, nil
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, handOverTimeout)
	defer cancel()
	call := conn.Object(name, path).CallWithContext(ctx, Interface+".Activate", 0, me.platformData())
	if call.Err != nil {
		return nil, fmt.Errorf("hand this start to the running Gatehouse (%s): %w", name, call.Err)
	}
	return nil, ErrAlreadyRunning
}

// connect opens a private connection to the session bus named by the
// environment (DBUS_SESSION_BUS_ADDRESS, or $XDG_RUNTIME_DIR/bus). It never
// starts a bus: a bus only this process knows would lock nothing.
func connect() (*dbus.Conn, error) {
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoBus, err)
	}
	if err = conn.Auth(nil); err == nil {
		err = conn.Hello()
	}
	if err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("%w: %v", ErrNoBus, err)
	}
	return conn, nil
}

// objectPath is the path the application interface is served at for name:
// the Desktop Entry Specification derives it from the name.
func objectPath(name string) dbus.ObjectPath {
	b := []byte("/" + name)
	for i, c := range b {
		if c == '.' {
			b[i] = '/'
		}
	}
	return dbus.ObjectPath(b)
}

// platformData is s as Activate's platform data.
func (s Start) platformData() map[string]dbus.Variant {
	d := map[string]dbus.Variant{
		keyArgs: dbus.MakeVariant(append([]string{}, s.Args...)),
		keyCwd:  dbus.MakeVariant(s.WorkingDir),
	}
	if s.StartupID != "" {
		d[keyStartupID] = dbus.MakeVariant(s.StartupID)
		d[keyActivationToken] = dbus.MakeVariant(s.StartupID)
	}
	return d
}

// startFrom reads a Start from Activate's platform data; keys it does not
// know or of the wrong type are ignored (a plain `gdbus call … Activate {}`
// is a start without arguments).
func startFrom(data map[string]dbus.Variant) Start {
	var s Start
	if v, ok := data[keyArgs].Value().([]string); ok {
		s.Args = v
	}
	if v, ok := data[keyCwd].Value().(string); ok {
		s.WorkingDir = v
	}
	for _, k := range []string{keyActivationToken, keyStartupID} {
		if v, ok := data[k].Value().(string); ok && v != "" {
			s.StartupID = v
			break
		}
	}
	return s
}

// application serves org.freedesktop.Application for the first Gatehouse.
// godbus calls its methods on goroutines of its own.
type application struct{ l *Lock }

// Activate is the interface's "show yourself" call.
func (a application) Activate(platformData map[string]dbus.Variant) *dbus.Error {
	a.deliver(startFrom(platformData))
	return nil
}

// Open is the interface's "open these URIs" call; Gatehouse has nothing to
// open yet, so the URIs arrive as arguments of a start.
func (a application) Open(uris []string, platformData map[string]dbus.Variant) *dbus.Error {
	s := startFrom(platformData)
	s.Args = append(s.Args, uris...)
	a.deliver(s)
	return nil
}

// deliver queues s without blocking the bus: when the window is not reading
// (it is starting, or stuck) a start beyond the buffer only raises nothing.
func (a application) deliver(s Start) {
	select {
	case a.l.starts <- s:
	default:
		log.Printf("gatehouse: a later start was dropped: %d are waiting for the window", cap(a.l.starts))
	}
}
