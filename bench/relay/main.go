// Command relay is P11's floor (issue 25): the least any program between
// an MCP client and its server can add. It starts the command it is given
// and copies its own stdin to the command's and the command's stdout to
// its own, byte for byte, deciding nothing: a client that calls a server
// through it crosses two processes more than one that calls the server
// directly, as a client of `gatehouse gateway` does (the gateway hands
// the client's pipes to the app, which calls the server).
//
//	relay COMMAND [ARGS...]
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: relay COMMAND [ARGS...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		fail(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	go func() {
		_, _ = io.Copy(in, os.Stdin)
		in.Close() // the client is done: so is the server
	}()
	_, _ = io.Copy(os.Stdout, out)
	_ = cmd.Wait()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "relay:", err)
	os.Exit(1)
}
