package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestGateway_AForwardedCallAnswersAsTheSDKsWayDid (P11): a call that goes
// the forwarded way (no progress asked for) reaches the client with the
// same result, field for field, as the same call the go-sdk's server
// handles (with a progress token), for each kind of result
// server-everything gives: text, numbers, an image, annotations, resource
// links, structured content, and a call the server refuses; in both
// revisions the go-sdk speaks (2026-07-28's results say they are complete
// and name Gatehouse). History records the forwarded call as the other:
// the app named, the result text kept (Remember my answers on).
func TestGateway_AForwardedCallAnswersAsTheSDKsWayDid(t *testing.T) {
	for _, revision := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(revision, func(t *testing.T) { forwardedAsTheSDKsWay(t, revision) })
	}
}

func forwardedAsTheSDKsWay(t *testing.T, revision string) {
	f := newFixture(t, allowOnce, Limits{})
	srv := f.add(t, "Everything", "everything")
	if err := f.st.PutToolPolicy(srv.ID, store.ToolPolicy{Mode: store.ToolAllow}); err != nil {
		t.Fatal(err)
	}
	settings, _ := f.st.Settings()
	settings.RememberAnswers = true
	if err := f.st.PutSettings(settings); err != nil {
		t.Fatal(err)
	}
	cs := f.connect(t, clientOptions{name: "agent", revision: revision})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	answer := func(tool string, args map[string]any, progress bool) string {
		t.Helper()
		p := &sdk.CallToolParams{Name: "Everything__" + tool, Arguments: args}
		if progress {
			p.SetProgressToken("p-" + tool)
		}
		res, err := cs.CallTool(ctx, p)
		if err != nil {
			return "error: " + err.Error()
		}
		b, _ := json.Marshal(res)
		return string(b)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string // in the result
	}{
		{"echo", map[string]any{"message": "héllo 🌍"}, "héllo 🌍"},
		{"get-sum", map[string]any{"a": 2, "b": 3.5}, "5.5"},
		{"get-tiny-image", map[string]any{}, `"type":"image"`},
		{"get-annotated-message", map[string]any{"messageType": "error", "includeImage": true}, `"annotations"`},
		{"get-resource-links", map[string]any{"count": 2}, `"type":"resource_link"`},
		{"get-structured-content", map[string]any{"location": "New York"}, `"structuredContent"`},
		{"get-sum", map[string]any{"a": "not a number"}, `"isError":true`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			before := f.gw.forwarded.Load()
			forwarded := answer(tc.tool, tc.args, false)
			if f.gw.forwarded.Load() != before+1 {
				t.Fatalf("the call without progress did not go the forwarded way")
			}
			sdkWay := answer(tc.tool, tc.args, true)
			if f.gw.forwarded.Load() != before+1 {
				t.Fatalf("the call with progress went the forwarded way")
			}
			if forwarded != sdkWay {
				t.Errorf("forwarded:\n%s\nthe go-sdk's way:\n%s", forwarded, sdkWay)
			}
			if !strings.Contains(forwarded, tc.want) {
				t.Errorf("the result %s has no %s", forwarded, tc.want)
			}
			if complete := strings.Contains(forwarded, `"resultType":"complete"`); complete != (revision >= "2026-07-28") {
				t.Errorf("in %s the result %s", revision, forwarded)
			}
		})
	}
	var found bool
	for _, e := range f.history(t) {
		if e.Mode == mcp.KindToolRun && e.Tool == "echo" {
			found = true
			if e.Client != "agent 1.2.3" || e.Outcome != store.OutcomeOK || !strings.Contains(e.Result, "héllo 🌍") || e.Arguments["message"] != "héllo 🌍" {
				t.Errorf("History's run of echo: %+v", e)
			}
		}
	}
	if !found {
		t.Error("History has no run of echo")
	}
}

// rawClient speaks JSON-RPC lines to the gateway by hand, to see the bytes
// it answers with.
type rawClient struct {
	t   *testing.T
	in  *os.File
	out *bufio.Scanner
}

func (f *fixture) rawClient(t *testing.T) *rawClient {
	clientIn, clientOut := f.servePipes(t)
	t.Cleanup(func() { clientOut.Close(); clientIn.Close() })
	sc := bufio.NewScanner(clientIn)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	c := &rawClient{t: t, in: clientOut, out: sc}
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	c.answer(0)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	c.answer(`"list"`)
	return c
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := c.in.WriteString(line + "\n"); err != nil {
		c.t.Fatal(err)
	}
}

// answer reads lines until the response to id (as JSON: 1, "x") and
// returns it whole.
func (c *rawClient) answer(id any) string {
	c.t.Helper()
	want := fmt.Sprint(id)
	_ = c.in.SetDeadline(time.Now().Add(30 * time.Second))
	for c.out.Scan() {
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(c.out.Bytes(), &msg) == nil && string(msg.ID) == want {
			return c.out.Text()
		}
	}
	c.t.Fatalf("no answer to %s: %v", want, c.out.Err())
	return ""
}

// TestGateway_AForwardedResultIsTheServersOwn (P11): the result of a
// forwarded call reaches the client as the server wrote it, a field no SDK
// knows and its _meta included (the go-sdk's way drops what it does not
// know); the server receives the tool's own name and the client's
// arguments, and none of the client's _meta (its progress token, its
// client info): Gatehouse is the server's client.
func TestGateway_AForwardedResultIsTheServersOwn(t *testing.T) {
	f := newFixture(t, allowOnce, Limits{})
	srv := f.add(t, "Wire", "wire-server.mjs")
	if err := f.st.PutToolPolicy(srv.ID, store.ToolPolicy{Mode: store.ToolAllow}); err != nil {
		t.Fatal(err)
	}
	c := f.rawClient(t)
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"Wire__vendor","arguments":{}}}`)
	got := c.answer(7)
	for _, want := range []string{`"vendorField":{"kept":true}`, `"_meta":{"example.com/trace":"t-1"}`, `"text":"as written"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the answer %s has no %s", got, want)
		}
	}
	c.send(`{"jsonrpc":"2.0","id":"e","method":"tools/call","params":{"name":"Wire__echo-params","arguments":{"q":"ünï"},"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"raw"}}}}`)
	got = c.answer(`"e"`)
	var res sdk.CallToolResult
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(got), &msg); err != nil || json.Unmarshal(msg.Result, &res) != nil || len(res.Content) != 1 {
		t.Fatalf("the answer %s", got)
	}
	received := res.Content[0].(*sdk.TextContent).Text
	if received != `{"name":"echo-params","arguments":{"q":"ünï"}}` {
		t.Errorf("the server received %s", received)
	}
	if f.gw.forwarded.Load() != 2 {
		t.Errorf("%d calls went the forwarded way, want 2", f.gw.forwarded.Load())
	}
}

// wireAllowed is a gateway with wire-server.mjs behind it, its tools
// allowed, and a client "agent" that has listed them.
func wireAllowed(t *testing.T) (*fixture, *sdk.ClientSession) {
	t.Helper()
	f := newFixture(t, allowOnce, Limits{})
	srv := f.add(t, "Wire", "wire-server.mjs")
	if err := f.st.PutToolPolicy(srv.ID, store.ToolPolicy{Mode: store.ToolAllow}); err != nil {
		t.Fatal(err)
	}
	cs := f.connect(t, clientOptions{name: "agent"})
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return f, cs
}

// TestGateway_AForwardedCallEndsWithItsServer: a server that exits in the
// middle of a forwarded call ends the call at once, with a sentence
// saying so, not at its time limit; History records it.
func TestGateway_AForwardedCallEndsWithItsServer(t *testing.T) {
	f, cs := wireAllowed(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Wire__exit", Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "not connected") {
		t.Errorf("the call whose server exited: %+v, %v", res, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the call ended after %v", d)
	}
	var run *store.HistoryEntry
	for _, e := range f.history(t) {
		if e.Mode == mcp.KindToolRun && e.Tool == "exit" {
			run = &e
		}
	}
	if run == nil || run.Outcome != store.OutcomeError || run.Client != "agent 1.2.3" {
		t.Errorf("History's run: %+v", run)
	}
}

// TestGateway_APageFirstGoesTheSDKsWay: a forwarded call the server
// answers with "visit a page first" (-32042, E25) is made again the way
// that shows the page to the person in Gatehouse's window; declined
// there, the call ends with a sentence and the server is not called again.
func TestGateway_APageFirstGoesTheSDKsWay(t *testing.T) {
	f, cs := wireAllowed(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Wire__needs-page", Arguments: map[string]any{}})
	if err != nil || !res.IsError {
		t.Errorf("the call whose page was declined: %+v, %v", res, err)
	}
	if pages := f.person.questions(mcp.KindURL); len(pages) != 1 || pages[0].Link == nil || pages[0].Link.URL != "https://example.com/sign-in" {
		t.Errorf("the person was shown %+v", pages)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "Wire__calls", Arguments: map[string]any{}})
	if err != nil || resultText(res) != "2" {
		t.Errorf("the server was called %s times before (want 2: forwarded, then the go-sdk's way): %v", resultText(res), err)
	}
}

// TestCompleted: a forwarded result for a 2026-07-28 call says it is
// complete (unless the server said otherwise) and names Gatehouse as the
// server, keeping the rest as it was, whatever the result's spacing and
// wherever "_meta" appears in it; the result has each key once.
func TestCompleted(t *testing.T) {
	info := json.RawMessage(`{"name":"gatehouse"}`)
	for _, tc := range []struct{ result, want string }{
		{`{"content":[]}`, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"}},"content":[]}`},
		{` { } `, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"}}}`},
		{`{"content":[],"_meta":{"x":1}}`, `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"},"x":1},"content":[],"resultType":"complete"}`},
		{`{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"upstream"}}}`,
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"}},"resultType":"complete"}`},
		{`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse-bench","version":"1.0.0"}},"content":[{"type":"text","text":"{\"tool\":\"lookup_0001\"}"}],"resultType":"complete"}`,
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"}},"content":[{"type":"text","text":"{\"tool\":\"lookup_0001\"}"}],"resultType":"complete"}`},
		{"{ \"_meta\" : { \"a\" : [1, {\"b\":\"}\"}] , \"io.modelcontextprotocol/serverInfo\" : null } ,\n \"isError\" : true , \"n\": -1.5e3 }",
			`{"_meta":{"a":[1,{"b":"}"}],"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"}},"isError":true,"n":-1500,"resultType":"complete"}`},
		{`{"resultType":"incomplete","content":[]}`,
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"}},"content":[],"resultType":"incomplete"}`},
		{`{"content":[{"type":"text","text":"the word \"_meta\" in a text"}]}`,
			`{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"}},"content":[{"type":"text","text":"the word \"_meta\" in a text"}]}`},
		{`{"content":[{"type":"text","text":"x","_meta":{"y":2}}]}`,
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"}},"content":[{"type":"text","text":"x","_meta":{"y":2}}],"resultType":"complete"}`},
		{`{"\u005fmeta":{"x":1},"content":[]}`, // a key written with escapes: decoded
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gatehouse"},"x":1},"content":[],"resultType":"complete"}`},
		{`{"_meta":"not an object","content":[]}`, `{"_meta":"not an object","content":[]}`},
		{`[1,2]`, `[1,2]`},
	} {
		got := completed(json.RawMessage(tc.result), info)
		var gotV, wantV any
		if err := json.Unmarshal(got, &gotV); err != nil {
			t.Errorf("completed(%s) = %s: %v", tc.result, got, err)
			continue
		}
		_ = json.Unmarshal([]byte(tc.want), &wantV)
		if !reflect.DeepEqual(gotV, wantV) || duplicateKey(t, got) {
			t.Errorf("completed(%s)\n got %s\nwant %s", tc.result, got, tc.want)
		}
	}
}

// duplicateKey reports whether an object in the JSON value b has a key
// twice (which decoding into Go values would hide).
func duplicateKey(t *testing.T, b []byte) bool {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	type level struct {
		object bool
		keys   map[string]bool
		key    bool // the next string is a key
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return false
		}
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &level{object: v == '{', keys: map[string]bool{}, key: v == '{'})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if top != nil && top.object && top.key {
				if top.keys[v] {
					return true
				}
				top.keys[v], top.key = true, false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true
		}
	}
}

// TestIdKey: a request ID is one key however the client wrote it (a
// cancellation names it as the call did, or otherwise), strings and
// numbers apart; anything else is no ID.
func TestIdKey(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{`"r-1"`, `"r-1"`, true},
		{`"r-1"`, `"r\u002d1"`, true},
		{`"a<b"`, `"a\u003cb"`, true},
		{`"é"`, `"\u00e9"`, true},
		{`1`, `1.0`, true},
		{`1`, `1e0`, true},
		{`1`, `"1"`, false},
		{`"r-1"`, `"r-2"`, false},
	} {
		ka, okA := idKey(json.RawMessage(tc.a))
		kb, okB := idKey(json.RawMessage(tc.b))
		if !okA || !okB || (ka == kb) != tc.same {
			t.Errorf("idKey(%s) = %q, idKey(%s) = %q", tc.a, ka, tc.b, kb)
		}
	}
	for _, bad := range []string{`{"a":1}`, `[1]`, `null`, `true`, ``} {
		if k, ok := idKey(json.RawMessage(bad)); ok {
			t.Errorf("idKey(%s) = %q, want no ID", bad, k)
		}
	}
}
