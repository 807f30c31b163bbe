package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
)

// A Provider streams model turns from one endpoint. It is safe for
// concurrent use.
type Provider interface {
	// Stream sends the request and yields the turn's events as they
	// arrive, EventEnd last. A failure is yielded once, as the last pair,
	// with a zero Event: an *Error, or ctx's error when ctx ends (which
	// stops the stream at once: Stop in the chat). Breaking out of the loop
	// closes the connection. Nothing is sent before the loop starts.
	Stream(ctx context.Context, req Request) iter.Seq2[Event, error]
	// Models lists the models the endpoint offers (the "Test" button):
	// Anthropic's newest first, as it lists them; OpenAI-compatible ones
	// sorted by ID, since their order means nothing.
	Models(ctx context.Context) ([]Model, error)
}

// A Kind is a wire format.
type Kind string

// The wire formats.
const (
	// KindOpenAI is OpenAI's chat completions API, which most providers and
	// local servers speak. The zero Kind means this one.
	KindOpenAI Kind = "openai"
	// KindAnthropic is Anthropic's Messages API.
	KindAnthropic Kind = "anthropic"
)

// Quirks are a provider's differences from the plain wire format, as data.
// The zero Quirks is the plain format. Presets set them; a provider added by
// hand may set them too.
type Quirks struct {
	// EchoReasoning sends an assistant message's Reasoning back as
	// reasoning_content within the current turn (the messages after the
	// person's last one), as DeepSeek requires in tool turns.
	EchoReasoning bool `json:"echoReasoning,omitempty"`
	// ToolStream asks for tool_stream=true, without which GLM sends a tool
	// call's arguments in one piece.
	ToolStream bool `json:"toolStream,omitempty"`
	// MaxCompletionTokens sends Request.MaxTokens as max_completion_tokens
	// instead of max_tokens (OpenAI's reasoning models refuse the latter;
	// many compatible servers know only the latter).
	MaxCompletionTokens bool `json:"maxCompletionTokens,omitempty"`
	// Images sends the image parts of the person's messages (Part.Image)
	// as images, for providers whose models read them; without it each
	// image goes as its Part.Text, a sentence saying it was left out,
	// since a model that reads no images refuses the whole request.
	Images bool `json:"images,omitempty"`
}

// Config says how to reach one provider. Its String, GoString and LogValue
// hide the API key, and the key is not marshalled to JSON: store it in the
// keyring.
type Config struct {
	// Kind is the wire format; empty means KindOpenAI.
	Kind Kind `json:"kind,omitempty"`
	// Preset is the ID of the preset it was made from, if any; sentences
	// then name the provider ("is Ollama running?"). Empty is fine.
	Preset string `json:"preset,omitempty"`
	// BaseURL is the endpoint, e.g. http://127.0.0.1:11434/v1. Empty takes
	// the preset's.
	BaseURL string `json:"baseUrl,omitempty"`
	// APIKey is sent as the provider expects (Bearer or x-api-key); empty
	// sends none, as local servers want.
	APIKey string `json:"-"`
	// Model is the model used when Request.Model is empty.
	Model string `json:"model,omitempty"`
	// Quirks are the provider's differences; New does not add a preset's
	// quirks on its own (Preset.Config does).
	Quirks Quirks `json:"quirks"`
}

// String describes the config without its key.
func (c Config) String() string {
	key := "none"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("llm.Config{Kind: %q, Preset: %q, BaseURL: %q, Model: %q, APIKey: %s, Quirks: %+v}",
		c.Kind, c.Preset, c.BaseURL, c.Model, key, c.Quirks)
}

// GoString is String, so that %#v does not print the key either.
func (c Config) GoString() string { return c.String() }

// LogValue is String, for log/slog.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// DefaultAnthropicMaxTokens bounds an Anthropic answer when Request.MaxTokens
// is 0: the Messages API requires a bound, and this one fits every current
// Claude model's output limit.
const DefaultAnthropicMaxTokens = 8192

// responseHeaderTimeout bounds the wait for a provider's first byte of
// answer. A local server may first load the model from disk, which takes
// minutes on a slow machine. The stream itself may last as long as it
// sends something (Stop ends it); silenceLimit bounds a pause in it.
const responseHeaderTimeout = 10 * time.Minute

// New returns the Provider for cfg. It checks the settings but sends nothing.
func New(cfg Config) (Provider, error) {
	var preset Preset
	if cfg.Preset != "" {
		p, ok := PresetByID(cfg.Preset)
		if !ok {
			return nil, &Error{Kind: ErrConfig, Message: i18n.M("llm.error.preset", "preset", cfg.Preset)}
		}
		preset = p
		if cfg.BaseURL == "" {
			cfg.BaseURL = p.BaseURL
		}
		if cfg.Kind == "" {
			cfg.Kind = p.Kind
		}
	}
	if cfg.Kind == "" {
		cfg.Kind = KindOpenAI
	}
	u, err := url.Parse(strings.TrimSpace(cfg.BaseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &Error{Kind: ErrConfig, Message: i18n.M("llm.error.baseURL", "url", cfg.BaseURL)}
	}
	if preset.ID == "" {
		preset, _ = presetForURL(u)
	}
	d := describer{provider: u.Host, address: hostPort(u), apiKey: cfg.APIKey}
	if preset.ID != "" {
		d.provider = preset.Name
		if preset.Local {
			d.software = preset.Name
		}
	}
	client := &http.Client{Transport: newTransport(), CheckRedirect: sameOriginRedirects(u, d)}
	switch cfg.Kind {
	case KindOpenAI:
		return newOpenAI(cfg, u, client, d), nil
	case KindAnthropic:
		return newAnthropic(cfg, u, client, d), nil
	}
	return nil, &Error{Kind: ErrConfig, Message: i18n.M("llm.error.kind", "kind", string(cfg.Kind))}
}

// hostPort is the address sentences show: the host with its port, the
// scheme's default port made explicit.
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}

// sameOriginRedirects follows a provider's redirects only within the origin
// of its base URL: the API key travels in a header (Anthropic's x-api-key,
// which Go does not strip on a redirect, or Bearer), and goes only where the
// person configured it (issue 22). A redirect elsewhere fails with a
// sentence.
func sameOriginRedirects(base *url.URL, d describer) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if !linkcheck.SameOrigin(req.URL, base) {
			return d.fail(ErrUnreachable, i18n.M("llm.error.redirect", "provider", d.provider, "to", linkcheck.Origin(req.URL)))
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// newTransport is the HTTP transport of one provider: the default one (with
// its proxy settings, which never apply to loopback), and a bound on the
// wait for the answer's headers.
func newTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = responseHeaderTimeout
	return t
}

// catchHTTPErrors is the SDK middleware (both SDKs take the same function
// type) that turns an error answer into an *httpError before the SDK reads
// it, so that the status, the headers and the vendor's body reach describe
// in whichever shape the vendor wrote them. A 2xx web page (a base URL that
// points at a website) is caught the same way. Any other answer is bounded
// (boundBody) before the SDK reads it.
func catchHTTPErrors(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res == nil {
		return res, err
	}
	page := res.StatusCode < 300 && strings.HasPrefix(strings.ToLower(res.Header.Get("Content-Type")), "text/html")
	if res.StatusCode < 400 && !page {
		boundBody(res) // limit.go
		return res, nil
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	shown := *req.URL
	shown.RawQuery, shown.User = "", nil
	return nil, &httpError{status: res.StatusCode, header: res.Header, body: body, url: shown.String(), page: page}
}
