package cli

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// The commands of a server's resources and prompts.

// resources runs `gatehouse resources SERVER`: the resources and the
// resource templates, one per line.
func (e *env) resources(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return usageErr(i18n.M("cli.resources.args"))
	}
	var list app.ResourceListView
	if err := e.do(ctx, app.ToolListResources, app.CLIName{Name: args[0]}, &list); err != nil {
		return err
	}
	if len(list.Resources)+len(list.Templates) == 0 {
		fmt.Fprintln(e.stdout, i18n.M("cli.resources.none", "server", args[0]))
		return nil
	}
	t := newTable(e.stdout)
	fmt.Fprintln(t, i18n.M("cli.resources.header"))
	for _, r := range list.Resources {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\n", i18n.M("cli.resources.resource"), cell(r.URI), cell(r.Title), cell(r.MimeType), cell(firstLine(r.Description)))
	}
	for _, tp := range list.Templates {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\n", i18n.M("cli.resources.template"), cell(tp.URITemplate), cell(tp.Title), cell(tp.MimeType), cell(firstLine(tp.Description)))
	}
	if err := t.Flush(); err != nil {
		return err
	}
	if list.More {
		fmt.Fprintln(e.stderr, i18n.M("cli.resources.more", "server", args[0], "max", mcp.MaxListed))
	}
	return nil
}

// read runs `gatehouse read SERVER URI [--out FILE]`: the resource's text
// on stdout (JSON pretty-printed), or its bytes in FILE. Binary contents
// go to a file or a pipe, never to a terminal.
func (e *env) read(ctx context.Context, args []string) error {
	out := ""
	var pos []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--out":
			if i+1 >= len(args) {
				return usageErr(i18n.M("cli.read.outFile"))
			}
			i++
			out = args[i]
		case strings.HasPrefix(a, "--out="):
			out = strings.TrimPrefix(a, "--out=")
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) != 2 {
		return usageErr(i18n.M("cli.read.args"))
	}
	var data app.ResourceData
	if err := e.do(ctx, app.ToolReadResource, app.CLIRead{Server: pos[0], URI: pos[1]}, &data); err != nil {
		return err
	}
	parts := make([][]byte, len(data.Contents))
	for i, item := range data.Contents {
		if item.Kind == app.KindText || item.Kind == app.KindJSON {
			parts[i] = []byte(item.Text)
			continue
		}
		var err error
		if parts[i], err = base64.StdEncoding.DecodeString(item.Data); err != nil {
			return err
		}
	}
	if out != "" {
		whole := []byte{}
		for _, p := range parts {
			whole = append(whole, p...)
		}
		if err := os.WriteFile(out, whole, 0o600); err != nil {
			return i18n.Wrap(err, "resources.error.save", "path", out, "detail", err)
		}
		fmt.Fprintln(e.stdout, i18n.M("cli.read.saved", "size", len(whole), "path", out))
		return nil
	}
	if len(data.Contents) == 0 {
		fmt.Fprintln(e.stderr, i18n.M("cli.read.empty", "uri", pos[1]))
		return nil
	}
	f, isFile := e.stdout.(*os.File)
	terminal := isFile && isTerminalReader(f)
	for _, item := range data.Contents {
		if terminal && item.Kind != app.KindText && item.Kind != app.KindJSON {
			return i18n.Err("cli.read.binary", "uri", item.URI, "mime", cell(item.MimeType), "size", item.Size)
		}
	}
	for i, item := range data.Contents {
		if len(data.Contents) > 1 {
			fmt.Fprintf(e.stdout, "[%s %s]\n", oneLine(item.URI), oneLine(item.MimeType))
		}
		p := parts[i]
		if terminal { // server text cannot drive the terminal
			p = []byte(visible(string(p)))
			if len(p) > 0 && p[len(p)-1] != '\n' {
				p = append(p, '\n')
			}
		}
		if _, err := e.stdout.Write(p); err != nil {
			return err
		}
	}
	return nil
}

// prompts runs `gatehouse prompts SERVER`: one line per prompt, with its
// arguments.
func (e *env) prompts(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return usageErr(i18n.M("cli.prompts.args"))
	}
	var prompts applink.Items[app.PromptView]
	if err := e.do(ctx, app.ToolListPrompts, app.CLIName{Name: args[0]}, &prompts); err != nil {
		return err
	}
	list := prompts.Items
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, i18n.M("cli.prompts.none", "server", args[0]))
		return nil
	}
	t := newTable(e.stdout)
	fmt.Fprintln(t, i18n.M("cli.prompts.header"))
	for _, p := range list {
		var names []string
		for _, a := range p.Arguments {
			name := oneLine(a.Name)
			if a.Required {
				name += "*"
			}
			names = append(names, name)
		}
		fmt.Fprintf(t, "%s\t%s\t%s\n", cell(p.Name), cell(strings.Join(names, ", ")), cell(firstLine(p.Description)))
	}
	return t.Flush()
}

// prompt runs `gatehouse prompt SERVER NAME [JSON-ARGS]`: the messages the
// prompt produces, each under its role.
func (e *env) prompt(ctx context.Context, args []string) error {
	if len(args) < 2 || len(args) > 3 {
		return usageErr(i18n.M("cli.prompt.args"))
	}
	argsJSON := ""
	if len(args) == 3 {
		argsJSON = args[2]
	}
	var res app.PromptResultView
	if err := e.do(ctx, app.ToolGetPrompt, app.CLIPrompt{Server: args[0], Name: args[1], Arguments: argsJSON}, &res); err != nil {
		return err
	}
	if res.Description != "" {
		fmt.Fprintln(e.stdout, visible(res.Description))
		fmt.Fprintln(e.stdout)
	}
	for i, m := range res.Messages {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "[%s]\n", oneLine(m.Role))
		e.printContent(m.Content)
	}
	return nil
}

// printContent shows one content item of a tool result (printResult) or of
// a prompt message: text as text, media and resources as one bracketed line.
func (e *env) printContent(c app.ContentView) {
	switch c.Type {
	case "image", "audio":
		fmt.Fprintf(e.stdout, "[%s %s, %d bytes]\n", c.Type, oneLine(c.MimeType), len(c.Data)*3/4)
	case "resource_link":
		label := c.Title
		if label == "" {
			label = c.Name
		}
		fmt.Fprintf(e.stdout, "[link] %s <%s>\n", oneLine(label), oneLine(c.URI))
	case "resource":
		fmt.Fprintf(e.stdout, "[resource %s]\n%s\n", oneLine(c.URI), visible(c.Text))
	default:
		fmt.Fprintln(e.stdout, visible(c.Text))
	}
}

// cell is server text in a table cell: one line, "-" when empty.
func cell(s string) string {
	if s = oneLine(s); s == "" {
		return "-"
	}
	return s
}

// firstLine is the first line of a description, as `tools` shows it.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return oneLine(line)
}
