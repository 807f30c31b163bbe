package cli

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// providers runs `gatehouse providers list|add|remove|test`.
func (e *env) providers(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usageErr(i18n.M("cli.providers.command"))
	}
	switch args[0] {
	case "list":
		return e.listProviders(ctx)
	case "add":
		in, err := parseProviderAdd(args[1:])
		if err != nil {
			return err
		}
		var v app.ProviderView
		if err := e.do(ctx, app.ToolAddProvider, in, &v); err != nil {
			return err
		}
		key := i18n.M("cli.providers.noKey")
		if v.KeyHint != "" {
			key = i18n.M("cli.providers.key", "hint", v.KeyHint)
		}
		fmt.Fprintln(e.stdout, i18n.M("cli.providers.added", "name", oneLine(v.Name), "url", oneLine(v.BaseURL), "model", oneLine(v.Model), "key", key))
		return nil
	case "remove", "test":
		if len(args) != 2 {
			return usageErr(i18n.M("cli.providers.oneName", "command", args[0]))
		}
		if args[0] == "remove" {
			var removed app.CLIName
			if err := e.do(ctx, app.ToolRemoveProvider, app.CLIName{Name: args[1]}, &removed); err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, i18n.M("cli.servers.removed", "name", oneLine(removed.Name)))
			return nil
		}
		var tested app.CLITested
		if err := e.do(ctx, app.ToolTestProvider, app.CLIName{Name: args[1]}, &tested); err != nil {
			return err
		}
		name, res := tested.Name, tested.Result
		if res.Problem != nil {
			return &i18n.Error{Message: *res.Problem}
		}
		if len(res.Models) == 0 {
			fmt.Fprintln(e.stdout, i18n.M("cli.providers.noModels", "name", oneLine(name)))
			return nil
		}
		fmt.Fprintln(e.stdout, i18n.M("cli.providers.models", "name", oneLine(name), "n", len(res.Models)))
		for _, m := range res.Models {
			fmt.Fprintln(e.stdout, oneLine(m.ID))
		}
		return nil
	}
	return usageErr(i18n.M("cli.providers.unknown", "command", strconv.Quote(args[0])))
}

func (e *env) listProviders(ctx context.Context) error {
	var providers applink.Items[app.ProviderView]
	if err := e.do(ctx, app.ToolListProviders, struct{}{}, &providers); err != nil {
		return err
	}
	list := providers.Items
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, i18n.M("cli.providers.none"))
		return nil
	}
	tw := newTable(e.stdout)
	fmt.Fprintln(tw, i18n.M("cli.providers.header"))
	for _, p := range list {
		name, key := oneLine(p.Name), p.KeyHint
		if p.IsDefault {
			name = i18n.M("cli.providers.default", "name", name).String()
		}
		if key == "" {
			key = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", name, p.Kind, oneLine(p.Model), key, oneLine(p.BaseURL))
	}
	return tw.Flush()
}

// parseProviderAdd reads `NAME --base-url URL --model MODEL [--api-key-env VAR]
// [--kind openai|anthropic] [--preset ID] [--images]`. The key is read from the named
// environment variable, so it never appears in the command line (which
// other users of the machine and the shell history can see).
func parseProviderAdd(args []string) (app.ProviderInput, error) {
	var in app.ProviderInput
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return in, usageErr(i18n.M("cli.providers.addName"))
	}
	in.Name = args[0]
	keyVar := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--api-key" || strings.HasPrefix(a, "--api-key=") {
			return in, usageErr(i18n.M("cli.providers.keyOnCommandLine"))
		}
		if a == "--images" { // the model reads images: attached ones are sent to it
			in.Quirks.Images = true
			continue
		}
		if i+1 >= len(args) {
			return in, usageErr(i18n.M("cli.providers.optionOrValue", "option", strconv.Quote(a)))
		}
		v := args[i+1]
		i++
		switch a {
		case "--base-url":
			in.BaseURL = v
		case "--model":
			in.Model = v
		case "--kind":
			if v != store.ProviderOpenAI && v != store.ProviderAnthropic {
				return in, usageErr(i18n.M("cli.providers.kind", "got", strconv.Quote(v)))
			}
			in.Kind = v
		case "--preset":
			in.Preset = v
		case "--api-key-env":
			keyVar = v
		default:
			return in, usageErr(i18n.M("cli.unknownOption", "option", strconv.Quote(a)))
		}
	}
	if keyVar != "" {
		in.APIKey = os.Getenv(keyVar)
		if strings.TrimSpace(in.APIKey) == "" {
			return in, i18n.Err("cli.providers.keyVarEmpty", "var", keyVar)
		}
	}
	return in, nil
}
