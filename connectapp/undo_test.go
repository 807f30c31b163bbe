package connectapp

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/importcfg"
	"github.com/gatehouse-app/gatehouse/store"
)

// After Connect, the app rewrites its file (adds a setting, a server of
// its own); Undo no longer puts the backup back (that would lose the app's
// change) but its preview offers to take out only Gatehouse's entry and to
// put back the servers Connect replaced: after it, the file has the app's
// change, not the entry, and the servers as they were; the importer reads
// it; the file as it was before this undo is backed up.
func TestUndoChanged_TakesOutOnlyGatehousesPart(t *testing.T) {
	have := []store.Server{stdio("fs", "npx", []string{"-y", "server-filesystem", "/home/a"}, nil)}
	cases := []struct {
		name, app, rel, content string
		// edit is the app's own later change to the file Gatehouse wrote.
		edit func(string) string
		// mine are servers the app has after its edit (kept by the undo).
		mine []string
		// want is the whole file after the undo, when given.
		want string
	}{
		{"JSON (Cursor): a setting and a server added by the app stay", "cursor", ".cursor/mcp.json",
			"{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"server-filesystem\", \"/home/a\"]},\n    \"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\"]}\n  }\n}\n",
			func(s string) string {
				s = strings.Replace(s, "{\n", "{\n  \"theme\": \"dark\",\n", 1)
				return strings.Replace(s, "\"mcpServers\": {\n", "\"mcpServers\": {\n    \"web\": {\"command\": \"web-mcp\"},\n", 1)
			},
			[]string{"git", "web"},
			"{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"server-filesystem\", \"/home/a\"]},\n    \"web\": {\"command\": \"web-mcp\"},\n    \"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\"]}\n  }\n}\n"},
		{"JSON: the gateway entry was the only server", "gemini", ".gemini/settings.json",
			"{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"server-filesystem\", \"/home/a\"]}\n  },\n  \"theme\": \"light\"\n}\n",
			func(s string) string { return strings.Replace(s, "\"light\"", "\"dark\"", 1) },
			nil,
			"{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"server-filesystem\", \"/home/a\"]}\n  },\n  \"theme\": \"dark\"\n}\n"},
		{"~/.claude.json: Claude Code rewrites it whole, one line, with a project added", "claude-code", ".claude.json",
			`{"numStartups":3,"mcpServers":{"fs":{"type":"stdio","command":"npx","args":["-y","server-filesystem","/home/a"]}},"projects":{}}`,
			func(s string) string {
				s = strings.Replace(s, `"numStartups":3`, `"numStartups":4`, 1)
				return strings.Replace(s, `"projects":{}`, `"projects":{"/repo":{"allowedTools":[]}}`, 1)
			},
			nil,
			`{"numStartups":4,"mcpServers":{"fs":{"type":"stdio","command":"npx","args":["-y","server-filesystem","/home/a"]}},"projects":{"/repo":{"allowedTools":[]}}}`},
		{"TOML (Codex): a setting and a server added by the app stay", "codex", ".codex/config.toml",
			"model = \"o3\"\n\n[mcp_servers.fs]\ncommand = \"npx\"\nargs = [\"-y\", \"server-filesystem\", \"/home/a\"]\n[mcp_servers.fs.env]\nROOT = \"/home/a\"\n\n[mcp_servers.git]\ncommand = \"uvx\"\nargs = [\"mcp-server-git\"]\n",
			func(s string) string {
				return strings.Replace(s, "model = \"o3\"\n", "model = \"o4\"\napproval = \"never\"\n", 1) + "\n[mcp_servers.web]\ncommand = \"web-mcp\"\n"
			},
			[]string{"git", "web"},
			"model = \"o4\"\napproval = \"never\"\n\n[mcp_servers.git]\ncommand = \"uvx\"\nargs = [\"mcp-server-git\"]\n\n[mcp_servers.web]\ncommand = \"web-mcp\"\n\n[mcp_servers.fs]\ncommand = \"npx\"\nargs = [\"-y\", \"server-filesystem\", \"/home/a\"]\n[mcp_servers.fs.env]\nROOT = \"/home/a\"\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, home := newConnector(t)
			path := filepath.Join(home, tc.rel)
			put(t, path, tc.content, 0o640)
			h := have
			if tc.app == "claude-code" {
				h = []store.Server{stdio("fs", "npx", []string{"-y", "server-filesystem", "/home/a"}, nil)}
			}
			if strings.Contains(tc.content, "ROOT") {
				h = []store.Server{stdio("fs", "npx", []string{"-y", "server-filesystem", "/home/a"}, map[string]string{"ROOT": "/home/a"})}
			}
			req := Request{App: tc.app, Entry: GatewayEntry(exe, ""), Replace: true, Have: h}
			ch, err := c.Preview(req)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ch.Removed, []string{"fs"}) {
				t.Fatalf("Connect takes out %q, want fs", ch.Removed)
			}
			if _, err := c.Write(req, ch); err != nil {
				t.Fatal(err)
			}
			written, _ := os.ReadFile(path)
			edited := tc.edit(string(written))
			if edited == string(written) {
				t.Fatal("the app's edit changed nothing")
			}
			put(t, path, edited, 0o640)

			if _, err := c.Undo(tc.app); !errors.Is(err, ErrChanged) {
				t.Fatalf("the whole undo over the app's change = %v", err)
			}
			u, err := c.PreviewUndo(tc.app)
			if err != nil {
				t.Fatal(err)
			}
			if u.Whole || u.Unchanged || u.Entry != "gatehouse" || !slices.Equal(u.Restored, []string{"fs"}) {
				t.Fatalf("preview = %+v", u)
			}
			if !strings.Contains(u.Diff, "-") || !strings.Contains(u.Diff, "gatehouse") || !strings.Contains(u.Diff, "+") {
				t.Errorf("the diff does not show the change:\n%s", u.Diff)
			}
			if after, _ := os.ReadFile(path); string(after) != edited {
				t.Fatal("the preview wrote")
			}

			// The app writes again after the preview: refused, nothing written.
			put(t, path, edited+"\n", 0o640)
			if _, err := c.UndoChanged(tc.app, u); !errors.Is(err, ErrChanged) {
				t.Fatalf("UndoChanged over a newer file = %v", err)
			}
			if after, _ := os.ReadFile(path); string(after) != edited+"\n" {
				t.Fatal("a refused undo wrote")
			}
			put(t, path, edited, 0o640)

			done, err := c.UndoChanged(tc.app, u)
			if err != nil || done.Forgotten {
				t.Fatalf("UndoChanged = %+v, %v", done, err)
			}
			after, _ := os.ReadFile(path)
			if tc.want != "" && string(after) != tc.want {
				t.Errorf("after:\n%s\nwant:\n%s", after, tc.want)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode = %v", fi.Mode().Perm())
			}
			if b, err := os.ReadFile(done.Backup); err != nil || string(b) != edited {
				t.Errorf("backup %q = %q, %v", done.Backup, b, err)
			}
			p, err := importcfg.Read(path, importcfg.Options{Home: home})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range p.Servers {
				if s.Scope == "" {
					names = append(names, s.SourceName)
				}
			}
			slices.Sort(names)
			want := append([]string{"fs"}, tc.mine...)
			slices.Sort(want)
			if !slices.Equal(names, want) {
				t.Errorf("the importer reads %q, want %q", names, want)
			}
			if fs := readBack(t, home, path, "fs"); fs.Server().Stdio == nil || fs.Server().Stdio.Command != "npx" {
				t.Errorf("fs put back as %+v", fs.Server())
			}
			if _, ok := c.CanUndo(tc.app); ok {
				t.Error("CanUndo after undoing the only write")
			}
		})
	}
}

// A server Connect replaced that the app has again by the same name (it
// wrote its own) is not put back over it; a gateway entry the app took out
// itself leaves nothing to take out: the undo only forgets the write.
func TestUndoChanged_NeverTouchesWhatTheAppChanged(t *testing.T) {
	c, home := newConnector(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	put(t, path, "{\"mcpServers\": {\"fs\": {\"command\": \"npx\", \"args\": [\"x\"]}}}\n", 0o600)
	req := Request{App: "cursor", Entry: GatewayEntry(exe, ""), Replace: true, Have: []store.Server{stdio("fs", "npx", []string{"x"}, nil)}}
	ch, _ := c.Preview(req)
	if _, err := c.Write(req, ch); err != nil {
		t.Fatal(err)
	}
	mine := "{\"mcpServers\": {\"fs\": {\"command\": \"other\"}}}\n"
	put(t, path, mine, 0o600)
	u, err := c.PreviewUndo("cursor")
	if err != nil || !u.Unchanged || u.Entry != "" || len(u.Restored) != 0 || u.Diff != "" {
		t.Fatalf("preview = %+v, %v", u, err)
	}
	if done, err := c.UndoChanged("cursor", u); err != nil || !done.Forgotten || done.Backup != "" {
		t.Fatalf("UndoChanged = %+v, %v", done, err)
	}
	if after, _ := os.ReadFile(path); string(after) != mine {
		t.Errorf("the app's file was changed:\n%s", after)
	}
	if _, ok := c.CanUndo("cursor"); ok {
		t.Error("the write is still to undo")
	}
}

// A file still as Gatehouse left it: the preview says the backup goes back
// whole, and UndoChanged does that.
func TestPreviewUndo_AnUnchangedFileIsUndoneWhole(t *testing.T) {
	c, home := newConnector(t)
	path := filepath.Join(home, ".gemini", "settings.json")
	before := "{\"theme\": \"x\"}\n"
	put(t, path, before, 0o600)
	req := Request{App: "gemini", Entry: GatewayEntry(exe, "")}
	ch, _ := c.Preview(req)
	if _, err := c.Write(req, ch); err != nil {
		t.Fatal(err)
	}
	u, err := c.PreviewUndo("gemini")
	if err != nil || !u.Whole || u.Diff != "" {
		t.Fatalf("preview = %+v, %v", u, err)
	}
	if _, err := c.UndoChanged("gemini", u); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); string(after) != before {
		t.Errorf("after: %s", after)
	}
}
