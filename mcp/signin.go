package mcp

import (
	"context"
	"errors"
	"fmt"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/store"
)

// Sign-in consent (E33), the Broker's kind of question the host asks on a
// server's behalf. The flow it guards, and the Manager's side of it, are in
// oauth.go.

// SignIn implements Asker: the sign-in consent is asked like a URL request,
// one question at a time, and recorded in the history. The person started
// it, so it spends no rate-limit token. The question names the server's
// own address (peer.Where), where the person signs in; link is the page
// that accepting opens (Gatehouse's start page, see Asker.SignIn).
func (b *Broker) SignIn(ctx context.Context, peer Peer, link *linkcheck.Report) (bool, error) {
	now := b.opts.Now()
	where := peer.Where
	if l, err := linkcheck.Check(peer.Where); err == nil {
		where = l.Domain
		if where == "" {
			where = l.Host
		}
	}
	msg := fmt.Sprintf("%s wants you to sign in at %s.", peer.Server.Name, where)
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: KindSignIn, Message: msg, URL: peer.Where}
	q := &Question{ID: newQuestionID(), Kind: KindSignIn, Server: serverRef(peer), Message: msg, Link: link,
		ReceivedAt: now, Deadline: now.Add(SignInTimeout), Peer: peer}
	resp, shown, err := b.ask(ctx, q, true)
	entry.AnswerMs = shown.Milliseconds()
	switch {
	case errors.Is(err, errRateLimited):
		entry.Outcome = store.OutcomeRateLimited
		b.record(entry)
		return false, i18n.Err("mcp.broker.tooManyWaiting")
	case err != nil:
		entry.Outcome = store.OutcomeCancelled
		b.record(entry)
		return false, i18n.Wrap(err, "mcp.signin.notAnswered", "detail", err)
	}
	switch resp.Action {
	case ActionAccept:
		entry.Outcome = store.OutcomeAccepted
	case ActionDecline:
		entry.Outcome = store.OutcomeDeclined
	default:
		entry.Outcome = store.OutcomeCancelled
	}
	b.record(entry)
	return resp.Action == ActionAccept, nil
}
