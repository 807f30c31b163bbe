package app

import (
	"github.com/gatehouse-app/gatehouse/store"
)

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
