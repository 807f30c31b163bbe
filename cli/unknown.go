package cli

import (
	"strings"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// unknownCommand is the usage error for arguments that name no command, or
// nil when they are for the window: none at all, or, in the development
// build only, Wails' own flags. Without it `gatehouse foo` opened the window
// (issue 13).
func unknownCommand(args []string) error {
	if len(args) == 0 || wailsReadsFlags && strings.HasPrefix(args[0], "-") {
		return nil
	}
	return usageErr(i18n.M("cli.unknownCommand", "command", args[0]))
}
