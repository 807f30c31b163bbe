package mcp

import (
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCarryTaskSupport: a tools/list result's execution.taskSupport reaches
// the SDK's Tool in _meta, and only the host can put it there.
func TestCarryTaskSupport(t *testing.T) {
	cases := []struct {
		name   string
		result string
		want   map[string]string // tool name → TaskSupport
	}{
		{"a tool that requires tasks is marked",
			`{"tools":[{"name":"research","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}]}`,
			map[string]string{"research": "required"}},
		{"an optional one keeps the server's other _meta",
			`{"tools":[{"name":"maybe","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"},"_meta":{"ui":{"visibility":["model"]}}}]}`,
			map[string]string{"maybe": "optional"}},
		{"a tool without execution is not marked",
			`{"tools":[{"name":"plain","inputSchema":{"type":"object"}},{"name":"x","inputSchema":{"type":"object"},"execution":{}}]}`,
			map[string]string{"plain": "", "x": ""}},
		{"a mark the server wrote itself is removed",
			`{"tools":[{"name":"sly","inputSchema":{"type":"object"},"_meta":{"gatehouse.dev/taskSupport":"required"}}]}`,
			map[string]string{"sly": ""}},
		{"the server's mark gives way to its execution",
			`{"tools":[{"name":"both","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"},"_meta":{"gatehouse.dev/taskSupport":"required"}}]}`,
			map[string]string{"both": "optional"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var res sdk.ListToolsResult
			if err := json.Unmarshal(carryTaskSupport(json.RawMessage(tc.result)), &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Tools) != len(tc.want) {
				t.Fatalf("tools = %d, want %d", len(res.Tools), len(tc.want))
			}
			for _, tool := range res.Tools {
				if got := TaskSupport(tool); got != tc.want[tool.Name] {
					t.Errorf("%s: task support %q, want %q", tool.Name, got, tc.want[tool.Name])
				}
				if tool.Name == "maybe" && tool.Meta["ui"] == nil {
					t.Errorf("the server's own _meta was lost: %v", tool.Meta)
				}
			}
		})
	}
	t.Run("a result that is no tool list is left as it is", func(t *testing.T) {
		for _, in := range []string{`{"content":[{"type":"text","text":"execution"}]}`, `{"tools":"execution"}`, `not json "tools" "execution"`} {
			if out := string(carryTaskSupport(json.RawMessage(in))); out != in {
				t.Errorf("%s became %s", in, out)
			}
		}
	})
}

// TestServerLog_Messages: a server's log messages are kept with their level
// and logger, data that is not a string as JSON, and in the text log with a
// bracketed head, bounded like stderr.
func TestServerLog_Messages(t *testing.T) {
	l := &serverLog{}
	_, _ = l.Write([]byte("plain stderr\n"))
	l.message(&sdk.LoggingMessageParams{Level: "warning", Logger: "disk", Data: "almost full"})
	l.message(&sdk.LoggingMessageParams{Level: "info", Data: map[string]any{"free": 3}})
	lines := l.Lines()
	if len(lines) != 3 {
		t.Fatalf("lines = %+v", lines)
	}
	if got := lines[1]; got.Source != LogMessage || got.Level != "warning" || got.Logger != "disk" || got.Text != "almost full" {
		t.Errorf("message = %+v", got)
	}
	if got := lines[2].Text; got != `{"free":3}` {
		t.Errorf("data as text = %q, want JSON", got)
	}
	if got, want := lines[1].String(), "[warning "+lines[1].At+"] disk: almost full"; got != want {
		t.Errorf("text line = %q, want %q", got, want)
	}
	if lines[0].String() != "plain stderr" {
		t.Errorf("stderr line = %q, want it as written", lines[0].String())
	}
	for range logMaxLines + 10 {
		l.message(&sdk.LoggingMessageParams{Level: "debug", Data: "chatty"})
	}
	if n := len(l.Lines()); n != logMaxLines {
		t.Errorf("kept %d lines, want the bound %d", n, logMaxLines)
	}
}
