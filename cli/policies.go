package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// policies runs `gatehouse policies [SERVER]`, `policies set SERVER
// [--tool TOOL] MODE` and `policies trust SERVER on|off`. It does not
// connect to the servers: it shows and changes what is saved.
func (e *env) policies(ctx context.Context, args []string) error {
	if len(args) == 0 {
		var policies applink.Items[app.ServerPolicyView]
		if err := e.do(ctx, app.ToolListPolicies, struct{}{}, &policies); err != nil {
			return err
		}
		list := policies.Items
		if len(list) == 0 {
			fmt.Fprintln(e.stdout, i18n.M("cli.servers.none"))
			return nil
		}
		for i, v := range list {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			if err := e.printPolicy(v); err != nil {
				return err
			}
		}
		return nil
	}
	var v app.ServerPolicyView
	switch args[0] {
	case "set":
		server, tool, mode, err := parsePolicySet(args[1:])
		if err != nil {
			return err
		}
		if err := e.do(ctx, app.ToolSetPolicy, app.CLIPolicy{Server: server, Tool: tool, Mode: mode}, &v); err != nil {
			return err
		}
	case "trust":
		if len(args) != 3 || (args[2] != "on" && args[2] != "off") {
			return usageErr(i18n.M("cli.policies.trustArgs"))
		}
		if err := e.do(ctx, app.ToolTrustServer, app.CLITrust{Server: args[1], Trusted: args[2] == "on"}, &v); err != nil {
			return err
		}
	default:
		if len(args) != 1 {
			return usageErr(i18n.M("cli.policies.showArgs"))
		}
		if err := e.do(ctx, app.ToolServerPolicy, app.CLIName{Name: args[0]}, &v); err != nil {
			return err
		}
	}
	return e.printPolicy(v)
}

// parsePolicySet reads `SERVER [--tool TOOL] MODE`.
func parsePolicySet(args []string) (server, tool, mode string, err error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--tool":
			if i+1 >= len(args) {
				return "", "", "", usageErr(i18n.M("cli.policies.toolName"))
			}
			tool = args[i+1]
			i++
		case strings.HasPrefix(a, "--tool="):
			tool = strings.TrimPrefix(a, "--tool=")
		case strings.HasPrefix(a, "-"):
			return "", "", "", usageErr(i18n.M("cli.unknownOption", "option", strconv.Quote(a)))
		default:
			rest = append(rest, a)
		}
	}
	if len(rest) != 2 {
		return "", "", "", usageErr(i18n.M("cli.policies.setArgs"))
	}
	return rest[0], tool, rest[1], nil
}

// serverModeWords say what a server's mode does.
var serverModeWords = map[store.ToolMode]i18n.Message{
	store.ToolAsk:   i18n.M("cli.policies.ask"),
	store.ToolAllow: i18n.M("cli.policies.allow"),
	store.ToolDeny:  i18n.M("cli.policies.deny"),
}

// toolModeWords say what a tool's own mode does.
var toolModeWords = map[store.ToolMode]i18n.Message{
	store.ToolAsk:   i18n.M("cli.policies.askEach"),
	store.ToolAllow: i18n.M("cli.policies.allow"),
	store.ToolDeny:  i18n.M("cli.policies.deny"),
}

// printPolicy prints one server's policies: what its tool calls do, whether
// its read-only claims are trusted, how its requests are answered, then
// the tools with a mode of their own.
func (e *env) printPolicy(v app.ServerPolicyView) error {
	fmt.Fprintf(e.stdout, "%s\n", oneLine(v.ServerName))
	fmt.Fprintln(e.stdout, i18n.M("cli.policies.toolCalls", "mode", serverModeWords[v.Mode]))
	if v.Trusted {
		fmt.Fprintln(e.stdout, i18n.M("cli.policies.trusted"))
	} else {
		fmt.Fprintln(e.stdout, i18n.M("cli.policies.notTrusted"))
	}
	requests := map[string]i18n.Message{"ask": i18n.M("cli.policies.ask"), "decline": i18n.M("cli.policies.decline"),
		"mute": i18n.M("cli.policies.muted", "until", v.MutedUntil)}[v.Requests]
	fmt.Fprintln(e.stdout, i18n.M("cli.policies.requests", "mode", requests))
	tw := newTable(e.stdout)
	for _, t := range v.Tools {
		if t.Mode != store.ToolDefault {
			fmt.Fprintln(tw, i18n.M("cli.policies.tool", "tool", oneLine(t.Name), "mode", toolModeWords[t.Mode]))
		}
	}
	return tw.Flush()
}
