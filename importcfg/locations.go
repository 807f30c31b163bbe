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

// KnownLocations returns the files that exist at the places the apps keep
// their servers on Linux: in the home folder, and in the project folder cwd
// (skipped when empty; its files say so in Project). Each file is listed
// once, in the order of Formats.
// Cherry Studio keeps its servers in its own database, so only an export
// the person saves can be imported from it.
func KnownLocations(home, cwd string) []Location {
	type place struct {
		format Format
		base   string
		rel    string
	}
	places := []place{
		{ClaudeDesktop, home, ".config/Claude/claude_desktop_config.json"},
		{Cursor, home, ".cursor/mcp.json"},
		{Cursor, cwd, ".cursor/mcp.json"},
		{ClaudeCode, home, ".claude.json"},
		{ClaudeCode, cwd, ".mcp.json"},
		{VSCode, home, ".config/Code/User/mcp.json"},
		{VSCode, home, ".config/Code - Insiders/User/mcp.json"},
		{VSCode, home, ".config/VSCodium/User/mcp.json"},
		{VSCode, cwd, ".vscode/mcp.json"},
		{Windsurf, home, ".codeium/windsurf/mcp_config.json"},
		{Gemini, home, ".gemini/settings.json"},
		{Gemini, cwd, ".gemini/settings.json"},
		{Codex, home, ".codex/config.toml"},
		{Zed, home, ".config/zed/settings.json"},
		{Zed, cwd, ".zed/settings.json"},
	}
	out := []Location{}
	seen := map[string]bool{}
	project := ""
	if cwd != "" && filepath.Clean(cwd) != filepath.Clean(home) {
		project, _ = filepath.Abs(cwd)
	}
	for _, p := range places {
		if p.base == "" {
			continue
		}
		path, err := filepath.Abs(filepath.Join(p.base, p.rel))
		if err != nil || seen[path] {
			continue
		}
		if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		seen[path] = true
		l := Location{Path: path, Format: p.format}
		if p.base == cwd {
			l.Project = project
		}
		out = append(out, l)
	}
	return out
}
