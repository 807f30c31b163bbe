package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gatehouse-app/gatehouse/hostapi"
)

// ServeCLI lets the command line use this core while it holds the data
// file (the window is open): it serves the CLI's commands on the socket of
// this data folder (hostapi) until StopCLI or Close. A socket a crashed app
// left is replaced.
func (c *Core) ServeCLI() error {
	path, err := hostapi.SocketPath(c.Store.Dir())
	if err != nil {
		return err
	}
	host := &cliHost{servers: NewServersService(c), tools: NewToolsService(c)}
	srv, err := hostapi.Serve(path, hostapi.Options{Store: c.Store, Manager: c.Manager, Broker: c.Broker, Host: host, Version: Version,
		Tools: NewCommands(c).cliTools()})
	if err != nil {
		return fmt.Errorf("serving the command line: %w", err)
	}
	c.cliMu.Lock()
	old := c.cliServer
	c.cliServer = srv
	c.cliMu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	return nil
}

// StopCLI stops serving the command line and removes the socket; the CLI
// then opens the data file itself once the store is closed.
func (c *Core) StopCLI() {
	c.cliMu.Lock()
	srv := c.cliServer
	c.cliServer = nil
	c.cliMu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// cliHost does the CLI's commands as the window does them, so the window
// shows their effect at once (hostapi.Host).
type cliHost struct {
	servers *ServersService
	tools   *ToolsService
}

func (h *cliHost) AddServer(in hostapi.NewServer) (hostapi.Added, error) {
	v, err := h.servers.Add(ServerInput{Name: in.Name, Enabled: in.Enabled, Transport: in.Transport, Command: in.Command,
		Args: in.Args, Env: in.Env, Dir: in.Dir, InheritEnv: in.InheritEnv, URL: in.URL, Headers: in.Headers})
	if err != nil {
		return hostapi.Added{}, err
	}
	return hostapi.Added{Name: v.Input.Name, Where: v.Where, InheritEnv: v.Input.InheritEnv}, nil
}

func (h *cliHost) RemoveServer(id string) error { return h.servers.Remove(id) }

func (h *cliHost) SetEnabled(id string, enabled bool) error { return h.servers.SetEnabled(id, enabled) }

// CallTool makes the call as the Tools pane does; the CLI ending its
// request (Ctrl-C) cancels it on the server too, and the call's progress
// goes where ctx says (the CLI's terminal, see hostapi).
func (h *cliHost) CallTool(ctx context.Context, serverID, tool, argsJSON string) (json.RawMessage, error) {
	view, err := CallTool(ctx, h.tools, "", serverID, tool, argsJSON)
	if err != nil {
		return nil, err
	}
	return json.Marshal(view)
}
