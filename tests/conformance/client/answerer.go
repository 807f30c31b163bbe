package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// autoAnswerer stands in for the person at Gatehouse's elicitation dialog. It
// accepts every request: a form with each field's default (a field with no
// default is left empty, as the dialog would leave it), a URL request without
// opening anything, and a sign-in consent, after which it plays the browser
// (see browse). The broker in front of it still checks every request and
// validates every answer, exactly as in the app.
type autoAnswerer struct {
	mu       sync.Mutex
	received []*mcp.Question
	// browserFailed receives what went wrong when the stand-in browser could
	// not finish a sign-in, so that the client stops at once instead of
	// waiting for a redirect that will never come.
	browserFailed chan error
}

func newAutoAnswerer() *autoAnswerer {
	return &autoAnswerer{browserFailed: make(chan error, 1)}
}

var _ mcp.Answerer = (*autoAnswerer)(nil)

func (a *autoAnswerer) Present(_ context.Context, req *mcp.Question) (mcp.Response, error) {
	a.mu.Lock()
	a.received = append(a.received, req)
	a.mu.Unlock()
	if req.Kind == mcp.KindSignIn {
		// Accepting means "I opened it in my browser": the browser then goes
		// on by itself while Gatehouse waits at its loopback redirect.
		logf("sign-in request from %s: %q at %s -> accept and open it", req.Peer.Server.Name, req.Message, req.Link.URL)
		go a.browse(req.Link.URL)
		return mcp.Response{Action: mcp.ActionAccept}, nil
	}
	if req.Kind == "url" {
		logf("elicitation (url) from %s: %q -> accept (nothing opened)", req.Peer.Server.Name, req.Message)
		return mcp.Response{Action: mcp.ActionAccept}, nil
	}
	values := map[string]any{}
	if req.Form != nil {
		for _, f := range req.Form.Fields {
			if f.Default != nil {
				values[f.Name] = f.Default
			}
		}
	}
	if errs := req.Validate(values); len(errs) > 0 {
		// The dialog would not let the person submit this; the broker would
		// turn it into a cancel. Say so, since a scenario may depend on it.
		logf("elicitation (form) from %s: the defaults do not pass validation: %v", req.Peer.Server.Name, errs)
	}
	logf("elicitation (form) from %s: %q -> accept with %v", req.Peer.Server.Name, req.Message, values)
	return mcp.Response{Action: mcp.ActionAccept, Values: values}, nil
}

// browse is the stand-in browser: it loads the authorization URL and follows
// the redirects. The suite's authorization endpoint approves at once and
// redirects to the redirect URI, which is Gatehouse's loopback listener;
// loading that page is what completes the sign-in.
func (a *autoAnswerer) browse(u string) {
	client := &http.Client{Timeout: 10 * time.Second} // follows up to 10 redirects
	resp, err := client.Get(u)
	if err == nil {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		logf("browser: %s -> %s %s: %s", u, resp.Request.URL, resp.Status, body)
		if resp.StatusCode >= 400 {
			err = fmt.Errorf("the sign-in page %s answered %s", resp.Request.URL, resp.Status)
		}
	}
	if err != nil {
		logf("browser: %v", err)
		select {
		case a.browserFailed <- err:
		default:
		}
	}
}

func (a *autoAnswerer) Notify(n mcp.Notice) {
	logf("notice about %s: %s (%d refused)", n.ServerName, n.Kind, n.Refused)
}

func (a *autoAnswerer) OpenedChanged([]mcp.OpenedPage) {}

// requests returns how many requests reached the answerer.
func (a *autoAnswerer) requests() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.received)
}
