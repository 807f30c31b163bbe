// Command gatehouse-gateway is `gatehouse gateway` without the window's
// libraries (package gateway/pipe): the MCP server on standard input and
// output that another app launches, a pipe to the running Gatehouse's
// gateway. `gatehouse gateway` runs it when it is installed beside
// Gatehouse's program; it is not meant to be run by hand.
package main

import (
	"os"

	"github.com/gatehouse-app/gatehouse/gateway/pipe"
)

func main() { os.Exit(pipe.Main(os.Args[1:])) }
