package mcp

import (
	"encoding/json"
	"testing"

	"github.com/gatehouse-app/gatehouse/store"
)

// TestElicit_ServerGetsWhatWasShown_E14: a form whose fields carry defaults
// (every type that can: text, integer, number, boolean, single select,
// titled single select, multi select) is answered with one field cleared.
// The server, which returns exactly the content it received, must get every
// other field with the value on screen and the cleared one not at all: the
// go-sdk client must not put the default back (rawschema.go). History
// records the same values. Peers: the TypeScript SDK server
// testdata/peers/elicit-server.mjs on 2025-06-18 (--legacy) and 2025-11-25,
// and a go-sdk server (defaultsEchoServer) on 2026-07-28 input requests.
func TestElicit_ServerGetsWhatWasShown_E14(t *testing.T) {
	revisions := []struct {
		name    string
		version string
		srv     func(t *testing.T) store.Server
	}{
		{"2025-06-18, TypeScript SDK", "2025-06-18", func(t *testing.T) store.Server {
			return store.Server{Name: "Echo", Enabled: true, Transport: store.TransportStdio,
				Stdio: &store.StdioConfig{Command: "node", Args: []string{peerScript(t, "elicit-server.mjs"), "--legacy"}}}
		}},
		{"2025-11-25, TypeScript SDK", "2025-11-25", func(t *testing.T) store.Server {
			return store.Server{Name: "Echo", Enabled: true, Transport: store.TransportStdio,
				Stdio: &store.StdioConfig{Command: "node", Args: []string{peerScript(t, "elicit-server.mjs")}}}
		}},
		{"2026-07-28 input requests, go-sdk", "2026-07-28", func(t *testing.T) store.Server {
			return peerServer(t, "Echo", "defaults-echo", nil)
		}},
	}
	// Each case clears one field ("" the way a text box sends it, nil for
	// an unset switch, [] for no choice) and keeps the others' defaults.
	cleared := []struct {
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
		t.Run(rev.name, func(t *testing.T) {
			for _, tc := range cleared {
				t.Run(tc.name+" cleared", func(t *testing.T) {
					var sent map[string]any
					h := newElicitHarness(t, func(r *Question) (Response, bool) {
						values := map[string]any{"city": "Oslo"}
						sent = map[string]any{"city": "Oslo"}
						for _, f := range r.Form.Fields {
							if f.Default == nil {
								continue
							}
							if f.Name == tc.field {
								values[f.Name] = tc.empty
								continue
							}
							values[f.Name], sent[f.Name] = f.Default, f.Default
						}
						return Response{Action: ActionAccept, Values: values}, true
					})
					if err := h.st.PutSettings(store.Settings{RememberAnswers: true}); err != nil {
						t.Fatal(err)
					}
					srv := h.add(t, rev.srv(t))
					if st, _ := h.m.Status(srv.ID); st.ProtocolVersion != rev.version {
						t.Fatalf("negotiated %s, want %s", st.ProtocolVersion, rev.version)
					}
					out := h.call(t, srv, "defaults_echo", nil)
					want, _ := json.Marshal(map[string]any{"action": "accept", "content": sent})
					if !sameJSON(t, out, string(want)) {
						t.Errorf("the server received %s\nthe person submitted %s", out, want)
					}
					if len(sent) != 8-boolInt(tc.field != "") {
						t.Fatalf("the form did not show the defaults: submitted %v", sent)
					}
					h.broker.FlushHistory()
					hist, err := h.st.History(store.HistoryFilter{})
					if err != nil || len(hist) != 1 {
						t.Fatalf("history = %v, %v", hist, err)
					}
					got, _ := json.Marshal(hist[0].Answer)
					if wantContent, _ := json.Marshal(sent); !sameJSON(t, string(got), string(wantContent)) {
						t.Errorf("history recorded %s, the server received %s", got, wantContent)
					}
				})
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
