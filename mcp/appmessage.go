package mcp

import (
	"context"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/store"
)

// What a server's app (MCP Apps) asks the person, as the Broker's questions
// like any other (one on screen at a time, the server's request policy and
// rate limit, the answer time, the history): a message written into the
// conversation (ui/message) or context for the next turn
// (ui/update-model-context), which the person sees exactly as the model
// would read it (KindAppMessage); and a web page to open (ui/open-link),
// with its address as Gatehouse checked it (KindAppLink).

// AppLink says who asks a KindAppLink question: a server's app that wants a
// web page opened. The page is the question's Link.
type AppLink struct {
	// App names the app as the window shows it (its tool's title).
	App string `json:"app"`
}

// AskAppMessage shows msg to the person on behalf of peer's app and
// reports whether they accepted it. Ending ctx withdraws it. Every outcome
// goes to the history, with the text only when Settings → Remember my
// answers is on. The error is ctx's when it ended first; a question not
// accepted for any other reason is (false, nil), with why for the app in
// the history.
func (b *Broker) AskAppMessage(ctx context.Context, peer Peer, msg AppMessage) (bool, error) {
	e, record := b.entry(peer, KindAppMessage)
	defer record()
	e.Summary = i18n.M("history.summary.appMessage", "app", msg.App)
	if msg.Context {
		e.Summary = i18n.M("history.summary.appContext", "app", msg.App)
	}
	m := msg
	ok, remember, err := b.askForApp(ctx, peer, e, &Question{Kind: KindAppMessage, AppMessage: &m})
	if ok && remember {
		e.Answer = map[string]any{"text": msg.Text}
	}
	return ok, err
}

// AskAppLink shows link, which peer's app (named app) wants opened, to the
// person, and reports whether it was opened: only once the person chose to
// open it and the browser took it is the question accepted (Accept with
// Reply.Open, as a URL request). Otherwise as AskAppMessage; the history
// keeps the address as checked.
func (b *Broker) AskAppLink(ctx context.Context, peer Peer, app string, link *linkcheck.Report) (bool, error) {
	e, record := b.entry(peer, KindAppLink)
	defer record()
	e.Summary = i18n.M("history.summary.appLink", "app", app)
	e.URL = link.URL
	ok, _, err := b.askForApp(ctx, peer, e, &Question{Kind: KindAppLink, AppLink: &AppLink{App: app}, Link: link})
	return ok, err
}

// askForApp asks q, one of an app's questions (its Kind and what it shows
// set), for peer, and writes how it ended into e. remember is Settings →
// Remember my answers.
func (b *Broker) askForApp(ctx context.Context, peer Peer, e *store.HistoryEntry, q *Question) (ok, remember bool, err error) {
	if b.overLimit(peer) {
		return false, false, ended(e, store.OutcomeRateLimited, i18n.M("mcp.history.flood"), nil)
	}
	if outcome, why, ok := b.byPolicy(peer, e.Time); ok {
		return false, false, ended(e, outcome, why, nil)
	}
	settings, _ := b.opts.Store.Settings()
	timeout := answerTime(settings)
	q.ID, q.Server, q.ReceivedAt, q.Deadline, q.Peer = newQuestionID(), serverRef(peer), e.Time, e.Time.Add(timeout), peer
	resp, shown, err := b.ask(ctx, q, false)
	e.AnswerMs = shown.Milliseconds()
	if err != nil {
		outcome, why := unanswered(ctx, err, timeout)
		if outcome == store.OutcomeRateLimited || outcome == store.OutcomeTimedOut {
			return false, false, ended(e, outcome, why, nil)
		}
		return false, false, ended(e, store.OutcomeCancelled, i18n.M("mcp.history.withdrawn"), ctx.Err())
	}
	if resp.Action != ActionAccept {
		return false, false, ended(e, outcomeOf(resp.Action), i18n.Message{}, nil)
	}
	return true, settings.RememberAnswers, ended(e, store.OutcomeAccepted, i18n.Message{}, nil)
}
