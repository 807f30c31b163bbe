package app

import (
	"context"
	"strconv"
	"sync"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/theme"
)

// EventTheme carries a ThemeView whenever Settings → Theme or the desktop's
// light/dark preference changes.
const EventTheme = "theme:changed"

// Theme choices as the window names them (Settings → Theme).
const (
	ThemeChoiceSystem = "system"
	ThemeChoiceLight  = "light"
	ThemeChoiceDark   = "dark"
)

// ThemeView is what the window needs to pick its look.
type ThemeView struct {
	// Choice is Settings → Theme: ThemeChoiceSystem, ThemeChoiceLight or
	// ThemeChoiceDark.
	Choice string `json:"choice"`
	// System is the desktop's preference as Go read it: "light", "dark", or
	// "" when the desktop states none that Go can read; the window then
	// follows its engine's prefers-color-scheme.
	System string `json:"system"`
}

// Scheme returns the look the window shows: the choice, else the desktop's
// preference (theme.NoPreference when neither says).
func (v ThemeView) Scheme() theme.Scheme {
	switch v.Choice {
	case ThemeChoiceLight:
		return theme.Light
	case ThemeChoiceDark:
		return theme.Dark
	}
	return theme.Scheme(v.System)
}

// ThemeDesktop is the desktop side of the theme: what it prefers, and
// telling its toolkit which scheme the window shows.
type ThemeDesktop interface {
	// Scheme returns the desktop's preference now.
	Scheme(ctx context.Context) theme.Scheme
	// Show tells the toolkit the window's scheme; theme.NoPreference gives
	// the toolkit back its own.
	Show(theme.Scheme)
}

// ThemeService is bound to the frontend: Settings → Theme, and the desktop's
// preference for the window to follow.
type ThemeService struct {
	core    *Core
	desktop ThemeDesktop

	mu     sync.Mutex
	system theme.Scheme // the desktop's preference, as last read

	// showing keeps a setting and a desktop change arriving together from
	// leaving the toolkit on the older of the two.
	showing sync.Mutex
}

// NewThemeService returns the theme service on core; it reads the desktop's
// preference once now.
func NewThemeService(core *Core, desktop ThemeDesktop) *ThemeService {
	return &ThemeService{core: core, desktop: desktop, system: desktop.Scheme(context.Background())}
}

// Get returns the theme setting and the desktop's preference.
func (s *ThemeService) Get() (ThemeView, error) {
	set, err := s.core.Store.Settings()
	if err != nil {
		return ThemeView{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return ThemeView{Choice: choiceOf(set.Theme), System: string(s.system)}, nil
}

// Set saves Settings → Theme, shows it at once, and sends EventTheme.
func (s *ThemeService) Set(choice string) (ThemeView, error) {
	stored, ok := map[string]string{
		ThemeChoiceSystem: store.ThemeSystem, ThemeChoiceLight: store.ThemeLight, ThemeChoiceDark: store.ThemeDark,
	}[choice]
	if !ok {
		return ThemeView{}, i18n.Err("theme.error.choice", "choice", strconv.Quote(choice))
	}
	set, err := s.core.Store.Settings()
	if err != nil {
		return ThemeView{}, err
	}
	set.Theme = stored
	if err := s.core.Store.PutSettings(set); err != nil {
		return ThemeView{}, err
	}
	return s.changed()
}

// systemChanged records the desktop's new preference, shows it if the
// window follows the desktop, and sends EventTheme.
func (s *ThemeService) systemChanged(scheme theme.Scheme) {
	s.mu.Lock()
	s.system = scheme
	s.mu.Unlock()
	_, _ = s.changed()
}

// show tells the toolkit the window's scheme as the settings say now; the
// GUI calls it once the window exists.
func (s *ThemeService) show() {
	s.showing.Lock()
	defer s.showing.Unlock()
	if v, err := s.Get(); err == nil {
		s.desktop.Show(v.Scheme())
	}
}

// changed shows the current view and sends it to the window.
func (s *ThemeService) changed() (ThemeView, error) {
	s.showing.Lock()
	defer s.showing.Unlock()
	v, err := s.Get()
	if err != nil {
		return ThemeView{}, err
	}
	s.desktop.Show(v.Scheme())
	s.core.emit(EventTheme, v)
	return v, nil
}

// choiceOf names a stored theme as the window does.
func choiceOf(stored string) string {
	switch stored {
	case store.ThemeLight:
		return ThemeChoiceLight
	case store.ThemeDark:
		return ThemeChoiceDark
	}
	return ThemeChoiceSystem
}

// windowBackground is the page's background (--bg in
// frontend/src/app.css) for a scheme, so that the window shows it before
// the page has loaded; a test checks it against app.css.
func windowBackground(s theme.Scheme) (r, g, b uint8) {
	if s == theme.Dark {
		return 0x15, 0x18, 0x1c
	}
	return 0xf6, 0xf7, 0xf9
}
