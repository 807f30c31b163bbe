package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// TestEventNamesMatchTheFrontend: the window subscribes to events by the
// names in frontend/src/lib/events.ts; every Event* constant of this package
// must be there under the same name with the same value, and nothing else.
func TestEventNamesMatchTheFrontend(t *testing.T) {
	goEvents := map[string]string{}
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pkgs["app"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, name := range spec.Names {
				if strings.HasPrefix(name.Name, "Event") && i < len(spec.Values) {
					if lit, ok := spec.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						goEvents[name.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
			return true
		})
	}
	if len(goEvents) < 3 {
		t.Fatalf("found only %v in the Go sources", goEvents)
	}
	src, err := os.ReadFile("../frontend/src/lib/events.ts")
	if err != nil {
		t.Fatal(err)
	}
	tsEvents := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^export const (Event\w+) = '([^']*)';`).FindAllStringSubmatch(string(src), -1) {
		tsEvents[m[1]] = m[2]
	}
	for name, value := range goEvents {
		if tsEvents[name] != value {
			t.Errorf("%s is %q in Go and %q in events.ts", name, value, tsEvents[name])
		}
	}
	for name := range tsEvents {
		if _, ok := goEvents[name]; !ok {
			t.Errorf("events.ts has %s, which Go never sends", name)
		}
	}
}

// TestEventPayloadsMatchTheFrontend: events.ts says what each event carries
// (EventPayloads). A generated type (Plain<app.X>) must be the Go type the
// event is sent with; a type written in api.ts (for payloads no bound method
// returns, so that Wails generates none) must be named as Go's and have its
// JSON fields, nested ones too.
func TestEventPayloadsMatchTheFrontend(t *testing.T) {
	// What Go sends with each event (Core.emit and events.Emit callers).
	sent := map[string]any{
		"EventServers": ServerList{}, "EventTools": "", "EventQuestions": SnapshotView{}, "EventChat": ChatEvent{},
		"EventProviders": ProviderList{}, "EventPolicies": ServerPolicyView{}, "EventLanguage": LanguageView{},
		"EventTheme": ThemeView{}, "EventResources": "", "EventPrompts": "", "EventResourceUpdated": ResourceUpdate{},
		"EventLog": "", "EventProgress": ToolProgress{}, "EventClientApps": "",
	}
	// The Go types of api.ts's own payload types, by their TypeScript names.
	written := map[string]reflect.Type{
		"ChatEvent": reflect.TypeFor[ChatEvent](), "ChatCall": reflect.TypeFor[chat.Call](),
		"Progress": reflect.TypeFor[mcp.Progress](), "ToolProgress": reflect.TypeFor[ToolProgress](),
		"ResourceUpdate": reflect.TypeFor[ResourceUpdate](),
	}
	events, err := os.ReadFile("../frontend/src/lib/events.ts")
	if err != nil {
		t.Fatal(err)
	}
	api, err := os.ReadFile("../frontend/src/lib/api.ts")
	if err != nil {
		t.Fatal(err)
	}
	payloads := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^  \[(Event\w+)\]: (?:Plain<app\.(\w+)>|(\w+));$`).FindAllStringSubmatch(string(events), -1) {
		payloads[m[1]] = m[2] + m[3]
	}
	for name, v := range sent {
		goName := reflect.TypeOf(v).Name()
		if payloads[name] != goName {
			t.Errorf("events.ts says %s carries %q; Go sends %s", name, payloads[name], goName)
		}
	}
	if len(payloads) != len(sent) {
		t.Errorf("events.ts types %d events, Go sends %d: %v", len(payloads), len(sent), payloads)
	}
	for tsName, goType := range written {
		tsFields := typeFields(t, string(api), tsName)
		var goFields []string
		for f := range goType.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				goFields = append(goFields, name)
			}
		}
		slices.Sort(goFields)
		if !slices.Equal(tsFields, goFields) {
			t.Errorf("api.ts's %s has the fields %v; Go's %s sends %v", tsName, tsFields, goType, goFields)
		}
	}
}

// typeFields returns the sorted field names of `export type name = { ... };`
// in src, written one per line.
func typeFields(t *testing.T, src, name string) []string {
	t.Helper()
	m := regexp.MustCompile(`(?ms)^export type ` + name + ` = \{\n(.*?)^\};`).FindStringSubmatch(src)
	if m == nil {
		t.Fatalf("api.ts has no `export type %s = {...};`", name)
	}
	var fields []string
	for _, f := range regexp.MustCompile(`(?m)^  (\w+)\??:`).FindAllStringSubmatch(m[1], -1) {
		fields = append(fields, f[1])
	}
	slices.Sort(fields)
	return fields
}
