package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSettings(t *testing.T) {
	tests := []struct {
		name string
		puts []Settings
		want Settings
	}{
		{"never saved is the zero value", nil, Settings{}},
		{"saved settings are read back", []Settings{{ToolCallTimeout: 90 * time.Second, WindowWidth: 1200, WindowHeight: 800}},
			Settings{ToolCallTimeout: 90 * time.Second, WindowWidth: 1200, WindowHeight: 800}},
		{"a save replaces the whole value", []Settings{{WindowWidth: 1200, WindowHeight: 800}, {ToolCallTimeout: time.Second}},
			Settings{ToolCallTimeout: time.Second}},
		{"elicitation settings are read back", []Settings{{ElicitationTimeout: 3 * time.Minute, RememberAnswers: true}},
			Settings{ElicitationTimeout: 3 * time.Minute, RememberAnswers: true}},
		{"remembering answers can be turned off again", []Settings{{RememberAnswers: true}, {}}, Settings{}},
		{"the default provider is read back", []Settings{{DefaultProviderID: "PROVIDER"}}, Settings{DefaultProviderID: "PROVIDER"}},
		{"a dark theme is read back", []Settings{{Theme: ThemeDark}}, Settings{Theme: ThemeDark}},
		{"a light theme is read back", []Settings{{Theme: ThemeLight}}, Settings{Theme: ThemeLight}},
		{"the theme goes back to the system's", []Settings{{Theme: ThemeDark}, {Theme: ThemeSystem}}, Settings{}},
		{"a dismissed welcome stays dismissed", []Settings{{WelcomeDismissed: true}}, Settings{WelcomeDismissed: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openT(t, dir)
			prov, err := s.PutProvider(Provider{Name: "Ollama", Kind: ProviderOpenAI})
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.puts {
				if tc.puts[i].DefaultProviderID == "PROVIDER" {
					tc.puts[i].DefaultProviderID = prov.ID
				}
			}
			if tc.want.DefaultProviderID == "PROVIDER" {
				tc.want.DefaultProviderID = prov.ID
			}
			for _, set := range tc.puts {
				if err := s.PutSettings(set); err != nil {
					t.Fatal(err)
				}
			}
			if got, err := s.Settings(); err != nil || got != tc.want {
				t.Errorf("Settings() = %+v, %v; want %+v", got, err, tc.want)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = openT(t, dir)
			if got, err := s.Settings(); err != nil || got != tc.want {
				t.Errorf("after reopen Settings() = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestPutSettingsRefusesAnUnknownTheme(t *testing.T) {
	s := openT(t, t.TempDir())
	if err := s.PutSettings(Settings{Theme: ThemeDark}); err != nil {
		t.Fatal(err)
	}
	err := s.PutSettings(Settings{Theme: "Dark"})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `"Dark"`) {
		t.Errorf("PutSettings(Theme: Dark) = %v, want ErrInvalid naming the value", err)
	}
	if got, err := s.Settings(); err != nil || got.Theme != ThemeDark {
		t.Errorf("after the refusal Settings() = %+v, %v; want the dark theme kept", got, err)
	}
}

func TestMarkInitialized(t *testing.T) {
	tests := []struct {
		name string
		// between runs after the first MarkInitialized.
		between func(t *testing.T, s *Store) *Store
	}{
		{"second call in the same session", func(t *testing.T, s *Store) *Store { return s }},
		{"after reopening", func(t *testing.T, s *Store) *Store {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return openT(t, s.Dir())
		}},
		{"after the user deleted every server", func(t *testing.T, s *Store) *Store {
			all, err := s.Servers()
			if err != nil {
				t.Fatal(err)
			}
			for _, srv := range all {
				if err := s.DeleteServer(srv.ID); err != nil {
					t.Fatal(err)
				}
			}
			return s
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			first, err := s.MarkInitialized()
			if err != nil || !first {
				t.Fatalf("first MarkInitialized = %v, %v; want true", first, err)
			}
			if _, err := s.PutServer(Server{Name: "demo"}); err != nil {
				t.Fatal(err)
			}
			s = tc.between(t, s)
			again, err := s.MarkInitialized()
			if err != nil || again {
				t.Errorf("MarkInitialized again = %v, %v; want false", again, err)
			}
		})
	}
}

func TestMarkInitializedConcurrently(t *testing.T) {
	s := openT(t, t.TempDir())
	const n = 8
	firsts := make(chan bool)
	for range n {
		go func() {
			first, err := s.MarkInitialized()
			if err != nil {
				t.Error(err)
			}
			firsts <- first
		}()
	}
	count := 0
	for range n {
		if <-firsts {
			count++
		}
	}
	if count != 1 {
		t.Errorf("%d calls reported the first time, want exactly 1", count)
	}
}
