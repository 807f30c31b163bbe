package cli

import (
	"context"
	"os"
	"path/filepath"
	"syscall"

	"github.com/gatehouse-app/gatehouse/gateway/pipe"
	"github.com/gatehouse-app/gatehouse/i18n"
)

// gatewayHelper is the small program that is `gatehouse gateway` without
// the window's libraries (cmd/gatehouse-gateway), installed beside this one.
const gatewayHelper = "gatehouse-gateway"

// gateway is `gatehouse gateway`, the MCP server another app launches
// (issue 25): a pipe to the running app's gateway (package gateway/pipe),
// starting this program's window when no app runs.
func (e *env) gateway(ctx context.Context, args []string) error {
	if len(args) > 0 {
		return usageErr(i18n.M("cli.unknownCommand", "command", "gateway "+args[0]))
	}
	return pipe.Run(ctx, pipe.Options{DataDir: e.dataDir, App: self(), Stdin: e.stdin, Stdout: e.stdout})
}

// execGatewayHelper replaces this process by gatehouse-gateway when it is
// installed beside this program, so that the pipe, which lives as long as
// the other app's session, holds a few megabytes instead of the window's
// libraries (same process: the app still learns who launched it). It
// returns only when there is no helper to run.
func execGatewayHelper(dataDir string, args []string) {
	exe := self()
	helper := filepath.Join(filepath.Dir(exe), gatewayHelper)
	if info, err := os.Stat(helper); err != nil || info.IsDir() || info.Mode()&0o111 == 0 || len(args) > 0 {
		return
	}
	argv := []string{helper, "--app", exe}
	if dataDir != "" {
		argv = append(argv, "--data-dir", dataDir)
	}
	_ = syscall.Exec(helper, argv, os.Environ()) // on failure, the pipe runs here
}

// self is this program's path, symbolic links resolved.
func self() string {
	exe, err := os.Executable()
	if err != nil {
		return "gatehouse"
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		return resolved
	}
	return exe
}
