package gtkwin

import "errors"

// ErrNoDisplay is returned by Open when there is no display to draw the
// window on: no DISPLAY or WAYLAND_DISPLAY, or one that cannot be opened.
var ErrNoDisplay = errors.New("no display to open the window on")
