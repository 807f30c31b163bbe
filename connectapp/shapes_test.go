package connectapp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// The shapes an app's file may have before the entry goes in, each with
// the file as it must be after: indentation, line ends and layout follow
// the file's own.
func TestWrite_FollowsTheFilesLayout(t *testing.T) {
	const entry = "\"gatehouse\": {\n      \"command\": \"/usr/bin/gatehouse\",\n      \"args\": [\"gateway\"]\n    }"
	cases := []struct{ name, before, after string }{
		{"an empty object", "{}", "{\n  \"mcpServers\": {\n    " + entry + "\n  }\n}"},
		{"an empty object with a space", "{ }\n", "{\n  \"mcpServers\": {\n    " + entry + "\n  }\n}\n"},
		{"an empty object over two lines", "{\n}\n", "{\n  \"mcpServers\": {\n    " + entry + "\n  }\n}\n"},
		{"an empty file", "", "{\n  \"mcpServers\": {\n    " + entry + "\n  }\n}\n"},
		{"a file of spaces", "\n \n", "{\n  \"mcpServers\": {\n    " + entry + "\n  }\n}\n"},
		{"one line", `{"a":1}`, `{"mcpServers":{"gatehouse":{"command":"/usr/bin/gatehouse","args":["gateway"]}},"a":1}`},
		{"empty servers on one line", `{"mcpServers":{}}`, `{"mcpServers":{"gatehouse":{"command":"/usr/bin/gatehouse","args":["gateway"]}}}`},
		{"empty servers in an indented file", "{\n    \"mcpServers\": {}\n}\n",
			"{\n    \"mcpServers\": {\n        \"gatehouse\": {\n            \"command\": \"/usr/bin/gatehouse\",\n            \"args\": [\"gateway\"]\n        }\n    }\n}\n"},
		{"empty servers holding a comment", "{\n  \"mcpServers\": {\n    // none yet\n  }\n}\n",
			"{\n  \"mcpServers\": {\n    " + entry + "\n    // none yet\n  }\n}\n"},
		{"a comment on the brace's line stays there", "{ // mine\n  \"x\": 1\n}\n",
			"{ // mine\n  \"mcpServers\": {\n    " + entry + "\n  },\n  \"x\": 1\n}\n"},
		{"tabs", "{\n\t\"x\": 1\n}", "{\n\t\"mcpServers\": {\n\t\t\"gatehouse\": {\n\t\t\t\"command\": \"/usr/bin/gatehouse\",\n\t\t\t\"args\": [\"gateway\"]\n\t\t}\n\t},\n\t\"x\": 1\n}"},
		{"Windows line ends", "{\r\n  \"x\": 1\r\n}\r\n", "{\r\n  \"mcpServers\": {\r\n    \"gatehouse\": {\r\n      \"command\": \"/usr/bin/gatehouse\",\r\n      \"args\": [\"gateway\"]\r\n    }\r\n  },\r\n  \"x\": 1\r\n}\r\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, home := newConnector(t)
			path := filepath.Join(home, ".cursor", "mcp.json")
			put(t, path, tc.before, 0o600)
			req := Request{App: "cursor", Entry: GatewayEntry(exe, "")}
			ch, err := c.Preview(req)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Write(req, ch); err != nil {
				t.Fatal(err)
			}
			if after, _ := os.ReadFile(path); string(after) != tc.after {
				t.Errorf("after:\n%q\nwant:\n%q", after, tc.after)
			}
			readBack(t, home, path, "gatehouse")
		})
	}
}

// Two writes (connect, then replace) are undone one at a time, newest
// first, each back to the file as it was before it.
func TestUndo_TakesBackWritesNewestFirst(t *testing.T) {
	c, home := newConnector(t)
	path := filepath.Join(home, ".config", "zed", "settings.json")
	first := "{\n  \"context_servers\": {\n    \"a\": {\"command\": \"a\", \"args\": []}\n  }\n}\n"
	put(t, path, first, 0o600)
	ch, _ := c.Preview(Request{App: "zed", Entry: GatewayEntry(exe, "")})
	if _, err := c.Write(Request{App: "zed", Entry: GatewayEntry(exe, "")}, ch); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(path)
	req := Request{App: "zed", Entry: GatewayEntry(exe, ""), Replace: true, Have: []store.Server{stdio("a", "a", nil, nil)}}
	ch, _ = c.Preview(req)
	if len(ch.Removed) != 1 {
		t.Fatalf("preview = %+v", ch)
	}
	if _, err := c.Write(req, ch); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{string(second), first} {
		if _, err := c.Undo("zed"); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != want {
			t.Errorf("after undo:\n%s\nwant:\n%s", got, want)
		}
	}
}

// A link whose file is gone is refused with a sentence, not replaced by
// a new file.
func TestPreview_RefusesADanglingLink(t *testing.T) {
	c, home := newConnector(t)
	if err := os.Symlink(filepath.Join(home, "gone.json"), filepath.Join(home, ".claude.json")); err != nil {
		t.Fatal(err)
	}
	_, err := c.Preview(Request{App: "claude-code", Entry: GatewayEntry(exe, "")})
	if msg := message(t, err); !strings.Contains(msg, "is a link to a file that cannot be found") {
		t.Errorf("says %q", msg)
	}
}

// Claude Code's ~/.claude.json grows large, and a file may be one line:
// the preview shows the part of the line around the change, not megabytes.
func TestPreview_ShowsTheChangeInALongLine(t *testing.T) {
	c, home := newConnector(t)
	path := filepath.Join(home, ".claude.json")
	content := `{"numStartups":3,"mcpServers":{"a":{"command":"a","env":{"PLAIN":"quietvalue123"}}},"cache":"` + strings.Repeat("x", 512<<10) + `"}`
	put(t, path, content, 0o600)
	req := Request{App: "claude-code", Entry: GatewayEntry(exe, "")}
	ch, err := c.Preview(req)
	if err != nil {
		t.Fatal(err)
	}
	want := "\n-" + `{"numStartups":3,"mcpServers":{"a":{"command":"a","env":{"PLAIN":"••••••"}}},"cache":…` +
		"\n+" + `{"numStartups":3,"mcpServers":{"gatehouse":{"type":"stdio","command":"/usr/bin/gatehouse","args":["gateway"]},"a":{"command":"a","env":{"PLAIN":"••••••"}}},"cache":…` + "\n"
	if len(ch.Diff) > 4096 || !strings.Contains(ch.Diff, want) {
		t.Errorf("diff of %d bytes:\n%.3000s", len(ch.Diff), ch.Diff)
	}
	if _, err := c.Write(req, ch); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); !onlyInserted([]byte(content), after) {
		t.Error("the rest of the file changed")
	}
}

// Apps lists every app with the state of its file: connected, not yet,
// no file, or why it cannot be connected; and whether a write can be
// undone.
func TestApps_SaysTheStateOfEachFile(t *testing.T) {
	c, home := newConnector(t)
	put(t, filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers":[]}`, 0o600)
	put(t, filepath.Join(home, ".gemini", "settings.json"), `{"theme":"x"}`, 0o600)
	e := GatewayEntry(exe, "")
	ch, _ := c.Preview(Request{App: "codex", Entry: e})
	if _, err := c.Write(Request{App: "codex", Entry: e}, ch); err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, s := range c.Apps(e) {
		got[s.App] = s
	}
	if len(got) != len(AppIDs()) {
		t.Fatalf("%d apps listed", len(got))
	}
	for _, tc := range []struct {
		app                        string
		exists, connected, canUndo bool
		problem                    string
	}{
		{"codex", true, true, true, ""},
		{"gemini", true, false, false, ""},
		{"zed", false, false, false, ""},
		{"cursor", true, false, false, "is not an object of servers"},
	} {
		s := got[tc.app]
		if s.Exists != tc.exists || s.Connected != tc.connected || s.CanUndo != tc.canUndo ||
			!strings.Contains(s.Problem.In(i18n.English), tc.problem) || (tc.problem == "") != (s.Problem.Key == "") {
			t.Errorf("%s: %+v", tc.app, s)
		}
	}
}
