package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// TestCLI_ToolsMarksAppTools: `gatehouse tools` marks the tools of a real
// server (the TypeScript SDK peer cli/testdata/app-tools.mjs) that declare
// an interface (MCP Apps, _meta.ui): "[app]", or "[app only]" for a tool
// whose visibility leaves out the model (with a resource of its own or
// not); a tool without one, whose resource is not ui://, or only for the
// model without a resource, is listed as before. In English and Chinese.
func TestCLI_ToolsMarksAppTools(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir(t)) // no app runs on this data folder
	t.Cleanup(func() { i18n.SetLanguage(i18n.English) })
	_, file, _, _ := runtime.Caller(0)
	if _, err := os.Stat(filepath.Join(filepath.Dir(file), "..", "testdata", "peers", "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatal("the TypeScript peers are not installed (run: make peers)")
		}
		t.Skip("the TypeScript peers are not installed (run: make peers)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed")
	}
	dir := t.TempDir()
	if code, _, errOut := gh(t, dir, "servers", "add", "Budget", "--", node, filepath.Join(filepath.Dir(file), "testdata", "app-tools.mjs")); code != 0 {
		t.Fatal(errOut)
	}
	for _, lang := range []struct {
		name    string
		env     map[string]string
		app     string
		appOnly string
	}{
		{"English", map[string]string{"LANG": "C.UTF-8"}, "[app]", "[app only]"},
		{"Chinese", map[string]string{"LANG": "zh_CN.UTF-8"}, "[应用]", "[仅供应用]"},
	} {
		t.Run(lang.name, func(t *testing.T) {
			i18n.SetLanguage(i18n.FromEnv(func(k string) string { return lang.env[k] }))
			code, out, errOut := gh(t, dir, "tools", "Budget")
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			lines := map[string]string{}
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				name, rest, _ := strings.Cut(l, "\t")
				lines[name] = rest
			}
			for _, tc := range []struct{ tool, want string }{
				{"show-budget", lang.app + " The show-budget tool."},
				{"set-budget", lang.appOnly + " The set-budget tool."},
				{"legacy-view", lang.app + " The legacy-view tool."},
				{"model-view", lang.app + " The model-view tool."},
				{"not-ui", "The not-ui tool."},
				{"poll", lang.appOnly + " The poll tool."},
				{"model-only", "The model-only tool."},
				{"plain", "The plain tool."},
			} {
				if got, ok := lines[tc.tool]; !ok || got != tc.want {
					t.Errorf("%s: got %q, want %q\n%s", tc.tool, got, tc.want, out)
				}
			}
			if len(lines) != 8 {
				t.Errorf("want 8 tools, got %d:\n%s", len(lines), out)
			}
		})
	}
}
