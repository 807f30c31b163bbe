package app

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// shownRequest waits until the snapshot events have put the (after+1)-th
// distinct question on screen and returns it, as the window would show it.
func shownRequest(t *testing.T, rec *recorder, after int) QuestionView {
	t.Helper()
	var v QuestionView
	waitUntil(t, "the consent dialog event", func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		var shown []*QuestionView
		for _, e := range rec.events[EventQuestions] {
			cur := e.(SnapshotView).Current
			if cur != nil && (len(shown) == 0 || shown[len(shown)-1].ID != cur.ID) {
				shown = append(shown, cur)
			}
		}
		if len(shown) <= after {
			return false
		}
		v = *shown[after]
		return true
	})
	return v
}

// dialogFixture is the core with the dialog and tools services, connected
// to the real demo server.
func dialogFixture(t *testing.T) (core *Core, rec *recorder, svc *QuestionService, tools *ToolsService, demo string) {
	t.Helper()
	core, rec = openTestCore(t)
	svc = NewQuestionService(core, nil)
	tools = NewToolsService(core)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	demo = demoID(t, core)
	waitUntil(t, "the demo server to connect", func() bool { st, _ := core.Manager.Status(demo); return st.State == "connected" })
	return core, rec, svc, tools, demo
}

func demoID(t *testing.T, core *Core) string {
	t.Helper()
	srv, err := core.Store.ServerByName(DemoServerName)
	if err != nil {
		t.Fatal(err)
	}
	return srv.ID
}

// TestQuestionService_Dialog drives the dialog API the way the UI does,
// against the real demo server: an invalid email is refused inline and not
// sent; the fixed answer reaches the tool.
func TestQuestionService_Dialog_E14_E15_E27(t *testing.T) {
	_, rec, svc, tools, id := dialogFixture(t)

	result := make(chan ToolResultView, 1)
	go func() {
		res, err := tools.Call("c1", id, "register", "")
		if err != nil {
			t.Errorf("call: %v", err)
		}
		result <- res
	}()
	v := shownRequest(t, rec, 0)
	if v.Server.Name != DemoServerName || v.Server.SelfName != "gatehouse-demo" || !strings.HasSuffix(v.Server.Where, "demo-server") {
		t.Errorf("the dialog must say which server asks (E27): %+v", v)
	}
	if !strings.HasPrefix(v.Message, "Register for GopherCon Demo 2026.\n") || v.Form == nil || len(v.Form.Fields) != 12 || v.Form.Fields[0].Name != "name" || v.Form.Fields[11].Name != "diet" {
		t.Errorf("view = %+v", v)
	}
	if len(v.Form.SecretFields) != 0 {
		t.Errorf("the registration form asks for no secret, but %v were flagged", v.Form.SecretFields)
	}
	answer := map[string]any{"name": "Ada", "email": "not-an-email", "arrival": "2026-03-01", "track": "web", "workshops": []any{"mcp"}}
	errs, err := svc.Validate(v.ID, answer)
	if err != nil || !strings.Contains(errs["email"].String(), "email address") {
		t.Errorf("validate: %v %v", errs, err)
	}
	res, err := svc.Submit(v.ID, answer)
	if err != nil || res.Sent || !strings.Contains(res.Errors["email"].String(), "email address") {
		t.Fatalf("an invalid submit must be refused inline: %+v %v", res, err)
	}
	select {
	case <-result:
		t.Fatal("something was sent although the answer was invalid")
	case <-time.After(200 * time.Millisecond):
	}
	answer["email"] = "ada@example.com"
	if res, err := svc.Submit(v.ID, answer); err != nil || !res.Sent {
		t.Fatalf("submit: %+v %v", res, err)
	}
	out := <-result
	// The answer left "guests" out (the person cleared its default): the
	// server gets exactly the submitted fields (E14).
	want := `accept {"arrival":"2026-03-01","email":"ada@example.com","name":"Ada","track":"web","workshops":["mcp"]}`
	if len(out.Content) != 1 || out.Content[0].Text != want {
		t.Errorf("the tool result shows what was sent: %+v\nwant %s", out, want)
	}
	// A late answer to a finished request is dropped safely.
	if err := svc.Decline(v.ID); !errors.Is(err, ErrNotOpen) {
		t.Errorf("late decline: %v", err)
	}
	// The form's entry, then (newer, so first) the tool run it belonged to.
	page, _ := svc.History("", "", 0)
	hist := page.Entries
	if len(hist) != 2 || hist[1].Mode != mcp.KindForm || hist[1].Outcome != store.OutcomeAccepted || hist[1].Answer != nil {
		t.Errorf("history = %+v", hist)
	}
	if len(hist) == 2 && (hist[0].Mode != mcp.KindToolRun || hist[0].Outcome != store.OutcomeOK || hist[0].Arguments != nil || hist[0].Result != "") {
		t.Errorf("the tool run's entry = %+v, want ok with no arguments or result (remember is off)", hist[0])
	}
}

func TestQuestionService_DeclineCancelAndSensitive_E17_E26(t *testing.T) {
	_, rec, svc, tools, id := dialogFixture(t)
	for i, tc := range []struct {
		tool, action, want string
		sensitive          bool
	}{
		{"connect_bank", "decline", "decline", true},
		{"ask_city", "cancel", "cancel", false},
	} {
		result := make(chan string, 1)
		go func() {
			res, _ := tools.Call("c", id, tc.tool, "")
			if len(res.Content) > 0 {
				result <- res.Content[0].Text
			} else {
				result <- ""
			}
		}()
		v := shownRequest(t, rec, i)
		if got := len(v.Form.SecretFields) > 0; got != tc.sensitive {
			t.Errorf("%s: secret fields = %v", tc.tool, v.Form.SecretFields)
		}
		if secret := strings.Join(v.Form.SecretFields, ","); tc.sensitive && secret != "password" || !tc.sensitive && secret != "" {
			t.Errorf("%s: the warning names the fields %q", tc.tool, secret)
		}
		if tc.action == "decline" {
			_ = svc.Decline(v.ID)
		} else {
			_ = svc.Cancel(v.ID)
		}
		if got := <-result; got != tc.want {
			t.Errorf("%s: server saw %q, want %q", tc.tool, got, tc.want)
		}
	}
}

// TestToolCallTimeoutPausesWhileAnswering: a call whose own timeout is far
// shorter than the time the person takes still succeeds.
func TestToolCallTimeoutPausesWhileAnswering(t *testing.T) {
	core, rec, svc, tools, id := dialogFixture(t)
	if err := core.Store.PutSettings(store.Settings{ToolCallTimeout: 300 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := tools.Call("c", id, "ask_city", ""); done <- err }()
	v := shownRequest(t, rec, 0)
	time.Sleep(time.Second) // the person thinks for longer than the call's timeout
	if _, err := svc.Submit(v.ID, map[string]any{"city": "Oslo"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("the call timed out while the person was answering: %v", err)
	}
	// Without a dialog the timeout applies.
	if _, err := tools.Call("c", id, "echo", `{"message":"x"}`); err != nil {
		t.Errorf("a quick call failed: %v", err)
	}
}

// TestQuestionService_MuteAndRequestPolicy: the dialog's Mute and the
// request policy set in Settings are one policy, shown in Settings.
func TestQuestionService_MuteAndRequestPolicy(t *testing.T) {
	core, rec := openTestCore(t)
	svc := NewQuestionService(core, nil)
	settings := NewPoliciesService(core)
	id := demoID(t, core)
	for _, step := range []struct {
		do   func() error
		want string
	}{
		{func() error { return nil }, "ask"},
		{func() error { _, err := settings.SetRequests(id, "decline"); return err }, "decline"},
		{func() error { return svc.Mute(id, 30) }, "mute"},
		{func() error { _, err := settings.SetRequests(id, "ask"); return err }, "ask"},
	} {
		if err := step.do(); err != nil {
			t.Fatal(err)
		}
		if v, err := settings.Server(id); err != nil || v.Requests != step.want {
			t.Errorf("requests = %q %v, want %s", v.Requests, err, step.want)
		}
		if step.want == "mute" {
			if ev, ok := rec.last(EventPolicies).(ServerPolicyView); !ok || ev.Requests != "mute" || ev.MutedUntil == "" {
				t.Errorf("after Mute the window got %+v", rec.last(EventPolicies))
			}
		}
	}
}

// desktopRecorder records what the service asks of the window system. It
// stands in for the Wails runtime, which needs a real window; the GUI's
// notification path itself is exercised by the real-window test.
type desktopRecorder struct {
	mu        sync.Mutex
	titles    []string
	attention int
	withdrawn int
	fail      error
}

func (d *desktopRecorder) Notify(title, body string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.titles = append(d.titles, title+" | "+body)
	return d.fail
}

func (d *desktopRecorder) Withdraw() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.withdrawn++
}

func (d *desktopRecorder) withdrawals() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.withdrawn
}

func (d *desktopRecorder) Attention() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.attention++
}

// TestQuestionService_NotifyUnfocused: when the window is not focused the
// UI asks for an OS notification naming the configured server, and the
// window asks for attention; without a notification service the request
// still waits in the window.
func TestQuestionService_NotifyUnfocused(t *testing.T) {
	core, rec := openTestCore(t)
	desk := &desktopRecorder{fail: errors.New("no notification service")}
	svc := NewQuestionService(core, desk)
	tools := NewToolsService(core)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	id := demoID(t, core)
	waitUntil(t, "the demo server to connect", func() bool { st, _ := core.Manager.Status(id); return st.State == "connected" })

	done := make(chan struct{})
	go func() { _, _ = tools.Call("n", id, "ask_city", ""); close(done) }()
	v := shownRequest(t, rec, 0)
	if err := svc.NotifyUnfocused("not-a-request"); !errors.Is(err, ErrNotOpen) {
		t.Errorf("unknown request: %v, want ErrNotOpen", err)
	}
	if err := svc.NotifyUnfocused(v.ID); err != nil {
		t.Errorf("a missing notification service must not fail the request: %v", err)
	}
	desk.mu.Lock()
	titles, attention := desk.titles, desk.attention
	desk.mu.Unlock()
	if len(titles) != 1 || titles[0] != DemoServerName+" is asking for your input | Which city should I look up?" || attention != 1 {
		t.Errorf("notifications %q, attention %d", titles, attention)
	}
	// The request is still open and can be answered.
	if res, err := svc.Submit(v.ID, map[string]any{"city": "Oslo"}); err != nil || !res.Sent {
		t.Errorf("submit after notification: %+v %v", res, err)
	}
	<-done
	if desk.withdrawals() != 0 {
		t.Errorf("a notification that failed to show was withdrawn %d times", desk.withdrawals())
	}
}

// TestQuestionService_AnsweredQuestionsNotificationGoesAway: once the
// question a notification announced is answered, the notification is taken
// off the screen; it stays while the question is still open.
func TestQuestionService_AnsweredQuestionsNotificationGoesAway(t *testing.T) {
	core, rec := openTestCore(t)
	desk := &desktopRecorder{}
	svc := NewQuestionService(core, desk)
	tools := NewToolsService(core)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	id := demoID(t, core)
	waitUntil(t, "the demo server to connect", func() bool { st, _ := core.Manager.Status(id); return st.State == "connected" })

	done := make(chan struct{})
	go func() { _, _ = tools.Call("n", id, "ask_city", ""); close(done) }()
	v := shownRequest(t, rec, 0)
	if err := svc.NotifyUnfocused(v.ID); err != nil {
		t.Fatal(err)
	}
	// Typing into the form publishes snapshots; the question is still open.
	if _, err := svc.Validate(v.ID, map[string]any{"city": "Os"}); err != nil {
		t.Fatal(err)
	}
	if n := desk.withdrawals(); n != 0 {
		t.Fatalf("the notification of an open question was withdrawn %d times", n)
	}
	if res, err := svc.Submit(v.ID, map[string]any{"city": "Oslo"}); err != nil || !res.Sent {
		t.Fatalf("submit: %+v %v", res, err)
	}
	<-done
	waitUntil(t, "the notification to be withdrawn", func() bool { return desk.withdrawals() == 1 })
}
