package llm_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
)

// The tests of this package run the real SDKs against llmtest's scripted
// stand-ins: no model can run on the machines Gatehouse is tested on. Each
// test says so where it starts one.

// kinds are the two wire formats; most behaviours are tested in both.
var kinds = []llm.Kind{llm.KindOpenAI, llm.KindAnthropic}

// standIn starts the stand-in server that speaks kind's wire format.
func standIn(t testing.TB, kind llm.Kind, script llmtest.Script) *llmtest.Server {
	t.Helper()
	if kind == llm.KindAnthropic {
		return llmtest.NewAnthropic(t, script)
	}
	return llmtest.NewOpenAI(t, script)
}

// provider makes the provider for cfg, failing the test on a config error.
func provider(t testing.TB, cfg llm.Config) llm.Provider {
	t.Helper()
	if cfg.Model == "" {
		cfg.Model = "stand-in-model"
	}
	p, err := llm.New(cfg)
	if err != nil {
		t.Fatalf("New(%v): %v", cfg, err)
	}
	return p
}

// ask is a one-message request, in Chinese as a person might write it.
func ask(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}}
}

// result is what a whole stream yielded.
type result struct {
	events []llm.Event
	err    error
}

// stream runs one turn to its end.
func stream(t testing.TB, p llm.Provider, req llm.Request) result {
	t.Helper()
	var r result
	for ev, err := range p.Stream(context.Background(), req) {
		if err != nil {
			r.err = err
			break
		}
		r.events = append(r.events, ev)
	}
	return r
}

// deltas returns the texts of the events of one type, in order.
func (r result) deltas(typ llm.EventType) []string {
	var out []string
	for _, ev := range r.events {
		if ev.Type == typ {
			out = append(out, ev.Text)
		}
	}
	return out
}

// toolCalls returns the tool-call events' calls, in order.
func (r result) toolCalls() []llm.ToolCall {
	var out []llm.ToolCall
	for _, ev := range r.events {
		if ev.Type == llm.EventToolCall {
			out = append(out, ev.ToolCall)
		}
	}
	return out
}

// end returns the stream's last event, which must be EventEnd.
func (r result) end(t testing.TB) llm.Event {
	t.Helper()
	if r.err != nil {
		t.Fatalf("the stream failed: %v", r.err)
	}
	if len(r.events) == 0 || r.events[len(r.events)-1].Type != llm.EventEnd {
		t.Fatalf("the stream did not end with EventEnd: %+v", r.events)
	}
	for _, ev := range r.events[:len(r.events)-1] {
		if ev.Type == llm.EventEnd {
			t.Fatalf("EventEnd came before the last event: %+v", r.events)
		}
	}
	return r.events[len(r.events)-1]
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t testing.TB, got, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Errorf("not JSON: %v: %s", err, got)
		return false
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("the test's JSON is broken: %v: %s", err, want)
	}
	return reflect.DeepEqual(g, w)
}

// field returns a JSON value at a dotted path of a decoded body, with
// numeric steps for arrays ("messages.1.content").
func field(body map[string]any, path string) any {
	var cur any = body
	for _, step := range strings.Split(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[step]
		case []any:
			i := 0
			for _, ch := range step {
				i = i*10 + int(ch-'0')
			}
			if i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

// asJSON re-encodes a decoded value, for comparing with sameJSON.
func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
