//go:build !(linux && cgo && (dev || production || windowtest))

package appframe

// Install does nothing in builds without the window: there is no WebKit
// view whose bridge could be reached, and Serve keeps failing.
func Install() error { return nil }

// SetLanguage does nothing in builds without the window.
func SetLanguage(tag string) {}
