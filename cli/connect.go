package cli

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/cmdline"
	"github.com/gatehouse-app/gatehouse/connectapp"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
)

// connectApp runs `gatehouse connect`: APP [--replace] [--dry-run]
// [--yes] adds the gateway entry to the app's file after showing the
// change and asking; --list shows every app's state; --undo APP takes
// back the last change. The work is the app's (app.ConnectService), over
// the same road as every command, so that the window, when open, sees it.
func (e *env) connectApp(ctx context.Context, args []string) error {
	var appID string
	var list, undo, replace, dryRun, yes bool
	for _, a := range args {
		switch {
		case a == "--list":
			list = true
		case a == "--undo":
			undo = true
		case a == "--replace":
			replace = true
		case a == "--dry-run":
			dryRun = true
		case a == "--yes" || a == "-y":
			yes = true
		case a == "--help" || a == "-h":
			fmt.Fprint(e.stdout, i18n.M("cli.connect.usage"))
			return nil
		case strings.HasPrefix(a, "-"):
			return usageErr(i18n.M("cli.connect.unknownOption", "option", strconv.Quote(a)))
		case appID != "":
			return usageErr(i18n.M("cli.connect.oneApp"))
		default:
			appID = a
		}
	}
	switch {
	case list && (appID != "" || undo || replace || dryRun):
		return usageErr(i18n.M("cli.connect.listAlone"))
	case !list && appID == "":
		return usageErr(i18n.M("cli.connect.which", "apps", strings.Join(connectapp.AppIDs(), ", ")))
	case undo && (replace || dryRun):
		return usageErr(i18n.M("cli.connect.undoAlone"))
	}
	cs, closeLink, err := e.connect(ctx, nil, nil)
	if err != nil {
		return err
	}
	defer closeLink()
	ask := func(question i18n.Message) bool {
		if yes {
			return true
		}
		fmt.Fprint(e.stdout, question)
		answer, _ := bufio.NewReader(e.stdin).ReadString('\n')
		return isYes(answer)
	}
	switch {
	case list:
		var apps struct{ Items []connectapp.Status }
		if err := run(ctx, cs, app.ToolConnectApps, struct{}{}, &apps); err != nil {
			return err
		}
		e.printApps(apps.Items)
		return nil
	case undo:
		return e.undoConnect(ctx, cs, appID, yes, ask)
	}
	req := app.ConnectRequest{App: appID, Replace: replace}
	var ch connectapp.Change
	if err := run(ctx, cs, app.ToolConnectPreview, req, &ch); err != nil {
		return err
	}
	e.printChange(ch)
	switch {
	case ch.Unchanged:
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.already", "app", ch.AppName, "file", oneLine(ch.File), "name", oneLine(ch.Entry.Name)))
		return nil
	case dryRun:
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.dryRun"))
		return nil
	case !yes && !e.stdinTerminal:
		return i18n.Err("cli.connect.notTerminal")
	case !ask(i18n.M("cli.connect.confirm")):
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.nothingDone"))
		return nil
	}
	req.Digest, req.Result = ch.Digest, ch.Result
	var w connectapp.Written
	if err := run(ctx, cs, app.ToolConnect, req, &w); err != nil {
		return err
	}
	if w.Created {
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.created", "app", ch.AppName, "file", oneLine(w.File)))
	} else {
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.written", "app", ch.AppName, "file", oneLine(w.File), "backup", oneLine(w.Backup)))
	}
	fmt.Fprintln(e.stdout, i18n.M("cli.connect.howToUndo", "command", "gatehouse connect --undo "+ch.App))
	return nil
}

// undoConnect runs `gatehouse connect --undo APP`: when the file is as
// Gatehouse's last change left it, its backup goes back after asking; when
// the app changed it since, the preview of taking out only Gatehouse's part
// is shown and written after asking.
func (e *env) undoConnect(ctx context.Context, cs *sdk.ClientSession, appID string, yes bool, ask func(i18n.Message) bool) error {
	var u connectapp.UndoChange
	if err := run(ctx, cs, app.ToolConnectUndoPreview, app.CLIName{Name: appID}, &u); err != nil {
		return err
	}
	var question i18n.Message
	switch {
	case u.Whole:
		question = i18n.M("cli.connect.undoConfirm", "app", u.AppName)
	case u.Unchanged:
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.undoNothingLeft", "file", oneLine(u.File), "time", localTime(u.Time)))
		question = i18n.M("cli.connect.undoForget")
	default:
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.undoPart", "file", oneLine(u.File), "time", localTime(u.Time)))
		if u.Entry != "" {
			fmt.Fprintln(e.stdout, i18n.M("cli.connect.undoEntry", "name", oneLine(u.Entry)))
		}
		if len(u.Restored) > 0 {
			fmt.Fprintln(e.stdout, i18n.M("cli.connect.undoRestored", "names", oneLine(strings.Join(u.Restored, ", "))))
		}
		e.printDiff(u.Diff)
		question = i18n.M("cli.connect.confirm")
	}
	if !yes && !e.stdinTerminal {
		return i18n.Err("cli.connect.undoNotTerminal")
	}
	if !ask(question) {
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.nothingDone"))
		return nil
	}
	var done connectapp.Undone
	var err error
	if u.Whole {
		err = run(ctx, cs, app.ToolConnectUndo, app.CLIName{Name: appID}, &done)
	} else {
		err = run(ctx, cs, app.ToolConnectUndoChanged, app.UndoRequest{App: u.App, Digest: u.Digest, Result: u.Result}, &done)
	}
	if err != nil {
		return err
	}
	switch {
	case done.Forgotten:
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.undoneForgotten", "file", oneLine(done.File), "time", localTime(done.Time)))
	case done.Backup != "":
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.undonePart", "file", oneLine(done.File), "backup", oneLine(done.Backup)))
	case done.Removed:
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.undoneRemoved", "file", oneLine(done.File)))
	default:
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.undone", "file", oneLine(done.File), "time", localTime(done.Time)))
	}
	return nil
}

// printChange writes the preview: the file, the entry, what is taken out
// and kept (--replace), and the change as a unified diff whose lines are
// made visible (oneLine) and whose secret-looking values are masked.
func (e *env) printChange(ch connectapp.Change) {
	fmt.Fprintln(e.stdout, i18n.M("cli.connect.file", "app", ch.AppName, "file", oneLine(ch.File)))
	if !ch.Exists {
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.newFile"))
	}
	fmt.Fprintln(e.stdout, i18n.M("cli.connect.entry", "name", oneLine(ch.Entry.Name), "command", oneLine(entryLine(ch.Entry))))
	if len(ch.Removed) > 0 {
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.removed", "names", oneLine(strings.Join(ch.Removed, ", "))))
	}
	if len(ch.Kept) > 0 {
		fmt.Fprintln(e.stdout, i18n.M("cli.connect.kept", "names", oneLine(strings.Join(ch.Kept, ", "))))
	}
	e.printDiff(ch.Diff)
}

// printDiff writes a unified diff of Go's, its lines made visible
// (oneLine), and says how secret-looking values are shown.
func (e *env) printDiff(diff string) {
	if diff == "" {
		return
	}
	fmt.Fprintln(e.stdout)
	for _, line := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		fmt.Fprintln(e.stdout, oneLine(line))
	}
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, i18n.M("cli.connect.hidden", "mask", importcfg.Masked))
}

// entryLine is the command the other app will run, quoted as a shell would.
func entryLine(en connectapp.Entry) string {
	return cmdline.Join(en.Command, en.Args)
}

// printApps writes the apps Gatehouse connects, each with its file's state.
func (e *env) printApps(apps []connectapp.Status) {
	tw := newTable(e.stdout)
	fmt.Fprintln(tw, i18n.M("cli.connect.header"))
	for _, s := range apps {
		var state i18n.Message
		switch {
		case s.Problem.Key != "":
			state = i18n.M("cli.connect.state.problem")
		case s.Connected:
			state = i18n.M("cli.connect.state.connected")
		case !s.Exists:
			state = i18n.M("cli.connect.state.noFile")
		default:
			state = i18n.M("cli.connect.state.notConnected")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.App, s.AppName, state, oneLine(s.File))
	}
	tw.Flush()
	for _, s := range apps {
		if s.Problem.Key != "" {
			fmt.Fprintln(e.stdout, oneLine(i18n.M("cli.connect.problem", "app", s.AppName, "detail", s.Problem).String()))
		}
		if s.CanUndo {
			fmt.Fprintln(e.stdout, i18n.M("cli.connect.canUndo", "app", s.AppName, "time", localTime(s.UndoTime), "command", "gatehouse connect --undo "+s.App))
		}
	}
}

// localTime writes an RFC 3339 time in the terminal's time zone.
func localTime(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.Local().Format(time.DateTime)
}
