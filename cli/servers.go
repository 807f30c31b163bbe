package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
	vis "github.com/gatehouse-app/gatehouse/visible"
)

// servers runs `gatehouse servers list|add|import|remove|enable|disable|roots|signin|signout`.
func (e *env) servers(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usageErr(i18n.M("cli.servers.command"))
	}
	switch args[0] {
	case "list":
		var list applink.Items[app.ServerRow]
		if err := e.do(ctx, app.ToolListServers, struct{}{}, &list); err != nil {
			return err
		}
		return e.printServers(list.Items)
	case "add":
		in, err := parseAdd(args[1:])
		if err != nil {
			return err
		}
		var added app.ServerRow
		if err := e.do(ctx, app.ToolAddServer, in, &added); err != nil {
			return err
		}
		e.printAdded(added)
		return nil
	case "import":
		return e.importServers(ctx, args[1:])
	case "roots":
		return e.roots(ctx, args[1:])
	case "remove", "enable", "disable", "signin", "signout":
		if len(args) != 2 {
			return usageErr(i18n.M("cli.servers.oneName", "command", args[0]))
		}
		switch args[0] {
		case "signin":
			return e.signIn(ctx, args[1])
		case "signout":
			return e.signOut(ctx, args[1])
		}
		tool := map[string]string{"remove": app.ToolRemoveServer, "enable": app.ToolEnableServer, "disable": app.ToolDisableServer}[args[0]]
		var changed app.CLIName
		if err := e.do(ctx, tool, app.CLIName{Name: args[1]}, &changed); err != nil {
			return err
		}
		e.printChanged(args[0], changed.Name)
		return nil
	}
	return usageErr(i18n.M("cli.servers.unknown", "command", strconv.Quote(args[0])))
}

// printServers shows `servers list`.
func (e *env) printServers(rows []app.ServerRow) error {
	if len(rows) == 0 {
		fmt.Fprintln(e.stdout, i18n.M("cli.servers.none"))
		return nil
	}
	tw := newTable(e.stdout)
	fmt.Fprintln(tw, i18n.M("cli.servers.header"))
	for _, s := range rows {
		state := i18n.M("cli.servers.stateEnabled")
		if !s.Enabled {
			state = i18n.M("cli.servers.stateDisabled")
		}
		// What a stdio server is given from the app's environment (see --inherit-env).
		environment := i18n.Text("-")
		if s.Stdio {
			environment = i18n.M("cli.servers.envBasic")
			if s.InheritEnv {
				environment = i18n.M("cli.servers.envWhole")
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", oneLine(s.Name), state, s.Transport, environment, oneLine(s.Where))
	}
	return tw.Flush()
}

// printAdded says that a server was added, and what it is given.
func (e *env) printAdded(a app.ServerRow) {
	fmt.Fprintln(e.stdout, i18n.M("cli.servers.added", "name", a.Name, "where", a.Where))
	if a.InheritEnv {
		fmt.Fprintln(e.stdout, i18n.M("cli.servers.wholeEnv"))
	}
}

// printChanged says that `servers remove|enable|disable` was done.
func (e *env) printChanged(command, name string) {
	done := map[string]i18n.Message{"remove": i18n.M("cli.servers.removed", "name", name),
		"enable": i18n.M("cli.servers.enabled", "name", name), "disable": i18n.M("cli.servers.disabled", "name", name)}[command]
	fmt.Fprintln(e.stdout, done)
}

// parseAdd reads `NAME [--env K=V ...] [--dir DIR] [--inherit-env] -- COMMAND [ARGS...]` or
// `NAME --url URL [--header "Name: value" ...]` (Name=value too, as before).
func parseAdd(args []string) (app.ServerInput, error) {
	in := app.ServerInput{Enabled: true}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return in, usageErr(i18n.M("cli.servers.addName"))
	}
	in.Name = args[0]
	for i := 1; i < len(args); i++ {
		a := args[i]
		value := func() (string, error) {
			if i+1 >= len(args) {
				return "", usageErr(i18n.M("cli.needsValue", "option", a))
			}
			i++
			return args[i], nil
		}
		switch a {
		case "--":
			if i+1 >= len(args) {
				return in, usageErr(i18n.M("cli.servers.commandAfter"))
			}
			in.Transport, in.Command, in.Args = store.TransportStdio, args[i+1], args[i+2:]
			i = len(args)
		case "--env", "--header":
			v, err := value()
			if err != nil {
				return in, err
			}
			k, val, ok := strings.Cut(v, "=")
			form := "KEY=VALUE"
			if a == "--header" {
				k, val, ok = app.HeaderArg(v)
				form = `"Name: value"`
			}
			if !ok {
				return in, usageErr(i18n.M("cli.servers.keyValue", "option", a, "form", form, "got", strconv.Quote(v)))
			}
			if a == "--env" {
				if in.Env == nil {
					in.Env = map[string]string{}
				}
				in.Env[k] = val
			} else {
				if in.Headers == nil {
					in.Headers = map[string]string{}
				}
				in.Headers[k] = val
			}
		case "--url":
			v, err := value()
			if err != nil {
				return in, err
			}
			in.Transport, in.URL = store.TransportHTTP, v
		case "--dir":
			v, err := value()
			if err != nil {
				return in, err
			}
			in.Dir = v
		case "--disabled":
			in.Enabled = false
		case "--inherit-env":
			in.InheritEnv = true
		default:
			return in, usageErr(i18n.M("cli.servers.unknownOption", "option", strconv.Quote(a)))
		}
	}
	switch {
	case in.Transport == "":
		return in, usageErr(i18n.M("cli.servers.either"))
	case in.Transport == store.TransportStdio && len(in.Headers) > 0:
		return in, usageErr(i18n.M("cli.servers.headerHTTP"))
	case in.Transport == store.TransportHTTP && len(in.Env) > 0:
		return in, usageErr(i18n.M("cli.servers.envStdio"))
	case in.Transport == store.TransportHTTP && in.InheritEnv:
		return in, usageErr(i18n.M("cli.servers.inheritStdio"))
	}
	return in, nil
}

// oneLine keeps server-supplied or user text on one terminal line and makes
// hidden characters visible, so text cannot drive the terminal or hide what
// it says: control characters become �, and the other characters the window
// marks too (vis.Hidden: bidi overrides, zero-width spaces, line and
// paragraph separators) are written as <U+XXXX>.
func oneLine(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsControl(r):
			b.WriteRune('�')
		case vis.Hidden(r):
			b.WriteString("<" + vis.Code(r) + ">")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
