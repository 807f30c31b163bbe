package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// wireView is what each side reads from rewritten params: the SDK decodes
// requestedSchema, the broker reads the carried schema from _meta.
type wireView struct {
	sdkSchema string // requestedSchema as the SDK sees it, compacted; "" when absent
	carried   string // the carried schema, byte for byte; "" when absent
	meta      map[string]any
	rest      map[string]any // every other member
}

func readWire(t *testing.T, params []byte) wireView {
	t.Helper()
	var p sdk.ElicitParams
	if err := json.Unmarshal(params, &p); err != nil {
		t.Fatalf("the SDK cannot decode the rewritten params: %v\n%s", err, params)
	}
	var v wireView
	if p.RequestedSchema != nil {
		b, _ := json.Marshal(p.RequestedSchema)
		v.sdkSchema = string(b)
	}
	if raw, ok := rawSchemaOf(p.Meta); ok {
		v.carried = string(raw)
	}
	v.meta = map[string]any(p.Meta)
	_ = json.Unmarshal(params, &v.rest)
	delete(v.rest, "_meta")
	delete(v.rest, "requestedSchema")
	return v
}

// TestCarrySchema_E14: the schema the server wrote reaches the broker byte
// for byte, the SDK sees no schema (so it applies no default), and
// everything else in the params is kept.
func TestCarrySchema_E14(t *testing.T) {
	const schema = `{"type":"object","properties":{"zeta":{"type":"string","default":"z"},"alpha":{"type":"boolean","default":true}}}`
	cases := []struct {
		name, in    string
		wantCarried string
		wantMeta    map[string]any // besides the carried schema
	}{
		{"compact", `{"message":"m","requestedSchema":` + schema + `}`, schema, nil},
		{"spaced, order and spacing of the schema kept", " {\n  \"message\": \"m\",\n  \"requestedSchema\": { \"properties\": {\"zeta\": {}, \"alpha\": {}} }\n} ",
			`{ "properties": {"zeta": {}, "alpha": {}} }`, nil},
		{"an existing _meta is kept", `{"_meta":{"progressToken":1},"message":"m","requestedSchema":` + schema + `}`, schema, map[string]any{"progressToken": 1.0}},
		{"_meta after the schema", `{"message":"m","requestedSchema":` + schema + `,"_meta":{"k":"v"}}`, schema, map[string]any{"k": "v"}},
		{"a null _meta", `{"_meta":null,"requestedSchema":` + schema + `}`, schema, nil},
		{"a schema the server smuggled into _meta is replaced", `{"_meta":{"` + RawSchemaMeta + `":"{}"},"requestedSchema":` + schema + `}`, schema, nil},
		{"a smuggled schema without a requestedSchema is removed", `{"_meta":{"` + RawSchemaMeta + `":"{}","k":1},"message":"m"}`, "", map[string]any{"k": 1.0}},
		{"a null requestedSchema is no schema", `{"message":"m","requestedSchema":null}`, "", nil},
		{"a repeated requestedSchema: the last wins, as in the SDK", `{"requestedSchema":{"a":1},"message":"m","requestedSchema":` + schema + `}`, schema, nil},
		{"a repeated _meta: the last wins", `{"_meta":{"x":1},"requestedSchema":` + schema + `,"_meta":{"y":2}}`, schema, map[string]any{"y": 2.0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := carrySchema(json.RawMessage(tc.in))
			got, before := readWire(t, out), readWire(t, []byte(tc.in))
			if got.carried != tc.wantCarried {
				t.Errorf("carried %q, want %q", got.carried, tc.wantCarried)
			}
			if got.sdkSchema != "" {
				t.Errorf("the SDK sees the schema %q, want none", got.sdkSchema)
			}
			delete(got.meta, RawSchemaMeta)
			if len(got.meta) != len(tc.wantMeta) {
				t.Errorf("_meta = %v, want %v besides the schema", got.meta, tc.wantMeta)
			}
			for k, v := range tc.wantMeta {
				if got.meta[k] != v {
					t.Errorf("_meta[%s] = %v, want %v", k, got.meta[k], v)
				}
			}
			if g, w := mustJSON(got.rest), mustJSON(before.rest); g != w {
				t.Errorf("other members changed: %s, was %s", g, w)
			}
		})
	}
}

func TestCarrySchema_LeavesAlone(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"a URL request", `{"mode":"url","message":"m","url":"https://example.com/","elicitationId":"1"}`},
		{"a form without a schema", `{"message":"no schema"}`},
		{"broken JSON", `{"requestedSchema":{`},
		{"not an object", `["requestedSchema"]`},
		{"a _meta that is not an object (the SDK refuses it)", `{"_meta":"x","requestedSchema":{}}`},
		{"trailing data", `{"requestedSchema":{}} {}`},
		{"a schema that is not UTF-8 (the broker refuses it)", "{\"requestedSchema\":{\"\x93\":{}}}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out := carrySchema(json.RawMessage(tc.in)); string(out) != tc.in {
				t.Errorf("changed to %s", out)
			}
		})
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestRewriteLine_CarriesSchema(t *testing.T) {
	const schema = `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"}}}`
	req := `{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"m","requestedSchema":` + schema + `,"_meta":{"progressToken":1}}}`
	cases := []struct {
		name, line string
		rewritten  bool
	}{
		{"an SSE data line", "data: " + req + "\n", true},
		{"input requests in a tools/call result", `data: {"jsonrpc":"2.0","id":4,"result":{"inputRequests":{"q":{"method":"elicitation/create","params":{"message":"m","requestedSchema":` + schema + `,"_meta":{"progressToken":1}}}},"requestState":"s"}}` + "\n", true},
		{"a JSON body line", req + "\r\n", true},
		{"another method is left alone", `data: {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"elicitation/create"}}` + "\n", false},
		{"an event name line is left alone", "event: message\n", false},
		{"broken JSON is passed through", "data: {elicitation/create\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := string(rewriteLine([]byte(tc.line)))
			if !tc.rewritten {
				if out != tc.line {
					t.Errorf("changed: %q", out)
				}
				return
			}
			if !strings.HasSuffix(out, tc.line[len(strings.TrimRight(tc.line, "\r\n")):]) {
				t.Errorf("line ending lost: %q", out)
			}
			payload := strings.TrimPrefix(strings.TrimSpace(out), "data: ")
			var msg struct {
				Params json.RawMessage `json:"params"`
				Result struct {
					InputRequests map[string]struct {
						Params json.RawMessage `json:"params"`
					} `json:"inputRequests"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(payload), &msg); err != nil {
				t.Fatal(err)
			}
			if ir, ok := msg.Result.InputRequests["q"]; ok {
				msg.Params = ir.Params
			}
			got := readWire(t, msg.Params)
			if got.carried != schema || got.sdkSchema != "" {
				t.Errorf("carried %q, SDK sees %q", got.carried, got.sdkSchema)
			}
			if got.meta["progressToken"] != 1.0 {
				t.Error("existing _meta was lost")
			}
		})
	}
}

func TestBoundedLines_RewritesEveryLine(t *testing.T) {
	in := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"elicitation/create\",\"params\":{\"requestedSchema\":{\"properties\":{\"b\":{},\"a\":{}}}}}\n\npartial-without-newline"
	body := boundedLines(io.NopCloser(strings.NewReader(in)), nil, true)
	out, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"gatehouse.dev/requestedSchema":"{\"properties\":{\"b\":{},\"a\":{}}}"`) || !strings.HasSuffix(string(out), "\n\npartial-without-newline") || !strings.HasPrefix(string(out), "event: message\n") {
		t.Errorf("out = %q", out)
	}
}

// FuzzCarrySchema: whatever a server sends, the rewrite does not crash or
// hang, and when it changes the params, the result is JSON in which the SDK
// sees no schema and the broker reads exactly the schema the SDK
// would have read, with every other member as it was.
func FuzzCarrySchema(f *testing.F) {
	for _, seed := range []string{
		`{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string","default":"x"}}}}`,
		`{"_meta":{"progressToken":1},"requestedSchema":{}}`,
		`{"_meta":null,"requestedSchema":null}`,
		`{"requestedSchema":1,"requestedSchema":{"b":2},"_meta":{},"_meta":{"c":3}}`,
		`{"_meta":{"gatehouse.dev/requestedSchema":"{}"}}`,
		` { "requestedSchema" : { "properties" : { } } , "x" : [ ] } `,
		`{"requestedSchema":"\u0000"}`,
		`{"requestedSchema":1,"requestedSchema":{},"x":{"&":"<>"}}`, // repeated members: the slow path must not HTML-escape the rest
		`{}`, `[]`, `null`, `{"requestedSchema":{`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := carrySchema(json.RawMessage(bytes.Clone(in)))
		if bytes.Equal(out, in) {
			return
		}
		var before, after map[string]json.RawMessage
		if err := json.Unmarshal(in, &before); err != nil {
			t.Fatalf("changed params that are not a JSON object: %q → %q", in, out)
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("the rewrite is not JSON: %q → %q", in, out)
		}
		var meta map[string]any
		if after["_meta"] != nil {
			if err := json.Unmarshal(after["_meta"], &meta); err != nil {
				t.Fatalf("_meta is not an object: %q", out)
			}
		}
		carried, hasCarried := meta[RawSchemaMeta].(string)
		original, hadSchema := before["requestedSchema"]
		if hadSchema && !isJSONNull(original) {
			if !hasCarried || compact(t, []byte(carried)) != compact(t, original) {
				t.Fatalf("carried %q, the server sent %q", carried, original)
			}
			if string(after["requestedSchema"]) != placeholderSchema {
				t.Fatalf("the SDK sees %q", after["requestedSchema"])
			}
		} else if hasCarried {
			t.Fatalf("a schema appeared from nowhere: %q → %q", in, out)
		}
		for k, v := range before {
			if k != "_meta" && k != "requestedSchema" && compact(t, after[k]) != compact(t, v) {
				t.Fatalf("member %q changed: %q → %q", k, v, after[k])
			}
		}
	})
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("not JSON: %q", b)
	}
	return buf.String()
}
