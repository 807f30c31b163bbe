package importcfg

import (
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gatehouse-app/gatehouse/cmdline"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// entry fills in c's variables, chooses its name, masks its secrets and
// warns about what the command line does.
func (c candidate) entry(vars varContext, names *namer) Entry {
	e := Entry{Key: c.key, SourceName: c.name, Name: strings.TrimSpace(c.name), Scope: c.scope, Import: c.skip.Key == "",
		Enabled: c.enabled, Kind: c.kind, Command: c.command, Args: maskArgs(c.args, nil), Dir: c.dir, URL: maskAddress(c.url),
		Env: []Setting{}, Headers: []Setting{}, Notes: []Note{}}
	var warnings []Note
	if e.Name == "" {
		e.Name = c.key
	}
	skip := func(msg i18n.Message) {
		if e.Import {
			e.Import = false
			e.Notes = append(e.Notes, Note{NoteSkipped, msg})
		}
	}
	if c.skip.Key != "" {
		e.Notes = append(e.Notes, Note{NoteSkipped, c.skip})
	}

	srv := store.Server{Name: e.Name, Enabled: c.enabled}
	// Every part of the command or the URL must be filled in.
	fill := func(field, s string) string {
		out, what, ok := vars.fill(s)
		if !ok {
			skip(i18n.M("import.skip.variable", "field", field, "what", what))
		}
		return out
	}
	if c.kind == kindStdio {
		e.Transport = store.TransportStdio
		cfg := &store.StdioConfig{Command: fill("command", c.command), Dir: fill("cwd", c.dir)}
		for i, a := range c.args {
			cfg.Args = append(cfg.Args, fill("args["+strconv.Itoa(i)+"]", a))
		}
		// A project's server runs in the project's folder, as in the app
		// that runs it, so that its relative paths mean the same.
		project := c.scope
		if project == "" {
			project = vars.workspace
		}
		if project != "" && !filepath.IsAbs(cfg.Dir) {
			cfg.Dir = filepath.Join(project, cfg.Dir)
		}
		cfg.Env, e.Env = c.settings(vars, c.env, false, &e.Notes)
		srv.Transport, srv.Stdio = store.TransportStdio, cfg
		command, args := c.command, c.args
		if e.Import {
			command, args, e.Dir = cfg.Command, cfg.Args, cfg.Dir
		}
		// What the preview shows is the command line that will run, as a
		// shell would write it, with only the secret-looking parts masked.
		shape := commandShape(command, args)
		e.Command, e.Args = command, maskArgs(args, shape.scripts)
		e.CommandLine = cmdline.Join(e.Command, e.Args)
		for _, w := range shape.warnings {
			warnings = append(warnings, Note{NoteWarning, w})
		}
		for _, s := range e.Env {
			if class := runtimeVar(s.Name); class != "" {
				warnings = append(warnings, Note{NoteWarning, runtimeVarWarning(class, s.Name, command)})
			}
		}
	} else if c.kind != "" {
		e.Transport = store.TransportHTTP
		cfg := &store.HTTPConfig{URL: fill("url", c.url)}
		cfg.Headers, e.Headers = c.settings(vars, c.headers, true, &e.Notes)
		srv.Transport, srv.HTTP = store.TransportHTTP, cfg
		if e.Import {
			e.URL = maskAddress(cfg.URL)
		}
	}
	if !c.enabled {
		e.Notes = append(e.Notes, Note{NoteChanged, i18n.M("import.changed.off", "app", vars.format.Name())})
	}
	e.Notes = append(e.Notes, c.notes...)
	e.Notes = append(append([]Note{}, warnings...), e.Notes...)
	if e.Import {
		if free := names.take(e.Name); free != e.Name {
			e.Notes = append(e.Notes, Note{NoteChanged, i18n.M("import.changed.renamed", "name", e.Name, "new", free)})
			e.Name = free
		}
		srv.Name = e.Name
		e.server = srv
	}
	return e
}

// settings fills in the variables of env entries or headers. An entry whose
// value refers to a variable that cannot be filled in is left out with a
// note; the rest are returned to store and, masked, to show. A variable
// that changes how programs run (runtimeVar) is shown in full but for a
// key or URL password in it; every other value is masked.
func (c candidate) settings(vars varContext, in map[string]string, headers bool, notes *[]Note) (map[string]string, []Setting) {
	shown := []Setting{}
	if len(in) == 0 {
		return nil, shown
	}
	out := map[string]string{}
	for _, name := range sortedKeys(in) {
		value, what, ok := vars.fill(in[name])
		if !ok {
			if headers {
				*notes = append(*notes, Note{NoteLeftOut, i18n.M("import.leftOut.header", "header", name, "what", what)})
			} else {
				*notes = append(*notes, Note{NoteLeftOut, i18n.M("import.leftOut.env", "name", name, "what", what)})
			}
			continue
		}
		out[name] = value
		switch {
		case headers:
			shown = append(shown, Setting{Name: name, Value: Masked, Text: name + ": " + Masked})
		case runtimeVar(name) != "":
			v := maskText(value)
			if secretName.MatchString(name) {
				v = maskValue(value) // NPM_CONFIG__AUTHTOKEN: a secret, but never a hidden script
			}
			shown = append(shown, Setting{Name: name, Value: v, Text: name + "=" + cmdline.Quote(v), Runtime: true})
		default:
			shown = append(shown, Setting{Name: name, Value: Masked, Text: name + "=" + Masked})
		}
	}
	if len(out) == 0 {
		return nil, shown
	}
	return out, shown
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// namer hands out names no server has, ignoring case as the store does.
type namer struct {
	taken map[string]bool
}

func newNamer(existing []string) *namer {
	n := &namer{taken: map[string]bool{}}
	for _, name := range existing {
		n.taken[strings.ToLower(strings.TrimSpace(name))] = true
	}
	return n
}

// take returns name when it is free, else the first free "name-2",
// "name-3", ..., and marks the returned name as taken.
func (n *namer) take(name string) string {
	free := name
	for i := 2; n.taken[strings.ToLower(free)]; i++ {
		free = name + "-" + strconv.Itoa(i)
	}
	n.taken[strings.ToLower(free)] = true
	return free
}
