//go:build !(linux && cgo && (dev || production))

package theme

// ApplyToGTK does nothing in builds without the GTK window (tests, the CLI
// on other systems): there is no toolkit to tell.
func ApplyToGTK(Scheme) {}
