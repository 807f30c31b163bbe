package mcp

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Sentinel errors of the manager.
var (
	// ErrUnknownServer is returned for a server ID the manager does not have.
	ErrUnknownServer = i18n.Err("mcp.error.unknownServer")
	// ErrNotConnected is returned when a server has no live session.
	ErrNotConnected = i18n.Err("mcp.error.notConnected")
	// ErrDisabled is returned when a server is turned off.
	ErrDisabled = i18n.Err("mcp.error.disabled")
	// ErrBadConfig is wrapped by configuration errors found before connecting.
	ErrBadConfig = i18n.Err("mcp.error.badConfig")
	// ErrConnectionEnded is returned for a request whose connection ended
	// (the server was turned off, reconnected or Gatehouse is quitting)
	// before its answer came.
	ErrConnectionEnded = i18n.Err("mcp.error.connectionEnded")
)

// badConfig is a configuration error found before connecting: it wraps
// ErrBadConfig and says what is wrong.
func badConfig(problem i18n.Message) error {
	return &i18n.Error{Message: i18n.M("mcp.error.badConfigBecause", "detail", problem), Err: ErrBadConfig}
}

// Describe turns a connection error into a sentence a person understands,
// such as "command not found: foo" or "connection refused by 127.0.0.1:9".
// The original error stays available through errors.Is/As on the caller's side.
func Describe(err error) i18n.Message {
	if err == nil {
		return i18n.Message{}
	}
	var execErr *exec.Error
	if errors.As(err, &execErr) {
		if errors.Is(execErr.Err, exec.ErrNotFound) || errors.Is(execErr.Err, os.ErrNotExist) {
			return i18n.M("mcp.status.commandNotFound", "command", execErr.Name)
		}
		if errors.Is(execErr.Err, os.ErrPermission) {
			return i18n.M("mcp.status.notExecutable", "command", execErr.Name)
		}
		return i18n.M("mcp.status.cannotStart", "command", execErr.Name, "detail", execErr.Err)
	}
	// A command given as a path is started without a search, so a missing
	// or forbidden file comes back from fork/exec rather than as an exec.Error.
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) && pathErr.Op == "fork/exec" {
		switch {
		case errors.Is(pathErr.Err, fs.ErrNotExist):
			return i18n.M("mcp.status.commandNotFound", "command", pathErr.Path)
		case errors.Is(pathErr.Err, fs.ErrPermission):
			return i18n.M("mcp.status.notExecutable", "command", pathErr.Path)
		}
		return i18n.M("mcp.status.cannotStart", "command", pathErr.Path, "detail", pathErr.Err)
	}
	if errors.Is(err, ErrBadConfig) || errors.Is(err, ErrDisabled) || errors.Is(err, ErrNotConnected) || errors.Is(err, ErrUnknownServer) || errors.Is(err, ErrConnectionEnded) {
		return i18n.ErrorMessage(err)
	}
	var exitErr *exitedError
	if errors.As(err, &exitErr) {
		return exitErr.message()
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		if host := errorHost(err); host != "" {
			return i18n.M("mcp.status.refusedBy", "host", host)
		}
		return i18n.M("mcp.status.refused")
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		if dnsErr.IsNotFound {
			return i18n.M("mcp.status.unknownHost", "host", dnsErr.Name)
		}
		return i18n.M("mcp.status.lookupFailed", "host", dnsErr.Name)
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return i18n.M("mcp.status.timeout")
	}
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return i18n.M("mcp.status.closed")
	}
	msg := err.Error()
	for _, status := range []string{"Unauthorized", "Forbidden", "Not Found", "Method Not Allowed"} {
		if strings.HasSuffix(msg, ": "+status) {
			return i18n.M("mcp.status.httpStatus", "status", status)
		}
	}
	return i18n.ErrorMessage(err)
}

// exitedError reports that a stdio server's process ended.
type exitedError struct {
	command string
	state   *os.ProcessState
}

func (e *exitedError) Error() string { return e.message().String() }

// message says how the process ended.
func (e *exitedError) message() i18n.Message {
	if e.state == nil {
		return i18n.M("mcp.status.stopped", "command", e.command)
	}
	if ws, ok := e.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return i18n.M("mcp.status.signal", "command", e.command, "signal", ws.Signal().String())
	}
	return i18n.M("mcp.status.exited", "command", e.command, "code", e.state.ExitCode())
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

// notConnected is ErrNotConnected saying why (the status message).
func notConnected(why i18n.Message) error {
	if why.Key == "" && why.In(i18n.English) == "" {
		return ErrNotConnected
	}
	return i18n.Wrap(ErrNotConnected, "mcp.error.notConnectedBecause", "detail", why)
}

// ConfigProblem says what is wrong with a server's settings, for an error
// that wraps ErrBadConfig, without the "cannot work" around it.
func ConfigProblem(err error) i18n.Message {
	if m, ok := i18n.MessageOf(err); ok && m.Key == "mcp.error.badConfigBecause" {
		if detail, ok := m.Args["detail"].(i18n.Message); ok {
			return detail
		}
	}
	return i18n.ErrorMessage(err)
}
