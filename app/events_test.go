package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
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
