package pipe

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Main is the gatehouse-gateway program: `gatehouse-gateway --app PATH
// [--data-dir DIR]`, as `gatehouse gateway` runs it. It returns the exit
// code: 0 when the session ended, 1 with a sentence on stderr when the app
// could not be reached, 2 for a command line it does not know.
func Main(args []string) int {
	i18n.SetLanguage(i18n.FromEnv(os.Getenv))
	o := Options{DataDir: os.Getenv("GATEHOUSE_DATA_DIR"), Stdin: os.Stdin, Stdout: os.Stdout}
	for i := 0; i < len(args); i++ {
		name, value, inline := strings.Cut(args[i], "=")
		if !inline && i+1 < len(args) {
			value = args[i+1]
		}
		switch strings.TrimLeft(name, "-") {
		case "app":
			o.App = value
		case "data-dir":
			o.DataDir = value
		default:
			fmt.Fprintln(os.Stderr, "gatehouse:", i18n.M("cli.unknownCommand", "command", args[i]))
			return 2
		}
		if !inline {
			i++
		}
	}
	if o.App == "" {
		// Installed beside Gatehouse's own program.
		exe, err := os.Executable()
		if err == nil {
			o.App = filepath.Join(filepath.Dir(exe), "gatehouse")
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := Run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "gatehouse:", err)
		return 1
	}
	return 0
}
