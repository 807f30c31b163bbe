package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/importcfg"
)

// `gatehouse connect APP` as a person uses it: the preview with the exact
// change, the question, the write only after "y", the file read back by
// the importer with the gateway's command line, then --list and --undo.
func TestCLI_ConnectPreviewsAsksWritesAndUndoes(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := t.TempDir()
	file := filepath.Join(home, ".gemini", "settings.json")
	before := "{\n  \"theme\": \"GitHub\",\n  \"mcpServers\": {\n    \"time\": {\"command\": \"uvx\", \"args\": [\"mcp-server-time\"], \"env\": {\"TZ_TOKEN\": \"tok-0123456789\"}}\n  }\n}\n"
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)

	t.Run("no answer, nothing written", func(t *testing.T) {
		code, out, errOut := ghInput(t, dir, "\n", true, "connect", "gemini")
		if code != 0 {
			t.Fatalf("code %d: %s", code, errOut)
		}
		for _, want := range []string{
			"Gemini CLI: " + file,
			"Entry gatehouse: " + exe + " --data-dir " + dir + " gateway",
			"+    \"gatehouse\": {",
			"\"TZ_TOKEN\": \"••••••\"",
			"Write this change? [y/N] Nothing was changed.",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "tok-0123456789") {
			t.Errorf("the preview shows a secret:\n%s", out)
		}
		if data, _ := os.ReadFile(file); string(data) != before {
			t.Error("the file was written without a yes")
		}
	})

	t.Run("no terminal and no --yes: refused", func(t *testing.T) {
		code, _, errOut := ghInput(t, dir, "", false, "connect", "gemini")
		if code != 1 || !strings.Contains(errOut, "there is no terminal to confirm on") {
			t.Fatalf("code %d: %s", code, errOut)
		}
	})

	t.Run("yes writes, the importer reads the entry back", func(t *testing.T) {
		code, out, errOut := ghInput(t, dir, "y\n", true, "connect", "gemini")
		if code != 0 || !strings.Contains(out, "Connected Gemini CLI: wrote "+file) || !strings.Contains(out, "gatehouse connect --undo gemini") {
			t.Fatalf("code %d: %s%s", code, out, errOut)
		}
		p, err := importcfg.Read(file, importcfg.Options{Home: home})
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, s := range p.Servers {
			if srv := s.Server(); s.SourceName == "gatehouse" && srv.Stdio != nil && srv.Stdio.Command == exe &&
				slices.Equal(srv.Stdio.Args, []string{"--data-dir", dir, "gateway"}) {
				found = true
			}
		}
		if !found || len(p.Servers) != 2 {
			t.Errorf("read back: %+v", p.Servers)
		}
		code, out, _ = ghInput(t, dir, "", false, "connect", "gemini", "--yes")
		if code != 0 || !strings.Contains(out, "Gemini CLI is already connected") {
			t.Errorf("again: code %d: %s", code, out)
		}
	})

	t.Run("--list", func(t *testing.T) {
		code, out, errOut := ghInput(t, dir, "", false, "connect", "--list")
		if code != 0 {
			t.Fatalf("code %d: %s", code, errOut)
		}
		for _, want := range []string{"APP ", "gemini ", "connected", filepath.Join(home, ".codex", "config.toml"), "no file yet",
			"can be taken back with gatehouse connect --undo gemini"} {
			if !strings.Contains(out, want) {
				t.Errorf("--list lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("--undo puts the file back", func(t *testing.T) {
		code, out, errOut := ghInput(t, dir, "y\n", true, "connect", "--undo", "gemini")
		if code != 0 || !strings.Contains(out, "is as it was before") {
			t.Fatalf("code %d: %s%s", code, out, errOut)
		}
		if data, _ := os.ReadFile(file); string(data) != before {
			t.Errorf("after undo:\n%s", data)
		}
		code, _, errOut = ghInput(t, dir, "", false, "connect", "--undo", "gemini", "--yes")
		if code != 1 || !strings.Contains(errOut, "no change to Gemini CLI’s file") {
			t.Errorf("second undo: code %d: %s", code, errOut)
		}
	})

	t.Run("usage mistakes", func(t *testing.T) {
		for _, args := range [][]string{{"connect"}, {"connect", "nosuch"}, {"connect", "--list", "gemini"}, {"connect", "--bogus", "gemini"}} {
			code, _, errOut := ghInput(t, dir, "", false, args...)
			if code == 0 || errOut == "" {
				t.Errorf("%q: code %d", args, code)
			}
		}
	})
}

// After `gatehouse servers import`, `connect --replace` takes the imported
// servers out of the app's file (their secrets then live in Gatehouse
// alone) and leaves the one Gatehouse does not have as it is.
func TestCLI_ConnectReplaceTakesOutWhatWasImported(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := t.TempDir()
	file := filepath.Join(home, ".codex", "config.toml")
	before := "model = \"o3\"\n\n[mcp_servers.fs]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/tmp\"]\n\n" +
		"[mcp_servers.gh]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-github\"]\n[mcp_servers.gh.env]\nGITHUB_PERSONAL_ACCESS_TOKEN = \"ghp_secretsecret123\"\n"
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := ghInput(t, dir, "", false, "servers", "import", file, "--yes"); code != 0 {
		t.Fatal(errOut)
	}
	// A server added to the file after the import is not Gatehouse's.
	later := before + "\n[mcp_servers.later]\ncommand = \"uvx\"\nargs = [\"mcp-server-time\"]\n"
	if err := os.WriteFile(file, []byte(later), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := ghInput(t, dir, "", false, "connect", "codex", "--replace", "--yes")
	if code != 0 {
		t.Fatalf("code %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{"Taken out (Gatehouse has them, with their settings): fs, gh", "Left in the file (Gatehouse does not have them as they are): later"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	after, _ := os.ReadFile(file)
	if strings.Contains(string(after), "ghp_secretsecret123") || strings.Contains(string(after), "server-filesystem") ||
		!strings.Contains(string(after), "[mcp_servers.later]") || !strings.Contains(string(after), "[mcp_servers.gatehouse]") {
		t.Errorf("after:\n%s", after)
	}
	if code, _, errOut := ghInput(t, dir, "", false, "connect", "--undo", "codex", "--yes"); code != 0 {
		t.Fatal(errOut)
	}
	if back, _ := os.ReadFile(file); string(back) != later {
		t.Errorf("after undo:\n%s", back)
	}
}

// After `connect --replace`, Codex rewrote its file (a setting, a server of
// its own): `connect --undo` no longer puts the backup back over that, but
// shows how it takes out only Gatehouse's entry and puts back the servers
// it took out, asks, and writes that; the importer reads the result.
func TestCLI_ConnectUndoAfterTheAppChangedItsFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := t.TempDir()
	file := filepath.Join(home, ".codex", "config.toml")
	before := "model = \"o3\"\n\n[mcp_servers.fs]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/tmp\"]\n"
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := ghInput(t, dir, "", false, "servers", "import", file, "--yes"); code != 0 {
		t.Fatal(errOut)
	}
	if code, out, errOut := ghInput(t, dir, "", false, "connect", "codex", "--replace", "--yes"); code != 0 {
		t.Fatalf("code %d: %s%s", code, out, errOut)
	}
	written, _ := os.ReadFile(file)
	edited := strings.Replace(string(written), "model = \"o3\"", "model = \"o4\"", 1) + "\n[mcp_servers.web]\ncommand = \"web-mcp\"\n"
	if err := os.WriteFile(file, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := ghInput(t, dir, "\n", true, "connect", "--undo", "codex")
	if code != 0 || !strings.Contains(out, "Nothing was changed.") {
		t.Fatalf("code %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{"changed after Gatehouse’s change of", "Taken out: Gatehouse’s entry gatehouse",
		"Put back as they were (Gatehouse had taken them out): fs", "-[mcp_servers.gatehouse]", "+[mcp_servers.fs]", "Write this change? [y/N]"} {
		if !strings.Contains(out, want) {
			t.Errorf("the preview lacks %q:\n%s", want, out)
		}
	}
	if data, _ := os.ReadFile(file); string(data) != edited {
		t.Fatal("written without a yes")
	}

	code, out, errOut = ghInput(t, dir, "y\n", true, "connect", "--undo", "codex")
	if code != 0 || !strings.Contains(out, "Took Gatehouse’s part out of "+file) {
		t.Fatalf("code %d: %s%s", code, out, errOut)
	}
	after, _ := os.ReadFile(file)
	if strings.Contains(string(after), "gatehouse") || !strings.Contains(string(after), "model = \"o4\"") || !strings.Contains(string(after), "[mcp_servers.web]") {
		t.Errorf("after:\n%s", after)
	}
	p, err := importcfg.Read(file, importcfg.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range p.Servers {
		names = append(names, s.SourceName)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"fs", "web"}) {
		t.Errorf("the importer reads %q", names)
	}
}
