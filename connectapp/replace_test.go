package connectapp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/store"
)

// stdio is a server Gatehouse has.
func stdio(name, command string, args []string, env map[string]string) store.Server {
	return store.Server{Name: name, Transport: store.TransportStdio, Stdio: &store.StdioConfig{Command: command, Args: args, Env: env}}
}

// With Replace, the servers Gatehouse has (as importing them would store
// them, whatever their names there) leave the app's file, which then
// reaches them through the gateway alone; every other server stays, and
// so does the rest of the file.
func TestWrite_ReplacesOnlyTheServersGatehouseHas(t *testing.T) {
	have := []store.Server{
		stdio("fs-imported", "npx", []string{"-y", "server-filesystem", "/home/a"}, nil),
		stdio("gh", "npx", []string{"-y", "server-github"}, map[string]string{"GITHUB_TOKEN": "ghp_x"}),
		stdio("other-args", "uvx", []string{"mcp-server-git", "--repo", "/elsewhere"}, nil),
		stdio("from-env", "node", []string{"srv.js"}, nil),
		{Name: "remote", Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: "https://r.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer t"}}},
	}
	cases := []struct {
		name, app, rel, content string
		removed, kept           []string
		want                    string // the whole file after, when given
		strict                  bool   // the file must stay plain JSON
	}{
		{"JSON: first, middle and last go, the others stay", "cursor", ".cursor/mcp.json",
			"{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"server-filesystem\", \"/home/a\"]},\n    \"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\"]},\n    \"github\": {\"command\": \"npx\", \"args\": [\"-y\", \"server-github\"], \"env\": {\"GITHUB_TOKEN\": \"ghp_x\"}},\n    \"envvar\": {\"command\": \"node\", \"args\": [\"srv.js\"], \"env\": {\"KEY\": \"${env:KEY}\"}},\n    \"r\": {\"url\": \"https://r.example.com/mcp\", \"headers\": {\"Authorization\": \"Bearer t\"}}\n  }\n}\n",
			[]string{"fs", "github", "r"}, []string{"git", "envvar"},
			"{\n  \"mcpServers\": {\n    \"gatehouse\": {\n      \"command\": \"/usr/bin/gatehouse\",\n      \"args\": [\"gateway\"]\n    },\n    \"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\"]},\n    \"envvar\": {\"command\": \"node\", \"args\": [\"srv.js\"], \"env\": {\"KEY\": \"${env:KEY}\"}}\n  }\n}\n", true},
		{"JSON: the entry already there stays, the servers on both sides go", "windsurf", ".codeium/windsurf/mcp_config.json",
			"{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"server-filesystem\", \"/home/a\"]},\n    \"gatehouse\": {\"command\": \"/usr/bin/gatehouse\", \"args\": [\"gateway\"]},\n    \"github\": {\"command\": \"npx\", \"args\": [\"-y\", \"server-github\"], \"env\": {\"GITHUB_TOKEN\": \"ghp_x\"}}\n  }\n}\n",
			[]string{"fs", "github"}, []string{},
			"{\n  \"mcpServers\": {\n    \"gatehouse\": {\"command\": \"/usr/bin/gatehouse\", \"args\": [\"gateway\"]}\n  }\n}\n", true},
		{"JSON: every server goes, no comma is left behind", "claude-desktop", ".config/Claude/claude_desktop_config.json",
			"{\"mcpServers\":{\"fs\":{\"command\":\"npx\",\"args\":[\"-y\",\"server-filesystem\",\"/home/a\"]}},\"x\":1}",
			[]string{"fs"}, []string{},
			"{\"mcpServers\":{\"gatehouse\":{\"command\":\"/usr/bin/gatehouse\",\"args\":[\"gateway\"]}},\"x\":1}", true},
		{"JSON with comments: the gone server's comma and comment go with it", "vscode", ".config/Code/User/mcp.json",
			"{\n  \"servers\": {\n    // git\n    \"git\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"mcp-server-git\"]},\n    // files\n    \"fs\": {\"type\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"server-filesystem\", \"/home/a\"]},\n  },\n}\n",
			[]string{"fs"}, []string{"git"}, "", false},
		{"Claude Code: a project's servers are never touched", "claude-code", ".claude.json",
			"{\"projects\":{\"/repo\":{\"mcpServers\":{\"fs\":{\"type\":\"stdio\",\"command\":\"npx\",\"args\":[\"-y\",\"server-filesystem\",\"/home/a\"]}}}},\"mcpServers\":{}}",
			[]string{}, []string{}, "", true},
		{"TOML: the server's tables go, the rest stays", "codex", ".codex/config.toml",
			"model = \"o3\"\n\n[mcp_servers.fs]\ncommand = \"npx\"\nargs = [\"-y\", \"server-filesystem\", \"/home/a\"]\n\n# git, kept\n[mcp_servers.git]\ncommand = \"uvx\"\nargs = [\"mcp-server-git\"]\n\n[mcp_servers.github]\ncommand = \"npx\"\nargs = [\"-y\", \"server-github\"]\n[mcp_servers.github.env]\nGITHUB_TOKEN = \"ghp_x\"\n",
			[]string{"fs", "github"}, []string{"git"},
			"model = \"o3\"\n\n# git, kept\n[mcp_servers.git]\ncommand = \"uvx\"\nargs = [\"mcp-server-git\"]\n\n[mcp_servers.gatehouse]\ncommand = \"/usr/bin/gatehouse\"\nargs = [\"gateway\"]\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, home := newConnector(t)
			path := filepath.Join(home, tc.rel)
			put(t, path, tc.content, 0o600)
			req := Request{App: tc.app, Entry: GatewayEntry(exe, ""), Replace: true, Have: have}
			ch, err := c.Preview(req)
			if err != nil {
				t.Fatalf("Preview: %v", err)
			}
			if !slices.Equal(ch.Removed, tc.removed) || !slices.Equal(ch.Kept, tc.kept) {
				t.Fatalf("removed %q, kept %q; want %q, %q", ch.Removed, ch.Kept, tc.removed, tc.kept)
			}
			if _, err := c.Write(req, ch); err != nil {
				t.Fatalf("Write: %v", err)
			}
			after, _ := os.ReadFile(path)
			if tc.want != "" && string(after) != tc.want {
				t.Errorf("after:\n%s\nwant:\n%s", after, tc.want)
			}
			if tc.strict && !json.Valid(after) {
				t.Errorf("no longer plain JSON:\n%s", after)
			}
			readBack(t, home, path, "gatehouse")
			for _, name := range tc.kept {
				readBack(t, home, path, name)
			}
			for _, name := range tc.removed {
				if strings.Contains(string(after), `"`+name+`"`) || strings.Contains(string(after), "."+name+"]") {
					t.Errorf("%s is still in the file", name)
				}
			}
			if _, err := c.Undo(tc.app); err != nil {
				t.Fatal(err)
			}
			if back, _ := os.ReadFile(path); string(back) != tc.content {
				t.Errorf("undo did not restore the file:\n%s", back)
			}
		})
	}
}

// What Write would write must be what the preview showed: when the
// servers Gatehouse has change in between (one was removed from it), the
// same file would lose another set of servers, and Write refuses.
func TestWrite_RefusesWhenGatehousesServersChangedSinceThePreview(t *testing.T) {
	c, home := newConnector(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	content := `{"mcpServers":{"a":{"command":"a"},"b":{"command":"b"}}}`
	put(t, path, content, 0o600)
	req := Request{App: "cursor", Entry: GatewayEntry(exe, ""), Replace: true,
		Have: []store.Server{stdio("a", "a", nil, nil), stdio("b", "b", nil, nil)}}
	ch, err := c.Preview(req)
	if err != nil || len(ch.Removed) != 2 {
		t.Fatalf("preview = %+v, %v", ch, err)
	}
	req.Have = req.Have[:1]
	if _, err := c.Write(req, ch); !errors.Is(err, ErrChanged) || !strings.Contains(message(t, err), "no longer be the one the preview showed") {
		t.Fatalf("Write = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != content {
		t.Error("the file was written")
	}
}
