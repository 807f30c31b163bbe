package chat

import (
	"context"
	"errors"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Consent is the one road of a tool call to the person's consent, whoever
// makes it: a model in a chat (Runner), a server's app in the window
// (app.AppsService.CallTool), another app through the gateway (package
// gateway). It decides from the person's Tool permissions (Decide: per
// server, per tool; an "Always allow" or an allowance given here for a tool
// that changed since counts as none, and the question says what changed),
// asks the person when they say so (mcp.Broker.ApproveToolCall: one
// question at a time, the rate limit, the answer time, the history), and
// records "Always allow" in the settings.
type Consent struct {
	Broker *mcp.Broker
	// Settings are the person's Tool permissions; nil reads none (every
	// call is asked) and records no "Always allow".
	Settings ToolSettings
}

// ConsentRequest is one call to decide on.
type ConsentRequest struct {
	Peer mcp.Peer
	// Tool is the tool as its server lists it now: what the person is
	// asked about, and what a grant must still match.
	Tool *sdk.Tool
	// Call says who asks and with what arguments (its Arguments, and
	// ConversationID and Conversation, App or Client); Approve fills in the
	// tool's own fields.
	Call mcp.ToolCall
	// AllowedHere, when set, returns the allowance the person gave for a
	// tool here (this conversation, this app while it is open, this
	// client's session), as the tool was when they gave it.
	AllowedHere func(store.ToolKey) (*store.ToolSeen, bool)
	// Here says why a call allowed here runs without asking; empty means
	// "allowed for this conversation".
	Here i18n.Message
	// Fingerprints, when set, remembers the tools' fingerprints (a caller
	// whose tools come from the mcp.Manager as listed); nil computes it.
	Fingerprints *mcp.FingerprintCache
	// AtOnce says the caller cannot wait for the person: a call they would
	// be asked about is not asked, and Approve returns ErrWouldAsk with
	// nothing recorded (the caller asks again where it can wait).
	AtOnce bool
}

// ErrWouldAsk is Approve's answer to a request made AtOnce that the person
// would be asked about.
var ErrWouldAsk = errors.New("the person would be asked about this call")

// Consented is the outcome of Approve.
type Consented struct {
	mcp.Approval
	// Seen is the tool as the person saw (or their settings took) it, At
	// set to now: what an allowance given with Approval.Scope is bound to.
	Seen store.ToolSeen
	// Note says why the call runs without asking, or how far the person
	// allowed it; empty when it was allowed once.
	Note i18n.Message
}

// Approve decides on one call, asking the person when their settings say
// so. The error is the broker's: ctx ended before the person answered.
func (c Consent) Approve(ctx context.Context, req ConsentRequest) (Consented, error) {
	t := req.Tool
	var seen store.ToolSeen
	if req.Fingerprints != nil {
		seen = req.Fingerprints.Get(req.Peer.Server, t)
	} else {
		seen = mcp.ToolFingerprint(req.Peer.Server, t)
	}
	d := c.decide(req, seen)
	if req.AtOnce && d.policy == store.ToolAsk {
		return Consented{}, ErrWouldAsk
	}
	call := req.Call
	call.Tool, call.Title, call.Description = t.Name, mcp.ToolTitle(t), t.Description
	call.ReadOnly, call.Destructive = readOnly(t), destructive(t)
	call.Held, call.Changes = d.held, d.changes
	approval, err := c.Broker.ApproveToolCall(ctx, req.Peer, call, d.policy, d.why)
	out := Consented{Approval: approval, Seen: seen, Note: d.why}
	if err != nil || !approval.Allowed {
		return out, err
	}
	out.Seen.At = time.Now()
	switch approval.Scope {
	case mcp.ScopeConversation:
		out.Note = req.Here
		if out.Note.Key == "" {
			out.Note = i18n.M("chat.why.conversation")
		}
	case mcp.ScopeAlways:
		if c.Settings != nil {
			if err := c.Settings.AllowAlways(req.Peer.Server.ID, t.Name, out.Seen); err != nil {
				out.Note = i18n.M("chat.note.alwaysNotSaved", "detail", err)
			} else {
				out.Note = i18n.M("chat.note.always")
			}
		}
	}
	return out, nil
}

// decision is what the person's settings do with one call.
type decision struct {
	policy store.ToolMode // store.ToolAsk, ToolAllow or ToolDeny
	why    i18n.Message   // why it is not asked
	// held is the scope of a grant held because the tool changed since the
	// person gave it (mcp.ScopeConversation or ScopeAlways; "" for none),
	// and changes say how; the question shows both.
	held    string
	changes []mcp.ToolChange
}

// decide decides, from the person's settings, whether a call of the tool
// (as its server lists it now, seen) is asked. A grant for a tool that is
// no longer the one the person saw counts as none; when the call is then
// asked, the question says what changed.
func (c Consent) decide(req ConsentRequest, seen store.ToolSeen) decision {
	serverID, t := req.Peer.Server.ID, req.Tool
	var p store.ToolPolicy
	var d decision
	var heldAt time.Time
	hold := func(scope string, was *store.ToolSeen) {
		var at time.Time
		if was != nil {
			at = was.At
		}
		if d.held == "" || at.After(heldAt) { // the latest grant says what changed
			d.held, d.changes, heldAt = scope, mcp.ToolChanges(was, seen), at
		}
	}
	if c.Settings != nil {
		p, _ = c.Settings.ToolPolicy(serverID)
	}
	tool := p.Tools[t.Name]
	if approved := p.Approval(t.Name); tool == store.ToolAllow && !approved.Same(seen) {
		tool = ""
		hold(mcp.ScopeAlways, approved)
	}
	var here *store.ToolSeen
	granted := false
	if req.AllowedHere != nil {
		here, granted = req.AllowedHere(store.ToolKey{ServerID: serverID, Tool: t.Name})
	}
	allowed := granted && here.Same(seen)
	if granted && !allowed {
		hold(mcp.ScopeConversation, here)
	}
	d.policy, d.why = decide(tool, p.Mode, p.Trusted, readOnly(t), allowed)
	if allowed && d.why.Key == "chat.why.conversation" && req.Here.Key != "" {
		d.why = req.Here
	}
	if d.policy != store.ToolAsk {
		d.held, d.changes = "", nil
	}
	return d
}
