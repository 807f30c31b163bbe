package theme

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// A Scheme is a light or a dark look.
type Scheme string

// The schemes. NoPreference means the desktop states none that Go can read;
// the window then follows its engine's prefers-color-scheme.
const (
	NoPreference Scheme = ""
	Light        Scheme = "light"
	Dark         Scheme = "dark"
)

// Sources is what the desktop says, from each place GTK apps look.
type Sources struct {
	// GTKThemeEnv is $GTK_THEME. "Adwaita:dark" or "Adwaita-dark" force GTK's
	// dark look on this app alone.
	GTKThemeEnv string
	// PortalColorScheme is the portal's org.freedesktop.appearance
	// color-scheme: 0 no preference, 1 prefer dark, 2 prefer light; nil when
	// no portal answered.
	PortalColorScheme *uint32
	// GNOMETheme is the portal's org.gnome.desktop.interface gtk-theme
	// ("Adwaita-dark" on GNOME before it had a dark style switch); empty when
	// not known.
	GNOMETheme string
	// GTKSettings is GTK 3's settings.ini text, system files first, the
	// user's last (a later key wins, as in GTK).
	GTKSettings string
}

// The portal's color-scheme values (org.freedesktop.appearance).
const (
	portalNoPreference = 0
	portalPreferDark   = 1
	portalPreferLight  = 2
)

// Resolve returns the scheme the sources ask for. An explicit GTK_THEME
// variant wins (the person asked for it for this app), then the portal's
// color-scheme (today's desktops' switch), then GNOME's theme name, then
// GTK's settings.ini. Only a stated preference counts: a light theme name
// is not a preference for light, so it gives NoPreference.
func (s Sources) Resolve() Scheme {
	if isDarkThemeName(s.GTKThemeEnv) {
		return Dark
	}
	if s.PortalColorScheme != nil {
		switch *s.PortalColorScheme {
		case portalPreferDark:
			return Dark
		case portalPreferLight:
			return Light
		}
	}
	if isDarkThemeName(s.GNOMETheme) {
		return Dark
	}
	ini := parseSettings(s.GTKSettings)
	if isTrue(ini["gtk-application-prefer-dark-theme"]) || isDarkThemeName(ini["gtk-theme-name"]) {
		return Dark
	}
	return NoPreference
}

// isDarkThemeName reports whether a GTK theme name (or GTK_THEME value)
// selects a dark variant: "Name:dark", "Name-dark", "Name-Dark". These are
// the forms WebKitGTK itself treats as dark.
func isDarkThemeName(name string) bool {
	name = strings.ToLower(strings.TrimSpace(name))
	return strings.HasSuffix(name, ":dark") || strings.HasSuffix(name, "-dark")
}

// isTrue reads a GKeyFile boolean.
func isTrue(v string) bool {
	return v == "true" || v == "1"
}

// parseSettings reads the keys of settings.ini's [Settings] group; a later
// key wins.
func parseSettings(text string) map[string]string {
	keys := map[string]string{}
	group := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			group = strings.TrimSpace(line[1 : len(line)-1])
		case group == "Settings":
			if k, v, ok := strings.Cut(line, "="); ok {
				keys[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"`)
			}
		}
	}
	return keys
}

// settingsFiles are GTK 3's settings.ini files in the order GTK reads them:
// the system's, each of $XDG_CONFIG_DIRS (last first, so the first wins),
// then the user's in $XDG_CONFIG_HOME.
func settingsFiles(getenv func(string) string) []string {
	files := []string{"/etc/gtk-3.0/settings.ini"}
	dirs := filepath.SplitList(getenv("XDG_CONFIG_DIRS"))
	if len(dirs) == 0 {
		dirs = []string{"/etc/xdg"}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if dirs[i] != "" {
			files = append(files, filepath.Join(dirs[i], "gtk-3.0", "settings.ini"))
		}
	}
	home := getenv("XDG_CONFIG_HOME")
	if home == "" {
		if h := getenv("HOME"); h != "" {
			home = filepath.Join(h, ".config")
		}
	}
	if home != "" {
		files = append(files, filepath.Join(home, "gtk-3.0", "settings.ini"))
	}
	return files
}

// readGTKSettings returns the text of every settings.ini that exists, in
// GTK's order.
func readGTKSettings(getenv func(string) string) string {
	var b strings.Builder
	for _, f := range settingsFiles(getenv) {
		if text, err := os.ReadFile(f); err == nil {
			b.Write(text)
			b.WriteString("\n")
		}
	}
	return b.String()
}
