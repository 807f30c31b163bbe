package oauthflow

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/visible"
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
//
// It also serves each sign-in's start page (Wait.StartURL), the address
// the person's browser opens when they agree to sign in: nothing is sent to
// the server's authorization server before that agreement, so its sign-in
// page is not known yet when the person is asked. The start page waits
// until it is (Wait.Proceed) and sends the browser on to it, or says why the
// sign-in stopped (Wait.Stop).
type Redirect struct {
	port int

	mu     sync.Mutex
	srv    *http.Server     // nil while no sign-in waits
	waits  map[string]*Wait // by the authorization request's state
	starts map[string]*Wait // by the start page's key
}

// NewRedirect picks a free loopback port and listens on it at once: the
// first sign-in (which registers the redirect URI) follows immediately, so
// the port cannot be taken in between. The caller then calls Begin for that
// sign-in, as for every later one.
func NewRedirect() (*Redirect, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("no loopback port for the sign-in redirect: %w", err)
	}
	r := &Redirect{port: l.Addr().(*net.TCPAddr).Port, waits: map[string]*Wait{}, starts: map[string]*Wait{}}
	r.serveLocked(l)
	return r, nil
}

// serveLocked serves the callback on l. r.mu is held (or r is new).
func (r *Redirect) serveLocked(l net.Listener) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /callback", r.callback)
	mux.HandleFunc("GET /start", r.start)
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func(srv *http.Server) { _ = srv.Serve(l) }(r.srv)
}

// URL is the redirect URI to register and to send in authorization requests.
func (r *Redirect) URL() string {
	return r.origin() + "/callback"
}

// origin is the redirect's address without a path.
func (r *Redirect) origin() string { return "http://127.0.0.1:" + strconv.Itoa(r.port) }

// ErrPortTaken means another program took the redirect port while no
// sign-in waited. The Redirect cannot be used again: the caller makes a new
// one (a new port) for the next sign-in.
var ErrPortTaken = errors.New("the sign-in redirect port was taken by another program; sign in again")

// Close stops the listener; a later Begin listens again on the same port.
func (r *Redirect) Close() {
	r.mu.Lock()
	srv := r.srv
	r.srv = nil
	r.mu.Unlock()
	shutdown(srv)
}

// shutdown stops srv (nil: nothing), giving a page being written a moment.
func shutdown(srv *http.Server) {
	if srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
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
			w.fail <- fmt.Errorf("the sign-in was refused: %s", ServerLine(e+" "+q.Get("error_description")))
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

// start is a sign-in's start page: once the authorization server's
// sign-in page is known it sends the browser there (303), or it says why
// the sign-in stopped. Opening it again does the same.
func (r *Redirect) start(rw http.ResponseWriter, req *http.Request) {
	key := req.URL.Query().Get("s")
	r.mu.Lock()
	w := r.starts[key]
	r.mu.Unlock()
	if w == nil || key == "" {
		page(rw, http.StatusBadRequest, i18n.M("signin.page.unknown"))
		return
	}
	select {
	case <-w.decided:
	case <-req.Context().Done():
		return
	}
	defer w.seenOnce.Do(func() { close(w.seen) })
	if w.next == "" {
		page(rw, http.StatusOK, w.stopped)
		return
	}
	rw.Header().Set("Referrer-Policy", "no-referrer")
	rw.Header().Set("Cache-Control", "no-store")
	http.Redirect(rw, req, w.next, http.StatusSeeOther)
}

// startLinger is how long a start page the browser was sent to, but has not
// opened yet, stays served after its sign-in ended, so that the browser can
// still say why (a sign-in may fail before the browser has started).
var startLinger = 30 * time.Second

// Wait is one sign-in's wait at the loopback address: its start page sends
// the browser on to the authorization server, and the redirect that
// carries its state comes back, once. Close it when the sign-in ends.
type Wait struct {
	r     *Redirect
	key   string // the start page's
	state string // the authorization request's, once Expect named it
	got   chan *auth.AuthorizationResult
	fail  chan error
	once  sync.Once

	decide  sync.Once
	decided chan struct{} // closed by Proceed or Stop
	next    string        // where the start page sends the browser; "" after Stop
	stopped i18n.Message  // the start page's text, after Stop

	opened   atomic.Bool   // the person's browser was sent to the start page
	seen     chan struct{} // closed once the start page has answered the browser
	seenOnce sync.Once
}

// Begin starts a sign-in's wait, listening on the port again if no other
// sign-in waits; the browser is sent to its StartURL. It fails with an
// error wrapping ErrPortTaken when another program took the port meanwhile.
func (r *Redirect) Begin() (*Wait, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.listenLocked(); err != nil {
		return nil, err
	}
	w := &Wait{r: r, key: hex.EncodeToString(b[:]), got: make(chan *auth.AuthorizationResult, 1), fail: make(chan error, 1),
		decided: make(chan struct{}), seen: make(chan struct{})}
	r.starts[w.key] = w
	return w, nil
}

// listenLocked listens on the port again, the one the clients registered,
// when no sign-in waits. r.mu is held.
func (r *Redirect) listenLocked() error {
	if r.srv != nil {
		return nil
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(r.port))
	if err != nil {
		return fmt.Errorf("%w (port %d: %v)", ErrPortTaken, r.port, err)
	}
	r.serveLocked(l)
	return nil
}

// StartURL is the sign-in's start page, for the person's browser.
func (w *Wait) StartURL() string { return w.r.origin() + "/start?s=" + w.key }

// Expect names the state of the authorization request, whose redirect the
// wait then takes.
func (w *Wait) Expect(state string) error {
	w.r.mu.Lock()
	defer w.r.mu.Unlock()
	if _, dup := w.r.waits[state]; dup || w.state != "" {
		return errors.New("a sign-in with the same state is already waiting")
	}
	w.state = state
	w.r.waits[state] = w
	return nil
}

// Proceed sends the browser from the start page on to authURL, the
// authorization server's sign-in page, checked by the caller.
func (w *Wait) Proceed(authURL string) {
	w.decide.Do(func() {
		w.next = authURL
		close(w.decided)
	})
}

// Stop ends the start page with why the sign-in stopped, unless it already
// sent the browser on.
func (w *Wait) Stop(why i18n.Message) { w.end(i18n.M("signin.page.failed", "detail", why)) }

// end ends the start page with text, unless it already sent the browser on.
func (w *Wait) end(text i18n.Message) {
	w.decide.Do(func() {
		w.stopped = text
		close(w.decided)
	})
}

// Opened records that the person's browser was sent to the start page: if
// the sign-in ends before the browser opened it, the page stays served for
// a while (startLinger) to say why.
func (w *Wait) Opened() { w.opened.Store(true) }

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

// Close ends the wait (and its start page, if still waiting); the listener
// closes when no other sign-in waits, so the port is open only while the
// browser is expected.
func (w *Wait) Close() {
	w.end(i18n.M("signin.page.ended"))
	w.r.mu.Lock()
	if w.state != "" {
		delete(w.r.waits, w.state) // no answer is taken any more
	}
	w.r.mu.Unlock()
	select {
	case <-w.seen:
	default:
		if w.opened.Load() {
			go func() {
				select {
				case <-w.seen:
				case <-time.After(startLinger):
				}
				w.closeStart()
			}()
			return
		}
	}
	w.closeStart()
}

// closeStart stops serving the start page, and the listener when no other
// sign-in waits.
func (w *Wait) closeStart() {
	w.r.mu.Lock()
	delete(w.r.starts, w.key)
	var srv *http.Server
	if len(w.r.waits) == 0 && len(w.r.starts) == 0 {
		// Decided under the lock, so that a sign-in beginning now listens
		// again instead of finding a server about to stop.
		srv, w.r.srv = w.r.srv, nil
	}
	w.r.mu.Unlock()
	shutdown(srv)
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

// maxServerLine bounds the authorization server's own words in a refusal,
// in characters.
const maxServerLine = 300

// ServerLine is an authorization server's text as the person's window
// shows it in a server's status: one line, its hidden characters written
// as <U+XXXX>, cut at maxServerLine characters.
func ServerLine(text string) string {
	text = strings.Join(strings.Fields(visible.Mark(text)), " ")
	if r := []rune(text); len(r) > maxServerLine {
		text = string(r[:maxServerLine]) + "…"
	}
	return text
}
