package app

import (
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/appframe"
	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestApps_AConversationReadAfterARestartShowsItsApps: a model (a scripted
// stand-in: no model runs on these machines) calls a tool with an interface
// of a real go-sdk server; Gatehouse closes and starts again on the same
// data folder; the conversation's stored call says it has an app, and the
// app opened for it gets the arguments sent and the result the server
// returned, from the store. Only for that conversation's call.
func TestApps_AConversationReadAfterARestartShowsItsApps(t *testing.T) {
	dir := t.TempDir()
	budget := &appServer{name: "budget"}
	url := budget.start(t)

	first, err := OpenCore(CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	first.SetEmitter(&recorder{events: map[string][]any{}})
	first.SetAnswerer(&approver{})
	srv, err := NewServersService(first).Add(ServerInput{Name: "Budget", Enabled: true, Transport: store.TransportHTTP, URL: url})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "Budget to connect", func() bool { st, _ := first.Manager.Status(srv.ID); return st.State == "connected" })
	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{ID: "call-1", Name: "show_budget", Arguments: []string{`{"amount":12.5}`}}}},
		{Text: []string{"Shown."}},
	}})
	provider, err := first.Store.PutProvider(store.Provider{Name: "Stand-in", Kind: store.ProviderOpenAI, BaseURL: stand.URL, Model: "stand-in"})
	if err != nil {
		t.Fatal(err)
	}
	chats := NewChatService(first, func(id string) (llm.Provider, store.Provider, error) {
		p, err := first.Store.Provider(id)
		if err != nil {
			return nil, p, err
		}
		lp, err := llm.New(llm.Config{BaseURL: p.BaseURL, Model: p.Model})
		return lp, p, err
	})
	conv, err := chats.NewConversation(provider.ID, "", "", []string{srv.ID})
	if err != nil {
		t.Fatal(err)
	}
	other, err := chats.NewConversation(provider.ID, "", "", []string{srv.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := chats.Send(conv.ID, "Show my budget"); err != nil {
		t.Fatal(err)
	}
	chats.Wait()
	first.Close()

	core, _ := openTestCoreIn(t, dir)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "Budget to connect again", func() bool { st, _ := core.Manager.Status(srv.ID); return st.State == "connected" })
	msgs, err := allMessages(NewChatService(core, nil), conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) < 2 || len(msgs[1].ToolCalls) != 1 || !msgs[1].ToolCalls[0].App {
		t.Fatalf("the stored call does not say it has an app: %+v", msgs)
	}
	apps := NewAppsService(core)
	apps.serve = func(string, ...appframe.File) error { return nil }
	apps.forget = func(string) {}
	t.Cleanup(apps.CloseAll)

	v, err := apps.Open(srv.ID, "show_budget", "call-1", conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	var input map[string]any
	var result sdk.CallToolResult
	if err := json.Unmarshal(v.ToolInput, &input); err != nil || input["amount"] != 12.5 {
		t.Errorf("after the restart, tool input %s (%v)", v.ToolInput, err)
	}
	if err := json.Unmarshal(v.ToolResult, &result); err != nil || len(result.Content) != 1 ||
		result.Content[0].(*sdk.TextContent).Text != "done: show_budget" {
		t.Errorf("after the restart, tool result %s (%v)", v.ToolResult, err)
	}
	for _, convID := range []string{"", other.ID} {
		v, err := apps.Open(srv.ID, "show_budget", "call-1", convID)
		if err != nil {
			t.Fatal(err)
		}
		if v.ToolInput != nil || v.ToolResult != nil {
			t.Errorf("the call of one conversation reached an app opened for %q: %s %s", convID, v.ToolInput, v.ToolResult)
		}
	}
}
