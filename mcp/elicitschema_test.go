package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseRequestedSchema_Refused_E6(t *testing.T) {
	long := strings.Repeat("a", MaxPatternLength+1)
	many := func(n int) string {
		var p []string
		for i := range n {
			p = append(p, fmt.Sprintf(`"f%d":{"type":"string"}`, i))
		}
		return `{"type":"object","properties":{` + strings.Join(p, ",") + `}}`
	}
	manyOptions := func(n int) string {
		var o []string
		for i := range n {
			o = append(o, fmt.Sprintf(`"o%d"`, i))
		}
		return `{"type":"object","properties":{"c":{"type":"string","enum":[` + strings.Join(o, ",") + `]}}}`
	}
	cases := []struct {
		name, schema string
		property     string // the property the error names
		problem      string // substring of the problem
	}{
		{"nested object", `{"type":"object","properties":{"addr":{"type":"object","properties":{"x":{"type":"string"}}}}}`, "addr", "nested object"},
		{"array of objects", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object"}}}}`, "l", "items that are not strings"},
		{"array of free strings", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}}}`, "l", "without choices"},
		{"$ref in a property", `{"type":"object","properties":{"a":{"$ref":"#/x"}}}`, "a", "has no type"},
		{"$ref beside a type", `{"type":"object","properties":{"a":{"type":"string","$ref":"file:///etc/passwd"}}}`, "a", `"$ref"`},
		{"$ref at the root", `{"$ref":"https://evil.example/schema.json"}`, "", `"$ref"`},
		{"$defs at the root", `{"type":"object","$defs":{}}`, "", `"$defs"`},
		{"unknown $schema URL is never loaded", `{"$schema":"https://evil.example/meta","type":"object"}`, "", "nothing is loaded"},
		{"root that is not an object type", `{"type":"string"}`, "", `type "object"`},
		{"root that is not JSON object", `[1,2]`, "", "must be a JSON object"},
		{"type list", `{"type":"object","properties":{"a":{"type":["string","null"]}}}`, "a", "not a single name"},
		{"null type", `{"type":"object","properties":{"a":{"type":"null"}}}`, "a", `type "null"`},
		{"untyped property", `{"type":"object","properties":{"a":{"title":"A"}}}`, "a", "has no type"},
		{"unsupported format", `{"type":"object","properties":{"a":{"type":"string","format":"ipv4"}}}`, "a", `format "ipv4"`},
		{"allOf in a property", `{"type":"object","properties":{"a":{"type":"string","allOf":[]}}}`, "a", `"allOf"`},
		{"exclusiveMinimum is outside the subset", `{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":0}}}`, "a", `"exclusiveMinimum"`},
		{"min above max", `{"type":"object","properties":{"a":{"type":"integer","minimum":5,"maximum":1}}}`, "a", "minimum above its maximum"},
		{"minLength above maxLength", `{"type":"object","properties":{"a":{"type":"string","minLength":5,"maxLength":1}}}`, "a", "minLength above"},
		{"negative length", `{"type":"object","properties":{"a":{"type":"string","minLength":-1}}}`, "a", "not a whole number"},
		{"enumNames of the wrong length", `{"type":"object","properties":{"a":{"type":"string","enum":["x","y"],"enumNames":["X"]}}}`, "a", "enumNames"},
		{"duplicate choices", `{"type":"object","properties":{"a":{"type":"string","enum":["x","x"]}}}`, "a", `"x" twice`},
		{"oneOf entry without const", `{"type":"object","properties":{"a":{"type":"string","oneOf":[{"title":"X"}]}}}`, "a", "without a text const"},
		{"default of the wrong type", `{"type":"object","properties":{"a":{"type":"boolean","default":"yes"}}}`, "a", "default"},
		{"default outside its limits", `{"type":"object","properties":{"a":{"type":"integer","minimum":1,"default":0}}}`, "a", "does not fit"},
		{"default not among the choices", `{"type":"object","properties":{"a":{"type":"string","enum":["x"],"default":"y"}}}`, "a", "does not fit"},
		{"required but undefined", `{"type":"object","properties":{},"required":["ghost"]}`, "ghost", "not defined"},
		{"broken pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`, "a", "cannot be used"},
		{"pattern over the cap", `{"type":"object","properties":{"a":{"type":"string","pattern":"` + long + `"}}}`, "a", "over the limit"},
		{"too many properties", many(MaxProperties + 1), "", "over the limit of 50"},
		{"too many options", manyOptions(MaxEnumOptions + 1), "c", "over the limit of 500"},
		{"too deep", `{"type":"object","properties":{"a":{"type":"string","default":[[[[[1]]]]]}}}`, "", "nested"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseRequestedSchema(json.RawMessage(tc.schema), nil)
			var se *SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a SchemaError", err)
			}
			if se.Property != tc.property || !strings.Contains(se.Problem, tc.problem) {
				t.Errorf("got property %q problem %q; want %q and %q", se.Property, se.Problem, tc.property, tc.problem)
			}
		})
	}
}

// serverEverythingSchema is the requestedSchema of server-everything's
// trigger-elicitation-request tool (shortened), a real-world example.
const serverEverythingSchema = `{"type":"object","properties":{
 "name":{"title":"String","type":"string","description":"Your full, legal name"},
 "check":{"title":"Boolean","type":"boolean"},
 "email":{"type":"string","format":"email"},
 "birthdate":{"type":"string","format":"date"},
 "integer":{"type":"integer","minimum":1,"maximum":100,"default":42},
 "untitledMultipleSelectEnum":{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string","enum":["Guitar","Piano"]},"default":["Guitar"]},
 "titledSingleSelectEnum":{"type":"string","oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Green Lantern"}],"default":"hero-1"},
 "titledMultipleSelectEnum":{"type":"array","items":{"anyOf":[{"const":"fish-1","title":"Tuna"}]}},
 "legacyTitledEnum":{"type":"string","enum":["pet-1","pet-2"],"enumNames":["Cats","Dogs"]}},
 "required":["name"]}`

func TestParseRequestedSchema_Normalizes_E7_E11(t *testing.T) {
	fs, err := ParseRequestedSchema(json.RawMessage(serverEverythingSchema), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs.Form.Fields {
		got = append(got, f.Name+":"+f.Kind)
	}
	want := "name:text check:boolean email:email birthdate:date integer:integer untitledMultipleSelectEnum:multi-select " +
		"titledSingleSelectEnum:single-select titledMultipleSelectEnum:multi-select legacyTitledEnum:single-select"
	if strings.Join(got, " ") != want {
		t.Errorf("fields in server order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	f := fs.fields
	if !f["name"].Required || f["name"].Label != "String" || f["email"].Label != "email" {
		t.Errorf("labels/required: %+v %+v", f["name"], f["email"])
	}
	if o := f["legacyTitledEnum"].Options; o[1] != (Option{"pet-2", "Dogs"}) {
		t.Errorf("legacy enumNames become labels (E10): %+v", o)
	}
	if o := f["titledSingleSelectEnum"].Options; o[1] != (Option{"hero-2", "Green Lantern"}) {
		t.Errorf("oneOf titles become labels (E10): %+v", o)
	}
	if o := f["titledMultipleSelectEnum"].Options; o[0] != (Option{"fish-1", "Tuna"}) {
		t.Errorf("items.anyOf titles become labels (E11): %+v", o)
	}
	if i := f["integer"]; i.Default != 42.0 || *i.Minimum != 1 || *i.Maximum != 100 {
		t.Errorf("integer default and limits (E8, E12): %+v", i)
	}
	if m := f["untitledMultipleSelectEnum"]; *m.MinItems != 1 || *m.MaxItems != 3 || len(m.Default.([]any)) != 1 {
		t.Errorf("multi-select limits and default (E11, E12): %+v", m)
	}
}

func TestParseRequestedSchema_Accepted(t *testing.T) {
	for _, s := range []string{
		`null`,
		`{}`,
		`{"type":"object"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}}}`,
		`{"type":"object","properties":{"c":{"enum":["x","y"]}}}`,
		`{"type":"object","properties":{"n":{"type":"number","minimum":0.5,"default":1.5}}}`,
		`{"type":"object","properties":{"c":{"type":"array","uniqueItems":true,"items":{"enum":["x"]}}}}`,
	} {
		if _, err := ParseRequestedSchema(json.RawMessage(s), nil); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

func TestFormSchema_Validate_E13_E15(t *testing.T) {
	fs, err := ParseRequestedSchema(json.RawMessage(`{"type":"object","properties":{
		"name":{"type":"string","minLength":2,"maxLength":5,"pattern":"^[a-z]+$"},
		"email":{"type":"string","format":"email"},
		"site":{"type":"string","format":"uri"},
		"born":{"type":"string","format":"date"},
		"at":{"type":"string","format":"date-time"},
		"age":{"type":"integer","minimum":0,"maximum":150},
		"score":{"type":"number","maximum":9.5},
		"ok":{"type":"boolean"},
		"size":{"type":"string","enum":["s","m"]},
		"tags":{"type":"array","minItems":1,"maxItems":2,"items":{"enum":["a","b","c"]}}},
		"required":["name","ok"]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	valid := map[string]any{"name": "abc", "ok": true}
	with := func(k string, v any) map[string]any {
		m := map[string]any{"name": "abc", "ok": true}
		m[k] = v
		return m
	}
	cases := []struct {
		name   string
		values map[string]any
		field  string
		want   string // "" = valid
	}{
		{"the minimum valid answer", valid, "", ""},
		{"a required field left out", map[string]any{"ok": true}, "name", "This field is required."},
		{"a required field left empty", with("name", ""), "name", "This field is required."},
		{"empty optional fields are omitted, not sent", with("email", ""), "", ""},
		{"too short", with("name", "a"), "name", "Use at least 2 characters."},
		{"too long", with("name", "abcdef"), "name", "Use at most 5 characters."},
		{"pattern", with("name", "ABC"), "name", "expected form"},
		{"email", with("email", "not-an-email"), "email", "Enter an email address"},
		{"uri", with("site", "example.com"), "site", "full web address"},
		{"date", with("born", "31/01/2026"), "born", "YYYY-MM-DD"},
		{"date-time without offset", with("at", "2026-01-31T14:30:00"), "at", "with a time zone"},
		{"date-time with offset", with("at", "2026-01-31T14:30:00+01:00"), "", ""},
		{"integer with a fraction", with("age", 1.5), "age", "whole number"},
		{"integer as text", with("age", "7"), "age", "whole number"},
		{"below minimum", with("age", -1.0), "age", "Enter 0 or more."},
		{"above a fractional maximum", with("score", 10.0), "score", "Enter 9.5 or less."},
		{"boolean as text", with("ok", "true"), "ok", "Choose yes or no."},
		{"not a choice", with("size", "xl"), "size", "Choose one of the listed options."},
		{"too many items", with("tags", []any{"a", "b", "c"}), "tags", "Choose at most 2."},
		{"unlisted item", with("tags", []any{"z"}), "tags", "Choose one of the listed options."},
		{"unknown field", with("extra", "x"), "extra", "no such field"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			content, errs := fs.Validate(tc.values)
			if tc.want == "" {
				if len(errs) > 0 {
					t.Fatalf("want valid, got %v", errs)
				}
				if _, sent := content["email"]; sent {
					t.Error("an empty optional field was sent")
				}
				return
			}
			if !strings.Contains(errs[tc.field], tc.want) {
				t.Errorf("errors = %v; want %s: %q", errs, tc.field, tc.want)
			}
			if content != nil {
				t.Error("content returned despite errors: nothing may be sent")
			}
		})
	}
}

func TestPropertyOrder(t *testing.T) {
	got := PropertyOrder([]byte(`{"title":"x","properties":{"zeta":{"type":"object","properties":{"in":{}}},"alpha":{},"mid":{}},"required":[]}`))
	if strings.Join(got, ",") != "zeta,alpha,mid" {
		t.Errorf("order = %v", got)
	}
}
