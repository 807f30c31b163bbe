package app

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// TestSettingsService_Language: the person's choice is stored, Go's
// sentences follow it at once, and the window is told; "" follows the
// system's locale.
func TestSettingsService_Language(t *testing.T) {
	t.Setenv("LANGUAGE", "")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "en_US.UTF-8")
	t.Cleanup(func() { i18n.SetLanguage(i18n.English) })
	core, rec := openTestCore(t)
	svc := NewSettingsService(core)
	if v, err := svc.Language(); err != nil || v.Choice != "" {
		t.Fatalf("a new data file follows the system: %+v %v", v, err)
	}

	v, err := svc.SetLanguage("zh-CN")
	if err != nil || v != (LanguageView{Choice: "zh-CN", Language: "zh-CN", System: "en"}) {
		t.Fatalf("SetLanguage(zh-CN) = %+v, %v", v, err)
	}
	if got := svc.Save(SettingsView{}); got == nil || got.Error() != "答复时限必须在 1 分钟到 24 小时之间。" {
		t.Errorf("a refusal after choosing Chinese says %v", got)
	}
	if ev, _ := rec.last(EventLanguage).(LanguageView); ev.Choice != "zh-CN" {
		t.Errorf("the window was not told: %#v", rec.last(EventLanguage))
	}
	if st, _ := core.Store.Settings(); st.Language != "zh-CN" {
		t.Errorf("the choice was not stored: %q", st.Language)
	}

	t.Setenv("LANG", "zh_SG.UTF-8")
	if v, err := svc.SetLanguage(""); err != nil || v.Language != "zh-CN" || v.System != "zh-CN" {
		t.Errorf("System on a Chinese system = %+v, %v", v, err)
	}
	if _, err := svc.SetLanguage("fr"); err == nil {
		t.Error("a language Gatehouse does not have was accepted")
	}
	if st, _ := core.Store.Settings(); st.Language != "" {
		t.Errorf("a refused choice changed the stored one: %q", st.Language)
	}
}

// TestWindowError: a bound method's error reaches the window as the JSON of
// the message it says, for the window to render in its language; other
// errors as their text.
func TestWindowError(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"a sentence of the catalogue", i18n.Err("settings.error.answerTime"),
			`{"key":"settings.error.answerTime","args":{},"text":"The answer time must be between 1 minute and 24 hours."}`},
		{"wrapped without words of its own", fmt.Errorf("%w", i18n.Err("settings.error.toolTime")),
			`{"key":"settings.error.toolTime","args":{},"text":"The tool call time limit must be between 5 seconds and 24 hours."}`},
		{"another error is its text", errors.New("disk full"), `disk full`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Wails' runtime rejects with new Error(value): the value must be text.
			got, ok := windowError(tc.err).(string)
			if !ok || got != tc.want {
				t.Errorf("windowError = %#v, want the text %s", windowError(tc.err), tc.want)
			}
		})
	}
}
