package app

// SettingsService is bound to the frontend: the settings pane.
type SettingsService struct {
	core *Core
}

// NewSettingsService returns the settings pane's service on core.
func NewSettingsService(core *Core) *SettingsService { return &SettingsService{core: core} }

// Info returns the app version and where its data is stored.
func (s *SettingsService) Info() (AppInfo, error) {
	return AppInfo{Version: Version, DataDir: s.core.Store.Dir(), DBPath: s.core.Store.Path()}, nil
}
