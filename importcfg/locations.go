package importcfg

import (
	"os"
	"path/filepath"
)

// Location is a file at a place where an app keeps its MCP servers.
type Location struct {
	// Path is the file's absolute path.
	Path string `json:"path"`
	// Format is the app that keeps its servers there. The file's content
	// decides how it is read; this is for the list the person chooses from.
	Format Format `json:"format"`
	// Project is the project folder the file belongs to (the folder
	// Gatehouse was started in), "" for a file of the home folder: a
	// project's file was written by whoever can change the project, and is
	// offered apart from the person's own apps' files.
	Project string `json:"project"`
}

// places are where the apps keep their MCP servers on Linux, in the order
// of Formats: each app's file in the home folder (the user's own servers)
// first, then the file a project folder may have. The first home file of an
// app is the one [UserFile] names.
var places = []struct {
	format  Format
	project bool // rel is inside a project folder, not the home folder
	rel     string
}{
	{ClaudeDesktop, false, ".config/Claude/claude_desktop_config.json"},
	{Cursor, false, ".cursor/mcp.json"},
	{Cursor, true, ".cursor/mcp.json"},
	{ClaudeCode, false, ".claude.json"},
	{ClaudeCode, true, ".mcp.json"},
	{VSCode, false, ".config/Code/User/mcp.json"},
	{VSCode, false, ".config/Code - Insiders/User/mcp.json"},
	{VSCode, false, ".config/VSCodium/User/mcp.json"},
	{VSCode, true, ".vscode/mcp.json"},
	{Windsurf, false, ".codeium/windsurf/mcp_config.json"},
	{Gemini, false, ".gemini/settings.json"},
	{Gemini, true, ".gemini/settings.json"},
	{Codex, false, ".codex/config.toml"},
	{Zed, false, ".config/zed/settings.json"},
	{Zed, true, ".zed/settings.json"},
	{Qwen, false, ".qwen/settings.json"},
	{Qwen, true, ".qwen/settings.json"},
}

// UserFile returns the file in the home folder where f's app keeps the MCP
// servers of its user (not of a project), whether or not it exists: the
// file Gatehouse imports from and package connectapp writes its gateway
// entry into. It is "" for Cherry Studio, which keeps its servers in its
// own database, and for an unknown format.
func UserFile(f Format, home string) string {
	for _, p := range places {
		if p.format == f && !p.project {
			return filepath.Join(home, p.rel)
		}
	}
	return ""
}

// KnownLocations returns the files that exist at the places the apps keep
// their servers on Linux: in the home folder, and in the project folder cwd
// (skipped when empty; its files say so in Project). Each file is listed
// once, in the order of Formats.
// Cherry Studio keeps its servers in its own database, so only an export
// the person saves can be imported from it.
func KnownLocations(home, cwd string) []Location {
	out := []Location{}
	seen := map[string]bool{}
	project := ""
	if cwd != "" && filepath.Clean(cwd) != filepath.Clean(home) {
		project, _ = filepath.Abs(cwd)
	}
	for _, p := range places {
		base := home
		if p.project {
			base = cwd
		}
		if base == "" {
			continue
		}
		path, err := filepath.Abs(filepath.Join(base, p.rel))
		if err != nil || seen[path] {
			continue
		}
		if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		seen[path] = true
		l := Location{Path: path, Format: p.format}
		if p.project {
			l.Project = project
		}
		out = append(out, l)
	}
	return out
}
