package forms

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// The fuzz tests feed the parsers and the validator what a hostile or
// careless server could send. Whatever they find must neither crash nor
// hang the app, and the forms must stay usable by the UI.
//
//	go test -run '^$' -fuzz FuzzParseElicitation -fuzztime 5s ./forms/
//
// Seeds: real schemas (testdata/seeds: the demo server's, server-everything's,
// Python and go-sdk style tool schemas) and the hostile ones below. Inputs
// the fuzzer finds failing are kept in testdata/fuzz and run with every
// `go test`.

// hostileSeeds are schemas written to break things.
var hostileSeeds = []string{
	``, `null`, `[]`, `"x"`, `1e999`, `{`, `{"type":"object","properties":null}`,
	`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`,
	`{"$schema":"https://evil.example/meta","type":"object"}`,
	`{"type":"object","properties":{"a":{"$ref":"#"}}}`,
	`{"type":"object","$defs":{"x":{"$ref":"#/$defs/x"}},"properties":{"a":{"$ref":"#/$defs/x"}}}`,
	`{"type":"object","properties":{"a":{"type":"string","pattern":"(a*)*b"}}}`,
	`{"type":"object","properties":{"a":{"type":"string","pattern":"(?<=x)y"}}}`,
	`{"type":"object","properties":{"a":{"type":"string","minLength":1e308,"maxLength":-1}}}`,
	`{"type":"object","properties":{"a":{"type":"array","minItems":3,"maxItems":1,"items":{"enum":["x"]}}}}`,
	`{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}},"required":["a","a"]}`,
	`{"type":"object","properties":{"":{"type":"string"}},"required":[""]}`,
	`{"type":"object","properties":{"a":{"enum":[]}}}`,
	`{"type":"object","properties":{"a":{"type":"string","enum":["x","y"],"enumNames":[1,2]}}}`,
	`{"type":"object","properties":{"a":{"oneOf":[{"const":{"x":1}}]}}}`,
	`{"type":"object","properties":{"a":{"type":"number","minimum":1,"maximum":0,"default":"x"}}}`,
	`{"type":"object","properties":{"a":{"type":"string","title":"<img src=x onerror=alert(1)>","description":"\u202egnp.exe"}}}`,
	`{"type":"object","properties":{"password":{"type":"string","format":"password"}},"required":["password"]}`,
	`{"type":"object","properties":{"a":{"type":"string","default":"` + strings.Repeat("x", 70000) + `"}}}`,
	`{"type":"object","properties":{"x":` + strings.Repeat(`[`, 100) + strings.Repeat(`]`, 100) + `}}`,
}

func seedFiles(f *testing.F, prefix string) []string {
	f.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "seeds", prefix+"*.json"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no seed schemas %s*.json in testdata/seeds: %v", prefix, err)
	}
	var out []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

func addSeeds(f *testing.F, prefix string) {
	f.Helper()
	for _, s := range append(seedFiles(f, prefix), hostileSeeds...) {
		f.Add([]byte(s))
	}
}

// checkForm asserts what the UI relies on in any form.
func checkForm(t *testing.T, s *Schema) {
	t.Helper()
	f := s.Form
	if f.Fields == nil || f.SecretFields == nil {
		t.Fatalf("a nil list: %#v", f)
	}
	if f.Complete == (f.Reason != nil) {
		t.Fatalf("complete = %v with reason %v", f.Complete, f.Reason)
	}
	seen := map[string]bool{}
	for _, fl := range f.Fields {
		if seen[fl.Name] {
			t.Fatalf("field %q twice", fl.Name)
		}
		seen[fl.Name] = true
		if fl.Options == nil || fl.Hints == nil {
			t.Fatalf("field %q has a nil list", fl.Name)
		}
		if _, ok := kinds[fl.Kind]; !ok {
			t.Fatalf("field %q has unknown kind %q", fl.Name, fl.Kind)
		}
		if (fl.Kind == KindSingleSelect || fl.Kind == KindMultiSelect) != (len(fl.Options) > 0) {
			t.Fatalf("field %q of kind %s has %d options", fl.Name, fl.Kind, len(fl.Options))
		}
		for _, h := range fl.Hints {
			checkMessage(t, h)
		}
		if fl.Sensitive != slices.Contains(f.SecretFields, fl.Name) {
			t.Fatalf("field %q: sensitive %v, secret fields %v", fl.Name, fl.Sensitive, f.SecretFields)
		}
	}
	if f.Reason != nil {
		checkMessage(t, *f.Reason)
	}
	if _, err := json.Marshal(f); err != nil {
		t.Fatalf("the form cannot be sent to the UI: %v", err)
	}
}

// checkMessage asserts a message renders completely from the catalogue.
func checkMessage(t *testing.T, m i18n.Message) {
	t.Helper()
	text := m.String()
	if text == m.Key || text == "" {
		t.Fatalf("message %q is not in the catalogue", m.Key)
	}
	if tmpl, _ := json.Marshal(m); strings.Contains(string(tmpl), `"args":null`) {
		t.Fatalf("message %q has null args", m.Key)
	}
	for name := range m.Args {
		if strings.Contains(text, "{"+name+"}") && !strings.Contains(argString(m.Args[name]), "{"+name+"}") {
			t.Fatalf("message %q left {%s} unfilled: %q", m.Key, name, text)
		}
	}
}

func argString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func FuzzParseElicitation(f *testing.F) {
	addSeeds(f, "elicitation-")
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := ParseElicitation(raw)
		if err != nil {
			if _, ok := err.(*SchemaError); !ok || s != nil {
				t.Fatalf("a refusal must be a *SchemaError and no schema: %T %v", err, err)
			}
			return
		}
		checkForm(t, s)
		for _, fl := range s.Form.Fields {
			if !kinds[fl.Kind].elicitation {
				t.Fatalf("an elicitation has a field of kind %s", fl.Kind)
			}
		}
		// The defaults a server gives fit its own schema: a person who
		// changes nothing can submit.
		values := map[string]any{}
		for _, fl := range s.Form.Fields {
			if fl.Default != nil {
				values[fl.Name] = fl.Default
			}
		}
		if _, errs := s.Validate(values); len(errs) > 0 {
			for name, m := range errs {
				// Only a required field whose default is empty may be
				// left for the person to fill in.
				if fl := s.fields[name]; fl == nil || !fl.Required || !isEmpty(fl.Default) {
					t.Fatalf("defaults %v do not pass: %s: %s", values, name, m)
				}
			}
		}
	})
}

func FuzzParseTool(f *testing.F) {
	addSeeds(f, "tool-")
	f.Fuzz(func(t *testing.T, raw []byte) {
		s := ParseTool("t", raw)
		if s == nil {
			t.Fatal("ParseTool returned nil")
		}
		checkForm(t, s)
		values := map[string]any{}
		for _, fl := range s.Form.Fields {
			values[fl.Name] = fl.Default
		}
		s.Draft(values)
		s.Validate(values)
		s.Check(s.Draft(values))
	})
}

// FuzzValidate answers real and hostile forms with arbitrary values: the
// verdict must be consistent, and content is sent only when nothing is wrong.
func FuzzValidate(f *testing.F) {
	answers := []string{
		`{}`, `{"name":"Ada Lovelace","email":"ada@example.com","arrival":"2026-12-01","track":"go"}`,
		`{"name":"","email":null,"guests":1.5,"workshops":[],"diet":["vegan","vegan"]}`,
		`{"name":123,"newsletter":"yes","track":["go"],"workshops":"mcp","unknown":1}`,
		`{"talk":"2026-01-31T14:30:00","website":"example.com","budget":1e308}`,
		`{"query":"x","address":"{\"street\":1}","tags":"[1,2]","level":2}`,
		`{"city":"Lima","stops":"[{\"name\":\"a\",\"nights\":\"x\"}]","extra":true}`,
	}
	for _, schema := range append(seedFiles(f, ""), hostileSeeds...) {
		for _, a := range answers {
			f.Add([]byte(schema), []byte(a))
		}
	}
	f.Fuzz(func(t *testing.T, raw, answer []byte) {
		var values map[string]any
		if json.Unmarshal(answer, &values) != nil {
			return
		}
		schemas := []*Schema{ParseTool("t", raw)}
		if s, err := ParseElicitation(raw); err == nil {
			schemas = append(schemas, s)
		}
		for _, s := range schemas {
			content, errs := s.Validate(values)
			if errs == nil {
				t.Fatal("errors must be an empty map, not nil")
			}
			for name, m := range errs {
				checkMessage(t, m)
				if _, given := values[name]; !given && name != "" && s.fields[name] == nil {
					t.Fatalf("an error for %q, which is neither a field nor given", name)
				}
			}
			if len(errs) > 0 {
				if content != nil {
					t.Fatal("content despite errors: nothing may be sent")
				}
				continue
			}
			for name, v := range content {
				if isEmpty(v) {
					t.Fatalf("the empty value of %q would be sent", name)
				}
			}
			// What Validate lets through, Check accepts as it is.
			if again := s.Check(content); len(again) > 0 {
				t.Fatalf("Validate accepted %v, Check refuses it: %v", content, again)
			}
		}
	})
}

// Bounds of FuzzCheckWork: generous, for a busy machine. A check of a small
// value spends at most about a million steps of about 0.5 µs.
const (
	slowCompile = 2 * time.Second
	slowFloor   = 250 * time.Millisecond
	slowPerStep = 5 * time.Microsecond
	// hangAfter ends the fuzzing process with the stacks of a check that
	// has not returned: the fuzzer then keeps the input that hung.
	hangAfter = 20 * time.Second
)

// FuzzCheckWork looks for slow checks, not only crashing ones. For any
// schema a server can send and any value, a check is refused before it
// starts, or it ends within its step budget (budget.go) and takes time in
// proportion to the steps it was charged. A schema or value whose real work
// outgrows its steps, as long texts against large patterns and numbers read
// into big.Rat did before they were charged what they cost, fails here.
//
//	go test -run '^$' -fuzz FuzzCheckWork -fuzztime 30s ./forms/
func FuzzCheckWork(f *testing.F) {
	words := make([]string, 200)
	for i := range words {
		words[i] = fmt.Sprintf("w%03d", i)
	}
	pairs := [][2]string{
		{fanOut(12), `{}`},
		{fanOut(32), `{}`},
		{recursiveFanOut, nestedX(20)},
		{refChain(60), `{}`},
		{hiddenFanOut(12), `{"x":{"y":{}}}`},
		{`{"type":"string","pattern":"^(?:` + strings.Join(words, "|") + `)*$"}`, `"` + strings.Repeat("w001", 5000) + `"`},
		{`{"type":"array","items":{"allOf":[{"multipleOf":0.001},{"multipleOf":0.01},{"maximum":1e300}]}}`, `[1.5,2.25,1e300,3,4,5,6,7,8,9]`},
		{`{"type":"array","uniqueItems":true,"items":{"type":"object"}}`, `[{"a":[1,2,3]},{"a":[1,2,4]},{"b":{"c":{"d":1}}}]`},
		{`{"type":"object","patternProperties":{"^a+$":{"type":"string"},"^(b|c)*d$":{"type":"number"}}}`, `{"aaaa":"x","bcbcd":1,"zz":null}`},
		{`{"enum":[{"a":1},{"a":[1,2,3]},"x",1e10],"const":{"a":[1,2,3]}}`, `{"a":[1,2,3]}`},
		{`{"$dynamicAnchor":"n","type":"object","properties":{"k":{"type":"array","items":{"$dynamicRef":"#n"}}}}`, `{"k":[{"k":[{"k":[]}]}]}`},
		{`{"type":"string","format":"regex"}`, `"` + strings.Repeat("(a|b)*", 200) + `"`},
	}
	for _, p := range pairs {
		f.Add([]byte(p[0]), []byte(p[1]))
	}
	for _, schema := range append(seedFiles(f, ""), hostileSeeds...) {
		f.Add([]byte(schema), []byte(`{}`))
		f.Add([]byte(schema), []byte(`{"a":"x","b":[1,2,{"c":null}],"query":"q","city":"Lima"}`))
	}
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		if len(schema) > maxToolSchemaBytes || jsonDepth(schema) > maxToolSchemaDepth {
			return // refused before compiling (ParseTool, CheckStructured)
		}
		watchdog := time.AfterFunc(hangAfter, func() {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			panic(fmt.Sprintf("still compiling or checking after %v:\n%s", hangAfter, buf[:n]))
		})
		defer watchdog.Stop()
		var root any
		if json.Unmarshal(schema, &root) != nil {
			return
		}
		start := time.Now()
		c, err := compile(root, compileOptions{assertFormat: true, lenientPatterns: true})
		if d := time.Since(start); d > slowCompile {
			t.Fatalf("compiling took %v", d)
		}
		if err != nil {
			return
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
		if err != nil {
			return
		}
		start = time.Now()
		steps, err := c.measured(context.Background(), v)
		d := time.Since(start)
		if limit := slowFloor + time.Duration(steps)*slowPerStep; d > limit {
			t.Fatalf("the check took %v for %d steps (more than %v): its work is not charged what it costs; err %v", d, steps, limit, err)
		}
		if why, ok := whyNot(err); ok {
			checkMessage(t, why)
		}
	})
}
