package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/i18n"
)

// connectFailed says that a server could not be connected, with the end
// of its log.
func connectFailed(ce *applink.ConnectError) error {
	return i18n.Wrap(ce.Err, "cli.connectFailed", "server", ce.Server, "detail", ce.Err, "log", logHint(ce.Log))
}

// logHint returns the last lines of a server's log, to show with an error.
func logHint(log string) string {
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return ""
	}
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	for i, l := range lines {
		lines[i] = "  " + oneLine(l)
	}
	return "\n" + i18n.M("cli.logTail").String() + "\n" + strings.Join(lines, "\n")
}

// tools runs `gatehouse tools SERVER`: one line per tool, name and
// description, with a tool's interface marked (printTools).
func (e *env) tools(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return usageErr(i18n.M("cli.tools.args"))
	}
	var list applink.Items[app.ToolView]
	if err := e.do(ctx, app.ToolListTools, app.CLIName{Name: args[0]}, &list); err != nil {
		return err
	}
	e.printTools(list.Items)
	return nil
}

// printTools shows `gatehouse tools`: one line per tool, name and the first
// line of its description, which a mark precedes for a tool with an
// interface (MCP Apps): "[app]", or "[app only]" for a tool only its app
// may call, which no model is offered.
func (e *env) printTools(tools []app.ToolView) {
	for _, t := range tools {
		desc, _, _ := strings.Cut(strings.TrimSpace(t.Description), "\n")
		desc = oneLine(desc)
		if mark := appMark(t.App); mark != "" {
			desc = strings.TrimSpace(mark + " " + desc)
		}
		fmt.Fprintf(e.stdout, "%s\t%s\n", oneLine(t.Name), desc)
	}
}

// appMark is the mark of a tool with an interface, or only for apps (which
// may have no interface of its own, as system-monitor's poll tool); "" for
// any other.
func appMark(a *app.ToolAppView) string {
	switch {
	case a == nil:
		return ""
	case !a.ForModel:
		return i18n.M("cli.tools.appOnly").String()
	case a.ResourceURI != "":
		return i18n.M("cli.tools.app").String()
	}
	return ""
}

// call runs `gatehouse call SERVER TOOL [JSON-ARGS] [--json] [--answers FILE]`.
// Elicitations are answered on the terminal, or from the answers file. When
// the person opened a web page for the server (URL mode), call waits after
// the result until the server confirms it is finished, the person says so,
// or the time limit ends it. It exits 1 when the call fails, the tool's
// result is marked as an error, a scripted answer could not be sent, or a
// web page ended without the server's confirmation.
func (e *env) call(ctx context.Context, args []string) int {
	asJSON := false
	answersFile := ""
	var pos []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--json":
			asJSON = true
		case a == "--answers":
			if i+1 >= len(args) {
				return e.exit(usageErr(i18n.M("cli.answersFile")))
			}
			i++
			answersFile = args[i]
		case strings.HasPrefix(a, "--answers="):
			answersFile = strings.TrimPrefix(a, "--answers=")
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) < 2 || len(pos) > 3 {
		return e.exit(usageErr(i18n.M("cli.call.args")))
	}
	argsJSON := ""
	if len(pos) == 3 {
		argsJSON = pos[2]
	}
	answerer, err := newTerminalAnswerer(e.stderr, e.stdin, answersFile)
	if err != nil {
		return e.exit(err)
	}
	defer answerer.close()
	// The answerer writes from other goroutines too (notices, the wait for
	// web pages); this command's own messages to stderr take turns with it,
	// and so does the call's progress.
	progress := &progressPrinter{out: answerer.out.shared(), terminal: answerer.styled}
	e = &env{stdin: e.stdin, stdout: e.stdout, stderr: answerer.out.shared(), dataDir: e.dataDir, progress: progress.show}
	cs, closeLink, err := e.connect(ctx, answerer, nil)
	if err != nil {
		return e.exit(err)
	}
	defer closeLink()
	defer answerer.close() // first: nothing is said about pages the disconnection ends
	// Ctrl-C ends ctx: the call is cancelled on its server (which is told
	// with notifications/cancelled), and the command ends as it says.
	var res app.ToolResultView
	out := app.CLICallResult{Result: &res}
	err = run(ctx, cs, app.ToolCallTool, app.CLICall{Server: pos[0], Tool: pos[1], Arguments: argsJSON}, &out)
	progress.done()
	if noticed := (*applink.Noticed)(nil); errors.As(err, &noticed) {
		out.Notices = noticed.Notices
	}
	for _, n := range out.Notices {
		fmt.Fprintf(e.stderr, "\n%s\n", n)
	}
	if err != nil {
		return e.exit(err)
	}
	answerer.awaitEnded(out.EndedPages)
	return e.finishCall(ctx, res, asJSON, answerer)
}

// finishCall prints a call's result, waits for the web pages the call
// opened (until ctx ends) and returns the exit code.
func (e *env) finishCall(ctx context.Context, res app.ToolResultView, asJSON bool, answerer *terminalAnswerer) int {
	if len(res.ArgumentErrors) > 0 {
		e.printArgumentErrors(res.ArgumentErrors)
		return exitError
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return e.exit(err)
		}
	} else {
		e.printResult(res)
	}
	waitErr := answerer.waitPages(ctx)
	if err := answerer.Failure(); err != nil {
		return e.exit(err)
	}
	if waitErr != nil {
		return e.exit(waitErr)
	}
	if res.IsError {
		return exitError
	}
	return exitOK
}

// printResult shows a tool result for people. Server text is kept as text:
// control characters are made visible so a result cannot drive the terminal.
func (e *env) printResult(res app.ToolResultView) {
	if res.IsError {
		fmt.Fprintln(e.stdout, i18n.M("cli.tools.errorResult"))
	}
	for _, c := range res.Content {
		e.printContent(c)
	}
	if res.Structured != "" {
		fmt.Fprintln(e.stdout, i18n.M("cli.tools.structured"))
		fmt.Fprintln(e.stdout, visible(res.Structured))
	}
	if res.StructuredWarning != nil {
		fmt.Fprintln(e.stderr, "Warning:", res.StructuredWarning)
	}
}

// printArgumentErrors says why the arguments were not sent, argument by
// argument.
func (e *env) printArgumentErrors(errs map[string]i18n.Message) {
	fmt.Fprintln(e.stderr, i18n.M("cli.tools.refused"))
	names := slices.Sorted(maps.Keys(errs))
	for _, name := range names {
		label := name
		if label == "" {
			label = "arguments"
		}
		fmt.Fprintf(e.stderr, "  %s: %s\n", oneLine(label), oneLine(errs[name].String()))
	}
}

// visible is oneLine for multi-line text: newlines and tabs stay.
func visible(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(oneLine(strings.ReplaceAll(l, "\t", "    ")), "\r", "")
	}
	return strings.Join(lines, "\n")
}
