package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	msgs, err := allMessages(svc, conv.ID)
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
	// History records the approval with the broker's other questions, then
	// the call as it ran (newest first).
	core.Broker.FlushHistory()
	hist, _ := core.Store.History(store.HistoryFilter{})
	if len(hist) != 2 || hist[1].Mode != mcp.KindToolCall || hist[1].Outcome != store.OutcomeAccepted {
		t.Fatalf("history = %+v", hist)
	}
	if run := hist[0]; run.Mode != mcp.KindToolRun || run.Source != store.SourceChat || run.Tool != "echo" || run.ServerID != demo ||
		run.Outcome != store.OutcomeOK || run.Arguments != nil || run.Result != "" {
		t.Errorf("the chat's tool run = %+v, want ok, without arguments or result (remember is off)", run)
	}
}

// TestChatService_CheckLink: a link in the model's answer is checked for the
// consent display only when the model wrote it in that conversation; the
// person's own words, other conversations and made-up addresses are refused,
// and so is what the link check refuses.
func TestChatService_CheckLink(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewChatService(core, nil)
	p, err := core.Store.PutProvider(store.Provider{Name: "Stand-in", Kind: store.ProviderOpenAI, BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := svc.NewConversation(p.ID, "", "", nil)
	other, _ := svc.NewConversation(p.ID, "", "", nil)
	answer := "见[文档](https://docs.example.com/a\\_b?x=1&amp;y=2)，或 www.example.org/path，别点 [这里](javascript:alert(1))。"
	if _, err := core.Store.AppendMessages(conv.ID,
		store.Message{Role: store.RoleUser, Text: "open https://person.example.net/ please"},
		store.Message{Role: store.RoleAssistant, Text: answer, Reasoning: "maybe https://thinking.example.com/x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := core.Store.AppendMessages(other.ID, store.Message{Role: store.RoleAssistant, Text: "https://elsewhere.example.com/"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, url, wantURL, wantErr string
	}{
		{"a Markdown link, escapes and references resolved", "https://docs.example.com/a_b?x=1&y=2", "https://docs.example.com/a_b?x=1&y=2", ""},
		{"a bare www address, as the reader completes it", "http://www.example.org/path", "", "will not open"},
		{"an address in the model's reasoning", "https://thinking.example.com/x", "https://thinking.example.com/x", ""},
		{"an address only the person wrote", "https://person.example.net/", "", "only addresses the model wrote"},
		{"an address from another conversation", "https://elsewhere.example.com/", "", "only addresses the model wrote"},
		{"an address nobody wrote", "https://evil.example.com/", "", "only addresses the model wrote"},
		{"a javascript: link the model wrote", "javascript:alert(1)", "", "will not open"},
		{"nothing", "", "", "only addresses the model wrote"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := svc.CheckLink(conv.ID, tc.url)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ID == "" || got.Link == nil || got.Link.URL != tc.wantURL {
				t.Errorf("checked = %+v", got)
			}
		})
	}
	if err := svc.OpenLink("not-an-id"); err == nil {
		t.Error("an unknown link ID opened something")
	}
}

// MessagePage reads a page of the stored conversation, with the views of
// its tool calls, and leaves out what a running turn stored so far.
func TestChatService_MessagePage(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewChatService(core, nil)
	conv, err := core.Store.PutConversation(store.Conversation{Title: "paged"})
	if err != nil {
		t.Fatal(err)
	}
	for turn := range 3 {
		id := fmt.Sprintf("call_%d", turn)
		if _, err := core.Store.AppendMessages(conv.ID,
			store.Message{Role: store.RoleUser, Text: fmt.Sprint("question ", turn)},
			store.Message{Role: store.RoleAssistant, ToolCalls: []store.ToolCall{{ID: id, Name: "t", ServerID: "s1", Tool: "t", Arguments: json.RawMessage(`{"n":1}`)}}},
			store.Message{Role: store.RoleTool, ToolCallID: id, ToolResult: &store.ToolResult{Content: json.RawMessage(`"ok"`)}},
		); err != nil {
			t.Fatal(err)
		}
	}
	seqs := func(p store.MessagePage) string {
		var out []string
		for _, m := range p.Messages {
			out = append(out, fmt.Sprint(m.Seq))
		}
		return fmt.Sprintf("%s more=%v", strings.Join(out, ","), p.More)
	}
	tests := []struct {
		name         string
		running      bool
		from, before uint64
		limit        int
		want         string
	}{
		{name: "the newest page", limit: 3, want: "7,8,9 more=true"},
		{name: "the page before it", before: 7, limit: 3, want: "4,5,6 more=true"},
		{name: "from a message on", from: 4, want: "4,5,6,7,8,9 more=true"},
		{name: "a running turn's messages are left out", running: true, limit: 3, want: "4,5,6 more=true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc.mu.Lock()
			if tc.running {
				svc.running[conv.ID], svc.before[conv.ID] = func() {}, 6
			} else {
				delete(svc.running, conv.ID)
			}
			svc.mu.Unlock()
			page, err := svc.MessagePage(conv.ID, tc.from, tc.before, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if got := seqs(page); got != tc.want {
				t.Errorf("MessagePage(%d, %d, %d) = %s; want %s", tc.from, tc.before, tc.limit, got, tc.want)
			}
			for _, m := range page.Messages {
				for _, c := range m.ToolCalls {
					if c.View == nil {
						t.Errorf("message %d's call %s has no view", m.Seq, c.ID)
					}
				}
			}
		})
	}
	if _, err := svc.MessagePage("nope", 0, 0, 10); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown conversation: %v; want ErrNotFound", err)
	}
}

// allMessages is every message of a conversation as the window reads them
// (ChatService.MessagePage of all).
func allMessages(svc *ChatService, id string) ([]store.Message, error) {
	page, err := svc.MessagePage(id, 0, 0, 0)
	return page.Messages, err
}
