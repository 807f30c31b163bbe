package app

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/mcp/demo"
	"github.com/gatehouse-app/gatehouse/store"
)

// The demo server is seeded as "<this executable> demo-server": in tests the
// test binary serves it, so the services below talk to a real go-sdk server.
// The Wails runtime is not needed: events go to a recording Emitter.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "demo-server" {
		_ = demo.Run(context.Background())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type recorder struct {
	mu     sync.Mutex
	events map[string][]any
}

func (r *recorder) Emit(name string, data any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events[name] = append(r.events[name], data)
}

func (r *recorder) last(name string) any {
	r.mu.Lock()
	defer r.mu.Unlock()
	if list := r.events[name]; len(list) > 0 {
		return list[len(list)-1]
	}
	return nil
}

func openTestCore(t *testing.T) (*Core, *recorder) {
	t.Helper()
	return openTestCoreIn(t, t.TempDir())
}

// openTestCoreIn opens a core on the data folder dir, as openTestCore.
func openTestCoreIn(t *testing.T, dir string) (*Core, *recorder) {
	t.Helper()
	core, err := OpenCore(CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{events: map[string][]any{}}
	core.SetEmitter(rec)
	t.Cleanup(func() { core.Close() })
	return core, rec
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServersService_Validate(t *testing.T) {
	core, _ := openTestCore(t) // has "Demo server"
	svc := NewServersService(core)
	demoSrv, _ := core.Store.ServerByName(DemoServerName)
	stdio := func(name, cmd string) ServerInput {
		return ServerInput{Name: name, Transport: store.TransportStdio, Command: cmd}
	}
	web := func(url string, headers map[string]string) ServerInput {
		return ServerInput{Name: "Web", Transport: store.TransportHTTP, URL: url, Headers: headers}
	}
	cases := []struct {
		name  string
		id    string
		in    ServerInput
		field string // "" = valid
		msg   string
	}{
		{"a stdio server with a command is valid", "", stdio("Files", "npx"), "", ""},
		{"an https server is valid", "", web("https://example.com/mcp", nil), "", ""},
		{"a name is required", "", stdio("  ", "npx"), "name", "Give the server a name."},
		{"names are unique regardless of case", "", stdio("demo SERVER", "npx"), "name", `A server named "Demo server" already exists.`},
		{"a server keeps its own name when edited", demoSrv.ID, stdio("Demo server", "x"), "", ""},
		{"a stdio server needs a command", "", stdio("Files", " "), "command", "A stdio server needs a command to run."},
		{"an HTTP server needs a URL", "", web("", nil), "url", "An HTTP server needs a URL."},
		{"only http and https URLs", "", web("file:///etc/passwd", nil), "url", "The URL must start with http:// or https://."},
		{"plain http only to this computer", "", web("http://example.com/mcp", nil), "url", "Plain http:// is only for servers on this computer; use https:// for example.com."},
		{"plain http to this computer is valid", "", web("http://127.0.0.1:3000/mcp", nil), "", ""},
		{"no credentials in the URL", "", web("https://u:p@example.com", nil), "url", "must not contain a user name or password"},
		{"header names are checked", "", web("https://example.com", map[string]string{"Bad Header": "x"}), "headers", `"Bad Header" is not a valid header name.`},
		{"header values cannot split lines", "", web("https://example.com", map[string]string{"X-A": "a\r\nb"}), "headers", "cannot carry"},
		{"a transport must be chosen", "", ServerInput{Name: "X"}, "transport", "Choose stdio or HTTP."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errs := svc.Validate(tc.id, tc.in)
			if tc.field == "" {
				if len(errs) != 0 {
					t.Errorf("want valid, got %v", errs)
				}
				return
			}
			if !strings.Contains(errs[tc.field].String(), tc.msg) {
				t.Errorf("errors = %v, want %s: %q", errs, tc.field, tc.msg)
			}
		})
	}
}

// TestServersService_InheritEnv: the choice to pass the whole environment is
// stored with the server and shown again when the editor reopens.
func TestServersService_InheritEnv(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewServersService(core)
	cases := []struct {
		name string
		in   ServerInput
		want bool
	}{
		{"off unless chosen", ServerInput{Name: "Plain", Transport: store.TransportStdio, Command: "npx"}, false},
		{"on when chosen", ServerInput{Name: "Trusted", Transport: store.TransportStdio, Command: "npx", InheritEnv: true}, true},
		{"an HTTP server has no environment to pass", ServerInput{Name: "Web", Transport: store.TransportHTTP, URL: "https://example.com/mcp", InheritEnv: true}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := svc.Add(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			srv, err := core.Store.Server(v.ID)
			if err != nil {
				t.Fatal(err)
			}
			stored := srv.Stdio != nil && srv.Stdio.InheritEnv
			if stored != tc.want || v.Input.InheritEnv != tc.want {
				t.Errorf("stored %v, editor shows %v; want %v", stored, v.Input.InheritEnv, tc.want)
			}
		})
	}
}

// TestServicesWithDemoServer drives the bound services the way the UI does.
func TestServicesWithDemoServer(t *testing.T) {
	core, rec := openTestCore(t)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	servers := NewServersService(core)
	tools := NewToolsService(core)

	var demoView ServerView
	waitUntil(t, "a servers event showing the demo server connected", func() bool {
		sent, _ := rec.last(EventServers).(ServerList)
		views := sent.Servers
		for _, v := range views {
			if v.Input.Name == DemoServerName && v.Status.State == "connected" {
				demoView = v
				return true
			}
		}
		return false
	})
	if demoView.Status.ServerName != "gatehouse-demo" || demoView.Status.Counts.Tools != 14 || !strings.HasSuffix(demoView.Where, " demo-server") {
		t.Errorf("demo server view = %+v", demoView)
	}

	list, err := tools.List(demoView.ID)
	if err != nil || len(list) != 14 {
		t.Fatalf("tools: %v %+v", err, list)
	}
	byName := map[string]ToolView{}
	for _, tv := range list {
		byName[tv.Name] = tv
	}
	if e := byName["echo"]; e.Title != "Echo" || !e.Annotations.ReadOnly || e.SchemaID == "" {
		t.Errorf("echo view = %+v", e)
	}
	if v, err := tools.Form(demoView.ID, "echo"); err != nil || !v.Form.Complete || len(v.Form.Fields) != 1 || v.Form.Fields[0].Kind != "text" || !v.Form.Fields[0].Required {
		t.Errorf("echo's form = %+v, %v", v, err)
	} else if !strings.Contains(v.InputSchema, `"message"`) || v.SchemaID != byName["echo"].SchemaID {
		t.Errorf("echo's form: schema %q, id %q; the list's id %q", v.InputSchema, v.SchemaID, byName["echo"].SchemaID)
	}
	if byName["echo"].SchemaID == byName["forecast"].SchemaID {
		t.Errorf("two tools with different input schemas have one schema id %q", byName["echo"].SchemaID)
	}
	if _, err := tools.Form(demoView.ID, "no_such_tool"); err == nil {
		t.Error("the form of a tool the server does not list: no error")
	}
	if !byName["forecast"].HasOutput {
		t.Error("forecast should declare an output schema")
	}

	res, err := tools.Call("c1", demoView.ID, "forecast", `{"city":"Lima","days":2}`)
	if err != nil || res.IsError || !strings.Contains(res.Structured, `"city": "Lima"`) || res.StructuredWarning != nil || len(res.ArgumentErrors) != 0 {
		t.Errorf("forecast: %v %+v", err, res)
	}
	res, err = tools.Call("c2", demoView.ID, "echo", `{"message":"<img src=x onerror=alert(1)>"}`)
	if err != nil || len(res.Content) != 1 || res.Content[0].Text != "<img src=x onerror=alert(1)>" {
		t.Errorf("echo keeps the text exactly as sent: %v %+v", err, res)
	}
	res, err = tools.Call("c3", demoView.ID, "readme_link", "")
	if err != nil || len(res.Content) != 4 || res.Content[1].Type != "resource_link" || res.Content[1].URI != "gatehouse-demo://readme" ||
		res.Content[1].LinkID != "" || !strings.Contains(res.Content[1].LinkProblem, "only opens web addresses") ||
		res.Content[3].LinkID == "" || res.Content[3].Link.Domain != "modelcontextprotocol.io" {
		t.Errorf("resource links (E31): %v %+v", err, res)
	}
	// Arguments are checked against the tool's input schema in Go, as they
	// are, before the call: what does not pass is not sent.
	for _, tc := range []struct{ name, tool, args, field, want string }{
		{"not an object", "echo", `"text"`, "", "The arguments must be a JSON object"},
		{"not JSON", "echo", `{"message":`, "", "This is not valid JSON"},
		{"a missing required argument", "echo", `{}`, "message", "This field is required."},
		{"a wrong type", "forecast", `{"city":"Lima","days":"two"}`, "days", "Enter a whole number."},
		{"a misspelt argument", "forecast", `{"city":"Lima","dayz":2}`, "dayz", "This form has no such field."},
	} {
		res, err := tools.Call("c4", demoView.ID, tc.tool, tc.args)
		if err != nil || len(res.Content) != 0 || !strings.Contains(res.ArgumentErrors[tc.field].String(), tc.want) {
			t.Errorf("%s: %v %+v; want %q for %q", tc.name, err, res, tc.want, tc.field)
		}
	}
	check, err := tools.Check(demoView.ID, "forecast", map[string]any{"city": "Lima", "days": ""})
	if err != nil || len(check.Errors) != 0 || len(check.Arguments) != 1 || check.Arguments["city"] != "Lima" {
		t.Errorf("a form's values become the arguments, empty ones left out: %v %+v", err, check)
	}
	check, _ = tools.Check(demoView.ID, "forecast", map[string]any{"days": "x"})
	if check.Errors["city"].String() != "This field is required." || check.Errors["days"].String() != "Enter a whole number." || check.Arguments["days"] != "x" {
		t.Errorf("a form's problems are said per field, and the draft keeps what was typed: %+v", check)
	}

	// Turning the server off is remembered and reported.
	if err := servers.SetEnabled(demoView.ID, false); err != nil {
		t.Fatal(err)
	}
	serverList, _ := servers.List()
	views := serverList.Servers
	if views[0].Status.State != "disabled" || views[0].Input.Enabled {
		t.Errorf("after disabling: %+v", views[0])
	}
	if _, err := tools.List(demoView.ID); err == nil {
		t.Error("a disabled server still lists tools")
	}
}

func TestResultView_StructuredMismatchWarns_E31(t *testing.T) {
	tool := &sdk.Tool{Name: "t", OutputSchema: map[string]any{
		"type": "object", "required": []any{"sum"}, "properties": map[string]any{"sum": map[string]any{"type": "number"}},
	}}
	v := ResultView(context.Background(), tool, &sdk.CallToolResult{StructuredContent: map[string]any{"sum": "x"}})
	if v.StructuredWarning == nil || !strings.Contains(v.StructuredWarning.String(), "does not match") {
		t.Errorf("warning = %v", v.StructuredWarning)
	}
	v = ResultView(context.Background(), tool, &sdk.CallToolResult{StructuredContent: map[string]any{"sum": 1}})
	if v.StructuredWarning != nil {
		t.Errorf("unexpected warning %v", v.StructuredWarning)
	}
}

func TestSettingsService_DefaultsAndLimits(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewSettingsService(core)
	v, err := svc.Get()
	if err != nil || v.ElicitationTimeoutMinutes != 10 || v.ToolCallTimeoutSeconds != 60 || v.RememberAnswers {
		t.Fatalf("defaults = %+v %v", v, err)
	}
	for _, bad := range []SettingsView{
		{ElicitationTimeoutMinutes: 0, ToolCallTimeoutSeconds: 60},
		{ElicitationTimeoutMinutes: 10, ToolCallTimeoutSeconds: 1},
	} {
		if err := svc.Save(bad); err == nil {
			t.Errorf("%+v was accepted", bad)
		}
	}
	want := SettingsView{ElicitationTimeoutMinutes: 3, ToolCallTimeoutSeconds: 90, RememberAnswers: true}
	if err := svc.Save(want); err != nil {
		t.Fatal(err)
	}
	if got, _ := svc.Get(); got != want {
		t.Errorf("after save: %+v", got)
	}
}
