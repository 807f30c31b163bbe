package app

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// newestEntry is the newest history entry, as the History pane reads it.
func newestEntry(t *testing.T, svc *QuestionService) HistoryView {
	t.Helper()
	page, err := svc.History("", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) == 0 {
		t.Fatal("the history is empty")
	}
	return page.Entries[0]
}

// TestToolsService_CallsAreInTheHistory: each call from the Tools pane to
// the real demo server leaves one history entry saying which server and
// tool, when, how it ended and how long it took.
func TestToolsService_CallsAreInTheHistory(t *testing.T) {
	_, rec, svc, tools, demo := dialogFixture(t)
	for _, tc := range []struct {
		name, tool, args string
		cancel           bool // press Stop while the tool waits for the person
		want             string
	}{
		{name: "a call that returns is ok", tool: "echo", args: `{"message":"hello"}`, want: store.OutcomeOK},
		{name: "an error result is an error", tool: "divide", args: `{"a":1,"b":0}`, want: store.OutcomeError},
		{name: "a call stopped by the person is cancelled", tool: "ask_city", cancel: true, want: store.OutcomeCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := time.Now().Add(-time.Second)
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, _ = tools.Call("call-"+tc.tool, demo, tc.tool, tc.args)
			}()
			if tc.cancel {
				q := shownRequest(t, rec, 0) // the only question of this test
				if err := tools.Cancel("call-" + tc.tool); err != nil {
					t.Fatal(err)
				}
				_ = svc.Cancel(q.ID)
			}
			<-done
			e := newestEntry(t, svc)
			when, _ := time.Parse(time.RFC3339, e.Time)
			if e.Mode != mcp.KindToolRun || e.Tool != tc.tool || e.ServerID != demo || e.ServerName != DemoServerName ||
				e.Source != store.SourceToolsPane || e.Outcome != tc.want || when.Before(before.Truncate(time.Second)) {
				t.Errorf("entry = %+v, want a %s tool run of %s from the Tools pane", e, tc.want, tc.tool)
			}
			if tc.want == store.OutcomeOK && e.DurationMs < 0 {
				t.Errorf("duration %d ms", e.DurationMs)
			}
		})
	}
}

// TestToolRuns_ArgumentsOnlyWhenRemembered: with Settings → Remember my
// answers off, a tool's arguments and result never reach the data file; on,
// they are kept and the History pane shows them.
func TestToolRuns_ArgumentsOnlyWhenRemembered(t *testing.T) {
	const secret = "sk-live-4f9a2c7e1b0d"
	for _, tc := range []struct {
		name     string
		remember bool
	}{
		{"remember off keeps only the outcome", false},
		{"remember on keeps the arguments and the result", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			core, _, svc, tools, demo := dialogFixture(t)
			if err := core.Store.PutSettings(store.Settings{RememberAnswers: tc.remember}); err != nil {
				t.Fatal(err)
			}
			if _, err := tools.Call("c", demo, "echo", `{"message":"`+secret+`"}`); err != nil {
				t.Fatal(err)
			}
			e := newestEntry(t, svc) // flushes the history to the file
			data, err := os.ReadFile(core.Store.Path())
			if err != nil {
				t.Fatal(err)
			}
			inFile := bytes.Contains(data, []byte(secret))
			if inFile != tc.remember {
				t.Errorf("the argument's value is in the data file: %v, want %v", inFile, tc.remember)
			}
			kept := e.Arguments["message"] == secret && e.Result == secret
			if kept != tc.remember || e.Outcome != store.OutcomeOK {
				t.Errorf("entry = %+v, want arguments and result kept: %v", e, tc.remember)
			}
		})
	}
}
