package app

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// EventPolicies carries a ServerPolicyView whenever one server's policies
// change: in Settings, or when the consent dialog's "Always allow this
// tool" or "Mute" saves one.
const EventPolicies = "policies:changed"

// ServerPolicyView is one server's policies, as Settings → Tool permissions
// shows them.
type ServerPolicyView struct {
	ServerID   string `json:"serverId"`
	ServerName string `json:"serverName"` // the name the person gave it
	// Connected says whether Tools holds what the server offers now.
	Connected bool `json:"connected"`
	// Mode is what a call of the server's tools does: store.ToolAsk,
	// ToolAllow or ToolDeny. A tool's own mode wins.
	Mode store.ToolMode `json:"mode"`
	// Trusted: the person believes the server's read-only claims, so its
	// read-only tools run without asking while Mode is store.ToolAsk.
	Trusted bool `json:"trusted"`
	// Requests is how the server's elicitations and sampling requests are
	// answered: "ask", "decline", or "mute" until MutedUntil (RFC 3339).
	Requests   string `json:"requests"`
	MutedUntil string `json:"mutedUntil"`
	// Tools are the tools the server offers the model now, by name, then
	// those with a mode of their own that it does not offer now (Offered
	// false), so that an old "Always allow" can still be revoked.
	Tools []ToolPolicyView `json:"tools"`
}

// ToolPolicyView is one tool's policy.
type ToolPolicyView struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Hints are the server's claims about the tool (empty when not offered).
	Hints   ToolHints `json:"hints"`
	Offered bool      `json:"offered"`
	// Mode is the tool's own mode: store.ToolDefault (the server's),
	// ToolAsk (each time, whatever the server's mode and trust), ToolAllow
	// or ToolDeny.
	Mode store.ToolMode `json:"mode"`
	// Effective is what a call does now, outside a conversation where the
	// person allowed it: store.ToolAsk, ToolAllow or ToolDeny; Why says why
	// in a sentence when it is not asked.
	Effective store.ToolMode `json:"effective"`
	Why       i18n.Message   `json:"why"`
	// Held is set for a tool set to store.ToolAllow that is no longer the tool
	// the person allowed (its description, schema, annotations or server
	// changed, or Gatehouse did not record it as they saw it): the
	// allowance is held, and its next call is asked, saying what changed,
	// unless the server's mode decides. Effective says what a call does.
	Held bool `json:"held"`
}

// PoliciesService is bound to the frontend: Settings → Tool permissions.
// Every change it makes is what the chat obeys on the next call.
type PoliciesService struct {
	core *Core
}

// NewPoliciesService returns the tool permissions' service on core.
func NewPoliciesService(core *Core) *PoliciesService { return &PoliciesService{core: core} }

// List returns every configured server's policies, in the servers' order.
func (s *PoliciesService) List() ([]ServerPolicyView, error) {
	return s.core.policyViews(nil)
}

// policyViews returns every configured server's policies, in the servers'
// order, each under the policy over makes of the server's (nil: as it is).
func (c *Core) policyViews(over func(serverID string, p store.ToolPolicy) store.ToolPolicy) ([]ServerPolicyView, error) {
	servers, err := c.Store.Servers()
	if err != nil {
		return nil, err
	}
	views := make([]ServerPolicyView, 0, len(servers))
	for _, srv := range servers {
		var f func(store.ToolPolicy) store.ToolPolicy
		if over != nil {
			f = func(p store.ToolPolicy) store.ToolPolicy { return over(srv.ID, p) }
		}
		v, err := c.policyViewWith(srv, f)
		if err != nil {
			return nil, err
		}
		views = append(views, v)
	}
	return views, nil
}

// Server returns one server's policies.
func (s *PoliciesService) Server(serverID string) (ServerPolicyView, error) {
	srv, err := s.core.policyServer(serverID)
	if err != nil {
		return ServerPolicyView{}, err
	}
	return s.core.policyView(srv)
}

// SetMode sets what a call of the server's tools does: "ask", "allow" or
// "deny". Tools with a mode of their own keep it.
func (s *PoliciesService) SetMode(serverID, mode string) (ServerPolicyView, error) {
	stored := store.ToolMode(mode)
	if stored != store.ToolAsk && stored != store.ToolAllow && stored != store.ToolDeny {
		return ServerPolicyView{}, i18n.Err("policies.error.serverMode", "mode", strconv.Quote(mode))
	}
	v, err := s.change(serverID, func(p *store.ToolPolicy) { p.Mode = stored })
	if err == nil && stored == store.ToolDeny {
		// Denying the server now wins over the allowances given before in
		// conversations.
		if _, err := s.core.Store.EndToolGrants(v.ServerID, ""); err != nil {
			return v, i18n.Wrap(err, "policies.error.notSaved", "detail", err)
		}
	}
	return v, err
}

// SetTrusted marks the server trusted or not: only a trusted server's
// read-only claims let a tool run without asking.
func (s *PoliciesService) SetTrusted(serverID string, trusted bool) (ServerPolicyView, error) {
	return s.change(serverID, func(p *store.ToolPolicy) { p.Trusted = trusted })
}

// SetToolMode sets one tool's own mode: "default" (the server's mode
// applies), "ask" (each time), "allow" or "deny". The tool need not be
// offered now.
func (s *PoliciesService) SetToolMode(serverID, tool, mode string) (ServerPolicyView, error) {
	stored := store.ToolMode(mode)
	if stored != store.ToolDefault && stored != store.ToolAsk && stored != store.ToolAllow && stored != store.ToolDeny {
		return ServerPolicyView{}, i18n.Err("policies.error.toolMode", "mode", strconv.Quote(mode))
	}
	if strings.TrimSpace(tool) == "" {
		return ServerPolicyView{}, i18n.Err("policies.error.noTool")
	}
	srv, err := s.core.policyServer(serverID)
	if err != nil {
		return ServerPolicyView{}, err
	}
	// An allow is bound to the tool as the server offers it now; a tool not
	// offered now is held until the person allows one of its calls.
	if seen, offered := s.core.toolSeen(srv.ID, tool); stored == store.ToolAllow && offered {
		err = s.core.Store.AllowToolAlways(srv.ID, tool, seen)
	} else {
		err = s.core.Store.PutToolMode(srv.ID, tool, stored)
	}
	if err != nil {
		return ServerPolicyView{}, i18n.Wrap(err, "policies.error.toolNotSaved", "tool", tool, "detail", err)
	}
	// Asking each time, or denying, chosen now wins over the allowances
	// given before in conversations.
	if stored == store.ToolAsk || stored == store.ToolDeny {
		if _, err := s.core.Store.EndToolGrants(srv.ID, tool); err != nil {
			return ServerPolicyView{}, i18n.Wrap(err, "policies.error.toolNotSaved", "tool", tool, "detail", err)
		}
	}
	return s.core.emitPolicies(srv.ID)
}

// SetRequests sets how the server's elicitations and sampling requests are
// answered: "ask" (shown to the person; also ends a mute) or "decline"
// (without showing them; those waiting are declined now).
func (s *PoliciesService) SetRequests(serverID, mode string) (ServerPolicyView, error) {
	if _, err := s.core.policyServer(serverID); err != nil {
		return ServerPolicyView{}, err
	}
	if err := s.core.setRequestPolicy(serverID, mode); err != nil {
		return ServerPolicyView{}, err
	}
	return s.core.emitPolicies(serverID)
}

// Reset puts the server back to the defaults: every tool call and every
// request is asked, no claim is trusted, no tool has a mode of its own, and
// no tool stays allowed in a conversation.
func (s *PoliciesService) Reset(serverID string) (ServerPolicyView, error) {
	srv, err := s.core.policyServer(serverID)
	if err != nil {
		return ServerPolicyView{}, err
	}
	if err := s.core.Store.PutToolPolicy(srv.ID, store.ToolPolicy{}); err != nil {
		return ServerPolicyView{}, err
	}
	if _, err := s.core.Store.EndToolGrants(srv.ID, ""); err != nil {
		return ServerPolicyView{}, err
	}
	if err := s.core.Store.PutPolicy(srv.ID, store.Policy{}); err != nil {
		return ServerPolicyView{}, err
	}
	return s.core.emitPolicies(srv.ID)
}

// ConversationGrant is a tool the person allowed "in this conversation", as
// the conversation's settings list it.
type ConversationGrant struct {
	ServerID   string `json:"serverId"`
	ServerName string `json:"serverName"` // the name the person gave it
	Tool       string `json:"tool"`       // as the server lists it
	// AllowedAt is when the person allowed it (RFC 3339); "" when
	// Gatehouse did not record it.
	AllowedAt string `json:"allowedAt"`
	// Held: the tool is no longer the one the person allowed (or Gatehouse
	// did not record it as they saw it), so its next call is asked, saying
	// what changed. Known only while the server is connected, or when
	// nothing was recorded.
	Held bool `json:"held"`
}

// ConversationGrants lists the tools allowed in the conversation, in the
// order they were allowed. Grants of servers since removed are left out:
// their IDs are never given to another server.
func (s *PoliciesService) ConversationGrants(conversationID string) ([]ConversationGrant, error) {
	conv, err := s.core.Store.Conversation(conversationID)
	if err != nil {
		return nil, err
	}
	servers, err := s.core.Store.Servers()
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, srv := range servers {
		names[srv.ID] = srv.Name
	}
	out := []ConversationGrant{}
	for _, g := range conv.AllowedTools {
		name, ok := names[g.ServerID]
		if !ok {
			continue
		}
		v := ConversationGrant{ServerID: g.ServerID, ServerName: name, Tool: g.Tool, Held: g.Seen == nil}
		if g.Seen != nil {
			v.AllowedAt = rfc3339(g.Seen.At)
		}
		if now, offered := s.core.toolSeen(g.ServerID, g.Tool); offered {
			v.Held = !g.Seen.Same(now)
		}
		out = append(out, v)
	}
	return out, nil
}

// RevokeConversationGrant ends the allowance of one tool in the
// conversation, so that its next call there is asked, and returns the
// grants left. It is refused while a turn runs in the conversation (the
// turn goes on with the allowances it started with).
func (s *PoliciesService) RevokeConversationGrant(conversationID, serverID, tool string) ([]ConversationGrant, error) {
	err := s.core.Chat().whileIdle(conversationID, func() error {
		_, err := s.core.Store.RevokeToolInConversation(conversationID, store.ToolKey{ServerID: serverID, Tool: tool})
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.ConversationGrants(conversationID)
}

// change edits the server's tool policy and tells the window.
func (s *PoliciesService) change(serverID string, edit func(*store.ToolPolicy)) (ServerPolicyView, error) {
	srv, err := s.core.policyServer(serverID)
	if err != nil {
		return ServerPolicyView{}, err
	}
	p, err := s.core.Store.ToolPolicy(srv.ID)
	if err != nil {
		return ServerPolicyView{}, err
	}
	edit(&p)
	if err := s.core.Store.PutToolPolicy(srv.ID, p); err != nil {
		return ServerPolicyView{}, i18n.Wrap(err, "policies.error.notSaved", "detail", err)
	}
	return s.core.emitPolicies(srv.ID)
}

// policyServer finds a server by ID, saying so in a sentence when none has it.
func (c *Core) policyServer(serverID string) (store.Server, error) {
	srv, err := c.Store.Server(serverID)
	if errors.Is(err, store.ErrNotFound) {
		return srv, i18n.Err("policies.error.noServer", "id", strconv.Quote(serverID))
	}
	return srv, err
}

// emitPolicies tells the window that a server's policies changed, and
// returns them.
func (c *Core) emitPolicies(serverID string) (ServerPolicyView, error) {
	srv, err := c.policyServer(serverID)
	if err != nil {
		return ServerPolicyView{}, err
	}
	v, err := c.policyView(srv)
	if err != nil {
		return v, err
	}
	c.emit(EventPolicies, v)
	return v, nil
}

// policyView reads a server's policies and, when it is connected, the
// tools it offers the model now.
func (c *Core) policyView(srv store.Server) (ServerPolicyView, error) {
	return c.policyViewWith(srv, nil)
}

// policyViewWith is policyView under the policy over makes of the
// server's (an app's own modes over the chat's); nil over is policyView.
func (c *Core) policyViewWith(srv store.Server, over func(store.ToolPolicy) store.ToolPolicy) (ServerPolicyView, error) {
	p, err := c.Store.ToolPolicy(srv.ID)
	if err != nil {
		return ServerPolicyView{}, err
	}
	if over != nil {
		p = over(p)
	}
	requests, mutedUntil, err := c.requestPolicy(srv.ID)
	if err != nil {
		return ServerPolicyView{}, err
	}
	v := ServerPolicyView{ServerID: srv.ID, ServerName: srv.Name, Mode: viewMode(p.Mode), Trusted: p.Trusted,
		Requests: requests, MutedUntil: mutedUntil, Tools: []ToolPolicyView{}}
	offered := map[string]bool{}
	if tools, err := c.Manager.Tools(srv.ID); err == nil {
		v.Connected = true
		for _, t := range tools {
			if !chat.ForModel(t) {
				continue
			}
			offered[t.Name] = true
			tv := ToolPolicyView{Name: t.Name, Title: mcp.ToolTitle(t), Hints: toolHints(t), Offered: true}
			if peer, err := c.Manager.Peer(srv.ID); err == nil {
				tv.Held = p.Tools[t.Name] == store.ToolAllow && !p.Approval(t.Name).Same(mcp.ToolFingerprint(peer.Server, t))
			}
			v.Tools = append(v.Tools, tv.with(p))
		}
	}
	var others []ToolPolicyView
	for name := range p.Tools {
		if !offered[name] {
			tv := ToolPolicyView{Name: name, Title: name, Held: p.Tools[name] == store.ToolAllow && p.Approval(name) == nil}
			others = append(others, tv.with(p))
		}
	}
	slices.SortFunc(others, func(a, b ToolPolicyView) int { return strings.Compare(a.Name, b.Name) })
	v.Tools = append(v.Tools, others...)
	return v, nil
}

// toolSeen is the tool as the server offers it now, fingerprinted (see
// mcp.ToolFingerprint), and whether it offers it.
func (c *Core) toolSeen(serverID, tool string) (store.ToolSeen, bool) {
	t, err := c.Manager.Tool(serverID, tool)
	if err != nil {
		return store.ToolSeen{}, false
	}
	peer, err := c.Manager.Peer(serverID)
	if err != nil {
		return store.ToolSeen{}, false
	}
	seen := mcp.ToolFingerprint(peer.Server, t)
	seen.At = time.Now()
	return seen, true
}

// with fills the tool's own mode and what a call of it does under p, as
// the chat decides it (an allowance that is held counts as none).
func (t ToolPolicyView) with(p store.ToolPolicy) ToolPolicyView {
	own := p.Tools[t.Name]
	t.Mode = store.ToolDefault
	if own != "" {
		t.Mode = viewMode(own)
	}
	decided := own
	if t.Held {
		decided = ""
	}
	t.Effective, t.Why = chat.Decide(decided, p.Mode, p.Trusted, t.Hints.ReadOnly)
	return t
}

// viewMode is a saved tool-call mode for the window: ToolAsk for none or
// one this build does not know.
func viewMode(saved store.ToolMode) store.ToolMode {
	if saved == store.ToolAllow || saved == store.ToolDeny {
		return saved
	}
	return store.ToolAsk
}

// requestPolicy reads how a server's elicitations and sampling requests are
// answered now: "ask", "decline", or "mute" until mutedUntil (RFC 3339).
func (c *Core) requestPolicy(serverID string) (mode, mutedUntil string, err error) {
	p, err := c.Store.Policy(serverID)
	if err != nil {
		return "", "", err
	}
	switch mode = p.Effective(time.Now()); mode {
	case store.PolicyAsk:
		return "ask", "", nil
	case store.PolicyMute:
		return mode, rfc3339(p.MutedUntil), nil
	}
	return mode, "", nil
}

// setRequestPolicy sets a server's request policy to "ask" or "decline"
// (QuestionService.Mute mutes); declining also declines the requests
// waiting now.
func (c *Core) setRequestPolicy(serverID, mode string) error {
	switch mode {
	case "ask":
		return c.Store.PutPolicy(serverID, store.Policy{})
	case "decline":
		if err := c.Store.PutPolicy(serverID, store.Policy{Mode: store.PolicyDecline}); err != nil {
			return err
		}
		c.Broker.RefuseAll(serverID, mcp.ActionDecline)
		return nil
	}
	return i18n.Err("policies.error.requests", "mode", strconv.Quote(mode))
}
