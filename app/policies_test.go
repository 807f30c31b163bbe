package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// notesServer is a real go-sdk MCP server over Streamable HTTP on loopback
// whose tools make claims: read_notes says it is read-only, delete_note
// that it is destructive, append_note says nothing, and app_only is for an
// MCP App's view, not the model. It records the calls that reach it.
type notesServer struct {
	mu    sync.Mutex
	calls []string
}

func (n *notesServer) start(t *testing.T) string {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "notes", Version: "1"}, nil)
	yes := true
	tools := []*sdk.Tool{
		{Name: "read_notes", Title: "Read the notes", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		{Name: "delete_note", Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes}},
		{Name: "append_note"},
		{Name: "app_only", Meta: sdk.Meta{"ui": map[string]any{"visibility": []any{"app"}}}},
	}
	for _, tool := range tools {
		tool.InputSchema = json.RawMessage(`{"type":"object"}`)
		srv.AddTool(tool, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			n.mu.Lock()
			n.calls = append(n.calls, req.Params.Name)
			n.mu.Unlock()
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done: " + req.Params.Name}}}, nil
		})
	}
	h := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(func() {
		h.CloseClientConnections() // the client's event stream would keep Close waiting
		h.Close()
	})
	return h.URL
}

func (n *notesServer) received() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.calls...)
}

// addNotes configures the notes server in core and waits until it is
// connected; it returns the server's ID.
func addNotes(t *testing.T, core *Core, notes *notesServer) string {
	t.Helper()
	v, err := NewServersService(core).Add(ServerInput{Name: "Notes", Enabled: true, Transport: store.TransportHTTP, URL: notes.start(t)})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the notes server to connect", func() bool { st, _ := core.Manager.Status(v.ID); return st.State == "connected" })
	return v.ID
}

// count returns how many events of the name were sent.
func (r *recorder) count(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events[name])
}

// toolLine sums up one tool's row as the window shows it: its own mode,
// then what a call does now; "-" marks a tool not offered now.
func toolLine(v ServerPolicyView) string {
	var parts []string
	for _, t := range v.Tools {
		p := t.Name + ":" + string(t.Mode) + "→" + string(t.Effective)
		if !t.Offered {
			p += "(-)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

// TestPoliciesService_Settings: the person changes a connected server's
// policies step by step as Settings → Tool permissions does; each step's
// view says what every tool's call does now, and the window is told.
func TestPoliciesService_Settings(t *testing.T) {
	core, rec := openTestCore(t)
	notes := addNotes(t, core, &notesServer{})
	svc := NewPoliciesService(core)

	steps := []struct {
		name    string
		do      func() (ServerPolicyView, error)
		mode    store.ToolMode
		trusted bool
		reqs    string
		tools   string
		why     string // of read_notes, when set
	}{
		{name: "by default every call is asked and a read-only claim changes nothing",
			do:   func() (ServerPolicyView, error) { return svc.Server(notes) },
			mode: "ask", reqs: "ask",
			tools: "append_note:default→ask delete_note:default→ask read_notes:default→ask"},
		{name: "trusting the server lets only its read-only tool run without asking",
			do:   func() (ServerPolicyView, error) { return svc.SetTrusted(notes, true) },
			mode: "ask", trusted: true, reqs: "ask",
			tools: "append_note:default→ask delete_note:default→ask read_notes:default→allow",
			why:   "A read-only tool of a server you trust."},
		{name: "a tool set to ask each time is asked although the server is trusted",
			do:   func() (ServerPolicyView, error) { return svc.SetToolMode(notes, "read_notes", "ask") },
			mode: "ask", trusted: true, reqs: "ask",
			tools: "append_note:default→ask delete_note:default→ask read_notes:ask→ask"},
		{name: "allowing the server allows every tool without a mode of its own",
			do:   func() (ServerPolicyView, error) { return svc.SetMode(notes, "allow") },
			mode: "allow", trusted: true, reqs: "ask",
			tools: "append_note:default→allow delete_note:default→allow read_notes:ask→ask"},
		{name: "a tool denied is denied under a server that allows",
			do:   func() (ServerPolicyView, error) { return svc.SetToolMode(notes, "delete_note", "deny") },
			mode: "allow", trusted: true, reqs: "ask",
			tools: "append_note:default→allow delete_note:deny→deny read_notes:ask→ask"},
		{name: "a mode for a tool the server does not offer now is listed after the offered ones",
			do:   func() (ServerPolicyView, error) { return svc.SetToolMode(notes, "old_tool", "allow") },
			mode: "allow", trusted: true, reqs: "ask",
			tools: "append_note:default→allow delete_note:deny→deny read_notes:ask→ask old_tool:allow→allow(-)"},
		{name: "same as the server removes a tool's own mode",
			do:   func() (ServerPolicyView, error) { return svc.SetToolMode(notes, "old_tool", "default") },
			mode: "allow", trusted: true, reqs: "ask",
			tools: "append_note:default→allow delete_note:deny→deny read_notes:ask→ask"},
		{name: "the server's requests can be declined without asking",
			do:   func() (ServerPolicyView, error) { return svc.SetRequests(notes, "decline") },
			mode: "allow", trusted: true, reqs: "decline",
			tools: "append_note:default→allow delete_note:deny→deny read_notes:ask→ask"},
		{name: "reset asks about everything again",
			do:   func() (ServerPolicyView, error) { return svc.Reset(notes) },
			mode: "ask", reqs: "ask",
			tools: "append_note:default→ask delete_note:default→ask read_notes:default→ask"},
	}
	for i, s := range steps {
		v, err := s.do()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if v.Mode != s.mode || v.Trusted != s.trusted || v.Requests != s.reqs || !v.Connected || v.ServerName != "Notes" {
			t.Errorf("%s: server = %s trusted=%v requests=%s connected=%v name=%q", s.name, v.Mode, v.Trusted, v.Requests, v.Connected, v.ServerName)
		}
		if got := toolLine(v); got != s.tools {
			t.Errorf("%s: tools\n got %s\nwant %s", s.name, got, s.tools)
		}
		if s.why != "" {
			for _, tool := range v.Tools {
				if tool.Name == "read_notes" && tool.Why.String() != s.why {
					t.Errorf("%s: read_notes why = %q, want %q", s.name, tool.Why, s.why)
				}
			}
		}
		if i > 0 { // a change, not a read: the window is told
			if ev, ok := rec.last(EventPolicies).(ServerPolicyView); !ok || toolLine(ev) != s.tools || ev.ServerID != notes {
				t.Errorf("%s: last %s event = %+v", s.name, EventPolicies, rec.last(EventPolicies))
			}
		}
		// What the store keeps is what the list reads back.
		list, err := svc.List()
		if err != nil {
			t.Fatal(err)
		}
		for _, lv := range list {
			if lv.ServerID == notes && toolLine(lv) != s.tools {
				t.Errorf("%s: List shows %s", s.name, toolLine(lv))
			}
		}
	}

	v, _ := svc.Server(notes)
	for _, tool := range v.Tools {
		switch tool.Name {
		case "app_only":
			t.Error("a tool only for an app's view is listed: the model is never offered it")
		case "read_notes":
			if tool.Title != "Read the notes" || !tool.Hints.ReadOnly || tool.Hints.Destructive {
				t.Errorf("read_notes = %+v", tool)
			}
		case "delete_note":
			if !tool.Hints.Destructive || tool.Hints.ReadOnly {
				t.Errorf("delete_note = %+v", tool)
			}
		}
	}
}

// TestPoliciesService_Refusals: bad input gets a sentence and changes nothing.
func TestPoliciesService_Refusals(t *testing.T) {
	core, rec := openTestCore(t)
	svc := NewPoliciesService(core)
	demo := demoID(t, core)
	if _, err := svc.SetToolMode(demo, "echo", "deny"); err != nil {
		t.Fatal(err)
	}
	events := rec.count(EventPolicies)
	cases := []struct {
		name string
		do   func() (ServerPolicyView, error)
		want string
	}{
		{"an unknown server", func() (ServerPolicyView, error) { return svc.SetMode("0123456789abcdef", "allow") }, `No server has the ID "0123456789abcdef"`},
		{"an unknown server's view", func() (ServerPolicyView, error) { return svc.Server("nope") }, `No server has the ID "nope"`},
		{"an unknown server's tool", func() (ServerPolicyView, error) { return svc.SetToolMode("nope", "echo", "allow") }, `No server has the ID "nope"`},
		{"an unknown server's trust", func() (ServerPolicyView, error) { return svc.SetTrusted("nope", true) }, `No server has the ID "nope"`},
		{"an unknown server's reset", func() (ServerPolicyView, error) { return svc.Reset("nope") }, `No server has the ID "nope"`},
		{"an unknown server's requests", func() (ServerPolicyView, error) { return svc.SetRequests("nope", "ask") }, `No server has the ID "nope"`},
		{"a server mode that does not exist", func() (ServerPolicyView, error) { return svc.SetMode(demo, "sometimes") }, `"sometimes" is not a choice for a server's tools`},
		{"default is for tools only", func() (ServerPolicyView, error) { return svc.SetMode(demo, "default") }, `"default" is not a choice for a server's tools`},
		{"a tool mode that does not exist", func() (ServerPolicyView, error) { return svc.SetToolMode(demo, "echo", "never") }, `"never" is not a choice for a tool`},
		{"a tool without a name", func() (ServerPolicyView, error) { return svc.SetToolMode(demo, " ", "deny") }, "Name the tool"},
		{"a request policy that does not exist", func() (ServerPolicyView, error) { return svc.SetRequests(demo, "mute") }, `Unknown policy "mute"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.do(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
	v, err := svc.Server(demo)
	if err != nil || v.Connected || toolLine(v) != "echo:deny→deny(-)" {
		t.Errorf("after the refusals the demo server shows %s (connected=%v, %v)", toolLine(v), v.Connected, err)
	}
	if n := rec.count(EventPolicies); n != events {
		t.Errorf("%d policy events for refused changes", n-events)
	}
}

// TestPoliciesService_ChatObeysSettings: what Settings sets is what the
// chat does. The MCP server, the broker, the store and ChatService are
// real; the model is llmtest's scripted stand-in (no model can run here).
// Each case: a model turn calls one tool of the notes server.
func TestPoliciesService_ChatObeysSettings(t *testing.T) {
	cases := []struct {
		name    string
		set     func(svc *PoliciesService, id string) error
		tool    string
		asked   bool
		reached bool
	}{
		{"a trusted server's read-only tool runs without a question",
			func(svc *PoliciesService, id string) error { _, err := svc.SetTrusted(id, true); return err },
			"read_notes", false, true},
		{"an untrusted server's read-only tool is asked",
			func(*PoliciesService, string) error { return nil },
			"read_notes", true, true},
		{"a trusted server's tool that claims nothing is asked",
			func(svc *PoliciesService, id string) error { _, err := svc.SetTrusted(id, true); return err },
			"append_note", true, true},
		{"a tool denied in Settings never reaches the server and nobody is asked",
			func(svc *PoliciesService, id string) error {
				_, err := svc.SetToolMode(id, "delete_note", "deny")
				return err
			},
			"delete_note", false, false},
		{"a server allowed in Settings runs its tools without a question",
			func(svc *PoliciesService, id string) error { _, err := svc.SetMode(id, "allow"); return err },
			"delete_note", false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			core, _ := openTestCore(t)
			person := &approver{}
			core.SetAnswerer(person)
			notes := &notesServer{}
			id := addNotes(t, core, notes)
			if err := tc.set(NewPoliciesService(core), id); err != nil {
				t.Fatal(err)
			}
			runTurn(t, core, id, tc.tool)
			if asked := len(person.asked) > 0; asked != tc.asked {
				t.Errorf("asked = %v, want %v", asked, tc.asked)
			}
			if reached := len(notes.received()) == 1; reached != tc.reached {
				t.Errorf("calls that reached the server: %v", notes.received())
			}
		})
	}
}

// TestPoliciesService_AlwaysAllowFromTheDialogIsShown: "Always allow this
// tool" in the consent dialog appears in Settings at once (an event) and
// can be revoked there; the next call is asked again.
func TestPoliciesService_AlwaysAllowFromTheDialogIsShown(t *testing.T) {
	core, rec := openTestCore(t)
	person := &scopedApprover{scope: mcp.ScopeAlways}
	core.SetAnswerer(person)
	notes := &notesServer{}
	id := addNotes(t, core, notes)
	svc := NewPoliciesService(core)

	runTurn(t, core, id, "append_note")
	ev, ok := rec.last(EventPolicies).(ServerPolicyView)
	if !ok || ev.ServerID != id || !strings.Contains(toolLine(ev), "append_note:allow→allow") {
		t.Fatalf("after Always allow the window got %+v", rec.last(EventPolicies))
	}
	runTurn(t, core, id, "append_note")
	if person.count() != 1 {
		t.Fatalf("asked %d times; Always allow should skip the second question", person.count())
	}
	v, err := svc.SetToolMode(id, "append_note", "default")
	if err != nil || !strings.Contains(toolLine(v), "append_note:default→ask") {
		t.Fatalf("revoking: %s, %v", toolLine(v), err)
	}
	runTurn(t, core, id, "append_note")
	if person.count() != 2 || len(notes.received()) != 3 {
		t.Errorf("after revoking: asked %d times, %d calls", person.count(), len(notes.received()))
	}
}

// scopedApprover allows every tool call with the given scope and counts the
// questions.
type scopedApprover struct {
	scope string
	mu    sync.Mutex
	n     int
}

func (a *scopedApprover) Present(context.Context, *mcp.Question) (mcp.Response, error) {
	a.mu.Lock()
	a.n++
	a.mu.Unlock()
	return mcp.Response{Action: mcp.ActionAccept, Scope: a.scope}, nil
}
func (a *scopedApprover) Notify(mcp.Notice)              {}
func (a *scopedApprover) OpenedChanged([]mcp.OpenedPage) {}

func (a *scopedApprover) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}

// runTurn runs one chat turn, in a new conversation, in which the stand-in
// model calls the tool of the server once, then answers.
func runTurn(t *testing.T, core *Core, serverID, tool string) {
	t.Helper()
	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{ID: "call-1", Name: tool, Arguments: []string{`{}`}}}},
		{Text: []string{"好的"}},
	}})
	provider, err := core.Store.PutProvider(store.Provider{Name: "Stand-in " + stand.URL, Kind: store.ProviderOpenAI, BaseURL: stand.URL, Model: "stand-in"})
	if err != nil {
		t.Fatal(err)
	}
	chatSvc := NewChatService(core, func(string) (llm.Provider, store.Provider, error) {
		lp, err := llm.New(llm.Config{BaseURL: provider.BaseURL, Model: provider.Model})
		return lp, provider, err
	})
	conv, err := chatSvc.NewConversation(provider.ID, "", "", []string{serverID})
	if err != nil {
		t.Fatal(err)
	}
	if err := chatSvc.Send(conv.ID, "go"); err != nil {
		t.Fatal(err)
	}
	chatSvc.Wait()
	msgs, err := allMessages(chatSvc, conv.ID)
	if err != nil || len(msgs) != 4 || msgs[3].Text != "好的" {
		t.Fatalf("the turn did not finish: %+v %v", msgs, err)
	}
}
