//go:build dev

package cli

// closeRemoteInspector keeps WebKit's remote inspector variables in the
// development build: its end-to-end tests drive the window through the
// inspector (frontend/e2e/webkit-window.mjs). See inspector.go.
func closeRemoteInspector() {}
