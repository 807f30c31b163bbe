package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/store"
)

// elicitHarness runs the whole core as the app does: manager → broker →
// validation → queue → a scripted answerer at the UI boundary, on a real
// bbolt store.
type elicitHarness struct {
	m      *Manager
	st     *store.Store
	ans    *scripted
	broker *Broker
}

func newElicitHarness(t *testing.T, reply func(*Question) (Response, bool)) *elicitHarness {
	t.Helper()
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ans := newScripted(reply)
	broker := NewBroker(BrokerOptions{Answerer: ans, Store: st})
	m := NewManager(Options{ClientName: "gatehouse-test", Asker: broker})
	t.Cleanup(func() { m.Close(); st.Close() })
	return &elicitHarness{m: m, st: st, ans: ans, broker: broker}
}

// add stores srv (so it has an ID and a name) and connects it.
func (h *elicitHarness) add(t *testing.T, srv store.Server) store.Server {
	t.Helper()
	srv.ID = ""
	saved, err := h.st.PutServer(srv)
	if err != nil {
		t.Fatal(err)
	}
	h.m.Set(saved)
	connected(t, h.m, saved.ID)
	return saved
}

func (h *elicitHarness) call(t *testing.T, srv store.Server, tool string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := h.m.CallTool(ctx, srv.ID, tool, args)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("%s returned an error result: %s", tool, textOf(res))
	}
	return textOf(res)
}

func peerScript(t *testing.T, name string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "testdata", "peers", name)
	if _, err := os.Stat(filepath.Join(filepath.Dir(p), "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		missingPeer(t, "the TypeScript SDK peers are not installed (run: make peers)")
	}
	return p
}

func fieldNames(r *Question) string {
	var names []string
	for _, f := range r.Form.Fields {
		names = append(names, f.Name)
	}
	return strings.Join(names, " ")
}

// TestElicit_ServerEverything_E1_E10_E11: server-everything's form with every
// field type, over stdio and Streamable HTTP; the tool result shows the
// values that were sent.
func TestElicit_ServerEverything(t *testing.T) {
	transports := []struct {
		name string
		srv  func(t *testing.T) store.Server
	}{
		{"stdio", func(t *testing.T) store.Server {
			return store.Server{Name: "Everything", Enabled: true, Transport: store.TransportStdio,
				Stdio: &store.StdioConfig{Command: "node", Args: []string{everythingPath(t), "stdio"}}}
		}},
		{"streamable HTTP", func(t *testing.T) store.Server {
			return store.Server{Name: "Everything", Enabled: true, Transport: store.TransportHTTP,
				HTTP: &store.HTTPConfig{URL: startEverythingHTTP(t, "streamableHttp") + "/mcp"}}
		}},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			var shown *Question
			h := newElicitHarness(t, func(r *Question) (Response, bool) {
				shown = r
				return Response{Action: ActionAccept, Values: map[string]any{
					"name": "Ada Lovelace", "email": "ada@example.com", "integer": 7.0,
					"untitledMultipleSelectEnum": []any{"Piano", "Drums"}, "titledSingleSelectEnum": "hero-2",
				}}, true
			})
			srv := h.add(t, tr.srv(t))
			out := h.call(t, srv, "trigger-elicitation-request", nil)
			for _, want := range []string{"Ada Lovelace", "ada@example.com", "hero-2", "Piano", `"integer": 7`} {
				if !strings.Contains(out, want) {
					t.Errorf("tool result lacks %q:\n%s", want, out)
				}
			}
			if shown == nil || shown.Peer.Server.Name != "Everything" || shown.Peer.SelfName == "" {
				t.Fatalf("request = %+v", shown)
			}
			// The form keeps the server's field order (lost by a plain map decode).
			if got := fieldNames(shown); !strings.HasPrefix(got, "name check firstLine email homepage birthdate integer number") {
				t.Errorf("field order = %s", got)
			}
			byName := map[string]forms.Field{}
			for _, f := range shown.Form.Fields {
				byName[f.Name] = f
			}
			if f := byName["legacyTitledEnum"]; len(f.Options) == 0 || f.Options[0].Label == f.Options[0].Value {
				t.Errorf("legacy enumNames did not become labels: %+v", f)
			}
			if f := byName["firstLine"]; f.Default != "It was a dark and stormy night." {
				t.Errorf("default = %v", f.Default)
			}
			// No field asks for a secret (one tells the person not to give a
			// PIN): the reference server's form shows no warning (E17).
			if len(shown.Form.SecretFields) != 0 {
				t.Errorf("server-everything's form was flagged as asking for a secret: %v", shown.Form.SecretFields)
			}
		})
	}
}

func TestElicit_TypeScriptPeer_Actions_E26(t *testing.T) {
	cases := []struct {
		name string
		resp Response
		want string
	}{
		{"accept with every field type", Response{Action: ActionAccept, Values: map[string]any{
			"name": "Ada", "email": "ada@example.com", "homepage": "https://ada.example/", "birthday": "1815-12-10",
			"meeting": "2026-01-31T14:30:00+01:00", "age": 36.0, "height": 1.65, "subscribe": false, "color": "green",
			"size": "l", "toppings": []any{"basil"}, "extras": []any{"x2"},
		}}, `{"action":"accept","content":{"name":"Ada","email":"ada@example.com","homepage":"https://ada.example/","birthday":"1815-12-10","meeting":"2026-01-31T14:30:00+01:00","age":36,"height":1.65,"subscribe":false,"color":"green","size":"l","toppings":["basil"],"extras":["x2"]}}`},
		{"decline reaches the server as decline", Response{Action: ActionDecline}, `{"action":"decline"}`},
		{"cancel reaches the server as cancel", Response{Action: ActionCancel}, `{"action":"cancel"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var kinds string
			h := newElicitHarness(t, func(r *Question) (Response, bool) {
				for _, f := range r.Form.Fields {
					kinds += string(f.Kind) + " "
				}
				return tc.resp, true
			})
			srv := h.add(t, store.Server{Name: "TS peer", Enabled: true, Transport: store.TransportStdio,
				Stdio: &store.StdioConfig{Command: "node", Args: []string{peerScript(t, "elicit-server.mjs")}}})
			out := h.call(t, srv, "every_field", nil)
			if !sameJSON(t, out, tc.want) {
				t.Errorf("server saw %s\nwant it to contain %s", out, tc.want)
			}
			if kinds != "text email uri date date-time integer number boolean single-select single-select multi-select multi-select " {
				t.Errorf("kinds = %q", kinds)
			}
		})
	}
}

// TestElicit_LegacyPeer_E2_E5_E10: a 2025-06-18 TypeScript server with
// enumNames.
func TestElicit_LegacyPeer(t *testing.T) {
	var labels []string
	h := newElicitHarness(t, func(r *Question) (Response, bool) {
		for _, o := range r.Form.Fields[0].Options {
			labels = append(labels, o.Label)
		}
		return Response{Action: ActionAccept, Values: map[string]any{"priority": "p1"}}, true
	})
	srv := h.add(t, store.Server{Name: "Legacy", Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: "node", Args: []string{peerScript(t, "elicit-server.mjs"), "--legacy"}}})
	if st, _ := h.m.Status(srv.ID); st.ProtocolVersion != "2025-06-18" {
		t.Fatalf("negotiated %s, want 2025-06-18", st.ProtocolVersion)
	}
	out := h.call(t, srv, "legacy_enum", nil)
	if !strings.Contains(out, `"content":{"priority":"p1"}`) {
		t.Errorf("server saw %s", out)
	}
	if strings.Join(labels, ",") != "Urgent,Normal,Whenever" {
		t.Errorf("labels = %v", labels)
	}
}

// TestElicit_DemoServerCrashClosesDialog: the server dies while its request
// is on screen; the dialog's context ends and a later answer goes nowhere.
func TestElicit_DemoServerCrashClosesDialog(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	closed := make(chan error, 1)
	h := newElicitHarness(t, nil) // never answers: waits for the context
	srv := h.add(t, peerServer(t, "Demo", "demo", map[string]string{"GATEHOUSE_TEST_PIDFILE": pidFile}))
	go func() {
		_, err := h.m.CallTool(context.Background(), srv.ID, "ask_city", nil)
		closed <- err
	}()
	var r *Question
	select {
	case r = <-h.ans.onShow:
	case err := <-closed:
		t.Fatalf("the call ended before asking: %v", err)
	case <-time.After(15 * time.Second):
		t.Fatal("no request was shown")
	}
	if r.Message != "Which city should I look up?" || fieldNames(r) != "city" {
		t.Fatalf("shown %+v", r)
	}
	if err := syscall.Kill(readPID(t, pidFile), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-closed:
		if err == nil {
			t.Error("the call succeeded although the server died")
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the call did not end after the server died")
	}
	waitFor(t, "history to record the withdrawal", 5*time.Second, func() bool {
		h.broker.FlushHistory()
		hist, _ := h.st.History(store.HistoryFilter{})
		return len(hist) == 1 && hist[0].Outcome == store.OutcomeServerCancelled
	})
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("not JSON: %s", a)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("not JSON: %s", b)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}
