package demo

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// urlPeer is a go-sdk client connected in memory to a server with the URL
// tools, recording what it was asked and which completion notices came.
type urlPeer struct {
	cs        *sdk.ClientSession
	pages     *urlPages
	asked     chan *sdk.ElicitParams
	completed chan string

	mu     sync.Mutex
	action string   // what the elicitation handler answers
	sent   []string // methods the server sent
}

func (p *urlPeer) setAction(a string) {
	p.mu.Lock()
	p.action = a
	p.mu.Unlock()
}

func (p *urlPeer) sentMethods() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.sent...)
}

// newURLPeer connects a client asking for protocol version (empty: the
// newest) and declaring form and, when withURL, url elicitation.
func newURLPeer(t *testing.T, version string, withURL bool) *urlPeer {
	t.Helper()
	ctx := context.Background()
	p := &urlPeer{pages: &urlPages{}, asked: make(chan *sdk.ElicitParams, 10), completed: make(chan string, 10), action: "accept"}
	t.Cleanup(p.pages.close)

	s := sdk.NewServer(&sdk.Implementation{Name: "url-test", Version: "1"}, nil)
	registerURLTools(s, p.pages)
	s.AddSendingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			p.mu.Lock()
			p.sent = append(p.sent, method)
			p.mu.Unlock()
			return next(ctx, method, req)
		}
	})
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })

	caps := &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}}
	if withURL {
		caps.URL = &sdk.URLElicitationCapabilities{}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "url-test-client", Version: "1"}, &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{Elicitation: caps},
		ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			p.asked <- req.Params
			p.mu.Lock()
			defer p.mu.Unlock()
			return &sdk.ElicitResult{Action: p.action}, nil
		},
		ElicitationCompleteHandler: func(_ context.Context, req *sdk.ElicitationCompleteNotificationRequest) {
			p.completed <- req.Params.ElicitationID
		},
	})
	cs, err := c.Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	p.cs = cs
	return p
}

func (p *urlPeer) call(t *testing.T, tool string) (*sdk.CallToolResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return p.cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: map[string]any{}})
}

func (p *urlPeer) nextAsked(t *testing.T) *sdk.ElicitParams {
	t.Helper()
	select {
	case q := <-p.asked:
		return q
	case <-time.After(5 * time.Second):
		t.Fatal("the client was not asked anything")
		return nil
	}
}

func (p *urlPeer) expectCompleted(t *testing.T, id string) {
	t.Helper()
	select {
	case got := <-p.completed:
		if got != id {
			t.Fatalf("completion notice for %q, want %q", got, id)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no completion notice for %q", id)
	}
}

func (p *urlPeer) expectNoCompletion(t *testing.T) {
	t.Helper()
	select {
	case got := <-p.completed:
		t.Fatalf("unexpected completion notice for %q", got)
	case <-time.After(200 * time.Millisecond):
	}
}

// text calls tool and returns its one text item, failing on any error.
func (p *urlPeer) text(t *testing.T, tool string) string {
	t.Helper()
	res, err := p.call(t, tool)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("want one text and no error, got %+v", res)
	}
	return res.Content[0].(*sdk.TextContent).Text
}

func httpDo(t *testing.T, method, u string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// checkLoopbackURL checks u is a page of the demo's loopback server for id.
func checkLoopbackURL(t *testing.T, p *urlPeer, u, id string) {
	t.Helper()
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	if pu.Scheme != "http" || pu.Hostname() != "127.0.0.1" || pu.Port() == "" || pu.Path != "/connect/"+id {
		t.Fatalf("url %q is not the loopback page for %q", u, id)
	}
	if "http://"+pu.Host != p.pages.base {
		t.Fatalf("url %q is not on the page server %q", u, p.pages.base)
	}
}

var protocols = []struct {
	name, ask, want string
	nested          bool // questions as nested elicitation/create requests
}{
	{"newest (input requests)", "", "2026-07-28", false},
	{"2025-11-25 (nested requests)", "2025-11-25", "2025-11-25", true},
}

func checkPath(t *testing.T, p *urlPeer, nested bool) {
	t.Helper()
	n := 0
	for _, m := range p.sentMethods() {
		if m == "elicitation/create" {
			n++
		}
	}
	if nested && n != 1 || !nested && n != 0 {
		t.Fatalf("server sent %d elicitation/create requests (nested %v): %v", n, nested, p.sentMethods())
	}
}

func TestConnectAccount(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			p := newURLPeer(t, proto.ask, true)
			if got := p.cs.InitializeResult().ProtocolVersion; got != proto.want {
				t.Fatalf("negotiated %q, want %q", got, proto.want)
			}
			text := p.text(t, "connect_account")
			if text != "Opened the sign-in page; finish there." {
				t.Fatalf("result %q", text)
			}
			q := p.nextAsked(t)
			if q.Mode != "url" || q.Message != "Sign in to the demo account service to connect it." || q.ElicitationID == "" || q.RequestedSchema != nil {
				t.Fatalf("asked %+v", q)
			}
			checkLoopbackURL(t, p, q.URL, q.ElicitationID)
			checkPath(t, p, proto.nested)
			select {
			case extra := <-p.asked:
				t.Fatalf("asked a second time: %+v", extra)
			default:
			}

			code, body := httpDo(t, "GET", q.URL)
			if code != 200 || !strings.Contains(body, "Connect your demo account") || !strings.Contains(body, `action="/connect/`+q.ElicitationID+`/finish"`) || !strings.Contains(body, ">Finish<") {
				t.Fatalf("page: %d %s", code, body)
			}
			// A prefetcher's GET of the finish URL finishes nothing.
			if code, _ := httpDo(t, "GET", q.URL+"/finish"); code != http.StatusMethodNotAllowed {
				t.Fatalf("GET finish: %d", code)
			}
			p.expectNoCompletion(t)

			code, body = httpDo(t, "POST", q.URL+"/finish")
			if code != 200 || !strings.Contains(body, "Done — you can close this tab and return to Gatehouse.") {
				t.Fatalf("finish: %d %s", code, body)
			}
			p.expectCompleted(t, q.ElicitationID)

			// Finishing twice is harmless and tells nobody again.
			if code, _ := httpDo(t, "POST", q.URL+"/finish"); code != 200 {
				t.Fatalf("second finish: %d", code)
			}
			p.expectNoCompletion(t)
		})
	}
}

func TestConnectAccountDeclineCancel(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			p := newURLPeer(t, proto.ask, true)
			for _, action := range []string{"decline", "cancel"} {
				p.setAction(action)
				if text := p.text(t, "connect_account"); text != action {
					t.Fatalf("%s: result %q", action, text)
				}
				p.nextAsked(t)
			}
		})
	}
}

func TestPagesRefuse(t *testing.T) {
	p := newURLPeer(t, "", true)
	p.text(t, "connect_account")
	q := p.nextAsked(t)
	base := p.pages.base
	for _, u := range []string{base + "/connect/NOPE", base + "/", base + "/connect/"} {
		if code, _ := httpDo(t, "GET", u); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", u, code)
		}
	}
	if code, _ := httpDo(t, "POST", base+"/connect/NOPE/finish"); code != http.StatusNotFound {
		t.Errorf("POST unknown finish: %d, want 404", code)
	}
	// A cross-origin form post and a foreign Host are refused.
	req, _ := http.NewRequest("POST", q.URL+"/finish", nil)
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin POST: %d, want 403", resp.StatusCode)
	}
	req, _ = http.NewRequest("POST", q.URL+"/finish", nil)
	req.Host = "rebound.example"
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("foreign Host: %d, want 421", resp.StatusCode)
	}
	p.expectNoCompletion(t)
	if p.pages.anyFinished() {
		t.Fatal("a refused request finished the page")
	}
}

func TestSyncCalendar(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			p := newURLPeer(t, proto.ask, true)
			var ids []string
			for range 2 {
				res, err := p.call(t, "sync_calendar")
				var rpcErr *jsonrpc.Error
				if !errors.As(err, &rpcErr) {
					t.Fatalf("want a JSON-RPC error, got %+v, %v", res, err)
				}
				if rpcErr.Code != -32042 {
					t.Fatalf("code %d", rpcErr.Code)
				}
				var data struct {
					Elicitations []*sdk.ElicitParams `json:"elicitations"`
				}
				if err := json.Unmarshal(rpcErr.Data, &data); err != nil {
					t.Fatal(err)
				}
				if len(data.Elicitations) != 1 {
					t.Fatalf("data %s", rpcErr.Data)
				}
				e := data.Elicitations[0]
				if e.Mode != "url" || e.Message != "Connect your calendar account first." || e.ElicitationID == "" {
					t.Fatalf("elicitation %+v", e)
				}
				checkLoopbackURL(t, p, e.URL, e.ElicitationID)
				ids = append(ids, e.ElicitationID)
			}
			if ids[0] == ids[1] {
				t.Fatal("each refusal should point at a fresh page")
			}
			// The error is not an elicitation: the client was asked nothing.
			select {
			case q := <-p.asked:
				t.Fatalf("asked %+v", q)
			default:
			}

			if code, _ := httpDo(t, "POST", p.pages.base+"/connect/"+ids[1]+"/finish"); code != 200 {
				t.Fatalf("finish: %d", code)
			}
			p.expectCompleted(t, ids[1])
			for range 2 {
				if text := p.text(t, "sync_calendar"); text != "Calendar synced: 3 events." {
					t.Fatalf("result %q", text)
				}
			}
		})
	}
}

func TestLookalikeLink(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			p := newURLPeer(t, proto.ask, true)
			for _, action := range []string{"accept", "decline", "cancel"} {
				p.setAction(action)
				if text := p.text(t, "lookalike_link"); text != action {
					t.Fatalf("result %q, want %q", text, action)
				}
				q := p.nextAsked(t)
				if q.Mode != "url" || q.Message != "Verify your payment details." || q.ElicitationID == "" {
					t.Fatalf("asked %+v", q)
				}
				if q.URL != "https://p\u0430ypal.com/verify" || !strings.ContainsRune(q.URL, 'а') || strings.Contains(q.URL, "paypal") {
					t.Fatalf("url %q does not hold the Cyrillic а", q.URL)
				}
			}
		})
	}
}

// A client that did not declare URL mode gets an error result, not a
// request it cannot show (nor a -32042 it cannot act on).
func TestURLToolsNeedURLCapability(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto.name, func(t *testing.T) {
			p := newURLPeer(t, proto.ask, false)
			for _, tool := range []string{"connect_account", "sync_calendar", "lookalike_link"} {
				res, err := p.call(t, tool)
				if err != nil {
					t.Fatalf("%s: %v", tool, err)
				}
				if !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "URL mode") {
					t.Fatalf("%s: %+v", tool, res)
				}
			}
			select {
			case q := <-p.asked:
				t.Fatalf("asked %+v", q)
			default:
			}
		})
	}
}

func TestDemoServerHasURLTools(t *testing.T) {
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := NewServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	titles := map[string]string{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		titles[tool.Name] = tool.Title
	}
	want := map[string]string{
		"connect_account": "Connect an account (opens a web page)",
		"sync_calendar":   "Sync a calendar (needs a finished sign-in, -32042)",
		"lookalike_link":  "A look-alike link (shows the warning)",
	}
	for name, title := range want {
		if titles[name] != title {
			t.Errorf("tool %s: title %q, want %q", name, titles[name], title)
		}
	}
}
