package app

import (
	"context"
	"log"

	"github.com/wailsapp/wails/v2/pkg/options"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/gatehouse-app/gatehouse/gtkwin"
	"github.com/gatehouse-app/gatehouse/instance"
	"github.com/gatehouse-app/gatehouse/store"
)

// windowTitle is the main window's title; gtkwin finds the window by it.
const windowTitle = "Gatehouse"

// The main window's size on a first start, and the smallest it can be.
// A saved size below the minimum is not used.
const (
	defaultWindowWidth  = 1100
	defaultWindowHeight = 760
	minWindowWidth      = 720
	minWindowHeight     = 480
)

// windowLayout is how the main window opens.
type windowLayout struct {
	width, height int
	// at is where it goes on the desktop; nil leaves it where Wails puts it
	// (centred on the screen).
	at       *gtkwin.Rect
	maximise bool
}

// restoredWindow is the window as the person left it (s), on the screens
// there are now: the saved size when it is a usable one, the saved
// position only while it is on one of screens (moved fully onto it), and
// maximised again.
func restoredWindow(s store.Settings, screens []gtkwin.Rect) windowLayout {
	l := windowLayout{width: defaultWindowWidth, height: defaultWindowHeight, maximise: s.WindowMaximised}
	if s.WindowWidth >= minWindowWidth && s.WindowHeight >= minWindowHeight {
		l.width, l.height = s.WindowWidth, s.WindowHeight
	}
	if s.WindowPlaced {
		if r, ok := gtkwin.Place(gtkwin.Rect{X: s.WindowX, Y: s.WindowY, Width: l.width, Height: l.height}, screens); ok {
			l.at = &r
			l.width, l.height = r.Width, r.Height
		}
	}
	return l
}

// startState is the Wails start state: maximised here only when there is
// no position to restore first (restore maximises after moving, so the
// window maximises on the screen it was on).
func (l windowLayout) startState() options.WindowStartState {
	if l.maximise && l.at == nil {
		return options.Maximised
	}
	return options.Normal
}

// restore puts the window where it was, once Wails has shown it.
func (l windowLayout) restore() {
	if l.at != nil {
		gtkwin.PlaceWindow(windowTitle, *l.at, l.maximise)
	}
}

// saveWindow keeps the window's size, position and maximised state for the
// next start. A maximised window keeps the size and position it had before,
// so that unmaximising after the next start gives them back.
func saveWindow(ctx context.Context, core *Core) {
	s, err := core.Store.Settings()
	if err != nil {
		return
	}
	s.WindowMaximised = wruntime.WindowIsMaximised(ctx)
	if !s.WindowMaximised {
		s.WindowWidth, s.WindowHeight = wruntime.WindowGetSize(ctx)
		// The corner on the whole desktop (GTK's position), as
		// gtkwin.PlaceWindow takes it. Wayland tells GTK no position: the
		// one saved under X11 stays.
		if gtkwin.CanPlace() {
			s.WindowX, s.WindowY = wruntime.WindowGetPosition(ctx)
			s.WindowPlaced = true
		}
	}
	if err := core.Store.PutSettings(s); err != nil {
		log.Printf("gatehouse: saving the window's size and position: %v", err)
	}
}

// bringForward raises the window for each later start of Gatehouse until
// ctx ends. The start's arguments are logged; nothing acts on them yet.
func bringForward(ctx context.Context, starts <-chan instance.Start) {
	if starts == nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case s := <-starts:
			log.Printf("gatehouse: started again (arguments %q, in %q): bringing the window forward", s.Args, s.WorkingDir)
			gtkwin.Present(windowTitle, s.StartupID)
		}
	}
}
