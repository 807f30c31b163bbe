package store

import (
	"testing"
	"time"
)

// TestDecodedCache: Settings and ToolPolicy read what was last written,
// however it was written (a provider's removal clears the default
// provider inside its own transaction), and a policy changed by whoever
// read it does not change what the next reader gets.
func TestDecodedCache(t *testing.T) {
	s := openT(t, t.TempDir())
	srv, err := s.PutServer(Server{Name: "demo", Transport: TransportStdio, Stdio: &StdioConfig{Command: "demo"}})
	if err != nil {
		t.Fatal(err)
	}
	prov, err := s.PutProvider(Provider{Name: "Local", Kind: ProviderOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen3"})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name  string
		write func() error
		check func(Settings, ToolPolicy) bool
	}{
		{"nothing saved", func() error { return nil },
			func(set Settings, p ToolPolicy) bool { return set == Settings{} && p.Mode == "" && p.Tools == nil }},
		{"settings saved", func() error {
			return s.PutSettings(Settings{Theme: ThemeDark, ToolCallTimeout: time.Minute, DefaultProviderID: prov.ID})
		}, func(set Settings, _ ToolPolicy) bool {
			return set.ToolCallTimeout == time.Minute && set.DefaultProviderID == prov.ID
		}},
		{"settings saved again", func() error {
			return s.PutSettings(Settings{Theme: ThemeDark, ToolCallTimeout: 2 * time.Minute, DefaultProviderID: prov.ID})
		}, func(set Settings, _ ToolPolicy) bool { return set.ToolCallTimeout == 2*time.Minute }},
		{"the default provider removed", func() error { return s.DeleteProvider(prov.ID) },
			func(set Settings, _ ToolPolicy) bool {
				return set.DefaultProviderID == "" && set.ToolCallTimeout == 2*time.Minute
			}},
		{"a policy saved", func() error {
			return s.PutToolPolicy(srv.ID, ToolPolicy{Mode: ToolAsk, Tools: map[string]ToolMode{"rm": ToolDeny}})
		}, func(_ Settings, p ToolPolicy) bool { return p.Tools["rm"] == ToolDeny && len(p.Tools) == 1 }},
		{"the policy changed by a reader", func() error {
			p, err := s.ToolPolicy(srv.ID)
			p.Tools["rm"], p.Tools["ls"], p.Mode = ToolAllow, ToolAllow, ToolAllow
			return err
		}, func(_ Settings, p ToolPolicy) bool {
			return p.Tools["rm"] == ToolDeny && len(p.Tools) == 1 && p.Mode == ""
		}},
		{"another write (the same bytes read again)", func() error {
			_, err := s.PutServer(Server{Name: "other", Transport: TransportStdio, Stdio: &StdioConfig{Command: "other"}})
			return err
		}, func(set Settings, p ToolPolicy) bool {
			return set.ToolCallTimeout == 2*time.Minute && p.Tools["rm"] == ToolDeny && len(p.Tools) == 1
		}},
		{"the policy saved again", func() error { return s.PutToolPolicy(srv.ID, ToolPolicy{Mode: ToolAllow}) },
			func(_ Settings, p ToolPolicy) bool { return p.Mode == ToolAllow && p.Tools == nil }},
		{"the policy removed", func() error { return s.PutToolPolicy(srv.ID, ToolPolicy{}) },
			func(_ Settings, p ToolPolicy) bool { return p.Mode == "" }},
	}
	for _, step := range steps {
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		for range 2 { // decoded, then from the cache
			set, err := s.Settings()
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.ToolPolicy(srv.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !step.check(set, p) {
				t.Fatalf("%s: read %+v and %+v", step.name, set, p)
			}
		}
	}
}
