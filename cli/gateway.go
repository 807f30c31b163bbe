package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// gatewayStartWait bounds how long `gatehouse gateway` waits for the app it
// started to serve the gateway socket: a window's first start on a slow
// machine takes a few seconds.
const gatewayStartWait = 30 * time.Second

// gatewayPoll is how often it looks for the socket meanwhile.
const gatewayPoll = 100 * time.Millisecond

// gateway is `gatehouse gateway`: the MCP server another app launches
// (issue 25). It is a pipe, nothing more: its standard input and output to
// the running app's gateway socket, where the app serves the person's
// servers under their consent (package gateway). When no app runs on this
// data folder it starts one (this same program, its window, detached) and
// waits for the socket; it never opens the data file itself. Every
// sentence goes to stderr: stdout is the MCP channel.
func (e *env) gateway(ctx context.Context, args []string) error {
	if len(args) > 0 {
		return usageErr(i18n.M("cli.unknownCommand", "command", "gateway "+args[0]))
	}
	dir := e.dataDir
	if dir == "" {
		d, err := store.DefaultDir()
		if err != nil {
			return err
		}
		dir = d
	}
	path, err := applink.GatewaySocketPath(dir)
	if err != nil {
		return err
	}
	conn, err := dialGateway(path)
	if errors.Is(err, applink.ErrNoApp) {
		conn, err = e.startApp(ctx, path)
	}
	if err != nil {
		return err
	}
	return pipe(ctx, e.stdin, e.stdout, conn)
}

// dialGateway connects to the gateway socket at path, or returns
// applink.ErrNoApp when no app answers there.
func dialGateway(path string) (*net.UnixConn, error) {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	switch {
	case err == nil:
		return c, nil
	case errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.ECONNREFUSED):
		return nil, applink.ErrNoApp
	}
	return nil, i18n.Wrap(err, "cli.gateway.unreachable", "detail", err)
}

// startApp starts Gatehouse on this data folder (its window) in a session
// of its own, and waits until it serves the gateway at path.
func (e *env) startApp(ctx context.Context, path string) (*net.UnixConn, error) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, i18n.Err("cli.gateway.noDisplay")
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, i18n.Wrap(err, "cli.gateway.startFailed", "detail", err)
	}
	var args []string
	if e.dataDir != "" {
		args = []string{"--data-dir", e.dataDir}
	}
	cmd := exec.Command(exe, args...)
	// Detached: it outlives this pipe, and none of its output may reach
	// the other app's MCP channel (stdout) or a stderr that closes with
	// this process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
	if err := cmd.Start(); err != nil {
		return nil, i18n.Wrap(err, "cli.gateway.startFailed", "detail", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.NewTimer(gatewayStartWait)
	defer deadline.Stop()
	tick := time.NewTicker(gatewayPoll)
	defer tick.Stop()
	for {
		conn, err := dialGateway(path)
		if err == nil {
			return conn, nil
		}
		if !errors.Is(err, applink.ErrNoApp) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case err := <-exited:
			// Exit 0: another Gatehouse took the start (it opens its window
			// and serves the socket soon). Anything else: it could not start.
			if err != nil {
				return nil, i18n.Wrap(err, "cli.gateway.startFailed", "detail", err)
			}
			exited = nil
		case <-deadline.C:
			return nil, i18n.Err("cli.gateway.notStarted", "duration", i18n.Duration(gatewayStartWait))
		case <-tick.C:
		}
	}
}

// pipe copies in to conn and conn to out until the app ends the
// connection, or in ends and the app has answered what it read.
func pipe(ctx context.Context, in io.Reader, out io.Writer, conn *net.UnixConn) error {
	defer conn.Close()
	toApp := make(chan error, 1)
	go func() {
		_, err := io.Copy(conn, in)
		_ = conn.CloseWrite() // the app sees the end of the client's messages
		toApp <- err
	}()
	fromApp := make(chan error, 1)
	go func() {
		_, err := io.Copy(out, conn)
		fromApp <- err
	}()
	select {
	case <-ctx.Done():
		return nil
	case err := <-fromApp:
		if err != nil && !errors.Is(err, net.ErrClosed) {
			return fmt.Errorf("passing the app's messages on: %w", err)
		}
		return nil
	}
}
