package cli

import (
	"context"
	"errors"
	"fmt"
	"os/signal"
	"syscall"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// signIn signs in to (or out of) a server that requires OAuth: the sign-in
// consent is asked on the terminal, the authorization page opens in the
// browser through app.OpenLink, and the command returns once the server is
// connected (E33).
func (e *env) signIn(name string, in bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	answerer, err := newTerminalAnswerer(e.stderr, e.stdin, "")
	if err != nil {
		return err
	}
	core, err := e.openCore()
	if err != nil {
		return err
	}
	defer core.Close()
	answerer.useBroker(core.Broker)
	core.SetAnswerer(answerer)
	srv, err := findServer(core, name)
	if err != nil {
		return err
	}
	if srv.HTTP == nil {
		return fmt.Errorf("%s runs on this computer; only remote (HTTP) servers sign in", srv.Name)
	}
	if !srv.Enabled {
		return fmt.Errorf("%s is turned off (enable it with: gatehouse servers enable %q)", srv.Name, srv.Name)
	}
	if !in {
		if err := core.Manager.SignOut(srv.ID); err != nil && !errors.Is(err, mcp.ErrUnknownServer) && !errors.Is(err, mcp.ErrDisabled) {
			return err
		}
		// The manager may not run this server in a CLI process: delete in any case.
		fmt.Fprintf(e.stdout, "%s: signed out.\n", srv.Name)
		return nil
	}
	core.Manager.Set(srv)
	wctx, cancel := context.WithTimeout(ctx, cliConnectTimeout)
	defer cancel()
	err = core.Manager.WaitConnected(wctx, srv.ID)
	if err == nil {
		fmt.Fprintf(e.stdout, "%s: already signed in (or no sign-in needed).\n", srv.Name)
		return nil
	}
	if !errors.Is(err, mcp.ErrNeedsSignIn) {
		return fmt.Errorf("cannot connect to %s: %w", srv.Name, err)
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
				fmt.Fprintf(e.stdout, "%s: signed in.\n", srv.Name)
				return nil
			case mcp.StateNeedsSignIn, mcp.StateError:
				return fmt.Errorf("%s: not signed in: %s", srv.Name, st.Message)
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s: the sign-in did not finish", srv.Name)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
