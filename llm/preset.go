package llm

import (
	"net"
	"net/url"
	"strings"
)

// A Preset is a provider Gatehouse knows: where it answers, whether it needs
// a key, and its Quirks. The person picks one and adds a model and a key.
type Preset struct {
	// ID names the preset in settings and in Config.Preset ("ollama").
	ID string `json:"id"`
	// Name is how sentences and the settings name it ("Ollama").
	Name string `json:"name"`
	// Kind is the wire format it speaks.
	Kind Kind `json:"kind"`
	// BaseURL is where it answers.
	BaseURL string `json:"baseUrl"`
	// NeedsKey says whether requests need an API key.
	NeedsKey bool `json:"needsKey"`
	// Local says the server runs on this computer; when nothing answers,
	// the error asks whether it is running.
	Local bool `json:"local"`
	// Quirks are its differences from the plain wire format.
	Quirks Quirks `json:"quirks"`
}

// presets is the table behind Presets, local servers first. Base URLs are
// the vendors' documented OpenAI-compatible (or Anthropic) endpoints; see
// the "Model providers" section of the project's REFERENCE.md.
var presets = []Preset{
	{ID: "ollama", Name: "Ollama", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Local: true},
	{ID: "lmstudio", Name: "LM Studio", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1234/v1", Local: true},
	{ID: "llamacpp", Name: "llama.cpp server", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:8080/v1", Local: true},
	{ID: "vllm", Name: "vLLM", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:8000/v1", Local: true},
	// DeepSeek rejects a tool turn whose assistant messages lack the
	// reasoning_content they came with (thinking mode).
	{ID: "deepseek", Name: "DeepSeek", Kind: KindOpenAI, BaseURL: "https://api.deepseek.com", NeedsKey: true,
		Quirks: Quirks{EchoReasoning: true}},
	{ID: "qwen", Name: "Qwen (DashScope)", Kind: KindOpenAI, BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", NeedsKey: true},
	{ID: "moonshot", Name: "Moonshot (Kimi)", Kind: KindOpenAI, BaseURL: "https://api.moonshot.cn/v1", NeedsKey: true},
	// GLM sends a tool call's arguments in one piece at the end unless asked
	// to stream them.
	{ID: "glm", Name: "Zhipu GLM", Kind: KindOpenAI, BaseURL: "https://open.bigmodel.cn/api/paas/v4/", NeedsKey: true,
		Quirks: Quirks{ToolStream: true}},
	{ID: "siliconflow", Name: "SiliconFlow", Kind: KindOpenAI, BaseURL: "https://api.siliconflow.cn/v1", NeedsKey: true},
	// OpenAI's reasoning models refuse max_tokens. Its current models and
	// Anthropic's read images.
	{ID: "openai", Name: "OpenAI", Kind: KindOpenAI, BaseURL: "https://api.openai.com/v1", NeedsKey: true,
		Quirks: Quirks{MaxCompletionTokens: true, Images: true}},
	{ID: "anthropic", Name: "Anthropic", Kind: KindAnthropic, BaseURL: "https://api.anthropic.com", NeedsKey: true,
		Quirks: Quirks{Images: true}},
}

// Presets returns the known providers, local servers first. The slice is a
// copy; changing it changes nothing else.
func Presets() []Preset {
	return append([]Preset(nil), presets...)
}

// PresetByID returns the preset with that ID.
func PresetByID(id string) (Preset, bool) {
	for _, p := range presets {
		if p.ID == id {
			return p, true
		}
	}
	return Preset{}, false
}

// Config returns the settings for this preset with a key and a model.
func (p Preset) Config(apiKey, model string) Config {
	return Config{Kind: p.Kind, Preset: p.ID, BaseURL: p.BaseURL, APIKey: apiKey, Model: model, Quirks: p.Quirks}
}

// presetForURL finds the preset a base URL belongs to, so that a provider
// added by hand at 127.0.0.1:11434 is still called Ollama in sentences. A
// loopback address matches a local preset by port.
func presetForURL(u *url.URL) (Preset, bool) {
	for _, p := range presets {
		pu, err := url.Parse(p.BaseURL)
		if err != nil {
			continue
		}
		if strings.EqualFold(pu.Host, u.Host) {
			return p, true
		}
		if p.Local && isLoopback(u.Hostname()) && pu.Port() == u.Port() {
			return p, true
		}
	}
	return Preset{}, false
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
