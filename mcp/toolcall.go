package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/visible"
)

// Tool-call approval, the Broker's kind of question a model's call asks
// (the chat), and the history's record of every tool call as it ran.

// ApproveToolCall decides whether a model may make call on peer's server.
// policy is what the person's settings say for this tool here, decided by
// the caller (the chat) from their per-tool and per-server choices
// (store.ToolAllow, ToolDeny or ToolAsk), and why is the reason in a
// sentence. Only store.ToolAsk asks the person, as a question like any
// other: one on screen at a time, the server's rate limit, the answer time;
// ending ctx (the person pressed Stop) withdraws it. Every decision goes to
// the history. A call that is not allowed comes back with Reason set, for
// the model and the person.
func (b *Broker) ApproveToolCall(ctx context.Context, peer Peer, call ToolCall, policy store.ToolMode, why i18n.Message) (Approval, error) {
	e, record := b.entry(peer, KindToolCall)
	defer record()
	e.Tool = call.Tool // the window words the row from it (History)
	switch {
	case call.Client != nil:
		e.Source = store.SourceClient // another app asks, through the gateway
		e.Client, e.Launcher = call.Client.Claimed(), call.Client.Launcher
	case call.App != "":
		e.Source = store.SourceApp // an app asks, not a model
	}
	settings, _ := b.opts.Store.Settings()
	if settings.RememberAnswers {
		e.Answer = map[string]any{"arguments": call.Arguments}
	}
	switch policy {
	case store.ToolAllow:
		return Approval{Allowed: true, Scope: ScopeOnce}, ended(e, store.OutcomeAccepted, i18n.M("mcp.history.allowedBySettings", "why", why), nil)
	case store.ToolDeny:
		return Approval{Reason: i18n.M("mcp.approval.settings", "why", why)},
			ended(e, store.OutcomeDeclined, i18n.M("mcp.history.deniedBySettings", "why", why), nil)
	}
	timeout := answerTime(settings)
	call.Arguments = slices.Clone(call.Arguments)
	call.View = visible.JSON(call.Arguments)
	q := &Question{ID: newQuestionID(), Kind: KindToolCall, Server: serverRef(peer), Message: call.Description,
		ToolCall: &call, ReceivedAt: e.Time, Deadline: e.Time.Add(timeout), Peer: peer}
	resp, shown, err := b.ask(ctx, q, false)
	e.AnswerMs = shown.Milliseconds()
	if err != nil {
		switch outcome, why := unanswered(ctx, err, timeout); outcome {
		case store.OutcomeRateLimited:
			return Approval{Reason: i18n.M("mcp.approval.flood")}, ended(e, outcome, i18n.Message{}, nil)
		case store.OutcomeTimedOut:
			return Approval{Asked: true, Reason: i18n.M("mcp.approval.timedOut"), NoAnswer: timeout}, ended(e, outcome, why, nil)
		}
		// Its context is the chat's: the person pressed Stop.
		return Approval{}, ended(e, store.OutcomeCancelled, i18n.M("mcp.history.stopped"), err)
	}
	switch resp.Action {
	case ActionAccept:
		return Approval{Allowed: true, Scope: resp.Scope, Asked: true}, ended(e, store.OutcomeAccepted, allowedFor(resp.Scope), nil)
	case ActionDecline:
		return Approval{Asked: true, Reason: i18n.M("mcp.approval.denied")}, ended(e, store.OutcomeDeclined, i18n.Message{}, nil)
	}
	return Approval{Asked: true, Reason: i18n.M("mcp.approval.dismissed")}, ended(e, store.OutcomeCancelled, i18n.Message{}, nil)
}

// allowedFor is the history's reason for a call the person allowed: how
// far they allowed it.
func allowedFor(scope string) i18n.Message {
	switch scope {
	case ScopeConversation:
		return i18n.M("mcp.history.allowedConversation")
	case ScopeAlways:
		return i18n.M("mcp.history.allowedAlways")
	}
	return i18n.M("mcp.history.allowedOnce")
}

// ToolRun is one tool call as it was made, for the history: who made it,
// on which server, when, how it ended and how long it took.
type ToolRun struct {
	ServerID   string
	ServerName string
	Tool       string
	Source     string        // where it came from: one of the store.Source constants
	Started    time.Time     // when the call was sent (or refused)
	Duration   time.Duration // from sent to its end; 0 when it was not sent
	Outcome    string        // store.OutcomeOK, OutcomeError, OutcomeCancelled, OutcomeTimedOut or OutcomeDenied
	Detail     i18n.Message  // why, when it did not end OK
	Arguments  map[string]any
	// RawArguments are the arguments as the caller sent them (a JSON
	// object), read into Arguments only when History keeps them and
	// Arguments is nil (a call the gateway forwarded).
	RawArguments json.RawMessage
	Result       string // the result as text; the store keeps at most store.MaxHistoryResult bytes
	// RawResult is the result as the server sent it (a call the gateway
	// forwarded), read into Result only when History keeps results.
	RawResult json.RawMessage
	// Client and Launcher name the other app of a run from the gateway
	// (Source store.SourceClient): what it claims, and the program that
	// launched the gateway.
	Client, Launcher string
}

// DecodeArguments decodes approved arguments for a call, keeping numbers
// exactly as written (json.Number), so that the server receives the values
// the person saw.
func DecodeArguments(raw json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil || args == nil {
		return nil, errors.New("not a JSON object")
	}
	return args, nil
}

// RecordToolRun adds run to the history, written in the background like the
// answers to questions. Its arguments and result are kept only when
// Settings → Remember my answers is on: a tool's arguments can be as private
// as a form's answers.
func (b *Broker) RecordToolRun(run ToolRun) {
	settings, _ := b.opts.Store.Settings()
	e := store.HistoryEntry{Time: run.Started, ServerID: run.ServerID, ServerName: run.ServerName, Mode: KindToolRun,
		Tool: run.Tool, Source: run.Source, Client: run.Client, Launcher: run.Launcher, DurationMs: run.Duration.Milliseconds(), Outcome: run.Outcome, Detail: run.Detail}
	if e.Time.IsZero() {
		e.Time = b.opts.Now()
	}
	if settings.RememberAnswers {
		e.Arguments = maps.Clone(run.Arguments)
		if e.Arguments == nil && len(run.RawArguments) > 0 {
			e.Arguments, _ = DecodeArguments(run.RawArguments)
		}
		e.Result = run.Result
		var res sdk.CallToolResult
		if e.Result == "" && len(run.RawResult) > 0 && json.Unmarshal(run.RawResult, &res) == nil {
			e.Result = ResultText(&res)
		}
	}
	b.history.record(e)
}
