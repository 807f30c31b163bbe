//go:build !dev

package cli

import "os"

// inspectorVars are the variables that make WebKitGTK open its remote
// inspector on a TCP address (the binary protocol, and the HTTP one a
// browser or a WebSocket client speaks). WebKit reads them when the window
// starts, whatever the view's developer extras say, and lists the window's
// page there: whoever reaches the address can run script in the page's
// main world, where the Go bindings are (add a server: run a command).
// Someone debugging another WebKitGTK program may have them set for the
// whole session.
var inspectorVars = []string{"WEBKIT_INSPECTOR_SERVER", "WEBKIT_INSPECTOR_HTTP_SERVER"}

// closeRemoteInspector removes inspectorVars from the environment before the
// production window starts, so that its WebKit opens no inspector. With cgo
// os.Unsetenv changes the C environment WebKit reads too. The development
// build keeps them: its end-to-end tests drive the window through the
// inspector (frontend/e2e/webkit-window.mjs).
func closeRemoteInspector() {
	for _, name := range inspectorVars {
		_ = os.Unsetenv(name)
	}
}
