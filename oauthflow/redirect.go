package oauthflow

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Redirect is the redirect URI of RFC 8252:
// http://127.0.0.1:PORT/callback. An app keeps one for all its sign-ins,
// since the clients it registers name its port. The port is chosen at the
// first sign-in and listened on from then until that sign-in ends, so no
// other program can take it between the client registration (which names
// it) and the browser's return. Between sign-ins nothing listens; a later
// sign-in listens on the same port again, and if another program took it,
// that sign-in fails with a sentence and the next one picks a new port. It
// answers only a redirect that carries the state of a sign-in waiting now,
// once; anything else gets a page saying so.
type Redirect struct {
	port int

	mu    sync.Mutex
	srv   *http.Server     // nil while no sign-in waits
	waits map[string]*Wait // by state
}

// NewRedirect picks a free loopback port and listens on it at once: the
// first sign-in (which registers the redirect URI) follows immediately, so
// the port cannot be taken in between. The caller then calls Listen for that
// sign-in, as for every later one.
func NewRedirect() (*Redirect, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("no loopback port for the sign-in redirect: %w", err)
	}
	r := &Redirect{port: l.Addr().(*net.TCPAddr).Port, waits: map[string]*Wait{}}
	r.serveLocked(l)
	return r, nil
}

// serveLocked serves the callback on l. r.mu is held (or r is new).
func (r *Redirect) serveLocked(l net.Listener) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /callback", r.callback)
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func(srv *http.Server) { _ = srv.Serve(l) }(r.srv)
}

// URL is the redirect URI to register and to send in authorization requests.
func (r *Redirect) URL() string {
	return "http://127.0.0.1:" + strconv.Itoa(r.port) + "/callback"
}

// ErrPortTaken means another program took the redirect port while no
// sign-in waited. The Redirect cannot be used again: the caller makes a new
// one (a new port) for the next sign-in.
var ErrPortTaken = errors.New("the sign-in redirect port was taken by another program; sign in again")

// Close stops the listener; a later Listen listens again on the same port.
func (r *Redirect) Close() {
	r.mu.Lock()
	srv := r.srv
	r.srv = nil
	r.mu.Unlock()
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
}

func (r *Redirect) callback(rw http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	r.mu.Lock()
	w := r.waits[q.Get("state")]
	r.mu.Unlock()
	if w == nil || q.Get("state") == "" {
		page(rw, http.StatusBadRequest, i18n.M("signin.page.unknown"))
		return
	}
	used := true
	w.once.Do(func() {
		used = false
		if e := q.Get("error"); e != "" {
			w.fail <- fmt.Errorf("the sign-in was refused: %s %s", e, q.Get("error_description"))
			return
		}
		w.got <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
	})
	if used {
		page(rw, http.StatusGone, i18n.M("signin.page.used"))
		return
	}
	page(rw, http.StatusOK, i18n.M("signin.page.received"))
}

// Wait is one sign-in's wait at the loopback redirect: it takes the first
// redirect that carries its state, once. Close it when the sign-in ends.
type Wait struct {
	r     *Redirect
	state string
	got   chan *auth.AuthorizationResult
	fail  chan error
	once  sync.Once
}

// Listen starts waiting for the redirect of the sign-in whose authorization
// request carries state, listening on the port again if no other sign-in
// waits. It fails with an error wrapping ErrPortTaken when another program
// took the port meanwhile.
func (r *Redirect) Listen(state string) (*Wait, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.waits[state]; dup {
		return nil, errors.New("a sign-in with the same state is already waiting")
	}
	if r.srv == nil { // listen again, on the port the client registered
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(r.port))
		if err != nil {
			return nil, fmt.Errorf("%w (port %d: %v)", ErrPortTaken, r.port, err)
		}
		r.serveLocked(l)
	}
	w := &Wait{r: r, state: state, got: make(chan *auth.AuthorizationResult, 1), fail: make(chan error, 1)}
	r.waits[state] = w
	return w, nil
}

// Result waits for the redirect, the context, or the timeout. An error
// answer from the authorization server (error=...) is returned as an error.
func (w *Wait) Result(ctx context.Context, timeout time.Duration) (*auth.AuthorizationResult, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case res := <-w.got:
		return res, nil
	case err := <-w.fail:
		return nil, err
	case <-timer.C:
		return nil, i18n.Err("signin.error.noReturn", "duration", i18n.Duration(timeout))
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close ends the wait; the listener closes when no other sign-in waits, so
// the port is open only while the browser is expected back.
func (w *Wait) Close() {
	w.r.mu.Lock()
	delete(w.r.waits, w.state)
	idle := len(w.r.waits) == 0
	w.r.mu.Unlock()
	if idle {
		w.r.Close()
	}
}

// page answers the browser with a small page of plain text, in the language
// Gatehouse speaks (the person's choice, or the system's).
func page(w http.ResponseWriter, code int, msg i18n.Message) {
	lang, text := i18n.Current(), msg.String()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	fmt.Fprintf(w, "<!doctype html><html lang=\"%s\"><meta charset=utf-8><title>Gatehouse</title><p style=\"font:16px system-ui;margin:3em\">%s</p>",
		lang, html.EscapeString(text))
}
