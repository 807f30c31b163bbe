package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/lineio"
)

// commandTransport starts a stdio server's process and speaks to it over
// its pipes, as the go-sdk's CommandTransport does (closing its stdin
// ends it: see processInput.Close), with the server's output read through
// a lineio.Tap so that the responses to the gateway's forwarded calls
// (forward.go) are taken before the SDK decodes them, and its input
// written through a lineio.Writer that the forwarded requests share.
type commandTransport struct {
	cmd *exec.Cmd
	// fwd is the forwarder the connection's forwarded calls go through.
	fwd *forwarder
}

// Connect starts the process.
func (t commandTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	w := lineio.NewWriter(&processInput{stdin: stdin, cmd: t.cmd, terminate: stdioTerminateWait})
	t.fwd.w = w
	// The connection ends by closing the process's input, not its output.
	tap := lineio.NewTap(struct{ io.Reader }{stdout}, sdk.DefaultMaxLineLength, t.fwd.take)
	return (&sdk.IOTransport{Reader: tap, Writer: w}).Connect(ctx)
}

// processInput is a stdio server's standard input; closing it ends the
// server as the MCP specification says a client does: close its input,
// wait for it to exit, then SIGTERM, then SIGKILL. Close returns what the
// process's Wait did (an *exec.ExitError when it failed), which
// stdioProcess.exitError reads.
type processInput struct {
	stdin     io.WriteCloser
	cmd       *exec.Cmd
	terminate time.Duration
}

func (p *processInput) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// SyscallConn is the descriptor of the process's input (a pipe Go polls,
// made by exec.Cmd.StdinPipe), so that lineio.Writer.WriteSoon writes to
// it without a goroutine when the pipe has room.
func (p *processInput) SyscallConn() (syscall.RawConn, error) {
	sc, ok := p.stdin.(syscall.Conn)
	if !ok {
		return nil, errors.ErrUnsupported
	}
	return sc.SyscallConn()
}

// Close ends the process and waits for it.
func (p *processInput) Close() error {
	if err := p.stdin.Close(); err != nil {
		return fmt.Errorf("closing the server's input: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	wait := func() (error, bool) {
		select {
		case err := <-exited:
			return err, true
		case <-time.After(p.terminate):
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	if p.cmd.Process.Signal(syscall.SIGTERM) == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stopping the server: %w", err)
	}
	if err, ok := wait(); ok {
		return err
	}
	return errors.New("the server's process does not end")
}
