package i18n

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
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
		{"an error argument says its message", M("forms.error.nested", "path", "/a", "problem", Err("forms.error.number")), "At /a: Enter a number."},
		{"an error argument without a message says its text", M("forms.error.json", "detail", errors.New("unexpected end")), "This is not valid JSON: unexpected end"},
		{"braces that are no placeholder stay", M("forms.error.arguments"), `The arguments must be a JSON object, like {"name": "value"}.`},
		{"a missing argument shows its placeholder", Message{Key: "forms.error.max"}, "Enter {max} or less."},
		{"an unknown key shows the key", Message{Key: "no.such.key"}, "no.such.key"},
		{"the zero message is empty", Message{}, ""},
		{"text is shown as it is", Text("exit status 1"), "exit status 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.msg.In(English); got != tc.want {
				t.Errorf("In(English) = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMessage_RendersInTheCurrentLanguage(t *testing.T) {
	t.Cleanup(func() { SetLanguage(English) })
	msg := M("forms.error.nested", "path", "/a", "problem", M("forms.error.length.max", "max", 20))
	if got, want := msg.String(), "At /a: Use at most 20 characters."; got != want {
		t.Errorf("before SetLanguage: %q, want %q", got, want)
	}
	SetLanguage(Chinese)
	if got, want := msg.String(), "/a 处：最多输入 20 个字符。"; got != want {
		t.Errorf("in Chinese: %q, want %q", got, want)
	}
	if got, want := Err("forms.error.required").Error(), "此项为必填项。"; got != want {
		t.Errorf("an error in Chinese: %q, want %q", got, want)
	}
	b, err := json.Marshal(M("forms.error.required"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"key":"forms.error.required","args":{},"text":"此项为必填项。"}`; string(b) != want {
		t.Errorf("JSON in Chinese = %s, want %s", b, want)
	}
	SetLanguage("fr")
	if Current() != English {
		t.Errorf("a language without a catalogue must fall back to English, got %s", Current())
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
	if b, _ := json.Marshal(M("forms.error.json", "detail", errors.New("bad"))); !strings.Contains(string(b), `"detail":"bad"`) {
		t.Errorf("an error argument must travel as its text: %s", b)
	}
}

func TestMessageOf(t *testing.T) {
	base := Err("forms.error.required")
	cases := []struct {
		name string
		err  error
		want string // the message's key, "" for none
	}{
		{"an error made from a message", base, "forms.error.required"},
		{"wrapped without words of its own", fmt.Errorf("%w", base), "forms.error.required"},
		{"a message that wraps a plain error", Wrap(errors.New("disk full"), "forms.error.json", "detail", "x"), "forms.error.json"},
		{"wrapped with English words around it", fmt.Errorf("saving: %w", base), ""},
		{"a plain error", errors.New("boom"), ""},
		{"no error", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := MessageOf(tc.err)
			if ok != (tc.want != "") || m.Key != tc.want {
				t.Errorf("MessageOf = %q, %v; want %q", m.Key, ok, tc.want)
			}
		})
	}
	if got := ErrorMessage(fmt.Errorf("saving: %w", base)).In(English); got != "saving: This field is required." {
		t.Errorf("ErrorMessage of a wrapped error = %q, want its whole text", got)
	}
	if !errors.Is(Wrap(os.ErrNotExist, "forms.error.required"), os.ErrNotExist) {
		t.Error("Wrap must keep the wrapped error for errors.Is")
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		locale string
		want   Language
		ok     bool
	}{
		{"zh_CN.UTF-8", Chinese, true},
		{"zh_SG.UTF-8", Chinese, true},
		{"zh-Hans-CN", Chinese, true},
		{"zh", Chinese, true},
		{"zh_TW.UTF-8", Chinese, true}, // Traditional readers get Simplified, not English
		{"zh-Hant-HK", Chinese, true},
		{"en_GB.UTF-8@euro", English, true},
		{"en-US", English, true},
		{"C", English, true},
		{"C.UTF-8", English, true},
		{"POSIX", English, true},
		{"fr_FR.UTF-8", "", false},
		{"", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.locale, func(t *testing.T) {
			got, ok := Match(tc.locale)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Match(%q) = %q, %v; want %q, %v", tc.locale, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want Language
	}{
		{"nothing set is English", nil, English},
		{"LANG alone", map[string]string{"LANG": "zh_CN.UTF-8"}, Chinese},
		{"LC_MESSAGES wins over LANG", map[string]string{"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, English},
		{"LC_ALL wins over LC_MESSAGES", map[string]string{"LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, Chinese},
		{"LANGUAGE wins over LANG", map[string]string{"LANGUAGE": "zh_CN:en", "LANG": "en_US.UTF-8"}, Chinese},
		{"the first known entry of LANGUAGE wins", map[string]string{"LANGUAGE": "fr:de:zh_SG", "LANG": "en_US.UTF-8"}, Chinese},
		{"an unknown LANGUAGE list falls through to LANG", map[string]string{"LANGUAGE": "fr:de", "LANG": "zh_CN.UTF-8"}, Chinese},
		{"an unknown language is English", map[string]string{"LANG": "fr_FR.UTF-8"}, English},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := FromEnv(func(k string) string { return tc.env[k] }); got != tc.want {
				t.Errorf("FromEnv = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestChoice(t *testing.T) {
	cases := []struct {
		choice Choice
		want   Language
		valid  bool
	}{
		{System, Chinese, true},
		{"en", English, true},
		{"zh-CN", Chinese, true},
		{"de", Chinese, false},
	}
	for _, tc := range cases {
		if got := tc.choice.Resolve(Chinese); got != tc.want {
			t.Errorf("Choice(%q).Resolve(zh-CN) = %s, want %s", tc.choice, got, tc.want)
		}
		if tc.choice.Valid() != tc.valid {
			t.Errorf("Choice(%q).Valid() = %v", tc.choice, !tc.valid)
		}
	}
}

// TestCatalogue_LanguagesAgree fails when a key is in one language and not
// in another, when a template is empty, or when the placeholders of a
// message differ between languages.
func TestCatalogue_LanguagesAgree(t *testing.T) {
	for _, l := range Languages[1:] {
		for key, en := range catalogue(English) {
			tmpl, ok := catalogue(l)[key]
			if !ok {
				t.Errorf("%s is in en.json but not in %s.json", key, l)
				continue
			}
			if strings.TrimSpace(tmpl) == "" {
				t.Errorf("%s is empty in %s.json", key, l)
			}
			if a, b := placeholders(en), placeholders(tmpl); !slices.Equal(a, b) {
				t.Errorf("%s: en.json has placeholders %v but %s.json has %v", key, a, l, b)
			}
		}
		for key := range catalogue(l) {
			if _, ok := catalogue(English)[key]; !ok {
				t.Errorf("%s is in %s.json but not in en.json", key, l)
			}
		}
	}
}

// placeholders lists a template's placeholder names, sorted, each once.
func placeholders(tmpl string) []string {
	var names []string
	for _, m := range placeholder.FindAllStringSubmatch(tmpl, -1) {
		if !slices.Contains(names, m[1]) {
			names = append(names, m[1])
		}
	}
	slices.Sort(names)
	return names
}

// moduleRoot returns the repository's root, where go.mod is.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not at %s: %v", root, err)
	}
	return root
}

// walkGo parses every Go file of the module outside the frontend and calls
// fn with each.
func walkGo(t *testing.T, fn func(path string, fset *token.FileSet, file *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(moduleRoot(t), func(path string, d fs.DirEntry, err error) error {
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
		fn(path, fset, file)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCatalogue_EveryKeyUsedInGoExists checks each call of M, Err and Wrap
// in the module: its key is a literal in the catalogue, and its argument
// names are literals matching the template's placeholders one for one.
func TestCatalogue_EveryKeyUsedInGoExists(t *testing.T) {
	calls := 0
	walkGo(t, func(path string, fset *token.FileSet, file *ast.File) {
		if file.Name.Name == "i18n" && !strings.HasSuffix(path, "_test.go") {
			return // Err and Wrap hand their key on to M
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if first, ok := keyCall(call, file); ok {
				calls++
				checkCall(t, fset.Position(call.Pos()).String(), call, first)
			}
			return true
		})
	})
	if calls == 0 {
		t.Fatal("found no call to i18n.M: the scan is broken")
	}
}

// keyCall reports whether call is i18n.M, i18n.Err or i18n.Wrap (or the
// same inside package i18n), and the index of its key argument.
func keyCall(call *ast.CallExpr, file *ast.File) (int, bool) {
	var name string
	switch fn := call.Fun.(type) {
	case *ast.SelectorExpr:
		x, ok := fn.X.(*ast.Ident)
		if !ok || x.Name != "i18n" {
			return 0, false
		}
		name = fn.Sel.Name
	case *ast.Ident:
		if file.Name.Name != "i18n" {
			return 0, false
		}
		name = fn.Name
	default:
		return 0, false
	}
	switch name {
	case "M", "Err":
		return 0, true
	case "Wrap":
		return 1, true
	}
	return 0, false
}

func stringLiteral(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

func checkCall(t *testing.T, where string, call *ast.CallExpr, first int) {
	t.Helper()
	if len(call.Args) <= first {
		t.Errorf("%s: a message without a key", where)
		return
	}
	key, ok := stringLiteral(call.Args[first])
	if !ok {
		t.Errorf("%s: the key must be a string literal, so that it can be checked", where)
		return
	}
	tmpl, ok := catalogue(English)[key]
	if !ok {
		t.Errorf("%s: key %q is not in locales/en.json", where, key)
		return
	}
	rest := call.Args[first+1:]
	if call.Ellipsis.IsValid() || len(rest)%2 != 0 {
		t.Errorf("%s: %q must have its arguments as name, value pairs", where, key)
		return
	}
	var names []string
	for i := 0; i < len(rest); i += 2 {
		name, ok := stringLiteral(rest[i])
		if !ok {
			t.Errorf("%s: argument names of %q must be string literals", where, key)
			return
		}
		names = append(names, name)
	}
	slices.Sort(names)
	if want := placeholders(tmpl); !slices.Equal(names, want) {
		t.Errorf("%s: %q is given %v but its template %q has placeholders %v", where, key, names, tmpl, want)
	}
}

// frontendKey matches a quoted string that may be a catalogue key, in the
// frontend's TypeScript and Svelte files.
var frontendKey = regexp.MustCompile("['\"`]([A-Za-z][A-Za-z0-9_-]*(?:\\.[A-Za-z0-9_-]+)+)['\"`]")

// TestCatalogue_EveryKeyIsUsed fails for a key that no code uses: a string
// literal equal to the key in a Go file or in the frontend's sources (tests
// excluded). A literal naming the common start of a key.one and a key.other
// uses both (the frontend's tn chooses between them).
func TestCatalogue_EveryKeyIsUsed(t *testing.T) {
	used := map[string]bool{}
	use := func(s string) {
		used[s] = true
		used[s+".one"] = true
		used[s+".other"] = true
	}
	walkGo(t, func(path string, _ *token.FileSet, file *ast.File) {
		if strings.HasSuffix(path, "_test.go") {
			return
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok {
				if s, ok := stringLiteral(e); ok {
					use(s)
				}
			}
			return true
		})
	})
	src := filepath.Join(moduleRoot(t), "frontend", "src")
	files := 0
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(path, ".test.") || !(strings.HasSuffix(path, ".ts") || strings.HasSuffix(path, ".svelte")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for _, m := range frontendKey.FindAllStringSubmatch(string(b), -1) {
			use(m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatalf("found no frontend source under %s: the scan is broken", src)
	}
	var unused []string
	for key := range catalogue(English) {
		if !used[key] {
			unused = append(unused, key)
		}
	}
	slices.Sort(unused)
	if len(unused) > 0 {
		t.Errorf("%d keys are used nowhere; remove them from every locales/*.json:\n%s", len(unused), strings.Join(unused, "\n"))
	}
}
