package cli

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// servers runs `gatehouse servers list|add|remove|enable|disable`.
func (e *env) servers(args []string) error {
	if len(args) == 0 {
		return usageError("servers needs a command: list, add, remove, enable, disable, signin or signout")
	}
	core, err := e.openCore()
	if err != nil {
		return err
	}
	defer core.Close()
	svc := app.NewServersService(core)
	switch args[0] {
	case "list":
		return e.listServers(core)
	case "add":
		in, err := parseAdd(args[1:])
		if err != nil {
			return err
		}
		v, err := svc.Add(in)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "Added %s (%s).\n", v.Input.Name, v.Where)
		if v.Input.InheritEnv {
			fmt.Fprintln(e.stdout, "It gets your whole environment, including any API keys or passwords in it.")
		}
		return nil
	case "signin", "signout":
		if len(args) != 2 {
			return usageError(fmt.Sprintf("servers %s needs exactly one server name", args[0]))
		}
		core.Close()
		return e.signIn(args[1], args[0] == "signin")
	case "remove", "enable", "disable":
		if len(args) != 2 {
			return usageError(fmt.Sprintf("servers %s needs exactly one server name", args[0]))
		}
		srv, err := findServer(core, args[1])
		if err != nil {
			return err
		}
		switch args[0] {
		case "remove":
			err = svc.Remove(srv.ID)
		default:
			err = svc.SetEnabled(srv.ID, args[0] == "enable")
		}
		if err != nil {
			return err
		}
		done := map[string]string{"remove": "removed", "enable": "enabled", "disable": "disabled"}[args[0]]
		fmt.Fprintf(e.stdout, "%s: %s.\n", srv.Name, done)
		return nil
	}
	return usageError(fmt.Sprintf("unknown servers command %q", args[0]))
}

func (e *env) listServers(core *app.Core) error {
	servers, err := core.Store.Servers()
	if err != nil {
		return err
	}
	if len(servers) == 0 {
		fmt.Fprintln(e.stdout, "No servers yet. Add one with: gatehouse servers add NAME -- COMMAND [ARGS...]")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tTRANSPORT\tENVIRONMENT\tWHERE")
	for _, s := range servers {
		state := "enabled"
		if !s.Enabled {
			state = "disabled"
		}
		// What a stdio server is given from the app's environment (see --inherit-env).
		environment := "-"
		if s.Stdio != nil {
			environment = "basic"
			if s.Stdio.InheritEnv {
				environment = "whole"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", oneLine(s.Name), state, s.Transport, environment, oneLine(mcp.Where(s)))
	}
	return tw.Flush()
}

// parseAdd reads `NAME [--env K=V ...] [--dir DIR] [--inherit-env] -- COMMAND [ARGS...]` or
// `NAME --url URL [--header K=V ...]`.
func parseAdd(args []string) (app.ServerInput, error) {
	in := app.ServerInput{Enabled: true}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return in, usageError("servers add needs a NAME first")
	}
	in.Name = args[0]
	for i := 1; i < len(args); i++ {
		a := args[i]
		value := func() (string, error) {
			if i+1 >= len(args) {
				return "", usageError(a + " needs a value")
			}
			i++
			return args[i], nil
		}
		switch a {
		case "--":
			if i+1 >= len(args) {
				return in, usageError("give the server's command after --")
			}
			in.Transport, in.Command, in.Args = store.TransportStdio, args[i+1], args[i+2:]
			i = len(args)
		case "--env", "--header":
			v, err := value()
			if err != nil {
				return in, err
			}
			k, val, ok := strings.Cut(v, "=")
			if !ok {
				return in, usageError(fmt.Sprintf("%s wants KEY=VALUE, got %q", a, v))
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
			return in, usageError(fmt.Sprintf("unknown option %q (put the server's command after --)", a))
		}
	}
	switch {
	case in.Transport == "":
		return in, usageError("give either -- COMMAND [ARGS...] or --url URL")
	case in.Transport == store.TransportStdio && len(in.Headers) > 0:
		return in, usageError("--header is for HTTP servers")
	case in.Transport == store.TransportHTTP && len(in.Env) > 0:
		return in, usageError("--env is for stdio servers")
	case in.Transport == store.TransportHTTP && in.InheritEnv:
		return in, usageError("--inherit-env is for stdio servers")
	}
	return in, nil
}

// findServer looks a server up by its name (case-insensitive).
func findServer(core *app.Core, name string) (store.Server, error) {
	srv, err := core.Store.ServerByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return srv, fmt.Errorf("no server named %q (see: gatehouse servers list)", name)
	}
	return srv, err
}

// oneLine keeps server-supplied or user text on one terminal line and makes
// hidden characters visible, so text cannot drive the terminal or hide what
// it says: control characters become �, and invisible format characters
// (bidi overrides, zero-width spaces) are written as <U+XXXX>.
func oneLine(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsControl(r):
			b.WriteRune('�')
		case unicode.Is(unicode.Cf, r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
