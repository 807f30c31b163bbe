package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestToolForm(t *testing.T) {
	cases := []struct {
		name       string
		schema     string
		complete   bool
		reason     string // substring, when incomplete
		wantFields string // "name:kind:required" joined by spaces, in order
	}{
		{"empty object gives an empty complete form", `{"type":"object"}`, true, "", ""},
		{"required fields come first, then by name",
			`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"},"z":{"type":"boolean"}},"required":["z"]}`,
			true, "", "z:boolean:true a:integer:false b:text:false"},
		{"string formats become typed inputs",
			`{"type":"object","properties":{"e":{"type":"string","format":"email"},"u":{"type":"string","format":"uri"},"d":{"type":"string","format":"date"},"t":{"type":"string","format":"date-time"}}}`,
			true, "", "d:date:false e:email:false t:date-time:false u:uri:false"},
		{"plain enum is a single select", `{"type":"object","properties":{"c":{"type":"string","enum":["r","g"]}}}`, true, "", "c:single-select:false"},
		{"array of enum is a multi select", `{"type":"object","properties":{"c":{"type":"array","items":{"enum":["r","g"]}}}}`, true, "", "c:multi-select:false"},
		{"array of anyOf consts is a multi select", `{"type":"object","properties":{"c":{"type":"array","items":{"anyOf":[{"const":"r","title":"Red"}]}}}}`, true, "", "c:multi-select:false"},
		{"nested object needs the JSON editor", `{"type":"object","properties":{"o":{"type":"object"}}}`, false, `property "o" is of type object`, ""},
		{"free array needs the JSON editor", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}}}`, false, `property "l" is a list`, ""},
		{"$ref needs the JSON editor", `{"$ref":"#/$defs/x"}`, false, `"$ref"`, ""},
		{"a non-object schema is refused", `{"type":"string"}`, false, "not object", ""},
		{"an untyped property needs the JSON editor", `{"type":"object","properties":{"x":{}}}`, false, "has no type", ""},
		{"a broken pattern is refused", `{"type":"object","properties":{"x":{"type":"string","pattern":"("}}}`, false, "pattern", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := ToolForm(decode(t, tc.schema))
			if f.Complete != tc.complete {
				t.Fatalf("complete = %v (reason %q), want %v", f.Complete, f.Reason, tc.complete)
			}
			if !tc.complete && !strings.Contains(f.Reason, tc.reason) {
				t.Errorf("reason = %q, want it to contain %q", f.Reason, tc.reason)
			}
			var got []string
			for _, fl := range f.Fields {
				got = append(got, fl.Name+":"+fl.Kind+":"+map[bool]string{true: "true", false: "false"}[fl.Required])
			}
			if s := strings.Join(got, " "); s != tc.wantFields {
				t.Errorf("fields = %q, want %q", s, tc.wantFields)
			}
		})
	}
}

func TestToolForm_OptionsAndLimits(t *testing.T) {
	f := ToolForm(decode(t, `{"type":"object","properties":{
		"legacy":{"type":"string","title":"Colour","enum":["r","g"],"enumNames":["Red","Green"]},
		"titled":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l"}]},
		"n":{"type":"number","minimum":1.5,"maximum":9,"default":2},
		"s":{"type":"string","minLength":2,"maxLength":5,"pattern":"^[a-z]+$"}}}`))
	byName := map[string]Field{}
	for _, fl := range f.Fields {
		byName[fl.Name] = fl
	}
	if l := byName["legacy"]; l.Label != "Colour" || len(l.Options) != 2 || l.Options[0] != (Option{"r", "Red"}) || l.Options[1] != (Option{"g", "Green"}) {
		t.Errorf("legacy enumNames: %+v", l)
	}
	if o := byName["titled"].Options; len(o) != 2 || o[0] != (Option{"s", "Small"}) || o[1] != (Option{"l", "l"}) {
		t.Errorf("oneOf options: %+v", o)
	}
	if n := byName["n"]; n.Minimum == nil || *n.Minimum != 1.5 || n.Maximum == nil || *n.Maximum != 9 || n.Default != 2.0 {
		t.Errorf("number limits: %+v", n)
	}
	if s := byName["s"]; s.MinLength == nil || *s.MinLength != 2 || *s.MaxLength != 5 || s.Pattern != "^[a-z]+$" {
		t.Errorf("string limits: %+v", s)
	}
}

func TestLooksSensitive_E17(t *testing.T) {
	cases := []struct {
		name, label, desc string
		want              bool
	}{
		{"password", "", "", true},
		{"userPassword", "", "", true},
		{"x", "API key", "", true},
		{"x", "", "Your GitHub token", true},
		{"card_number", "", "", true},
		{"pin", "PIN", "", true},
		{"code", "One-time code", "", true},
		{"x", "银行卡号", "", true},
		{"passenger", "Passenger name", "", false},
		{"compass", "Compass heading", "", false},
		{"email", "Email", "where we send the receipt", false},
		{"city", "City", "", false},
	}
	for _, tc := range cases {
		f := Field{Name: tc.name, Label: tc.label, Description: tc.desc}
		if got := looksSensitive(f); got != tc.want {
			t.Errorf("looksSensitive(%q/%q/%q) = %v, want %v", tc.name, tc.label, tc.desc, got, tc.want)
		}
	}
}

func TestCheckStructured_E31(t *testing.T) {
	schema := decode(t, `{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`)
	cases := []struct {
		name       string
		schema     any
		structured any
		want       string // substring; "" means no warning
	}{
		{"matching content has no warning", schema, map[string]any{"sum": 3}, ""},
		{"no output schema, nothing to check", nil, map[string]any{"x": 1}, ""},
		{"missing required property", schema, map[string]any{}, "does not match"},
		{"wrong type names the location", schema, map[string]any{"sum": "three"}, "at /sum"},
		{"schema without content", schema, nil, "returned no structured content"},
		{"external $ref is refused, never loaded", decode(t, `{"$ref":"file:///etc/passwd"}`), map[string]any{}, "external document"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckStructured(tc.schema, tc.structured)
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("CheckStructured = %q, want %q", got, tc.want)
			}
		})
	}
}
