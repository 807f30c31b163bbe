// Package cli is Gatehouse's command line: it parses arguments, opens the
// store and either runs the GUI or a subcommand on the same core.
package cli

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/gatehouse-app/gatehouse/app"
)

// Main runs Gatehouse with the given arguments (without the program name)
// and returns the process exit code.
func Main(args []string, assets fs.FS) int {
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := app.RunGUI(app.GUIOptions{Assets: dist}); err != nil {
		fmt.Fprintln(os.Stderr, "gatehouse:", err)
		return 1
	}
	return 0
}
