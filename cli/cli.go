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
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/mcp/demo"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // a failure, or a tool result marked as an error
	exitUsage = 2
)

// usage is the command line's help, in the terminal's language.
func usage() string { return i18n.M("cli.usage").String() }

// env is what a command runs with; tests substitute the streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	dataDir        string
	// stdinTerminal is true when stdin is a terminal a person can answer
	// a confirmation on.
	stdinTerminal bool
	// progress, when set, shows the progress of a call made through the
	// running app (`call`).
	progress func(mcp.Progress)
}

// Main runs Gatehouse with the given arguments (without the program name)
// and returns the process exit code.
func Main(args []string, assets fs.FS) int {
	// The command line speaks the terminal's language; the window then
	// follows the person's choice in Settings (app.RunGUI).
	i18n.SetLanguage(i18n.FromEnv(os.Getenv))
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, dataDir: os.Getenv("GATEHOUSE_DATA_DIR"),
		stdinTerminal: isTerminalReader(os.Stdin)}
	rest, err := e.globalFlags(args)
	if err != nil {
		fmt.Fprintf(e.stderr, "gatehouse: %v\n\n%s", err, usage())
		return exitUsage
	}
	if len(rest) > 0 {
		switch rest[0] {
		case "demo-server":
			return e.runDemo()
		case "help", "-h", "-help", "--help":
			fmt.Fprint(e.stdout, usage())
			return exitOK
		case "gateway":
			execGatewayHelper(e.dataDir, rest[1:])
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return e.exit(e.gateway(ctx, rest[1:]))
		case "version", "--version":
			fmt.Fprintln(e.stdout, "gatehouse", app.Version)
			return exitOK
		case "servers", "providers", "tools", "call", "chat", "policies", "resources", "read", "prompts", "prompt", "connect":
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return e.run(ctx, rest)
		}
	}
	if err := unknownCommand(rest); err != nil {
		return e.exit(err)
	}
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
				return nil, i18n.Err("cli.dataDirValue")
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
		err = e.servers(ctx, args[1:])
	case "providers":
		err = e.providers(ctx, args[1:])
	case "tools":
		err = e.tools(ctx, args[1:])
	case "call":
		return e.call(ctx, args[1:])
	case "chat":
		return e.chat(ctx, args[1:])
	case "policies":
		err = e.policies(ctx, args[1:])
	case "resources":
		err = e.resources(ctx, args[1:])
	case "read":
		err = e.read(ctx, args[1:])
	case "prompts":
		err = e.prompts(ctx, args[1:])
	case "prompt":
		err = e.prompt(ctx, args[1:])
	case "connect":
		err = e.connectApp(ctx, args[1:])
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
		fmt.Fprint(e.stderr, "\n"+usage())
		return exitUsage
	}
	return exitError
}

// usageError marks a mistake in the command line, said in the terminal's
// language.
type usageError struct{ msg i18n.Message }

func (u usageError) Error() string { return u.msg.String() }

// usage makes a usageError.
func usageErr(msg i18n.Message) error { return usageError{msg} }

// openCore opens the store for a CLI command. When the GUI holds the store,
// store.Open fails at once with "Gatehouse is already running".
func (e *env) openCore() (*app.Core, error) {
	return app.OpenCore(app.CoreOptions{DataDir: e.dataDir})
}

func (e *env) runDemo() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := demo.Run(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintln(e.stderr, i18n.M("cli.demoFailed", "detail", err))
		return exitError
	}
	return exitOK
}

func (e *env) runGUI(assets fs.FS) int {
	closeRemoteInspector()
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		fmt.Fprintln(e.stderr, "gatehouse:", err)
		return exitError
	}
	opts := app.GUIOptions{Assets: dist}
	if !bindingsOnly {
		lock, code, ok := e.claimWindow()
		if !ok {
			return code
		}
		if lock != nil {
			defer lock.Close()
			opts.LaterStarts = lock.Starts()
		}
		if opts.Core, err = e.openCore(); err != nil {
			return e.cannotStart(err)
		}
	}
	if err := app.RunGUI(opts); err != nil {
		fmt.Fprintln(e.stderr, "gatehouse:", err)
		return exitError
	}
	return exitOK
}
