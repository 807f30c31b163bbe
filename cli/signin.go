package cli

import (
	"context"
	"errors"
	"fmt"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// signIn signs in to (or out of) a server that requires OAuth: the sign-in
// consent is asked on the terminal, the authorization page opens in the
// browser through app.OpenLink, and the command returns once the server is
// connected (E33).
func (e *env) signIn(name string, in bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if !in {
		return e.signOut(name)
	}
	if running, err := e.appRunning(ctx); err != nil || running {
		if err != nil {
			return err
		}
		// Its consent is asked in the window, not routed to a terminal.
		return i18n.Err("socket.signinInWindow", "server", name)
	}
	answerer, err := newTerminalAnswerer(e.stderr, e.stdin, "")
	if err != nil {
		return err
	}
	core, err := e.openCore()
	if err != nil {
		return err
	}
	defer core.Close()
	answerer.usePages(core.Broker)
	core.SetAnswerer(answerer)
	srv, err := findServer(core, name)
	if err != nil {
		return err
	}
	if srv.HTTP == nil {
		return i18n.Err("cli.signin.local", "server", srv.Name)
	}
	if !srv.Enabled {
		return i18n.Err("cli.turnedOff", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
	}
	core.Manager.Set(srv)
	wctx, cancel := context.WithTimeout(ctx, cliConnectTimeout)
	defer cancel()
	err = core.Manager.WaitConnected(wctx, srv.ID)
	if err == nil {
		fmt.Fprintln(e.stdout, i18n.M("cli.signin.already", "server", srv.Name))
		return nil
	}
	if !errors.Is(err, mcp.ErrNeedsSignIn) {
		return i18n.Wrap(err, "cli.cannotConnect", "server", srv.Name, "detail", err)
	}
	before, _ := core.Manager.Status(srv.ID)
	if err := core.Manager.SignIn(srv.ID); err != nil {
		return err
	}
	// Wait for the attempt the sign-in started to end, connected or not.
	deadline := time.Now().Add(mcp.SignInTimeout + cliConnectTimeout)
	for {
		st, err := core.Manager.Status(srv.ID)
		if err != nil {
			return err
		}
		if st.Since.After(before.Since) {
			switch st.State {
			case mcp.StateConnected:
				fmt.Fprintln(e.stdout, i18n.M("cli.signin.in", "server", srv.Name))
				return nil
			case mcp.StateNeedsSignIn, mcp.StateError:
				return i18n.Err("cli.signin.not", "server", srv.Name, "detail", st.Message)
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return i18n.Err("cli.signin.unfinished", "server", srv.Name)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// signOut forgets a remote server's sign-in, in the running app when the
// window is open (it disconnects there), else in the data file.
func (e *env) signOut(name string) error {
	cmds, closeCommands, err := e.openCommands()
	if err != nil {
		return err
	}
	defer closeCommands()
	saved, err := cmds.SignOut(name)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, i18n.M("cli.signin.out", "server", saved))
	return nil
}
