package app

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sync"
	"testing"

	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/theme"
)

// standInDesktop prefers what it is told and records what the window shows.
type standInDesktop struct {
	mu        sync.Mutex
	preferred theme.Scheme
	shown     []theme.Scheme
}

func (d *standInDesktop) Scheme(context.Context) theme.Scheme { return d.preferred }

func (d *standInDesktop) Show(s theme.Scheme) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.shown = append(d.shown, s)
}

func (d *standInDesktop) lastShown() theme.Scheme {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.shown) == 0 {
		return "(nothing)"
	}
	return d.shown[len(d.shown)-1]
}

func TestThemeService(t *testing.T) {
	type step struct {
		set    string       // Set(set) when not empty
		system theme.Scheme // else systemChanged(system)
	}
	tests := []struct {
		name      string
		preferred theme.Scheme // the desktop's preference at start
		steps     []step
		wantView  ThemeView
		wantShown theme.Scheme
	}{
		{"a fresh data file follows a dark desktop", theme.Dark, nil,
			ThemeView{Choice: ThemeChoiceSystem, System: "dark"}, theme.Dark},
		{"a desktop that states nothing leaves it to the engine", theme.NoPreference, nil,
			ThemeView{Choice: ThemeChoiceSystem, System: ""}, theme.NoPreference},
		{"dark chosen on a light desktop", theme.Light, []step{{set: ThemeChoiceDark}},
			ThemeView{Choice: ThemeChoiceDark, System: "light"}, theme.Dark},
		{"light chosen on a dark desktop", theme.Dark, []step{{set: ThemeChoiceLight}},
			ThemeView{Choice: ThemeChoiceLight, System: "dark"}, theme.Light},
		{"back to the system's after choosing dark", theme.Light, []step{{set: ThemeChoiceDark}, {set: ThemeChoiceSystem}},
			ThemeView{Choice: ThemeChoiceSystem, System: "light"}, theme.Light},
		{"the desktop switching to dark is followed", theme.Light, []step{{system: theme.Dark}},
			ThemeView{Choice: ThemeChoiceSystem, System: "dark"}, theme.Dark},
		{"the desktop switching to dark does not override a chosen light", theme.Light,
			[]step{{set: ThemeChoiceLight}, {system: theme.Dark}},
			ThemeView{Choice: ThemeChoiceLight, System: "dark"}, theme.Light},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			core, rec := openTestCore(t)
			desktop := &standInDesktop{preferred: tc.preferred}
			svc := NewThemeService(core, desktop)
			svc.show()
			for _, st := range tc.steps {
				if st.set != "" {
					v, err := svc.Set(st.set)
					if err != nil {
						t.Fatalf("Set(%q): %v", st.set, err)
					}
					if rec.last(EventTheme) != v {
						t.Errorf("after Set(%q) the window was sent %v, want %v", st.set, rec.last(EventTheme), v)
					}
				} else {
					svc.systemChanged(st.system)
				}
			}
			got, err := svc.Get()
			if err != nil || got != tc.wantView {
				t.Errorf("Get() = %+v, %v; want %+v", got, err, tc.wantView)
			}
			if len(tc.steps) > 0 && rec.last(EventTheme) != tc.wantView {
				t.Errorf("the last event sent %v, want %+v", rec.last(EventTheme), tc.wantView)
			}
			if shown := desktop.lastShown(); shown != tc.wantShown {
				t.Errorf("the toolkit was last told %q, want %q", shown, tc.wantShown)
			}
		})
	}
}

func TestThemeService_ChoiceSurvivesARestartAndNothingElseChanges(t *testing.T) {
	dir := t.TempDir()
	core, err := OpenCore(CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := NewSettingsService(core).Save(SettingsView{ElicitationTimeoutMinutes: 3, ToolCallTimeoutSeconds: 90}); err != nil {
		t.Fatal(err)
	}
	if _, err := NewThemeService(core, &standInDesktop{}).Set(ThemeChoiceDark); err != nil {
		t.Fatal(err)
	}
	if err := core.Close(); err != nil {
		t.Fatal(err)
	}
	core, err = OpenCore(CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	if v, err := NewThemeService(core, &standInDesktop{}).Get(); err != nil || v.Choice != ThemeChoiceDark {
		t.Errorf("after a restart Get() = %+v, %v; want dark", v, err)
	}
	if v, err := NewSettingsService(core).Get(); err != nil || v.ElicitationTimeoutMinutes != 3 || v.ToolCallTimeoutSeconds != 90 {
		t.Errorf("the other settings became %+v, %v", v, err)
	}
}

func TestThemeService_RefusesAnUnknownChoice(t *testing.T) {
	core, rec := openTestCore(t)
	desktop := &standInDesktop{}
	svc := NewThemeService(core, desktop)
	if _, err := svc.Set(ThemeChoiceDark); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "Dark", "solarized"} {
		if _, err := svc.Set(bad); err == nil {
			t.Errorf("Set(%q) was accepted", bad)
		}
	}
	if set, _ := core.Store.Settings(); set.Theme != store.ThemeDark {
		t.Errorf("stored theme = %q after refusals, want dark kept", set.Theme)
	}
	if n := len(rec.events[EventTheme]); n != 1 {
		t.Errorf("%d theme events, want 1 (refusals send none)", n)
	}
	if !slices.Equal(desktop.shown, []theme.Scheme{theme.Dark}) {
		t.Errorf("the toolkit was told %q, want only dark", desktop.shown)
	}
}

// TestWindowBackgroundIsThePages: before the page loads, the window shows
// the page's own background (--bg in app.css) for each scheme.
func TestWindowBackgroundIsThePages(t *testing.T) {
	css, err := os.ReadFile("../frontend/src/app.css")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`--bg:\s*light-dark\((#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\)`).FindSubmatch(css)
	if m == nil {
		t.Fatal("app.css has no --bg: light-dark(#rrggbb, #rrggbb)")
	}
	for scheme, want := range map[theme.Scheme]string{theme.Light: string(m[1]), theme.NoPreference: string(m[1]), theme.Dark: string(m[2])} {
		r, g, b := windowBackground(scheme)
		if got := fmt.Sprintf("#%02x%02x%02x", r, g, b); got != want {
			t.Errorf("windowBackground(%q) = %s, app.css says %s", scheme, got, want)
		}
	}
}
