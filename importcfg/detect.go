package importcfg

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// found is what detection read from a file.
type found struct {
	format Format
	// others are the apps that write the same shape when format is a guess.
	others  []Format
	servers []candidate
	// inputs maps a VS Code input's ID to its description.
	inputs map[string]string
}

// Keys that only Gemini CLI's settings.json has at its top level.
var geminiSettings = []string{"general", "ui", "security", "selectedAuthType", "theme", "mcp", "tools",
	"context", "model", "privacy", "telemetry", "ide", "advanced", "experimental", "checkpointing"}

// Keys that only Claude Code's ~/.claude.json has at its top level.
var claudeCodeState = []string{"projects", "numStartups", "userID", "installMethod", "autoUpdates",
	"firstStartTime", "oauthAccount", "hasCompletedOnboarding"}

// detect finds the format of data from its content and reads its servers.
// JSON (with comments) starts with "{", after any comments; anything else
// is read as TOML, when it has Codex CLI's mcp_servers tables.
func detect(path string, data []byte) (found, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		return found{}, unknownFormat(path)
	}
	if startsJSON(data) {
		tree, err := parseJSON(path, data)
		if err != nil {
			return found{}, err
		}
		top, ok := tree.(*object)
		if !ok {
			return found{}, unknownFormat(path)
		}
		f, ok := detectJSON(top)
		if !ok {
			return found{}, unknownFormat(path)
		}
		return f, nil
	}
	if !bytes.Contains(data, []byte("mcp_servers")) {
		return found{}, unknownFormat(path)
	}
	top, err := parseTOML(path, data)
	if err != nil {
		return found{}, err
	}
	servers := top.child("mcp_servers")
	if servers == nil {
		return found{}, unknownFormat(path)
	}
	return found{format: Codex, others: []Format{}, servers: readAll(servers, "mcp_servers", "", Codex)}, nil
}

// startsJSON reports whether the first thing in data that is not space or a
// comment is "{" (a TOML file starts with a key or a "[table]").
func startsJSON(data []byte) bool {
	for {
		data = bytes.TrimLeft(data, " \t\r\n")
		switch {
		case bytes.HasPrefix(data, []byte("//")):
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				return false
			}
			data = data[i:]
		case bytes.HasPrefix(data, []byte("/*")):
			i := bytes.Index(data, []byte("*/"))
			if i < 0 {
				return true // an unclosed comment: JSONC's error says where
			}
			data = data[i+2:]
		default:
			return len(data) > 0 && data[0] == '{'
		}
	}
}

// detectJSON tells the JSON formats apart by their keys.
func detectJSON(top *object) (found, bool) {
	sure := func(f Format, servers []candidate) (found, bool) {
		return found{format: f, others: []Format{}, servers: servers}, true
	}
	switch {
	case top.child("context_servers") != nil:
		return sure(Zed, readAll(top.child("context_servers"), "context_servers", "", Zed))
	case top.child("servers") != nil || top.child("mcp").child("servers") != nil:
		root, prefix := top, ""
		if top.child("servers") == nil { // settings.json's older "mcp": {"servers", "inputs"}
			root, prefix = top.child("mcp"), "mcp/"
		}
		f, _ := sure(VSCode, readAll(root.child("servers"), prefix+"servers", "", VSCode))
		f.inputs = vscodeInputs(root)
		return f, true
	}
	servers := top.child("mcpServers")
	if hasAny(top, claudeCodeState) {
		return sure(ClaudeCode, claudeCodeServers(top))
	}
	if servers == nil {
		return found{}, false
	}
	entries := func(keys ...string) bool {
		for _, name := range servers.keys {
			if e, ok := servers.vals[name].(*object); ok && hasAny(e, keys) {
				return true
			}
		}
		return false
	}
	entryType := func(types ...string) bool {
		for _, name := range servers.keys {
			if t, ok := get(servers.child(name), "type").(string); ok && slices.Contains(types, t) {
				return true
			}
		}
		return false
	}
	switch {
	case entries("isActive", "baseUrl") || entryType("streamableHttp", "inMemory"):
		return sure(CherryStudio, readAll(servers, "mcpServers", "", CherryStudio))
	case entries("serverUrl"):
		return sure(Windsurf, readAll(servers, "mcpServers", "", Windsurf))
	case entries("httpUrl", "trust", "includeTools", "excludeTools", "authProviderType") || hasAny(top, geminiSettings):
		return sure(Gemini, readAll(servers, "mcpServers", "", Gemini))
	}
	// The shape Claude Desktop, Cursor, Claude Code's .mcp.json and
	// Windsurf share: name the likeliest and say it is a guess.
	f := found{servers: readAll(servers, "mcpServers", "", ClaudeDesktop)}
	switch {
	case entryType("stdio", "http", "sse"):
		f.format, f.others = ClaudeCode, []Format{Cursor}
	case entries("url", "headers"):
		f.format, f.others = Cursor, []Format{ClaudeCode, Windsurf}
	default:
		f.format, f.others = ClaudeDesktop, []Format{Cursor, ClaudeCode, Windsurf}
	}
	return f, true
}

// claudeCodeServers reads ~/.claude.json: the user's servers, then each
// project's.
func claudeCodeServers(top *object) []candidate {
	out := readAll(top.child("mcpServers"), "mcpServers", "", ClaudeCode)
	projects := top.child("projects")
	if projects == nil {
		return out
	}
	for _, dir := range projects.keys {
		out = append(out, readAll(projects.child(dir).child("mcpServers"), "projects/"+dir+"/mcpServers", dir, ClaudeCode)...)
	}
	return out
}

// vscodeInputs maps each input's ID to its description.
func vscodeInputs(root *object) map[string]string {
	out := map[string]string{}
	list, _ := root.vals["inputs"].([]any)
	for _, x := range list {
		in, ok := x.(*object)
		if !ok {
			continue
		}
		id, _ := in.vals["id"].(string)
		desc, _ := in.vals["description"].(string)
		out[id] = desc
	}
	return out
}

// readAll reads every server of an object of servers, in the file's order.
func readAll(servers *object, keyPrefix, scope string, f Format) []candidate {
	if servers == nil {
		return nil
	}
	out := make([]candidate, 0, len(servers.keys))
	for _, name := range servers.keys {
		out = append(out, readServer(keyPrefix+"/"+name, name, scope, servers.vals[name], f))
	}
	return out
}

// get returns o's value of key, or nil.
func get(o *object, key string) any {
	v, _ := o.get(key)
	return v
}

// hasAny reports whether o has any of keys.
func hasAny(o *object, keys []string) bool {
	for _, k := range keys {
		if _, ok := o.get(k); ok {
			return true
		}
	}
	return false
}
