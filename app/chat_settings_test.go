package app

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// The tests in this file use llmtest's stand-ins for model providers (no
// model can run on these machines); like the vendors, the stand-ins refuse a
// request whose history is malformed for them. The MCP server is the real
// demo server, and the store a real bbolt file.

// chatWithDemo opens a core whose demo server is connected and answered by
// a person who allows every call, and returns the chat service on it.
func chatWithDemo(t *testing.T) (*Core, *recorder, *ChatService, string) {
	t.Helper()
	core, rec := openTestCore(t)
	core.SetAnswerer(&approver{})
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	demo := demoID(t, core)
	waitUntil(t, "the demo server to connect", func() bool { st, _ := core.Manager.Status(demo); return st.State == "connected" })
	return core, rec, NewChatService(core, core.ProviderFor), demo
}

// addProvider saves a provider for a stand-in.
func addProvider(t *testing.T, core *Core, name, kind string, s *llmtest.Server, model string) store.Provider {
	t.Helper()
	p, err := core.Store.PutProvider(store.Provider{Name: name, Kind: kind, BaseURL: s.URL, Model: model})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// lastChatEvent returns the last event of the conversation's turns.
func lastChatEvent(rec *recorder, convID string) ChatEvent {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var last ChatEvent
	for _, e := range rec.events[EventChat] {
		if ev := e.(ChatEvent); ev.ConversationID == convID {
			last = ev
		}
	}
	return last
}

// sendAndWait sends text and waits for the turn's end, failing the test
// unless it ends as wantKind.
func sendAndWait(t *testing.T, svc *ChatService, rec *recorder, convID, text, wantKind string) ChatEvent {
	t.Helper()
	if err := svc.Send(convID, text); err != nil {
		t.Fatal(err)
	}
	svc.Wait()
	ev := lastChatEvent(rec, convID)
	if ev.Kind != wantKind {
		t.Fatalf("the turn for %q ended %q (%s), want %q", text, ev.Kind, ev.Error, wantKind)
	}
	return ev
}

// TestChatService_SwitchingProviderKeepsTheHistoryUsable: a conversation
// starts on an Anthropic-format provider whose model thinks (signed
// thinking) and calls the demo's echo; the person then switches to an
// OpenAI-compatible provider with another model and a system prompt, back
// to the first one, and to a second Anthropic-format provider. Each
// provider accepts the history, gets the model and system prompt chosen
// last, and signed thinking goes back only to the provider that signed it.
func TestChatService_SwitchingProviderKeepsTheHistoryUsable(t *testing.T) {
	core, rec, svc, demo := chatWithDemo(t)
	first := llmtest.NewAnthropic(t, llmtest.Script{Turns: []llmtest.Turn{
		{Reasoning: []string{"要用", "回声工具。"}, Signature: "sig-first", ToolCalls: []llmtest.ToolCall{{ID: "toolu_01", Name: "echo", Arguments: []string{`{"message":"你好"}`}}}},
		{Text: []string{"服务器说：你好"}},
		{Text: []string{"Back on the first provider."}},
	}})
	compatible := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"简短的回答。"}}}})
	second := llmtest.NewAnthropic(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"The second one answers."}}}})
	providers := map[*llmtest.Server]store.Provider{
		first:      addProvider(t, core, "First", store.ProviderAnthropic, first, "claude-standin"),
		compatible: addProvider(t, core, "Compatible", store.ProviderOpenAI, compatible, "default-standin"),
		second:     addProvider(t, core, "Second", store.ProviderAnthropic, second, "claude-other"),
	}
	conv, err := svc.NewConversation(providers[first].ID, "", "", []string{demo})
	if err != nil {
		t.Fatal(err)
	}
	sendAndWait(t, svc, rec, conv.ID, "Echo 你好", ChatDone)

	steps := []struct {
		name         string
		to           *llmtest.Server
		model        string
		system       string
		wantModel    string
		wantThinking bool // the first answer's signed thinking is sent
	}{
		{"to an OpenAI-compatible provider with a model and a system prompt of its own", compatible, "gpt-standin", "简短回答。", "gpt-standin", false},
		{"back to the first provider and its default model", first, "", "", "claude-standin", true},
		{"to another Anthropic-format provider, which did not sign the thinking", second, "", "Be brief.", "claude-other", false},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			updated, err := svc.UpdateConversation(conv.ID, providers[step.to].ID, step.model, step.system, []string{demo})
			if err != nil {
				t.Fatal(err)
			}
			if updated.ProviderID != providers[step.to].ID || updated.Model != step.model || updated.SystemPrompt != step.system {
				t.Fatalf("UpdateConversation stored %+v", updated)
			}
			sendAndWait(t, svc, rec, conv.ID, "And now?", ChatDone)

			reqs := step.to.ChatRequests()
			var body map[string]any
			reqs[len(reqs)-1].Decode(t, &body)
			if body["model"] != step.wantModel {
				t.Errorf("model = %v, want %q", body["model"], step.wantModel)
			}
			raw := string(reqs[len(reqs)-1].Body)
			if step.system != "" && !strings.Contains(raw, mustMarshal(t, step.system)) {
				t.Errorf("the system prompt %q was not sent: %s", step.system, raw)
			}
			if got := strings.Contains(raw, "sig-first"); got != step.wantThinking {
				t.Errorf("signed thinking sent = %v, want %v: %s", got, step.wantThinking, raw)
			}
			if !strings.Contains(raw, "toolu_01") || !strings.Contains(raw, "Echo 你好") {
				t.Errorf("the earlier tool call or the first message is missing: %s", raw)
			}
		})
	}
	// Each answer records who wrote it.
	msgs, _ := allMessages(svc, conv.ID)
	var writers []string
	for _, m := range msgs {
		if m.Role == store.RoleAssistant && m.Text != "" {
			writers = append(writers, m.Model)
		}
	}
	if strings.Join(writers, ",") != "claude-standin,gpt-standin,claude-standin,claude-other" {
		t.Errorf("answers were written by %v", writers)
	}
}

func mustMarshal(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestChatService_UpdateConversationRefuses: what the settings of a
// conversation cannot be changed to, each with a sentence, changing
// nothing.
func TestChatService_UpdateConversationRefuses(t *testing.T) {
	core, _, svc, demo := chatWithDemo(t)
	held := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"…"}, Hold: true}}})
	p := addProvider(t, core, "Held", store.ProviderOpenAI, held, "m")
	conv, err := svc.NewConversation(p.ID, "", "原来的提示", nil)
	if err != nil {
		t.Fatal(err)
	}
	running, err := svc.NewConversation(p.ID, "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Send(running.ID, "Think long"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.StopAll() })
	waitUntil(t, "the held turn to reach the stand-in", func() bool { return held.Answering() == 1 })

	cases := []struct {
		name       string
		convID     string
		providerID string
		servers    []string
		want       string
	}{
		{"while the model answers", running.ID, p.ID, nil, "still answering"},
		{"a provider that does not exist", conv.ID, "0123456789abcdef", nil, "no longer exists"},
		{"no provider", conv.ID, "", nil, "Choose a model provider"},
		{"a server that does not exist", conv.ID, p.ID, []string{demo, "gone"}, `no server with ID "gone"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := core.Store.Conversation(tc.convID)
			_, err := svc.UpdateConversation(tc.convID, tc.providerID, "other-model", "新的提示", tc.servers)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("UpdateConversation = %v, want a sentence with %q", err, tc.want)
			}
			if after, _ := core.Store.Conversation(tc.convID); after.SystemPrompt != before.SystemPrompt || after.Model != before.Model {
				t.Errorf("the refused change was stored: %+v", after)
			}
		})
	}
}

// TestChatService_DropOldToolResultsThenRetry: the person switches to a
// model with a small context (a stand-in that refuses a request over a
// size, with the vendor's own error), and the next message no longer fits.
// The turn fails saying so; the person drops the old tool results and tries
// again: the retry fits, the model gets a placeholder for the dropped result
// (the call keeps its result, as the provider requires), the person's
// message is stored and sent once, and the result stays stored.
func TestChatService_DropOldToolResultsThenRetry(t *testing.T) {
	core, rec, svc, demo := chatWithDemo(t)
	long := strings.Repeat("很长的结果。", 200) // 3,600 bytes that come back as the tool's result
	roomy := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "echo", Arguments: []string{`{"message":` + mustMarshal(t, long) + `}`}}}},
		{Text: []string{"The server said it back."}},
	}})
	p := addProvider(t, core, "Roomy", store.ProviderOpenAI, roomy, "big-context")
	conv, err := svc.NewConversation(p.ID, "", "", []string{demo})
	if err != nil {
		t.Fatal(err)
	}
	sendAndWait(t, svc, rec, conv.ID, "Echo a long text", ChatDone)

	// The small model's context holds the conversation so far and a little
	// more, not a long message on top of it.
	reqs := roomy.ChatRequests()
	limit := len(reqs[len(reqs)-1].Body) + 1000
	small := llmtest.NewOpenAI(t, llmtest.Script{MaxRequestBytes: limit, Turns: []llmtest.Turn{{Text: []string{"Fits now."}}}})
	sp := addProvider(t, core, "Small", store.ProviderOpenAI, small, "small-context")
	if _, err := svc.UpdateConversation(conv.ID, sp.ID, "", "", []string{demo}); err != nil {
		t.Fatal(err)
	}
	question := "这个问题很长：" + strings.Repeat("为什么？", 150) // 1,821 bytes
	failed := sendAndWait(t, svc, rec, conv.ID, question, ChatFailed)
	if !failed.ContextTooLong || !strings.Contains(failed.Error, "Drop old tool results") {
		t.Fatalf("the failure = %+v, want context too long with the way on", failed)
	}

	// The failure is stored with what it was, so that the ways on are
	// offered also after the window (or the app) started again.
	stored, _ := allMessages(svc, conv.ID)
	if last := stored[len(stored)-1]; last.Error == "" || !last.ContextTooLong {
		t.Fatalf("the stored failure = %+v, want it marked context too long", last)
	}

	if err := svc.Retry(conv.ID); err != nil { // retrying unchanged fails the same way
		t.Fatal(err)
	}
	svc.Wait()
	if ev := lastChatEvent(rec, conv.ID); ev.Kind != ChatFailed || !ev.ContextTooLong {
		t.Fatalf("a retry without dropping = %+v, want context too long again", ev)
	}
	n, err := svc.DropOldToolResults(conv.ID)
	if err != nil || n != 1 {
		t.Fatalf("DropOldToolResults = %d, %v; want 1", n, err)
	}
	if err := svc.Retry(conv.ID); err != nil {
		t.Fatal(err)
	}
	svc.Wait()
	if ev := lastChatEvent(rec, conv.ID); ev.Kind != ChatDone {
		t.Fatalf("the retry after dropping ended %+v, want done", ev)
	}

	sent := small.ChatRequests()
	raw := string(sent[len(sent)-1].Body)
	if strings.Count(raw, "为什么？为什么？") == 0 || strings.Count(raw, "这个问题很长") != 1 {
		t.Errorf("the person's message was not sent exactly once: %s", raw)
	}
	if strings.Contains(raw, `"content":"`+long) || !strings.Contains(raw, "dropped to save room") {
		t.Errorf("the dropped result was sent, or its placeholder was not: %s", raw)
	}
	msgs, _ := allMessages(svc, conv.ID)
	var questions, answers int
	for _, m := range msgs {
		switch {
		case m.Role == store.RoleUser && m.Text == question:
			questions++
		case m.Role == store.RoleTool:
			var text string
			_ = json.Unmarshal(m.ToolResult.Content, &text)
			if !m.Dropped || text != long {
				t.Errorf("the tool result is stored as %+v, want dropped and whole", m)
			}
		case m.Role == store.RoleAssistant && m.Text == "Fits now.":
			answers++
		}
	}
	if questions != 1 || answers != 1 {
		t.Errorf("stored the question %d times and the answer %d times, want once each", questions, answers)
	}

	// Nothing more to drop, and nothing to retry after a turn that ended well.
	if _, err := svc.DropOldToolResults(conv.ID); err == nil || !strings.Contains(err.Error(), "no earlier tool results") {
		t.Errorf("dropping again = %v, want a sentence", err)
	}
	if err := svc.Retry(conv.ID); err == nil || !strings.Contains(err.Error(), "did not fail") {
		t.Errorf("Retry after a good turn = %v, want a sentence", err)
	}
}

// TestToLLM: what the model receives for a stored conversation.
func TestToLLM(t *testing.T) {
	call := func(id string) []store.ToolCall {
		return []store.ToolCall{{ID: id, Name: "echo", Arguments: json.RawMessage(`{}`)}}
	}
	result := func(id, text string, dropped bool) store.Message {
		content, _ := json.Marshal(text)
		return store.Message{Role: store.RoleTool, ToolCallID: id, Dropped: dropped, ToolResult: &store.ToolResult{Content: content}}
	}
	thinking := json.RawMessage(`[{"text":"想","signature":"sig"}]`)
	cases := []struct {
		name string
		msgs []store.Message
		want []llm.Message
	}{
		{"a dropped result becomes a placeholder; the call keeps it",
			[]store.Message{{Role: store.RoleUser, Text: "读"}, {Role: store.RoleAssistant, ToolCalls: call("c1")}, result("c1", "很长", true)},
			[]llm.Message{{Role: llm.RoleUser, Text: "读"}, {Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "echo", Arguments: json.RawMessage(`{}`)}}},
				{Role: llm.RoleTool, ToolCallID: "c1", Text: droppedResult}}},
		{"a call without a stored result gets one saying it did not run",
			[]store.Message{{Role: store.RoleAssistant, ToolCalls: append(call("c1"), call("c2")...)}, result("c1", "好", false), {Role: store.RoleUser, Text: "再来"}},
			[]llm.Message{{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "echo", Arguments: json.RawMessage(`{}`)}, {ID: "c2", Name: "echo", Arguments: json.RawMessage(`{}`)}}},
				{Role: llm.RoleTool, ToolCallID: "c1", Text: "好"}, {Role: llm.RoleTool, ToolCallID: "c2", Text: notRunResult, IsError: true}, {Role: llm.RoleUser, Text: "再来"}}},
		{"a dropped answer takes its results with it; a failed turn's marker is left out",
			[]store.Message{{Role: store.RoleUser, Text: "a"}, {Role: store.RoleAssistant, Dropped: true, ToolCalls: call("c1")}, result("c1", "x", false), {Role: store.RoleAssistant, Error: "Stopped."}},
			[]llm.Message{{Role: llm.RoleUser, Text: "a"}}},
		{"thinking goes back to the provider that wrote it",
			[]store.Message{{Role: store.RoleAssistant, Text: "答", ProviderID: "p1", ProviderData: thinking}},
			[]llm.Message{{Role: llm.RoleAssistant, Text: "答", Thinking: []llm.ThinkingBlock{{Text: "想", Signature: "sig"}}}}},
		{"thinking does not go to another provider",
			[]store.Message{{Role: store.RoleAssistant, Text: "答", Reasoning: "想", ProviderID: "p2", ProviderData: thinking}},
			[]llm.Message{{Role: llm.RoleAssistant, Text: "答", Reasoning: "想"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := json.Marshal(toLLM(tc.msgs, "p1"))
			want, _ := json.Marshal(tc.want)
			if string(got) != string(want) {
				t.Errorf("toLLM:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// Once the app has begun to quit (StopAll), a new turn is refused with a
// sentence: before, a turn the command line started in that moment ran
// with nothing to stop it, and the app's exit waited for its model.
func TestChatService_NoTurnStartsOnceStopAllBegan(t *testing.T) {
	core, _, svc, _ := chatWithDemo(t)
	held := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"…"}, Hold: true}}})
	p := addProvider(t, core, "Held", store.ProviderOpenAI, held, "m")
	conv, err := svc.NewConversation(p.ID, "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	svc.StopAll()
	if err := svc.Send(conv.ID, "Think long"); !isMessage(err, "mcp.error.closing") {
		t.Errorf("a turn after StopAll: %v, want mcp.error.closing", err)
	}
	waited := make(chan struct{})
	go func() { svc.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		svc.StopAll() // the turn nothing stopped: end it, so that the test can
		t.Fatal("a turn started after StopAll still runs")
	}
	if n := len(held.ChatRequests()); n != 0 {
		t.Errorf("the model was asked %d times after StopAll", n)
	}
}
