package demo

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// URL mode elicitation (protocol 2025-11-25 and later): the server sends the
// person to a web page for what must not pass through the host, and says
// when the page is done with notifications/elicitation/complete. The demo
// serves its own pages on a loopback port so the whole flow can be tried
// without any account anywhere.

// lookalikeURL spells "paypal" with a Cyrillic а (U+0430), so that the
// host's link-safety warning can be seen.
const lookalikeURL = "https://p\u0430ypal.com/verify"

// urlPages is the demo's loopback web server: one page per elicitationId,
// each remembering the session that asked, so that finishing the page tells
// that session's client.
type urlPages struct {
	once     sync.Once
	startErr error
	base     string // http://127.0.0.1:PORT
	srv      *http.Server

	mu          sync.Mutex
	flows       map[string]*urlFlow
	finishedAny bool
}

type urlFlow struct {
	session  *sdk.ServerSession
	finished bool
}

// start starts the page server on the first call and returns its base URL.
// It runs until the process exits (or close, in tests).
func (p *urlPages) start() (string, error) {
	p.once.Do(func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			p.startErr = fmt.Errorf("starting the demo web pages: %w", err)
			return
		}
		p.base = "http://" + ln.Addr().String()
		mux := http.NewServeMux()
		mux.HandleFunc("GET /connect/{id}", p.showConnect)
		// Only POST finishes: a link prefetcher or preview that GETs the
		// finish URL gets 405 and completes nothing.
		mux.HandleFunc("POST /connect/{id}/finish", p.finish)
		srv := &http.Server{Handler: p.guard(mux), ReadHeaderTimeout: 10 * time.Second}
		p.mu.Lock()
		p.srv = srv
		p.mu.Unlock()
		go func() { _ = srv.Serve(ln) }()
	})
	return p.base, p.startErr
}

// close stops the page server, if it was started.
func (p *urlPages) close() {
	p.mu.Lock()
	srv := p.srv
	p.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// newFlow registers a fresh elicitationId for session and returns it with
// the URL of its page.
func (p *urlPages) newFlow(session *sdk.ServerSession) (id, url string, err error) {
	base, err := p.start()
	if err != nil {
		return "", "", err
	}
	id = rand.Text()
	p.mu.Lock()
	if p.flows == nil {
		p.flows = map[string]*urlFlow{}
	}
	p.flows[id] = &urlFlow{session: session}
	p.mu.Unlock()
	return id, base + "/connect/" + id, nil
}

// anyFinished reports whether any page was finished.
func (p *urlPages) anyFinished() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.finishedAny
}

// guard refuses requests whose Host is not the loopback address the pages
// are served on (DNS rebinding) and cross-origin form posts.
func (p *urlPages) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if "http://"+r.Host != p.base {
			http.Error(w, "wrong host", http.StatusMisdirectedRequest)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != p.base {
			http.Error(w, "cross-origin request refused", http.StatusForbidden)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

func (p *urlPages) known(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.flows[id]
	return ok
}

func (p *urlPages) showConnect(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !p.known(id) {
		http.NotFound(w, r)
		return
	}
	writePage(w, "Connect your demo account", `<h1>Connect your demo account</h1>
<p>This page stands in for a real sign-in. Nothing you do here leaves your computer.</p>
<form method="post" action="/connect/`+html.EscapeString(id)+`/finish"><button type="submit">Finish</button></form>`)
}

func (p *urlPages) finish(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	p.mu.Lock()
	f, ok := p.flows[id]
	first := ok && !f.finished
	if ok {
		f.finished = true
		p.finishedAny = true
	}
	p.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	// The page is answered before the host is told: a host that ends this
	// server as soon as it hears (a finished command-line call does) must
	// not leave the browser with a broken connection instead of "Done".
	writePage(w, "Done", `<h1>Done</h1>
<p>Done — you can close this tab and return to Gatehouse.</p>`)
	if flusher, ok := w.(http.Flusher); ok {
		flusher.Flush()
	}
	if first {
		// The session may be gone; then there is nobody left to tell.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = f.session.NotifyElicitationComplete(ctx, &sdk.ElicitationCompleteParams{ElicitationID: id})
		cancel()
	}
}

func writePage(w http.ResponseWriter, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>%s</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1.5rem}</style>
</head><body>
%s
</body></html>
`, html.EscapeString(title), body)
}

// clientOpensURLs reports whether the client declared URL mode elicitation.
func clientOpensURLs(req *sdk.CallToolRequest) bool {
	p := req.Session.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil && p.Capabilities.Elicitation.URL != nil
}

var errNoURLMode = errors.New("this client cannot open web pages for a server: it did not declare URL mode elicitation")

// askURL is ask for a URL-mode question. build makes the request's params
// and runs only when the question is actually sent, so that a tool called
// again with the answer (input requests) does not create a second page.
func (c *conversation) askURL(key string, build func() (*sdk.ElicitParams, error)) (*sdk.ElicitResult, *sdk.CallToolResult, error) {
	if r, ok := c.answers[key]; ok {
		return r, nil, nil
	}
	params, err := build()
	if err != nil {
		return nil, nil, err
	}
	if c.usesInputRequests() {
		state, _ := json.Marshal(c.answers)
		return nil, &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{key: params}, RequestState: string(state)}, nil
	}
	r, err := c.req.Session.Elicit(c.ctx, params)
	if err != nil {
		return nil, nil, err
	}
	c.answers[key] = r
	return r, nil, nil
}

func errorResult(err error) *sdk.CallToolResult {
	var res sdk.CallToolResult
	res.SetError(err)
	return &res
}

// addURLTools registers the tools that send the person to a web page.
func addURLTools(s *sdk.Server) {
	registerURLTools(s, &urlPages{})
}

func registerURLTools(s *sdk.Server, pages *urlPages) {
	noArgs := json.RawMessage(`{"type":"object"}`)

	s.AddTool(&sdk.Tool{Name: "connect_account", Title: "Connect an account (opens a web page)",
		Description: "Asks you to open a local sign-in page (URL mode); pressing Finish there tells the host the flow is done.",
		InputSchema: noArgs},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if !clientOpensURLs(req) {
				return errorResult(errNoURLMode), nil
			}
			res, pending, err := newConversation(ctx, req).askURL("connect", func() (*sdk.ElicitParams, error) {
				id, url, err := pages.newFlow(req.Session)
				if err != nil {
					return nil, err
				}
				return &sdk.ElicitParams{Mode: "url", Message: "Sign in to the demo account service to connect it.", URL: url, ElicitationID: id}, nil
			})
			if pending != nil || err != nil {
				return pending, err
			}
			if res.Action == "accept" {
				return resultText("Opened the sign-in page; finish there."), nil
			}
			return resultText(res.Action), nil
		})

	s.AddTool(&sdk.Tool{Name: "sync_calendar", Title: "Sync a calendar (needs a finished sign-in, -32042)",
		Description: "Fails with URLElicitationRequired (-32042) until a sign-in page of this server was finished, then succeeds.",
		InputSchema: noArgs},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if pages.anyFinished() {
				return resultText("Calendar synced: 3 events."), nil
			}
			if !clientOpensURLs(req) {
				return errorResult(errNoURLMode), nil
			}
			id, url, err := pages.newFlow(req.Session)
			if err != nil {
				return errorResult(err), nil
			}
			// Returned as is, a *jsonrpc.Error reaches the client as the
			// JSON-RPC error of tools/call, code and data intact.
			return nil, sdk.URLElicitationRequiredError([]*sdk.ElicitParams{
				{Mode: "url", Message: "Connect your calendar account first.", URL: url, ElicitationID: id},
			})
		})

	s.AddTool(&sdk.Tool{Name: "lookalike_link", Title: "A look-alike link (shows the warning)",
		Description: "Asks you to open a link whose host imitates a well-known one with a Cyrillic letter.",
		InputSchema: noArgs},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if !clientOpensURLs(req) {
				return errorResult(errNoURLMode), nil
			}
			res, pending, err := newConversation(ctx, req).askURL("link", func() (*sdk.ElicitParams, error) {
				return &sdk.ElicitParams{Mode: "url", Message: "Verify your payment details.", URL: lookalikeURL, ElicitationID: rand.Text()}, nil
			})
			if pending != nil || err != nil {
				return pending, err
			}
			return resultText(res.Action), nil
		})
}
