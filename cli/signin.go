package cli

import (
	"context"
	"fmt"
	"os/signal"
	"syscall"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/i18n"
)

// signIn signs in to (or out of) a server that requires OAuth: the sign-in
// consent is asked on the terminal, the authorization page opens in the
// browser through app.OpenLink, and the command returns once the server is
// connected (E33). While the window is open the running app signs in (its
// sessions are the ones that must be signed in) and asks the consent here.
func (e *env) signIn(name string, in bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if !in {
		return e.signOut(name)
	}
	answerer, err := newTerminalAnswerer(e.stderr, e.stdin, "")
	if err != nil {
		return err
	}
	defer answerer.close()
	signed, done, err := e.remoteSignIn(ctx, name, answerer)
	if !done {
		var core *app.Core
		core, err = e.openCore()
		if err != nil {
			return err
		}
		defer core.Close()
		answerer.usePages(core.Broker)
		core.SetAnswerer(answerer)
		signed, err = app.NewCommands(core).SignIn(ctx, name)
	}
	if err != nil {
		return err
	}
	said := i18n.M("cli.signin.in", "server", signed.Name)
	if signed.Already {
		said = i18n.M("cli.signin.already", "server", signed.Name)
	}
	fmt.Fprintln(e.stdout, said)
	return nil
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
