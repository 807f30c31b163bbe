package connectapp

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// An edit replaces data[start:end] of the file read by text.
type edit struct {
	start, end int
	text       string
}

// apply returns data with edits (sorted, not overlapping) applied.
func apply(data []byte, edits []edit) []byte {
	var b bytes.Buffer
	at := 0
	for _, e := range edits {
		b.Write(data[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(data[at:])
	return b.Bytes()
}

// sortEdits orders edits by where they start, an insertion before a
// deletion that starts at the same place.
func sortEdits(edits []edit) {
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return (a.end - a.start) - (b.end - b.start)
	})
}

// plan is what a change does to a file.
type plan struct {
	edits []edit
	// name is the entry's name in the file.
	name string
	// unchanged is true when the entry is in the file as it would be
	// written (and nothing is removed): there is nothing to write.
	unchanged bool
	// removed are the names of the servers taken out.
	removed []string
}

// jsonStyle is how a JSON file is laid out, so that what is put in reads
// like the rest.
type jsonStyle struct {
	nl      string // "\n", or "\r\n" in a file that has them
	unit    string // one level of indentation
	compact bool   // the file is written on one line
}

// member is one member of a parsed object.
type member struct {
	name                   string
	nameStart              int
	valueStart, valueEnd   int
	command                string
	args                   []string
	gateway, commandIsText bool
}

// members reads the members of a parsed object.
func members(data []byte, obj *hujson.Object) []member {
	out := make([]member, len(obj.Members))
	for i, m := range obj.Members {
		lit, _ := m.Name.Value.(hujson.Literal)
		out[i] = member{name: lit.String(), nameStart: m.Name.StartOffset, valueStart: m.Value.StartOffset, valueEnd: m.Value.EndOffset}
		var v struct {
			Command any      `json:"command"`
			Args    []string `json:"args"`
		}
		if raw, err := hujson.Standardize(bytes.Clone(data[m.Value.StartOffset:m.Value.EndOffset])); err == nil && json.Unmarshal(raw, &v) == nil {
			out[i].command, out[i].commandIsText = v.Command.(string)
			out[i].args = v.Args
			out[i].gateway = out[i].commandIsText && isGateway(out[i].command, v.Args)
		}
	}
	return out
}

// styleOf is the layout of the JSON file data whose top object is v (its
// members tops).
func styleOf(data []byte, v hujson.Value, tops []member) jsonStyle {
	style := jsonStyle{nl: "\n", unit: "  "}
	if bytes.Contains(data, []byte("\r\n")) {
		style.nl = "\r\n"
	}
	// A file of one line stays one line; "{}" gets the layout of a new file.
	style.compact = len(tops) > 0 && !bytes.Contains(data[v.StartOffset:v.EndOffset], []byte("\n"))
	if first := firstOnOwnLine(data, v.StartOffset, tops); first >= 0 {
		style.unit = lineIndent(data, first)
	}
	return style
}

// planJSON finds the edits that put e into the servers object of a JSON
// file (creating the object when the file has none) and take out the
// servers named in remove. data has been read by importcfg already, so it
// parses and nests within bounds.
func planJSON(a app, data []byte, e Entry, remove []string) (plan, error) {
	style := jsonStyle{nl: "\n", unit: "  "}
	if bytes.Contains(data, []byte("\r\n")) {
		style.nl = "\r\n"
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// An empty file (Zed leaves one) is a new file: replace it whole.
		text := "{" + style.nl + style.unit + jsonString(a.key) + ": {" + style.nl +
			style.unit + style.unit + jsonString(e.Name) + ": " + renderJSON(a, e, style, style.unit+style.unit) + style.nl +
			style.unit + "}" + style.nl + "}" + style.nl
		return plan{edits: []edit{{0, len(data), text}}, name: e.Name}, nil
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return plan{}, i18n.Err("connect.error.parse", "detail", err)
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		return plan{}, i18n.Err("connect.error.notObject")
	}
	tops := members(data, top)
	style = styleOf(data, v, tops)
	var servers []int
	for i, m := range tops {
		if m.name == a.key {
			servers = append(servers, i)
		}
	}
	switch {
	case len(servers) > 1:
		return plan{}, i18n.Err("connect.error.duplicateKey", "key", a.key)
	case len(servers) == 0:
		ind := ""
		if !style.compact {
			ind = style.unit
			if first := firstOnOwnLine(data, v.StartOffset, tops); first >= 0 {
				ind = lineIndent(data, first)
			}
		}
		value := "{" + style.nl + ind + style.unit + jsonString(e.Name) + ": " + renderJSON(a, e, style, ind+style.unit) + style.nl + ind + "}"
		if style.compact {
			value = "{" + jsonString(e.Name) + ":" + renderJSON(a, e, style, "") + "}"
		}
		return plan{edits: insertFirst(data, v, tops, jsonString(a.key), value, len(tops) > 0, style, ind), name: e.Name}, nil
	}
	sv := top.Members[servers[0]].Value
	obj, ok := sv.Value.(*hujson.Object)
	if !ok {
		return plan{}, i18n.Err("connect.error.serversNotObject", "key", a.key)
	}
	ms := members(data, obj)
	p := plan{}
	// The gateway entry already in the file (by whatever name) is updated;
	// else the entry gets the first name no server has.
	at := slices.IndexFunc(ms, func(m member) bool { return m.gateway || m.commandIsText && e.same(m.command, m.args) })
	for i := 0; at < 0; i++ {
		name := candidateName(i)
		if !slices.ContainsFunc(ms, func(m member) bool { return m.name == name }) {
			p.name = name
			break
		}
	}
	if at >= 0 {
		p.name = ms[at].name
	}
	e.Name = p.name
	kept := 0
	var runs [][2]int // runs of members to take out, first and last index
	for i, m := range ms {
		if i != at && slices.Contains(remove, m.name) {
			if len(runs) > 0 && runs[len(runs)-1][1] == i-1 {
				runs[len(runs)-1][1] = i
			} else {
				runs = append(runs, [2]int{i, i})
			}
			if !slices.Contains(p.removed, m.name) {
				p.removed = append(p.removed, m.name)
			}
			continue
		}
		kept++
	}
	ind := ""
	if !style.compact {
		ind = lineIndent(data, sv.StartOffset) + style.unit
		if first := firstOnOwnLine(data, sv.StartOffset, ms); first >= 0 {
			ind = lineIndent(data, first)
		}
	}
	p.edits = cutRuns(data, sv, ms, runs)
	switch {
	case at >= 0 && ms[at].commandIsText && e.same(ms[at].command, ms[at].args):
		p.unchanged = len(runs) == 0
	case at >= 0:
		p.edits = append(p.edits, edit{ms[at].valueStart, ms[at].valueEnd, renderJSON(a, e, style, lineIndent(data, ms[at].nameStart))})
	default:
		value := renderJSON(a, e, style, ind)
		p.edits = append(p.edits, insertFirst(data, sv, ms, jsonString(e.Name), value, kept > 0, style, ind)...)
		if kept == 0 && len(runs) > 0 {
			// Every server was taken out: the last edit closes the object
			// on a line of its own when nothing left does.
			del := p.edits[len(runs)-1]
			close := sv.EndOffset - 1
			if !style.compact && !bytes.Contains(data[del.end:close], []byte("\n")) {
				p.edits = append(p.edits, edit{close, close, style.nl + lineIndent(data, sv.StartOffset)})
			}
		}
	}
	sortEdits(p.edits)
	return p, nil
}

// cutRuns returns the edits that take out of the object sv (whose members
// are ms) the runs of members given by their first and last index, with
// the comma and comments between each run and what stays.
func cutRuns(data []byte, sv hujson.Value, ms []member, runs [][2]int) []edit {
	head := headEnd(data, sv.StartOffset)
	var edits []edit
	for _, r := range runs {
		switch {
		case r[0] > 0:
			edits = append(edits, edit{ms[r[0]-1].valueEnd, ms[r[1]].valueEnd, ""})
		case r[1] < len(ms)-1:
			edits = append(edits, edit{head, afterComma(data, ms[r[1]].valueEnd), ""})
		default:
			end := ms[r[1]].valueEnd
			if c := skipExtra(data, end); data[c] == ',' {
				end = c + 1
			}
			edits = append(edits, edit{head, end, ""})
		}
	}
	return edits
}

// insertFirst returns the edit that puts name: value first in the object
// v (whose members are ms), after the "{" and any comment on its line.
// more says whether members stay after it (then it ends with a comma).
func insertFirst(data []byte, v hujson.Value, ms []member, name, value string, more bool, style jsonStyle, ind string) []edit {
	text := name + ": " + value
	if style.compact {
		text = name + ":" + value
	} else {
		text = style.nl + ind + text
	}
	if more {
		text += ","
	}
	at := headEnd(data, v.StartOffset)
	edits := []edit{{at, at, text}}
	close := v.EndOffset - 1
	if !more && len(ms) == 0 && !style.compact && !bytes.Contains(data[at:close], []byte("\n")) {
		// "{}" or "{ }": the closing brace goes on a line of its own.
		edits[0] = edit{at, close, text + style.nl + lineIndent(data, v.StartOffset)}
	}
	return edits
}

// renderJSON writes the entry's value for app a, its closing brace at
// indentation ind.
func renderJSON(a app, e Entry, style jsonStyle, ind string) string {
	args := make([]string, len(e.Args))
	for i, x := range e.Args {
		args[i] = jsonString(x)
	}
	pairs := make([][2]string, 0, len(a.fields)+2)
	for _, f := range a.fields {
		pairs = append(pairs, [2]string{jsonString(f[0]), jsonString(f[1])})
	}
	if style.compact {
		pairs = append(pairs, [2]string{`"command"`, jsonString(e.Command)}, [2]string{`"args"`, "[" + strings.Join(args, ",") + "]"})
		parts := make([]string, len(pairs))
		for i, p := range pairs {
			parts[i] = p[0] + ":" + p[1]
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	pairs = append(pairs, [2]string{`"command"`, jsonString(e.Command)}, [2]string{`"args"`, "[" + strings.Join(args, ", ") + "]"})
	var b strings.Builder
	b.WriteString("{")
	for i, p := range pairs {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(style.nl + ind + style.unit + p[0] + ": " + p[1])
	}
	b.WriteString(style.nl + ind + "}")
	return b.String()
}

// jsonString writes s as a JSON string, leaving <, > and & as they are.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// headEnd is where a member put first in the object that opens at open
// goes: after the "{" and what follows it on its line when that is only
// space and comments, so that a comment on the brace's line stays there.
func headEnd(data []byte, open int) int {
	i := open + 1
	for i < len(data) {
		switch {
		case data[i] == ' ' || data[i] == '\t':
			i++
		case bytes.HasPrefix(data[i:], []byte("//")):
			j := bytes.IndexByte(data[i:], '\n')
			if j < 0 {
				return open + 1
			}
			i += j
			if data[i-1] == '\r' {
				i--
			}
		case bytes.HasPrefix(data[i:], []byte("/*")):
			j := bytes.Index(data[i:], []byte("*/"))
			if j < 0 || bytes.IndexByte(data[i:i+j], '\n') >= 0 {
				return open + 1
			}
			i += j + 2
		case data[i] == '\n' || bytes.HasPrefix(data[i:], []byte("\r\n")):
			return i
		default:
			return open + 1
		}
	}
	return open + 1
}

// skipExtra returns the first offset at or after i that is not space or a
// comment.
func skipExtra(data []byte, i int) int {
	for i < len(data) {
		switch {
		case data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r':
			i++
		case bytes.HasPrefix(data[i:], []byte("//")):
			j := bytes.IndexByte(data[i:], '\n')
			if j < 0 {
				return len(data)
			}
			i += j
		case bytes.HasPrefix(data[i:], []byte("/*")):
			j := bytes.Index(data[i+2:], []byte("*/"))
			if j < 0 {
				return len(data)
			}
			i += j + 4
		default:
			return i
		}
	}
	return i
}

// afterComma returns the offset after the comma that follows a value
// ending at end.
func afterComma(data []byte, end int) int {
	return skipExtra(data, end) + 1
}

// lineIndent returns the space at the start of the line that holds offset.
func lineIndent(data []byte, offset int) string {
	start := bytes.LastIndexByte(data[:offset], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

// firstOnOwnLine returns where the first member of the object opening at
// open starts when it is on a line after the brace's, else -1.
func firstOnOwnLine(data []byte, open int, ms []member) int {
	if len(ms) == 0 || !bytes.Contains(data[open:ms[0].nameStart], []byte("\n")) {
		return -1
	}
	return ms[0].nameStart
}
