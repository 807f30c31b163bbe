package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sentinel errors of the manager.
var (
	// ErrUnknownServer is returned for a server ID the manager does not have.
	ErrUnknownServer = errors.New("no such server")
	// ErrNotConnected is returned when a server has no live session.
	ErrNotConnected = errors.New("the server is not connected")
	// ErrDisabled is returned when a server is turned off.
	ErrDisabled = errors.New("the server is turned off")
	// ErrBadConfig is wrapped by configuration errors found before connecting.
	ErrBadConfig = errors.New("invalid server settings")
)

// Describe turns a connection error into a sentence a person understands,
// such as "command not found: foo" or "connection refused by 127.0.0.1:9".
// The original error stays available through errors.Is/As on the caller's side.
func Describe(err error) string {
	if err == nil {
		return ""
	}
	var execErr *exec.Error
	if errors.As(err, &execErr) {
		if errors.Is(execErr.Err, exec.ErrNotFound) || errors.Is(execErr.Err, os.ErrNotExist) {
			return "command not found: " + execErr.Name
		}
		if errors.Is(execErr.Err, os.ErrPermission) {
			return "command is not executable: " + execErr.Name
		}
		return fmt.Sprintf("cannot start %s: %v", execErr.Name, execErr.Err)
	}
	if errors.Is(err, ErrBadConfig) || errors.Is(err, ErrDisabled) || errors.Is(err, ErrNotConnected) || errors.Is(err, ErrUnknownServer) {
		return err.Error()
	}
	var exitErr *exitedError
	if errors.As(err, &exitErr) {
		return exitErr.Error()
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		if host := errorHost(err); host != "" {
			return "connection refused by " + host
		}
		return "connection refused"
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		if dnsErr.IsNotFound {
			return "unknown host: " + dnsErr.Name
		}
		return "cannot look up host " + dnsErr.Name
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return "the server did not answer in time"
	}
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "the server closed the connection"
	}
	msg := err.Error()
	for _, status := range []string{"Unauthorized", "Forbidden", "Not Found", "Method Not Allowed"} {
		if strings.HasSuffix(msg, ": "+status) {
			return "the server answered \"" + status + "\": check the URL"
		}
	}
	return msg
}

// exitedError reports that a stdio server's process ended.
type exitedError struct {
	command string
	state   *os.ProcessState
}

func (e *exitedError) Error() string {
	if e.state == nil {
		return e.command + " stopped"
	}
	if ws, ok := e.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("%s was stopped by signal %s", e.command, ws.Signal())
	}
	return fmt.Sprintf("%s exited with code %d", e.command, e.state.ExitCode())
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func errorHost(err error) string {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Addr != nil {
		return opErr.Addr.String()
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		if u, perr := url.Parse(urlErr.URL); perr == nil {
			return u.Host
		}
	}
	return ""
}
