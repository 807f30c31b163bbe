package app

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// approver stands where the person is: it allows every tool call once and
// records what it was asked.
type approver struct {
	mu    sync.Mutex
	asked []*mcp.Question
}

func (a *approver) Present(_ context.Context, q *mcp.Question) (mcp.Response, error) {
	a.mu.Lock()
	a.asked = append(a.asked, q)
	a.mu.Unlock()
	return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeConversation}, nil
}
func (a *approver) Notify(mcp.Notice)              {}
func (a *approver) OpenedChanged([]mcp.OpenedPage) {}

// TestChatService_TurnIsStoredAndStreamed: a conversation with the real demo
// server and a scripted stand-in for the model (no model can run on these
// machines): the model calls the demo's echo, the person allows it for the
// conversation, the result goes back to the model, its answer streams as
// events, and everything is stored in order.
func TestChatService_TurnIsStoredAndStreamed(t *testing.T) {
	core, rec := openTestCore(t)
	person := &approver{}
	core.SetAnswerer(person)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	demo := demoID(t, core)
	waitUntil(t, "the demo server to connect", func() bool { st, _ := core.Manager.Status(demo); return st.State == "connected" })

	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: []string{"我来", "试试。"}, ToolCalls: []llmtest.ToolCall{{ID: "call-1", Name: "echo", Arguments: []string{`{"message":`, `"你好"}`}}}},
		{Text: []string{"服务器说：", "你好"}, Usage: &llmtest.Usage{Input: 30, Output: 7}},
	}})
	provider, err := core.Store.PutProvider(store.Provider{Name: "Stand-in", Kind: store.ProviderOpenAI, BaseURL: stand.URL, Model: "stand-in"})
	if err != nil {
		t.Fatal(err)
	}
	svc := NewChatService(core, func(id string) (llm.Provider, store.Provider, error) {
		p, err := core.Store.Provider(id)
		if err != nil {
			return nil, p, err
		}
		lp, err := llm.New(llm.Config{BaseURL: p.BaseURL, Model: p.Model})
		return lp, p, err
	})
	conv, err := svc.NewConversation(provider.ID, "", "", []string{demo})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Send(conv.ID, "Echo 你好, please"); err != nil {
		t.Fatal(err)
	}
	svc.Wait()

	var text strings.Builder
	var kinds []string
	rec.mu.Lock()
	for _, e := range rec.events[EventChat] {
		ev := e.(ChatEvent)
		kinds = append(kinds, ev.Kind)
		if ev.Kind == "text" {
			text.WriteString(ev.Text)
		}
	}
	rec.mu.Unlock()
	if text.String() != "我来试试。服务器说：你好" || kinds[len(kinds)-1] != ChatDone {
		t.Errorf("streamed %q, events %v", text.String(), kinds)
	}
	if len(person.asked) != 1 || person.asked[0].ToolCall.Tool != "echo" || person.asked[0].Server.Name != DemoServerName {
		t.Fatalf("asked %+v", person.asked)
	}
	msgs, err := svc.Messages(conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "user,assistant,tool,assistant" {
		t.Fatalf("stored roles %v", roles)
	}
	call := msgs[1].ToolCalls[0]
	if call.ServerID != demo || call.Tool != "echo" || string(call.Arguments) != `{"message":"你好"}` {
		t.Errorf("stored call %+v", call)
	}
	var result string
	_ = json.Unmarshal(msgs[2].ToolResult.Content, &result)
	if !strings.Contains(result, "你好") || msgs[2].ToolResult.Denied {
		t.Errorf("stored result %q", result)
	}
	if msgs[3].Text != "服务器说：你好" || msgs[3].Usage == nil || msgs[3].Usage.Output != 7 {
		t.Errorf("final answer %+v", msgs[3])
	}
	// The conversation got a title and remembers the tool allowed in it.
	got, _ := core.Store.Conversation(conv.ID)
	if got.Title != "Echo 你好, please" || len(got.AllowedTools) != 1 || got.AllowedTools[0].Tool != "echo" {
		t.Errorf("conversation = %+v", got)
	}
	// History records the approval with the broker's other questions.
	core.Broker.FlushHistory()
	hist, _ := core.Store.History(store.HistoryFilter{})
	if len(hist) != 1 || hist[0].Mode != mcp.KindToolCall || hist[0].Outcome != store.OutcomeAccepted {
		t.Errorf("history = %+v", hist)
	}
}
