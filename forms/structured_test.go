package forms

import (
	"context"
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
		{"missing required property", schema, map[string]any{}, "does not match the tool's output schema: at /: missing property 'sum'"},
		{"wrong type names the location", schema, map[string]any{"sum": "three"}, "at /sum: got string, want number"},
		{"schema without content", schema, nil, "returned no structured content"},
		{"external $ref is refused, never loaded", decode(t, `{"$ref":"file:///etc/passwd"}`), map[string]any{}, "external document"},
		{"a result that fails in every row names ten problems and counts the rest",
			decode(t, `{"type":"object","properties":{"rows":{"type":"array","items":{"type":"string"}}}}`),
			map[string]any{"rows": []any{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}, "at /rows/9: got number, want string; and 2 more problems."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if m := CheckStructured(context.Background(), "t", tc.schema, tc.structured); m != nil {
				got = m.String()
			}
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("CheckStructured = %q, want %q", got, tc.want)
			}
		})
	}
}
