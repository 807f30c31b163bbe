package importcfg

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// varContext is what filling in a file's variables knows.
type varContext struct {
	format Format
	home   string
	// workspace is the project folder the file belongs to ("" when unknown).
	workspace string
	// inputs are VS Code's input descriptions by ID.
	inputs map[string]string
}

var (
	// bracedVar is ${...}: VS Code, Cursor and Windsurf's ${env:VAR},
	// ${input:ID}, ${userHome}, ${workspaceFolder}; Claude Code's and Gemini
	// CLI's ${VAR} and ${VAR:-default}.
	bracedVar = regexp.MustCompile(`\$\{([^}]*)\}`)
	// bareVar is Gemini CLI's $VAR.
	bareVar = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`)
	// envName is a variable name, with Claude Code's ":-default".
	envName = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(:-.*)?$`)
)

// workspaceOf returns the project folder a file belongs to: the folder
// holding the .vscode, .cursor, .gemini or .zed folder the file is in, or
// the folder of a Claude Code .mcp.json; "" for the files of the home
// folder, which serve every project.
func workspaceOf(path, home string) string {
	dir := filepath.Dir(path)
	project := ""
	switch {
	case filepath.Base(path) == ".mcp.json":
		project = dir
	case filepath.Base(dir) == ".vscode" || filepath.Base(dir) == ".cursor" || filepath.Base(dir) == ".gemini" || filepath.Base(dir) == ".zed":
		project = filepath.Dir(dir)
	}
	if project == "" || home != "" && filepath.Clean(project) == filepath.Clean(home) {
		return ""
	}
	return project
}

// fill fills in the variables of s. When one cannot be filled in, it returns
// ok false and what the variable stands for, for a sentence.
func (v varContext) fill(s string) (string, i18n.Message, bool) {
	switch v.format {
	case Codex, Zed, CherryStudio: // these apps read their values as written
		return s, i18n.Message{}, true
	}
	var missing i18n.Message
	out := bracedVar.ReplaceAllStringFunc(s, func(ref string) string {
		inner := ref[2 : len(ref)-1]
		value, what, ok := v.braced(inner)
		if !ok && missing.Key == "" {
			missing = what
		}
		return value
	})
	if v.format == Gemini && missing.Key == "" {
		out = bareVar.ReplaceAllStringFunc(out, func(ref string) string {
			if missing.Key == "" {
				missing = i18n.M("import.var.env", "name", ref[1:])
			}
			return ref
		})
	}
	if missing.Key != "" {
		return s, missing, false
	}
	return out, i18n.Message{}, true
}

// braced fills in one ${inner}.
func (v varContext) braced(inner string) (string, i18n.Message, bool) {
	kind, name, _ := strings.Cut(inner, ":")
	switch {
	case inner == "userHome" && v.home != "":
		return v.home, i18n.Message{}, true
	case inner == "workspaceFolder" || inner == "workspaceFolderBasename":
		if v.workspace == "" {
			return "", i18n.M("import.var.workspace", "ref", "${"+inner+"}"), false
		}
		if inner == "workspaceFolderBasename" {
			return filepath.Base(v.workspace), i18n.Message{}, true
		}
		return v.workspace, i18n.Message{}, true
	case inner == "pathSeparator" || inner == "/":
		return string(filepath.Separator), i18n.Message{}, true
	case kind == "env" && name != "":
		return "", i18n.M("import.var.env", "name", name), false
	case kind == "input" && name != "":
		label := name
		if d := strings.TrimSpace(v.inputs[name]); d != "" {
			label = d
		}
		return "", i18n.M("import.var.input", "input", label), false
	}
	if m := envName.FindStringSubmatch(inner); m != nil {
		return "", i18n.M("import.var.env", "name", m[1]), false
	}
	return "", i18n.M("import.var.other", "ref", "${"+inner+"}"), false
}
