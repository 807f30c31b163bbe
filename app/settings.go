package app

import (
	"slices"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// SettingsService is bound to the frontend: the settings pane.
type SettingsService struct {
	core  *Core
	links linkBook // Settings → About's documentation links, once checked
}

// NewSettingsService returns the settings pane's service on core.
func NewSettingsService(core *Core) *SettingsService { return &SettingsService{core: core} }

// Info returns the app version and where its data is stored.
func (s *SettingsService) Info() (AppInfo, error) {
	return AppInfo{Version: Version, DataDir: s.core.Store.Dir(), DBPath: s.core.Store.Path(),
		Keyring: s.core.secrets.usesKeyring()}, nil
}

// SettingsView is what the settings pane edits. Zero values are shown as
// the defaults.
type SettingsView struct {
	// ElicitationTimeoutMinutes is how long a request waits for an answer
	// before it is cancelled.
	ElicitationTimeoutMinutes int `json:"elicitationTimeoutMinutes"`
	// ToolCallTimeoutSeconds bounds a tool call (paused while you answer).
	ToolCallTimeoutSeconds int `json:"toolCallTimeoutSeconds"`
	// RememberAnswers stores the values you submit in the history.
	RememberAnswers bool `json:"rememberAnswers"`
}

// Limits of the settings, so a typo cannot make requests expire at once or
// never.
const (
	minElicitationMinutes = 1
	maxElicitationMinutes = 24 * 60
	minToolCallSeconds    = 5
	maxToolCallSeconds    = 24 * 60 * 60
)

// Get returns the current settings, with defaults filled in.
func (s *SettingsService) Get() (SettingsView, error) {
	st, err := s.core.Store.Settings()
	if err != nil {
		return SettingsView{}, err
	}
	v := SettingsView{
		ElicitationTimeoutMinutes: int(mcp.DefaultElicitationTimeout / time.Minute),
		ToolCallTimeoutSeconds:    int(DefaultToolCallTimeout / time.Second),
		RememberAnswers:           st.RememberAnswers,
	}
	if st.ElicitationTimeout > 0 {
		v.ElicitationTimeoutMinutes = int(st.ElicitationTimeout / time.Minute)
	}
	if st.ToolCallTimeout > 0 {
		v.ToolCallTimeoutSeconds = int(st.ToolCallTimeout / time.Second)
	}
	return v, nil
}

// Save stores the settings after checking their limits.
func (s *SettingsService) Save(v SettingsView) error {
	if v.ElicitationTimeoutMinutes < minElicitationMinutes || v.ElicitationTimeoutMinutes > maxElicitationMinutes {
		return i18n.Err("settings.error.answerTime")
	}
	if v.ToolCallTimeoutSeconds < minToolCallSeconds || v.ToolCallTimeoutSeconds > maxToolCallSeconds {
		return i18n.Err("settings.error.toolTime")
	}
	st, err := s.core.Store.Settings()
	if err != nil {
		return err
	}
	st.ElicitationTimeout = time.Duration(v.ElicitationTimeoutMinutes) * time.Minute
	st.ToolCallTimeout = time.Duration(v.ToolCallTimeoutSeconds) * time.Second
	st.RememberAnswers = v.RememberAnswers
	return s.core.Store.PutSettings(st)
}

// LanguageView is the language setting: what the person chose ("" for the
// system's, "en", "zh-CN"), the language Go renders its sentences in now, and
// the system's language as Go reads it from the environment (i18n.FromEnv).
// The window speaks Language. Go's reading of the system language is the one
// both follow, because it needs no installed locale: WebKitGTK's
// navigator.language falls back to English when the locale named in LANG is
// not generated on the machine.
type LanguageView struct {
	Choice   string `json:"choice"`
	Language string `json:"language"`
	System   string `json:"system"`
}

// Language returns the language setting.
func (s *SettingsService) Language() (LanguageView, error) {
	st, err := s.core.Store.Settings()
	if err != nil {
		return LanguageView{}, err
	}
	return LanguageView{Choice: st.Language, Language: string(i18n.Current()), System: string(systemLanguage())}, nil
}

// SetLanguage stores the person's language choice ("" for the system's, "en"
// or "zh-CN"), renders Go's sentences in it from now on and tells the window
// (EventLanguage), so that every pane changes at once.
func (s *SettingsService) SetLanguage(choice string) (LanguageView, error) {
	c := i18n.Choice(choice)
	if !c.Valid() {
		return LanguageView{}, i18n.Err("settings.error.language", "choice", choice)
	}
	st, err := s.core.Store.Settings()
	if err != nil {
		return LanguageView{}, err
	}
	st.Language = choice
	if err := s.core.Store.PutSettings(st); err != nil {
		return LanguageView{}, err
	}
	ApplyLanguage(choice)
	v := LanguageView{Choice: choice, Language: string(i18n.Current()), System: string(systemLanguage())}
	s.core.emit(EventLanguage, v)
	return v, nil
}

// WelcomeDismissed reports whether the person dismissed the first-start
// welcome; once they did, it never shows again on this data file.
func (s *SettingsService) WelcomeDismissed() (bool, error) {
	st, err := s.core.Store.Settings()
	if err != nil {
		return false, err
	}
	return st.WelcomeDismissed, nil
}

// DismissWelcome stores that the person dismissed the first-start welcome.
func (s *SettingsService) DismissWelcome() error {
	st, err := s.core.Store.Settings()
	if err != nil {
		return err
	}
	st.WelcomeDismissed = true
	return s.core.Store.PutSettings(st)
}

// SettingsSections are the sections of the settings pane, as the window
// names them (frontend/src/lib/navigate.svelte.ts); "" is the first.
var SettingsSections = []string{"general", "models", "permissions", "requests", "apps", "about"}

// Section returns the settings pane's section the person chose last ("" for
// none yet: the first), kept across restarts.
func (s *SettingsService) Section() (string, error) {
	st, err := s.core.Store.Settings()
	if err != nil {
		return "", err
	}
	if !slices.Contains(SettingsSections, st.SettingsSection) {
		return "", nil
	}
	return st.SettingsSection, nil
}

// SetSection keeps the settings pane's section the person chose, one of
// SettingsSections.
func (s *SettingsService) SetSection(section string) error {
	if !slices.Contains(SettingsSections, section) {
		return i18n.Err("settings.error.section", "section", section)
	}
	st, err := s.core.Store.Settings()
	if err != nil {
		return err
	}
	if st.SettingsSection == section {
		return nil
	}
	st.SettingsSection = section
	return s.core.Store.PutSettings(st)
}

// Licences returns Gatehouse's own licence and what the binary has
// compiled in, each with its version and licence (Settings → About).
func (s *SettingsService) Licences() (Licences, error) { return compiledIn() }

// OpenDataFolder shows Gatehouse's data folder in the desktop's file
// manager. It opens that folder only: the window gives no path.
func (s *SettingsService) OpenDataFolder() error { return openFolder(s.core.Store.Dir()) }

// CheckDocsLink checks one of Gatehouse's own documentation addresses, by
// its name ("readme", "docs" or "licence"), for the window's consent
// display; OpenDocsLink opens it after the person agreed. The window never
// gives an address.
func (s *SettingsService) CheckDocsLink(name string) (CheckedLink, error) {
	url, ok := docsLinks[name]
	if !ok {
		return CheckedLink{}, i18n.Err("settings.error.docsLink", "name", name)
	}
	report, err := linkcheck.Check(url)
	if err != nil {
		return CheckedLink{}, i18n.Wrap(err, "links.error.refused", "detail", err)
	}
	return CheckedLink{ID: s.links.add(report), Link: report}, nil
}

// OpenDocsLink opens an address CheckDocsLink checked, by its ID, in the
// system browser; the window calls it only after the person consented.
func (s *SettingsService) OpenDocsLink(linkID string) error { return s.links.open(linkID) }
