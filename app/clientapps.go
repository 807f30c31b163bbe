package app

import (
	"time"

	"github.com/gatehouse-app/gatehouse/store"
)

// EventClientApps carries the ID of an app whose record changed: it used
// the gateway (a first time too), its calls were counted, or the person
// changed its settings or forgot it. Changes that come together are one
// event, carrying the newest ID, at most every appEventEvery.
const EventClientApps = "clientapps:changed"

// appEventEvery bounds how often EventClientApps is sent: the window reads
// the whole list again on each, and any local process can start sessions.
const appEventEvery = 250 * time.Millisecond

// clientAppChanged tells the window that the app's record changed.
func (c *Core) clientAppChanged(id string) { c.appEvents.Put(id) }

// ClientAppsService is what Settings → Connected apps will show and change
// (issue 25): the other apps that used the gateway, when and how often,
// the servers each may see, its own tool modes, and cutting one off. A
// change reaches the app's open sessions at once.
type ClientAppsService struct{ core *Core }

// NewClientAppsService returns the service over core.
func NewClientAppsService(core *Core) *ClientAppsService { return &ClientAppsService{core: core} }

// List returns the apps that used the gateway, the latest seen first.
func (s *ClientAppsService) List() ([]store.ClientApp, error) {
	apps, err := s.core.Store.ClientApps()
	if apps == nil {
		apps = []store.ClientApp{}
	}
	return apps, err
}

// Update saves what the person chose for an app (the servers it sees, its
// own tool modes, cut off or not; see store.PutClientAppSettings) and
// applies it to its open sessions.
func (s *ClientAppsService) Update(app store.ClientApp) (store.ClientApp, error) {
	before, err := s.core.Store.ClientApp(app.ID)
	if err != nil {
		return store.ClientApp{}, err
	}
	app.Tools = s.bindAllows(before, app.Tools)
	saved, err := s.core.Store.PutClientAppSettings(app)
	if err != nil {
		return store.ClientApp{}, err
	}
	s.core.gatewayAppChanged(saved.ID)
	return saved, nil
}

// CutOff cuts an app off (cut true: its sessions are refused with a
// sentence saying so) or lets it back in, keeping its other settings.
func (s *ClientAppsService) CutOff(id string, cut bool) (store.ClientApp, error) {
	app, err := s.core.Store.ClientApp(id)
	if err != nil {
		return store.ClientApp{}, err
	}
	app.CutOff = cut
	return s.Update(app)
}

// Forget removes an app's record: its next session starts as a first one,
// seeing every server.
func (s *ClientAppsService) Forget(id string) error {
	if err := s.core.Store.DeleteClientApp(id); err != nil {
		return err
	}
	s.core.gatewayAppChanged(id)
	return nil
}

// bindAllows binds each allow of one tool in modes to what the person saw
// of the tool, as Settings → Tool permissions binds the chat's: an allow
// the app had already keeps what was seen then (a tool that changed since
// stays held), a new one takes the tool as its server offers it now (none
// when it is not offered: its calls are asked). Whatever Seen the window
// sent is not believed.
func (s *ClientAppsService) bindAllows(before store.ClientApp, modes []store.ClientToolMode) []store.ClientToolMode {
	out := make([]store.ClientToolMode, len(modes))
	for i, m := range modes {
		m.Seen = nil
		if m.Mode == store.ToolAllow && m.Tool != "" {
			if old := ownMode(before, m.ServerID, m.Tool); old != nil && old.Mode == store.ToolAllow {
				m.Seen = old.Seen
			} else if seen, offered := s.core.toolSeen(m.ServerID, m.Tool); offered {
				m.Seen = &seen
			}
		}
		out[i] = m
	}
	return out
}

// ownMode returns the app's own mode for the server's tool, or nil.
func ownMode(app store.ClientApp, serverID, tool string) *store.ClientToolMode {
	for i, m := range app.Tools {
		if m.ServerID == serverID && m.Tool == tool {
			return &app.Tools[i]
		}
	}
	return nil
}

// Permissions returns every server's tool permissions as they apply to the
// app (as PoliciesService.List, with the app's own modes over the chat's):
// each tool's Effective and Why say what a call of it from this app does.
func (s *ClientAppsService) Permissions(id string) ([]ServerPolicyView, error) {
	app, err := s.core.Store.ClientApp(id)
	if err != nil {
		return nil, err
	}
	return s.core.policyViews(app.Policy)
}
