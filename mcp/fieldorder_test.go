package mcp

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestRewriteLine_KeepsFieldOrder(t *testing.T) {
	req := `{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"}}},"_meta":{"progressToken":1}}}`
	cases := []struct {
		name, line string
		rewritten  bool
	}{
		{"an SSE data line", "data: " + req + "\n", true},
		{"input requests in a tools/call result", `data: {"jsonrpc":"2.0","id":4,"result":{"inputRequests":{"q":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"properties":{"zeta":{},"alpha":{}}},"_meta":{"progressToken":1}}}},"requestState":"s"}}` + "\n", true},
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
			type params struct {
				Meta map[string]any `json:"_meta"`
			}
			var msg struct {
				Params params `json:"params"`
				Result struct {
					InputRequests map[string]struct {
						Params params `json:"params"`
					} `json:"inputRequests"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(payload), &msg); err != nil {
				t.Fatal(err)
			}
			if ir, ok := msg.Result.InputRequests["q"]; ok {
				msg.Params = ir.Params
			}
			if got := fieldOrderOf(sdk.Meta(msg.Params.Meta)); strings.Join(got, ",") != "zeta,alpha" {
				t.Errorf("order = %v", got)
			}
			if msg.Params.Meta["progressToken"] != 1.0 {
				t.Error("existing _meta was lost")
			}
		})
	}
}

func TestFieldOrderBody_StreamsEveryLine(t *testing.T) {
	in := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"elicitation/create\",\"params\":{\"requestedSchema\":{\"properties\":{\"b\":{},\"a\":{}}}}}\n\npartial-without-newline"
	body := fieldOrderBody(io.NopCloser(strings.NewReader(in)))
	out, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"gatehouse.dev/fieldOrder":["b","a"]`) || !strings.HasSuffix(string(out), "\n\npartial-without-newline") || !strings.HasPrefix(string(out), "event: message\n") {
		t.Errorf("out = %q", out)
	}
}

// TestWithFieldOrder_Splice: params without a _meta get one spliced in
// front; the result is the same JSON plus the order, whatever the spacing.
func TestWithFieldOrder_Splice(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"compact", `{"message":"m","requestedSchema":{"type":"object","properties":{"zeta":{},"alpha":{}}}}`},
		{"spaced", " {\n  \"message\": \"m\",\n  \"requestedSchema\": {\"properties\": {\"zeta\": {}, \"alpha\": {}}}\n} "},
		{"with _meta", `{"_meta":{"progressToken":1},"requestedSchema":{"properties":{"zeta":{},"alpha":{}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := withFieldOrder(json.RawMessage(tc.in))
			var got, want map[string]any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("not JSON: %s", out)
			}
			_ = json.Unmarshal([]byte(tc.in), &want)
			meta, _ := got["_meta"].(map[string]any)
			if order := fieldOrderOf(sdk.Meta(meta)); strings.Join(order, ",") != "zeta,alpha" {
				t.Errorf("order = %v in %s", order, out)
			}
			delete(meta, FieldOrderMeta)
			if len(meta) == 0 {
				delete(got, "_meta")
			}
			if g, _ := json.Marshal(got); string(g) != func() string { b, _ := json.Marshal(want); return string(b) }() {
				t.Errorf("the rest changed: %s", out)
			}
		})
	}
	if out := withFieldOrder(json.RawMessage(`{"message":"no schema"}`)); string(out) != `{"message":"no schema"}` {
		t.Errorf("params without a schema changed: %s", out)
	}
}
