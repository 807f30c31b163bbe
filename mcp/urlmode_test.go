package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

func urlRequest(message, url, id string) *sdk.ElicitRequest {
	return &sdk.ElicitRequest{Params: &sdk.ElicitParams{Mode: "url", Message: message, URL: url, ElicitationID: id}}
}

func withURLMode(p Peer) Peer {
	p.urlMode = true
	return p
}

func TestCheckURLRequest_Refused_E18_E22(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    sdk.ElicitParams
		want string
	}{
		{"no message", sdk.ElicitParams{URL: "https://example.com/", ElicitationID: "1"}, "message"},
		{"no elicitationId", sdk.ElicitParams{Message: "m", URL: "https://example.com/"}, "elicitationId"},
		{"no url", sdk.ElicitParams{Message: "m", ElicitationID: "1"}, "must have a url"},
		{"a form schema too", sdk.ElicitParams{Message: "m", URL: "https://example.com/", ElicitationID: "1", RequestedSchema: map[string]any{}}, "requestedSchema"},
		{"a huge id", sdk.ElicitParams{Message: "m", URL: "https://example.com/", ElicitationID: strings.Repeat("x", 300)}, "elicitationId"},
		{"javascript", sdk.ElicitParams{Message: "m", URL: "javascript:alert(1)", ElicitationID: "1"}, "url is refused"},
		{"file", sdk.ElicitParams{Message: "m", URL: "file:///etc/passwd", ElicitationID: "1"}, "url is refused"},
		{"userinfo", sdk.ElicitParams{Message: "m", URL: "https://example.com@evil.example/", ElicitationID: "1"}, "url is refused"},
		{"plain http", sdk.ElicitParams{Message: "m", URL: "http://example.com/", ElicitationID: "1"}, "url is refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			_, err := checkURLRequest(&p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	// As read from a connection, the schema is carried past the SDK
	// (rawschema.go), which then sees none: the broker still refuses it.
	var wire sdk.ElicitParams
	if err := json.Unmarshal(carrySchema(json.RawMessage(`{"mode":"url","message":"m","url":"https://example.com/","elicitationId":"1","requestedSchema":{"type":"object"}}`)), &wire); err != nil {
		t.Fatal(err)
	}
	if _, err := checkURLRequest(&wire); err == nil || !strings.Contains(err.Error(), "requestedSchema") {
		t.Errorf("a URL request with a schema, read from the wire: err = %v", err)
	}
	link, err := checkURLRequest(&sdk.ElicitParams{Message: "m", URL: "https://accounts.google.com.evil.example/x", ElicitationID: "1"})
	if err != nil || link.Domain != "evil.example" {
		t.Errorf("link = %+v, %v", link, err)
	}
}

// TestBroker_URLMode_E4_E23_E24: a URL request is refused when URL mode was
// not offered; accepted, it answers accept without content and waits for the
// completion notice of its own server and connection only.
func TestBroker_URLMode_E4_E23_E24(t *testing.T) {
	f := newBrokerFixture(t, newScripted(func(r *Question) (Response, bool) {
		if strings.HasPrefix(r.Message, "decline") {
			return Response{Action: ActionDecline}, true
		}
		return Response{Action: ActionAccept}, true
	}), BrokerOptions{})
	ctx := context.Background()

	// E4: not offered to this server.
	_, err := f.broker.Elicit(ctx, f.a, urlRequest("sign in", "https://example.com/", "e1"))
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || f.ans.shownCount() != 0 {
		t.Fatalf("URL request to a server without URL mode: %v, shown %d", err, f.ans.shownCount())
	}

	a, b := withURLMode(f.a), withURLMode(f.b)
	// E18 through the broker: refused, not shown, in the history as invalid.
	if _, err := f.broker.Elicit(ctx, a, urlRequest("", "https://example.com/", "e1")); !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("URL request without message: %v", err)
	}
	if f.ans.shownCount() != 0 {
		t.Fatal("an invalid URL request was shown")
	}

	res, err := f.broker.Elicit(ctx, a, urlRequest("sign in", "https://accounts.example.com/login", "e1"))
	if err != nil || res.Action != ActionAccept || res.Content != nil {
		t.Fatalf("accept = %+v, %v; want accept without content (E23)", res, err)
	}
	shown := f.ans.shown[len(f.ans.shown)-1]
	if shown.Kind != "url" || shown.Link == nil || shown.Link.Domain != "example.com" || shown.ElicitationID != "e1" {
		t.Errorf("shown = %+v", shown)
	}
	opened := f.broker.Opened()
	if len(opened) != 1 || opened[0].ElicitationID != "e1" || !f.broker.Busy(a.Server.ID) {
		t.Fatalf("opened = %+v", opened)
	}
	// E24: another server's completion, an unknown id, or one from another
	// connection of the same server are ignored.
	other := a
	other.session = &sdk.ClientSession{}
	for name, c := range map[string]func() bool{
		"another server":     func() bool { return f.broker.Complete(b, "e1") },
		"an unknown id":      func() bool { return f.broker.Complete(a, "e2") },
		"another connection": func() bool { return f.broker.Complete(other, "e1") },
	} {
		if c() {
			t.Errorf("a completion from %s was honoured", name)
		}
	}
	if len(f.broker.Opened()) != 1 {
		t.Fatal("the opened request ended early")
	}
	if !f.broker.Complete(a, "e1") || len(f.broker.Opened()) != 0 || f.broker.Busy(a.Server.ID) {
		t.Fatal("the server's own completion was not honoured")
	}
	if f.broker.Complete(a, "e1") {
		t.Error("a second completion for the same id was honoured")
	}

	// Declined: nothing waits.
	res, err = f.broker.Elicit(ctx, a, urlRequest("decline me", "https://example.com/", "e3"))
	if err != nil || res.Action != ActionDecline || len(f.broker.Opened()) != 0 {
		t.Errorf("decline = %+v, %v, opened %d", res, err, len(f.broker.Opened()))
	}

	// A connection that ends takes its opened requests with it (E30).
	conn := make(chan struct{})
	a.connDone = conn
	if _, err := f.broker.Elicit(ctx, a, urlRequest("sign in", "https://example.com/", "e4")); err != nil {
		t.Fatal(err)
	}
	waitErr := make(chan error, 1)
	go func() { waitErr <- f.broker.WaitCompleted(ctx, a, "e4") }()
	close(conn)
	if err := <-waitErr; err == nil || !strings.Contains(err.Error(), "disconnected") {
		t.Errorf("wait after disconnect: %v", err)
	}
	if len(f.broker.Opened()) != 0 {
		t.Error("a disconnected server's page still waits")
	}

	hist := f.history(t)
	var outcomes []string
	for _, h := range hist {
		outcomes = append(outcomes, h.Outcome)
		if h.Mode == "url" && h.Outcome == store.OutcomeAccepted && h.URL == "" {
			t.Errorf("history entry without its URL: %+v", h)
		}
	}
	if strings.Join(outcomes, " ") != "accepted declined accepted invalid invalid" {
		t.Errorf("history outcomes (newest first) = %v", outcomes)
	}
}

// TestBroker_OpenedByPerson: "I've finished" lets a waiting call go on,
// Cancel stops it, and a page that is never confirmed expires.
func TestBroker_OpenedByPerson(t *testing.T) {
	f := newBrokerFixture(t, newScripted(func(*Question) (Response, bool) { return Response{Action: ActionAccept}, true }), BrokerOptions{})
	a := withURLMode(f.a)
	ctx := context.Background()
	for _, tc := range []struct {
		end  func(id string) error
		want error
	}{
		{f.broker.FinishOpened, nil},
		{f.broker.CancelOpened, ErrURLCancelled},
	} {
		if _, err := f.broker.Elicit(ctx, a, urlRequest("sign in", "https://example.com/", "p")); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- f.broker.WaitCompleted(ctx, a, "p") }()
		id := f.broker.Opened()[0].ID
		if link, err := f.broker.OpenedLink(id); err != nil || link.URL != "https://example.com/" {
			t.Errorf("open again: %+v %v", link, err)
		}
		if err := tc.end(id); err != nil {
			t.Fatal(err)
		}
		if err := <-done; !errors.Is(err, tc.want) {
			t.Errorf("wait = %v, want %v", err, tc.want)
		}
		if err := tc.end(id); err == nil {
			t.Error("ending it twice must fail")
		}
	}
	if err := f.broker.WaitCompleted(ctx, a, "never-opened"); !errors.Is(err, ErrURLCancelled) {
		t.Errorf("waiting for a page never opened: %v", err)
	}

	// Expiry uses the answer time.
	if err := f.st.PutSettings(store.Settings{ElicitationTimeout: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.broker.Elicit(ctx, a, urlRequest("sign in", "https://example.com/", "x")); err != nil {
		t.Fatal(err)
	}
	if err := f.broker.WaitCompleted(ctx, a, "x"); err == nil || !strings.Contains(err.Error(), "did not confirm") {
		t.Errorf("expired wait: %v", err)
	}
}

// TestElicit_ServerEverythingURL_E25: server-everything's URL elicitation
// over stdio: the request path answers accept, and the error path (-32042)
// shows the listed page, waits (server-everything never sends the completion
// notice, so the person says "I've finished"), then retries by itself.
func TestElicit_ServerEverythingURL_E25(t *testing.T) {
	var shownURLs []string
	h := newElicitHarness(t, func(r *Question) (Response, bool) {
		shownURLs = append(shownURLs, r.Link.URL)
		return Response{Action: ActionAccept}, true
	})
	srv := h.add(t, store.Server{Name: "Everything", Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: "node", Args: []string{everythingPath(t), "stdio"}}})

	out := h.call(t, srv, "trigger-url-elicitation", map[string]any{"url": "https://example.com/sign-in"})
	if !strings.Contains(out, "User completed the URL elicitation flow") || !strings.Contains(out, "https://example.com/sign-in") {
		t.Errorf("request path result: %s", out)
	}

	// The person finishes the prerequisite page by hand once it is opened.
	go func() {
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			for _, o := range h.broker.Opened() {
				if o.Link.URL == "https://modelcontextprotocol.io" {
					_ = h.broker.FinishOpened(o.ID)
					return
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	out = h.call(t, srv, "trigger-url-elicitation", map[string]any{"url": "https://example.com/after", "errorPath": true})
	if !strings.Contains(out, "User completed the URL elicitation flow") || !strings.Contains(out, "https://example.com/after") {
		t.Errorf("after -32042 the call was not retried: %s", out)
	}
	want := []string{"https://example.com/sign-in", "https://modelcontextprotocol.io", "https://example.com/after"}
	if strings.Join(shownURLs, " ") != strings.Join(want, " ") {
		t.Errorf("pages shown = %v, want %v", shownURLs, want)
	}
}

// urlPeer is the TypeScript SDK URL-mode peer over stdio.
func urlPeer(t *testing.T, name string) store.Server {
	return store.Server{Name: name, Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: "node", Args: []string{peerScript(t, "url-server.mjs")}}}
}

// TestElicit_TypeScriptURLPeer_E24_E25: a TypeScript SDK server's URL
// request, accepted, ends when its completion notice arrives; a completion
// for that id sent by another server is ignored; a -32042 call is retried by
// itself once the listed page is confirmed; a server that asks for the same
// page again is stopped.
func TestElicit_TypeScriptURLPeer_E24_E25(t *testing.T) {
	h := newElicitHarness(t, func(r *Question) (Response, bool) { return Response{Action: ActionAccept}, true })
	one := h.add(t, urlPeer(t, "Pages"))
	other := h.add(t, urlPeer(t, "Other pages"))

	// A long delay, so the other server's completion comes first.
	out := h.call(t, one, "open_page", map[string]any{"url": "https://example.com/continue", "completeAfterMs": 1500})
	id, ok := strings.CutPrefix(out, "accept ")
	if !ok {
		t.Fatalf("open_page = %q", out)
	}
	if o := h.broker.Opened(); len(o) != 1 || o[0].ElicitationID != id || o[0].ServerName != "Pages" {
		t.Fatalf("opened = %+v", o)
	}
	if got := h.call(t, other, "complete_id", map[string]any{"elicitationId": id}); got != "sent" {
		t.Fatalf("complete_id = %q", got)
	}
	time.Sleep(300 * time.Millisecond) // time for the stray notice to arrive; it must change nothing
	if len(h.broker.Opened()) != 1 {
		t.Fatal("another server's completion ended the page (E24)")
	}
	waitFor(t, "the server's own completion", 10*time.Second, func() bool { return len(h.broker.Opened()) == 0 })

	// -32042: shown, opened, confirmed by the server 500 ms later, retried.
	if got := h.call(t, one, "needs_url", nil); got != "authorized (attempt 2)" {
		t.Errorf("needs_url = %q, want the retried call's result", got)
	}
	// The loop guard: the same page asked for again.
	go func() {
		for range 100 {
			for _, o := range h.broker.Opened() {
				_ = h.broker.FinishOpened(o.ID)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := h.m.CallTool(ctx, other.ID, "needs_url", map[string]any{"always": true})
	if err == nil || !strings.Contains(err.Error(), "asked again for the same web page") {
		t.Errorf("a server asking for the same page again: %v", err)
	}
}

// TestElicit_DemoURLRequired_E5_E25: the demo server (go-sdk, protocol
// 2026-07-28) fails sync_calendar with -32042 until its sign-in page is
// finished; pressing Finish on the page sends the completion notice and the
// call is retried by itself.
func TestElicit_DemoURLRequired_E5_E25(t *testing.T) {
	var pages []string
	h := newElicitHarness(t, func(r *Question) (Response, bool) {
		pages = append(pages, r.Link.URL)
		return Response{Action: ActionAccept}, true
	})
	demo := h.add(t, peerServer(t, "Demo", "demo", nil))
	go func() {
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if o := h.broker.Opened(); len(o) == 1 {
				resp, err := http.Post(o[0].Link.URL+"/finish", "application/x-www-form-urlencoded", nil)
				if err == nil {
					resp.Body.Close()
				}
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	if got := h.call(t, demo, "sync_calendar", nil); got != "Calendar synced: 3 events." {
		t.Errorf("sync_calendar = %q", got)
	}
	if len(pages) != 1 || !strings.HasPrefix(pages[0], "http://127.0.0.1:") {
		t.Errorf("pages shown = %q", pages)
	}
	if len(h.broker.Opened()) != 0 {
		t.Error("the finished page still waits")
	}
}

// TestURLModeCanBeTurnedOff_E1_E4: URL mode is declared unless the person
// turned it off for the server; server-everything only offers its URL tool
// to clients that declared it, and the TypeScript SDK refuses to send a URL
// request to one that did not.
func TestURLModeCanBeTurnedOff_E1_E4(t *testing.T) {
	h := newElicitHarness(t, func(r *Question) (Response, bool) { return Response{Action: ActionAccept}, true })
	hasURLTool := func(srv store.Server) bool {
		tools, err := h.m.Tools(srv.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools {
			if tl.Name == "trigger-url-elicitation" {
				return true
			}
		}
		return false
	}
	everything := store.Server{Name: "Everything", Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: "node", Args: []string{everythingPath(t), "stdio"}}}
	on := h.add(t, everything)
	off := everything
	off.Name, off.DisableURLMode = "Everything without URL mode", true
	off = h.add(t, off)
	if !hasURLTool(on) || hasURLTool(off) {
		t.Errorf("URL tool offered: with URL mode %v, without %v", hasURLTool(on), hasURLTool(off))
	}

	peer := urlPeer(t, "Pages without URL mode")
	peer.DisableURLMode = true
	peer = h.add(t, peer)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := h.m.CallTool(ctx, peer.ID, "open_page", nil)
	if err != nil || !res.IsError || h.ans.shownCount() != 0 {
		t.Errorf("open_page without URL mode: %v %+v, shown %d", err, res, h.ans.shownCount())
	}
}

// TestBroker_CompletionBeforeConsentIsRecorded_E24: a page can finish (and
// its server say so) while the person's consent is still on its way to the
// broker, e.g. a sign-in that passes straight through in the browser. The
// notice counts: the call does not wait for the answer time to run out.
func TestBroker_CompletionBeforeConsentIsRecorded_E24(t *testing.T) {
	var f *brokerFixture
	f = newBrokerFixture(t, newScripted(func(r *Question) (Response, bool) {
		if !f.broker.Complete(withURLMode(f.a), r.ElicitationID) {
			t.Error("the early completion was not taken")
		}
		if f.broker.Complete(withURLMode(f.b), r.ElicitationID) {
			t.Error("another server's early completion was taken")
		}
		return Response{Action: ActionAccept}, true
	}), BrokerOptions{})
	a := withURLMode(f.a)
	if _, err := f.broker.Elicit(context.Background(), a, urlRequest("sign in", "https://example.com/", "early")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := f.broker.WaitCompleted(ctx, a, "early"); err != nil {
		t.Errorf("wait after an early completion: %v", err)
	}
	if len(f.broker.Opened()) != 0 {
		t.Error("the page still waits")
	}
}
