//go:build !(linux && cgo && (dev || production))

package gtkwin

import "os"

// Open returns ErrNoDisplay when the environment names no display; in
// builds without the window (tests, the bindings generator) there is no
// toolkit to ask whether it opens.
func Open() error {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return ErrNoDisplay
	}
	return nil
}

// CanPlace is false without the window's toolkit.
func CanPlace() bool { return false }

// Screens knows no screens without the window's toolkit.
func Screens() []Rect { return nil }

// ShowError does nothing without the window's toolkit.
func ShowError(title, text string) {}

// Present does nothing without the window's toolkit.
func Present(title, startupID string) {}

// PlaceWindow does nothing without the window's toolkit.
func PlaceWindow(title string, r Rect, maximise bool) {}
