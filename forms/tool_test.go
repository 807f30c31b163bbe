package forms

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseTool(t *testing.T) {
	cases := []struct {
		name       string
		schema     string
		reason     string // substring of Reason when the form is incomplete
		wantFields string // "name:kind:required" joined by spaces, in order
	}{
		{"empty object gives an empty form", `{"type":"object"}`, "", ""},
		{"no schema gives an empty form", ``, "", ""},
		{"required fields first, each group in the server's order",
			`{"type":"object","properties":{"b":{"type":"string"},"z":{"type":"boolean"},"a":{"type":"integer"},"y":{"type":"number"}},"required":["y","z"]}`,
			"", "z:boolean:true y:number:true b:text:false a:integer:false"},
		{"string formats become typed inputs",
			`{"type":"object","properties":{"e":{"type":"string","format":"email"},"u":{"type":"string","format":"uri"},"d":{"type":"string","format":"date"},"t":{"type":"string","format":"date-time"},"i":{"type":"string","format":"ipv4"}}}`,
			"", "e:email:false u:uri:false d:date:false t:date-time:false i:text:false"},
		{"plain enum is a single select", `{"type":"object","properties":{"c":{"type":"string","enum":["r","g"]}}}`, "", "c:single-select:false"},
		{"array of enum is a multi select", `{"type":"object","properties":{"c":{"type":"array","items":{"enum":["r","g"]}}}}`, "", "c:multi-select:false"},
		{"array of anyOf consts is a multi select", `{"type":"object","properties":{"c":{"type":"array","items":{"anyOf":[{"const":"r","title":"Red"}]}}}}`, "", "c:multi-select:false"},
		{"a nested object is written as JSON", `{"type":"object","properties":{"o":{"type":"object"},"s":{"type":"string"}}}`, "", "o:json:false s:text:false"},
		{"a free list is written as JSON", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}}}`, "", "l:json:false"},
		{"an untyped property is written as JSON", `{"type":"object","properties":{"x":{}}}`, "", "x:json:false"},
		{"a property that is a boolean schema is written as JSON", `{"type":"object","properties":{"x":true}}`, "", "x:json:false"},
		{"a $ref property is written as JSON", `{"type":"object","$defs":{"p":{"type":"object"}},"properties":{"x":{"$ref":"#/$defs/p"}}}`, "", "x:json:false"},
		{"numbers as choices are entered as numbers", `{"type":"object","properties":{"n":{"type":"integer","enum":[1,2]}}}`, "", "n:integer:false"},
		{"a required property that is not defined is still asked for", `{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}`, "", "b:json:true a:text:false"},
		{"Optional[str] as Python writes it is a text field",
			`{"type":"object","properties":{"q":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null,"title":"Query"}}}`, "", "q:text:false"},
		{"a type list with null is its other type", `{"type":"object","properties":{"n":{"type":["integer","null"]}}}`, "", "n:integer:false"},
		{"a broken pattern is left to the server", `{"type":"object","properties":{"x":{"type":"string","pattern":"(?=lookahead)"}}}`, "", "x:text:false"},
		{"$ref at the root cannot be a form", `{"$ref":"#/$defs/x","$defs":{"x":{"type":"object"}}}`, `uses $ref`, ""},
		{"oneOf at the root cannot be a form", `{"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}]}`, `uses oneOf`, ""},
		{"a non-object schema cannot be a form", `{"type":"string"}`, "has type string, not object", ""},
		{"an array is not a schema", `[1]`, "is not a JSON object", ""},
		{"an external reference is never loaded", `{"type":"object","properties":{"x":{"$ref":"file:///etc/passwd"}}}`, "external document", ""},
		{"an unknown meta-schema is never loaded", `{"$schema":"https://evil.example/meta","type":"object"}`, "external document", ""},
		{"a huge schema is left to the server", `{"type":"object","description":"` + strings.Repeat("x", maxToolSchemaBytes) + `"}`, "too large", ""},
		{"a deep schema is left to the server", `{"type":"object","properties":{"x":` + strings.Repeat(`{"items":`, maxToolSchemaDepth) + `{}` + strings.Repeat(`}`, maxToolSchemaDepth) + `}}`, "too deeply", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := ParseTool("t", json.RawMessage(tc.schema)).Form
			reason := ""
			if f.Reason != nil {
				reason = f.Reason.String()
			}
			if f.Complete != (tc.reason == "") || !strings.Contains(reason, tc.reason) {
				t.Fatalf("complete = %v, reason %q; want reason %q", f.Complete, reason, tc.reason)
			}
			var got []string
			for _, fl := range f.Fields {
				got = append(got, fl.Name+":"+string(fl.Kind)+":"+map[bool]string{true: "true", false: "false"}[fl.Required])
			}
			if s := strings.Join(got, " "); s != tc.wantFields {
				t.Errorf("fields = %q, want %q", s, tc.wantFields)
			}
		})
	}
}

func TestParseTool_OptionsLimitsAndHints(t *testing.T) {
	s := ParseTool("t", json.RawMessage(`{"type":"object","properties":{
		"legacy":{"type":"string","title":"Colour","enum":["r","g"],"enumNames":["Red","Green"]},
		"titled":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l"}]},
		"n":{"type":"number","minimum":1.5,"maximum":9,"default":2},
		"level":{"type":"integer","enum":[1,2,3]},
		"meta":{"type":"object","description":"Free-form"},
		"s":{"type":"string","minLength":2,"maxLength":5,"pattern":"^[a-z]+$"},
		"apiKey":{"type":"string","title":"API key"}}}`))
	f := s.fields
	if l := f["legacy"]; l.Label != "Colour" || len(l.Options) != 2 || l.Options[0] != (Option{"r", "Red"}) || l.Options[1] != (Option{"g", "Green"}) {
		t.Errorf("legacy enumNames: %+v", l)
	}
	if o := f["titled"].Options; len(o) != 2 || o[0] != (Option{"s", "Small"}) || o[1] != (Option{"l", "l"}) {
		t.Errorf("oneOf options: %+v", o)
	}
	if n := f["n"]; n.Minimum == nil || *n.Minimum != 1.5 || n.Maximum == nil || *n.Maximum != 9 || n.Default != 2.0 {
		t.Errorf("number limits: %+v", n)
	}
	if x := f["s"]; x.MinLength == nil || *x.MinLength != 2 || *x.MaxLength != 5 || x.Pattern != "^[a-z]+$" {
		t.Errorf("string limits: %+v", x)
	}
	hints := func(name string) string {
		var out []string
		for _, h := range f[name].Hints {
			out = append(out, h.String())
		}
		return strings.Join(out, " | ")
	}
	for name, want := range map[string]string{
		"n":     "1.5 to 9.",
		"level": "A whole number. | One of [1,2,3].",
		"meta":  "Write this value as JSON.",
		"s":     "2 to 5 characters. | Must match the pattern ^[a-z]+$.",
	} {
		if got := hints(name); got != want {
			t.Errorf("%s: hints %q, want %q", name, got, want)
		}
	}
	if strings.Join(s.Form.SecretFields, ",") != "apiKey" {
		t.Errorf("secret fields = %v", s.Form.SecretFields)
	}
}
