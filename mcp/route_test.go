package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestBroker_Route: while a terminal's call to Alpha runs, Alpha's questions
// are shown on that terminal and Beta's in the window at the same time; the
// answers go through the broker's validation and into its history.
func TestBroker_Route(t *testing.T) {
	window := newScripted(nil) // answers nothing: it only shows
	f := newBrokerFixture(t, window, BrokerOptions{})
	terminal := newScripted(func(q *Question) (Response, bool) {
		return Response{Action: ActionAccept, Values: map[string]any{"name": "Ada"}}, true
	})
	release := f.broker.Route(f.a.Server.ID, terminal.Present, nil)
	defer release()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	betaDone := make(chan struct{})
	go func() { // Beta asks first: the window shows it, and keeps it
		defer close(betaDone)
		_, _ = f.broker.Elicit(ctx, f.b, formRequest("Beta asks", nameSchema))
	}()
	if q := <-window.onShow; q.Server.Name != "Beta" {
		t.Fatalf("the window shows %s's question", q.Server.Name)
	}
	res, err := f.broker.Elicit(context.Background(), f.a, formRequest("Alpha asks", nameSchema))
	if err != nil || res.Action != ActionAccept || res.Content["name"] != "Ada" {
		t.Fatalf("Alpha's answer = %+v, %v", res, err)
	}
	if q := <-terminal.onShow; q.Message != "Alpha asks" || q.Form == nil {
		t.Errorf("the terminal showed %+v", q)
	}
	if snap := f.broker.Snapshot(); snap.Current == nil || snap.Current.Server.Name != "Beta" || len(snap.Waiting) != 0 {
		t.Errorf("the window's snapshot: %+v", snap)
	}
	if h := f.history(t); len(h) != 1 || h[0].ServerName != "Alpha" || h[0].Outcome != store.OutcomeAccepted {
		t.Errorf("history = %+v", h)
	}
	cancel()
	<-betaDone
}

// TestBroker_RouteValidates: a terminal's answer that does not pass the
// form is never sent: the server hears cancel.
func TestBroker_RouteValidates(t *testing.T) {
	f := newBrokerFixture(t, newScripted(nil), BrokerOptions{})
	terminal := newScripted(func(q *Question) (Response, bool) {
		return Response{Action: ActionAccept, Values: map[string]any{"name": ""}}, true
	})
	defer f.broker.Route(f.a.Server.ID, terminal.Present, nil)()
	res, err := f.broker.Elicit(context.Background(), f.a, formRequest("?", nameSchema))
	if err != nil || res.Action != ActionCancel || res.Content != nil {
		t.Errorf("result = %+v, %v", res, err)
	}
}

// TestBroker_RouteReleased: when the call ends with its question still on
// the terminal, the question goes to the window, which can answer it.
func TestBroker_RouteReleased(t *testing.T) {
	window := newScripted(func(q *Question) (Response, bool) {
		return Response{Action: ActionDecline}, true
	})
	f := newBrokerFixture(t, window, BrokerOptions{})
	terminal := newScripted(nil) // never answers
	release := f.broker.Route(f.a.Server.ID, terminal.Present, nil)
	got := make(chan string, 1)
	go func() {
		res, err := f.broker.Elicit(context.Background(), f.a, formRequest("?", nameSchema))
		if err != nil {
			got <- err.Error()
			return
		}
		got <- res.Action
	}()
	<-terminal.onShow
	if window.shownCount() != 0 {
		t.Fatal("the window showed the terminal's question")
	}
	if !f.broker.Busy(f.a.Server.ID) {
		t.Error("a call's time limit would run while the terminal asks")
	}
	release()
	select {
	case action := <-got:
		if action != ActionDecline {
			t.Errorf("the server heard %s", action)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the question was not given to the window")
	}
}

// TestBroker_RouteKeepsOtherKinds: a sign-in from a routed server is the
// window's to ask.
func TestBroker_RouteKeepsOtherKinds(t *testing.T) {
	f := newBrokerFixture(t, newScripted(nil), BrokerOptions{})
	defer f.broker.Route(f.a.Server.ID, newScripted(nil).Present, nil)()
	f.broker.mu.Lock()
	r := f.broker.routeLocked(&Question{Kind: KindSignIn, Server: serverRef(f.a)})
	form := f.broker.routeLocked(&Question{Kind: KindForm, Server: serverRef(f.a)})
	other := f.broker.routeLocked(&Question{Kind: KindForm, Server: serverRef(f.b)})
	f.broker.mu.Unlock()
	if r != nil || form == nil || other != nil {
		t.Errorf("sign-in routed: %v; form routed: %v; another server's form routed: %v", r != nil, form != nil, other != nil)
	}
}

// TestBroker_RouteMatching: a route chooses its questions. A sign-in the
// command line started is asked on its terminal and recorded; a model's
// tool call of the terminal's conversation is asked there, one of another
// conversation in the window.
func TestBroker_RouteMatching(t *testing.T) {
	window := newScripted(func(q *Question) (Response, bool) { return Response{Action: ActionDecline}, true })
	f := newBrokerFixture(t, window, BrokerOptions{})
	terminal := newScripted(func(q *Question) (Response, bool) {
		return Response{Action: ActionAccept, Scope: ScopeOnce}, true
	})
	release := f.broker.RouteMatching(func(q *Question) bool {
		return q.Kind == KindSignIn && q.Server.ID == f.a.Server.ID ||
			q.Kind == KindToolCall && q.ToolCall.ConversationID == "c-terminal"
	}, terminal.Present, nil)
	defer release()

	link, err := linkcheck.Check("https://auth.example.com/authorize?state=s1")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := f.broker.SignIn(context.Background(), f.a, link); !ok || err != nil {
		t.Errorf("the terminal's sign-in: %v, %v", ok, err)
	}
	if q := <-terminal.onShow; q.Kind != KindSignIn || q.Link == nil || q.Link.URL != link.URL {
		t.Errorf("the terminal showed %+v", q)
	}
	cases := []struct {
		name         string
		conversation string
		wantAllowed  bool
	}{
		{"the terminal's conversation is asked on the terminal", "c-terminal", true},
		{"another conversation is asked in the window", "c-window", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := f.broker.ApproveToolCall(context.Background(), f.b, ToolCall{Tool: "echo", Arguments: []byte(`{}`), ConversationID: tc.conversation},
				store.ToolAsk, i18n.Text("ask"))
			if err != nil || got.Allowed != tc.wantAllowed {
				t.Errorf("approval = %+v, %v", got, err)
			}
		})
	}
	if h := f.history(t); len(h) != 3 || h[2].Mode != KindSignIn || h[2].Outcome != store.OutcomeAccepted {
		t.Errorf("history = %+v", h)
	}
	if window.shownCount() != 1 || terminal.shownCount() != 2 {
		t.Errorf("the window showed %d questions, the terminal %d", window.shownCount(), terminal.shownCount())
	}
}

// TestBroker_RouteMatchingReleasedCancels: when the command that started a
// sign-in ends with its consent unanswered, the consent is cancelled, not
// moved to the window where nobody waits for it.
func TestBroker_RouteMatchingReleasedCancels(t *testing.T) {
	window := newScripted(func(q *Question) (Response, bool) { return Response{Action: ActionAccept}, true })
	f := newBrokerFixture(t, window, BrokerOptions{})
	terminal := newScripted(nil) // never answers
	release := f.broker.RouteMatching(func(q *Question) bool { return q.Kind == KindSignIn }, terminal.Present, nil)
	link, err := linkcheck.Check("https://auth.example.com/authorize?state=s1")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		ok  bool
		err error
	}
	got := make(chan answer, 1)
	go func() {
		ok, err := f.broker.SignIn(context.Background(), f.a, link)
		got <- answer{ok, err}
	}()
	<-terminal.onShow
	release()
	select {
	case a := <-got:
		if a.ok || a.err != nil {
			t.Errorf("the sign-in went on: %v, %v", a.ok, a.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the consent was not cancelled")
	}
	if window.shownCount() != 0 {
		t.Error("the window was shown the terminal's consent")
	}
	if h := f.history(t); len(h) != 1 || h[0].Outcome != store.OutcomeCancelled {
		t.Errorf("history = %+v", h)
	}
}
