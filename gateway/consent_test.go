package gateway

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// readLedger returns the ledger server's own record of what it received.
func readLedger(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// history returns the tool runs and calls recorded, oldest first.
func (f *fixture) history(t *testing.T) []store.HistoryEntry {
	t.Helper()
	f.broker.FlushHistory()
	h, err := f.st.History(store.HistoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestGateway_AllowAndDeny: a client's tools/call is asked in Gatehouse's
// dialog, which names the app as it claims to be and as the system says;
// Allow runs it on the server; Deny never reaches it (the server's own
// request log proves it), and the client reads why. History records both
// with the app named.
func TestGateway_AllowAndDeny(t *testing.T) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			allow := true
			f := newFixture(t, func(q *mcp.Question) mcp.Response {
				if q.Kind == mcp.KindToolCall && allow {
					return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeOnce}
				}
				return mcp.Response{Action: mcp.ActionDecline}
			}, Limits{})
			ledger := filepath.Join(t.TempDir(), "ledger")
			f.add(t, "Bank", "ledger-server.mjs", ledger)
			cs := f.connect(t, clientOptions{name: "claude-code", revision: rev})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()

			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Bank__send_payment", Arguments: map[string]any{"to": "ada", "amount": 5}})
			if err != nil || res.IsError || !strings.Contains(resultText(res), "Sent 5 to ada") {
				t.Fatalf("allowed call: %+v, %v", res, err)
			}
			if got := readLedger(t, ledger); !strings.Contains(got, "paid 5 to ada") {
				t.Fatalf("the server did not run the allowed call: %q", got)
			}

			allow = false
			res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "Bank__send_payment", Arguments: map[string]any{"to": "eve", "amount": 1000}})
			if err != nil || !res.IsError || !strings.Contains(resultText(res), "did not call send_payment") {
				t.Fatalf("denied call: %+v, %v", res, err)
			}
			if got := readLedger(t, ledger); strings.Contains(got, "eve") || strings.Count(got, "request tools/call") != 1 {
				t.Fatalf("the server saw the denied call: %q", got)
			}

			asked := f.person.questions(mcp.KindToolCall)
			if len(asked) != 2 {
				t.Fatalf("asked %d times, want 2", len(asked))
			}
			for _, q := range asked {
				c := q.ToolCall.Client
				if q.Server.Name != "Bank" || q.ToolCall.Tool != "send_payment" || c == nil ||
					c.Name != "claude-code" || c.Version != "1.2.3" || c.Launcher != launcher.Exe || c.Command != launcher.Command || c.PID != launcher.PID {
					t.Errorf("the question names %s · %s, client %+v", q.Server.Name, q.ToolCall.Tool, c)
				}
			}
			var runs []store.HistoryEntry
			for _, e := range f.history(t) {
				if e.Mode == mcp.KindToolRun {
					runs = append(runs, e)
				}
			}
			if len(runs) != 2 {
				t.Fatalf("history has %d runs: %+v", len(runs), runs)
			}
			for _, e := range runs {
				if e.Source != store.SourceClient || e.Client != "claude-code 1.2.3" || e.Launcher != launcher.Exe {
					t.Errorf("history run %+v does not name the app", e)
				}
			}
			if runs[0].Outcome != store.OutcomeDenied && runs[1].Outcome != store.OutcomeDenied {
				t.Errorf("no denied run in %+v", runs)
			}
			f.gw.writeCalls() // as it does every second
			apps, err := f.st.ClientApps()
			if err != nil || len(apps) != 1 || apps[0].Calls != 2 || apps[0].Name != "claude-code" || apps[0].Launcher != launcher.Exe {
				t.Errorf("the app's record: %+v, %v", apps, err)
			}
		})
	}
}

// TestGateway_TheAppsOwnModes: an app's own mode for a tool goes over the
// chat's (the server's allow): its call is asked, another app's is not.
func TestGateway_TheAppsOwnModes(t *testing.T) {
	f := newFixture(t, func(q *mcp.Question) mcp.Response { return mcp.Response{Action: mcp.ActionDecline} }, Limits{})
	ledger := filepath.Join(t.TempDir(), "ledger")
	bank := f.add(t, "Bank", "ledger-server.mjs", ledger)
	if err := f.st.PutToolPolicy(bank.ID, store.ToolPolicy{Mode: store.ToolAllow}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	careful := f.connect(t, clientOptions{name: "cursor"})
	if _, err := careful.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	apps, _ := f.st.ClientApps()
	if _, err := f.st.PutClientAppSettings(store.ClientApp{ID: apps[0].ID,
		Tools: []store.ClientToolMode{{ServerID: bank.ID, Tool: "send_payment", Mode: store.ToolAsk}}}); err != nil {
		t.Fatal(err)
	}
	f.gw.AppChanged(apps[0].ID) // as Settings → Connected apps does
	res, err := careful.CallTool(ctx, &sdk.CallToolParams{Name: "Bank__send_payment", Arguments: map[string]any{"to": "eve", "amount": 1}})
	if err != nil || !res.IsError || len(f.person.questions(mcp.KindToolCall)) != 1 {
		t.Fatalf("cursor's call: %+v, %v; asked %d", res, err, len(f.person.questions(mcp.KindToolCall)))
	}
	trusted := f.connect(t, clientOptions{name: "claude-code"})
	res, err = trusted.CallTool(ctx, &sdk.CallToolParams{Name: "Bank__send_payment", Arguments: map[string]any{"to": "ada", "amount": 2}})
	if err != nil || res.IsError || len(f.person.questions(mcp.KindToolCall)) != 1 {
		t.Fatalf("claude-code's call: %+v, %v", res, err)
	}
	if got := readLedger(t, ledger); strings.Contains(got, "eve") || !strings.Contains(got, "paid 2 to ada") {
		t.Errorf("ledger: %q", got)
	}
}

// TestGateway_ElicitationIsTheBrokers: a server's form during a gateway
// call is put to the person in Gatehouse (the broker), never to the
// client, though the client says it could answer forms.
func TestGateway_ElicitationIsTheBrokers(t *testing.T) {
	f := newFixture(t, func(q *mcp.Question) mcp.Response {
		switch q.Kind {
		case mcp.KindToolCall:
			return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeOnce}
		case mcp.KindForm:
			return mcp.Response{Action: mcp.ActionAccept, Values: map[string]any{"ok": true}}
		}
		return mcp.Response{Action: mcp.ActionCancel}
	}, Limits{})
	f.add(t, "Asker", "elicit-server.mjs")
	clientAsked := false
	cs := f.connect(t, clientOptions{sdk: &sdk.ClientOptions{
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			clientAsked = true
			return &sdk.ElicitResult{Action: "decline"}, nil
		}}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Asker__confirm", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("confirm: %+v, %v", res, err)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `\"ok\":true`) && !strings.Contains(string(b), `"ok":true`) {
		t.Errorf("the server did not get the person's answer: %s", b)
	}
	if clientAsked {
		t.Error("the server's question was forwarded to the client")
	}
	if forms := f.person.questions(mcp.KindForm); len(forms) != 1 || forms[0].Server.Name != "Asker" {
		t.Errorf("the person was asked %d forms", len(forms))
	}
}

// TestGateway_TheAppsOwnAllow: an app's own allow of a tool (the chat
// asks) runs its calls without asking while the tool is the one the person
// saw when allowing it for the app; an allow bound to nothing is asked.
func TestGateway_TheAppsOwnAllow(t *testing.T) {
	f := newFixture(t, func(q *mcp.Question) mcp.Response { return mcp.Response{Action: mcp.ActionDecline} }, Limits{})
	ledger := filepath.Join(t.TempDir(), "ledger")
	bank := f.add(t, "Bank", "ledger-server.mjs", ledger)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs := f.connect(t, clientOptions{name: "claude-code"})
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	apps, _ := f.st.ClientApps()
	allow := func(seen *store.ToolSeen) {
		t.Helper()
		if _, err := f.st.PutClientAppSettings(store.ClientApp{ID: apps[0].ID,
			Tools: []store.ClientToolMode{{ServerID: bank.ID, Tool: "send_payment", Mode: store.ToolAllow, Seen: seen}}}); err != nil {
			t.Fatal(err)
		}
		f.gw.AppChanged(apps[0].ID)
	}
	pay := func(to string) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Bank__send_payment", Arguments: map[string]any{"to": to, "amount": 1}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	allow(nil)
	if res := pay("eve"); !res.IsError || len(f.person.questions(mcp.KindToolCall)) != 1 {
		t.Fatalf("an allow bound to nothing: %+v; asked %d", res, len(f.person.questions(mcp.KindToolCall)))
	}
	peer, err := f.m.Peer(bank.ID)
	if err != nil {
		t.Fatal(err)
	}
	tool, err := f.m.Tool(bank.ID, "send_payment")
	if err != nil {
		t.Fatal(err)
	}
	seen := mcp.ToolFingerprint(peer.Server, tool)
	allow(&seen)
	if res := pay("ada"); res.IsError || len(f.person.questions(mcp.KindToolCall)) != 1 {
		t.Fatalf("an allow bound to the tool: %+v; asked %d", res, len(f.person.questions(mcp.KindToolCall)))
	}
	if got := readLedger(t, ledger); strings.Contains(got, "eve") || !strings.Contains(got, "paid 1 to ada") {
		t.Errorf("ledger: %q", got)
	}
}

// TestGateway_AlwaysAllowIsTheAppsOwn: "Always allow" answered on a call
// from one app is that app's own allow of the tool (bound to the tool as
// the person saw it): its next calls run without asking, while the chat's
// Tool permissions stay as they were and another app is still asked.
// Settings → Connected apps shows the app's allow.
func TestGateway_AlwaysAllowIsTheAppsOwn(t *testing.T) {
	f := newFixture(t, func(q *mcp.Question) mcp.Response {
		if q.Kind == mcp.KindToolCall && q.ToolCall.Client != nil && q.ToolCall.Client.Name == "claude-code" {
			return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeAlways}
		}
		return mcp.Response{Action: mcp.ActionDecline}
	}, Limits{})
	ledger := filepath.Join(t.TempDir(), "ledger")
	bank := f.add(t, "Bank", "ledger-server.mjs", ledger)
	before, err := f.st.ToolPolicy(bank.ID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pay := func(cs *sdk.ClientSession, to string) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Bank__send_payment", Arguments: map[string]any{"to": to, "amount": 1}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a := f.connect(t, clientOptions{name: "claude-code"})
	for i, to := range []string{"ada", "bob"} {
		if res := pay(a, to); res.IsError || len(f.person.questions(mcp.KindToolCall)) != 1 {
			t.Fatalf("claude-code's call %d: %+v; asked %d", i+1, res, len(f.person.questions(mcp.KindToolCall)))
		}
	}
	after, err := f.st.ToolPolicy(bank.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("the chat's Tool permissions changed: %+v → %+v", before, after)
	}
	b := f.connect(t, clientOptions{name: "cursor"})
	if res := pay(b, "eve"); !res.IsError || len(f.person.questions(mcp.KindToolCall)) != 2 {
		t.Fatalf("cursor's call: %+v; asked %d", res, len(f.person.questions(mcp.KindToolCall)))
	}
	if got := readLedger(t, ledger); strings.Contains(got, "eve") || !strings.Contains(got, "paid 1 to bob") {
		t.Errorf("ledger: %q", got)
	}
	apps, err := f.st.ClientApps()
	if err != nil {
		t.Fatal(err)
	}
	tool, _ := f.m.Tool(bank.ID, "send_payment")
	peer, _ := f.m.Peer(bank.ID)
	want := mcp.ToolFingerprint(peer.Server, tool)
	for _, app := range apps {
		p := app.Policy(bank.ID, after)
		allowed := p.Tools["send_payment"] == store.ToolAllow && p.Approval("send_payment").Same(want)
		if allowed != (app.Name == "claude-code") {
			t.Errorf("%s: its policy %+v", app.Name, p)
		}
	}
}

// TestGateway_NoAnswerInTime: when no one answers Gatehouse's question
// about another app's call within the answer time (Settings), the call
// fails with a sentence the app shows, the server never sees it (its own
// request log), and History records the question and the call as not
// answered in time, with the app named.
func TestGateway_NoAnswerInTime(t *testing.T) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			f := newFixture(t, nil, Limits{}) // no one answers
			if err := f.st.PutSettings(store.Settings{ElicitationTimeout: 200 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			ledger := filepath.Join(t.TempDir(), "ledger")
			f.add(t, "Bank", "ledger-server.mjs", ledger)
			cs := f.connect(t, clientOptions{name: "claude-code", revision: rev})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Bank__send_payment", Arguments: map[string]any{"to": "eve", "amount": 9}})
			if err != nil {
				t.Fatal(err)
			}
			want := "No one answered Gatehouse's question about calling send_payment within 200 ms, so it was not called."
			if !res.IsError || !strings.Contains(resultText(res), want) {
				t.Errorf("the client reads %q (error %v), want %q", resultText(res), res.IsError, want)
			}
			if len(f.person.questions(mcp.KindToolCall)) != 1 {
				t.Errorf("asked %d times", len(f.person.questions(mcp.KindToolCall)))
			}
			if got := readLedger(t, ledger); strings.Contains(got, "tools/call") {
				t.Fatalf("the server saw the call: %q", got)
			}
			var question, run *store.HistoryEntry
			for _, e := range f.history(t) {
				switch e.Mode {
				case mcp.KindToolCall:
					question = &e
				case mcp.KindToolRun:
					run = &e
				}
			}
			for name, e := range map[string]*store.HistoryEntry{"question": question, "call": run} {
				if e == nil {
					t.Errorf("history has no %s", name)
					continue
				}
				if e.Outcome != store.OutcomeTimedOut || e.Source != store.SourceClient || e.Client != "claude-code 1.2.3" ||
					e.Detail.In(i18n.English) != "no answer within 200 ms" {
					t.Errorf("history's %s: %s, %q, %s, %q", name, e.Outcome, e.Detail.In(i18n.English), e.Source, e.Client)
				}
			}
		})
	}
}
