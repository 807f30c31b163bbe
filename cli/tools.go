package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/hostapi"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// cliConnectTimeout bounds how long the CLI waits for a server to connect.
const cliConnectTimeout = 30 * time.Second

// connectOne opens the core and connects only the named server; answerer
// (may be nil) answers its elicitations, with the core's broker.
func (e *env) connectOne(ctx context.Context, name string, answerer *terminalAnswerer) (*app.Core, store.Server, error) {
	core, err := e.openCore()
	if err != nil {
		return nil, store.Server{}, err
	}
	if answerer != nil {
		answerer.usePages(core.Broker)
		core.SetAnswerer(answerer)
	}
	srv, err := findServer(core, name)
	if err != nil {
		core.Close()
		return nil, srv, err
	}
	if !srv.Enabled {
		core.Close()
		return nil, srv, i18n.Err("cli.turnedOff", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
	}
	core.Manager.Set(srv)
	wctx, cancel := context.WithTimeout(ctx, cliConnectTimeout)
	defer cancel()
	if err := core.Manager.WaitConnected(wctx, srv.ID); err != nil {
		log, _ := core.Manager.Log(srv.ID)
		core.Close()
		if errors.Is(err, mcp.ErrNeedsSignIn) {
			return nil, srv, i18n.Err("cli.signinFirst", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
		}
		return nil, srv, connectFailed(&hostapi.ConnectError{Server: srv.Name, Err: err, Log: log})
	}
	return core, srv, nil
}

// connectFailed says that a server could not be connected, with the end
// of its log.
func connectFailed(ce *hostapi.ConnectError) error {
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

// tools runs `gatehouse tools SERVER`: one line per tool, name and description.
func (e *env) tools(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return usageErr(i18n.M("cli.tools.args"))
	}
	if done, err := e.remoteTools(ctx, args[0]); done {
		return err // the running app listed them (remote.go)
	}
	core, srv, err := e.connectOne(ctx, args[0], nil)
	if err != nil {
		return err
	}
	defer core.Close()
	tools, err := app.NewToolsService(core).List(srv.ID)
	if err != nil {
		return err
	}
	list := make([]hostapi.ToolInfo, 0, len(tools))
	for _, t := range tools {
		list = append(list, hostapi.ToolInfo{Name: t.Name, Description: t.Description})
	}
	e.printTools(list)
	return nil
}

// printTools shows `gatehouse tools`: one line per tool, name and the first
// line of its description.
func (e *env) printTools(tools []hostapi.ToolInfo) {
	for _, t := range tools {
		desc, _, _ := strings.Cut(strings.TrimSpace(t.Description), "\n")
		fmt.Fprintf(e.stdout, "%s\t%s\n", oneLine(t.Name), oneLine(desc))
	}
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
	if code, done := e.remoteCall(ctx, pos[0], pos[1], argsJSON, asJSON, answerer, progress); done {
		return code // the running app made the call (remote.go)
	}
	core, srv, err := e.connectOne(ctx, pos[0], answerer)
	if err != nil {
		return e.exit(err)
	}
	defer core.Close()
	defer answerer.close() // first: nothing is said about pages the disconnection ends
	// Ctrl-C ends ctx, which cancels the call on the server too
	// (notifications/cancelled).
	res, err := app.CallTool(mcp.WithProgress(ctx, progress.show), app.NewToolsService(core), "", srv.ID, pos[1], argsJSON)
	progress.done()
	if err != nil {
		return e.exit(err)
	}
	return e.finishCall(res, asJSON, answerer, func() error { return answerer.waitPages(ctx, srv.ID) })
}

// finishCall prints a call's result and returns the exit code. waitPages
// (nil when there is nothing to wait for) waits for the web pages the call
// opened.
func (e *env) finishCall(res app.ToolResultView, asJSON bool, answerer *terminalAnswerer, waitPages func() error) int {
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
	var waitErr error
	if waitPages != nil {
		waitErr = waitPages()
	}
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
