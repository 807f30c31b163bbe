package connectapp

import (
	"bytes"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// A tomlTable is a [table] header of a TOML file and the lines it owns.
type tomlTable struct {
	key        []string
	start, end int // from the header's line to the next header's, less the comments that lead into that one
}

// tomlTables finds the table headers of a TOML file.
func tomlTables(data []byte) ([]tomlTable, error) {
	var p unstable.Parser
	p.Reset(data)
	var out []tomlTable
	for p.NextExpression() {
		n := p.Expression()
		if n.Kind != unstable.Table && n.Kind != unstable.ArrayTable {
			continue
		}
		var key []string
		it := n.Key()
		first := -1
		for it.Next() {
			k := it.Node()
			key = append(key, string(k.Data))
			if first < 0 {
				first = int(k.Raw.Offset)
			}
		}
		start := bytes.LastIndexByte(data[:max(first, 0)], '\n') + 1
		out = append(out, tomlTable{key: key, start: start})
	}
	if err := p.Error(); err != nil {
		return nil, i18n.Err("connect.error.parse", "detail", err)
	}
	for i := range out {
		end := len(data)
		if i+1 < len(out) {
			end = out[i+1].start
			// Blank lines and comments just above the next header belong to it.
			for end > out[i].start {
				prev := bytes.LastIndexByte(data[:end-1], '\n') + 1
				line := strings.TrimSpace(string(data[prev:end]))
				if prev <= out[i].start || line != "" && !strings.HasPrefix(line, "#") {
					break
				}
				end = prev
			}
		}
		out[i].end = end
	}
	return out, nil
}

// bareKey is a TOML key that needs no quotes.
var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// tomlKey writes one part of a TOML key.
func tomlKey(k string) string {
	if bareKey.MatchString(k) {
		return k
	}
	return jsonString(k) // a JSON string is a TOML basic string
}

// renderTOML writes the entry's table.
func renderTOML(a app, e Entry, nl string) string {
	args := make([]string, len(e.Args))
	for i, x := range e.Args {
		args[i] = jsonString(x)
	}
	return "[" + tomlKey(a.key) + "." + tomlKey(e.Name) + "]" + nl +
		"command = " + jsonString(e.Command) + nl +
		"args = [" + strings.Join(args, ", ") + "]" + nl
}

// planTOML finds the edits that put e into a TOML file (Codex CLI's
// config.toml) as a [mcp_servers.NAME] table, and take out the tables of
// the servers named in remove. A server written other than as tables of
// its own (an inline table, dotted keys) cannot be taken out or updated:
// the check of the result (verify) refuses that edit.
func planTOML(a app, data []byte, e Entry, remove []string) (plan, error) {
	nl := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		nl = "\r\n"
	}
	servers, tables, err := tomlServers(a, data)
	if err != nil {
		return plan{}, err
	}
	p := plan{}
	gateway := ""
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		s, _ := servers[name].(map[string]any)
		cmd, _ := s["command"].(string)
		if isGateway(cmd, texts(s["args"])) || e.same(cmd, texts(s["args"])) {
			gateway = name
			break
		}
	}
	p.name = gateway
	for i := 0; p.name == ""; i++ {
		if _, taken := servers[candidateName(i)]; !taken {
			p.name = candidateName(i)
		}
	}
	e.Name = p.name
	spans := func(name string) []tomlTable { return tomlSpans(a, tables, name) }
	for _, name := range remove {
		if _, ok := servers[name]; !ok || name == gateway {
			continue
		}
		p.removed = append(p.removed, name)
		p.edits = append(p.edits, cutTables(data, spans(name))...)
	}
	text := renderTOML(a, e, nl)
	if gateway != "" {
		s, _ := servers[gateway].(map[string]any)
		cmd, _ := s["command"].(string)
		if e.same(cmd, texts(s["args"])) {
			p.unchanged = len(p.removed) == 0
			sortEdits(p.edits)
			return p, nil
		}
		old := spans(gateway)
		if len(old) == 0 {
			return plan{}, i18n.Err("connect.error.tomlShape", "name", gateway)
		}
		for i, t := range old {
			if i == 0 {
				p.edits = append(p.edits, edit{t.start, t.end, text})
			} else {
				p.edits = append(p.edits, edit{t.start, t.end, ""})
			}
		}
		sortEdits(p.edits)
		return p, nil
	}
	// A new table goes at the end, after a blank line: after what is left
	// when the last tables are taken out.
	end := len(data)
	for more := true; more; {
		more = false
		for _, e := range p.edits {
			if e.end == end && e.start < end {
				end, more = e.start, true
			}
		}
	}
	sep := ""
	switch kept := data[:end]; {
	case len(bytes.TrimSpace(kept)) == 0:
	case !bytes.HasSuffix(kept, []byte("\n")):
		sep = nl + nl
	case !bytes.HasSuffix(kept, []byte("\n\n")) && !bytes.HasSuffix(kept, []byte("\n\r\n")):
		sep = nl
	}
	p.edits = append(p.edits, edit{len(data), len(data), sep + text})
	sortEdits(p.edits)
	return p, nil
}

// cutTables returns the edits that take the tables out, those that follow
// each other as one (a server's [KEY.NAME] and its [KEY.NAME.env]), so
// that one blank line is left between what stays around them.
func cutTables(data []byte, tables []tomlTable) []edit {
	var edits []edit
	for i := 0; i < len(tables); {
		start, end := tables[i].start, tables[i].end
		for i++; i < len(tables) && tables[i].start == end; i++ {
			end = tables[i].end
		}
		edits = append(edits, edit{start, blankAfter(data, start, end), ""})
	}
	return edits
}

// blankAfter returns where taking out the lines [start, end) should end:
// past the blank lines after them too when a blank line (or the start of
// the file) is before them, so that taking out a table leaves one blank
// line between its neighbours, not two.
func blankAfter(data []byte, start, end int) int {
	if start > 0 && !bytes.HasSuffix(bytes.TrimRight(data[:start], " \t\r"), []byte("\n\n")) {
		return end
	}
	for end < len(data) {
		next := bytes.IndexByte(data[end:], '\n')
		if next < 0 || len(bytes.TrimSpace(data[end:end+next])) > 0 {
			break
		}
		end += next + 1
	}
	return end
}

// texts reads a decoded list of strings; nil when it is not one.
func texts(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}
