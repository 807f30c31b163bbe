package app

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/applink"
)

// ServeCLI lets the command line use this core while it holds the data
// file (the window is open): it serves the CLI's commands on the socket of
// this data folder (applink) until StopCLI or Close. A socket a crashed app
// left is replaced.
func (c *Core) ServeCLI() error {
	path, err := applink.SocketPath(c.Store.Dir())
	if err != nil {
		return err
	}
	srv := c.newCLIServer()
	if err := srv.ServeUnix(path); err != nil {
		return fmt.Errorf("serving the command line: %w", err)
	}
	c.setCLIServer(srv)
	return nil
}

// ConnectCLI is the command line's road to a core it opened itself (no app
// runs on the data folder): the same server ServeCLI serves on the socket,
// reached in memory, so that every command runs the same way with the
// window open or not. The server ends with StopCLI or Close.
func (c *Core) ConnectCLI(ctx context.Context, o applink.ClientOptions) (*sdk.ClientSession, error) {
	srv := c.newCLIServer()
	c.setCLIServer(srv)
	return applink.InMemory(ctx, srv, o)
}

// newCLIServer is the server of the command line's commands on this core.
func (c *Core) newCLIServer() *applink.Server {
	return applink.NewServer(applink.Options{Broker: c.Broker, Version: Version, Tools: newCommands(c).table()})
}

// setCLIServer makes srv the core's, closing the one before.
func (c *Core) setCLIServer(srv *applink.Server) {
	c.cliMu.Lock()
	old := c.cliServer
	c.cliServer = srv
	c.cliMu.Unlock()
	if old != nil {
		_ = old.Close()
	}
}

// StopCLI stops serving the command line and removes the socket; the CLI
// then opens the data file itself once the store is closed.
func (c *Core) StopCLI() { c.setCLIServer(nil) }
