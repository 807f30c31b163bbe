package forms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fanOut is the schema of issue 22, item 3: levels $defs, each referring
// twice to the next, so that checking any object takes 2^levels steps.
func fanOut(levels int) string {
	var defs []string
	for i := range levels {
		defs = append(defs, fmt.Sprintf(`"d%d":{"allOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object"}`, levels))
	return `{"type":"object","$defs":{` + strings.Join(defs, ",") + `},"allOf":[{"$ref":"#/$defs/d0"}]}`
}

// refChain is a schema whose $defs each refer once to the next.
func refChain(length int) string {
	var defs []string
	for i := range length {
		defs = append(defs, fmt.Sprintf(`"d%d":{"$ref":"#/$defs/d%d"}`, i, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object"}`, length))
	return `{"$defs":{` + strings.Join(defs, ",") + `},"$ref":"#/$defs/d0"}`
}

// hiddenFanOut hides a fan-out behind a $dynamicAnchor that no reference
// names: the validator reaches it through the dynamic scope alone (from
// "inner", a resource of its own, whose $dynamicRef resolves to the
// outermost "n" in scope).
func hiddenFanOut(levels int) string {
	var defs []string
	for i := range levels {
		defs = append(defs, fmt.Sprintf(`"d%d":{"allOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object"}`, levels),
		`"hidden":{"$dynamicAnchor":"n","$ref":"#/$defs/d0"}`,
		`"inner":{"$id":"https://e.example/inner","$dynamicAnchor":"n","type":"object","properties":{"y":{"$dynamicRef":"#n"}}}`)
	return `{"$id":"https://e.example/root","type":"object","properties":{"x":{"$ref":"https://e.example/inner"}},"$defs":{` + strings.Join(defs, ",") + `}}`
}

// recursiveFanOut fans out at every level of the value: {"x": {"x": ...}}
// costs 2^depth steps, which the schema alone does not show.
const recursiveFanOut = `{"$defs":{"n":{"type":"object","properties":{"x":{"allOf":[{"$ref":"#/$defs/n"},{"$ref":"#/$defs/n"}]}}}},"$ref":"#/$defs/n"}`

func nestedX(depth int) string {
	return strings.Repeat(`{"x":`, depth) + `{}` + strings.Repeat(`}`, depth)
}

// compileText compiles a schema written as JSON, as a tool's schemas are.
func compileText(t testing.TB, schema string) (*checker, error) {
	t.Helper()
	var root any
	if err := json.Unmarshal([]byte(schema), &root); err != nil {
		t.Fatalf("bad test schema: %v", err)
	}
	return compile(root, compileOptions{assertFormat: true, lenientPatterns: true})
}

// valueOf reads a value as the checker does (numbers as json.Number).
func valueOf(t testing.TB, text string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("bad test value: %v", err)
	}
	return v
}

func TestCompile_RefusesSchemasOverTheLimits(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		want   string // the reason's key; "" = accepted
	}{
		{"the issue's 32-level fan-out is refused before any value", fanOut(32), "forms.budget.expansion"},
		{"an 18-level fan-out is refused", fanOut(18), "forms.budget.expansion"},
		{"a small fan-out is accepted", fanOut(8), ""},
		{"a chain of 100 references is refused", refChain(100), "forms.budget.chain"},
		{"a chain of 20 references is accepted", refChain(20), ""},
		{"references that lead back to themselves at one place are refused",
			`{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"anyOf":[{"type":"string"},{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, "forms.budget.loop"},
		{"a recursive schema (a tree) is accepted: the value unrolls it",
			`{"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"$ref":"#/$defs/node"}`, ""},
		{"a recursive fan-out is accepted here and metered while checking", recursiveFanOut, ""},
		{"a fan-out reached only through the dynamic scope is refused", hiddenFanOut(32), "forms.budget.expansion"},
		{"an enum of 2,000 numbers is accepted", `{"enum":[` + strings.TrimSuffix(strings.Repeat("12345,", 2000), ",") + `]}`, ""},
		{"a $dynamicRef tree is accepted",
			`{"$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := compileText(t, tc.schema)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("compiling took %v", d)
			}
			why, refused := whyNot(err)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && !refused:
				t.Errorf("err = %v; want the reason %s", err, tc.want)
			case tc.want != "" && why.Key != tc.want:
				t.Errorf("reason %s (%s); want %s", why.Key, why, tc.want)
			case refused:
				checkMessage(t, why)
			}
		})
	}
}

// A reference to a meta-schema jsonschema/v6 knows by heart would reach a
// schema outside the document, whose checks the meter cannot see.
func TestCompile_RefusesReferencesOutsideTheDocument(t *testing.T) {
	_, err := compileText(t, `{"type":"object","properties":{"s":{"$ref":"https://json-schema.org/draft/2020-12/schema"}}}`)
	if !errors.Is(err, errExternalRef) {
		t.Errorf("err = %v; want errExternalRef", err)
	}
}

// Real schemas stay far below the limits.
func TestCompile_SeedSchemasAreWellWithinTheLimits(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "seeds", "*.json"))
	if len(paths) == 0 {
		t.Fatal("no seed schemas")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var root any
			if err := json.Unmarshal(b, &root); err != nil {
				t.Fatal(err)
			}
			sch := compileRaw(t, root)
			g := graphOf([]*jsonschema.Schema{sch})
			if err := g.measure(); err != nil {
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

// compileRaw compiles root with jsonschema/v6 alone, without the checker.
func compileRaw(t *testing.T, root any) *jsonschema.Schema {
	t.Helper()
	doc, err := toJSONValue(root)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refusingLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// Work that only the value unrolls, or that a step does not show (a long
// text against a large pattern, numbers read into big.Rat), is stopped by
// the meter, in under 2 s.
func TestChecker_StopsChecksOverTheBudget(t *testing.T) {
	words := make([]string, 3000)
	for i := range words {
		words[i] = fmt.Sprintf("w%04dx", i)
	}
	bigPattern := `^(?:` + strings.Join(words, "|") + `)*$`
	longText, _ := json.Marshal(strings.Repeat("w0001x", 400_000))
	numbers := make([]string, 10_000)
	for i := range numbers {
		numbers[i] = fmt.Sprintf("%d.5", i)
	}
	cases := []struct {
		name   string
		schema string
		value  string
		want   string // the reason's key
	}{
		{"a fan-out repeated at every level of a nested value", recursiveFanOut, nestedX(40), "forms.budget.steps"},
		{"a value nested deeper than the limit", `{"type":"array"}`, strings.Repeat("[", 300) + strings.Repeat("]", 300), "forms.budget.depth"},
		{"a long text against a large pattern", `{"type":"string","pattern":` + string(mustJSON(t, bigPattern)) + `}`, string(longText), "forms.budget.steps"},
		{"many numbers divided many times", `{"type":"array","items":{"allOf":[` + strings.TrimSuffix(strings.Repeat(`{"multipleOf":0.001},`, 20), ",") + `]}}`,
			"[" + strings.Join(numbers, ",") + "]", "forms.budget.steps"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := compileText(t, tc.schema)
			if err != nil {
				t.Fatal(err)
			}
			v := valueOf(t, tc.value)
			start := time.Now()
			err = c.validate(context.Background(), v)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("the check took %v", d)
			}
			why, ok := whyNot(err)
			if !ok || why.Key != tc.want {
				t.Fatalf("err = %v; want the reason %s", err, tc.want)
			}
			checkMessage(t, why)
		})
	}
}

// An honest check of a large value is not cut short: the budget grows with
// the value.
func TestChecker_ChecksLargeHonestValuesFully(t *testing.T) {
	rows := make([]string, 50_000)
	for i := range rows {
		rows[i] = fmt.Sprintf(`{"id":%d,"name":"row %d","tags":["a","b"],"score":%d.5}`, i, i, i)
	}
	c, err := compileText(t, `{"type":"array","items":{"type":"object","required":["id"],"properties":{
		"id":{"type":"integer","minimum":0},"name":{"type":"string","pattern":"^row [0-9]+$"},
		"tags":{"type":"array","items":{"enum":["a","b","c"]}},"score":{"type":"number","maximum":1e9}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.validate(context.Background(), valueOf(t, "["+strings.Join(rows, ",")+"]")); err != nil {
		t.Errorf("err = %v", err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// heavyRows is an honest schema that is costly to check: each row against
// 30 schemas.
func heavyRows(t *testing.T, rows int) (*checker, any) {
	t.Helper()
	row := `{"type":"object","properties":{"id":{"type":"number"},"name":{"type":"string"}},"required":["id"]}`
	c, err := compileText(t, `{"type":"array","items":{"allOf":[`+strings.TrimSuffix(strings.Repeat(row+",", 30), ",")+`]}}`)
	if err != nil {
		t.Fatal(err)
	}
	items := make([]string, rows)
	for i := range items {
		items[i] = fmt.Sprintf(`{"id":%d,"name":"row"}`, i)
	}
	return c, valueOf(t, "["+strings.Join(items, ",")+"]")
}

// A check ends with its context: before it starts, or while it runs.
func TestChecker_EndsWithTheContext(t *testing.T) {
	c, v := heavyRows(t, 100_000)
	t.Run("a context already ended", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := c.validate(ctx, v); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v; want context.Canceled", err)
		}
	})
	t.Run("a context ended while checking", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- c.validate(ctx, v) }()
		time.Sleep(100 * time.Millisecond)
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v; want context.Canceled (was the check over before the cancel?)", err)
			}
		case <-time.After(time.Second):
			t.Fatal("the check went on 1 s after its context ended")
		}
	})
}

// One Schema may be shared by requests that ask the same; their checks
// take turns on its meters and each gets its own verdict.
func TestChecker_SharedByConcurrentChecks(t *testing.T) {
	s := ParseTool("t", json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","maximum":10}},"required":["n"]}`))
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := i % 12
			errs := s.Check(map[string]any{"n": n})
			if bad := len(errs) > 0; bad != (n > 10) {
				t.Errorf("n = %d: errors %v", n, errs)
			}
		}()
	}
	wg.Wait()
}

// The sentences name the tool, for an input schema and an output schema.
func TestBudget_SentencesNameTheTool(t *testing.T) {
	in := ParseTool("send_mail", json.RawMessage(fanOut(32)))
	if in.Form.Reason == nil || !strings.Contains(in.Form.Reason.String(), "send_mail") || in.Form.Complete {
		t.Errorf("reason = %v", in.Form.Reason)
	}
	if errs := in.Check(map[string]any{}); !strings.Contains(errs[""].String(), "Gatehouse does not call send_mail") {
		t.Errorf("check = %v", errs)
	}
	if _, errs := in.Validate(map[string]any{}); !strings.Contains(errs[""].String(), "send_mail") {
		t.Errorf("validate = %v", errs)
	}
	var out any
	_ = json.Unmarshal([]byte(fanOut(32)), &out)
	if m := CheckStructured(context.Background(), "report", out, map[string]any{}); m == nil || !strings.Contains(m.String(), "output schema of report") {
		t.Errorf("output warning = %v", m)
	}
}

// jsonschema/v6 compiles n subschemas in time that grows as n²: a schema
// with more than maxSchemaNodes is not compiled. A tool's input schema of
// that size is left to the server, as one over the byte limit is; a
// result's check says so; an elicitation is refused.
func TestCompile_SchemasWithTooManySubschemasAreNotCompiled(t *testing.T) {
	many := `{"type":"object","allOf":[` + strings.TrimSuffix(strings.Repeat(`{"type":"object"},`, 5000), ",") + `]}`
	start := time.Now()
	in := ParseTool("t", json.RawMessage(many))
	if in.Form.Reason == nil || in.Form.Reason.Key != "forms.reason.tooMany" {
		t.Errorf("reason = %v", in.Form.Reason)
	}
	if errs := in.Check(map[string]any{"x": 1}); len(errs) != 0 {
		t.Errorf("arguments are left to the server, but: %v", errs)
	}
	var out any
	_ = json.Unmarshal([]byte(many), &out)
	if m := CheckStructured(context.Background(), "t", out, map[string]any{}); m == nil || !strings.Contains(m.String(), "more than 4096 subschemas") {
		t.Errorf("output warning = %v", m)
	}
	options := make([]string, 110)
	for i := range options {
		options[i] = fmt.Sprintf(`{"const":"o%d","title":"Option %d"}`, i, i)
	}
	props := make([]string, 50)
	for i := range props {
		props[i] = fmt.Sprintf(`"f%d":{"type":"string","oneOf":[%s]}`, i, strings.Join(options, ","))
	}
	_, err := ParseElicitation(json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`))
	var se *SchemaError
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "more than 4096 subschemas") {
		t.Errorf("elicitation: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}
