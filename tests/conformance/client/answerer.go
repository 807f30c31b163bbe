package main

import (
	"context"
	"sync"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// autoAnswerer stands in for the person at Gatehouse's elicitation dialog. It
// accepts every request: a form with each field's default (a field with no
// default is left empty, as the dialog would leave it), a URL request without
// opening anything; a sign-in consent is declined (no OAuth yet, see
// AUTH_SCENARIOS.md). The broker in front of it still checks every request and
// validates every answer, exactly as in the app.
type autoAnswerer struct {
	mu       sync.Mutex
	received []*mcp.Request
}

var _ mcp.Answerer = (*autoAnswerer)(nil)

func (a *autoAnswerer) Present(_ context.Context, req *mcp.Request) (mcp.Response, error) {
	a.mu.Lock()
	a.received = append(a.received, req)
	a.mu.Unlock()
	if req.Mode == mcp.ModeSignIn {
		// Accepting would mean a browser was opened; this client has none yet.
		logf("sign-in request from %s -> decline: %v", req.Peer.Server.Name, errNoOAuth)
		return mcp.Response{Action: mcp.ActionDecline}, nil
	}
	if req.Mode == "url" {
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

func (a *autoAnswerer) QueueChanged([]mcp.QueueEntry) {}

func (a *autoAnswerer) Notify(n mcp.Notice) {
	logf("notice about %s: %s (%d refused)", n.ServerName, n.Kind, n.Refused)
}

func (a *autoAnswerer) OpenedChanged([]mcp.OpenedURL) {}

// requests returns how many requests reached the answerer.
func (a *autoAnswerer) requests() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.received)
}
