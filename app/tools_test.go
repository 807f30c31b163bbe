package app

import (
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools pane keeps a person's draft while a tool's input schema stays
// the same and drops it when the server changes the schema; it tells the
// two apart by the list's schema id alone.
func TestSchemaID_ChangesWithTheSchemaOnly(t *testing.T) {
	tool := func(name, schema string) *sdk.Tool {
		return &sdk.Tool{Name: name, InputSchema: json.RawMessage(schema)}
	}
	cases := []struct {
		name string
		a, b *sdk.Tool
		same bool
	}{
		{"the same schema listed again", tool("t", `{"type":"object"}`), tool("t", `{"type":"object"}`), true},
		{"another tool with the same schema", tool("t", `{"type":"object"}`), tool("u", `{"type":"object"}`), true},
		{"a property added", tool("t", `{"type":"object"}`), tool("t", `{"type":"object","properties":{"a":{}}}`), false},
		{"a property renamed", tool("t", `{"properties":{"a":{}}}`), tool("t", `{"properties":{"b":{}}}`), false},
		{"a decoded schema and its JSON", &sdk.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}, tool("t", `{"type":"object"}`), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := schemaID(c.a), schemaID(c.b)
			if a == "" || b == "" {
				t.Fatalf("empty schema id: %q, %q", a, b)
			}
			if (a == b) != c.same {
				t.Errorf("schema ids %q and %q: same = %v, want %v", a, b, a == b, c.same)
			}
		})
	}
}
