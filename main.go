// Command gatehouse is a desktop MCP host. Run without arguments it opens the
// app window; with a subcommand (servers, tools, call) it is a CLI on the
// same store and core. See README.md.
package main

import (
	"embed"
	"os"

	"github.com/gatehouse-app/gatehouse/cli"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	os.Exit(cli.Main(os.Args[1:], assets))
}
