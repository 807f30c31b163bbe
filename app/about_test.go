package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// keyOf is the catalogue key of a Gatehouse error, "" for another error.
func keyOf(err error) string {
	m, ok := i18n.MessageOf(err)
	if !ok {
		return ""
	}
	return m.Key
}

// TestLicences_EveryCompiledInModule: Settings → About lists every module
// the production binary and gatehouse-gateway compile in, at the version
// built, with a licence; the JavaScript packages bundled.txt names, at the
// versions in node_modules; and Gatehouse's own licence, the LICENSE file.
// It fails after go.mod changes until `go generate ./app/` is run.
func TestLicences_EveryCompiledInModule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	l, err := NewSettingsService(nil).Licences()
	if err != nil {
		t.Fatal(err)
	}
	if l.Gatehouse != "Apache-2.0" || Licence != "Apache-2.0" {
		t.Errorf("Gatehouse's licence = %q, %q; want Apache-2.0", l.Gatehouse, Licence)
	}
	got := map[string]CompiledIn{}
	for _, m := range l.Modules {
		if m.Licence == "" || m.Version == "" {
			t.Errorf("%s %s has no licence or version: %+v", m.Kind, m.Name, m)
		}
		got[m.Kind+":"+m.Name] = m
	}
	if std := got["go:std"]; std.Version != runtime.Version() {
		t.Errorf("the Go standard library is listed at %q, built with %s: run go generate ./app/", std.Version, runtime.Version())
	}
	out, err := exec.Command("go", "list", "-C", "..", "-deps", "-tags", "desktop,production,webkit2_41",
		"-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{end}}{{end}}", ".", "./cmd/gatehouse-gateway").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{} // a line per package: a module's once
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, version, _ := strings.Cut(line, " ")
		if seen[path] {
			continue
		}
		seen[path] = true
		m, ok := got["go:"+path]
		if !ok {
			t.Errorf("the Go module %s is compiled in but not in app/licences.json: run go generate ./app/", path)
		} else if m.Version != version {
			t.Errorf("%s is compiled in at %s but listed at %s: run go generate ./app/", path, version, m.Version)
		}
	}
	if len(seen) < 20 {
		t.Errorf("go list found %d modules; the program compiles in about 50", len(seen))
	}
	npm := 0
	for key, m := range got {
		if m.Kind != "npm" {
			continue
		}
		npm++
		raw, err := os.ReadFile(filepath.Join("..", "frontend", "node_modules", m.Name, "package.json"))
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		var pkg struct{ Version string }
		if json.Unmarshal(raw, &pkg) != nil || pkg.Version != m.Version {
			t.Errorf("%s is %s in node_modules but listed at %s: run go generate ./app/", m.Name, pkg.Version, m.Version)
		}
	}
	if npm == 0 || got["npm:svelte"].Licence != "Expat" {
		t.Errorf("the JavaScript packages bundled into the window are missing: %d, svelte %+v", npm, got["npm:svelte"])
	}
	licence, err := os.ReadFile(filepath.Join("..", "LICENSE"))
	if err != nil || !bytes.HasPrefix(bytes.TrimSpace(licence), []byte("Apache License")) || !bytes.Contains(licence, []byte("Version 2.0, January 2004")) {
		t.Errorf("LICENSE at the root is not the Apache License 2.0 (%v)", err)
	}
}

// TestLicences_Generated: the embedded list is exactly what the generator
// writes now (deterministic and up to date).
func TestLicences_Generated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs scripts/genlicences")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out := filepath.Join(t.TempDir(), "licences.json")
	for i := range 2 {
		cmd := exec.Command("go", "run", "../scripts/genlicences", "-root", "..", "-out", out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("genlicences: %v\n%s", err, b)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, licencesJSON) {
			t.Fatalf("run %d: app/licences.json is not what scripts/genlicences writes now: run go generate ./app/", i+1)
		}
	}
}

// TestSettingsService_Section: the settings pane's section is kept in the
// data file (what the next start reads), only one of the pane's sections.
func TestSettingsService_Section(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewSettingsService(core)
	if s, err := svc.Section(); err != nil || s != "" {
		t.Fatalf("a new data file: %q %v, want the first section", s, err)
	}
	for _, section := range SettingsSections {
		if err := svc.SetSection(section); err != nil {
			t.Fatalf("SetSection(%q): %v", section, err)
		}
		// Another service on the same data file: as after a restart.
		if got, err := NewSettingsService(core).Section(); err != nil || got != section {
			t.Errorf("after SetSection(%q): %q %v", section, got, err)
		}
	}
	for _, bad := range []string{"", "Models", "../about", "x"} {
		if err := svc.SetSection(bad); keyOf(err) != "settings.error.section" {
			t.Errorf("SetSection(%q) = %v, want settings.error.section", bad, err)
		}
	}
	if got, _ := svc.Section(); got != "about" {
		t.Errorf("a refused section changed the kept one: %q", got)
	}
}

// TestSettingsService_DocsLinks: only Gatehouse's own documents are checked,
// by name, and opened by the ID Go gave them, after the window's consent.
func TestSettingsService_DocsLinks(t *testing.T) {
	log := fakeBrowser(t)
	svc := NewSettingsService(nil)
	for name, want := range map[string]string{
		"readme":  "https://github.com/gatehouse-app/gatehouse#readme",
		"docs":    "https://github.com/gatehouse-app/gatehouse/tree/main/docs",
		"licence": "https://github.com/gatehouse-app/gatehouse/blob/main/LICENSE",
	} {
		c, err := svc.CheckDocsLink(name)
		if err != nil || c.ID == "" || c.Link == nil || c.Link.URL != want || c.Link.ASCIIHost != "github.com" {
			t.Errorf("CheckDocsLink(%q) = %+v, %v; want %s", name, c, err, want)
		}
	}
	for _, bad := range []string{"", "https://evil.example/", "README"} {
		if _, err := svc.CheckDocsLink(bad); keyOf(err) != "settings.error.docsLink" {
			t.Errorf("CheckDocsLink(%q) = %v, want settings.error.docsLink", bad, err)
		}
	}
	if err := svc.OpenDocsLink("not-an-id"); !errors.Is(err, errUnknownLink) {
		t.Errorf("OpenDocsLink(unknown) = %v", err)
	}
	if got := browserArgs(t, log); got != nil {
		t.Fatalf("the browser ran before anything was opened: %q", got)
	}
	c, _ := svc.CheckDocsLink("readme")
	if err := svc.OpenDocsLink(c.ID); err != nil {
		t.Fatal(err)
	}
	if got := browserArgs(t, log); len(got) != 1 || got[0] != "ARG:https://github.com/gatehouse-app/gatehouse#readme" {
		t.Errorf("the browser got %q", got)
	}
}

// TestSettingsService_OpenDataFolder: the file manager gets the data folder
// as its one argument, and nothing else; a failure says so in a sentence.
func TestSettingsService_OpenDataFolder(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewSettingsService(core)
	log := fakeBrowser(t)
	if err := svc.OpenDataFolder(); err != nil {
		t.Fatal(err)
	}
	if got := browserArgs(t, log); len(got) != 1 || got[0] != "ARG:"+core.Store.Dir() {
		t.Errorf("xdg-open got %q, want only %q", got, core.Store.Dir())
	}

	failing := t.TempDir()
	script := "#!/bin/sh\necho 'no file manager' >&2\nexit 4\n"
	if err := os.WriteFile(filepath.Join(failing, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", failing)
	if err := svc.OpenDataFolder(); keyOf(err) != "settings.error.openFolder" || !strings.Contains(err.Error(), "no file manager") {
		t.Errorf("a failing opener: %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	if err := svc.OpenDataFolder(); keyOf(err) != "settings.error.noOpener" {
		t.Errorf("no opener: %v", err)
	}
	if err := openFolder("relative/dir"); keyOf(err) != "settings.error.openFolder" {
		t.Errorf("a relative folder: %v", err)
	}
}
