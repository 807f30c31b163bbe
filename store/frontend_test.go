package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestToolModesMatchModelsTS: the window names tool-call modes with Go's
// words: models.ts (make bindings, from the EnumBind of app/gui.go) must
// declare every ToolMode constant of this package, and nothing else.
func TestToolModesMatchModelsTS(t *testing.T) {
	var goModes []string
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pkgs["store"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			if typ, ok := spec.Type.(*ast.Ident); ok && typ.Name == "ToolMode" {
				for _, v := range spec.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						goModes = append(goModes, s)
					}
				}
			}
			return false
		})
	}
	models, err := os.ReadFile("../frontend/wailsjs/go/models.ts")
	if err != nil {
		t.Fatal(err)
	}
	var tsModes []string
	if m := regexp.MustCompile(`export enum ToolMode \{([^}]*)\}`).FindSubmatch(models); m != nil {
		for _, v := range regexp.MustCompile(`\w+ = "([^"]*)"`).FindAllSubmatch(m[1], -1) {
			tsModes = append(tsModes, string(v[1]))
		}
	}
	slices.Sort(goModes)
	slices.Sort(tsModes)
	if len(goModes) < 3 || !slices.Equal(goModes, tsModes) {
		t.Errorf("ToolMode is %q in Go and %q in models.ts: run make bindings (and add new modes to EnumBind in app/gui.go)", goModes, tsModes)
	}
}

// TestOutcomesMatchTheFrontend: outcomes.ts must list the outcomes History
// stores, in the same order (the history's filter lists them so).
func TestOutcomesMatchTheFrontend(t *testing.T) {
	src, err := os.ReadFile("../frontend/src/lib/outcomes.ts")
	if err != nil {
		t.Fatal(err)
	}
	var tsOutcomes []string
	for _, m := range regexp.MustCompile(`(?m)^\s+(\w+): 'outcome\.\w+',$`).FindAllStringSubmatch(string(src), -1) {
		tsOutcomes = append(tsOutcomes, m[1])
	}
	if !slices.Equal(outcomes, tsOutcomes) {
		t.Errorf("the outcomes are %q in Go and %q in outcomes.ts", outcomes, tsOutcomes)
	}
}
