package app

import (
	"encoding/json"
	"log"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/store"
)

// What Gatehouse keeps for the apps (MCP Apps) beside the open instances:
// the recent calls of tools with an interface, so that an app opened for a
// call gets exactly the arguments sent and the result the server returned
// (callBook), and the model context the person accepted from apps, until
// the conversation's next turn (contextBook).

// Bounds of what is kept for apps.
const (
	// maxKeptCalls bounds the calls callBook keeps, maxKeptCallBytes their
	// arguments and results together; the oldest go first.
	maxKeptCalls     = 64
	maxKeptCallBytes = 32 << 20
	// maxAppText bounds the text of one app message or context update.
	maxAppText = 16 << 10
	// maxContextConversations bounds the conversations with context
	// waiting for their next turn; the oldest is forgotten.
	maxContextConversations = 64
)

// keptCall is one call of a tool with an interface, as it was made.
type keptCall struct {
	id             string
	serverID, tool string
	conversationID string // "" outside a chat
	args, result   json.RawMessage
}

// callBook keeps recent calls of tools with an interface by call ID (a chat
// call's model-given ID or the Tools pane's): a newer call under the same
// ID replaces the older.
type callBook struct {
	mu    sync.Mutex
	calls []keptCall // oldest first
}

// put keeps one call and returns it as kept; a call whose arguments or
// result cannot be written as JSON, or are larger than everything kept may
// be, is not kept (false).
func (b *callBook) put(c keptCall, args map[string]any, res *sdk.CallToolResult) (keptCall, bool) {
	if c.id == "" || res == nil {
		return keptCall{}, false
	}
	var err error
	if c.args, err = json.Marshal(args); err != nil {
		return keptCall{}, false
	}
	if c.result, err = json.Marshal(res); err != nil || len(c.args)+len(c.result) > maxKeptCallBytes {
		return keptCall{}, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.calls[:0]
	size := len(c.args) + len(c.result)
	for _, old := range b.calls {
		if old.id != c.id {
			kept = append(kept, old)
			size += len(old.args) + len(old.result)
		}
	}
	b.calls = append(kept, c)
	for len(b.calls) > maxKeptCalls || size > maxKeptCallBytes {
		size -= len(b.calls[0].args) + len(b.calls[0].result)
		b.calls = b.calls[1:]
	}
	return c, true
}

// get returns the call kept under id.
func (b *callBook) get(id string) (keptCall, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range b.calls {
		if c.id == id {
			return c, true
		}
	}
	return keptCall{}, false
}

// appContext is the model context one app gave a conversation, as the
// person accepted it.
type appContext struct {
	instanceID string
	app        string // the app's name (its tool's title)
	server     string // its server's name
	text       string
}

// contextBook keeps the context apps gave each conversation until its next
// turn: each app's last accepted update only (an update replaces the one
// before, as the specification says), at most maxOpenApps per conversation.
type contextBook struct {
	mu    sync.Mutex
	order []string // conversation IDs, oldest first
	byID  map[string][]appContext
}

// put keeps c for the conversation's next turn; empty text removes the
// app's context.
func (b *contextBook) put(conversationID string, c appContext) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byID == nil {
		b.byID = map[string][]appContext{}
	}
	list := b.byID[conversationID]
	kept := list[:0]
	for _, old := range list {
		if old.instanceID != c.instanceID {
			kept = append(kept, old)
		}
	}
	if c.text != "" {
		kept = append(kept, c)
	}
	if len(kept) > maxOpenApps {
		kept = kept[len(kept)-maxOpenApps:]
	}
	b.order = removeString(b.order, conversationID)
	if len(kept) == 0 {
		delete(b.byID, conversationID)
		return
	}
	b.byID[conversationID] = kept
	b.order = append(b.order, conversationID)
	for len(b.order) > maxContextConversations {
		delete(b.byID, b.order[0])
		b.order = b.order[1:]
	}
}

// take returns the context kept for the conversation's next turn, as the
// model reads it after the system prompt, and forgets it.
func (b *contextBook) take(conversationID string) string {
	b.mu.Lock()
	list := b.byID[conversationID]
	delete(b.byID, conversationID)
	b.order = removeString(b.order, conversationID)
	b.mu.Unlock()
	var sb strings.Builder
	for _, c := range list {
		sb.WriteString("Context from the app \"" + c.app + "\" of the MCP server \"" + c.server +
			"\", which the person read and accepted:\n" + c.text + "\n\n")
	}
	return strings.TrimSpace(sb.String())
}

// withAppContext is a turn's system prompt with the apps' context after it.
func withAppContext(system, context string) string {
	switch {
	case context == "":
		return system
	case system == "":
		return context
	}
	return system + "\n\n" + context
}

func removeString(list []string, s string) []string {
	out := list[:0]
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

// keepChatCall keeps a chat call of a tool with an interface for the app
// shown in its card (chat.Runner.Ran): in memory for this session, and with
// its conversation (up to store.MaxAppCallBytes) for the card drawn again
// after a restart. A call not stored keeps its app until Gatehouse closes.
func (c *Core) keepChatCall(conversationID string, call chat.Call, args map[string]any, res *sdk.CallToolResult) {
	kept, ok := c.appCalls.put(keptCall{id: call.ID, serverID: call.ServerID, tool: call.Tool, conversationID: conversationID}, args, res)
	if !ok || conversationID == "" || len(kept.args)+len(kept.result) > store.MaxAppCallBytes {
		return
	}
	err := c.Store.PutAppCall(store.AppCall{ConversationID: conversationID, CallID: call.ID, ServerID: call.ServerID,
		Tool: call.Tool, Arguments: kept.args, Result: kept.result})
	if err != nil {
		log.Printf("gatehouse: the app of tool call %q is not kept for the next start: %v", call.ID, err)
	}
}

// keptAppCall returns the call an app is opened for: the one this session
// made, else the one kept with the conversation.
func (c *Core) keptAppCall(conversationID, callID string) (keptCall, bool) {
	if kept, ok := c.appCalls.get(callID); ok {
		return kept, true
	}
	if conversationID == "" {
		return keptCall{}, false
	}
	stored, err := c.Store.AppCall(conversationID, callID)
	if err != nil {
		return keptCall{}, false
	}
	return keptCall{id: stored.CallID, serverID: stored.ServerID, tool: stored.Tool, conversationID: conversationID,
		args: stored.Arguments, result: stored.Result}, true
}
