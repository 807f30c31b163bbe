// Package appframe keeps the window's bridge to Go out of reach of the
// frames in its page, and serves the files of the MCP Apps that run in those
// frames, each instance on an origin of its own.
//
// Wails registers its message handler "external" with the WebKit view's
// user content manager in the main script world, and WebKit exposes such a
// handler to every frame of the page: an iframe, sandboxed or not, from
// another origin or not, could post a binding call to Go, and Wails' origin
// check reads the top-level page's address, not the frame's. Install moves
// that handler into an isolated script world before the first document
// loads; a user script in that world, injected into the top frame only,
// relays to it what the top frame's main world dispatches on its own
// document, and a main-world user script, in the top frame only, gives
// Wails' runtime the chrome.webview.postMessage it looks for (ipc.js) that
// dispatches that event. No other frame has the handler, the shim or a way
// to dispatch an event on the top document.
//
// Apps are served on the custom URI scheme Scheme, one host per app
// instance (Serve, Forget), so that each instance is an origin of its own,
// neither the window's nor another app's. This package knows nothing of the
// MCP Apps protocol: the caller gives the files and their headers, among
// them the Content-Security-Policy built from the app's declaration.
//
// For the frame's sandbox attribute (TestAppPolicyFromHeaders): with
// allow-scripts alone an app's origin is opaque, its policy's 'self'
// matches nothing and a fetch of its own files is cross-origin, which the
// scheme (not CORS-enabled) refuses; allow-scripts allow-same-origin keeps
// the instance's own origin, which is neither the window's nor another
// app's, and reaches no more of the window (TestBridgeOnlyInTheTopFrame).
package appframe

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/net/http/httpguts"
)

// Scheme is the URI scheme the apps' files are served on:
// gatehouse-app://INSTANCE/PATH.
const Scheme = "gatehouse-app"

// defaultPolicy is the Content-Security-Policy of a response whose file
// names none: nothing may load or run. A caller that forgets the policy
// gets an app that does not work, never one that does more than declared.
const defaultPolicy = "default-src 'none'"

// File is one file of an app instance.
type File struct {
	// Path is the file's path in the instance's URL, starting with a slash
	// ("/index.html").
	Path string
	// ContentType is its media type with parameters
	// ("text/html; charset=utf-8").
	ContentType string
	// Body is its content.
	Body []byte
	// Header holds the response headers sent with it, among them
	// Content-Security-Policy (without one, defaultPolicy is sent).
	Header http.Header
}

// ErrNotIsolated is returned by Serve until Install has moved the window's
// bridge out of the page's frames: no app is served into a page whose
// frames could reach Go.
var ErrNotIsolated = errors.New("the window's bridge is not isolated from its frames")

var (
	// isolated is set once the bridge of the window's view is in its
	// isolated world (see Install).
	isolated atomic.Bool

	mu        sync.Mutex
	instances = map[string]map[string]File{} // by instance ID, then path
)

// NewInstanceID returns a new random instance ID: 32 lower-case hex digits,
// a valid host name, which nobody can guess from another instance's.
func NewInstanceID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// Origin is the origin of instance id: the URL its files are under.
func Origin(id string) string { return Scheme + "://" + id }

// validID reports whether id is usable as a URL host that stays as it is:
// 1 to 63 lower-case letters, digits and hyphens (a DNS label; WebKit
// lower-cases a host).
func validID(id string) bool {
	if id == "" || len(id) > 63 || id[0] == '-' || id[len(id)-1] == '-' {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Serve makes files the files of instance id (replacing any it had), served
// at Origin(id)+file.Path. It fails with ErrNotIsolated until Install has
// isolated the window's bridge.
func Serve(id string, files ...File) error {
	if !isolated.Load() {
		return fmt.Errorf("serving app instance %s: %w", id, ErrNotIsolated)
	}
	if !validID(id) {
		return fmt.Errorf("serving app instance %q: not a valid instance ID", id)
	}
	byPath := make(map[string]File, len(files))
	for _, f := range files {
		if !strings.HasPrefix(f.Path, "/") {
			return fmt.Errorf("serving app instance %s: path %q does not start with /", id, f.Path)
		}
		// WebKit's header list refuses what HTTP would: a policy it dropped
		// would leave the app with none.
		for k, vs := range f.Header {
			for _, v := range vs {
				if !httpguts.ValidHeaderFieldName(k) || !httpguts.ValidHeaderFieldValue(v) {
					return fmt.Errorf("serving app instance %s: %s: header %q: %q is not a valid header", id, f.Path, k, v)
				}
			}
		}
		if !httpguts.ValidHeaderFieldValue(f.ContentType) {
			return fmt.Errorf("serving app instance %s: %s: content type %q is not a valid header", id, f.Path, f.ContentType)
		}
		byPath[f.Path] = f
	}
	mu.Lock()
	defer mu.Unlock()
	instances[id] = byPath
	return nil
}

// Forget stops serving instance id: its addresses answer 404 from now on.
func Forget(id string) {
	mu.Lock()
	defer mu.Unlock()
	delete(instances, id)
}

// response is what a request of the scheme is answered with.
type response struct {
	status int
	header http.Header // Content-Type included
	body   []byte
}

// answer returns the response to a method request of instance id's path:
// the file with its headers, 404 for an instance or file unknown, 405 for
// anything but GET. Every response carries a Content-Security-Policy and
// is not cached or sniffed.
func answer(method, id, path string) response {
	if path == "" {
		path = "/"
	}
	mu.Lock()
	f, ok := instances[id][path]
	mu.Unlock()
	r := response{status: http.StatusOK, header: http.Header{}}
	switch {
	case method != "" && method != http.MethodGet:
		r.status = http.StatusMethodNotAllowed
	case !ok:
		r.status = http.StatusNotFound
	default:
		for k, vs := range f.Header {
			r.header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
		}
		r.body = f.Body
		if f.ContentType != "" {
			r.header.Set("Content-Type", f.ContentType)
		}
	}
	if r.status != http.StatusOK {
		r.header = http.Header{}
		r.body = []byte(http.StatusText(r.status))
		r.header.Set("Content-Type", "text/plain; charset=utf-8")
	}
	if r.header.Get("Content-Type") == "" {
		r.header.Set("Content-Type", "application/octet-stream")
	}
	if len(r.header.Values("Content-Security-Policy")) == 0 {
		r.header.Set("Content-Security-Policy", defaultPolicy)
	}
	r.header.Set("Cache-Control", "no-store")
	r.header.Set("X-Content-Type-Options", "nosniff")
	return r
}
