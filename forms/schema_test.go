package forms

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func mustElicitation(t *testing.T, schema string) *Schema {
	t.Helper()
	s, err := ParseElicitation(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestValidate_Elicitation_E13_E15(t *testing.T) {
	s := mustElicitation(t, `{"type":"object","properties":{
		"name":{"type":"string","minLength":2,"maxLength":5,"pattern":"^[a-z]+$"},
		"initial":{"type":"string","maxLength":1},
		"email":{"type":"string","format":"email"},
		"site":{"type":"string","format":"uri"},
		"born":{"type":"string","format":"date"},
		"at":{"type":"string","format":"date-time"},
		"age":{"type":"integer","minimum":0,"maximum":150},
		"score":{"type":"number","maximum":9.5},
		"ok":{"type":"boolean"},
		"size":{"type":"string","enum":["s","m"]},
		"tags":{"type":"array","minItems":1,"maxItems":2,"items":{"enum":["a","b","c"]}}},
		"required":["name","ok"]}`)
	with := func(k string, v any) map[string]any {
		m := map[string]any{"name": "abc", "ok": true}
		m[k] = v
		return m
	}
	cases := []struct {
		name   string
		values map[string]any
		field  string
		want   string // the sentence; "" = valid
	}{
		{"the minimum valid answer", map[string]any{"name": "abc", "ok": true}, "", ""},
		{"a required field left out", map[string]any{"ok": true}, "name", "This field is required."},
		{"a required field left empty", with("name", ""), "name", "This field is required."},
		{"a required field of blanks is empty", with("name", "   "), "name", "This field is required."},
		{"a required switch left unanswered asks for on or off", map[string]any{"name": "abc"}, "ok", "Switch it on or off: it is not answered yet."},
		{"a required switch sent as null is unanswered too", with("ok", nil), "ok", "Switch it on or off: it is not answered yet."},
		{"empty optional fields are omitted, not sent", with("email", ""), "", ""},
		{"an empty list is omitted", with("tags", []any{}), "", ""},
		{"too short", with("name", "a"), "name", "Use at least 2 characters."},
		{"too long", with("name", "abcdef"), "name", "Use at most 5 characters."},
		{"too long for one character", with("initial", "ab"), "initial", "Use at most one character."},
		{"pattern", with("name", "ABC"), "name", "This does not have the expected form (pattern ^[a-z]+$)."},
		{"email", with("email", "not-an-email"), "email", "Enter an email address, like name@example.com."},
		{"uri", with("site", "example.com"), "site", "Enter a full web address, like https://example.com/page."},
		{"date", with("born", "31/01/2026"), "born", "Enter a date as YYYY-MM-DD, like 2026-01-31."},
		{"date-time without offset", with("at", "2026-01-31T14:30:00"), "at", "Enter a date and time with a time zone, like 2026-01-31T14:30:00+01:00."},
		{"date-time with offset", with("at", "2026-01-31T14:30:00+01:00"), "", ""},
		{"integer with a fraction", with("age", 1.5), "age", "Enter a whole number."},
		{"integer as text", with("age", "seven"), "age", "Enter a whole number."},
		{"below minimum", with("age", -1.0), "age", "Enter 0 or more."},
		{"above a fractional maximum", with("score", 10.0), "score", "Enter 9.5 or less."},
		{"boolean as text", with("ok", "true"), "ok", "Choose yes or no."},
		{"not a choice", with("size", "xl"), "size", "Choose one of the listed options."},
		{"too many items", with("tags", []any{"a", "b", "c"}), "tags", "Choose at most 2."},
		{"unlisted item", with("tags", []any{"z"}), "tags", "Choose one of the listed options."},
		{"unknown field", with("extra", "x"), "extra", "This form has no such field."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			content, errs := s.Validate(tc.values)
			if tc.want == "" {
				if len(errs) > 0 {
					t.Fatalf("want valid, got %v", errs)
				}
				for k, v := range content {
					if isEmpty(v) {
						t.Errorf("the empty field %s was sent", k)
					}
				}
				return
			}
			if got := errs[tc.field].String(); got != tc.want {
				t.Errorf("errors = %v; want %s: %q", errs, tc.field, tc.want)
			}
			if content != nil {
				t.Error("content returned despite errors: nothing may be sent")
			}
		})
	}
}

// A switch sends what the person saw at Submit (E14): on, off, or, when
// nobody answered it and it has no default, nothing.
func TestValidate_Switch_E14(t *testing.T) {
	s := mustElicitation(t, `{"type":"object","properties":{
		"agree":{"type":"boolean"},
		"news":{"type":"boolean","default":false}}}`)
	cases := []struct {
		name   string
		values map[string]any
		want   map[string]any
	}{
		{"switched off is sent as false", map[string]any{"agree": false}, map[string]any{"agree": false}},
		{"switched on is sent as true", map[string]any{"agree": true}, map[string]any{"agree": true}},
		{"an unanswered optional switch is left out", map[string]any{}, map[string]any{}},
		{"a default shown as off is sent as off", map[string]any{"news": false}, map[string]any{"news": false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			content, errs := s.Validate(tc.values)
			if len(errs) > 0 {
				t.Fatalf("errors = %v", errs)
			}
			if !reflect.DeepEqual(content, tc.want) {
				t.Errorf("sent %v; want %v", content, tc.want)
			}
		})
	}
}

func TestValidate_ToolForm(t *testing.T) {
	s := ParseTool("t", json.RawMessage(`{"type":"object","properties":{
		"city":{"type":"string"},
		"days":{"type":"integer","minimum":1,"exclusiveMaximum":15},
		"options":{"type":"object","properties":{"units":{"enum":["metric","imperial"]}},"required":["units"],"additionalProperties":false},
		"tags":{"type":"array","items":{"type":"string"}}},
		"required":["city"]}`))
	cases := []struct {
		name    string
		values  map[string]any
		content string            // JSON of what is sent, when valid
		errs    map[string]string // else the sentences
	}{
		{"JSON fields are parsed, empty ones left out",
			map[string]any{"city": "Lima", "days": 3.0, "options": `{"units":"metric"}`, "tags": ""},
			`{"city":"Lima","days":3,"options":{"units":"metric"}}`, nil},
		{"a JSON field whose text is an empty value is as empty as a blank one (found by FuzzValidate)",
			map[string]any{"city": "Lima", "tags": `[]`, "options": `""`}, `{"city":"Lima"}`, nil},
		{"a free list is written as JSON",
			map[string]any{"city": "Lima", "tags": `["a", "b"]`}, `{"city":"Lima","tags":["a","b"]}`, nil},
		{"JSON that does not parse is said so",
			map[string]any{"city": "Lima", "options": `{units:`}, "",
			map[string]string{"options": "This is not valid JSON: invalid character 'u' looking for beginning of object key string"}},
		{"a problem inside a JSON value says where",
			map[string]any{"city": "Lima", "options": `{"units":"kelvin"}`}, "",
			map[string]string{"options": "At /units: Choose one of the listed options."}},
		{"a missing property inside a JSON value is named",
			map[string]any{"city": "Lima", "options": `{}`}, "",
			map[string]string{"options": "Missing: units."}},
		{"exclusive limits", map[string]any{"city": "Lima", "days": 15.0}, "",
			map[string]string{"days": "Enter less than 15."}},
		{"required and unknown", map[string]any{"town": "Lima"}, "",
			map[string]string{"city": "This field is required.", "town": "This form has no such field."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			content, errs := s.Validate(tc.values)
			got := map[string]string{}
			for k, m := range errs {
				got[k] = m.String()
			}
			if tc.errs != nil {
				if !equalMaps(got, tc.errs) {
					t.Errorf("errors = %v, want %v", got, tc.errs)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("want valid, got %v", got)
			}
			if b, _ := json.Marshal(content); string(b) != tc.content {
				t.Errorf("content = %s, want %s", b, tc.content)
			}
		})
	}
}

// TestCheck_Arguments: arguments written as JSON are judged as they are;
// nothing is left out or converted, so the server gets what the person saw.
func TestCheck_Arguments(t *testing.T) {
	closed := ParseTool("t", json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`))
	open := ParseTool("t", json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"additionalProperties":{"type":"number"}}`))
	silent := ParseTool("t", json.RawMessage(`{"type":"object"}`))
	none := ParseTool("t", json.RawMessage(`{"type":"object","additionalProperties":false}`))
	rootOnly := ParseTool("t", json.RawMessage(`{"oneOf":[{"required":["a"]},{"required":["b"]}]}`))
	unusable := ParseTool("t", json.RawMessage(`{"$ref":"https://evil.example/schema.json"}`))
	cases := []struct {
		name   string
		schema *Schema
		args   string
		want   map[string]string
	}{
		{"valid arguments", closed, `{"city":"Lima","days":2}`, map[string]string{}},
		{"an empty string is sent, and so judged", closed, `{"city":""}`, map[string]string{}},
		{"a misspelt argument is refused", closed, `{"city":"Lima","dayz":2}`, map[string]string{"dayz": "This form has no such field."}},
		{"a wrong type", closed, `{"city":"Lima","days":"2"}`, map[string]string{"days": "Enter a whole number."}},
		{"a missing required argument", closed, `{}`, map[string]string{"city": "This field is required."}},
		{"more arguments where the schema welcomes them", open, `{"city":"Lima","extra":1}`, map[string]string{}},
		{"and their schema applies", open, `{"extra":"one"}`, map[string]string{"extra": "Enter a value of type number."}},
		{"a schema that names no property leaves arguments to the server", silent, `{"anything":1}`, map[string]string{}},
		{"a schema that allows none refuses them", none, `{"anything":1}`, map[string]string{"anything": "This form has no such field."}},
		{"a root a form cannot show is still checked", rootOnly, `{"a":1}`, map[string]string{}},
		{"and its failures belong to the whole", rootOnly, `{}`, map[string]string{"": "This fits none of the shapes the schema allows."}},
		{"a schema Gatehouse cannot compile leaves the checking to the server", unusable, `{"anything":1}`, map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var args map[string]any
			if err := json.Unmarshal([]byte(tc.args), &args); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for k, m := range tc.schema.Check(args) {
				got[k] = m.String()
			}
			if !equalMaps(got, tc.want) {
				t.Errorf("Check = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDraft_KeepsWhatDoesNotConvert(t *testing.T) {
	s := ParseTool("t", json.RawMessage(`{"type":"object","properties":{"a":{"type":"object"},"b":{"type":"object"},"c":{"type":"string"}}}`))
	got, _ := json.Marshal(s.Draft(map[string]any{"a": `{"x":1}`, "b": `{x`, "c": ""}))
	if string(got) != `{"a":{"x":1},"b":"{x"}` {
		t.Errorf("draft = %s", got)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !strings.EqualFold(v, w) || v != w {
			return false
		}
	}
	return true
}
