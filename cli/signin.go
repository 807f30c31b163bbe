package cli

import (
	"context"
	"fmt"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/i18n"
)

// signIn signs in to a server that requires OAuth: the sign-in consent is
// asked on the terminal, the authorization page opens in the browser
// through app.OpenLink, and the command returns once the server is
// connected (E33). While the window is open the running app signs in (its
// sessions are the ones that must be signed in) and asks the consent here.
// Ctrl-C (ctx) stops waiting; the consent is then cancelled.
func (e *env) signIn(ctx context.Context, name string) error {
	answerer, err := newTerminalAnswerer(e.stderr, e.stdin, "")
	if err != nil {
		return err
	}
	defer answerer.close()
	cs, closeLink, err := e.connect(ctx, answerer, nil)
	if err != nil {
		return err
	}
	defer closeLink()
	var signed app.SignedIn
	if err := run(ctx, cs, app.ToolSignIn, app.CLIName{Name: name}, &signed); err != nil {
		return err
	}
	said := i18n.M("cli.signin.in", "server", signed.Name)
	if signed.Already {
		said = i18n.M("cli.signin.already", "server", signed.Name)
	}
	fmt.Fprintln(e.stdout, said)
	return nil
}

// signOut forgets a remote server's sign-in (in the running app, it
// disconnects there).
func (e *env) signOut(ctx context.Context, name string) error {
	var saved app.CLIName
	if err := e.do(ctx, app.ToolSignOut, app.CLIName{Name: name}, &saved); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, i18n.M("cli.signin.out", "server", saved.Name))
	return nil
}
