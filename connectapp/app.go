package connectapp

import (
	"strings"

	"github.com/gatehouse-app/gatehouse/importcfg"
)

// An app is how one app's file holds its servers: where (importcfg knows
// the file), under which key, and the fields its stdio entry has.
type app struct {
	format importcfg.Format
	// key is the top-level key of the servers object (JSON), or of the
	// servers' tables (TOML).
	key  string
	toml bool
	// fields are the members the entry has before command and args, in the
	// order the app's own writer puts them.
	fields [][2]string
}

// apps are the apps Gatehouse connects, in the order of importcfg.Formats
// (Cherry Studio keeps its servers in its own database).
var apps = []app{
	{format: importcfg.ClaudeDesktop, key: "mcpServers"},
	{format: importcfg.Cursor, key: "mcpServers"},
	// `claude mcp add -s user` writes "type": "stdio".
	{format: importcfg.ClaudeCode, key: "mcpServers", fields: [][2]string{{"type", "stdio"}}},
	// VS Code's mcp.json requires the type.
	{format: importcfg.VSCode, key: "servers", fields: [][2]string{{"type", "stdio"}}},
	{format: importcfg.Windsurf, key: "mcpServers"},
	{format: importcfg.Gemini, key: "mcpServers"},
	{format: importcfg.Codex, key: "mcp_servers", toml: true},
	// Zed's settings mark a server that is not an extension's as custom.
	{format: importcfg.Zed, key: "context_servers", fields: [][2]string{{"source", "custom"}}},
	{format: importcfg.Qwen, key: "mcpServers"},
}

// findApp returns the app with the given ID (importcfg's format name,
// "claude-code"; any case).
func findApp(id string) (app, bool) {
	for _, a := range apps {
		if strings.EqualFold(string(a.format), strings.TrimSpace(id)) {
			return a, true
		}
	}
	return app{}, false
}

// AppIDs returns the IDs of the apps Gatehouse connects, in order.
func AppIDs() []string {
	out := make([]string, len(apps))
	for i, a := range apps {
		out[i] = string(a.format)
	}
	return out
}
