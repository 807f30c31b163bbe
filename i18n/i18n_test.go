package i18n

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestMessage_RendersEnglish(t *testing.T) {
	cases := []struct {
		name string
		msg  Message
		want string
	}{
		{"a sentence without arguments", M("forms.error.required"), "This field is required."},
		{"a whole number has no decimal point", M("forms.error.length.max", "max", 20.0), "Use at most 20 characters."},
		{"a fraction stays a fraction", M("forms.error.max", "max", 9.5), "Enter 9.5 or less."},
		{"a message inside a message", M("forms.error.nested", "path", "/a/0", "problem", M("forms.error.number")), "At /a/0: Enter a number."},
		{"braces that are no placeholder stay", M("forms.error.arguments"), `The arguments must be a JSON object, like {"name": "value"}.`},
		{"a missing argument shows its placeholder", Message{Key: "forms.error.max"}, "Enter {max} or less."},
		{"an unknown key shows the key", Message{Key: "no.such.key"}, "no.such.key"},
		{"the zero message is empty", Message{}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.msg.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMessage_JSONCarriesKeyArgsAndText(t *testing.T) {
	b, err := json.Marshal(map[string]Message{"a": M("forms.error.length.min", "min", 3), "b": M("forms.error.required")})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":{"key":"forms.error.length.min","args":{"min":3},"text":"Use at least 3 characters."},` +
		`"b":{"key":"forms.error.required","args":{},"text":"This field is required."}}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
	if b, _ := json.Marshal(Message{Key: "forms.error.required"}); !strings.Contains(string(b), `"args":{}`) {
		t.Errorf("args must never be null: %s", b)
	}
}

// TestCatalogue_EveryKeyUsedInGoExists reads every Go file of the module and
// checks each i18n.M call: its key is a literal in en.json, and its argument
// names are literals matching the template's placeholders one for one.
func TestCatalogue_EveryKeyUsedInGoExists(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not at %s: %v", root, err)
	}
	fset := token.NewFileSet()
	calls := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "frontend", ".git", "build", "test-output":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isCallToM(call, file) {
				return true
			}
			calls++
			checkCall(t, fset.Position(call.Pos()).String(), call)
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Fatal("found no call to i18n.M: the scan is broken")
	}
}

// isCallToM reports whether call is i18n.M(...) (or M(...) inside package i18n).
func isCallToM(call *ast.CallExpr, file *ast.File) bool {
	switch fn := call.Fun.(type) {
	case *ast.SelectorExpr:
		x, ok := fn.X.(*ast.Ident)
		return ok && x.Name == "i18n" && fn.Sel.Name == "M"
	case *ast.Ident:
		return file.Name.Name == "i18n" && fn.Name == "M"
	}
	return false
}

func checkCall(t *testing.T, where string, call *ast.CallExpr) {
	t.Helper()
	literal := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil
	}
	if len(call.Args) == 0 {
		t.Errorf("%s: i18n.M without a key", where)
		return
	}
	key, ok := literal(call.Args[0])
	if !ok {
		t.Errorf("%s: the key must be a string literal, so that it can be checked", where)
		return
	}
	tmpl, ok := english[key]
	if !ok {
		t.Errorf("%s: key %q is not in locales/en.json", where, key)
		return
	}
	if call.Ellipsis.IsValid() || len(call.Args)%2 != 1 {
		t.Errorf("%s: %q must have its arguments as name, value pairs", where, key)
		return
	}
	var names []string
	for i := 1; i < len(call.Args); i += 2 {
		name, ok := literal(call.Args[i])
		if !ok {
			t.Errorf("%s: argument names of %q must be string literals", where, key)
			return
		}
		names = append(names, name)
	}
	var want []string
	for _, m := range placeholder.FindAllStringSubmatch(tmpl, -1) {
		if !slices.Contains(want, m[1]) {
			want = append(want, m[1])
		}
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("%s: %q is given %v but its template %q has placeholders %v", where, key, names, tmpl, want)
	}
}
