package gateway

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestGateway_AClearedDefaultStaysCleared_E14: during another app's call
// through the gateway, a server (the TypeScript SDK's, 2025-11-25:
// testdata/peers/elicit-server.mjs, whose defaults_echo returns exactly the
// content it received) asks a form whose fields carry defaults; the person
// answers in Gatehouse (the broker) with one field cleared. The client
// speaks each revision the go-sdk speaks: the way back is the same. The server must
// get every other field as shown and the cleared one not at all — nothing
// on the way (the gateway, the go-sdk client before the server) may put
// the default back — and History records the same answer.
func TestGateway_AClearedDefaultStaysCleared_E14(t *testing.T) {
	// Each case clears one field as the window sends it ("" from a text
	// box, nil for an unset switch or select, [] for no choice).
	cases := []struct {
		name, field string
		empty       any
	}{
		{"a text field", "units", ""},
		{"an integer field", "days", nil},
		{"a number field", "threshold", nil},
		{"a boolean field", "alerts", nil},
		{"a single select", "language", ""},
		{"a titled single select", "detail", nil},
		{"a multi select", "layers", []any{}},
		{"nothing: the defaults as shown", "", nil},
	}
	for _, rev := range revisions {
		for _, tc := range cases {
			t.Run(rev+"/"+tc.name+" cleared", func(t *testing.T) {
				var sent map[string]any // what the person submitted, as the server must get it
				f := newFixture(t, func(q *mcp.Question) mcp.Response {
					switch q.Kind {
					case mcp.KindToolCall:
						return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeOnce}
					case mcp.KindForm:
						values := map[string]any{"city": "Oslo"}
						sent = map[string]any{"city": "Oslo"}
						for _, field := range q.Form.Fields {
							if field.Default == nil {
								continue
							}
							if field.Name == tc.field {
								values[field.Name] = tc.empty
								continue
							}
							values[field.Name], sent[field.Name] = field.Default, field.Default
						}
						return mcp.Response{Action: mcp.ActionAccept, Values: values}
					}
					return mcp.Response{Action: mcp.ActionCancel}
				}, Limits{})
				if err := f.st.PutSettings(store.Settings{RememberAnswers: true}); err != nil {
					t.Fatal(err)
				}
				f.add(t, "Weather", "elicit-server.mjs")
				cs := f.connect(t, clientOptions{revision: rev})
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "Weather__defaults_echo", Arguments: map[string]any{}})
				if err != nil || res.IsError {
					t.Fatalf("defaults_echo through the gateway: %+v, %v", res, err)
				}
				if forms := f.person.questions(mcp.KindForm); len(forms) != 1 || forms[0].Server.Name != "Weather" {
					t.Fatalf("the person was asked %d forms", len(forms))
				}
				wantFields := 8
				if tc.field != "" {
					wantFields--
				}
				if len(sent) != wantFields {
					t.Fatalf("the form did not show the defaults: submitted %v", sent)
				}
				var got struct {
					Action  string         `json:"action"`
					Content map[string]any `json:"content"`
				}
				if err := json.Unmarshal([]byte(resultText(res)), &got); err != nil {
					t.Fatalf("the server's answer %q: %v", resultText(res), err)
				}
				if got.Action != "accept" || !sameValues(t, got.Content, sent) {
					t.Errorf("the server received %s %v\nthe person submitted %v", got.Action, got.Content, sent)
				}
				if _, back := got.Content[tc.field]; tc.field != "" && back {
					t.Errorf("the cleared %s reached the server as %v", tc.field, got.Content[tc.field])
				}
				var answered []store.HistoryEntry
				for _, e := range f.history(t) {
					if e.Mode == mcp.KindForm {
						answered = append(answered, e)
					}
				}
				if len(answered) != 1 {
					t.Fatalf("history has %d form answers", len(answered))
				}
				if !sameValues(t, answered[0].Answer, sent) {
					t.Errorf("history recorded %v, the server received %v", answered[0].Answer, sent)
				}
			})
		}
	}
}

// sameValues compares two JSON objects as JSON (numbers as numbers).
func sameValues(t *testing.T, a, b any) bool {
	t.Helper()
	norm := func(v any) any {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}
