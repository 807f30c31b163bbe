package mcp

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/cmdline"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/store"
)

// stdioTerminateWait is how long a stdio server gets to exit after its stdin
// is closed, and again after SIGTERM, before it is killed. Short, because app
// exit waits for it, but long enough for a Node server to flush.
const stdioTerminateWait = 2 * time.Second

// ValidateConfig checks a server's settings before any connection attempt and
// returns an error wrapping ErrBadConfig with a sentence naming the problem.
func ValidateConfig(srv store.Server) error {
	switch srv.Transport {
	case store.TransportStdio:
		if srv.Stdio == nil || strings.TrimSpace(srv.Stdio.Command) == "" {
			return badConfig(i18n.M("mcp.config.noCommand"))
		}
	case store.TransportHTTP:
		if srv.HTTP == nil || strings.TrimSpace(srv.HTTP.URL) == "" {
			return badConfig(i18n.M("mcp.config.noURL"))
		}
		if _, err := parseServerURL(srv.HTTP.URL); err != nil {
			return err
		}
	default:
		return badConfig(i18n.M("mcp.config.transport", "transport", strconv.Quote(srv.Transport)))
	}
	return nil
}

// parseServerURL accepts only absolute https URLs with a host, and plain
// http ones only to this computer (linkcheck.LoopbackHost). It is the one
// check of a remote server's URL: the editor, the command line and imports
// all reach it through ValidateConfig.
func parseServerURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, badConfig(i18n.M("mcp.config.badURL", "detail", err))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, badConfig(i18n.M("mcp.config.scheme"))
	}
	if u.Host == "" {
		return nil, badConfig(i18n.M("mcp.config.noHost"))
	}
	if u.User != nil {
		return nil, badConfig(i18n.M("mcp.config.userinfo"))
	}
	if u.Scheme == "http" && !linkcheck.LoopbackHost(u.Hostname()) {
		// Headers, tokens and every message would cross the network in
		// the clear; on this computer they do not leave it.
		return nil, badConfig(i18n.M("mcp.config.plainHTTP", "host", u.Hostname()))
	}
	return u, nil
}

// Where says where a server runs, for people: the command line of a stdio
// server, quoted as a shell would quote it (cmdline.Join), so that where
// one argument ends is never a guess; or the URL of an HTTP server.
func Where(srv store.Server) string {
	switch {
	case srv.Transport == store.TransportStdio && srv.Stdio != nil:
		return cmdline.Join(srv.Stdio.Command, srv.Stdio.Args)
	case srv.Transport == store.TransportHTTP && srv.HTTP != nil:
		return srv.HTTP.URL
	}
	return ""
}

// stdioProcess is a stdio server's child process. The child leads its own
// process group so that stopping it also stops whatever it started (npx →
// node, shell wrappers, ...).
type stdioProcess struct {
	cmd *exec.Cmd
	// conn is the SDK's connection over the process's pipes, once made.
	// Its Close stops the process and waits for it; every Close returns
	// what the first one did.
	conn atomic.Pointer[sdk.Connection]
	// fwd sends the gateway's forwarded calls on conn (forward.go).
	fwd atomic.Pointer[forwarder]
}

// newStdioProcess prepares a stdio server's process: its environment is
// childEnv's and it runs in stdioDir's folder. The error wraps ErrBadConfig
// when there is no folder to run in.
func newStdioProcess(cfg *store.StdioConfig, stderr *serverLog) (*stdioProcess, error) {
	dir, err := stdioDir(cfg)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = childEnv(os.Environ(), cfg, dir)
	cmd.Dir = dir
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &stdioProcess{cmd: cmd}, nil
}

// stdioDir is the folder a stdio server runs in: the configured one, else
// the person's home. Never the app's own working folder, which depends on
// how Gatehouse was started and may hold files a server has no business
// with.
func stdioDir(cfg *store.StdioConfig) (string, error) {
	dir := cfg.Dir
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", badConfig(i18n.M("mcp.config.noHome", "detail", err))
		}
		dir = home
	}
	// exec reports a missing working folder as a missing command.
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", badConfig(i18n.M("mcp.config.noDir", "dir", dir))
	}
	return dir, nil
}

// childEnv returns the environment of a stdio server's process, built from
// the app's environment parent (as os.Environ gives it), the server's
// settings and the folder dir it runs in. Sorted by name, one entry a name.
//
// A server gets only the variables in safeEnv that are set, so that it cannot
// read the person's secrets (API keys, tokens, passwords) from the shell that
// started Gatehouse. With cfg.InheritEnv it gets the whole environment
// instead, for a server the person trusts that needs more. Either way PWD
// names dir (the app's PWD would name the wrong folder) and the server's
// configured variables are added last, replacing any of the same name.
func childEnv(parent []string, cfg *store.StdioConfig, dir string) []string {
	vars := map[string]string{}
	for _, kv := range parent {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || name == "PWD" {
			continue
		}
		if cfg.InheritEnv || safeEnv(name) {
			vars[name] = value
		}
	}
	if abs, err := filepath.Abs(dir); err == nil {
		vars["PWD"] = abs
	}
	for name, value := range cfg.Env {
		vars[name] = value
	}
	env := make([]string, 0, len(vars))
	for _, name := range slices.Sorted(maps.Keys(vars)) {
		env = append(env, name+"="+vars[name])
	}
	return env
}

// safeEnvNames are the variables every stdio server gets from the app's
// environment when they are set: the MCP TypeScript SDK's default set (HOME,
// LOGNAME, PATH, SHELL, TERM, USER) and a few more that are not secrets and
// that programs need to behave:
//   - PATH and HOME: npx and node need them to run at all (PATH finds node
//     for npx's "#!/usr/bin/env node", HOME holds npm's cache).
//   - LANG, LANGUAGE and LC_*: the person's language and character set;
//     without them text outside ASCII may be mangled.
//   - TZ: the person's time zone when it is set this way.
//   - TMPDIR and XDG_RUNTIME_DIR: where temporary files and sockets belong.
//   - DISPLAY and WAYLAND_DISPLAY: name the screen, so a server can open the
//     person's browser (a stdio bridge to a remote server signing in, for
//     example).
//
// Variables a server needs beyond these are set for it in its settings.
var safeEnvNames = []string{
	"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER",
	"LANG", "LANGUAGE", "TZ",
	"TMPDIR", "XDG_RUNTIME_DIR",
	"DISPLAY", "WAYLAND_DISPLAY",
}

// safeEnv reports whether a variable of the app's environment goes to every
// stdio server (see safeEnvNames).
func safeEnv(name string) bool {
	return slices.Contains(safeEnvNames, name) || strings.HasPrefix(name, "LC_")
}

func (p *stdioProcess) transport(guard *wireGuard) sdk.Transport {
	return stdioTransport{p: p, guard: guard}
}

// stdioTransport is the SDK's command transport with the host's wire
// reading (rawschema.go, wirelimit.go), remembering the connection it made
// for exitError.
type stdioTransport struct {
	p     *stdioProcess
	guard *wireGuard
}

func (t stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	fwd := newForwarder()
	c, err := rawSchemaTransport{commandTransport{cmd: t.p.cmd, fwd: fwd}, t.guard, fwd}.Connect(ctx)
	if err == nil {
		t.p.conn.Store(&c)
		t.p.fwd.Store(fwd)
	}
	return c, err
}

// killGroup stops every process left in the child's group. The
// connection's Close (exitError) has already closed stdin and signalled the
// leader; this catches the rest.
func (p *stdioProcess) killGroup() {
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// exitError describes how the process ended. It closes the connection if
// nothing has yet (which stops the process) and waits until the close is
// done: the SDK's close is what waits for the process, possibly on another
// goroutine, so the process state is read only from what that close
// returned, never from exec.Cmd while it may still be written. It returns
// nil when the process never started or did not end.
func (p *stdioProcess) exitError() error {
	c := p.conn.Load()
	if c == nil {
		return nil
	}
	err := (*c).Close()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return &exitedError{command: p.cmd.Path, state: exit.ProcessState}
	case err == nil:
		// The close returned the process's successful Wait, so its state
		// is written and no longer changes.
		return &exitedError{command: p.cmd.Path, state: p.cmd.ProcessState}
	}
	return nil // it did not end (the SDK gave up waiting), or stdin could not be closed
}

// ErrOtherOrigin is wrapped by the error of a request a remote server
// tried to send elsewhere than its own origin (a redirect, a legacy SSE
// endpoint): Gatehouse does not send it, so the person's headers and
// sign-in never leave for an address they did not configure.
var ErrOtherOrigin = i18n.Err("mcp.http.otherOriginShort")

// headerTransport sends a remote server's requests only to the origin of
// its configured URL, with the user's configured headers, and records
// whether any POST was answered with a 4xx status, which is how a legacy
// SSE-only server answers a Streamable HTTP initialize. A request for
// another origin (a legacy SSE endpoint elsewhere, a redirect) is refused,
// and the first refusal kept to say why the connection failed.
type headerTransport struct {
	base    http.RoundTripper
	origin  *url.URL // the configured URL
	headers map[string]string
	post4xx atomic.Bool
	refused atomic.Pointer[error]
	// rawSchema rewrites response bodies to carry form schemas past the
	// SDK (see rawschema.go); only Streamable HTTP needs it.
	rawSchema bool
	// guard bounds every response body and ends the connection whose
	// server sends too much (wirelimit.go).
	guard *wireGuard
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !linkcheck.SameOrigin(req.URL, t.origin) {
		return nil, t.refuse(i18n.M("mcp.http.otherOrigin", "to", linkcheck.Origin(req.URL), "origin", linkcheck.Origin(t.origin)))
	}
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil {
		resp.Body = t.guard.body(resp, t.rawSchema)
	}
	if err == nil && req.Method == http.MethodPost && resp.StatusCode >= 400 && resp.StatusCode < 500 &&
		resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		t.post4xx.Store(true)
	}
	return resp, err
}

// refuse makes the error of a request for another origin, keeping the first.
func (t *headerTransport) refuse(msg i18n.Message) error {
	err := error(&i18n.Error{Message: msg, Err: ErrOtherOrigin})
	t.refused.CompareAndSwap(nil, &err)
	return err
}

// refusal is the first request refused for another origin, or nil.
func (t *headerTransport) refusal() error {
	if p := t.refused.Load(); p != nil {
		return *p
	}
	return nil
}

// client is the HTTP client over t: it follows a redirect only within the
// origin, and refuses one to another origin with a sentence.
func (t *headerTransport) client() *http.Client {
	return &http.Client{Transport: t, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if !linkcheck.SameOrigin(req.URL, t.origin) {
			return t.refuse(i18n.M("mcp.http.redirectOtherOrigin", "to", linkcheck.Origin(req.URL), "origin", linkcheck.Origin(t.origin)))
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}}
}

// connectHTTP connects over Streamable HTTP and, when the server answers the
// initialize POST with a 4xx status, falls back to the legacy HTTP+SSE
// transport as the specification's backwards-compatibility section advises.
// guard bounds what either reads (wirelimit.go).
func connectHTTP(ctx context.Context, client *sdk.Client, cfg *store.HTTPConfig, oauth auth.OAuthHandler, copts *sdk.ClientSessionOptions, log *serverLog, guard *wireGuard) (*sdk.ClientSession, string, error) {
	u, err := parseServerURL(cfg.URL)
	if err != nil {
		return nil, "", err
	}
	ht := &headerTransport{base: http.DefaultTransport, origin: u, headers: cfg.Headers, rawSchema: true, guard: guard}
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: u.String(), HTTPClient: ht.client(), OAuthHandler: oauth,
		MaxEventSize: sdkMaxEventSize}, copts)
	if err == nil {
		return cs, "streamable HTTP", nil
	}
	if refused := ht.refusal(); refused != nil {
		log.event("refused: " + err.Error())
		return nil, "", refused
	}
	if !ht.post4xx.Load() || ctx.Err() != nil {
		return nil, "", err
	}
	log.event("Streamable HTTP was refused (" + err.Error() + "); trying legacy SSE")
	sseHeaders := &headerTransport{base: http.DefaultTransport, origin: u, headers: cfg.Headers, guard: guard}
	sse := &sdk.SSEClientTransport{Endpoint: u.String(), HTTPClient: sseHeaders.client(), MaxEventSize: sdkMaxEventSize}
	cs, sseErr := client.Connect(ctx, rawSchemaTransport{sse, guard, nil}, copts)
	if refused := sseHeaders.refusal(); sseErr != nil && refused != nil {
		log.event("refused: " + sseErr.Error())
		return nil, "", refused
	}
	if sseErr != nil {
		return nil, "", errors.Join(err, sseErr)
	}
	return cs, "legacy SSE", nil
}
