package cli

import (
	"fmt"
	"path/filepath"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/i18n"
)

// roots runs `gatehouse servers roots SERVER [add PATH | remove PATH]`: the
// folders the server may see (MCP roots), one per line, after adding or
// removing one. A relative PATH is taken from the terminal's folder.
func (e *env) roots(cmds commands, args []string) error {
	var (
		res app.CLIRoots
		err error
	)
	switch {
	case len(args) == 1:
		res, err = cmds.Roots(args[0])
	case len(args) == 3 && (args[1] == "add" || args[1] == "remove"):
		folder, absErr := filepath.Abs(args[2])
		if absErr != nil {
			return absErr
		}
		if args[1] == "add" {
			if res, err = cmds.AddRoot(args[0], folder); err == nil {
				fmt.Fprintln(e.stdout, i18n.M("cli.roots.added", "server", oneLine(res.Name), "path", oneLine(folder)))
			}
		} else if res, err = cmds.RemoveRoot(args[0], folder); err == nil {
			fmt.Fprintln(e.stdout, i18n.M("cli.roots.removed", "server", oneLine(res.Name), "path", oneLine(folder)))
		}
	default:
		return usageErr(i18n.M("cli.roots.args"))
	}
	if err != nil {
		return err
	}
	if len(res.Roots) == 0 {
		fmt.Fprintln(e.stdout, i18n.M("cli.roots.none", "server", oneLine(res.Name)))
		return nil
	}
	for _, f := range res.Roots {
		fmt.Fprintln(e.stdout, oneLine(f))
	}
	return nil
}
