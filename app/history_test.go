package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
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

// TestHistory_GatehousesWordsFollowTheWindowsLanguage: what Gatehouse itself
// says in a history row (what a sampling request asks, why a question
// ended) is kept as a message key and its arguments, so the History pane
// shows it in the window's language: in Chinese no English sentence of
// Gatehouse's is left in the rows the window reads (issue 23).
func TestHistory_GatehousesWordsFollowTheWindowsLanguage(t *testing.T) {
	core, rec, svc, tools, demo := dialogFixture(t)
	peer, err := core.Manager.Peer(demo)
	if err != nil {
		t.Fatal(err)
	}
	core.Broker.SetSampler(&cannedSampler{})
	t.Cleanup(func() { i18n.SetLanguage(i18n.English) })
	shown := 0
	for _, tc := range []struct {
		name             string
		ask              func()
		answer           func(q QuestionView) error
		english, chinese []string
	}{
		{"a sampling request the person rejected",
			func() {
				_, _ = core.Broker.Sample(context.Background(), peer, &sdk.CreateMessageParams{MaxTokens: 50,
					Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: "Weather?"}}}})
			},
			func(q QuestionView) error { return svc.Decline(q.ID) },
			[]string{"Asks your model to write a message", "the person rejected the request"},
			[]string{"请你的模型写一条消息", "用户拒绝了此请求"}},
		{"a model's tool call allowed once",
			func() {
				_, _ = core.Broker.ApproveToolCall(context.Background(), peer, mcp.ToolCall{Tool: "echo", Arguments: json.RawMessage(`{}`)},
					store.ToolAsk, i18n.Message{})
			},
			func(q QuestionView) error { return svc.Allow(q.ID, mcp.ScopeOnce) },
			[]string{"Call echo", "allowed: once"},
			[]string{"已允许：仅此一次"}},
		{"a form the server's policy declined",
			func() {
				if err := core.Store.PutPolicy(demo, store.Policy{Mode: store.PolicyDecline}); err != nil {
					t.Error(err)
				}
				_, _ = tools.Call("", demo, "ask_city", "")
			},
			nil, // never shown
			[]string{"declined automatically by the server's policy"},
			[]string{"已按此服务器的策略自动拒绝"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i18n.SetLanguage(i18n.English)
			done := make(chan struct{})
			go func() { defer close(done); tc.ask() }()
			if tc.answer != nil {
				if err := tc.answer(shownRequest(t, rec, shown)); err != nil {
					t.Fatal(err)
				}
				shown++
			}
			<-done
			i18n.SetLanguage(i18n.Chinese) // the window's language now
			page, err := svc.History("", "", 0)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := json.Marshal(page.Entries) // what the window reads
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.english {
				if bytes.Contains(rows, []byte(s)) {
					t.Errorf("the rows still say %q in English:\n%s", s, rows)
				}
			}
			for _, s := range tc.chinese {
				if !bytes.Contains(rows, []byte(s)) {
					t.Errorf("the rows do not say %q:\n%s", s, rows)
				}
			}
		})
	}
}

// TestHistorySourcesAreNamedInTheWindow: every place a tool call can come
// from (the store.Source constants, defined once) has its words in the
// History pane, so that a new source is never shown without them (that
// both catalogues have those keys is frontend/src/lib/i18n.test.ts's check).
func TestHistorySourcesAreNamedInTheWindow(t *testing.T) {
	pane, err := os.ReadFile("../frontend/src/components/history/HistoryPane.svelte")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "../store/types.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var sources []string
	ast.Inspect(f, func(n ast.Node) bool {
		if spec, ok := n.(*ast.ValueSpec); ok && strings.HasPrefix(spec.Names[0].Name, "Source") && len(spec.Values) == 1 {
			if lit, ok := spec.Values[0].(*ast.BasicLit); ok {
				s, _ := strconv.Unquote(lit.Value)
				sources = append(sources, s)
			}
		}
		return true
	})
	if len(sources) < 5 {
		t.Fatalf("found only the sources %v in store/types.go", sources)
	}
	for _, s := range sources {
		key := "history.source." + s
		if !bytes.Contains(pane, []byte(fmt.Sprintf("%s: '%s'", s, key))) {
			t.Errorf("the History pane does not name the source %q (%s)", s, key)
		}
	}
}
