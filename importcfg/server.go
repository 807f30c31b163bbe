package importcfg

import (
	"strings"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Kinds of transport as a file names them (Entry.Kind).
const (
	kindStdio      = "stdio"
	kindStreamable = "streamable HTTP"
	kindSSE        = "SSE"
	// kindRemote is a URL the file gives no transport for: Gatehouse tries
	// Streamable HTTP and falls back to SSE, as the apps that write it do.
	kindRemote = "HTTP"
)

// candidate is one server as its file describes it, before variables are
// filled in, names are chosen and secrets are masked.
type candidate struct {
	key, name, scope string
	kind             string
	command          string
	args             []string
	dir              string
	url              string
	env, headers     map[string]string
	enabled          bool
	// skip is why the server cannot be imported at all; zero when it can.
	skip i18n.Message
	// notes are the fields left out so far.
	notes []Note
}

// ignoredFields are fields that describe a server without changing how it
// runs (names, icons, where it was installed from): not worth a note.
var ignoredFields = map[string]bool{
	"name": true, "id": true, "description": true, "logoUrl": true, "provider": true, "providerUrl": true,
	"tags": true, "registryUrl": true, "installSource": true, "searchKey": true, "reference": true,
	"gallery": true, "version": true, "source": true, "type": true, "transport": true,
}

// toolFields choose which of a server's tools the other app offers.
var toolFields = map[string]bool{
	"includeTools": true, "excludeTools": true, "disabledTools": true, "enabled_tools": true,
	"disabled_tools": true, "alwaysAllow": true, "autoApprove": true, "disabledAutoApproveTools": true,
}

// readServer reads one server of any format: the apps share most field
// names, and where they differ (url, serverUrl, httpUrl, baseUrl; command as
// text or as a Zed object; Codex's http_headers) no two give one name two
// meanings that would store a different server. What Gemini CLI calls url
// is SSE, which Gatehouse reaches at the same URL by itself.
func readServer(key, name, scope string, raw any, f Format) candidate {
	c := candidate{key: key, name: name, scope: scope, enabled: true}
	o, ok := raw.(*object)
	if !ok {
		c.skip = i18n.M("import.skip.notObject")
		return c
	}
	r := fieldReader{o: o, used: map[string]bool{}}
	if n := r.text("name"); strings.TrimSpace(n) != "" { // Cherry Studio keys servers by ID
		c.name = strings.TrimSpace(n)
	}
	switch cmd := r.value("command").(type) {
	case *object: // Zed's older shape: "command": {"path", "args", "env"}
		nested := fieldReader{o: cmd, used: map[string]bool{}}
		c.command, c.args, c.env = nested.text("path"), nested.texts("args"), nested.table("env")
		r.problem = nested.problem
		for _, k := range cmd.keys {
			if !nested.used[k] {
				c.notes = append(c.notes, fieldNote("command."+k))
			}
		}
	case nil:
	default:
		c.command = r.text("command")
	}
	if args := r.texts("args"); len(args) > 0 {
		c.args = args
	}
	if env := r.table("env"); len(env) > 0 {
		c.env = env
	}
	c.dir = r.text("cwd")
	c.headers = r.table("headers")
	if h := r.table("http_headers"); len(h) > 0 { // Codex CLI
		c.headers = h
	}

	kind := r.text("type")
	if kind == "" {
		kind = r.text("transport")
	}
	url, urlKind := "", kindRemote
	for _, field := range []string{"httpUrl", "url", "serverUrl", "baseUrl"} { // Gemini CLI's precedence first
		if u := r.text(field); u != "" && url == "" {
			url = u
			switch {
			case field == "httpUrl":
				urlKind = kindStreamable
			case field == "url" && f == Gemini:
				urlKind = kindSSE
			}
		}
	}
	switch strings.ToLower(kind) {
	case "stdio":
		c.kind = kindStdio
	case "http", "streamablehttp", "streamable-http", "streamable_http", "streamable http":
		c.kind = kindStreamable
	case "sse":
		c.kind = kindSSE
	case "inmemory":
		c.skip = i18n.M("import.skip.builtIn", "app", f.Name())
	case "":
		switch {
		case url != "":
			c.kind = urlKind
		case c.command != "":
			c.kind = kindStdio
		}
	default:
		c.skip = i18n.M("import.skip.kind", "kind", kind)
	}
	if c.kind == kindStdio {
		if url != "" {
			c.notes = append(c.notes, fieldNote("url"))
		}
	} else if c.kind != "" {
		c.url = url
		if c.command != "" {
			c.notes = append(c.notes, fieldNote("command"))
		}
	}

	// Turned off in the other app: imported turned off.
	if r.has("disabled") && r.boolean("disabled") {
		c.enabled = false
	}
	for _, field := range []string{"isActive", "enabled"} {
		if r.has(field) && !r.boolean(field) {
			c.enabled = false
		}
	}

	for _, k := range o.keys {
		switch {
		case r.used[k] || ignoredFields[k]:
		case toolFields[k]:
			c.notes = append(c.notes, Note{NoteLeftOut, i18n.M("import.leftOut.tools", "field", k)})
		case k == "trust" || k == "isTrusted":
			c.notes = append(c.notes, Note{NoteLeftOut, i18n.M("import.leftOut.trust", "field", k)})
		case k == "envFile":
			c.notes = append(c.notes, Note{NoteLeftOut, i18n.M("import.leftOut.envFile", "field", k)})
		case k == "bearer_token_env_var":
			v := r.text(k)
			c.notes = append(c.notes, Note{NoteLeftOut, i18n.M("import.leftOut.header", "header", "Authorization",
				"what", i18n.M("import.var.env", "name", v))})
		case k == "env_http_headers":
			for _, h := range sortedKeys(r.table(k)) {
				c.notes = append(c.notes, Note{NoteLeftOut, i18n.M("import.leftOut.header", "header", h,
					"what", i18n.M("import.var.env", "name", r.table(k)[h]))})
			}
		case k == "env_vars":
			for _, v := range r.texts(k) {
				c.notes = append(c.notes, Note{NoteLeftOut, i18n.M("import.leftOut.env", "name", v,
					"what", i18n.M("import.var.env", "name", v))})
			}
		case k == "settings": // a Zed extension's settings; alone, the server is the extension's
			if c.command == "" && c.url == "" {
				c.skip = i18n.M("import.skip.extension", "app", f.Name())
			}
		default:
			c.notes = append(c.notes, fieldNote(k))
		}
	}
	if r.problem.Key != "" {
		c.skip = r.problem
	}
	if c.skip.Key == "" && c.kind == "" {
		c.skip = i18n.M("import.skip.nothingToRun")
	}
	return c
}

// fieldNote says that a field is not imported.
func fieldNote(field string) Note {
	return Note{NoteLeftOut, i18n.M("import.leftOut.field", "field", field)}
}

// fieldReader reads typed fields of one object, remembering which it read
// and the first field of the wrong type.
type fieldReader struct {
	o       *object
	used    map[string]bool
	problem i18n.Message
}

func (r *fieldReader) has(key string) bool {
	_, ok := r.o.get(key)
	return ok
}

func (r *fieldReader) value(key string) any {
	v, _ := r.o.get(key)
	if r.has(key) {
		r.used[key] = true
	}
	return v
}

func (r *fieldReader) wrong(key string, want i18n.Message) {
	if r.problem.Key == "" {
		r.problem = i18n.M("import.skip.badField", "field", key, "want", want)
	}
}

// text reads a string; a number or bool reads as it is written.
func (r *fieldReader) text(key string) string {
	switch v := r.value(key).(type) {
	case nil:
		return ""
	case string:
		return v
	case number:
		return string(v)
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	r.wrong(key, i18n.M("import.want.text"))
	return ""
}

// texts reads a list of strings.
func (r *fieldReader) texts(key string) []string {
	v := r.value(key)
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		r.wrong(key, i18n.M("import.want.list"))
		return nil
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		switch x := x.(type) {
		case string:
			out = append(out, x)
		case number:
			out = append(out, string(x))
		default:
			r.wrong(key, i18n.M("import.want.list"))
			return nil
		}
	}
	return out
}

// table reads an object of names to strings (numbers and bools as written).
func (r *fieldReader) table(key string) map[string]string {
	v := r.value(key)
	if v == nil {
		return nil
	}
	o, ok := v.(*object)
	if !ok {
		r.wrong(key, i18n.M("import.want.table"))
		return nil
	}
	inner := fieldReader{o: o, used: map[string]bool{}}
	out := make(map[string]string, len(o.keys))
	for _, k := range o.keys {
		out[k] = inner.text(k)
	}
	if inner.problem.Key != "" {
		r.wrong(key, i18n.M("import.want.table"))
	}
	return out
}

// boolean reads true or false.
func (r *fieldReader) boolean(key string) bool {
	switch v := r.value(key).(type) {
	case bool:
		return v
	case string:
		return v == "true"
	}
	r.wrong(key, i18n.M("import.want.bool"))
	return false
}
