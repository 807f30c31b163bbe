package connectapp

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
)

const exe = "/usr/bin/gatehouse"

// newConnector returns a Connector on a fresh home folder and its data
// folder's backups.
func newConnector(t *testing.T) (Connector, string) {
	t.Helper()
	home := t.TempDir()
	return Connector{Home: home, BackupDir: filepath.Join(t.TempDir(), "connect-backups")}, home
}

// put writes a file (and its folders) into home.
func put(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// readBack reads the file as Gatehouse's importer does and returns its
// server with the given name.
func readBack(t *testing.T, home, path, name string) importcfg.Entry {
	t.Helper()
	p, err := importcfg.Read(path, importcfg.Options{Home: home})
	if err != nil {
		t.Fatalf("the importer cannot read the written file: %v", err)
	}
	for _, s := range p.Servers {
		if s.SourceName == name {
			return s
		}
	}
	t.Fatalf("the importer finds no server %q in %s", name, path)
	return importcfg.Entry{}
}

// onlyInserted reports whether after is before with one piece of text put
// in at one place: everything the person had is there byte for byte.
func onlyInserted(before, after []byte) bool {
	p := 0
	for p < len(before) && p < len(after) && before[p] == after[p] {
		p++
	}
	s := 0
	for s < len(before)-p && s < len(after)-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	return p+s == len(before)
}

// Each app's own file, as the app writes it, with the person's other
// servers, settings and (where the format has them) comments: connecting
// puts the gateway entry in and keeps every byte of the rest; the importer
// reads the entry back with the command and arguments another app will run.
func TestWrite_EachAppsFileKeepsTheRestAndReadsBack(t *testing.T) {
	cases := []struct {
		app, rel, content string
		// inserted: the text put in (without the file's indentation).
		inserted []string
	}{
		{"claude-desktop", ".config/Claude/claude_desktop_config.json",
			"{\n  \"mcpServers\": {\n    \"fs\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/home/a\"]\n    }\n  },\n  \"globalShortcut\": \"Ctrl+Space\"\n}\n",
			[]string{`"gatehouse": {`, `"command": "/usr/bin/gatehouse",`, `"args": ["gateway"]`}},
		{"cursor", ".cursor/mcp.json",
			"{\n\t\"mcpServers\": {\n\t\t\"remote\": {\"url\": \"https://mcp.example.com/mcp\", \"headers\": {\"Authorization\": \"Bearer sk-live-0123456789\"}}\n\t}\n}",
			[]string{"\t\t\"gatehouse\": {\n\t\t\t\"command\": \"/usr/bin/gatehouse\",\n\t\t\t\"args\": [\"gateway\"]\n\t\t},"}},
		{"claude-code", ".claude.json",
			`{"numStartups":42,"projects":{"/home/a/repo":{"mcpServers":{"p":{"type":"stdio","command":"node","args":["x.js"]}}}},"mcpServers":{"g":{"type":"http","url":"https://api.example.com/mcp"}},"userID":"abc"}`,
			[]string{`"gatehouse":{"type":"stdio","command":"/usr/bin/gatehouse","args":["gateway"]},`}},
		{"vscode", ".config/Code/User/mcp.json",
			"// My servers\n{\n    \"inputs\": [\n        {\"type\": \"promptString\", \"id\": \"key\", \"description\": \"API key\", \"password\": true},\n    ],\n    \"servers\": {\n        /* the one I use */\n        \"git\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"mcp-server-git\"], \"env\": {\"KEY\": \"${input:key}\"}},\n    },\n}\n",
			[]string{`"gatehouse": {`, `"type": "stdio",`, `"command": "/usr/bin/gatehouse",`}},
		{"windsurf", ".codeium/windsurf/mcp_config.json",
			"{\r\n  \"mcpServers\": {\r\n    \"w\": {\"serverUrl\": \"https://w.example.com/sse\"}\r\n  }\r\n}\r\n",
			[]string{"\r\n    \"gatehouse\": {\r\n      \"command\": \"/usr/bin/gatehouse\",\r\n      \"args\": [\"gateway\"]\r\n    },"}},
		{"gemini", ".gemini/settings.json",
			"{\n  \"theme\": \"GitHub\",\n  \"selectedAuthType\": \"oauth-personal\"\n}\n",
			[]string{`"mcpServers": {`, `"gatehouse": {`}},
		{"codex", ".codex/config.toml",
			"model = \"o3\" # the best\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs-mcp\"]\n\n[mcp_servers.docs.env]\nDOCS_TOKEN = \"t0ps3cret\"\n\n# profiles\n[profiles.fast]\nmodel = \"o4-mini\"",
			[]string{"\n\n[mcp_servers.gatehouse]\ncommand = \"/usr/bin/gatehouse\"\nargs = [\"gateway\"]\n"}},
		{"qwen", ".qwen/settings.json",
			"{\n  \"mcpServers\": {},\n  \"general\": {\"vimMode\": true}\n}\n",
			[]string{"{\n    \"gatehouse\": {\n      \"command\": \"/usr/bin/gatehouse\",\n      \"args\": [\"gateway\"]\n    }\n  }"}},
		{"zed", ".config/zed/settings.json",
			"// Zed settings\n//\n// For information on how to configure Zed, see the Zed\n// documentation: https://zed.dev/docs/configuring-zed\n{\n  \"ui_font_size\": 16,\n  \"context_servers\": {\n    // postgres, from its extension\n    \"postgres-context-server\": {\n      \"settings\": {\"database_url\": \"postgresql://me:pw@localhost/db\"},\n    },\n  },\n}\n",
			[]string{`"source": "custom",`, `"command": "/usr/bin/gatehouse",`}},
	}
	for _, tc := range cases {
		t.Run(tc.app, func(t *testing.T) {
			c, home := newConnector(t)
			path := filepath.Join(home, tc.rel)
			put(t, path, tc.content, 0o644)
			req := Request{App: tc.app, Entry: GatewayEntry(exe, "")}
			ch, err := c.Preview(req)
			if err != nil {
				t.Fatalf("Preview: %v", err)
			}
			after, _ := os.ReadFile(path)
			if string(after) != tc.content {
				t.Fatal("the preview changed the file")
			}
			if ch.File != path || !ch.Exists || ch.Unchanged || ch.Entry.Name != "gatehouse" || !strings.Contains(ch.Diff, "+") {
				t.Fatalf("preview = %+v", ch)
			}
			if _, err := c.Write(req, ch); err != nil {
				t.Fatalf("Write: %v", err)
			}
			after, _ = os.ReadFile(path)
			for _, want := range tc.inserted {
				if !bytes.Contains(after, []byte(want)) {
					t.Errorf("the file lacks %q:\n%s", want, after)
				}
			}
			if !onlyInserted([]byte(tc.content), after) {
				t.Errorf("the rest of the file changed:\nbefore:\n%s\nafter:\n%s", tc.content, after)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
				t.Errorf("mode = %v, want the file's own 0644", fi.Mode().Perm())
			}
			got := readBack(t, home, path, "gatehouse")
			if srv := got.Server(); !got.Import || srv.Stdio == nil || srv.Stdio.Command != exe || !slices.Equal(srv.Stdio.Args, []string{"gateway"}) || len(srv.Stdio.Env) != 0 {
				t.Errorf("read back: %+v", got)
			}
			// Connecting again finds the entry and writes nothing.
			again, err := c.Preview(req)
			if err != nil || !again.Unchanged || again.Diff != "" {
				t.Errorf("second preview = %+v, %v", again, err)
			}
		})
	}
}

// A missing file is created with its folders: 0600 in folders 0700 that
// only the person can read, since it will hold their servers; undo
// removes it again.
func TestWrite_CreatesAMissingFileAndUndoRemovesIt(t *testing.T) {
	for _, id := range AppIDs() {
		t.Run(id, func(t *testing.T) {
			c, home := newConnector(t)
			req := Request{App: id, Entry: GatewayEntry(exe, "/data/gh")}
			ch, err := c.Preview(req)
			if err != nil || ch.Exists || ch.Digest != "" || !strings.HasPrefix(ch.Diff, "--- /dev/null\n") {
				t.Fatalf("preview = %+v, %v", ch, err)
			}
			w, err := c.Write(req, ch)
			if err != nil || !w.Created || w.Backup != "" {
				t.Fatalf("Write = %+v, %v", w, err)
			}
			fi, err := os.Stat(ch.File)
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Fatalf("the new file: %v, %v", fi, err)
			}
			for dir := filepath.Dir(ch.File); dir != home; dir = filepath.Dir(dir) {
				if di, _ := os.Stat(dir); di.Mode().Perm() != 0o700 {
					t.Errorf("%s is %v, want 0700", dir, di.Mode().Perm())
				}
			}
			got := readBack(t, home, ch.File, "gatehouse").Server()
			if !slices.Equal(got.Stdio.Args, []string{"--data-dir", "/data/gh", "gateway"}) {
				t.Errorf("args = %q", got.Stdio.Args)
			}
			u, err := c.Undo(id)
			if err != nil || !u.Removed {
				t.Fatalf("Undo = %+v, %v", u, err)
			}
			if _, err := os.Stat(ch.File); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the created file is still there after undo: %v", err)
			}
		})
	}
}

// message is the English sentence an error says; it fails the test when
// the error is not one of Gatehouse's sentences.
func message(t *testing.T, err error) string {
	t.Helper()
	msg := i18n.ErrorMessage(err)
	if err == nil || msg.Key == "" {
		t.Fatalf("error %v is not a sentence of the catalogue", err)
	}
	return msg.In(i18n.English)
}

// A file the app (or the person) changed after the preview was made is not
// written: the person confirmed another change than the one that would be
// made.
func TestWrite_RefusesAFileChangedAfterThePreview(t *testing.T) {
	c, home := newConnector(t)
	path := filepath.Join(home, ".cursor", "mcp.json")
	put(t, path, `{"mcpServers":{}}`, 0o600)
	req := Request{App: "cursor", Entry: GatewayEntry(exe, "")}
	ch, err := c.Preview(req)
	if err != nil {
		t.Fatal(err)
	}
	changed := `{"mcpServers":{"new":{"command":"x"}}}`
	put(t, path, changed, 0o600)
	_, err = c.Write(req, ch)
	if !errors.Is(err, ErrChanged) || !strings.Contains(message(t, err), "changed after the preview was made") {
		t.Fatalf("Write = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != changed {
		t.Errorf("the file was written: %s", data)
	}
	if entries, _ := os.ReadDir(c.BackupDir); len(entries) != 0 {
		t.Errorf("backups left: %v", entries)
	}
	// A file created after a preview that found none is refused too.
	c2, home2 := newConnector(t)
	ch, _ = c2.Preview(Request{App: "gemini", Entry: GatewayEntry(exe, "")})
	put(t, filepath.Join(home2, ".gemini", "settings.json"), `{"theme":"x"}`, 0o600)
	if _, err := c2.Write(Request{App: "gemini", Entry: GatewayEntry(exe, "")}, ch); !errors.Is(err, ErrChanged) {
		t.Errorf("Write over a file made since = %v", err)
	}
}

// Undo puts back the file as it was, byte for byte and with its mode, and
// refuses when the file changed after Gatehouse wrote it (undoing would
// lose that change).
func TestUndo_RestoresTheBackupUnlessTheFileChangedSince(t *testing.T) {
	c, home := newConnector(t)
	path := filepath.Join(home, ".codex", "config.toml")
	before := "# mine\n[mcp_servers.a]\ncommand = \"a\"\n"
	put(t, path, before, 0o640)
	req := Request{App: "codex", Entry: GatewayEntry(exe, "")}
	if _, err := c.Undo("codex"); err == nil || !strings.Contains(message(t, err), "no change to Codex CLI’s file") {
		t.Errorf("Undo with nothing written = %v", err)
	}
	ch, _ := c.Preview(req)
	w, err := c.Write(req, ch)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(w.Backup); err != nil || string(b) != before {
		t.Fatalf("backup = %q, %v", b, err)
	}
	if fi, _ := os.Stat(w.Backup); fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode = %v", fi.Mode().Perm())
	}
	if _, ok := c.CanUndo("codex"); !ok {
		t.Error("CanUndo = false after a write")
	}

	written, _ := os.ReadFile(path)
	put(t, path, string(written)+"\n[mcp_servers.b]\ncommand = \"b\"\n", 0o640)
	_, err = c.Undo("codex")
	if !errors.Is(err, ErrChanged) || !strings.Contains(message(t, err), "changed after Gatehouse wrote it") {
		t.Fatalf("Undo over a later change = %v", err)
	}
	put(t, path, string(written), 0o640)

	if _, err := c.Undo("codex"); err != nil {
		t.Fatalf("Undo: %v", err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != before {
		t.Errorf("after undo:\n%s\nwant:\n%s", after, before)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode after undo = %v", fi.Mode().Perm())
	}
	if _, err := os.Stat(w.Backup); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the backup is kept after undo")
	}
	if _, ok := c.CanUndo("codex"); ok {
		t.Error("CanUndo = true after undoing the only write")
	}
}

// The name "gatehouse" taken by a server that is not Gatehouse's gets the
// entry "gatehouse-2"; Gatehouse's own entry from an older install (another
// path) is updated where it is, under its name.
func TestPreview_ChoosesTheEntrysName(t *testing.T) {
	cases := []struct {
		name, content, want string
		wantArgs            []string
	}{
		{"a server of the person's called gatehouse", `{"mcpServers":{"gatehouse":{"command":"docker","args":["run","gatehouse/mcp"]}}}`, "gatehouse-2", nil},
		{"the old entry of a moved program", "{\n  \"mcpServers\": {\n    \"gate\": {\"command\": \"/opt/old/gatehouse\", \"args\": [\"gateway\"]},\n    \"x\": {\"command\": \"x\"}\n  }\n}\n", "gate", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, home := newConnector(t)
			path := filepath.Join(home, ".cursor", "mcp.json")
			put(t, path, tc.content, 0o600)
			req := Request{App: "cursor", Entry: GatewayEntry(exe, "")}
			ch, err := c.Preview(req)
			if err != nil || ch.Entry.Name != tc.want {
				t.Fatalf("preview = %+v, %v", ch, err)
			}
			if _, err := c.Write(req, ch); err != nil {
				t.Fatal(err)
			}
			if got := readBack(t, home, path, tc.want).Server(); got.Stdio.Command != exe {
				t.Errorf("%s runs %q", tc.want, got.Stdio.Command)
			}
			p, _ := importcfg.Read(path, importcfg.Options{Home: home})
			if n := len(p.Servers); n != 2 {
				t.Errorf("%d servers after connecting, want 2", n)
			}
		})
	}
}

// A file linked from a dotfiles folder is written where it is, and the
// link stays a link.
func TestWrite_FollowsALinkAndKeepsIt(t *testing.T) {
	c, home := newConnector(t)
	real := filepath.Join(t.TempDir(), "dotfiles", "claude.json")
	put(t, real, `{"mcpServers":{}}`, 0o600)
	if err := os.Symlink(real, filepath.Join(home, ".claude.json")); err != nil {
		t.Fatal(err)
	}
	req := Request{App: "claude-code", Entry: GatewayEntry(exe, "")}
	ch, err := c.Preview(req)
	if err != nil || ch.File != real {
		t.Fatalf("preview = %+v, %v", ch, err)
	}
	if _, err := c.Write(req, ch); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(filepath.Join(home, ".claude.json")); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	readBack(t, home, real, "gatehouse")
}
