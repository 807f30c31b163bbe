package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/appframe"
	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// budgetHTML is the budget app's page, as its server serves it.
const budgetHTML = "<!doctype html><title>Budget</title><script>/* the app */</script>"

// appServer is a real go-sdk MCP server over Streamable HTTP on loopback
// with an interface (MCP Apps): show_budget is a tool with an app,
// refresh_budget and wipe_budget (destructive) are for the app only,
// model_only is not for the app, and ui://budget/app.html is the app,
// beside a plain resource. It records the calls and reads that reach it.
type appServer struct {
	name  string
	mu    sync.Mutex
	calls []string
	reads []string
	// readGate, when set, holds each read of the app's resource until it
	// is closed (the test sets it before the read).
	readGate chan struct{}
}

func (s *appServer) start(t *testing.T) string {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: s.name, Version: "1"}, nil)
	yes := true
	app := func(vis ...any) sdk.Meta {
		ui := map[string]any{"resourceUri": "ui://budget/app.html"}
		if vis != nil {
			ui["visibility"] = vis
		}
		return sdk.Meta{"ui": ui}
	}
	tools := []*sdk.Tool{
		{Name: "show_budget", Title: "Budget allocator", Meta: app()},
		{Name: "refresh_budget", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}, Meta: app("app")},
		{Name: "wipe_budget", Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes}, Meta: app("app")},
		{Name: "model_only", Meta: sdk.Meta{"ui": map[string]any{"visibility": []any{"model"}}}},
		// Only for apps and no resource of its own, as system-monitor's
		// poll-system-stats.
		{Name: "poll_only", Meta: sdk.Meta{"ui": map[string]any{"visibility": []any{"app"}}}},
		{Name: s.name + "_tool"},
	}
	for _, tool := range tools {
		tool.InputSchema = json.RawMessage(`{"type":"object","properties":{"amount":{"type":"number"}}}`)
		srv.AddTool(tool, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			s.mu.Lock()
			s.calls = append(s.calls, req.Params.Name)
			s.mu.Unlock()
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done: " + req.Params.Name}},
				StructuredContent: map[string]any{"total": 42.5, "args": req.Params.Arguments}}, nil
		})
	}
	srv.AddResource(&sdk.Resource{URI: "ui://budget/app.html", Name: "budget", MIMEType: "text/html;profile=mcp-app",
		Meta: sdk.Meta{"ui": map[string]any{"prefersBorder": true}}},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			s.read(req.Params.URI)
			s.mu.Lock()
			gate := s.readGate
			s.mu.Unlock()
			if gate != nil {
				select {
				case <-gate:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/html;profile=mcp-app",
				Text: budgetHTML, Meta: sdk.Meta{"ui": map[string]any{
					"csp":         map[string]any{"connectDomains": []any{"https://api.budget.example", "*", "https://x.example; script-src *"}},
					"permissions": map[string]any{"clipboardWrite": map[string]any{}, "camera": map[string]any{}}}}}}}, nil
		})
	srv.AddResource(&sdk.Resource{URI: "file:///" + s.name + "/notes.txt", Name: "notes", MIMEType: "text/plain"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			s.read(req.Params.URI)
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "notes of " + s.name}}}, nil
		})
	h := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(func() {
		h.CloseClientConnections()
		h.Close()
	})
	return h.URL
}

func (s *appServer) read(uri string) {
	s.mu.Lock()
	s.reads = append(s.reads, uri)
	s.mu.Unlock()
}

func (s *appServer) received() (calls, reads []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...), append([]string(nil), s.reads...)
}

// appsFixture is the app's real core with the budget server and another
// server configured and connected, the window answering questions through
// the broker (Accept, Decline), and an AppsService whose files go to served
// instead of the window's scheme (appframe serves only in the real window).
type appsFixture struct {
	core          *Core
	apps          *AppsService
	budget, other *appServer
	budgetID      string
	otherID       string
	mu            sync.Mutex
	served        map[string][]appframe.File
}

func newAppsFixture(t *testing.T) *appsFixture {
	t.Helper()
	core, _ := openTestCore(t)
	core.SetAnswerer(nil) // the window answers: Broker.Accept and Decline
	f := &appsFixture{core: core, budget: &appServer{name: "budget"}, other: &appServer{name: "other"}, served: map[string][]appframe.File{}}
	add := func(name string, s *appServer) string {
		v, err := NewServersService(core).Add(ServerInput{Name: name, Enabled: true, Transport: store.TransportHTTP, URL: s.start(t)})
		if err != nil {
			t.Fatal(err)
		}
		waitUntil(t, name+" to connect", func() bool { st, _ := core.Manager.Status(v.ID); return st.State == "connected" })
		return v.ID
	}
	f.budgetID, f.otherID = add("Budget", f.budget), add("Other", f.other)
	f.apps = NewAppsService(core)
	f.apps.serve = func(id string, files ...appframe.File) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.served[id] = files
		return nil
	}
	f.apps.forget = func(id string) {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.served, id)
	}
	t.Cleanup(f.apps.CloseAll)
	return f
}

func (f *appsFixture) open(t *testing.T, callID string) AppView {
	t.Helper()
	v, err := f.apps.Open(f.budgetID, "show_budget", callID, "")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// answer waits for the question on screen and answers it with reply (nil:
// Decline); it returns the question. It runs beside the request that asks,
// so it reports a failure with Error.
func (f *appsFixture) answer(t *testing.T, reply *mcp.Reply) *mcp.Question {
	deadline := time.Now().Add(20 * time.Second)
	q := f.core.Broker.Snapshot().Current
	for ; q == nil; q = f.core.Broker.Snapshot().Current {
		if time.Now().After(deadline) {
			t.Error("no question was asked")
			return &mcp.Question{}
		}
		time.Sleep(10 * time.Millisecond)
	}
	var err error
	if reply == nil {
		err = f.core.Broker.Decline(q.ID)
	} else {
		_, err = f.core.Broker.Accept(q.ID, *reply)
	}
	if err != nil {
		t.Error(err)
	}
	return q
}

// setPolicy sets the person's Tool permission for one of the budget's tools.
func (f *appsFixture) setPolicy(t *testing.T, tool string, mode store.ToolMode) {
	t.Helper()
	p, _ := f.core.Store.ToolPolicy(f.budgetID)
	if p.Tools == nil {
		p.Tools = map[string]store.ToolMode{}
	}
	p.Tools[tool] = mode
	if mode == store.ToolAllow {
		tool, _ := f.core.Manager.Tool(f.budgetID, tool)
		peer, _ := f.core.Manager.Peer(f.budgetID)
		if p.Approved == nil {
			p.Approved = map[string]store.ToolSeen{}
		}
		p.Approved[tool.Name] = mcp.ToolFingerprint(peer.Server, tool)
	}
	if err := f.core.Store.PutToolPolicy(f.budgetID, p); err != nil {
		t.Fatal(err)
	}
}

func TestApps_OpenServesTheAppUnderItsDeclaredPolicy(t *testing.T) {
	f := newAppsFixture(t)
	v := f.open(t, "")
	if v.ServerName != "Budget" || v.ToolTitle != "Budget allocator" || v.ResourceURI != "ui://budget/app.html" ||
		v.Origin != appframe.Origin(v.InstanceID) || v.URL != v.Origin+"/index.html" || !v.PrefersBorder {
		t.Errorf("view %+v", v)
	}
	if strings.Join(v.Permissions, ",") != "camera,clipboardWrite" || len(v.Allowed) != 0 {
		t.Errorf("permissions %v allowed %v; want both declared, none allowed", v.Permissions, v.Allowed)
	}
	if strings.Join(v.ConnectDomains, ",") != "https://api.budget.example" || len(v.Dropped) != 2 {
		t.Errorf("connect %v dropped %v; want the one valid origin, two dropped", v.ConnectDomains, v.Dropped)
	}
	f.mu.Lock()
	files := f.served[v.InstanceID]
	f.mu.Unlock()
	if len(files) != 1 || string(files[0].Body) != budgetHTML || files[0].Path != "/index.html" {
		t.Fatalf("served %+v", files)
	}
	csp := files[0].Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "connect-src 'self' https://api.budget.example;") || strings.Contains(csp, "*") ||
		!strings.Contains(csp, "default-src 'none'") {
		t.Errorf("policy %q", csp)
	}
	got, err := f.apps.AllowPermissions(v.InstanceID, []string{"clipboardWrite", "microphone", "geolocation"})
	if err != nil || strings.Join(got.Allowed, ",") != "clipboardWrite" {
		t.Errorf("AllowPermissions: %v %v; want only the declared clipboardWrite", got.Allowed, err)
	}
	// A tool without an interface has no app to open.
	if _, err := f.apps.Open(f.budgetID, "model_only", "", ""); !isMessage(err, "apps.error.noApp") {
		t.Errorf("Open(model_only) = %v; want apps.error.noApp", err)
	}
}

func TestApps_OpenHandsTheAppTheCallAsTheServerReturnedIt(t *testing.T) {
	f := newAppsFixture(t)
	tools := NewToolsService(f.core)
	if _, err := tools.Call("pane-1", f.budgetID, "show_budget", `{"amount":12.5}`); err != nil {
		t.Fatal(err)
	}
	v := f.open(t, "pane-1")
	var input map[string]any
	var result sdk.CallToolResult
	if err := json.Unmarshal(v.ToolInput, &input); err != nil || input["amount"] != 12.5 {
		t.Errorf("tool input %s (%v)", v.ToolInput, err)
	}
	if err := json.Unmarshal(v.ToolResult, &result); err != nil || len(result.Content) != 1 ||
		result.Content[0].(*sdk.TextContent).Text != "done: show_budget" {
		t.Errorf("tool result %s (%v)", v.ToolResult, err)
	}
	// Another tool's call is never handed to this app.
	if _, err := tools.Call("pane-2", f.otherID, "show_budget", `{}`); err != nil {
		t.Fatal(err)
	}
	if v := f.open(t, "pane-2"); v.ToolInput != nil || v.ToolResult != nil {
		t.Errorf("another server's call reached the app: %s %s", v.ToolInput, v.ToolResult)
	}
}

func TestApps_CallToolOnlyTheAppsOwnServersAppTools(t *testing.T) {
	f := newAppsFixture(t)
	v := f.open(t, "")
	f.setPolicy(t, "refresh_budget", store.ToolAllow)
	tests := []struct {
		name, tool, key string
	}{
		{"not for apps", "model_only", "apps.error.notForApp"},
		{"another server's tool", "other_tool", "apps.error.noTool"},
		{"no such tool", "nothing", "apps.error.noTool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := f.apps.CallTool(v.InstanceID, tt.tool, `{}`); !isMessage(err, tt.key) {
				t.Errorf("CallTool(%s) = %v; want %s", tt.tool, err, tt.key)
			}
		})
	}
	out, err := f.apps.CallTool(v.InstanceID, "refresh_budget", `{"amount":3}`)
	if err != nil {
		t.Fatal(err)
	}
	var res sdk.CallToolResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Content[0].(*sdk.TextContent).Text != "done: refresh_budget" {
		t.Errorf("result %s (%v)", out, err)
	}
	budgetCalls, _ := f.budget.received()
	otherCalls, _ := f.other.received()
	if strings.Join(budgetCalls, ",") != "refresh_budget" || len(otherCalls) != 0 {
		t.Errorf("calls reached budget %v, other %v; want only refresh_budget", budgetCalls, otherCalls)
	}
	f.core.Broker.FlushHistory()
	hist, err := f.core.Store.History(store.HistoryFilter{ServerID: f.budgetID})
	if err != nil {
		t.Fatal(err)
	}
	var runs []store.HistoryEntry
	for _, e := range hist {
		if e.Mode == mcp.KindToolRun {
			runs = append(runs, e)
		}
	}
	if len(runs) != 1 || runs[0].Source != store.SourceApp || runs[0].Tool != "refresh_budget" || runs[0].Outcome != store.OutcomeOK {
		t.Errorf("history runs %+v; want one refresh_budget from the app", runs)
	}
}

func TestApps_CallToolUnderThePersonsPermissions(t *testing.T) {
	tests := []struct {
		name   string
		policy store.ToolMode
		reply  *mcp.Reply // the person's answer when asked; nil declines
		asked  bool
		ran    bool
	}{
		{"denied in settings", store.ToolDeny, nil, false, false},
		{"allowed in settings", store.ToolAllow, nil, false, true},
		{"asked and allowed", store.ToolAsk, &mcp.Reply{Kind: mcp.KindToolCall, Scope: mcp.ScopeOnce}, true, true},
		{"asked and denied", store.ToolAsk, nil, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newAppsFixture(t)
			v := f.open(t, "")
			f.setPolicy(t, "wipe_budget", tt.policy)
			var q *mcp.Question
			done := make(chan struct{})
			if tt.asked {
				go func() {
					defer close(done)
					q = f.answer(t, tt.reply)
				}()
			} else {
				close(done)
			}
			_, err := f.apps.CallTool(v.InstanceID, "wipe_budget", `{"amount":1}`)
			<-done
			calls, _ := f.budget.received()
			if ran := len(calls) == 1; ran != tt.ran || (err == nil) != tt.ran {
				t.Fatalf("ran %v (calls %v, err %v); want %v", ran, calls, err, tt.ran)
			}
			if !tt.ran && !isMessage(err, "apps.error.denied") {
				t.Errorf("refusal %v; want apps.error.denied", err)
			}
			if tt.asked {
				if q.Kind != mcp.KindToolCall || q.ToolCall.App != "Budget allocator" || !q.ToolCall.Destructive ||
					string(q.ToolCall.Arguments) != `{"amount":1}` || q.Server.Name != "Budget" {
					t.Errorf("question %+v %+v; want the app named as the asker of wipe_budget", q, q.ToolCall)
				}
			}
			f.core.Broker.FlushHistory()
			hist, _ := f.core.Store.History(store.HistoryFilter{ServerID: f.budgetID})
			var sources []string
			for _, e := range hist {
				if e.Mode == mcp.KindToolRun {
					sources = append(sources, e.Source+":"+e.Outcome)
				}
			}
			want := store.SourceApp + ":" + store.OutcomeDenied
			if tt.ran {
				want = store.SourceApp + ":" + store.OutcomeOK
			}
			if strings.Join(sources, ",") != want {
				t.Errorf("history %v; want %s", sources, want)
			}
		})
	}
}

func TestApps_ReadResourceOfItsOwnServerOnly(t *testing.T) {
	f := newAppsFixture(t)
	v := f.open(t, "")
	out, err := f.apps.ReadResource(v.InstanceID, "file:///budget/notes.txt")
	if err != nil || !strings.Contains(out, "notes of budget") {
		t.Errorf("own resource: %s %v", out, err)
	}
	if out, err := f.apps.ReadResource(v.InstanceID, "file:///other/notes.txt"); err == nil {
		t.Errorf("another server's resource was read: %s", out)
	}
	if _, reads := f.other.received(); len(reads) != 0 {
		t.Errorf("the other server was read: %v", reads)
	}
	if _, err := f.apps.ReadResource(v.InstanceID, strings.Repeat("a", maxAppURI+1)); !isMessage(err, "apps.error.badURI") {
		t.Errorf("huge URI: %v", err)
	}
}

// appChat is the fixture with a conversation whose model is a stand-in, and
// the budget app opened for a chat call of show_budget in it.
func appChat(t *testing.T, turns int) (*appsFixture, *llmtest.Server, store.Conversation, AppView) {
	t.Helper()
	f := newAppsFixture(t)
	var script []llmtest.Turn
	for range turns {
		script = append(script, llmtest.Turn{Text: []string{"Noted."}})
	}
	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: script})
	provider, err := f.core.Store.PutProvider(store.Provider{Name: "Stand-in", Kind: store.ProviderOpenAI, BaseURL: stand.URL, Model: "stand-in"})
	if err != nil {
		t.Fatal(err)
	}
	chats := f.core.Chat()
	t.Cleanup(chats.StopAll)
	conv, err := chats.NewConversation(provider.ID, "", "", []string{f.budgetID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.core.Store.RenameConversation(conv.ID, "Budget talk"); err != nil {
		t.Fatal(err)
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "budget shown"}}}
	f.core.keepChatCall(conv.ID, chatCall("call-1", f.budgetID, "show_budget"), map[string]any{}, res)
	return f, stand, conv, f.open(t, "call-1")
}

func TestApps_MessageReachesTheConversationOnlyAsShownAndAccepted(t *testing.T) {
	const text = "Please rebalance: marketing 40%, R&D 60%."
	params := `{"role":"user","content":[{"type":"text","text":"  ` + text + `\n"}]}`
	for _, accept := range []bool{true, false} {
		t.Run(map[bool]string{true: "accepted", false: "declined"}[accept], func(t *testing.T) {
			f, stand, conv, v := appChat(t, 1)
			var q *mcp.Question
			done := make(chan struct{})
			go func() {
				defer close(done)
				var reply *mcp.Reply
				if accept {
					reply = &mcp.Reply{Kind: mcp.KindAppMessage}
				}
				q = f.answer(t, reply)
			}()
			sent, err := f.apps.Message(v.InstanceID, params)
			<-done
			if err != nil || sent != accept {
				t.Fatalf("Message = %v, %v; want %v", sent, err, accept)
			}
			if m := q.AppMessage; q.Kind != mcp.KindAppMessage || m == nil || m.Text != text || m.App != "Budget allocator" ||
				m.Context || m.ConversationID != conv.ID || m.Conversation != "Budget talk" {
				t.Fatalf("question %+v %+v", q, q.AppMessage)
			}
			f.core.Chat().Wait()
			msgs, err := f.core.Store.Messages(conv.ID)
			if err != nil {
				t.Fatal(err)
			}
			var users []string
			for _, m := range msgs {
				if m.Role == store.RoleUser {
					users = append(users, m.Text)
				}
			}
			if accept && (len(users) != 1 || users[0] != text || len(stand.ChatRequests()) != 1) {
				t.Errorf("conversation's user turns %q, model asked %d times; want exactly the shown text once", users, len(stand.ChatRequests()))
			}
			if !accept && (len(users) != 0 || len(stand.ChatRequests()) != 0) {
				t.Errorf("a declined message reached the conversation: %q", users)
			}
			f.core.Broker.FlushHistory()
			hist, _ := f.core.Store.History(store.HistoryFilter{ServerID: f.budgetID})
			want := map[bool]string{true: store.OutcomeAccepted, false: store.OutcomeDeclined}[accept]
			if len(hist) == 0 || hist[0].Mode != mcp.KindAppMessage || hist[0].Outcome != want ||
				hist[0].Summary.Key != "history.summary.appMessage" {
				t.Errorf("history %+v; want the app's message %s", hist, want)
			}
		})
	}
}

func TestApps_ContextGoesWithTheNextTurnOnlyWhenAccepted(t *testing.T) {
	f, stand, conv, v := appChat(t, 2)
	go f.answer(t, &mcp.Reply{Kind: mcp.KindAppMessage})
	ok, err := f.apps.UpdateContext(v.InstanceID, `{"content":[{"type":"text","text":"Marketing is at 40%."}],"structuredContent":{"marketing":40}}`)
	if err != nil || !ok {
		t.Fatalf("UpdateContext = %v, %v", ok, err)
	}
	if err := f.core.Chat().Send(conv.ID, "How is the budget?"); err != nil {
		t.Fatal(err)
	}
	f.core.Chat().Wait()
	go f.answer(t, nil) // declined: never reaches the model
	if ok, err := f.apps.UpdateContext(v.InstanceID, `{"content":[{"type":"text","text":"SECRET declined"}]}`); ok || err != nil {
		t.Fatalf("declined UpdateContext = %v, %v", ok, err)
	}
	if err := f.core.Chat().Send(conv.ID, "And now?"); err != nil {
		t.Fatal(err)
	}
	f.core.Chat().Wait()
	reqs := stand.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests; want 2", len(reqs))
	}
	first, second := string(reqs[0].Body), string(reqs[1].Body)
	if !strings.Contains(first, `Marketing is at 40%.\n\n{\"marketing\":40}`) {
		t.Errorf("the first turn lacks the accepted context: %s", first)
	}
	if strings.Contains(second, "Marketing is at 40%") || strings.Contains(second, "SECRET") {
		t.Errorf("the second turn has context it should not: %s", second)
	}
}

func TestApps_RefusesRequestsOfClosedOrUnknownApps(t *testing.T) {
	f := newAppsFixture(t)
	v := f.open(t, "")
	if err := f.apps.Close(v.InstanceID); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	_, served := f.served[v.InstanceID]
	f.mu.Unlock()
	if served {
		t.Error("a closed app is still served")
	}
	for _, id := range []string{v.InstanceID, "unknown", ""} {
		_, err1 := f.apps.CallTool(id, "refresh_budget", `{}`)
		_, err2 := f.apps.ReadResource(id, "file:///budget/notes.txt")
		_, err3 := f.apps.OpenLink(id, "https://budget.example/")
		_, err4 := f.apps.Message(id, `{"role":"user","content":[{"type":"text","text":"hi"}]}`)
		_, err5 := f.apps.UpdateContext(id, `{"content":[]}`)
		_, err6 := f.apps.AllowPermissions(id, []string{"camera"})
		for i, err := range []error{err1, err2, err3, err4, err5, err6} {
			if !isMessage(err, "apps.error.notOpen") {
				t.Errorf("instance %q, request %d: %v; want apps.error.notOpen", id, i+1, err)
			}
		}
	}
	if calls, reads := f.budget.received(); len(calls) != 0 || len(reads) != 1 {
		t.Errorf("a closed app reached its server: calls %v reads %v", calls, reads)
	}
}

func TestApps_AtMostMaxOpen(t *testing.T) {
	f := newAppsFixture(t)
	var views []AppView
	for range maxOpenApps {
		views = append(views, f.open(t, ""))
	}
	if _, err := f.apps.Open(f.budgetID, "show_budget", "", ""); !isMessage(err, "apps.error.tooMany") {
		t.Fatalf("app %d: %v; want apps.error.tooMany", maxOpenApps+1, err)
	}
	if err := f.apps.Close(views[0].InstanceID); err != nil {
		t.Fatal(err)
	}
	f.open(t, "")
	if views[0].Limits.MaxOpen != maxOpenApps {
		t.Errorf("limits %+v", views[0].Limits)
	}
}

// An app still opening when the window reloads (CloseAll as the page is
// served) does not outlive the reload: before, it was kept once its
// resource came, for a page that no longer knew it, and counted against
// maxOpenApps until Gatehouse quit.
func TestApps_AnAppOpeningWhenTheWindowReloadsIsNotKept(t *testing.T) {
	f := newAppsFixture(t)
	gate := make(chan struct{})
	f.budget.mu.Lock()
	f.budget.readGate = gate
	f.budget.mu.Unlock()
	opened := make(chan error, 1)
	go func() {
		_, err := f.apps.Open(f.budgetID, "show_budget", "", "")
		opened <- err
	}()
	waitUntil(t, "the app's resource to be asked for", func() bool { _, reads := f.budget.received(); return len(reads) > 0 })
	f.apps.CloseAll() // the window reloads
	close(gate)
	if err := <-opened; err == nil {
		t.Error("the app opened for the page before the reload was kept")
	}
	if n := f.apps.count(); n != 0 {
		t.Errorf("%d apps open after the reload, want 0", n)
	}
}

// An app has at most maxAppRequests of its requests running at once: more
// are refused with a sentence at once (before, every read and call an app
// sent ran, up to its rate times its time limit, thousands), and a slot is
// free again when a request ends.
func TestApps_AtMostSoManyRequestsAtOnce(t *testing.T) {
	f := newAppsFixture(t)
	v := f.open(t, "")
	gate := make(chan struct{})
	f.budget.mu.Lock()
	f.budget.readGate = gate
	f.budget.mu.Unlock()
	var wg sync.WaitGroup
	for range maxAppRequests {
		wg.Go(func() { _, _ = f.apps.ReadResource(v.InstanceID, "ui://budget/app.html") })
	}
	waitUntil(t, "the app's reads to reach the server", func() bool { _, reads := f.budget.received(); return len(reads) == 1+maxAppRequests })
	if _, err := f.apps.ReadResource(v.InstanceID, "ui://budget/app.html"); !isMessage(err, "apps.error.busy") {
		t.Errorf("a read beyond %d at once: %v, want apps.error.busy", maxAppRequests, err)
	}
	if _, err := f.apps.CallTool(v.InstanceID, "refresh_budget", "{}"); !isMessage(err, "apps.error.busy") {
		t.Errorf("a call beyond %d at once: %v, want apps.error.busy", maxAppRequests, err)
	}
	close(gate)
	wg.Wait()
	if _, err := f.apps.ReadResource(v.InstanceID, "ui://budget/app.html"); err != nil {
		t.Errorf("a read once the others ended: %v", err)
	}
}

// Turning a server off, or removing it, closes its apps: their question
// on screen is withdrawn and their frames are no longer served (before,
// the question stayed for its ten minutes, ahead of every other, and the
// app kept running). Another server's app stays.
func TestApps_TurningTheServerOffClosesItsApps(t *testing.T) {
	for _, how := range []string{"turned off", "removed"} {
		t.Run(how, func(t *testing.T) {
			f := newAppsFixture(t)
			f.setPolicy(t, "refresh_budget", store.ToolAsk)
			v := f.open(t, "")
			other, err := f.apps.Open(f.otherID, "show_budget", "", "")
			if err != nil {
				t.Fatal(err)
			}
			called := make(chan error, 1)
			go func() { _, err := f.apps.CallTool(v.InstanceID, "refresh_budget", "{}"); called <- err }()
			waitUntil(t, "the app's question", func() bool { return f.core.Broker.Snapshot().Current != nil })
			servers := NewServersService(f.core)
			if how == "removed" {
				err = servers.Remove(f.budgetID)
			} else {
				err = servers.SetEnabled(f.budgetID, false)
			}
			if err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-called:
				if err == nil {
					t.Error("the app's call ran after its server was " + how)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the app's question is still open after its server was " + how)
			}
			if q := f.core.Broker.Snapshot().Current; q != nil {
				t.Errorf("a question is still on screen: %+v", q)
			}
			if _, err := f.apps.ReadResource(v.InstanceID, "ui://budget/app.html"); !errors.Is(err, errAppNotOpen) {
				t.Errorf("the app of the server %s still answers: %v", how, err)
			}
			if _, err := f.apps.instance(other.InstanceID); err != nil {
				t.Errorf("another server's app was closed: %v", err)
			}
		})
	}
}

// TestApps_OpeningACallsAppAgainReplacesIt: the window draws a chat call's
// card anew when the turn ends and opens its app again before the old
// frame's close arrives; ten apps drawn anew must not hit the limit, and
// the replaced instance is closed (its requests refused).
func TestApps_OpeningACallsAppAgainReplacesIt(t *testing.T) {
	f := newAppsFixture(t)
	var first []AppView
	for i := range maxOpenApps {
		first = append(first, f.open(t, fmt.Sprintf("call-%d", i)))
	}
	for i := range maxOpenApps {
		if _, err := f.apps.Open(f.budgetID, "show_budget", fmt.Sprintf("call-%d", i), ""); err != nil {
			t.Fatalf("opening call-%d's app again: %v", i, err)
		}
	}
	if _, err := f.apps.ReadResource(first[0].InstanceID, "ui://budget/app.html"); err == nil {
		t.Error("the replaced instance still answers")
	}
	if _, err := f.apps.Open(f.budgetID, "show_budget", "another-call", ""); !isMessage(err, "apps.error.tooMany") {
		t.Errorf("an eleventh app: %v; want apps.error.tooMany", err)
	}
}

func TestApps_MessageParams(t *testing.T) {
	big := strings.Repeat("a", maxAppText+1)
	tests := []struct {
		name, params string
		context      bool
		want         string
		key          string
	}{
		{"text", `{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":" b "}]}`, false, "a\n\nb", ""},
		{"no role", `{"content":[{"type":"text","text":"a"}]}`, false, "", "apps.error.role"},
		{"assistant role", `{"role":"assistant","content":[{"type":"text","text":"a"}]}`, false, "", "apps.error.role"},
		{"image", `{"role":"user","content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`, false, "", "apps.error.onlyText"},
		{"empty", `{"role":"user","content":[{"type":"text","text":"  "}]}`, false, "", "apps.error.emptyMessage"},
		{"not JSON", `{"role":`, false, "", "apps.error.params"},
		{"too long", `{"role":"user","content":[{"type":"text","text":"` + big + `"}]}`, false, "", "apps.error.textTooLong"},
		{"too large", strings.Repeat(" ", appMaxMessageBytes+1), false, "", "apps.error.tooLarge"},
		{"context", `{"content":[{"type":"text","text":"x"}],"structuredContent":{"a": [1, 2]}}`, true, "x\n\n{\"a\":[1,2]}", ""},
		{"context cleared", `{"content":[]}`, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := appText(tt.params, tt.context)
			if tt.key != "" {
				if !isMessage(err, tt.key) {
					t.Errorf("appText = %q, %v; want %s", got, err, tt.key)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("appText = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// isMessage reports whether err says the catalogue's sentence key.
func isMessage(err error, key string) bool {
	m, ok := i18n.MessageOf(err)
	return ok && m.Key == key
}

// chatCall is a chat tool call as the runner describes it.
func chatCall(id, serverID, tool string) chat.Call {
	return chat.Call{ID: id, ServerID: serverID, Tool: tool, App: true}
}

// TestApps_ToolsListMarksInterfacesAndAppOnlyTools: the Tools pane's list
// says which tool has an interface and which only its app may call, also
// one that declares no resource of its own (system-monitor's
// poll-system-stats), and marks nothing on a plain tool.
func TestApps_ToolsListMarksInterfacesAndAppOnlyTools(t *testing.T) {
	f := newAppsFixture(t)
	tools, err := NewToolsService(f.core).List(f.budgetID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*ToolAppView{}
	for _, tool := range tools {
		got[tool.Name] = tool.App
	}
	want := map[string]*ToolAppView{
		"show_budget":    {ResourceURI: "ui://budget/app.html", ForModel: true, ForApp: true},
		"refresh_budget": {ResourceURI: "ui://budget/app.html", ForApp: true},
		"model_only":     {ForModel: true},
		"poll_only":      {ForApp: true},
		"budget_tool":    nil,
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s is not listed", name)
			continue
		}
		if (g == nil) != (w == nil) || (g != nil && *g != *w) {
			t.Errorf("%s: App = %+v, want %+v", name, g, w)
		}
	}
}
