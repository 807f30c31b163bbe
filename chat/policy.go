package chat

import (
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// ToolSettings is what the loop reads and writes of the person's choices
// about tools. The app implements it over the store.
type ToolSettings interface {
	// ToolPolicy is the person's policy for the server's tools: read once
	// for each call.
	ToolPolicy(serverID string) (store.ToolPolicy, error)
	// AllowAlways records "Always allow this tool", bound to what the
	// person saw of it (also when it re-binds an allowance held because
	// the tool changed).
	AllowAlways(serverID, tool string, seen store.ToolSeen) error
}

// Decide returns what the person's settings do with a call of one tool
// outside any conversation's allowance, as the broker policy
// (store.ToolAsk, ToolAllow or ToolDeny) and why, in a sentence: what
// Settings shows for the tool. tool and server are the modes set (a
// store.ToolPolicy's Tools and Mode; "" for none).
func Decide(tool, server store.ToolMode, trusted, readOnly bool) (policy store.ToolMode, why i18n.Message) {
	return decide(tool, server, trusted, readOnly, false)
}

// decide returns the broker policy for one call and why, in a sentence: the
// tool's own allow or deny first, then an allowance for this conversation
// (the person's answer in the dialog, which a tool set to ask each time
// also honours: setting a tool to ask each time, or denying it, in Settings
// ends the allowances given before it, see store.EndToolGrants), then the
// tool's own ask, then the server's policy, then a read-only tool of a
// trusted server; anything else is asked. An allowance held because its
// tool changed is passed as none (tool "", allowedHere false).
func decide(tool, server store.ToolMode, trusted, readOnly, allowedHere bool) (policy store.ToolMode, why i18n.Message) {
	switch {
	case tool == store.ToolDeny:
		return store.ToolDeny, i18n.M("chat.why.toolDeny")
	case tool == store.ToolAllow:
		return store.ToolAllow, i18n.M("chat.why.toolAllow")
	case allowedHere:
		return store.ToolAllow, i18n.M("chat.why.conversation")
	case tool == store.ToolAsk:
		return store.ToolAsk, i18n.Message{}
	case server == store.ToolDeny:
		return store.ToolDeny, i18n.M("chat.why.serverDeny")
	case server == store.ToolAllow:
		return store.ToolAllow, i18n.M("chat.why.serverAllow")
	case trusted && readOnly:
		return store.ToolAllow, i18n.M("chat.why.trusted")
	}
	return store.ToolAsk, i18n.Message{}
}
