package forms

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseElicitation_Refused_E6(t *testing.T) {
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
		{"no schema at all", ``, "", "is missing"},
		{"a null schema", `null`, "", "is missing"},
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
		{"root that is not JSON", `{"type":`, "", "must be a JSON object"},
		{"type list", `{"type":"object","properties":{"a":{"type":["string","null"]}}}`, "a", "not a single name"},
		{"null type", `{"type":"object","properties":{"a":{"type":"null"}}}`, "a", `type "null"`},
		{"untyped property", `{"type":"object","properties":{"a":{"title":"A"}}}`, "a", "has no type"},
		{"unsupported format names the allowed ones", `{"type":"object","properties":{"a":{"type":"string","format":"ipv4"}}}`, "a", `format "ipv4"; allowed are date, date-time, email and uri`},
		{"allOf in a property", `{"type":"object","properties":{"a":{"type":"string","allOf":[]}}}`, "a", `"allOf"`},
		{"exclusiveMinimum is outside the subset", `{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":0}}}`, "a", `"exclusiveMinimum"`},
		{"min above max", `{"type":"object","properties":{"a":{"type":"integer","minimum":5,"maximum":1}}}`, "a", "minimum above its maximum"},
		{"minLength above maxLength", `{"type":"object","properties":{"a":{"type":"string","minLength":5,"maxLength":1}}}`, "a", "minLength above"},
		{"negative length", `{"type":"object","properties":{"a":{"type":"string","minLength":-1}}}`, "a", "not a whole number"},
		{"enumNames of the wrong length", `{"type":"object","properties":{"a":{"type":"string","enum":["x","y"],"enumNames":["X"]}}}`, "a", "enumNames"},
		{"duplicate choices", `{"type":"object","properties":{"a":{"type":"string","enum":["x","x"]}}}`, "a", `"x" twice`},
		{"an empty choice cannot be told from none", `{"type":"object","properties":{"a":{"enum":[""],"default":""}},"required":["a"]}`, "a", "empty choice"},
		{"oneOf entry without const", `{"type":"object","properties":{"a":{"type":"string","oneOf":[{"title":"X"}]}}}`, "a", "without a text const"},
		{"oneOf title that is not text", `{"type":"object","properties":{"a":{"type":"string","oneOf":[{"const":"x","title":1}]}}}`, "a", "title is not text"},
		{"default of the wrong type", `{"type":"object","properties":{"a":{"type":"boolean","default":"yes"}}}`, "a", "default"},
		{"default outside its limits", `{"type":"object","properties":{"a":{"type":"integer","minimum":1,"default":0}}}`, "a", "does not fit its own schema: Enter 1 or more."},
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
			_, err := ParseElicitation(json.RawMessage(tc.schema))
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

func TestParseElicitation_Normalizes_E7_E11(t *testing.T) {
	s, err := ParseElicitation(json.RawMessage(serverEverythingSchema))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Form.Fields {
		got = append(got, f.Name+":"+string(f.Kind))
	}
	want := "name:text check:boolean email:email birthdate:date integer:integer untitledMultipleSelectEnum:multi-select " +
		"titledSingleSelectEnum:single-select titledMultipleSelectEnum:multi-select legacyTitledEnum:single-select"
	if strings.Join(got, " ") != want {
		t.Errorf("fields in server order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	f := s.fields
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

func TestParseElicitation_Accepted(t *testing.T) {
	for _, s := range []string{
		`{}`,
		`{"type":"object"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}}}`,
		`{"type":"object","properties":{"c":{"enum":["x","y"]}}}`,
		`{"type":"object","properties":{"n":{"type":"number","minimum":0.5,"default":1.5}}}`,
		`{"type":"object","properties":{"c":{"type":"array","uniqueItems":true,"items":{"enum":["x"]}}}}`,
	} {
		if _, err := ParseElicitation(json.RawMessage(s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// TestParseElicitation_HintsSayTheLimits: what is written under each field
// before anyone types, from the schema's limits.
func TestParseElicitation_HintsSayTheLimits(t *testing.T) {
	s, err := ParseElicitation(json.RawMessage(`{"type":"object","properties":{
		"plain":{"type":"string"},
		"name":{"type":"string","minLength":2,"maxLength":20},
		"code":{"type":"string","maxLength":1},
		"nick":{"type":"string","minLength":1},
		"pin4":{"type":"string","minLength":4,"maxLength":4,"pattern":"^[0-9]+$"},
		"email":{"type":"string","format":"email"},
		"age":{"type":"integer","minimum":0,"maximum":150},
		"score":{"type":"number","maximum":2.5},
		"ok":{"type":"boolean"},
		"tags":{"type":"array","minItems":2,"maxItems":2,"items":{"enum":["a","b","c"]}},
		"more":{"type":"array","minItems":1,"items":{"enum":["a","b"]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"plain": "",
		"name":  "2 to 20 characters.",
		"code":  "At most one character.",
		"nick":  "At least one character.",
		"pin4":  "Exactly 4 characters. | Must match the pattern ^[0-9]+$.",
		"email": "An email address, like name@example.com.",
		"age":   "A whole number. | 0 to 150.",
		"score": "2.5 or less.",
		"ok":    "",
		"tags":  "Choose exactly 2.",
		"more":  "Choose at least 1.",
	}
	for _, f := range s.Form.Fields {
		var got []string
		for _, h := range f.Hints {
			got = append(got, h.String())
		}
		if strings.Join(got, " | ") != want[f.Name] {
			t.Errorf("%s: hints %q, want %q", f.Name, strings.Join(got, " | "), want[f.Name])
		}
	}
}

// TestParseElicitation_SecretFields_E17: the form names the fields that
// seem to ask for a secret, so the warning can name them.
func TestParseElicitation_SecretFields_E17(t *testing.T) {
	s, err := ParseElicitation(json.RawMessage(`{"type": "object", "properties": {"username": {"type": "string", "title": "Bank username"}, "password": {"type": "string", "title": "Bank password"}}, "required": ["username", "password"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Form.SecretFields, ","); got != "password" || !s.fields["password"].Sensitive || s.fields["username"].Sensitive {
		t.Errorf("secret fields = %q; fields %+v", got, s.Form.Fields)
	}
	plain, _ := ParseElicitation(json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`))
	if plain.Form.SecretFields == nil || len(plain.Form.SecretFields) != 0 {
		t.Errorf("an ordinary form has an empty list, not nil: %#v", plain.Form.SecretFields)
	}
}

// TestForm_JSONHasNoNullLists: the UI reads lists without checking for null.
func TestForm_JSONHasNoNullLists(t *testing.T) {
	for _, schema := range []string{`{}`, serverEverythingSchema} {
		s, err := ParseElicitation(json.RawMessage(schema))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(s.Form)
		if strings.Contains(string(b), "null") {
			t.Errorf("form JSON has null: %s", b)
		}
	}
	b, _ := json.Marshal(ParseTool("t", json.RawMessage(`{"type":"object","properties":{"x":{"type":"object"}}}`)).Form)
	for _, want := range []string{`"fields":[{`, `"options":[]`, `"hints":[{`, `"secretFields":[]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("tool form JSON lacks %s: %s", want, b)
		}
	}
}

func TestPropertyOrder(t *testing.T) {
	got := PropertyOrder([]byte(`{"title":"x","properties":{"zeta":{"type":"object","properties":{"in":{}}},"alpha":{},"mid":{}},"required":[]}`))
	if strings.Join(got, ",") != "zeta,alpha,mid" {
		t.Errorf("order = %v", got)
	}
}
