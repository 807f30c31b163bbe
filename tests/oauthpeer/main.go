// Command oauthpeer runs the OAuth-protected test MCP server of package
// mcp/oauthtest on a loopback port and prints its MCP URL on the first line
// of stdout, for the browser end-to-end tests. It stops when stdin closes.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/gatehouse-app/gatehouse/mcp/oauthtest"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := oauthtest.Start(ctx, oauthtest.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(srv.URL)
	_, _ = io.Copy(io.Discard, os.Stdin) // until the test closes stdin
}
