package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
)

// importServers runs `gatehouse servers import FILE [--dry-run] [--yes]`:
// the preview, then the person's confirmation (or --yes), then the import.
func (e *env) importServers(ctx context.Context, args []string) error {
	var file string
	var dryRun, yes bool
	for _, a := range args {
		switch {
		case a == "--dry-run":
			dryRun = true
		case a == "--yes" || a == "-y":
			yes = true
		case strings.HasPrefix(a, "-") && a != "-":
			return usageErr(i18n.M("import.cli.unknownOption", "option", strconv.Quote(a)))
		case file != "":
			return usageErr(i18n.M("import.cli.file"))
		default:
			file = a
		}
	}
	if file == "" {
		return usageErr(i18n.M("import.cli.file"))
	}
	// The app reads the file by its absolute path (its working folder is
	// not the terminal's); the preview names it as typed.
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	cs, closeLink, err := e.connect(ctx, nil, nil)
	if err != nil {
		return err
	}
	defer closeLink()
	var p importcfg.Preview
	if err := run(ctx, cs, app.ToolPreviewImport, app.CLIName{Name: abs}, &p); err != nil {
		return err
	}
	p.File = file
	e.printPreview(p)
	importable := p.Importable()
	switch {
	case len(importable) == 0:
		fmt.Fprintln(e.stdout, i18n.M("import.cli.none"))
		return nil
	case dryRun:
		fmt.Fprintln(e.stdout, i18n.M("import.cli.dryRun"))
		return nil
	case !yes && !e.stdinTerminal:
		return i18n.Err("import.cli.notTerminal")
	case !yes:
		fmt.Fprint(e.stdout, i18n.M("import.cli.confirm"))
		answer, _ := bufio.NewReader(e.stdin).ReadString('\n')
		if !isYes(answer) {
			fmt.Fprintln(e.stdout, i18n.M("import.cli.notImported"))
			return nil
		}
	}
	req := app.ImportRequest{File: abs, Digest: p.Digest}
	for _, entry := range importable {
		req.Servers = append(req.Servers, app.ImportChoice{Key: entry.Key, Name: entry.Name})
	}
	var res app.ImportResult
	if err := run(ctx, cs, app.ToolImport, req, &res); err != nil {
		return err
	}
	for _, v := range res.Added {
		fmt.Fprintln(e.stdout, i18n.M("cli.servers.added", "name", oneLine(v.Input.Name), "where", oneLine(maskedWhere(p, v.Input.Name))))
	}
	for _, f := range res.Failed {
		fmt.Fprintln(e.stderr, i18n.M("import.cli.failed", "name", oneLine(f.Name), "detail", f.Message))
	}
	fmt.Fprintln(e.stdout, i18n.M("import.cli.done", "n", len(res.Added), "total", len(p.Servers)))
	if len(res.Failed) > 0 {
		return i18n.Err("import.cli.someFailed", "n", len(res.Failed))
	}
	return nil
}

// printPreview writes the preview: which app wrote the file (and that it is
// a project's), a table of its servers with the command lines that will
// run, then what each brings, leaves out or changes, warnings first. File
// text is made one line and visible (oneLine); secrets are already masked.
func (e *env) printPreview(p importcfg.Preview) {
	fmt.Fprintln(e.stdout, oneLine(p.File))
	fmt.Fprintln(e.stdout, p.FormatNote)
	for _, n := range p.Notes {
		fmt.Fprintln(e.stdout, oneLine(noteText(n)))
	}
	fmt.Fprintln(e.stdout)
	if len(p.Servers) == 0 {
		return
	}
	tw := newTable(e.stdout)
	fmt.Fprintln(tw, i18n.M("import.cli.header"))
	for _, s := range p.Servers {
		mark := "-"
		if s.Import {
			mark = "+"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", mark, oneLine(s.Name), s.Kind, oneLine(where(s)))
	}
	tw.Flush()
	for _, s := range p.Servers {
		var lines []string
		if s.Scope != "" {
			lines = append(lines, i18n.M("import.cli.scope", "scope", oneLine(s.Scope)).String())
		}
		if s.Dir != "" {
			lines = append(lines, i18n.M("import.cli.dir", "dir", s.Dir).String())
		}
		if len(s.Env) > 0 {
			lines = append(lines, i18n.M("import.cli.env", "values", settingsText(s.Env)).String())
		}
		if len(s.Headers) > 0 {
			lines = append(lines, i18n.M("import.cli.headers", "values", settingsText(s.Headers)).String())
		}
		for _, n := range s.Notes {
			lines = append(lines, noteText(n))
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintln(e.stdout)
		fmt.Fprintln(e.stdout, oneLine(s.Name))
		for _, l := range lines {
			fmt.Fprintln(e.stdout, "  "+oneLine(l))
		}
	}
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, i18n.M("import.cli.summary", "n", len(p.Importable()), "total", len(p.Servers)))
	fmt.Fprintln(e.stdout, i18n.M("import.cli.hidden", "mask", importcfg.Masked))
}

// noteText is a note as a line: a warning says it is one.
func noteText(n importcfg.Note) string {
	if n.Kind == importcfg.NoteWarning {
		return i18n.M("import.cli.warning", "text", n.Message).String()
	}
	return n.Message.String()
}

// where is an entry's command line (quoted as a shell would, by Go's
// importcfg) or URL, masked.
func where(s importcfg.Entry) string {
	if s.URL != "" {
		return s.URL
	}
	return s.CommandLine
}

// maskedWhere is where the preview says the named server runs: the added
// server's own command line could carry a secret in an argument.
func maskedWhere(p importcfg.Preview, name string) string {
	for _, s := range p.Servers {
		if s.Import && strings.EqualFold(s.Name, name) {
			return where(s)
		}
	}
	return ""
}

// settingsText writes settings as the preview gives them, "NAME=••••••,
// PATH=/usr/bin, NODE_OPTIONS='--require x.js'" (values quoted as a shell
// would, so a comma or a space inside one is not a separator).
func settingsText(settings []importcfg.Setting) string {
	parts := make([]string, len(settings))
	for i, s := range settings {
		parts[i] = s.Text
	}
	return strings.Join(parts, ", ")
}

// isYes reports whether a typed answer says yes.
func isYes(answer string) bool {
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes", "是":
		return true
	}
	return false
}

// isTerminalReader reports whether r is a terminal someone can type on.
func isTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
