package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/i18n"
)

// roots runs `gatehouse servers roots SERVER [add PATH | remove PATH]`: the
// folders the server may see (MCP roots), one per line, after adding or
// removing one. A relative PATH is taken from the terminal's folder.
func (e *env) roots(ctx context.Context, args []string) error {
	var res app.CLIRoots
	switch {
	case len(args) == 1:
		if err := e.do(ctx, app.ToolServerRoots, app.CLIName{Name: args[0]}, &res); err != nil {
			return err
		}
	case len(args) == 3 && (args[1] == "add" || args[1] == "remove"):
		folder, err := filepath.Abs(args[2])
		if err != nil {
			return err
		}
		tool := map[string]string{"add": app.ToolAddRoot, "remove": app.ToolRemoveRoot}[args[1]]
		if err := e.do(ctx, tool, app.CLIRoot{Server: args[0], Path: folder}, &res); err != nil {
			return err
		}
		said := i18n.M("cli.roots.added", "server", oneLine(res.Name), "path", oneLine(folder))
		if args[1] == "remove" {
			said = i18n.M("cli.roots.removed", "server", oneLine(res.Name), "path", oneLine(folder))
		}
		fmt.Fprintln(e.stdout, said)
	default:
		return usageErr(i18n.M("cli.roots.args"))
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
