package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
)

func TestModels_ListsWhatTheEndpointOffers(t *testing.T) {
	// Stand-in servers: no model can run on these machines.
	cases := []struct {
		kind llm.Kind
		want []llm.Model
	}{
		{llm.KindOpenAI, []llm.Model{{ID: "deepseek-chat"}, {ID: "qwen3:8b"}, {ID: "通义千问-测试"}}},
		{llm.KindAnthropic, []llm.Model{
			{ID: "qwen3:8b", DisplayName: "Stand-in qwen3:8b"},
			{ID: "deepseek-chat", DisplayName: "Stand-in deepseek-chat"},
			{ID: "通义千问-测试", DisplayName: "Stand-in 通义千问-测试"},
		}},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			s := standIn(t, tc.kind, llmtest.Script{APIKey: "sk-standin", Models: []string{"qwen3:8b", "deepseek-chat", "通义千问-测试"}})
			got, err := provider(t, llm.Config{Kind: tc.kind, BaseURL: s.URL, APIKey: "sk-standin"}).Models(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("models = %+v, want %+v", got, tc.want)
			}
			_, err = provider(t, llm.Config{Kind: tc.kind, BaseURL: s.URL, APIKey: "sk-wrong"}).Models(context.Background())
			if !errors.Is(err, llm.ErrKeyRefused) {
				t.Errorf("with a wrong key: %v, want ErrKeyRefused", err)
			}
		})
	}
}

func TestNew_RefusesSettingsThatCannotWork(t *testing.T) {
	cases := []struct {
		name string
		cfg  llm.Config
		want string
	}{
		{"no base URL", llm.Config{}, "The base URL “” is not a web address; it should look like http://127.0.0.1:11434/v1."},
		{"a base URL without scheme", llm.Config{BaseURL: "127.0.0.1:11434/v1"}, "The base URL “127.0.0.1:11434/v1” is not a web address; it should look like http://127.0.0.1:11434/v1."},
		{"a scheme that is no web", llm.Config{BaseURL: "file:///etc/passwd"}, "The base URL “file:///etc/passwd” is not a web address; it should look like http://127.0.0.1:11434/v1."},
		{"an unknown kind", llm.Config{Kind: "gemini", BaseURL: "http://127.0.0.1:1/v1"}, "The provider kind “gemini” is unknown; it is openai or anthropic."},
		{"an unknown preset", llm.Config{Preset: "skynet"}, "There is no provider preset named “skynet”."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := llm.New(tc.cfg)
			if !errors.Is(err, llm.ErrConfig) || err.Error() != tc.want {
				t.Errorf("New = %v, want ErrConfig %q", err, tc.want)
			}
		})
	}
	t.Run("no model for the request", func(t *testing.T) {
		for _, kind := range kinds {
			p, err := llm.New(llm.Config{Kind: kind, Preset: "vllm"})
			if err != nil {
				t.Fatal(err)
			}
			r := stream(t, p, ask("你好"))
			if !errors.Is(r.err, llm.ErrConfig) || r.err.Error() != "No model is chosen for vLLM." {
				t.Errorf("%s: %v, want ErrConfig", kind, r.err)
			}
		}
	})
	t.Run("a tool schema that is no object", func(t *testing.T) {
		for _, kind := range kinds {
			p := provider(t, llm.Config{Kind: kind, BaseURL: "http://127.0.0.1:1/v1"})
			req := ask("你好")
			req.Tools = []llm.Tool{{Name: "broken", InputSchema: []byte(`[1,2]`)}}
			r := stream(t, p, req)
			if !errors.Is(r.err, llm.ErrConfig) || r.err.Error() != "The tool broken has an input schema that is not a JSON object." {
				t.Errorf("%s: %v, want ErrConfig", kind, r.err)
			}
		}
	})
}

func TestConfig_NeverShowsTheKey(t *testing.T) {
	const key = "sk-very-secret-42"
	cfg := llm.Config{Kind: llm.KindOpenAI, BaseURL: "https://api.deepseek.com", APIKey: key, Model: "deepseek-chat"}
	var logged bytes.Buffer
	slog.New(slog.NewTextHandler(&logged, nil)).Info("provider", "config", cfg)
	asJSON, _ := json.Marshal(cfg)
	shown := map[string]string{
		"%v":   fmt.Sprintf("%v", cfg),
		"%+v":  fmt.Sprintf("%+v", cfg),
		"%#v":  fmt.Sprintf("%#v", cfg),
		"%s":   fmt.Sprintf("%s", cfg),
		"&%v":  fmt.Sprintf("%v", &cfg),
		"slog": logged.String(),
		"json": string(asJSON),
	}
	for how, text := range shown {
		if strings.Contains(text, key) {
			t.Errorf("%s shows the key: %s", how, text)
		}
		if how != "json" && !strings.Contains(text, "api.deepseek.com") {
			t.Errorf("%s does not describe the config: %s", how, text)
		}
	}
}

func TestPresets_LocalServersFirst(t *testing.T) {
	presets := llm.Presets()
	var ids []string
	for _, p := range presets {
		ids = append(ids, p.ID)
	}
	want := []string{"ollama", "lmstudio", "llamacpp", "vllm", "deepseek", "qwen", "moonshot", "glm", "siliconflow", "openai", "anthropic"}
	if !slices.Equal(ids, want) {
		t.Errorf("presets = %v, want %v", ids, want)
	}
	for _, p := range presets {
		if p.Local == p.NeedsKey {
			t.Errorf("%s: local %v, needs a key %v: local servers need none, cloud ones do", p.ID, p.Local, p.NeedsKey)
		}
		if p.Local && !strings.HasPrefix(p.BaseURL, "http://127.0.0.1:") {
			t.Errorf("%s: a local server at %s", p.ID, p.BaseURL)
		}
		if !p.Local && !strings.HasPrefix(p.BaseURL, "https://") {
			t.Errorf("%s: a cloud provider without TLS at %s", p.ID, p.BaseURL)
		}
		if _, err := llm.New(p.Config("", "m")); err != nil {
			t.Errorf("%s: its own config is refused: %v", p.ID, err)
		}
	}
	presets[0].BaseURL = "changed"
	if p, _ := llm.PresetByID("ollama"); p.BaseURL != "http://127.0.0.1:11434/v1" {
		t.Errorf("changing the returned slice changed the table: %s", p.BaseURL)
	}
}
