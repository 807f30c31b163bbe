package cli

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gatehouse-app/gatehouse/gtkwin"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/instance"
	"github.com/gatehouse-app/gatehouse/store"
)

// claimWindow decides, before the data file is opened, whether this start
// opens the window. In order:
//
//  1. a display: without one the person reads that the window needs a
//     desktop session and that the CLI works without it (exit 1), instead
//     of Wails' panic;
//  2. one Gatehouse per data directory: when one already runs on the
//     session bus it is handed this start (it brings its window forward)
//     and this one exits 0 without drawing anything. Opening the store
//     first is what used to draw a broken second window before its lock
//     said "already running".
//
// ok is true when the window should open; lock is then the bus name this
// Gatehouse owns, or nil without a session bus (the data file's lock then
// keeps a second Gatehouse out, see cannotStart). Otherwise code is the
// exit code.
func (e *env) claimWindow() (lock *instance.Lock, code int, ok bool) {
	// Read before GTK starts: GDK takes DESKTOP_STARTUP_ID out of the
	// environment when it opens the display.
	me := instance.Start{Args: os.Args[1:], StartupID: startupID()}
	if err := gtkwin.Open(); err != nil {
		fmt.Fprintln(e.stderr, i18n.M("cli.window.noDisplay"))
		return nil, exitError, false
	}
	me.WorkingDir, _ = os.Getwd()
	name, err := e.instanceName()
	if err != nil {
		return nil, e.cannotStart(err), false
	}
	lock, err = instance.Claim(context.Background(), name, me)
	switch {
	case errors.Is(err, instance.ErrAlreadyRunning):
		return nil, exitOK, false
	case err != nil:
		log.Printf("gatehouse: one window at a time is left to the data file's lock: %v", err)
	}
	return lock, exitOK, true
}

// startupID is the desktop's token for this start: Wayland's activation
// token or X11's startup notification ID; empty from a terminal.
func startupID() string {
	if id := os.Getenv("XDG_ACTIVATION_TOKEN"); id != "" {
		return id
	}
	return os.Getenv("DESKTOP_STARTUP_ID")
}

// instanceName is the bus name for the data directory this start uses.
func (e *env) instanceName() (string, error) {
	def, err := store.DefaultDir()
	if err != nil {
		return "", err
	}
	dir := def
	if e.dataDir != "" {
		if dir, err = filepath.Abs(e.dataDir); err != nil {
			return "", fmt.Errorf("resolve --data-dir %q: %w", e.dataDir, err)
		}
	}
	base, _ := os.UserConfigDir()
	return instance.Name(dir, dir == filepath.Join(base, "gatehouse")), nil
}

// cannotStart says why the window cannot open (another Gatehouse holds the
// data file and no session bus let them meet, a damaged data file, ...) on
// stderr and in a small dialog of its own, without building the main
// window, and returns the exit code.
func (e *env) cannotStart(err error) int {
	fmt.Fprintln(e.stderr, "gatehouse:", err)
	gtkwin.ShowError(i18n.M("app.startFailed").String(), err.Error())
	return exitError
}
