package chat

import (
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Stored tool-call policies, as the person set them in Settings, per tool
// and per server. Empty means none is set.
const (
	PolicyAsk   = "ask"
	PolicyAllow = "allow"
	PolicyDeny  = "deny"
)

// ToolSettings is what the loop reads and writes of the person's choices
// about tools. The app implements it over the store.
type ToolSettings interface {
	// ToolPolicy is the policy set for one tool of a server; "" for none.
	ToolPolicy(serverID, tool string) (string, error)
	// Approved is what the person saw of a tool set to PolicyAllow when
	// they allowed it (nil when not recorded): the allowance holds only
	// while the tool is the same (store.ToolSeen.Same).
	Approved(serverID, tool string) (*store.ToolSeen, error)
	// ServerPolicy is the policy set for all of a server's tools; "" for none.
	ServerPolicy(serverID string) (string, error)
	// Trusted reports whether the person marked the server trusted: only
	// then may its annotations (a read-only hint) skip the question.
	Trusted(serverID string) (bool, error)
	// AllowAlways records "Always allow this tool", bound to what the
	// person saw of it (also when it re-binds an allowance held because
	// the tool changed).
	AllowAlways(serverID, tool string, seen store.ToolSeen) error
}

// Decide returns what the person's settings do with a call of one tool
// outside any conversation's allowance, as the broker policy
// (mcp.ToolPolicyAsk, Allow or Deny) and why, in a sentence: what Settings
// shows for the tool. tool and server are the policies set ("" for none).
func Decide(tool, server string, trusted, readOnly bool) (policy string, why i18n.Message) {
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
func decide(tool, server string, trusted, readOnly, allowedHere bool) (policy string, why i18n.Message) {
	switch {
	case tool == PolicyDeny:
		return mcp.ToolPolicyDeny, i18n.M("chat.why.toolDeny")
	case tool == PolicyAllow:
		return mcp.ToolPolicyAllow, i18n.M("chat.why.toolAllow")
	case allowedHere:
		return mcp.ToolPolicyAllow, i18n.M("chat.why.conversation")
	case tool == PolicyAsk:
		return mcp.ToolPolicyAsk, i18n.Message{}
	case server == PolicyDeny:
		return mcp.ToolPolicyDeny, i18n.M("chat.why.serverDeny")
	case server == PolicyAllow:
		return mcp.ToolPolicyAllow, i18n.M("chat.why.serverAllow")
	case trusted && readOnly && server != PolicyAsk:
		return mcp.ToolPolicyAllow, i18n.M("chat.why.trusted")
	}
	return mcp.ToolPolicyAsk, i18n.Message{}
}
