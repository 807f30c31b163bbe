package app

import (
	"testing"

	"github.com/gatehouse-app/gatehouse/store"
)

// The first-start welcome: the window shows it while the person has no
// server of their own and has not dismissed it; the dismissal is kept in
// the data file, also when the settings pane saves afterwards.
func TestWelcomeDismissalSurvivesAReopenAndASettingsSave(t *testing.T) {
	dir := t.TempDir()
	core, err := OpenCore(CoreOptions{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	svc := NewSettingsService(core)
	if dismissed, err := svc.WelcomeDismissed(); err != nil || dismissed {
		t.Fatalf("on a fresh data file WelcomeDismissed() = %v, %v; want false", dismissed, err)
	}
	if err := svc.DismissWelcome(); err != nil {
		t.Fatal(err)
	}
	if err := svc.Save(SettingsView{ElicitationTimeoutMinutes: 5, ToolCallTimeoutSeconds: 30}); err != nil {
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
	if dismissed, err := NewSettingsService(core).WelcomeDismissed(); err != nil || !dismissed {
		t.Errorf("after a reopen WelcomeDismissed() = %v, %v; want true", dismissed, err)
	}
}

func TestServerViewMarksTheDemoServer(t *testing.T) {
	stdio := func(command string, args ...string) store.Server {
		return store.Server{Name: "S", Transport: store.TransportStdio, Stdio: &store.StdioConfig{Command: command, Args: args}}
	}
	cases := []struct {
		name string
		srv  store.Server
		want bool
	}{
		{"the seeded demo server is the demo", stdio("/usr/bin/gatehouse", "demo-server"), true},
		{"a renamed demo server is still the demo", func() store.Server { s := stdio("gatehouse", "demo-server"); s.Name = "Mine"; return s }(), true},
		{"a command of the person's own is not", stdio("npx", "-y", "@modelcontextprotocol/server-everything"), false},
		{"demo-server among other arguments is not", stdio("gatehouse", "demo-server", "--extra"), false},
		{"an HTTP server is not", store.Server{Name: "W", Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: "https://example.com/mcp"}}, false},
	}
	core, _ := openTestCore(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := core.serverView(tc.srv).Demo; got != tc.want {
				t.Errorf("Demo = %v, want %v", got, tc.want)
			}
		})
	}
	views, err := core.serverViews()
	if err != nil || len(views) != 1 || !views[0].Demo || views[0].Input.Name != DemoServerName {
		t.Errorf("a fresh data file lists %+v, %v; want only the demo server, marked Demo", views, err)
	}
}
