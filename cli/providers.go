package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/store"
)

// providers runs `gatehouse providers list|add|remove|test`.
func (e *env) providers(args []string) error {
	if len(args) == 0 {
		return usageError("providers needs a command: list, add, remove or test")
	}
	core, err := e.openCore()
	if err != nil {
		return err
	}
	defer core.Close()
	svc := app.NewProvidersService(core)
	switch args[0] {
	case "list":
		return e.listProviders(svc)
	case "add":
		in, err := parseProviderAdd(args[1:])
		if err != nil {
			return err
		}
		v, err := svc.Add(in)
		if err != nil {
			return err
		}
		key := "no API key"
		if v.KeyHint != "" {
			key = "API key " + v.KeyHint
		}
		fmt.Fprintf(e.stdout, "Added %s (%s, model %s, %s).\n", oneLine(v.Name), oneLine(v.BaseURL), oneLine(v.Model), key)
		return nil
	case "remove", "test":
		if len(args) != 2 {
			return usageError(fmt.Sprintf("providers %s needs exactly one provider name", args[0]))
		}
		p, err := findProvider(core, args[1])
		if err != nil {
			return err
		}
		if args[0] == "remove" {
			if err := svc.Remove(p.ID); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%s: removed.\n", oneLine(p.Name))
			return nil
		}
		res, err := svc.TestSaved(p.ID)
		if err != nil {
			return err
		}
		if res.Problem != nil {
			return errors.New(res.Problem.String())
		}
		if len(res.Models) == 0 {
			fmt.Fprintf(e.stdout, "%s answers, but lists no models.\n", oneLine(p.Name))
			return nil
		}
		fmt.Fprintf(e.stdout, "%s offers %d models:\n", oneLine(p.Name), len(res.Models))
		for _, m := range res.Models {
			fmt.Fprintln(e.stdout, oneLine(m.ID))
		}
		return nil
	}
	return usageError(fmt.Sprintf("unknown providers command %q", args[0]))
}

func (e *env) listProviders(svc *app.ProvidersService) error {
	list, err := svc.List()
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "No model providers yet. Add one with: gatehouse providers add NAME --base-url URL --model MODEL")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tMODEL\tAPI KEY\tBASE URL")
	for _, p := range list {
		name, key := oneLine(p.Name), p.KeyHint
		if p.IsDefault {
			name += " (default)"
		}
		if key == "" {
			key = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", name, p.Kind, oneLine(p.Model), key, oneLine(p.BaseURL))
	}
	return tw.Flush()
}

// parseProviderAdd reads `NAME --base-url URL --model MODEL [--api-key-env VAR]
// [--kind openai|anthropic] [--preset ID]`. The key is read from the named
// environment variable, so it never appears in the command line (which
// other users of the machine and the shell history can see).
func parseProviderAdd(args []string) (app.ProviderInput, error) {
	var in app.ProviderInput
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return in, usageError("providers add needs a NAME first")
	}
	in.Name = args[0]
	keyVar := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--api-key" || strings.HasPrefix(a, "--api-key=") {
			return in, usageError("an API key is not given on the command line, where others can see it; put it in an environment variable and give its name with --api-key-env VAR")
		}
		if i+1 >= len(args) {
			return in, usageError(fmt.Sprintf("unknown option %q, or it needs a value", a))
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
				return in, usageError(fmt.Sprintf("--kind is openai or anthropic, not %q", v))
			}
			in.Kind = v
		case "--preset":
			in.Preset = v
		case "--api-key-env":
			keyVar = v
		default:
			return in, usageError(fmt.Sprintf("unknown option %q", a))
		}
	}
	if keyVar != "" {
		in.APIKey = os.Getenv(keyVar)
		if strings.TrimSpace(in.APIKey) == "" {
			return in, fmt.Errorf("the environment variable %s is empty or not set; put the API key in it", keyVar)
		}
	}
	return in, nil
}

// findProvider looks a provider up by its name (case-insensitive).
func findProvider(core *app.Core, name string) (store.Provider, error) {
	p, err := core.Store.ProviderByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return p, fmt.Errorf("no provider named %q (see: gatehouse providers list)", name)
	}
	return p, err
}
