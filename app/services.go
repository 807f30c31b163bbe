package app

import (
	"context"
	"errors"
)

var errTODO = errors.New("not implemented yet")

// ServersService is bound to the frontend: the servers pane.
type ServersService struct{}

// List returns every configured server with its live status.
func (s *ServersService) List() ([]ServerView, error) { return nil, errTODO }

// Validate checks an editor's input as the person types, without saving.
// id is the server being edited ("" when adding), so its own name is not a duplicate.
func (s *ServersService) Validate(id string, in ServerInput) FieldErrors { return nil }

// Add saves a new server and starts connecting to it when enabled.
func (s *ServersService) Add(in ServerInput) (ServerView, error) { return ServerView{}, errTODO }

// Update replaces a server's settings and reconnects it.
func (s *ServersService) Update(id string, in ServerInput) (ServerView, error) {
	return ServerView{}, errTODO
}

// Remove disconnects and deletes a server.
func (s *ServersService) Remove(id string) error { return errTODO }

// SetEnabled connects or disconnects a server and remembers the choice.
func (s *ServersService) SetEnabled(id string, enabled bool) error { return errTODO }

// Reconnect drops and re-opens a server's session now.
func (s *ServersService) Reconnect(id string) error { return errTODO }

// Log returns the tail of a server's log (stderr of a stdio server and
// connection events).
func (s *ServersService) Log(id string) (string, error) { return "", errTODO }

// ToolsService is bound to the frontend: the tools pane.
type ToolsService struct{}

// List returns the tools of a connected server.
func (t *ToolsService) List(serverID string) ([]ToolView, error) { return nil, errTODO }

// Call calls a tool with arguments given as a JSON object text. callID is
// chosen by the frontend so that the call can be cancelled with Cancel.
func (t *ToolsService) Call(callID, serverID, tool, argsJSON string) (ToolResultView, error) {
	return ToolResultView{}, errTODO
}

// Cancel cancels a running call; the server is told with notifications/cancelled.
func (t *ToolsService) Cancel(callID string) error { return errTODO }

// SettingsService is bound to the frontend: the settings pane.
type SettingsService struct{}

// Info returns the app version and where its data is stored.
func (s *SettingsService) Info() (AppInfo, error) { return AppInfo{}, errTODO }

var _ = context.Background
