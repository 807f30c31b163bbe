// Package pipe is `gatehouse gateway`, the MCP server another app launches
// (issue 25): a pipe, nothing more, from its standard input and output to
// the running app's gateway socket, where the app serves the person's
// servers under their consent (package gateway). When its input and output
// are pipes or sockets, as every app launching an MCP server gives, it
// hands them to the app (SCM_RIGHTS) and only waits for the session's end. When no app runs on the
// data folder it starts one (Gatehouse's own program, its window,
// detached) and waits for the socket; it never opens the data file itself.
// Every sentence goes to stderr: stdout is the MCP channel.
//
// It imports neither Wails nor the app: the small gatehouse-gateway
// program (cmd/gatehouse-gateway) is this package alone, so that the pipe
// that lives as long as the other app's session holds a few megabytes, not
// the window's libraries. `gatehouse gateway` runs that program when it is
// installed beside it, else this same code in its own process.
package pipe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
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

// Options configures Run.
type Options struct {
	// DataDir is the data folder of the app to reach; "" is the default.
	DataDir string
	// App is Gatehouse's program, started when no app runs.
	App string
	// Stdin and Stdout are the other app's MCP channel.
	Stdin  io.Reader
	Stdout io.Writer
}

// Run pipes o.Stdin and o.Stdout to the running app's gateway, starting
// the app first when none runs, until the other app or the app ends the
// connection, or ctx ends.
func Run(ctx context.Context, o Options) error {
	dir := o.DataDir
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
		conn, err = startApp(ctx, o, path)
	}
	if err != nil {
		return err
	}
	handed, err := handOver(conn, o.Stdin, o.Stdout)
	if err != nil {
		conn.Close()
		return err
	}
	if handed {
		return waitForEnd(ctx, conn)
	}
	return pipe(ctx, o.Stdin, o.Stdout, conn)
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
func startApp(ctx context.Context, o Options, path string) (*net.UnixConn, error) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, i18n.Err("cli.gateway.noDisplay")
	}
	var args []string
	if o.DataDir != "" {
		args = []string{"--data-dir", o.DataDir}
	}
	cmd := exec.Command(o.App, args...)
	// Detached: it outlives this pipe, and none of its output may reach
	// the other app's MCP channel (stdout), or a stderr that closes with
	// this process (its next line would end it). Its stderr goes to a
	// file no one else can open, removed at once: read if it fails to
	// start.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	log, err := os.CreateTemp("", "gatehouse-start-*.log")
	if err != nil {
		return nil, i18n.Wrap(err, "cli.gateway.startFailed", "detail", err)
	}
	os.Remove(log.Name())
	defer log.Close()
	cmd.Stderr = log
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
				return nil, i18n.Wrap(err, "cli.gateway.startFailed", "detail", lastLine(log, err))
			}
			exited = nil
		case <-deadline.C:
			return nil, i18n.Err("cli.gateway.notStarted", "duration", i18n.Duration(gatewayStartWait))
		case <-tick.C:
		}
	}
}

// lastLine is the last line the app wrote on stderr before it stopped
// (its reason, in its words), or err when it wrote none.
func lastLine(f *os.File, err error) string {
	const most = 4096
	end, _ := f.Seek(0, io.SeekEnd)
	buf := make([]byte, min(end, most))
	n, _ := f.ReadAt(buf, end-int64(len(buf)))
	lines := strings.Split(strings.TrimSpace(string(buf[:n])), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return strings.TrimPrefix(last, "gatehouse: ")
	}
	return err.Error()
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
