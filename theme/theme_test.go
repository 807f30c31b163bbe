package theme

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestSourcesResolve(t *testing.T) {
	portal := func(v uint32) *uint32 { return &v }
	tests := []struct {
		name string
		src  Sources
		want Scheme
	}{
		{"nothing stated is no preference", Sources{}, NoPreference},
		{"the portal's prefer-dark is dark", Sources{PortalColorScheme: portal(1)}, Dark},
		{"the portal's prefer-light is light", Sources{PortalColorScheme: portal(2)}, Light},
		{"the portal's no-preference leaves it open", Sources{PortalColorScheme: portal(0)}, NoPreference},
		{"a portal value from a newer spec is no preference", Sources{PortalColorScheme: portal(7)}, NoPreference},
		{"GTK_THEME with the dark variant is dark", Sources{GTKThemeEnv: "Adwaita:dark"}, Dark},
		{"GTK_THEME naming a dark theme is dark", Sources{GTKThemeEnv: "Yaru-Dark"}, Dark},
		{"GTK_THEME naming a light theme is no preference", Sources{GTKThemeEnv: "Adwaita"}, NoPreference},
		{"GTK_THEME's dark variant wins over the portal's prefer-light", Sources{GTKThemeEnv: "Adwaita:dark", PortalColorScheme: portal(2)}, Dark},
		{"the portal's prefer-light wins over a dark theme name in settings.ini",
			Sources{PortalColorScheme: portal(2), GTKSettings: "[Settings]\ngtk-theme-name=Adwaita-dark\n"}, Light},
		{"GNOME's dark theme name is dark", Sources{GNOMETheme: "Adwaita-dark"}, Dark},
		{"GNOME's light theme name is no preference", Sources{GNOMETheme: "Adwaita"}, NoPreference},
		{"settings.ini prefer-dark true is dark", Sources{GTKSettings: "[Settings]\ngtk-application-prefer-dark-theme = true\n"}, Dark},
		{"settings.ini prefer-dark 1 is dark", Sources{GTKSettings: "[Settings]\ngtk-application-prefer-dark-theme=1\n"}, Dark},
		{"settings.ini prefer-dark false is no preference", Sources{GTKSettings: "[Settings]\ngtk-application-prefer-dark-theme=false\n"}, NoPreference},
		{"settings.ini dark theme name is dark", Sources{GTKSettings: "[Settings]\ngtk-theme-name=Arc-Dark\n"}, Dark},
		{"the user's settings.ini, read last, wins over the system's",
			Sources{GTKSettings: "[Settings]\ngtk-application-prefer-dark-theme=1\n\n[Settings]\ngtk-application-prefer-dark-theme=0\n"}, NoPreference},
		{"keys outside [Settings] are ignored", Sources{GTKSettings: "[Other]\ngtk-application-prefer-dark-theme=1\n"}, NoPreference},
		{"comments are ignored", Sources{GTKSettings: "[Settings]\n# gtk-application-prefer-dark-theme=1\n"}, NoPreference},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.src.Resolve(); got != tc.want {
				t.Errorf("Resolve(%+v) = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}

func TestSettingsFilesInGTKsOrder(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"defaults", map[string]string{"HOME": "/home/ana"},
			[]string{"/etc/gtk-3.0/settings.ini", "/etc/xdg/gtk-3.0/settings.ini", "/home/ana/.config/gtk-3.0/settings.ini"}},
		{"XDG directories, the first config dir read last so that it wins",
			map[string]string{"HOME": "/home/ana", "XDG_CONFIG_HOME": "/cfg", "XDG_CONFIG_DIRS": "/a:/b"},
			[]string{"/etc/gtk-3.0/settings.ini", "/b/gtk-3.0/settings.ini", "/a/gtk-3.0/settings.ini", "/cfg/gtk-3.0/settings.ini"}},
		{"no home at all", map[string]string{},
			[]string{"/etc/gtk-3.0/settings.ini", "/etc/xdg/gtk-3.0/settings.ini"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := settingsFiles(func(k string) string { return tc.env[k] })
			for i := range got {
				got[i] = filepath.ToSlash(got[i])
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("settingsFiles = %q, want %q", got, tc.want)
			}
		})
	}
}
