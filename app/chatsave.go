package app

import (
	"encoding/json"

	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/store"
)

// A turn's messages are stored one by one as they complete (chat.Turn.Save),
// so that Gatehouse killed part way through a turn (a crash, kill -9, a
// power cut) loses at most the text being streamed. Such a turn is left
// without its end: the next turn of the conversation first closes it
// (closeInterrupted).

// interruptedResult answers, for the model, a tool call whose result was
// never stored: Gatehouse stopped while the call was asked about or ran, so
// whether the tool ran is not known. The window says it in the person's
// language (store.ToolResult.Interrupted).
const interruptedResult = "Interrupted: Gatehouse closed before this call's result was saved; the tool may or may not have run."

// turnSaver stores a turn's messages in order, each as soon as it is
// complete (chat.Turn.Save), on the turn's goroutine.
type turnSaver struct {
	store          *store.Store
	conversationID string
	// person is the person's message being stored in the background, nil
	// when none: a disk sync takes milliseconds, which must not delay the
	// model's first token (P8a), so it is stored while the model is asked.
	person chan error
	// err is the first message that could not be stored.
	err error
}

// save stores m after the messages before it. The person's message is
// stored in the background; any other waits until it is written. The error
// is the first failure to store a message of the turn, then every later
// save fails with it.
func (t *turnSaver) save(m store.Message) error {
	if t.wait() != nil {
		return t.err
	}
	if m.Role == store.RoleUser {
		done := make(chan error, 1)
		t.person = done
		go func() {
			_, err := t.store.AppendMessages(t.conversationID, m)
			done <- err
		}()
		return nil
	}
	if _, err := t.store.AppendMessages(t.conversationID, m); err != nil {
		t.err = err
	}
	return t.err
}

// wait waits until every message given to save is written, and returns the
// first failure to store one.
func (t *turnSaver) wait() error {
	if t.person != nil {
		if err := <-t.person; err != nil && t.err == nil {
			t.err = err
		}
		t.person = nil
	}
	return t.err
}

// storedMessage turns a complete message of a turn into the stored one,
// naming the server and tool behind each call, and the provider and model
// behind each answer.
func storedMessage(saved chat.Saved, providerID, model string) store.Message {
	m := saved.Message
	sm := store.Message{Role: string(m.Role), Text: m.Text, Reasoning: m.Reasoning, ToolCallID: m.ToolCallID}
	if m.Role == llm.RoleAssistant {
		sm.ProviderID, sm.Model = providerID, model
	}
	if len(m.Thinking) > 0 {
		sm.ProviderData, _ = json.Marshal(m.Thinking)
	}
	for _, c := range m.ToolCalls {
		call := saved.Calls[c.ID]
		args := c.Arguments
		if args == nil {
			args, _ = json.Marshal(c.MalformedArguments)
		}
		sm.ToolCalls = append(sm.ToolCalls, store.ToolCall{ID: c.ID, Name: c.Name, ServerID: call.ServerID, Tool: call.Tool, Arguments: args, App: call.App})
	}
	if m.Role == llm.RoleTool {
		content, _ := json.Marshal(m.Text)
		sm.ToolResult = &store.ToolResult{Content: content, IsError: m.IsError, Denied: saved.Calls[m.ToolCallID].State == chat.CallDenied}
		sm.Text = ""
	}
	if u := saved.Usage; u != nil {
		sm.Usage = &store.Usage{Input: u.InputTokens, Output: u.OutputTokens}
	}
	return sm
}

// endsTurn reports whether m is the last message of a turn that ended: the
// model's answer without tool calls, or the marker of a failed turn.
func endsTurn(m store.Message) bool {
	return m.Role == store.RoleAssistant && (len(m.ToolCalls) == 0 || m.Error != "")
}

// unfinished reports whether the conversation's last turn never ended: it
// was running when Gatehouse was killed, or a message of it could not be
// stored.
func unfinished(msgs []store.Message) bool {
	return len(msgs) > 0 && !endsTurn(msgs[len(msgs)-1])
}

// closeInterrupted returns the messages that close the conversation's last
// turn when it never ended (unfinished), or nil: a result for each of its
// tool calls that has none, saying the call was interrupted, and the marker
// of a failed turn saying why. With them the conversation is one a provider
// accepts (a tool call always has its result) and the window shows what
// happened.
func closeInterrupted(msgs []store.Message) []store.Message {
	if !unfinished(msgs) {
		return nil
	}
	start := len(msgs)
	for start > 0 && !endsTurn(msgs[start-1]) {
		start--
	}
	answered := map[string]bool{}
	for _, m := range msgs[start:] {
		if m.Role == store.RoleTool {
			answered[m.ToolCallID] = true
		}
	}
	var out []store.Message
	content, _ := json.Marshal(interruptedResult)
	for _, m := range msgs[start:] {
		for _, c := range m.ToolCalls {
			if !answered[c.ID] {
				out = append(out, store.Message{Role: store.RoleTool, ToolCallID: c.ID,
					ToolResult: &store.ToolResult{Content: content, IsError: true, Interrupted: true}})
			}
		}
	}
	return append(out, store.Message{Role: store.RoleAssistant, Error: i18n.M("chat.error.interrupted").String()})
}
