package cli

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestCLI_ProviderLifecycle: a person adds providers from the terminal with
// the key in an environment variable, lists them (the key masked), tests
// them and removes one. The endpoint is llmtest's stand-in for an
// OpenAI-compatible server (no model can run here).
func TestCLI_ProviderLifecycle(t *testing.T) {
	const key = "sk-cli-stand-in-0123456789abcdef"
	stand := llmtest.NewOpenAI(t, llmtest.Script{APIKey: key, Models: []string{"qwen-plus", "deepseek-chat", "glm-4.6"}})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	t.Setenv("STAND_IN_KEY", key)
	t.Setenv("WRONG_KEY", "sk-wrong-0123456789abcdef")
	t.Setenv("EMPTY_KEY", "")
	dir := t.TempDir()

	steps := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string // in stdout (code 0) or stderr
	}{
		{"an empty list says how to add one", []string{"providers", "list"}, 0, "No model providers yet"},
		{"add with the key from the environment", []string{"providers", "add", "Stand-in", "--base-url", stand.URL, "--model", "qwen-plus", "--api-key-env", "STAND_IN_KEY"},
			0, "Added Stand-in (" + stand.URL + ", model qwen-plus, API key sk-…cdef)."},
		{"add a second with a wrong key", []string{"providers", "add", "Wrong", "--base-url", stand.URL, "--model", "m", "--api-key-env", "WRONG_KEY"}, 0, "Added Wrong"},
		{"add a local server from a preset", []string{"providers", "add", "Ollama", "--preset", "ollama", "--base-url", "http://" + closed + "/v1", "--model", "qwen3:8b"},
			0, "model qwen3:8b, no API key"},
		{"an anthropic provider", []string{"providers", "add", "Claude", "--kind", "anthropic", "--base-url", "https://api.anthropic.com", "--model", "claude-sonnet-4-5"}, 0, "Added Claude"},
		{"a hand-added model that reads images", []string{"providers", "add", "Vision", "--base-url", stand.URL, "--images", "--model", "llava"}, 0, "Added Vision"},
		{"names are unique", []string{"providers", "add", "stand-in", "--base-url", stand.URL, "--model", "m"}, 1, `A provider named "Stand-in" already exists`},
		{"a model is needed", []string{"providers", "add", "NoModel", "--base-url", stand.URL}, 1, "Choose a model"},
		{"a key on the command line is refused", []string{"providers", "add", "Leaky", "--base-url", stand.URL, "--model", "m", "--api-key", key}, 2, "--api-key-env VAR"},
		{"an empty key variable is named", []string{"providers", "add", "Empty", "--base-url", stand.URL, "--model", "m", "--api-key-env", "EMPTY_KEY"}, 1, "EMPTY_KEY is empty or not set"},
		{"an unknown kind", []string{"providers", "add", "Gem", "--kind", "gemini", "--base-url", stand.URL, "--model", "m"}, 2, "--kind is openai or anthropic"},
		{"list shows the masked key and the default", []string{"providers", "list"}, 0, "Stand-in (default)  openai     qwen-plus          sk-…cdef  " + stand.URL},
		{"list shows a provider with no key", []string{"providers", "list"}, 0, "Ollama              openai     qwen3:8b           -         http://" + closed + "/v1"},
		{"test lists the models", []string{"providers", "test", "stand-in"}, 0, "Stand-in offers 3 models:\ndeepseek-chat\nglm-4.6\nqwen-plus\n"},
		{"test with a wrong key says it was refused", []string{"providers", "test", "Wrong"}, 1, "The API key was refused by 127.0.0.1"},
		{"test of a local server asks whether it runs", []string{"providers", "test", "Ollama"}, 1, "Nothing answers at " + closed + " — is Ollama running?"},
		{"test of an unknown provider", []string{"providers", "test", "Nope"}, 1, `no provider named "Nope"`},
		{"remove", []string{"providers", "remove", "Stand-in"}, 0, "Stand-in: removed."},
		{"an unknown command", []string{"providers", "frobnicate"}, 2, `unknown providers command "frobnicate"`},
	}
	for _, s := range steps {
		code, out, errOut := gh(t, dir, s.args...)
		got := out
		if s.wantCode != 0 {
			got = errOut
		}
		if code != s.wantCode || !strings.Contains(got, s.wantOut) {
			t.Errorf("%s: %v: code %d, stdout %q, stderr %q; want code %d and %q", s.name, s.args, code, out, errOut, s.wantCode, s.wantOut)
		}
		if strings.Contains(out+errOut, key) {
			t.Errorf("%s: the key was printed: %s%s", s.name, out, errOut)
		}
	}

	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.ProviderByName("Stand-in"); err == nil {
		t.Error("the removed provider is still stored")
	}
	wrong, err := st.ProviderByName("Wrong")
	if err != nil {
		t.Fatal(err)
	}
	// No keyring on this machine: the data file holds the key, apart from
	// the provider record.
	if raw, _ := st.Secret(store.SecretAPIKey, wrong.ID); string(raw) != "sk-wrong-0123456789abcdef" {
		t.Errorf("the data file holds %q for Wrong's key", raw)
	}
	// --images is kept; a provider added without it sends no images.
	for name, want := range map[string]bool{"Vision": true, "Wrong": false} {
		p, err := st.ProviderByName(name)
		var q llm.Quirks
		if err == nil {
			err = json.Unmarshal(p.Quirks, &q)
		}
		if err != nil || q.Images != want {
			t.Errorf("%s: images = %v (%v), want %v", name, q.Images, err, want)
		}
	}
	if claude, err := st.ProviderByName("Claude"); err != nil || claude.Kind != store.ProviderAnthropic {
		t.Errorf("--kind anthropic was not stored: %+v, %v", claude, err)
	}
}

// TestCLI_UsageNamesEveryPreset: the usage lists the presets --preset takes.
func TestCLI_UsageNamesEveryPreset(t *testing.T) {
	for _, p := range llm.Presets() {
		if !strings.Contains(usage(), p.ID) {
			t.Errorf("the usage does not name the preset %q", p.ID)
		}
	}
}
