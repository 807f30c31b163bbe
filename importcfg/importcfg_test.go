package importcfg

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// wantServer is what a person checks of one server in the preview and,
// for an imported one, in what would be stored.
type wantServer struct {
	name    string // in Gatehouse
	skipped bool
	off     bool   // imported turned off
	kind    string // as the file says
	where   string // stored command line or URL
	dir     string
	env     []string // stored env names
	headers []string // stored header names
	notes   []string // each in one of the entry's notes (English)
}

func TestRead_EveryFormat(t *testing.T) {
	project, _ := filepath.Abs("testdata/project")
	cases := []struct {
		name    string
		file    string
		format  Format
		guess   bool
		servers []wantServer
	}{
		{"Claude Desktop: stdio servers only, named as a guess", "claude_desktop_config.json", ClaudeDesktop, true, []wantServer{
			{name: "filesystem", kind: "stdio", where: "npx -y @modelcontextprotocol/server-filesystem /home/alice/Desktop /home/alice/Downloads"},
			{name: "github", kind: "stdio", where: "npx -y @modelcontextprotocol/server-github", env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN"}},
			{name: "brave-search", kind: "stdio", where: "npx -y @modelcontextprotocol/server-brave-search --api-key BSAbraveSecretValue42"},
		}},
		{"Cursor: a url without a type is remote; an ${env:} header is left out", "cursor-mcp.json", Cursor, true, []wantServer{
			{name: "postgres", kind: "stdio", where: "npx -y @modelcontextprotocol/server-postgres postgresql://app:pgSecretPw99@localhost/app", env: []string{"PGSSLMODE"}},
			{name: "linear", kind: "HTTP", where: "https://mcp.linear.app/mcp", headers: []string{"Authorization"}},
			{name: "sentry", kind: "HTTP", where: "https://mcp.sentry.dev/mcp",
				notes: []string{"The header Authorization is left out: its value is the environment variable SENTRY_TOKEN"}},
		}},
		{"Claude Code ~/.claude.json: user servers, then each project's, in its folder", "claude.json", ClaudeCode, false, []wantServer{
			{name: "github", kind: "stdio", where: "npx -y @modelcontextprotocol/server-github", env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN"}},
			{name: "github-2", kind: "streamable HTTP", where: "https://api.githubcopilot.com/mcp/",
				notes: []string{"The header Authorization is left out: its value is the environment variable GITHUB_PAT",
					"Gatehouse already has a server named github, so this one is imported as github-2."}},
			{name: "playwright", kind: "stdio", where: "npx @playwright/mcp@latest", dir: "/home/alice/code/webapp"},
		}},
		{"Claude Code .mcp.json: typed entries; ${VAR:-default} in a URL leaves the server out", "project/.mcp.json", ClaudeCode, true, []wantServer{
			{name: "api-server", skipped: true, kind: "SSE",
				notes: []string{"Not imported: its url uses the environment variable API_BASE_URL"}},
			{name: "notion", kind: "streamable HTTP", where: "https://mcp.notion.com/mcp"},
			{name: "local-tools", kind: "stdio", where: "node ./tools/server.js", env: []string{"LOG_LEVEL"}, dir: project},
		}},
		{"VS Code: JSONC, inputs, ${workspaceFolder} of the project, envFile", "project/.vscode/mcp.json", VSCode, false, []wantServer{
			{name: "Perplexity", kind: "stdio", where: "npx -y server-perplexity-ask", dir: project,
				notes: []string{"The environment variable PERPLEXITY_API_KEY is left out: its value is a value VS Code asks for (Perplexity API Key)"}},
			{name: "fs", kind: "stdio", where: "npx -y @modelcontextprotocol/server-filesystem " + project, dir: project,
				notes: []string{"envFile is left out"}},
			{name: "github", kind: "streamable HTTP", where: "https://api.githubcopilot.com/mcp/",
				notes: []string{"The header Authorization is left out"}},
			{name: "legacy-sse", kind: "SSE", where: "http://localhost:3001/sse"},
			{name: "needs-key-in-args", skipped: true, kind: "stdio",
				notes: []string{"Not imported: its args[2] uses a value VS Code asks for (weather-key), which Gatehouse cannot fill in."}},
		}},
		{"Windsurf: serverUrl, ${env:} env left out, a disabled server imported turned off", "mcp_config.json", Windsurf, false, []wantServer{
			{name: "github", kind: "stdio", where: "npx -y @modelcontextprotocol/server-github",
				notes: []string{"The environment variable GITHUB_PERSONAL_ACCESS_TOKEN is left out: its value is the environment variable GITHUB_TOKEN"}},
			{name: "figma", kind: "HTTP", where: "https://mcp.figma.com/mcp", headers: []string{"Authorization"}},
			{name: "puppeteer", off: true, kind: "stdio", where: "npx -y @modelcontextprotocol/server-puppeteer",
				notes: []string{"Turned off in Windsurf, so it is imported turned off.", "alwaysAllow is left out"}},
		}},
		{"Gemini CLI: url is SSE, httpUrl is Streamable HTTP, $VAR, trust and includeTools", "gemini-settings.json", Gemini, false, []wantServer{
			{name: "pythonTools", kind: "stdio", where: "python -m my_mcp_server --port 8080", dir: "./mcp-servers/python", env: []string{"API_KEY"},
				notes: []string{"The environment variable DATABASE_URL is left out: its value is the environment variable DB_CONNECTION_STRING",
					"trust is left out", "includeTools is left out", "timeout is left out: Gatehouse has no such setting."}},
			{name: "sseServer", kind: "SSE", where: "http://localhost:8080/sse"},
			{name: "httpServer", kind: "streamable HTTP", where: "http://localhost:3000/mcp", headers: []string{"Authorization"},
				notes: []string{"excludeTools is left out"}},
		}},
		{"Codex CLI: TOML tables, http_headers, bearer_token_env_var and env_http_headers", "codex-config.toml", Codex, false, []wantServer{
			{name: "context7", kind: "stdio", where: "npx -y @upstash/context7-mcp", env: []string{"CONTEXT7_API_KEY"},
				notes: []string{"startup_timeout_sec is left out"}},
			{name: "figma", kind: "HTTP", where: "https://mcp.figma.com/mcp", headers: []string{"X-Figma-Region"},
				notes: []string{"The header Authorization is left out: its value is the environment variable FIGMA_OAUTH_TOKEN",
					"The header X-Org-Id is left out: its value is the environment variable FIGMA_ORG"}},
			{name: "old-docs", off: true, kind: "stdio", where: "docs-server"},
		}},
		{"Zed: flat and nested command shapes, a remote server, an extension's server", "zed-settings.json", Zed, false, []wantServer{
			{name: "everything", kind: "stdio", where: "npx -y @modelcontextprotocol/server-everything"},
			{name: "sqlite", kind: "stdio", where: "uvx mcp-server-sqlite --db-path /home/alice/test.db", env: []string{"SQLITE_TOKEN"}},
			{name: "remote", kind: "HTTP", where: "https://mcp.example.com/mcp", headers: []string{"Authorization"}},
			{name: "mcp-server-github", skipped: true, notes: []string{"Not imported: it comes with a Zed extension."}},
		}},
		{"Cherry Studio: names, baseUrl, stdio/sse/streamableHttp, isActive, built-in servers", "cherry-studio-mcp.json", CherryStudio, false, []wantServer{
			{name: "fetch", kind: "stdio", where: "uvx mcp-server-fetch"},
			{name: "amap", off: true, kind: "SSE", where: "https://mcp.amap.com/sse?key=cherryAmapSecret123",
				notes: []string{"Turned off in Cherry Studio, so it is imported turned off."}},
			{name: "modelscope", kind: "streamable HTTP", where: "https://mcp.api-inference.modelscope.net/abc123/mcp", headers: []string{"Authorization"}},
			{name: "@cherry/fetch", skipped: true, notes: []string{"Not imported: it is built into Cherry Studio."}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Read(filepath.Join("testdata", tc.file), Options{Home: "/home/alice"})
			if err != nil {
				t.Fatal(err)
			}
			if p.Format != tc.format || p.Guess != tc.guess {
				t.Errorf("format %s (guess %v), want %s (guess %v)", p.Format, p.Guess, tc.format, tc.guess)
			}
			if !strings.Contains(p.FormatNote.In(i18n.English), tc.format.Name()) {
				t.Errorf("the format note %q does not name %s", p.FormatNote.In(i18n.English), tc.format.Name())
			}
			if len(p.Servers) != len(tc.servers) {
				t.Fatalf("%d servers, want %d: %+v", len(p.Servers), len(tc.servers), p.Servers)
			}
			for i, want := range tc.servers {
				checkEntry(t, p.Servers[i], want)
			}
		})
	}
}

func checkEntry(t *testing.T, e Entry, want wantServer) {
	t.Helper()
	notes := make([]string, len(e.Notes))
	for i, n := range e.Notes {
		notes[i] = n.Message.In(i18n.English)
	}
	if e.Name != want.name || e.Import == want.skipped || e.Kind != want.kind {
		t.Errorf("%s: name %q, imported %v, kind %q; want %q, %v, %q (notes %q)", e.SourceName, e.Name, e.Import, e.Kind, want.name, !want.skipped, want.kind, notes)
	}
	for _, w := range want.notes {
		if !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, w) }) {
			t.Errorf("%s: no note says %q; notes: %q", e.Name, w, notes)
		}
	}
	if want.skipped {
		return
	}
	srv := e.Server()
	if srv.Name != want.name || srv.Enabled == want.off {
		t.Errorf("%s: stored name %q, enabled %v", e.Name, srv.Name, srv.Enabled)
	}
	var where, dir string
	var env, headers []string
	switch srv.Transport {
	case store.TransportStdio:
		where = strings.Join(append([]string{srv.Stdio.Command}, srv.Stdio.Args...), " ")
		dir = srv.Stdio.Dir
		env = slices.Sorted(maps.Keys(srv.Stdio.Env))
	case store.TransportHTTP:
		where = srv.HTTP.URL
		headers = slices.Sorted(maps.Keys(srv.HTTP.Headers))
	}
	if where != want.where || dir != want.dir || !slices.Equal(env, want.env) || !slices.Equal(headers, want.headers) {
		t.Errorf("%s: stored %q in %q, env %v, headers %v; want %q in %q, env %v, headers %v", e.Name, where, dir, env, headers, want.where, want.dir, want.env, want.headers)
	}
}

// The secret values written in the testdata files: none may reach a preview.
var secrets = []string{"ghp_claudeDesktopSecret0123456789abcdef", "BSAbraveSecretValue42", "pgSecretPw99", "lin_api_cursorSecret123456",
	"ghp_claudeCodeUserSecret0123456789abc", "figd_windsurfSecret0123456", "geminiLiteralSecret123", "geminiHeaderSecret456",
	"ctx7sk-codexSecret0123456789", "zedNestedSecret789", "zedHeaderSecret000", "ghp_zedExtensionSecret0123456789",
	"cherryAmapSecret123", "ms-cherrySecret0987654321", "us-east-1", "disable"}

func TestRead_PreviewNeverHoldsASecret(t *testing.T) {
	files, err := filepath.Glob("testdata/*.*")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "testdata/project/.vscode/mcp.json", "testdata/project/.mcp.json")
	previews := 0
	for _, f := range files {
		p, err := Read(f, Options{Home: "/home/alice"})
		if err != nil {
			continue // broken and unknown files: TestRead_BadFiles
		}
		previews++
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("%s: the preview shows the secret %q", f, s)
			}
		}
		// The window takes lists as they come: never null.
		if strings.Contains(string(b), ":null") {
			t.Errorf("%s: the preview has a null: %s", f, b)
		}
		// The stored servers keep them: masking is for showing only.
		for _, e := range p.Servers {
			if b, _ := json.Marshal(e); strings.Contains(string(b), "GATEHOUSEMASKED") {
				t.Errorf("%s: a mask placeholder leaked: %s", f, b)
			}
		}
	}
	if previews != 10 {
		t.Errorf("read %d previews, want 10 (one per testdata file of servers)", previews)
	}
	p, err := Read("testdata/cursor-mcp.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Servers[1].Server().HTTP.Headers["Authorization"]; got != "Bearer lin_api_cursorSecret123456" {
		t.Errorf("the stored header is %q, want the file's value", got)
	}
}

func TestRead_NameClashesGetAFreeName(t *testing.T) {
	p, err := Read("testdata/claude.json", Options{Home: "/home/alice", Existing: []string{" GitHub ", "github-2", "Playwright"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range p.Servers {
		got = append(got, e.Name+"="+e.Server().Name)
	}
	if want := []string{"github-3=github-3", "github-4=github-4", "playwright-2=playwright-2"}; !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	note := p.Servers[0].Notes[len(p.Servers[0].Notes)-1]
	if note.Kind != NoteChanged || note.Message.In(i18n.English) != "Gatehouse already has a server named github, so this one is imported as github-3." {
		t.Errorf("rename note = %+v", note)
	}
}

func TestRead_BadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name   string
		file   string
		is     error
		wantEn string
	}{
		{"broken JSON says the line and column", "testdata/broken.json", ErrSyntax, "broken.json is broken at line 6, column 7: invalid character"},
		{"broken TOML says the line and column", "testdata/broken.toml", ErrSyntax, "broken.toml is broken at line 5, column 19"},
		{"an unclosed comment in JSONC", write("c.json", "{\n  \"servers\": {}\n  /* never closed\n"), ErrSyntax, "c.json is broken at line 3"},
		{"JSON of something else names the formats", "testdata/package.json", ErrUnknownFormat,
			"holds no MCP servers in a format Gatehouse can import. It reads the files of Claude Desktop, Cursor, Claude Code, VS Code, Windsurf, Gemini CLI, Codex CLI, Zed, Qwen Code and Cherry Studio."},
		{"TOML of something else", "testdata/Cargo.toml", ErrUnknownFormat, "holds no MCP servers"},
		{"a JSON array", write("a.json", `[{"mcpServers": {}}]`), ErrUnknownFormat, "holds no MCP servers"},
		{"plain text", write("notes.txt", "just some notes\n"), ErrUnknownFormat, "holds no MCP servers"},
		{"binary", write("x.bin", "\x00\xff\xfe"), ErrUnknownFormat, "holds no MCP servers"},
		{"a missing file", filepath.Join(dir, "nope.json"), os.ErrNotExist, "Cannot read"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(tc.file, Options{})
			if !errors.Is(err, tc.is) {
				t.Fatalf("err = %v, want %v", err, tc.is)
			}
			if msg := i18n.ErrorMessage(err); !strings.Contains(msg.In(i18n.English), tc.wantEn) || msg.Key == "" {
				t.Errorf("says %q, want a sentence with %q", msg.In(i18n.English), tc.wantEn)
			}
		})
	}
}

func TestRead_OddEntriesAreExplainedNotFatal(t *testing.T) {
	data := `{"mcpServers": {
		"good": {"command": "node", "args": ["s.js"]},
		"numbers": {"command": "node", "args": ["s.js", 8080], "env": {"PORT": 3000}},
		"bad-args": {"command": "node", "args": "s.js"},
		"nothing": {"env": {}},
		"odd-type": {"type": "websocket", "url": "ws://x"},
		"not-an-object": "node s.js"
	}}`
	p, err := Parse("/tmp/x.json", []byte(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []wantServer{
		{name: "good", kind: "stdio", where: "node s.js"},
		{name: "numbers", kind: "stdio", where: "node s.js 8080", env: []string{"PORT"}},
		{name: "bad-args", skipped: true, kind: "stdio", notes: []string{"Not imported: its args is not a list of text."}},
		{name: "nothing", skipped: true, notes: []string{"Not imported: it has neither a command nor a URL."}},
		{name: "odd-type", skipped: true, notes: []string{"Not imported: Gatehouse does not know the transport websocket."}},
		{name: "not-an-object", skipped: true, notes: []string{"Not imported: it is not a set of settings."}},
	}
	for i, w := range want {
		checkEntry(t, p.Servers[i], w)
	}
}

func TestRead_VariablesOutsideAProject(t *testing.T) {
	// The same VS Code file as a user's mcp.json: no folder is open, so
	// ${workspaceFolder} cannot be filled in and that server is left out.
	data, err := os.ReadFile("testdata/project/.vscode/mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("/home/alice/.config/Code/User/mcp.json", data, Options{Home: "/home/alice"})
	if err != nil {
		t.Fatal(err)
	}
	checkEntry(t, p.Servers[1], wantServer{name: "fs", skipped: true, kind: "stdio",
		notes: []string{"Not imported: its args[2] uses the folder open in the editor (${workspaceFolder}), which Gatehouse cannot fill in."}})
	// ${userHome} is always known.
	p, err = Parse("/x/mcp.json", []byte(`{"servers": {"h": {"command": "${userHome}/bin/s", "args": ["${env:HOME}"]}}}`), Options{Home: "/home/alice"})
	if err != nil {
		t.Fatal(err)
	}
	checkEntry(t, p.Servers[0], wantServer{name: "h", skipped: true, kind: "stdio", notes: []string{"its args[0] uses the environment variable HOME"}})
	p, _ = Parse("/x/mcp.json", []byte(`{"servers": {"h": {"command": "${userHome}/bin/s"}}}`), Options{Home: "/home/alice"})
	checkEntry(t, p.Servers[0], wantServer{name: "h", kind: "stdio", where: "/home/alice/bin/s"})
	// Apps that do not expand variables keep $ as written.
	p, _ = Parse("/x/settings.json", []byte(`{"context_servers": {"z": {"command": "echo", "args": ["${HOME}", "$PATH"]}}}`), Options{})
	checkEntry(t, p.Servers[0], wantServer{name: "z", kind: "stdio", where: "echo ${HOME} $PATH"})
}

func TestRead_VSCodeSettingsShape(t *testing.T) {
	data := `{
		"editor.fontSize": 14,
		// MCP servers inside settings.json, as VS Code first had them
		"mcp": {"servers": {"time": {"type": "stdio", "command": "uvx", "args": ["mcp-server-time"]}}},
	}`
	p, err := Parse("/home/alice/.config/Code/User/settings.json", []byte(data), Options{})
	if err != nil || p.Format != VSCode {
		t.Fatalf("format %s, err %v", p.Format, err)
	}
	checkEntry(t, p.Servers[0], wantServer{name: "time", kind: "stdio", where: "uvx mcp-server-time"})
}

func TestKnownLocations(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	for _, p := range []string{
		filepath.Join(home, ".config/Claude/claude_desktop_config.json"),
		filepath.Join(home, ".codex/config.toml"),
		filepath.Join(cwd, ".vscode/mcp.json"),
		filepath.Join(cwd, ".mcp.json"),
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".cursor", "mcp.json"), 0o700); err != nil { // a folder, not a file
		t.Fatal(err)
	}
	got := KnownLocations(home, cwd)
	// The project folder's files say whose they are.
	want := []Location{
		{filepath.Join(home, ".config/Claude/claude_desktop_config.json"), ClaudeDesktop, ""},
		{filepath.Join(cwd, ".mcp.json"), ClaudeCode, cwd},
		{filepath.Join(cwd, ".vscode/mcp.json"), VSCode, cwd},
		{filepath.Join(home, ".codex/config.toml"), Codex, ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("KnownLocations = %v\nwant %v", got, want)
	}
	got = KnownLocations(home, home)
	if len(got) != 2 || got[0].Project != "" || got[1].Project != "" {
		t.Errorf("with cwd = home each file must be listed once, as the person's own: %v", got)
	}
}
