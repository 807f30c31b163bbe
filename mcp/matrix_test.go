package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/store"
)

// matrixPeer is one row of the peer matrix: a real server, and what to call
// for each check ("" when the peer has no such tool).
type matrixPeer struct {
	name string
	srv  func(t *testing.T) store.Server
	// newest is the newest protocol revision the peer speaks.
	newest string
	// call is a tool without elicitation and a text its result contains.
	call, callWant string
	callArgs       map[string]any
	// form and url are tools that elicit in that mode, with the text their
	// result contains after accept.
	form, formWant string
	url, urlWant   string
	urlArgs        map[string]any
	// resource is a URI to read, prompt a prompt to get with promptArgs
	// ("" when the peer has none).
	resource   string
	prompt     string
	promptArgs map[string]string
	// roots is a tool whose result lists the roots the server got, and
	// progress one that reports progress with a total, with progressArgs
	// ("" when the peer has no such tool).
	roots, progress string
	progressArgs    map[string]any
}

// A matrixFeature is one column of the feature table: a check of a
// connected peer that returns the cell ("ok: ...", "n/a: ...", or "FAIL:
// ..." with a test error).
type matrixFeature struct {
	name  string
	check func(t *testing.T, ctx context.Context, m *Manager, id string, p matrixPeer) string
}

// matrixFeatures are the feature table's columns.
var matrixFeatures = []matrixFeature{
	{"resources", matrixResources},
	{"prompts", matrixPrompts},
	{"roots", matrixRoots},
	{"progress", matrixProgress},
}

var matrixVersions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// fillForm answers a form the way a person who accepts the defaults and
// fills the rest would.
func fillForm(f *forms.Form) map[string]any {
	out := map[string]any{}
	for _, fl := range f.Fields {
		if fl.Default != nil {
			continue // the default stands
		}
		switch fl.Kind {
		case forms.KindEmail:
			out[fl.Name] = "ada@example.com"
		case forms.KindURI:
			out[fl.Name] = "https://example.com/"
		case forms.KindDate:
			out[fl.Name] = "2026-01-31"
		case forms.KindDateTime:
			out[fl.Name] = "2026-01-31T10:00:00Z"
		case forms.KindInteger, forms.KindNumber:
			n := 1.0
			if fl.Minimum != nil {
				n = *fl.Minimum
			}
			out[fl.Name] = n
		case forms.KindBoolean:
			out[fl.Name] = true
		case forms.KindSingleSelect:
			out[fl.Name] = fl.Options[0].Value
		case forms.KindMultiSelect:
			out[fl.Name] = []any{fl.Options[0].Value}
		default:
			out[fl.Name] = "Ada"
		}
	}
	return out
}

// TestPeerMatrix runs every peer on every protocol revision it speaks, over
// the transports it offers: connect, list tools, call a tool, a form
// elicitation, and a URL elicitation where the revision has it (2025-11-25
// on). Cells that cannot apply say why. The table is logged and written to
// $GATEHOUSE_TEST_OUTPUT/peer-matrix.md.
func TestPeerMatrix(t *testing.T) {
	everything := func(transport string) func(t *testing.T) store.Server {
		return func(t *testing.T) store.Server {
			switch transport {
			case "stdio":
				return store.Server{Enabled: true, Transport: store.TransportStdio,
					Stdio: &store.StdioConfig{Command: "node", Args: []string{everythingPath(t), "stdio"}}}
			case "sse":
				return store.Server{Enabled: true, Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: startEverythingHTTP(t, "sse") + "/sse"}}
			}
			return store.Server{Enabled: true, Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: startEverythingHTTP(t, "streamableHttp") + "/mcp"}}
		}
	}
	node := func(script string) func(t *testing.T) store.Server {
		return func(t *testing.T) store.Server {
			return store.Server{Enabled: true, Transport: store.TransportStdio,
				Stdio: &store.StdioConfig{Command: "node", Args: []string{peerScript(t, script)}}}
		}
	}
	evURL := map[string]any{"url": "https://example.com/matrix"}
	evProgress := map[string]any{"duration": 0.3, "steps": 3}
	peers := []matrixPeer{
		{name: "server-everything (stdio)", srv: everything("stdio"), newest: "2025-11-25",
			call: "echo", callArgs: map[string]any{"message": "matrix"}, callWant: "matrix",
			form: "trigger-elicitation-request", formWant: "accept", url: "trigger-url-elicitation", urlArgs: evURL, urlWant: "User completed",
			resource: "demo://resource/static/document/features.md", prompt: "args-prompt", promptArgs: map[string]string{"city": "Oslo"},
			roots: "get-roots-list", progress: "trigger-long-running-operation", progressArgs: evProgress},
		{name: "server-everything (Streamable HTTP)", srv: everything("http"), newest: "2025-11-25",
			call: "echo", callArgs: map[string]any{"message": "matrix"}, callWant: "matrix",
			form: "trigger-elicitation-request", formWant: "accept", url: "trigger-url-elicitation", urlArgs: evURL, urlWant: "User completed",
			resource: "demo://resource/static/document/features.md", prompt: "args-prompt", promptArgs: map[string]string{"city": "Oslo"},
			roots: "get-roots-list", progress: "trigger-long-running-operation", progressArgs: evProgress},
		{name: "server-everything (legacy SSE)", srv: everything("sse"), newest: "2025-11-25",
			call: "echo", callArgs: map[string]any{"message": "matrix"}, callWant: "matrix",
			form: "trigger-elicitation-request", formWant: "accept", url: "trigger-url-elicitation", urlArgs: evURL, urlWant: "User completed",
			resource: "demo://resource/static/document/features.md", prompt: "args-prompt", promptArgs: map[string]string{"city": "Oslo"},
			roots: "get-roots-list", progress: "trigger-long-running-operation", progressArgs: evProgress},
		{name: "TypeScript SDK form peer (stdio)", srv: node("elicit-server.mjs"), newest: "2025-11-25",
			form: "confirm", formWant: "accept"},
		{name: "TypeScript SDK URL peer (stdio)", srv: node("url-server.mjs"), newest: "2025-11-25",
			call: "complete_id", callArgs: map[string]any{"elicitationId": "none"}, callWant: "sent",
			url: "open_page", urlWant: "accept "},
		{name: "go-sdk demo server (stdio)", srv: func(t *testing.T) store.Server { return peerServer(t, "", "demo", nil) }, newest: "2026-07-28",
			call: "echo", callArgs: map[string]any{"message": "matrix"}, callWant: "matrix",
			form: "ask_city", formWant: "accept", url: "connect_account", urlWant: "Opened the sign-in page",
			resource: "gatehouse-demo://readme", prompt: "weekend_plan", promptArgs: map[string]string{"city": "Oslo"}},
	}

	var mu sync.Mutex
	table := map[string]map[string]string{}
	set := func(row, column, cell string) {
		mu.Lock()
		defer mu.Unlock()
		if table[row] == nil {
			table[row] = map[string]string{}
		}
		table[row][column] = cell
	}
	for _, p := range peers {
		for _, v := range matrixVersions {
			t.Run(p.name+"/"+v, func(t *testing.T) {
				set(p.name, v, runMatrixCell(t, p, v, func(feature, cell string) { set(p.name+" "+v, feature, cell) }))
			})
		}
	}

	var b strings.Builder
	b.WriteString("| peer | " + strings.Join(matrixVersions, " | ") + " |\n|---|---|---|---|\n")
	for _, p := range peers {
		row := []string{p.name}
		for _, v := range matrixVersions {
			row = append(row, table[p.name][v])
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	// The feature table: one row per peer and revision, one column per feature.
	b.WriteString("\n| peer | revision |")
	for _, f := range matrixFeatures {
		b.WriteString(" " + f.name + " |")
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(matrixFeatures)) + "\n")
	for _, p := range peers {
		for _, v := range matrixVersions {
			row := []string{p.name, v}
			for _, f := range matrixFeatures {
				row = append(row, table[p.name+" "+v][f.name])
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	t.Log("\n" + b.String())
	if dir := os.Getenv("GATEHOUSE_TEST_OUTPUT"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, "peer-matrix.md"), []byte(b.String()), 0o644)
	}
}

// runMatrixCell runs the checks of one peer on one revision and returns the
// cell's text; failures are test errors and show as "FAIL". The cells of
// the feature table go to setFeature.
func runMatrixCell(t *testing.T, p matrixPeer, version string, setFeature func(feature, cell string)) string {
	for _, f := range matrixFeatures {
		setFeature(f.name, "FAIL: not reached")
	}
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ans := newScripted(func(r *Question) (Response, bool) {
		if r.Kind == "url" {
			return Response{Action: ActionAccept}, true
		}
		return Response{Action: ActionAccept, Values: fillForm(r.Form)}, true
	})
	broker := NewBroker(BrokerOptions{Answerer: ans, Store: st})
	m := NewManager(Options{ClientName: "gatehouse-matrix", Asker: broker, ProtocolVersion: version})
	defer func() { m.Close(); st.Close() }()

	srv := p.srv(t)
	srv.Name = p.name
	srv.Roots = []string{t.TempDir()} // the folder it may see (the roots column)
	srv, err = st.PutServer(srv)
	if err != nil {
		t.Fatal(err)
	}
	m.Set(srv)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := m.WaitConnected(ctx, srv.ID); err != nil {
		t.Errorf("connect: %v", err)
		return "FAIL: connect"
	}
	status, _ := m.Status(srv.ID)
	if version > p.newest {
		// Offered a revision it does not speak, the peer must settle on its
		// newest one, and Gatehouse must accept that.
		if status.ProtocolVersion != p.newest {
			t.Errorf("offered %s, negotiated %s, want %s", version, status.ProtocolVersion, p.newest)
			return "FAIL: negotiated " + status.ProtocolVersion
		}
		for _, f := range matrixFeatures {
			setFeature(f.name, "n/a: the peer speaks up to "+p.newest)
		}
		return "n/a: the peer speaks up to " + p.newest + " (negotiated down correctly)"
	}
	if status.ProtocolVersion != version {
		t.Errorf("negotiated %s, want %s", status.ProtocolVersion, version)
		return "FAIL: negotiated " + status.ProtocolVersion
	}
	done := []string{"connect"}
	tools, err := m.Tools(srv.ID)
	if err != nil || len(tools) == 0 {
		t.Errorf("list tools: %d, %v", len(tools), err)
		return "FAIL: list tools"
	}
	done = append(done, fmt.Sprintf("%d tools", len(tools)))
	for _, f := range matrixFeatures {
		setFeature(f.name, f.check(t, ctx, m, srv.ID, p))
	}

	check := func(what, tool string, args map[string]any, want string) bool {
		res, err := m.CallTool(ctx, srv.ID, tool, args)
		if err != nil || res.IsError || !strings.Contains(textOf(res), want) {
			var text string
			if res != nil {
				text = textOf(res)
			}
			t.Errorf("%s (%s): %v %q, want %q", what, tool, err, text, want)
			return false
		}
		done = append(done, what)
		return true
	}
	ok := true
	if p.call != "" {
		ok = check("call", p.call, p.callArgs, p.callWant) && ok
	} else {
		done = append(done, "call n/a (every tool elicits)")
	}
	if p.form != "" {
		ok = check("form", p.form, nil, p.formWant) && ok
	} else {
		done = append(done, "form n/a (no such tool)")
	}
	switch {
	case p.url == "":
		done = append(done, "URL n/a (no such tool)")
	case version < "2025-11-25":
		done = append(done, "URL n/a (from 2025-11-25)")
	default:
		ok = check("URL", p.url, p.urlArgs, p.urlWant) && ok
	}
	if !ok {
		return "FAIL: " + strings.Join(done, ", ")
	}
	return "ok: " + strings.Join(done, ", ")
}

// matrixResources lists the peer's resources and templates and reads one.
func matrixResources(t *testing.T, ctx context.Context, m *Manager, id string, p matrixPeer) string {
	list, err := m.ResourceList(ctx, id)
	switch {
	case errors.Is(err, ErrNotOffered):
		if p.resource != "" {
			t.Errorf("resources: %v", err)
			return "FAIL: not offered"
		}
		return "n/a: none offered"
	case err != nil:
		t.Errorf("resources: %v", err)
		return "FAIL: list"
	}
	cell := fmt.Sprintf("%d resources, %d templates", len(list.Resources), len(list.Templates))
	if p.resource == "" {
		return "ok: " + cell
	}
	res, err := m.ReadResource(ctx, id, p.resource)
	if err != nil || len(res.Contents) == 0 || res.Contents[0].Size == 0 {
		t.Errorf("read %s: %v", p.resource, err)
		return "FAIL: " + cell + ", read"
	}
	return "ok: " + cell + ", read"
}

// matrixPrompts lists the peer's prompts and gets one with its arguments.
func matrixPrompts(t *testing.T, ctx context.Context, m *Manager, id string, p matrixPeer) string {
	prompts, err := m.Prompts(id)
	if err != nil {
		t.Errorf("prompts: %v", err)
		return "FAIL: list"
	}
	if len(prompts) == 0 && p.prompt == "" {
		return "n/a: none offered"
	}
	cell := fmt.Sprintf("%d prompts", len(prompts))
	if p.prompt == "" {
		return "ok: " + cell
	}
	res, err := m.GetPrompt(ctx, id, p.prompt, p.promptArgs)
	if err != nil || len(res.Messages) == 0 {
		t.Errorf("get %s: %v", p.prompt, err)
		return "FAIL: " + cell + ", get"
	}
	return "ok: " + cell + ", get"
}

// matrixRoots checks that the peer sees the folder it was given (roots).
func matrixRoots(t *testing.T, ctx context.Context, m *Manager, id string, p matrixPeer) string {
	if p.roots == "" {
		return "n/a: no tool shows the roots"
	}
	folder := m.config(id, store.Server{}).Roots[0]
	res, err := m.CallTool(ctx, id, p.roots, nil)
	if err != nil || res.IsError || !strings.Contains(textOf(res), RootURI(folder)) {
		t.Errorf("roots (%s): %v, want %s listed", p.roots, err, RootURI(folder))
		return "FAIL: the folder is not listed"
	}
	return "ok: the folder listed"
}

// matrixProgress calls the peer's progress tool and checks that its
// notifications reached the call, advancing, with their total.
func matrixProgress(t *testing.T, ctx context.Context, m *Manager, id string, p matrixPeer) string {
	if p.progress == "" {
		return "n/a: no tool reports progress"
	}
	var (
		mu   sync.Mutex
		seen []Progress
	)
	pctx := WithProgress(ctx, func(pr Progress) {
		mu.Lock()
		seen = append(seen, pr)
		mu.Unlock()
	})
	res, err := m.CallTool(pctx, id, p.progress, p.progressArgs)
	mu.Lock()
	defer mu.Unlock()
	advancing := len(seen) > 0 && seen[0].Total > 0
	for i := 1; i < len(seen); i++ {
		advancing = advancing && seen[i].Progress > seen[i-1].Progress
	}
	if err != nil || res.IsError || !advancing {
		t.Errorf("progress (%s): %v, notifications %+v", p.progress, err, seen)
		return "FAIL: no advancing progress"
	}
	return fmt.Sprintf("ok: %d notifications of %g", len(seen), seen[0].Total)
}
