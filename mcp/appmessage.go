package mcp

import (
	"context"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// App messages, the Broker's kind of question a server's app (MCP Apps)
// asks when it wants to give the conversation's model something: a message
// written into the conversation (ui/message) or context for the next turn
// (ui/update-model-context). The person sees exactly the text the model
// would read, and may refuse it.

// AskAppMessage shows msg to the person on behalf of peer's app and
// reports whether they accepted it. It is a question like any other: one on
// screen at a time, the server's request policy (declined or muted: not
// asked, not accepted) and rate limit, the answer time; ending ctx
// withdraws it. Every outcome goes to the history, with the text only when
// Settings → Remember my answers is on. The error is ctx's when it ended
// first; a question not accepted for any other reason is (false, nil), with
// why for the app in the history.
func (b *Broker) AskAppMessage(ctx context.Context, peer Peer, msg AppMessage) (bool, error) {
	e, record := b.entry(peer, KindAppMessage)
	defer record()
	e.Summary = i18n.M("history.summary.appMessage", "app", msg.App)
	if msg.Context {
		e.Summary = i18n.M("history.summary.appContext", "app", msg.App)
	}
	if b.overLimit(peer) {
		return false, ended(e, store.OutcomeRateLimited, i18n.M("mcp.history.flood"), nil)
	}
	if outcome, why, ok := b.byPolicy(peer, e.Time); ok {
		return false, ended(e, outcome, why, nil)
	}
	settings, _ := b.opts.Store.Settings()
	timeout := answerTime(settings)
	m := msg
	q := &Question{ID: newQuestionID(), Kind: KindAppMessage, Server: serverRef(peer), AppMessage: &m,
		ReceivedAt: e.Time, Deadline: e.Time.Add(timeout), Peer: peer}
	resp, shown, err := b.ask(ctx, q, false)
	e.AnswerMs = shown.Milliseconds()
	if err != nil {
		outcome, why := unanswered(ctx, err, timeout)
		if outcome == store.OutcomeRateLimited || outcome == store.OutcomeTimedOut {
			return false, ended(e, outcome, why, nil)
		}
		return false, ended(e, store.OutcomeCancelled, i18n.M("mcp.history.withdrawn"), ctx.Err())
	}
	if resp.Action != ActionAccept {
		return false, ended(e, outcomeOf(resp.Action), i18n.Message{}, nil)
	}
	if settings.RememberAnswers {
		e.Answer = map[string]any{"text": msg.Text}
	}
	return true, ended(e, store.OutcomeAccepted, i18n.Message{}, nil)
}
