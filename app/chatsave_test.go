package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// The tests in this file use llmtest's stand-in for a model provider (no
// model can run on these machines), the real demo server and a real bbolt
// file. The kill -9 test of the same is cli's
// TestCLI_ChatKilledMidTurnKeepsEveryFinishedMessage.

// summary writes stored messages one a line, for comparing.
func summary(msgs []store.Message) string {
	var lines []string
	for _, m := range msgs {
		line := m.Role + ":"
		if m.Text != "" {
			line += " " + m.Text
		}
		for _, c := range m.ToolCalls {
			line += fmt.Sprintf(" [%s %s]", c.ID, c.Tool)
		}
		if r := m.ToolResult; r != nil {
			var text string
			_ = json.Unmarshal(r.Content, &text)
			line += fmt.Sprintf(" %s %s", m.ToolCallID, text)
			if r.Interrupted {
				line += " (interrupted)"
			}
		}
		if m.Error != "" {
			line += " error: " + m.Error
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// TestChatService_EachMessageIsStoredAsItCompletes: while the model streams
// its final text, the person's message, the model's two tool calls and
// their results are stored already; the window's read (Messages) leaves
// them out while the turn runs, since it shows them from the turn's events,
// and after the turn each is stored once, with the marker of the stopped
// turn after them.
func TestChatService_EachMessageIsStoredAsItCompletes(t *testing.T) {
	core, rec, svc, demo := chatWithDemo(t)
	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: []string{"Before."}},
		{Text: []string{"Twice."}, ToolCalls: []llmtest.ToolCall{
			{ID: "c1", Name: "echo", Arguments: []string{`{"message":"一"}`}},
			{ID: "c2", Name: "echo", Arguments: []string{`{"message":"二"}`}},
		}},
		{Text: []string{"Both came back"}, Hold: true},
	}})
	p := addProvider(t, core, "Stand-in", store.ProviderOpenAI, stand, "m")
	conv, err := svc.NewConversation(p.ID, "", "", []string{demo})
	if err != nil {
		t.Fatal(err)
	}
	sendAndWait(t, svc, rec, conv.ID, "Hello", ChatDone)
	earlier := "user: Hello\nassistant: Before."

	if err := svc.Send(conv.ID, "Echo twice"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the final text to stream", func() bool { return len(stand.ChatRequests()) == 3 && stand.Answering() == 1 })
	stored, err := core.Store.Messages(conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	running := earlier + "\nuser: Echo twice\nassistant: Twice. [c1 echo] [c2 echo]\ntool: c1 一\ntool: c2 二"
	if got := summary(stored); got != running {
		t.Errorf("stored while the final text streams:\n%s\nwant:\n%s", got, running)
	}
	shown, err := allMessages(svc, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(shown); got != earlier {
		t.Errorf("the window reads while the turn runs:\n%s\nwant only the turns before it:\n%s", got, earlier)
	}

	svc.Stop(conv.ID)
	svc.Wait()
	shown, err = allMessages(svc, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(shown), running+"\nassistant: error: Stopped."; got != want {
		t.Errorf("stored after the turn:\n%s\nwant:\n%s", got, want)
	}
}

// TestChatService_InterruptedTurnIsClosedBeforeTheNext: a turn that a kill
// left without its end (stored here as it would be) is closed when the
// conversation goes on, by a new message or by Retry: each call without a
// result gets one saying it was interrupted, and the marker of a failed
// turn says what happened. The stand-in, like OpenAI, refuses a history
// whose tool calls lack results.
func TestChatService_InterruptedTurnIsClosedBeforeTheNext(t *testing.T) {
	interrupted := "tool: %s " + interruptedResult + " (interrupted)"
	marker := "assistant: error: This turn did not finish: Gatehouse closed while it ran. What it had finished is kept above."
	calls := []store.ToolCall{{ID: "c1", Name: "echo", Tool: "echo", Arguments: json.RawMessage(`{"message":"一"}`)},
		{ID: "c2", Name: "echo", Tool: "echo", Arguments: json.RawMessage(`{"message":"二"}`)}}
	result := store.Message{Role: store.RoleTool, ToolCallID: "c1", ToolResult: &store.ToolResult{Content: json.RawMessage(`"一"`)}}
	cases := []struct {
		name  string
		left  []store.Message // what the killed turn stored
		retry bool            // Retry instead of a new message
		want  string          // what the next turn stores before its answer
	}{
		{"killed before the model answered: Retry answers the message",
			[]store.Message{{Role: store.RoleUser, Text: "Echo twice"}}, true,
			"user: Echo twice\n" + marker},
		{"killed while the first call was asked about: both calls are interrupted",
			[]store.Message{{Role: store.RoleUser, Text: "Echo twice"}, {Role: store.RoleAssistant, ToolCalls: calls}}, false,
			"user: Echo twice\nassistant: [c1 echo] [c2 echo]\n" + fmt.Sprintf(interrupted, "c1") + "\n" + fmt.Sprintf(interrupted, "c2") + "\n" +
				marker + "\nuser: Go on"},
		{"killed while the second call ran: only that one is interrupted",
			[]store.Message{{Role: store.RoleUser, Text: "Echo twice"}, {Role: store.RoleAssistant, ToolCalls: calls}, result}, true,
			"user: Echo twice\nassistant: [c1 echo] [c2 echo]\ntool: c1 一\n" + fmt.Sprintf(interrupted, "c2") + "\n" + marker},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			core, rec, svc, demo := chatWithDemo(t)
			stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"Carrying on."}}}})
			p := addProvider(t, core, "Stand-in", store.ProviderOpenAI, stand, "m")
			conv, err := svc.NewConversation(p.ID, "", "", []string{demo})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := core.Store.AppendMessages(conv.ID, tc.left...); err != nil {
				t.Fatal(err)
			}
			if tc.retry {
				if err := svc.Retry(conv.ID); err != nil {
					t.Fatalf("Retry after an interrupted turn: %v", err)
				}
			} else if err := svc.Send(conv.ID, "Go on"); err != nil {
				t.Fatal(err)
			}
			svc.Wait()
			if ev := lastChatEvent(rec, conv.ID); ev.Kind != ChatDone {
				t.Fatalf("the next turn ended %q (%s), want done", ev.Kind, ev.Error)
			}
			msgs, err := allMessages(svc, conv.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := summary(msgs), tc.want+"\nassistant: Carrying on."; got != want {
				t.Errorf("stored:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestCloseInterrupted: which stored conversations end in a turn that never
// ended, and what closes it.
func TestCloseInterrupted(t *testing.T) {
	call := func(ids ...string) store.Message {
		m := store.Message{Role: store.RoleAssistant}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, store.ToolCall{ID: id, Name: "echo"})
		}
		return m
	}
	result := func(id string) store.Message {
		return store.Message{Role: store.RoleTool, ToolCallID: id, ToolResult: &store.ToolResult{Content: json.RawMessage(`"ok"`)}}
	}
	user := store.Message{Role: store.RoleUser, Text: "hi"}
	answer := store.Message{Role: store.RoleAssistant, Text: "done"}
	stopped := store.Message{Role: store.RoleAssistant, Error: "Stopped."}
	cases := []struct {
		name string
		msgs []store.Message
		want []string // the IDs of the calls given an interrupted result; nil: nothing to close
	}{
		{"an empty conversation has nothing to close", nil, nil},
		{"a turn that ended with an answer is closed", []store.Message{user, call("c1"), result("c1"), answer}, nil},
		{"a stopped turn keeps its calls without results (they did not run)", []store.Message{user, call("c1", "c2"), result("c1"), stopped}, nil},
		{"the person's message alone is closed with the marker", []store.Message{answer, user}, []string{}},
		{"calls without results are interrupted", []store.Message{user, call("c1", "c2")}, []string{"c1", "c2"}},
		{"only the calls of the last turn that lack a result",
			[]store.Message{user, call("a"), stopped, user, call("c1"), result("c1"), call("c2", "c3"), result("c3")}, []string{"c2"}},
		{"all results in and no answer: only the marker", []store.Message{user, call("c1"), result("c1")}, []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := closeInterrupted(tc.msgs)
			if tc.want == nil {
				if got != nil || unfinished(tc.msgs) {
					t.Fatalf("closeInterrupted = %+v, want nothing", got)
				}
				return
			}
			if len(got) != len(tc.want)+1 {
				t.Fatalf("closeInterrupted = %+v, want results for %v and the marker", got, tc.want)
			}
			for i, id := range tc.want {
				r := got[i]
				if r.Role != store.RoleTool || r.ToolCallID != id || r.ToolResult == nil || !r.ToolResult.Interrupted || !r.ToolResult.IsError ||
					string(r.ToolResult.Content) != mustMarshal(t, interruptedResult) {
					t.Errorf("result %d = %+v, want %s interrupted", i, r, id)
				}
			}
			if m := got[len(got)-1]; !endsTurn(m) || m.Error == "" {
				t.Errorf("the last message = %+v, want the marker of a failed turn", m)
			}
		})
	}
}
