package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
)

func TestImportService_LocationsListsTheAppsFilesFound(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	put := func(dir, rel string) string {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(`{"mcpServers": {}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	claude := put(home, ".config/Claude/claude_desktop_config.json")
	codex := put(home, ".codex/config.toml")
	projectFile := put(project, ".mcp.json")
	put(home, ".config/Claude/other.json") // not a place an app reads

	core, _ := openTestCore(t)
	svc := NewImportService(NewServersService(core), nil)
	svc.home, svc.cwd = home, project
	got := svc.Locations()
	want := []ImportLocation{
		{Path: claude, Format: importcfg.ClaudeDesktop, App: "Claude Desktop"},
		{Path: projectFile, Format: importcfg.ClaudeCode, App: "Claude Code", Project: project},
		{Path: codex, Format: importcfg.Codex, App: "Codex CLI"},
	}
	if len(got) != len(want) {
		t.Fatalf("locations %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("location %d is %+v; want %+v", i, got[i], want[i])
		}
	}

	svc.home, svc.cwd = t.TempDir(), t.TempDir()
	if got := svc.Locations(); got == nil || len(got) != 0 {
		t.Errorf("nothing found is %#v; want an empty list (never null for the window)", got)
	}
}

// fakeOpener records what the open dialog was asked and answers path.
type fakeOpener struct {
	path string
	opts wruntime.OpenDialogOptions
}

func (f *fakeOpener) OpenFile(opts wruntime.OpenDialogOptions) (string, error) {
	f.opts = opts
	return f.path, nil
}

func TestImportService_ChooseFileOffersConfigFilesAndHiddenFolders(t *testing.T) {
	core, _ := openTestCore(t)
	opener := &fakeOpener{path: "/home/alice/.cursor/mcp.json"}
	svc := NewImportService(NewServersService(core), opener)
	got, err := svc.ChooseFile()
	if err != nil || got != opener.path {
		t.Fatalf("ChooseFile = %q, %v", got, err)
	}
	if !opener.opts.ShowHiddenFiles {
		t.Error("hidden files are not shown: the apps keep their files in dot folders")
	}
	var patterns []string
	for _, f := range opener.opts.Filters {
		patterns = append(patterns, f.Pattern)
		if f.DisplayName == "" {
			t.Errorf("filter %q has no name", f.Pattern)
		}
	}
	if strings.Join(patterns, " ") != "*.json;*.toml *" {
		t.Errorf("filters %q; want JSON and TOML files, then all files", patterns)
	}

	_, err = NewImportService(NewServersService(core), nil).ChooseFile()
	if m, ok := i18n.MessageOf(err); !ok || m.Key != "importui.error.noWindow" {
		t.Errorf("without a window: %v", err)
	}
}

func TestImportService_CheckName(t *testing.T) {
	core, _ := openTestCore(t) // has "Demo server"
	svc := NewImportService(NewServersService(core), nil)
	tests := []struct {
		name    string
		input   string
		wantKey string
	}{
		{"a free name is fine", "Trip planner", ""},
		{"a taken name is refused, ignoring case", "demo SERVER", "servers.error.duplicate"},
		{"spaces around a taken name do not hide it", "  Demo server ", "servers.error.duplicate"},
		{"an empty name is refused", "   ", "servers.error.noName"},
		{"a name over 100 characters is refused", strings.Repeat("x", 101), "servers.error.longName"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := svc.CheckName(tt.input); got.Key != tt.wantKey {
				t.Errorf("CheckName(%q) = %q (%s); want %q", tt.input, got.Key, got, tt.wantKey)
			}
		})
	}
}
