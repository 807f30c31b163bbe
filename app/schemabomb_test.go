package app

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/store"
)

// Issue 22, item 3: a server's schemas cannot make Gatehouse check forever.
// The peer is testdata/peers/schema-bomb.mjs, a TypeScript SDK server whose
// tools carry the schemas.

// bombPeer connects a new core to the schema-bomb peer and returns the
// tools service, the server's ID and the file the peer logs its requests to.
func bombPeer(t *testing.T) (*ToolsService, string, string) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	peers := filepath.Join(filepath.Dir(file), "..", "testdata", "peers")
	if _, err := os.Stat(filepath.Join(peers, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatal("the TypeScript peers are not installed (run: make peers)")
		}
		t.Skip("the TypeScript peers are not installed (run: make peers)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed")
	}
	core, rec := openTestCore(t)
	logFile := filepath.Join(t.TempDir(), "requests.log")
	v, err := NewServersService(core).Add(ServerInput{Name: "Bombs", Enabled: true, Transport: store.TransportStdio,
		Command: node, Args: []string{filepath.Join(peers, "schema-bomb.mjs"), logFile}})
	if err != nil {
		t.Fatal(err)
	}
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the schema-bomb peer connected", func() bool {
		sent, _ := rec.last(EventServers).(ServerList)
		views := sent.Servers
		for _, sv := range views {
			if sv.ID == v.ID && sv.Status.State == "connected" {
				return true
			}
		}
		return false
	})
	return NewToolsService(core), v.ID, logFile
}

// within runs f and fails the test when it has not returned after limit.
// On a failure f may go on running: that is the bug being shown.
func within(t *testing.T, limit time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("%s: still checking after %v", what, limit)
	}
	t.Logf("%s: %v", what, time.Since(start).Round(time.Millisecond))
}

// requests returns what the peer has logged so far.
func requests(t *testing.T, logFile string) string {
	t.Helper()
	b, err := os.ReadFile(logFile)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

func TestToolsService_SchemaBombsAreRefusedQuickly(t *testing.T) {
	tools, id, logFile := bombPeer(t)
	cases := []struct {
		name  string
		check func(t *testing.T) string // returns the sentence the person sees
		want  []string
	}{
		{"an input-schema bomb: the form says why it cannot check", func(t *testing.T) string {
			v, err := tools.Form(id, "bomb_in")
			if err != nil || v.Form.Reason == nil || v.Form.Complete {
				t.Fatalf("form = %+v, %v", v.Form, err)
			}
			return v.Form.Reason.String()
		}, []string{"bomb_in", "more work"}},
		{"an input-schema bomb: every keystroke's check is refused at once", func(t *testing.T) string {
			c, err := tools.Check(id, "bomb_in", map[string]any{})
			if err != nil {
				t.Fatal(err)
			}
			return c.Errors[""].String()
		}, []string{"bomb_in", "more work"}},
		{"an input-schema bomb: the call is not made", func(t *testing.T) string {
			res, err := tools.Call("b1", id, "bomb_in", `{}`)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(requests(t, logFile), "tools/call bomb_in") {
				t.Error("the call reached the server although its arguments could not be checked")
			}
			return res.ArgumentErrors[""].String()
		}, []string{"bomb_in", "more work"}},
		{"an output-schema bomb: the result is shown with a warning", func(t *testing.T) string {
			res, err := tools.Call("b2", id, "bomb_out", `{}`)
			if err != nil || len(res.Content) != 1 || res.StructuredWarning == nil {
				t.Fatalf("result = %+v, %v", res, err)
			}
			return res.StructuredWarning.String()
		}, []string{"bomb_out", "more work"}},
		{"an output schema that fans out at every level of the result stops at its budget", func(t *testing.T) string {
			res, err := tools.Call("b3", id, "deep_out", `{}`)
			if err != nil || len(res.Content) != 1 || res.StructuredWarning == nil {
				t.Fatalf("result = %+v, %v", res, err)
			}
			return res.StructuredWarning.String()
		}, []string{"deep_out", "stopped"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var said string
			within(t, 2*time.Second, tc.name, func() { said = tc.check(t) })
			for _, w := range tc.want {
				if !strings.Contains(said, w) {
					t.Errorf("the person reads %q; want it to contain %q", said, w)
				}
			}
		})
	}
}

// Stop ends a check that is running, of the arguments before the call or of
// the result after it: the check is no longer the one thing Stop cannot end.
func TestToolsService_StopEndsARunningCheck(t *testing.T) {
	tools, id, logFile := bombPeer(t)
	rows := make([]map[string]any, 100000)
	for i := range rows {
		rows[i] = map[string]any{"id": i, "name": "row"}
	}
	heavyArgs, _ := json.Marshal(map[string]any{"rows": rows})
	cases := []struct {
		name   string
		tool   string
		args   string
		check  string // the function that checks, on the stack while it runs
		verify func(t *testing.T, res ToolResultView, err error)
	}{
		{"Stop while the arguments are checked: nothing is sent", "heavy_in", string(heavyArgs), "forms.(*Schema).check(",
			func(t *testing.T, res ToolResultView, err error) {
				if err == nil || !strings.Contains(err.Error(), "cancelled") {
					t.Errorf("result %+v, error %v; want the call cancelled", res, err)
				}
				if strings.Contains(requests(t, logFile), "tools/call heavy_in") {
					t.Error("the call reached the server after Stop")
				}
			}},
		{"Stop while the result is checked: the result is shown, unchecked", "heavy_out", `{}`, "forms.CheckStructured(",
			func(t *testing.T, res ToolResultView, err error) {
				if err != nil || res.StructuredWarning == nil || !strings.Contains(res.StructuredWarning.String(), "stopped") {
					t.Errorf("result warning %v, error %v; want a result whose check was stopped", res.StructuredWarning, err)
				}
			}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			callID := fmt.Sprintf("stop-%d", i)
			type outcome struct {
				res ToolResultView
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				res, err := tools.Call(callID, id, tc.tool, tc.args)
				done <- outcome{res, err}
			}()
			waitUntil(t, "the check to start", func() bool { return validating(tc.check) })
			time.Sleep(200 * time.Millisecond) // well into the check
			select {
			case o := <-done:
				t.Fatalf("the check ended before Stop (%+v, %v): the fixture is too light for this machine", o.res.StructuredWarning, o.err)
			default:
			}
			if err := tools.Cancel(callID); err != nil {
				t.Fatalf("Stop: %v", err)
			}
			select {
			case o := <-done:
				tc.verify(t, o.res, o.err)
			case <-time.After(time.Second):
				t.Fatal("the check was still running 1 s after Stop")
			}
		})
	}
}

// validating reports whether a goroutine of this process is inside the JSON
// Schema validator, called from the function named by check: the one sign
// that this check, not the call around it, is running.
func validating(check string) bool {
	buf := make([]byte, 1<<22)
	n := runtime.Stack(buf, true)
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		if strings.Contains(g, check) && strings.Contains(g, "santhosh-tekuri/jsonschema/v6.(*Schema).Validate(") {
			return true
		}
	}
	return false
}

// The tools pane checks its form as the person types: a newer check of the
// same tool ends the one still running, whose answer nobody would read.
func TestToolsService_ANewerCheckEndsTheOneRunning(t *testing.T) {
	tools, id, _ := bombPeer(t)
	rows := make([]map[string]any, 100000)
	for i := range rows {
		rows[i] = map[string]any{"id": i, "name": "row"}
	}
	heavy, _ := json.Marshal(rows)
	type outcome struct {
		check ArgumentCheck
		err   error
	}
	first := make(chan outcome, 1)
	go func() {
		c, err := tools.Check(id, "heavy_in", map[string]any{"rows": string(heavy)})
		first <- outcome{c, err}
	}()
	waitUntil(t, "the first check to start", func() bool { return validating("forms.(*Schema).check(") })
	second, err := tools.Check(id, "heavy_in", map[string]any{})
	if err != nil || len(second.Errors) != 0 {
		t.Errorf("the newer check: %+v, %v", second, err)
	}
	select {
	case o := <-first:
		if o.err == nil || !strings.Contains(o.err.Error(), "newer check") {
			t.Errorf("the first check: %+v, %v; want it replaced", o.check, o.err)
		}
	case <-time.After(time.Second):
		t.Fatal("the first check was still running 1 s after a newer one")
	}
}
