package app

import (
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// SettingsService is bound to the frontend: the settings pane.
type SettingsService struct {
	core *Core
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
