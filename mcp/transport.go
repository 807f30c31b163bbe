package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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
			return fmt.Errorf("%w: a stdio server needs a command", ErrBadConfig)
		}
	case store.TransportHTTP:
		if srv.HTTP == nil || strings.TrimSpace(srv.HTTP.URL) == "" {
			return fmt.Errorf("%w: an HTTP server needs a URL", ErrBadConfig)
		}
		if _, err := parseServerURL(srv.HTTP.URL); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w: unknown transport %q (use stdio or http)", ErrBadConfig, srv.Transport)
	}
	return nil
}

// parseServerURL accepts only absolute http and https URLs with a host.
func parseServerURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: the URL cannot be read: %v", ErrBadConfig, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%w: the URL must start with http:// or https://", ErrBadConfig)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%w: the URL has no host", ErrBadConfig)
	}
	if u.User != nil {
		return nil, fmt.Errorf("%w: the URL must not contain a user name or password; use a header instead", ErrBadConfig)
	}
	return u, nil
}

// Where says where a server runs, for people: the command line of a stdio
// server or the URL of an HTTP server.
func Where(srv store.Server) string {
	switch {
	case srv.Transport == store.TransportStdio && srv.Stdio != nil:
		return strings.Join(append([]string{srv.Stdio.Command}, srv.Stdio.Args...), " ")
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
}

func newStdioProcess(cfg *store.StdioConfig, stderr *serverLog) *stdioProcess {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = os.Environ()
	for k, v := range cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Dir = cfg.Dir
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &stdioProcess{cmd: cmd}
}

func (p *stdioProcess) transport() sdk.Transport {
	return rawSchemaTransport{&sdk.CommandTransport{Command: p.cmd, TerminateDuration: stdioTerminateWait}}
}

// killGroup stops every process left in the child's group. The SDK's Close
// has already closed stdin and signalled the leader; this catches the rest.
func (p *stdioProcess) killGroup() {
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// exitError describes how the process ended, once it has been waited for.
func (p *stdioProcess) exitError() error {
	if p.cmd.ProcessState == nil {
		return nil
	}
	return &exitedError{command: p.cmd.Path, state: p.cmd.ProcessState}
}

// headerTransport adds the user's configured headers to every request and
// records whether any POST was answered with a 4xx status, which is how a
// legacy SSE-only server answers a Streamable HTTP initialize.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	post4xx atomic.Bool
	// rawSchema rewrites response bodies to carry form schemas past the
	// SDK (see rawschema.go); only Streamable HTTP needs it.
	rawSchema bool
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && t.rawSchema && isMessageBody(resp.Header.Get("Content-Type")) {
		resp.Body = rawSchemaBody(resp.Body)
	}
	if err == nil && req.Method == http.MethodPost && resp.StatusCode >= 400 && resp.StatusCode < 500 &&
		resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		t.post4xx.Store(true)
	}
	return resp, err
}

// connectHTTP connects over Streamable HTTP and, when the server answers the
// initialize POST with a 4xx status, falls back to the legacy HTTP+SSE
// transport as the specification's backwards-compatibility section advises.
func connectHTTP(ctx context.Context, client *sdk.Client, cfg *store.HTTPConfig, oauth auth.OAuthHandler, copts *sdk.ClientSessionOptions, log *serverLog) (*sdk.ClientSession, string, error) {
	u, err := parseServerURL(cfg.URL)
	if err != nil {
		return nil, "", err
	}
	ht := &headerTransport{base: http.DefaultTransport, headers: cfg.Headers, rawSchema: true}
	httpClient := &http.Client{Transport: ht}
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: u.String(), HTTPClient: httpClient, OAuthHandler: oauth}, copts)
	if err == nil {
		return cs, "streamable HTTP", nil
	}
	if !ht.post4xx.Load() || ctx.Err() != nil {
		return nil, "", err
	}
	log.event("Streamable HTTP was refused (" + err.Error() + "); trying legacy SSE")
	sseHTTP := &http.Client{Transport: &headerTransport{base: http.DefaultTransport, headers: cfg.Headers}}
	cs, sseErr := client.Connect(ctx, rawSchemaTransport{&sdk.SSEClientTransport{Endpoint: u.String(), HTTPClient: sseHTTP}}, copts)
	if sseErr != nil {
		return nil, "", errors.Join(err, sseErr)
	}
	return cs, "legacy SSE", nil
}
