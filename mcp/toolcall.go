package mcp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/visible"
)

// Tool-call approval, the Broker's kind of question a model's call asks
// (the chat), and the history's record of every tool call as it ran.

// Tool-call policies: what the settings say about a tool in a conversation,
// decided by the caller (the chat) from the person's per-tool and per-server
// choices before it calls ApproveToolCall.
const (
	ToolPolicyAsk   = "ask"
	ToolPolicyAllow = "allow"
	ToolPolicyDeny  = "deny"
)

// ApproveToolCall decides whether a model may make call on peer's server.
// policy is what the person's settings say for this tool here
// (ToolPolicyAllow, ToolPolicyDeny or ToolPolicyAsk) and why is the reason in
// a sentence. Only ToolPolicyAsk asks the person, as a question like any
// other: one on screen at a time, the server's rate limit, the answer time;
// ending ctx (the person pressed Stop) withdraws it. Every decision goes to
// the history. A call that is not allowed comes back with Reason set, for
// the model and the person.
func (b *Broker) ApproveToolCall(ctx context.Context, peer Peer, call ToolCall, policy string, why i18n.Message) (Approval, error) {
	now := b.opts.Now()
	settings, _ := b.opts.Store.Settings()
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: KindToolCall,
		Message: fmt.Sprintf("Call %s", call.Tool), Tool: call.Tool}
	if settings.RememberAnswers {
		entry.Answer = map[string]any{"arguments": call.Arguments}
	}
	switch policy {
	case ToolPolicyAllow:
		entry.Outcome, entry.Detail = store.OutcomeAccepted, "allowed without asking: "+why.In(i18n.English)
		b.record(entry)
		return Approval{Allowed: true, Scope: ScopeOnce}, nil
	case ToolPolicyDeny:
		entry.Outcome, entry.Detail = store.OutcomeDeclined, "denied without asking: "+why.In(i18n.English)
		b.record(entry)
		return Approval{Reason: i18n.M("mcp.approval.settings", "why", why)}, nil
	}
	timeout := settings.ElicitationTimeout
	if timeout <= 0 {
		timeout = DefaultElicitationTimeout
	}
	call.Arguments = slices.Clone(call.Arguments)
	call.View = visible.JSON(call.Arguments)
	q := &Question{ID: newQuestionID(), Kind: KindToolCall, Server: serverRef(peer), Message: call.Description,
		ToolCall: &call, ReceivedAt: now, Deadline: now.Add(timeout), Peer: peer}
	resp, shown, err := b.ask(ctx, q, false)
	entry.AnswerMs = shown.Milliseconds()
	switch {
	case errors.Is(err, errRateLimited):
		entry.Outcome = store.OutcomeRateLimited
		b.record(entry)
		return Approval{Reason: i18n.M("mcp.approval.flood")}, nil
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		entry.Outcome, entry.Detail = store.OutcomeTimedOut, "no answer within "+i18n.Duration(timeout).In(i18n.English)
		b.record(entry)
		return Approval{Asked: true, Reason: i18n.M("mcp.approval.timedOut")}, nil
	case err != nil:
		entry.Outcome, entry.Detail = store.OutcomeCancelled, "stopped before the person answered"
		b.record(entry)
		return Approval{}, err
	}
	switch resp.Action {
	case ActionAccept:
		entry.Outcome, entry.Detail = store.OutcomeAccepted, "allowed: "+resp.Scope
		b.record(entry)
		return Approval{Allowed: true, Scope: resp.Scope, Asked: true}, nil
	case ActionDecline:
		entry.Outcome = store.OutcomeDeclined
		b.record(entry)
		return Approval{Asked: true, Reason: i18n.M("mcp.approval.denied")}, nil
	default:
		entry.Outcome = store.OutcomeCancelled
		b.record(entry)
		return Approval{Asked: true, Reason: i18n.M("mcp.approval.dismissed")}, nil
	}
}

// ToolRun is one tool call as it was made, for the history: who made it,
// on which server, when, how it ended and how long it took.
type ToolRun struct {
	ServerID   string
	ServerName string
	Tool       string
	Source     string        // store.SourceToolsPane or store.SourceChat
	Started    time.Time     // when the call was sent (or refused)
	Duration   time.Duration // from sent to its end; 0 when it was not sent
	Outcome    string        // store.OutcomeOK, OutcomeError, OutcomeCancelled, OutcomeTimedOut or OutcomeDenied
	Detail     string        // why, in a sentence, when it did not end OK
	Arguments  map[string]any
	Result     string // the result as text; the store keeps at most store.MaxHistoryResult bytes
}

// RecordToolRun adds run to the history, written in the background like the
// answers to questions. Its arguments and result are kept only when
// Settings → Remember my answers is on: a tool's arguments can be as private
// as a form's answers.
func (b *Broker) RecordToolRun(run ToolRun) {
	settings, _ := b.opts.Store.Settings()
	e := store.HistoryEntry{Time: run.Started, ServerID: run.ServerID, ServerName: run.ServerName, Mode: KindToolRun,
		Tool: run.Tool, Source: run.Source, DurationMs: run.Duration.Milliseconds(), Outcome: run.Outcome, Detail: run.Detail}
	if e.Time.IsZero() {
		e.Time = b.opts.Now()
	}
	if settings.RememberAnswers {
		e.Arguments = maps.Clone(run.Arguments)
		e.Result = run.Result
	}
	b.record(e)
}
