package connectapp

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A file Gatehouse cannot change without losing or misreading part of it
// is refused with a sentence, and left exactly as it was (content and
// time), with no backup and nothing to undo.
func TestPreview_RefusesFilesItCannotKeepWhole(t *testing.T) {
	cases := []struct {
		name, app, rel, content, want string
	}{
		{"broken JSON says where", "cursor", ".cursor/mcp.json", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",,}\n  }\n}\n", "broken at line 3"},
		{"a list, not an object", "claude-desktop", ".config/Claude/claude_desktop_config.json", `[{"mcpServers":{}}]`, "does not hold a JSON object"},
		{"servers that are a list", "gemini", ".gemini/settings.json", `{"mcpServers":[{"command":"x"}]}`, "is not an object of servers"},
		{"the servers key twice", "windsurf", ".codeium/windsurf/mcp_config.json", `{"mcpServers":{"a":{"command":"a"}},"mcpServers":{"b":{"command":"b"}}}`, "more than once"},
		{"nesting that would overflow the stack", "zed", ".config/zed/settings.json", `{"context_servers":` + strings.Repeat("[", 4<<20), "more than 1000 levels deep"},
		{"not UTF-8", "qwen", ".qwen/settings.json", "{\"mcpServers\":{\"a\":{\"command\":\"\xff\xfe\"}}}", "is not text"},
		{"a byte order mark", "vscode", ".config/Code/User/mcp.json", "\ufeff{\"servers\":{}}", "byte order mark"},
		{"broken TOML says where", "codex", ".codex/config.toml", "[mcp_servers.a]\ncommand = \"x\nargs = []\n", "broken at line"},
		{"TOML servers in an inline table", "codex", ".codex/config.toml", "mcp_servers = { a = { command = \"a\" } }\n", "without changing something else"},
		{"TOML servers that are not a table", "codex", ".codex/config.toml", "mcp_servers = 3\n", "is not an object of servers"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, home := newConnector(t)
			path := filepath.Join(home, tc.rel)
			put(t, path, tc.content, 0o600)
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
			req := Request{App: tc.app, Entry: GatewayEntry(exe, "")}
			_, err := c.Preview(req)
			if msg := message(t, err); !strings.Contains(msg, tc.want) {
				t.Errorf("Preview says %q, want %q", msg, tc.want)
			}
			if _, err := c.Write(req, Change{}); err == nil {
				t.Error("Write succeeded")
			}
			data, _ := os.ReadFile(path)
			fi, _ := os.Stat(path)
			if string(data) != tc.content || !fi.ModTime().Equal(old) {
				t.Error("the file was changed")
			}
			if entries, _ := os.ReadDir(c.BackupDir); len(entries) != 0 {
				t.Errorf("left in the backup folder: %v", entries)
			}
		})
	}
}

// What is at an app's place may be anything its maker put there: a file
// larger than any config (read no further than the bound), a named pipe
// that never ends (not waited on).
func TestPreview_BoundsWhatItReads(t *testing.T) {
	c, home := newConnector(t)
	huge := filepath.Join(home, ".cursor", "mcp.json")
	put(t, huge, `{"mcpServers":{`, 0o600)
	if err := os.Truncate(huge, 1<<30); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(home, ".gemini", "settings.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ app, want string }{
		{"cursor", "larger than 16 MB"},
		{"gemini", "is not a regular file"},
	} {
		t.Run(tc.app, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			done := make(chan error, 1)
			go func() {
				_, err := c.Preview(Request{App: tc.app, Entry: GatewayEntry(exe, "")})
				done <- err
			}()
			select {
			case err := <-done:
				if msg := message(t, err); !strings.Contains(msg, tc.want) {
					t.Errorf("says %q, want %q", msg, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Preview still waits after 10 s")
			}
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("reading allocated %d MB", grew>>20)
			}
		})
	}
	if fi, _ := os.Stat(huge); fi.Size() != 1<<30 {
		t.Error("the large file was changed")
	}
}

// Only the apps' own user-level files can be written: an unknown app is
// refused, and no request names a path.
func TestPreview_RefusesAnUnknownApp(t *testing.T) {
	c, _ := newConnector(t)
	for _, id := range []string{"../../.bashrc", "cherry-studio", ""} {
		_, err := c.Preview(Request{App: id, Entry: GatewayEntry(exe, "")})
		if msg := message(t, err); !strings.Contains(msg, "cannot connect") || !strings.Contains(msg, "claude-code") {
			t.Errorf("%q: %q", id, msg)
		}
	}
	if _, err := (Connector{Home: t.TempDir()}).Write(Request{App: "cursor", Entry: GatewayEntry(exe, "")}, Change{}); !strings.Contains(message(t, err), "no folder for backups") {
		t.Errorf("Write without a backup folder: %v", err)
	}
}

// The preview shows the lines around the change, so it masks what looks
// secret in them (the values of environment variables and headers, keys
// anywhere), as the import preview does; the file keeps them.
func TestPreview_MasksSecretsAroundTheChange(t *testing.T) {
	c, home := newConnector(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	content := "{\n  \"mcpServers\": {\n    \"gh\": {\n      \"command\": \"npx\",\n      \"args\": [\"--api-key\", \"sk-live-abcdefghijkl\"],\n      \"env\": {\n        \"GITHUB_PERSONAL_ACCESS_TOKEN\": \"ghp_0123456789abcdef\",\n        \"DB\": \"quietsecretvalue\"\n      }\n    },\n    \"r\": {\"url\": \"https://u:pass1234@r.example.com/mcp\", \"headers\": {\"X-Key\": \"plainvalue99\"}}\n  }\n}\n"
	put(t, path, content, 0o600)
	codexPath := filepath.Join(home, ".codex", "config.toml")
	put(t, codexPath, "[mcp_servers.a]\ncommand = \"a\"\nenv = { KEY = \"tomlinline1\" }\n[mcp_servers.b.env]\nSECRET_THING = \"tomltable22\"\n", 0o600)
	for _, app := range []string{"cursor", "codex"} {
		ch, err := c.Preview(Request{App: app, Entry: GatewayEntry(exe, "")})
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"abcdefghijkl", "0123456789abcdef", "quietsecretvalue", "pass1234", "plainvalue99", "tomlinline1", "tomltable22"} {
			if strings.Contains(ch.Diff, secret) {
				t.Errorf("%s: the preview shows %q:\n%s", app, secret, ch.Diff)
			}
		}
		if app == "cursor" && !strings.Contains(ch.Diff, `"command": "npx"`) {
			t.Errorf("the preview hides what runs:\n%s", ch.Diff)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != content {
		t.Error("the preview changed the file")
	}
}
