// Package cli is Gatehouse's command line: it reads the arguments, opens the
// core and either runs the GUI or a subcommand on the same store and core.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp/demo"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // a failure, or a tool result marked as an error
	exitUsage = 2
)

const usage = `Gatehouse: a desktop host for MCP servers.

Usage:
  gatehouse [--data-dir DIR]                    open the app
  gatehouse servers list
  gatehouse servers add NAME [--env KEY=VALUE ...] [--dir DIR] [--inherit-env] -- COMMAND [ARGS...]
                                                a server gets only basic variables (PATH,
                                                HOME, locale...) and those given with --env;
                                                --inherit-env passes your whole environment
                                                (API keys too): only for a server you trust.
                                                It runs in DIR, else in your home folder.
  gatehouse servers add NAME --url URL [--header KEY=VALUE ...]
  gatehouse servers remove|enable|disable NAME
  gatehouse servers signin|signout NAME        sign in to a remote server that requires it
  gatehouse providers list                      the model providers the chat can use
  gatehouse providers add NAME --base-url URL --model MODEL [--api-key-env VAR]
                          [--kind openai|anthropic] [--preset ID]
                                                OpenAI-compatible unless --kind anthropic;
                                                --preset (ollama, lmstudio, llamacpp, vllm,
                                                deepseek, qwen, moonshot, glm, siliconflow,
                                                openai, anthropic) fills the base URL and the
                                                vendor's settings. The API key is read from
                                                the environment variable VAR, never from the
                                                command line, and kept in the OS keyring
                                                (else in the data file).
  gatehouse providers remove NAME
  gatehouse providers test NAME                 list the models the provider offers
  gatehouse tools SERVER                        list a server's tools
  gatehouse call SERVER TOOL [JSON-ARGS] [--json] [--answers FILE]
                                                answers the server's questions on the
                                                terminal, or from FILE: a JSON array with,
                                                per request, an object of field values,
                                                "open" (a web page), "decline" or "cancel"
  gatehouse chat [--provider NAME] [--answers FILE] [--json] MESSAGE
                                                one turn with the model (the default
                                                provider unless --provider) and every
                                                enabled server's tools; each tool call is
                                                asked on the terminal, or taken from FILE
                                                ("allow" or "deny", in order with the
                                                servers' questions); a message starting
                                                with list or export follows --
  gatehouse chat list                           the conversations and their IDs
  gatehouse chat export ID [--out FILE]         a conversation as Markdown, on stdout or
                                                in FILE (readable only by you)
  gatehouse policies [SERVER]                   what the model's tool calls of each server do
  gatehouse policies set SERVER [--tool TOOL] ask|allow|deny|default
                                                the server's tool calls: ask each time,
                                                allow or deny without asking; with --tool,
                                                one tool's own (default: the server's applies)
  gatehouse policies trust SERVER on|off        on: the tools the server says are read-only
                                                run without asking (its claims are believed)
  gatehouse version

Data is kept in the user's config folder (gatehouse/gatehouse.db); set
--data-dir DIR or GATEHOUSE_DATA_DIR to use another folder.
`

// env is what a command runs with; tests substitute the streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	dataDir        string
}

// Main runs Gatehouse with the given arguments (without the program name)
// and returns the process exit code.
func Main(args []string, assets fs.FS) int {
	// The command line speaks the terminal's language; the window then
	// follows the person's choice in Settings (app.RunGUI).
	i18n.SetLanguage(i18n.FromEnv(os.Getenv))
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, dataDir: os.Getenv("GATEHOUSE_DATA_DIR")}
	rest, err := e.globalFlags(args)
	if err != nil {
		fmt.Fprintf(e.stderr, "gatehouse: %v\n\n%s", err, usage)
		return exitUsage
	}
	if len(rest) > 0 {
		switch rest[0] {
		case "demo-server":
			return e.runDemo()
		case "help", "-h", "-help", "--help":
			fmt.Fprint(e.stdout, usage)
			return exitOK
		case "version", "--version":
			fmt.Fprintln(e.stdout, "gatehouse", app.Version)
			return exitOK
		case "servers", "providers", "tools", "call", "chat", "policies":
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return e.run(ctx, rest)
		}
	}
	// Anything else opens the app. Other arguments are left to Wails, whose
	// development build reads its own flags (-assetdir, -devserver).
	return e.runGUI(assets)
}

// globalFlags takes --data-dir out of args wherever it appears.
func (e *env) globalFlags(args []string) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(rest, args[i:]...), nil
		case a == "--data-dir" || a == "-data-dir":
			if i+1 >= len(args) {
				return nil, errors.New("--data-dir needs a folder")
			}
			e.dataDir = args[i+1]
			i++
		case strings.HasPrefix(a, "--data-dir=") || strings.HasPrefix(a, "-data-dir="):
			e.dataDir = a[strings.IndexByte(a, '=')+1:]
		default:
			rest = append(rest, a)
		}
	}
	return rest, nil
}

// run dispatches a CLI subcommand.
func (e *env) run(ctx context.Context, args []string) int {
	var err error
	switch args[0] {
	case "servers":
		err = e.servers(args[1:])
	case "providers":
		err = e.providers(args[1:])
	case "tools":
		err = e.tools(ctx, args[1:])
	case "call":
		return e.call(ctx, args[1:])
	case "chat":
		return e.chat(ctx, args[1:])
	case "policies":
		err = e.policies(args[1:])
	}
	return e.exit(err)
}

// exit prints err (if any) and returns the matching exit code.
func (e *env) exit(err error) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(e.stderr, "gatehouse:", err)
	if errors.As(err, new(usageError)) {
		fmt.Fprint(e.stderr, "\n"+usage)
		return exitUsage
	}
	return exitError
}

// usageError marks a mistake in the command line.
type usageError string

func (u usageError) Error() string { return string(u) }

// openCore opens the store for a CLI command. When the GUI holds the store,
// store.Open fails at once with "Gatehouse is already running".
func (e *env) openCore() (*app.Core, error) {
	return app.OpenCore(app.CoreOptions{DataDir: e.dataDir})
}

func (e *env) runDemo() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := demo.Run(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintln(e.stderr, "demo server:", err)
		return exitError
	}
	return exitOK
}

func (e *env) runGUI(assets fs.FS) int {
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		fmt.Fprintln(e.stderr, "gatehouse:", err)
		return exitError
	}
	opts := app.GUIOptions{Assets: dist}
	if !bindingsOnly {
		opts.Core, opts.StartupError = e.openCore()
		if opts.StartupError != nil {
			fmt.Fprintln(e.stderr, "gatehouse:", opts.StartupError)
		}
	}
	if err := app.RunGUI(opts); err != nil {
		fmt.Fprintln(e.stderr, "gatehouse:", err)
		return exitError
	}
	if opts.StartupError != nil {
		return exitError
	}
	return exitOK
}
