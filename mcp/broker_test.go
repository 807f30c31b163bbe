package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/visible"
)

// scripted is an Answerer driven by the test: it records what it was shown
// and answers with reply (or waits for ctx when reply is nil).
type scripted struct {
	mu      sync.Mutex
	reply   func(*Question) (Response, bool) // ok=false: wait until ctx ends
	shown   []*Question
	opened  [][]OpenedPage
	notices []Notice
	onShow  chan *Question
}

func newScripted(reply func(*Question) (Response, bool)) *scripted {
	return &scripted{reply: reply, onShow: make(chan *Question, 100)}
}

func (s *scripted) Present(ctx context.Context, r *Question) (Response, error) {
	s.mu.Lock()
	s.shown = append(s.shown, r)
	s.mu.Unlock()
	s.onShow <- r
	if s.reply != nil {
		if resp, ok := s.reply(r); ok {
			return resp, nil
		}
	}
	<-ctx.Done()
	return Response{}, ctx.Err()
}

func (s *scripted) Notify(n Notice) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notices = append(s.notices, n)
}

func (s *scripted) OpenedChanged(o []OpenedPage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opened = append(s.opened, o)
}

func (s *scripted) shownCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.shown)
}

// brokerFixture is a broker on a real bbolt store with two servers.
type brokerFixture struct {
	st     *store.Store
	broker *Broker
	ans    *scripted
	a, b   Peer
}

func newBrokerFixture(t *testing.T, ans *scripted, opts BrokerOptions) *brokerFixture {
	t.Helper()
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	put := func(name string) Peer {
		srv, err := st.PutServer(store.Server{Name: name, Enabled: true, Transport: store.TransportStdio, Stdio: &store.StdioConfig{Command: "x"}})
		if err != nil {
			t.Fatal(err)
		}
		return Peer{Server: srv, Where: "x"}
	}
	opts.Answerer, opts.Store = ans, st
	return &brokerFixture{st: st, broker: NewBroker(opts), ans: ans, a: put("Alpha"), b: put("Beta")}
}

// formRequest is a form request as the broker receives it from a
// connection: its params went through the host's wire rewrite (rawschema.go).
func formRequest(message, schema string) *sdk.ElicitRequest {
	return &sdk.ElicitRequest{Params: fromWire(&sdk.ElicitParams{Message: message, RequestedSchema: json.RawMessage(schema)})}
}

// fromWire encodes params, rewrites them as a connection read does, and
// decodes them as the SDK does.
func fromWire(p *sdk.ElicitParams) *sdk.ElicitParams {
	b, err := json.Marshal(p)
	if err != nil {
		panic(err)
	}
	var out sdk.ElicitParams
	if err := json.Unmarshal(carrySchema(b), &out); err != nil {
		panic(err)
	}
	return &out
}

const nameSchema = `{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}`

func (f *brokerFixture) history(t *testing.T) []store.HistoryEntry {
	t.Helper()
	f.broker.FlushHistory()
	h, err := f.st.History(store.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestBroker_Answers_E26(t *testing.T) {
	cases := []struct {
		name        string
		resp        Response
		wantAction  string
		wantContent map[string]any
		wantOutcome string
	}{
		{"submit sends the validated values", Response{Action: ActionAccept, Values: map[string]any{"name": "Ada"}}, ActionAccept, map[string]any{"name": "Ada"}, store.OutcomeAccepted},
		{"decline reaches the server as decline", Response{Action: ActionDecline}, ActionDecline, nil, store.OutcomeDeclined},
		{"cancel reaches the server as cancel", Response{Action: ActionCancel}, ActionCancel, nil, store.OutcomeCancelled},
		{"an invalid accept is never sent", Response{Action: ActionAccept, Values: map[string]any{"name": ""}}, ActionCancel, nil, store.OutcomeCancelled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newBrokerFixture(t, newScripted(func(*Question) (Response, bool) { return tc.resp, true }), BrokerOptions{})
			res, err := f.broker.Elicit(context.Background(), f.a, formRequest("Who are you?", nameSchema))
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != tc.wantAction || fmt.Sprint(res.Content) != fmt.Sprint(tc.wantContent) {
				t.Errorf("result = %+v, want %s %v", res, tc.wantAction, tc.wantContent)
			}
			h := f.history(t)
			if len(h) != 1 || h[0].Outcome != tc.wantOutcome || h[0].ServerName != "Alpha" || h[0].Message != "Who are you?" || fmt.Sprint(h[0].Fields) != "[name]" {
				t.Errorf("history = %+v", h)
			}
			if h[0].Answer != nil {
				t.Error("answer values were stored although remembering is off")
			}
		})
	}
}

func TestBroker_RemembersAnswersOnlyWhenAsked(t *testing.T) {
	f := newBrokerFixture(t, newScripted(func(*Question) (Response, bool) {
		return Response{Action: ActionAccept, Values: map[string]any{"name": "Ada"}}, true
	}), BrokerOptions{})
	if err := f.st.PutSettings(store.Settings{RememberAnswers: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.broker.Elicit(context.Background(), f.a, formRequest("?", nameSchema)); err != nil {
		t.Fatal(err)
	}
	if h := f.history(t); len(h) != 1 || h[0].Answer["name"] != "Ada" {
		t.Errorf("history = %+v", h)
	}
}

// TestBroker_RefusesBeforeShowing_E4_E6: a request the host cannot show as
// the server meant it is answered -32602 with a sentence, shown to no one,
// and recorded as refused.
func TestBroker_RefusesBeforeShowing_E4_E6(t *testing.T) {
	cases := []struct {
		name string
		req  *sdk.ElicitRequest
		want string
	}{
		{"a nested schema", formRequest("?", `{"type":"object","properties":{"o":{"type":"object"}}}`), `property "o" is a nested object`},
		{"a URL request when URL mode was not offered", &sdk.ElicitRequest{Params: &sdk.ElicitParams{Mode: "url", Message: "?", URL: "https://x.example", ElicitationID: "1"}}, `mode "url" was not offered`},
		{"an unknown mode", &sdk.ElicitRequest{Params: &sdk.ElicitParams{Mode: "telepathy", Message: "?"}}, `mode "telepathy"`},
		{"an over-long message", formRequest(string(make([]byte, MaxMessageLength+1)), `{}`), "over 8192 characters"},
		{"a form without a requestedSchema", &sdk.ElicitRequest{Params: fromWire(&sdk.ElicitParams{Message: "Proceed?"})}, "must have a requestedSchema"},
		{"a form whose schema is null", &sdk.ElicitRequest{Params: fromWire(&sdk.ElicitParams{Mode: "form", Message: "?", RequestedSchema: json.RawMessage(`null`)})}, "must have a requestedSchema"},
		{"a schema that did not come through the host's wire reading", &sdk.ElicitRequest{Params: &sdk.ElicitParams{Message: "?", RequestedSchema: map[string]any{"type": "object"}}}, "could not be read exactly as sent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newBrokerFixture(t, newScripted(nil), BrokerOptions{})
			_, err := f.broker.Elicit(context.Background(), f.a, tc.req)
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !contains(je.Message, tc.want) {
				t.Fatalf("err = %v, want -32602 mentioning %q", err, tc.want)
			}
			if f.ans.shownCount() != 0 {
				t.Error("a refused request was shown")
			}
			if h := f.history(t); len(h) != 1 || h[0].Outcome != store.OutcomeInvalid {
				t.Errorf("history = %+v", h)
			}
		})
	}
}

func TestBroker_Policy(t *testing.T) {
	cases := []struct {
		name       string
		policy     store.Policy
		wantAction string
		wantShown  int
	}{
		{"ask shows the dialog", store.Policy{}, ActionAccept, 1},
		{"decline automatically", store.Policy{Mode: store.PolicyDecline}, ActionDecline, 0},
		{"muted answers cancel unseen", store.Policy{Mode: store.PolicyMute, MutedUntil: time.Now().Add(time.Hour)}, ActionCancel, 0},
		{"an expired mute asks again", store.Policy{Mode: store.PolicyMute, MutedUntil: time.Now().Add(-time.Minute)}, ActionAccept, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newBrokerFixture(t, newScripted(func(*Question) (Response, bool) {
				return Response{Action: ActionAccept, Values: map[string]any{"name": "x"}}, true
			}), BrokerOptions{})
			if err := f.st.PutPolicy(f.a.Server.ID, tc.policy); err != nil {
				t.Fatal(err)
			}
			res, err := f.broker.Elicit(context.Background(), f.a, formRequest("?", nameSchema))
			if err != nil || res.Action != tc.wantAction || f.ans.shownCount() != tc.wantShown {
				t.Errorf("res %+v err %v shown %d; want %s shown %d", res, err, f.ans.shownCount(), tc.wantAction, tc.wantShown)
			}
		})
	}
}

// TestBroker_FloodIsBounded_E29: a flooding server gets its burst, the rest
// is refused with a JSON-RPC error (not "decline"), and one notice is shown.
func TestBroker_FloodIsBounded_E29(t *testing.T) {
	f := newBrokerFixture(t, newScripted(nil), BrokerOptions{Burst: 5, Every: time.Hour, QueueSize: 10})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	limited := 0
	for range 50 {
		wg.Go(func() {
			_, err := f.broker.Elicit(ctx, f.a, formRequest("flood", nameSchema))
			var je *jsonrpc.Error
			if errors.As(err, &je) && je.Code == CodeTooManyRequests {
				mu.Lock()
				limited++
				mu.Unlock()
			}
		})
	}
	waitFor(t, "45 refusals", 5*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return limited == 45 })
	if n := f.ans.shownCount(); n != 1 {
		t.Errorf("%d shown at once, want 1", n)
	}
	if w := f.broker.Snapshot().Waiting; len(w) != 4 {
		t.Errorf("%d waiting, want 4", len(w))
	}
	f.ans.mu.Lock()
	notices := f.ans.notices
	f.ans.mu.Unlock()
	if len(notices) != 1 || notices[0].ServerName != "Alpha" || notices[0].Kind != "flood" {
		t.Errorf("notices = %+v, want one flood notice for Alpha", notices)
	}
	// The other server is not affected by Alpha's flood.
	done := make(chan struct{})
	go func() { _, _ = f.broker.Elicit(ctx, f.b, formRequest("hello", nameSchema)); close(done) }()
	waitFor(t, "Beta's request to be queued", 5*time.Second, func() bool { return len(f.broker.Snapshot().Waiting) == 5 })
	cancel()
	wg.Wait()
	<-done
}

// TestBroker_SequentialQuestionsAreNotLimited_E29: a server that asks one
// question at a time, each after the last was answered, is never refused,
// however many it asks; only requests that pile up spend the bucket.
func TestBroker_SequentialQuestionsAreNotLimited_E29(t *testing.T) {
	f := newBrokerFixture(t, newScripted(func(*Question) (Response, bool) {
		return Response{Action: ActionDecline}, true
	}), BrokerOptions{Burst: 2, Every: time.Hour, QueueSize: 10})
	for i := range 12 {
		res, err := f.broker.Elicit(context.Background(), f.a, formRequest(fmt.Sprintf("question %d", i), nameSchema))
		if err != nil || res.Action != ActionDecline {
			t.Fatalf("question %d: %v, %v; want decline", i, res, err)
		}
	}
}

func TestBroker_QueueIsBoundedPerServer(t *testing.T) {
	f := newBrokerFixture(t, newScripted(nil), BrokerOptions{Burst: 100, Every: time.Hour, QueueSize: 3})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errs := make(chan error, 10)
	for range 10 {
		go func() { _, err := f.broker.Elicit(ctx, f.a, formRequest("q", nameSchema)); errs <- err }()
	}
	refused := 0
	for range 6 {
		if err := <-errs; err != nil {
			refused++
		}
	}
	if refused != 6 || len(f.broker.Snapshot().Waiting) != 3 || f.ans.shownCount() != 1 {
		t.Errorf("refused %d, waiting %d, shown %d; want 6, 3, 1", refused, len(f.broker.Snapshot().Waiting), f.ans.shownCount())
	}
}

// TestBroker_FairAcrossServers: after one of Alpha's requests, Beta's goes
// next even though Alpha queued more first.
func TestBroker_FairAcrossServers_E29(t *testing.T) {
	release := make(chan struct{})
	f := newBrokerFixture(t, newScripted(func(*Question) (Response, bool) {
		<-release
		return Response{Action: ActionDecline}, true
	}), BrokerOptions{})
	var wg sync.WaitGroup
	send := func(p Peer, msg string) {
		wg.Go(func() { _, _ = f.broker.Elicit(context.Background(), p, formRequest(msg, nameSchema)) })
	}
	send(f.a, "a1")
	<-f.ans.onShow
	send(f.a, "a2")
	waitFor(t, "a2 queued", 5*time.Second, func() bool { return len(f.broker.Snapshot().Waiting) == 1 })
	send(f.a, "a3")
	waitFor(t, "a3 queued", 5*time.Second, func() bool { return len(f.broker.Snapshot().Waiting) == 2 })
	send(f.b, "b1")
	waitFor(t, "three queued", 5*time.Second, func() bool { return len(f.broker.Snapshot().Waiting) == 3 })
	var order []string
	for range 3 {
		release <- struct{}{}
		order = append(order, (<-f.ans.onShow).Message)
	}
	release <- struct{}{}
	wg.Wait()
	if fmt.Sprint(order) != "[b1 a2 a3]" {
		t.Errorf("order after a1 = %v, want [b1 a2 a3]", order)
	}
}

func TestBroker_Lifecycle(t *testing.T) {
	t.Run("timeout closes the dialog and answers cancel", func(t *testing.T) {
		f := newBrokerFixture(t, newScripted(nil), BrokerOptions{})
		if err := f.st.PutSettings(store.Settings{ElicitationTimeout: 150 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		res, err := f.broker.Elicit(context.Background(), f.a, formRequest("?", nameSchema))
		if err != nil || res.Action != ActionCancel {
			t.Fatalf("res %+v err %v", res, err)
		}
		if h := f.history(t); h[0].Outcome != store.OutcomeTimedOut || h[0].Detail.In(i18n.English) != "no answer within 150 ms" {
			t.Errorf("history: %s, %q; want timed_out, no answer within 150 ms", h[0].Outcome, h[0].Detail.In(i18n.English))
		}
		// The notice says the time as people write it, in either language.
		var notice *Notice
		for _, n := range f.broker.Snapshot().Notices {
			if n.Kind == NoticeTimedOut {
				notice = &n
			}
		}
		if notice == nil {
			t.Fatalf("no timed-out notice among %+v", f.broker.Snapshot().Notices)
		}
		if en, zh := notice.Message.In(i18n.English), notice.Message.In(i18n.Chinese); !strings.Contains(en, "no answer after 150 ms.") ||
			!strings.Contains(zh, "150 毫秒内没有答复") {
			t.Errorf("notice = %q / %q; want the time as 150 ms / 150 毫秒", en, zh)
		}
	})
	t.Run("a request the server withdraws closes and the next is shown", func(t *testing.T) {
		f := newBrokerFixture(t, newScripted(func(r *Question) (Response, bool) {
			return Response{Action: ActionDecline}, r.Message == "second"
		}), BrokerOptions{})
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { _, err := f.broker.Elicit(ctx, f.a, formRequest("first", nameSchema)); errc <- err }()
		<-f.ans.onShow
		second := make(chan *sdk.ElicitResult, 1)
		go func() {
			r, _ := f.broker.Elicit(context.Background(), f.b, formRequest("second", nameSchema))
			second <- r
		}()
		waitFor(t, "the second to queue", 5*time.Second, func() bool { return len(f.broker.Snapshot().Waiting) == 1 })
		if !f.broker.Busy(f.a.Server.ID) || !f.broker.Busy(f.b.Server.ID) {
			t.Error("Busy should be true for servers with a request open or waiting")
		}
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Errorf("withdrawn request err = %v", err)
		}
		if r := <-second; r.Action != ActionDecline {
			t.Errorf("second = %+v", r)
		}
		if f.broker.Busy(f.a.Server.ID) {
			t.Error("still busy after the request was withdrawn")
		}
		outcomes := map[string]string{}
		for _, h := range f.history(t) {
			outcomes[h.Message] = h.Outcome
		}
		if outcomes["first"] != store.OutcomeServerCancelled || outcomes["second"] != store.OutcomeDeclined {
			t.Errorf("outcomes = %v", outcomes)
		}
	})
	t.Run("a waiting request can be refused without being shown (E28)", func(t *testing.T) {
		f := newBrokerFixture(t, newScripted(nil), BrokerOptions{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() { _, _ = f.broker.Elicit(ctx, f.a, formRequest("on screen", nameSchema)) }()
		<-f.ans.onShow
		res := make(chan *sdk.ElicitResult, 1)
		go func() { r, _ := f.broker.Elicit(ctx, f.b, formRequest("queued", nameSchema)); res <- r }()
		waitFor(t, "queued", 5*time.Second, func() bool { return len(f.broker.Snapshot().Waiting) == 1 })
		if err := f.broker.Refuse(f.broker.Snapshot().Waiting[0].ID, ActionDecline); err != nil {
			t.Fatal(err)
		}
		if r := <-res; r.Action != ActionDecline {
			t.Errorf("refused = %+v", r)
		}
		if f.ans.shownCount() != 1 {
			t.Error("the refused request was shown")
		}
		if h := f.history(t); h[0].Outcome != store.OutcomeDeclined || h[0].Detail.Key != "mcp.history.refused" || h[0].AnswerMs != 0 {
			t.Errorf("history = %+v", h[0])
		}
	})
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestBroker_ToolCallApproval: a model's tool call is a question like an
// elicitation: asked only when the settings say so, answered once, for the
// conversation or always, or denied; each decision is in the history, and
// the arguments shown are the bytes that will be sent.
func TestBroker_ToolCallApproval(t *testing.T) {
	args := json.RawMessage(`{"message":"你好","n":1}`)
	cases := []struct {
		name         string
		policy       store.ToolMode
		reply        Response
		wantAllowed  bool
		wantScope    string
		wantAsked    bool
		wantOutcome  string
		wantReasonIn string
	}{
		{"allowed by the settings: not asked", store.ToolAllow, Response{}, true, ScopeOnce, false, store.OutcomeAccepted, ""},
		{"denied by the settings: not asked", store.ToolDeny, Response{}, false, "", false, store.OutcomeDeclined, "do not allow"},
		{"the person allows it once", store.ToolAsk, Response{Action: ActionAccept, Scope: ScopeOnce}, true, ScopeOnce, true, store.OutcomeAccepted, ""},
		{"the person allows it for the conversation", store.ToolAsk, Response{Action: ActionAccept, Scope: ScopeConversation}, true, ScopeConversation, true, store.OutcomeAccepted, ""},
		{"the person allows it always", store.ToolAsk, Response{Action: ActionAccept, Scope: ScopeAlways}, true, ScopeAlways, true, store.OutcomeAccepted, ""},
		{"the person denies it", store.ToolAsk, Response{Action: ActionDecline}, false, "", true, store.OutcomeDeclined, "denied"},
		{"the person dismisses it", store.ToolAsk, Response{Action: ActionCancel}, false, "", true, store.OutcomeCancelled, "dismissed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var shown *Question
			f := newBrokerFixture(t, newScripted(func(q *Question) (Response, bool) {
				shown = q
				return tc.reply, true
			}), BrokerOptions{})
			call := ToolCall{Tool: "echo", Title: "Echo", Arguments: args, ConversationID: "c1", Conversation: "Trip"}
			got, err := f.broker.ApproveToolCall(context.Background(), f.a, call, tc.policy, i18n.Text("the tool's policy"))
			if err != nil {
				t.Fatal(err)
			}
			if got.Allowed != tc.wantAllowed || got.Scope != tc.wantScope || got.Asked != tc.wantAsked || !contains(got.Reason.String(), tc.wantReasonIn) {
				t.Errorf("approval = %+v", got)
			}
			if (shown != nil) != tc.wantAsked {
				t.Fatalf("shown = %v, want asked %v", shown, tc.wantAsked)
			}
			if shown != nil {
				if shown.Kind != KindToolCall || shown.Server.Name != "Alpha" || shown.ToolCall.Tool != "echo" || string(shown.ToolCall.Arguments) != string(args) {
					t.Errorf("the question shows %+v %+v", shown, shown.ToolCall)
				}
				// The window draws the tree of those bytes, built here once.
				if v := shown.ToolCall.View; !reflect.DeepEqual(v, visible.JSON(args)) || len(v.Children) != 2 || v.Children[1].Text != "1" {
					t.Errorf("the question's view = %+v", v)
				}
			}
			if h := f.history(t); len(h) != 1 || h[0].Mode != KindToolCall || h[0].Outcome != tc.wantOutcome || h[0].Message != "" || h[0].Tool != "echo" {
				t.Errorf("history = %+v", h)
			}
		})
	}
}

// TestBroker_ToolCallAnAppAsksIsTheAppsInHistory: an approval an app asks
// for (ToolCall.App) is recorded with the app as its source, asked or not;
// a model's has none.
func TestBroker_ToolCallAnAppAsksIsTheAppsInHistory(t *testing.T) {
	for _, tc := range []struct {
		app, want string
		policy    store.ToolMode
	}{
		{"Budget allocator", store.SourceApp, store.ToolDeny},
		{"Budget allocator", store.SourceApp, store.ToolAsk},
		{"", "", store.ToolAsk},
	} {
		f := newBrokerFixture(t, newScripted(func(*Question) (Response, bool) { return Response{Action: ActionDecline}, true }), BrokerOptions{})
		call := ToolCall{Tool: "wipe", Arguments: json.RawMessage(`{}`), App: tc.app}
		if _, err := f.broker.ApproveToolCall(context.Background(), f.a, call, tc.policy, i18n.Text("policy")); err != nil {
			t.Fatal(err)
		}
		if h := f.history(t); len(h) != 1 || h[0].Source != tc.want {
			t.Errorf("app %q, %s: history = %+v; want source %q", tc.app, tc.policy, h, tc.want)
		}
	}
}

// TestBroker_ToolCallSharesTheQueue: a tool call waits behind another
// server's elicitation on screen (one question at a time), is allowed from
// the window side once it is on screen (Accept), and Stop withdraws one
// that is waiting.
func TestBroker_ToolCallSharesTheQueue(t *testing.T) {
	f := newBrokerFixture(t, newScripted(nil), BrokerOptions{}) // shows, never answers
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _, _ = f.broker.Elicit(ctx, f.b, formRequest("on screen", nameSchema)) }()
	waitFor(t, "the elicitation on screen", 5*time.Second, func() bool { return f.broker.Snapshot().Current != nil })
	approval := make(chan Approval, 1)
	go func() {
		a, _ := f.broker.ApproveToolCall(ctx, f.a, ToolCall{Tool: "echo", Arguments: json.RawMessage(`{}`)}, store.ToolAsk, i18n.Message{})
		approval <- a
	}()
	waitFor(t, "the call to queue", 5*time.Second, func() bool { return len(f.broker.Snapshot().Waiting) == 1 })
	if w := f.broker.Snapshot().Waiting[0]; w.Kind != KindToolCall || w.ServerName != "Alpha" {
		t.Errorf("waiting = %+v", w)
	}
	// The window answers only the question on screen: the broker looks it
	// up and checks its kind.
	allow := func(id, scope string) error {
		_, err := f.broker.Accept(id, Reply{Kind: KindToolCall, Scope: scope})
		return err
	}
	waiting := f.broker.Snapshot().Waiting[0].ID
	if err := allow(waiting, ScopeOnce); !errors.Is(err, ErrNotOpen) {
		t.Errorf("allow of a call still waiting: %v", err)
	}
	if err := allow("nope", ScopeOnce); !errors.Is(err, ErrNotOpen) {
		t.Errorf("allow of an unknown question: %v", err)
	}
	cur := f.broker.Snapshot().Current
	if err := allow(cur.ID, ScopeOnce); err == nil {
		t.Error("an elicitation was allowed like a tool call")
	}

	// Stop while a call waits: the question is withdrawn, nothing allowed.
	stop, cancelCall := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := f.broker.ApproveToolCall(stop, f.a, ToolCall{Tool: "echo", Arguments: json.RawMessage(`{}`)}, store.ToolAsk, i18n.Message{})
		errc <- err
	}()
	waitFor(t, "the second call to queue", 5*time.Second, func() bool { return len(f.broker.Snapshot().Waiting) == 2 })
	cancelCall()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("stopped call: %v", err)
	}
	if w := f.broker.Snapshot().Waiting; len(w) != 1 || w[0].ID != waiting {
		t.Errorf("waiting after Stop: %+v", w)
	}

	// The elicitation answered, the first call comes on screen and is allowed.
	if err := f.broker.Cancel(cur.ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the call on screen", 5*time.Second, func() bool { c := f.broker.Snapshot().Current; return c != nil && c.ID == waiting })
	if err := allow(waiting, "forever"); err == nil {
		t.Error("an unknown scope was accepted")
	}
	if err := allow(waiting, ScopeOnce); err != nil {
		t.Fatal(err)
	}
	if a := <-approval; !a.Allowed || a.Scope != ScopeOnce {
		t.Errorf("approval = %+v", a)
	}
}

// TestBroker_HistoryKeepsTitlesAndTheAddress: the history can say what was
// asked as the person saw it: a form's field titles beside their keys, and
// the address a URL request asked for (as checked, with the host in ASCII,
// or as sent when it was refused).
func TestBroker_HistoryKeepsTitlesAndTheAddress(t *testing.T) {
	for _, tc := range []struct {
		name       string
		req        *sdk.ElicitRequest
		wantFields string
		wantTitles string
		wantURL    string
	}{
		{"a form keeps the titles of the fields that have one",
			formRequest("Who?", `{"type":"object","properties":{"email":{"type":"string","title":"Email address"},"age":{"type":"integer"}}}`),
			"[email age]", "map[email:Email address]", ""},
		{"a URL request keeps the address as checked",
			urlRequest("sign in", "https://bücher.example/login?x=1", "u1"), "[]", "map[]", "https://xn--bcher-kva.example/login?x=1"},
		{"a refused URL request keeps the address as sent",
			urlRequest("sign in", "javascript:alert(1)", "u2"), "[]", "map[]", "javascript:alert(1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newBrokerFixture(t, newScripted(func(*Question) (Response, bool) { return Response{Action: ActionDecline}, true }), BrokerOptions{})
			_, _ = f.broker.Elicit(context.Background(), withURLMode(f.a), tc.req)
			h := f.history(t)
			if len(h) != 1 {
				t.Fatalf("history = %+v", h)
			}
			if fmt.Sprint(h[0].Fields) != tc.wantFields || fmt.Sprint(h[0].Titles) != tc.wantTitles || h[0].URL != tc.wantURL {
				t.Errorf("entry fields %v titles %v url %q; want %s %s %q", h[0].Fields, h[0].Titles, h[0].URL, tc.wantFields, tc.wantTitles, tc.wantURL)
			}
		})
	}
}

// TestBroker_AcceptChecksTheQuestionOnScreen: the window's yes goes through
// one operation that looks the question up and checks its kind: a reply
// meant for another kind is refused and sends nothing, a page that cannot
// be opened sends nothing, and the page's consent is sent once it opened.
func TestBroker_AcceptChecksTheQuestionOnScreen(t *testing.T) {
	f := newBrokerFixture(t, newScripted(nil), BrokerOptions{}) // shows, never answers
	res := make(chan *sdk.ElicitResult, 1)
	go func() {
		r, _ := f.broker.Elicit(context.Background(), withURLMode(f.a), urlRequest("Connect", "https://accounts.example.com/connect", "u1"))
		res <- r
	}()
	waitFor(t, "the URL request on screen", 5*time.Second, func() bool { return f.broker.Snapshot().Current != nil })
	id := f.broker.Snapshot().Current.ID
	var opened []string
	for _, tc := range []struct {
		name    string
		reply   Reply
		wantKey string // the refusal's message; "" when accepted
	}{
		{"a form's answer", Reply{Kind: KindForm, Values: map[string]any{}}, "mcp.broker.notAForm"},
		{"a tool call's allow", Reply{Kind: KindToolCall, Scope: ScopeOnce}, "mcp.broker.notToolCall"},
		{"a sampling review", Reply{Kind: KindSampling}, "mcp.broker.notSampling"},
		{"a model's answer", Reply{Kind: KindSamplingResult}, "mcp.broker.notAnswer"},
		{"a page the browser could not open", Reply{Kind: KindURL, Open: func(l *linkcheck.Report) error {
			opened = append(opened, l.URL)
			return i18n.Err("mcp.broker.noPage")
		}}, "mcp.broker.noPage"},
		{"the page opened", Reply{Kind: KindURL, Open: func(l *linkcheck.Report) error { opened = append(opened, l.URL); return nil }}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.broker.Accept(id, tc.reply)
			if m, _ := i18n.MessageOf(err); m.Key != tc.wantKey {
				t.Fatalf("Accept = %v; want %q", err, tc.wantKey)
			}
			if onScreen := f.broker.Snapshot().Current != nil; onScreen != (tc.wantKey != "") {
				t.Errorf("still on screen: %v", onScreen)
			}
		})
	}
	if r := <-res; r.Action != ActionAccept || len(opened) != 2 || opened[1] != "https://accounts.example.com/connect" {
		t.Errorf("result %+v, pages opened %v", r, opened)
	}
	if _, err := f.broker.Accept(id, Reply{Kind: KindURL}); !errors.Is(err, ErrNotOpen) {
		t.Errorf("a second yes: %v", err)
	}
}
