package mcp

import (
	"cmp"
	"context"
	"errors"

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
	e, record := b.entry(peer, KindSignIn)
	defer record()
	where := peer.Where
	if l, err := linkcheck.Check(peer.Where); err == nil {
		where = cmp.Or(l.Domain, l.Host)
	}
	// Gatehouse's words, not the server's: the history keeps them as a
	// message, and the question says them in the person's language.
	e.Summary, e.URL = i18n.M("mcp.signin.asks", "server", peer.Server.Name, "where", where), peer.Where
	q := &Question{ID: newQuestionID(), Kind: KindSignIn, Server: serverRef(peer), Message: e.Summary.String(), Link: link,
		ReceivedAt: e.Time, Deadline: e.Time.Add(SignInTimeout), Peer: peer}
	resp, shown, err := b.ask(ctx, q, true)
	e.AnswerMs = shown.Milliseconds()
	switch {
	case errors.Is(err, errRateLimited):
		return false, ended(e, store.OutcomeRateLimited, i18n.Message{}, i18n.Err("mcp.broker.tooManyWaiting"))
	case err != nil:
		return false, ended(e, store.OutcomeCancelled, i18n.Message{}, i18n.Wrap(err, "mcp.signin.notAnswered", "detail", err))
	}
	return resp.Action == ActionAccept, ended(e, outcomeOf(resp.Action), i18n.Message{}, nil)
}
