package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/store"
)

// testTimeout bounds Test: listing models is a small request that a working
// endpoint answers at once (no model is loaded for it), while the provider's
// own bound on the first byte (minutes, for a local server loading a model)
// would leave the person staring at a spinner.
const testTimeout = 20 * time.Second

// ProvidersService is bound to the frontend: Settings → Models, where the
// person adds the model providers the chat talks to. API keys go to the OS
// keyring (or, without one, the data file); they are never returned, only a
// masked hint.
type ProvidersService struct {
	core *Core
}

// NewProvidersService returns the model providers' service on core.
func NewProvidersService(core *Core) *ProvidersService { return &ProvidersService{core: core} }

// PresetView is a provider Gatehouse knows, offered when adding one.
type PresetView struct {
	ID       string     `json:"id"`
	Name     string     `json:"name"`
	Kind     string     `json:"kind"` // "openai" or "anthropic"
	BaseURL  string     `json:"baseUrl"`
	NeedsKey bool       `json:"needsKey"`
	Local    bool       `json:"local"` // runs on this computer (Ollama, LM Studio, ...)
	Quirks   llm.Quirks `json:"quirks"`
}

// ProviderInput is what the provider editor sends when a person adds or
// edits a provider.
type ProviderInput struct {
	Name string `json:"name"`
	// Kind is "openai" (OpenAI-compatible chat completions) or "anthropic";
	// empty takes the preset's, else "openai".
	Kind string `json:"kind"`
	// Preset is the ID of the preset it starts from ("ollama"), or "".
	Preset string `json:"preset"`
	// BaseURL is the endpoint; empty takes the preset's.
	BaseURL string `json:"baseUrl"`
	// Model is the model new conversations use. Test lists the ones the
	// endpoint offers, so the person can pick one before saving.
	Model string `json:"model"`
	// APIKey is a new key. Empty keeps the saved one (Update), or saves
	// none (Add): local servers need none.
	APIKey string `json:"apiKey"`
	// ClearKey removes the saved key (Update).
	ClearKey bool `json:"clearKey"`
	// Quirks add to the preset's, which always apply.
	Quirks llm.Quirks `json:"quirks"`
}

// ProviderView is one configured provider as Settings → Models shows it.
// It never carries the API key, only KeyHint.
type ProviderView struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Preset  string `json:"preset"` // "" for one set up by hand
	BaseURL string `json:"baseUrl"`
	Model   string `json:"model"`
	// KeyHint is the saved key masked ("sk-…a1b2"), "" when none is saved.
	KeyHint   string     `json:"keyHint"`
	IsDefault bool       `json:"isDefault"` // new conversations use it
	Quirks    llm.Quirks `json:"quirks"`
}

// ModelView is one model an endpoint offers.
type ModelView struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName"` // "" when the provider gives none
}

// TestResult is what Test found: the models the endpoint offers, or why it
// could not list them.
type TestResult struct {
	// Models are the endpoint's models, in the provider's order (sorted by
	// ID for OpenAI-compatible ones); empty when Problem is set.
	Models []ModelView `json:"models"`
	// Problem says, as a sentence, why the endpoint could not be used ("The
	// API key was refused by DeepSeek."); absent when the test passed.
	Problem *i18n.Message `json:"problem,omitempty"`
}

// Presets returns the providers Gatehouse knows, local servers first.
func (s *ProvidersService) Presets() []PresetView {
	presets := llm.Presets()
	out := make([]PresetView, 0, len(presets))
	for _, p := range presets {
		out = append(out, PresetView{ID: p.ID, Name: p.Name, Kind: string(p.Kind), BaseURL: p.BaseURL,
			NeedsKey: p.NeedsKey, Local: p.Local, Quirks: p.Quirks})
	}
	return out
}

// ProviderList is every configured provider, oldest first, as List returns
// it and EventProviders carries it; Version orders the lists as they were
// read (see Core.listMu).
type ProviderList struct {
	Version   uint64         `json:"version"`
	Providers []ProviderView `json:"providers"`
}

// List returns every configured provider, oldest first.
func (s *ProvidersService) List() (ProviderList, error) { return s.core.providerList() }

// Validate checks an editor's input as the person types, without saving or
// sending anything. id is the provider being edited ("" when adding), so
// its own name is not a duplicate. The result maps field names to
// sentences; empty means valid.
//
// A model is required: the chat needs one to start a conversation. The
// person who does not know the model names presses Test first, which needs
// none, and picks one of the models it lists.
func (s *ProvidersService) Validate(id string, in ProviderInput) FieldErrors {
	errs := FieldErrors{}
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		errs["name"] = i18n.M("providers.error.noName")
	case len(name) > 100:
		errs["name"] = i18n.M("servers.error.longName")
	default:
		if other, err := s.core.Store.ProviderByName(name); err == nil && other.ID != id {
			errs["name"] = i18n.M("providers.error.duplicate", "name", strconv.Quote(other.Name))
		}
	}
	preset, known := llm.PresetByID(in.Preset)
	if in.Preset != "" && !known {
		errs["preset"] = i18n.M("providers.error.preset", "preset", strconv.Quote(in.Preset))
	}
	switch llm.Kind(in.Kind) {
	case "", llm.KindOpenAI, llm.KindAnthropic:
	default:
		errs["kind"] = i18n.M("providers.error.kind")
	}
	baseURL := strings.TrimSpace(in.BaseURL)
	if baseURL == "" {
		baseURL = preset.BaseURL
	}
	if baseURL == "" {
		errs["baseUrl"] = i18n.M("providers.error.noBaseURL")
	} else if u, err := url.Parse(baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs["baseUrl"] = i18n.M("providers.error.baseURL")
	}
	if strings.TrimSpace(in.Model) == "" {
		errs["model"] = i18n.M("providers.error.noModel")
	}
	key := strings.TrimSpace(in.APIKey)
	switch {
	case strings.IndexFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		errs["apiKey"] = i18n.M("providers.error.keySpaces")
	case key != "" && in.ClearKey:
		errs["apiKey"] = i18n.M("providers.error.keyBoth")
	case key == "" && !in.ClearKey && id != "":
		if was, now, moved := s.keyMoves(id, in); moved {
			errs["apiKey"] = i18n.M("providers.error.keyForOtherAddress", "saved", was, "address", now)
		}
	}
	return errs
}

// keyMoves reports whether the provider id has a saved API key that in
// would take to another address (scheme and host): was and now name both.
// A key goes only where it was saved for (Update refuses to move it, Test
// leaves it out), so that one service's key never reaches another host.
func (s *ProvidersService) keyMoves(id string, in ProviderInput) (was, now string, moved bool) {
	rec, err := s.core.Store.Provider(id)
	if err != nil {
		return "", "", false
	}
	was, now = keyAddress(rec.BaseURL), keyAddress(toProvider(id, in).BaseURL)
	if was == now {
		return was, now, false
	}
	key, err := s.core.secrets.get(store.SecretAPIKey, id)
	return was, now, err == nil && key != ""
}

// keyAddress is the address an API key is sent to for baseURL: its scheme
// and host (with the port), lowercased; baseURL itself when it is no URL.
func keyAddress(baseURL string) string {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || u.Host == "" {
		return baseURL
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// Add saves a new provider and its API key, if one is given. The first
// provider becomes the default one.
func (s *ProvidersService) Add(in ProviderInput) (ProviderView, error) {
	if errs := s.Validate("", in); len(errs) > 0 {
		return ProviderView{}, i18n.Err("providers.error.notSaved", "detail", errs.providerSummary())
	}
	saved, err := s.core.Store.PutProvider(toProvider("", in))
	if err != nil {
		return ProviderView{}, err
	}
	if key := strings.TrimSpace(in.APIKey); key != "" {
		if err := s.core.secrets.put(store.SecretAPIKey, saved.ID, key); err != nil {
			// Without its key the provider would fail later, far from here.
			_ = s.core.Store.DeleteProvider(saved.ID)
			return ProviderView{}, i18n.Wrap(err, "providers.error.notSaved", "detail", err)
		}
	}
	set, err := s.core.Store.Settings()
	if err == nil && set.DefaultProviderID == "" {
		set.DefaultProviderID = saved.ID
		err = s.core.Store.PutSettings(set)
	}
	if err != nil {
		return ProviderView{}, i18n.Wrap(err, "providers.error.notDefault", "detail", err)
	}
	s.core.emitProviders()
	return s.core.providerView(saved)
}

// Update replaces a provider's settings. An empty APIKey keeps the saved
// key; ClearKey removes it.
func (s *ProvidersService) Update(id string, in ProviderInput) (ProviderView, error) {
	if id == "" {
		return ProviderView{}, i18n.Err("providers.error.noID")
	}
	if errs := s.Validate(id, in); len(errs) > 0 {
		return ProviderView{}, i18n.Err("providers.error.notSaved", "detail", errs.providerSummary())
	}
	saved, err := s.core.Store.PutProvider(toProvider(id, in))
	if err != nil {
		return ProviderView{}, err
	}
	switch key := strings.TrimSpace(in.APIKey); {
	case key != "":
		err = s.core.secrets.put(store.SecretAPIKey, id, key)
	case in.ClearKey:
		err = s.core.secrets.delete(store.SecretAPIKey, id)
	}
	s.core.emitProviders()
	if err != nil {
		return ProviderView{}, i18n.Wrap(err, "providers.error.savedBut", "detail", err)
	}
	return s.core.providerView(saved)
}

// Remove deletes a provider and its API key, wherever it is kept. If it
// was the default, there is none until another is chosen.
func (s *ProvidersService) Remove(id string) error {
	if err := s.core.Store.DeleteProvider(id); err != nil {
		return err
	}
	s.core.emitProviders()
	if err := s.core.secrets.delete(store.SecretAPIKey, id); err != nil {
		return i18n.Wrap(err, "providers.error.removedBut", "detail", err)
	}
	return nil
}

// SetDefault makes a provider the one new conversations start with.
func (s *ProvidersService) SetDefault(id string) error {
	set, err := s.core.Store.Settings()
	if err != nil {
		return err
	}
	set.DefaultProviderID = id
	if err := s.core.Store.PutSettings(set); err != nil {
		return err
	}
	s.core.emitProviders()
	return nil
}

// Test lists the models the endpoint in the editor offers, without saving.
// id is the provider being edited ("" when adding): when in has no new
// APIKey (and ClearKey is not set), its saved key is used, at the address
// it was saved for only (keyMoves). The model need
// not be set. A failure to reach or use the endpoint is a TestResult with a
// Problem, not an error.
func (s *ProvidersService) Test(id string, in ProviderInput) (TestResult, error) {
	key := strings.TrimSpace(in.APIKey)
	if key == "" && id != "" && !in.ClearKey {
		if _, _, moved := s.keyMoves(id, in); !moved {
			saved, err := s.core.secrets.get(store.SecretAPIKey, id)
			if err != nil {
				return TestResult{}, err
			}
			key = saved
		}
	}
	cfg := toConfig(toProvider("", in), key)
	return listModels(cfg), nil
}

// TestSaved lists the models a saved provider's endpoint offers, with its
// saved key.
func (s *ProvidersService) TestSaved(id string) (TestResult, error) {
	cfg, _, err := s.core.providerConfig(id)
	if err != nil {
		return TestResult{}, err
	}
	return listModels(cfg), nil
}

// ProviderFor returns the provider saved under id, ready to stream: its
// record and its API key (from the keyring or the data file), with its
// preset's quirks. While the provider's settings stay the same, it returns
// the same llm.Provider, so that turns reuse its connections.
func (c *Core) ProviderFor(id string) (llm.Provider, store.Provider, error) {
	cfg, rec, err := c.providerConfig(id)
	if err != nil {
		return nil, store.Provider{}, err
	}
	p, err := c.providers.get(id, cfg)
	if err != nil {
		return nil, rec, fmt.Errorf("provider %s: %w", rec.Name, err)
	}
	return p, rec, nil
}

// providerCache keeps one llm.Provider per saved provider, made again
// when its settings (or key) change. A new one per turn opened a new
// connection for every message (for a remote provider, a TLS handshake
// before each first token) and left the last one idle for 90 s (P8a in
// bench/).
type providerCache struct {
	mu   sync.Mutex
	byID map[string]cachedProvider
}

type cachedProvider struct {
	cfg      llm.Config
	provider llm.Provider
}

// get returns the provider for id made from cfg.
func (pc *providerCache) get(id string, cfg llm.Config) (llm.Provider, error) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if cached, ok := pc.byID[id]; ok && cached.cfg == cfg {
		return cached.provider, nil
	}
	p, err := llm.New(cfg)
	if err != nil {
		return nil, err
	}
	if pc.byID == nil {
		pc.byID = map[string]cachedProvider{}
	}
	pc.byID[id] = cachedProvider{cfg: cfg, provider: p}
	return p, nil
}

// providerConfig reads the provider saved under id and its key.
func (c *Core) providerConfig(id string) (llm.Config, store.Provider, error) {
	rec, err := c.Store.Provider(id)
	if err != nil {
		return llm.Config{}, store.Provider{}, err
	}
	key, err := c.secrets.get(store.SecretAPIKey, id)
	if err != nil {
		return llm.Config{}, rec, err
	}
	return toConfig(rec, key), rec, nil
}

// listModels asks the endpoint of cfg for its models, within testTimeout.
func listModels(cfg llm.Config) TestResult {
	result := TestResult{Models: []ModelView{}}
	p, err := llm.New(cfg)
	var models []llm.Model
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		models, err = p.Models(ctx)
		cancel()
	}
	var llmErr *llm.Error
	switch {
	case err == nil:
		for _, m := range models {
			result.Models = append(result.Models, ModelView{ID: m.ID, DisplayName: m.DisplayName})
		}
	case errors.As(err, &llmErr):
		result.Problem = &llmErr.Message
	default: // our own time limit: llm reports the caller's context as it is
		address := cfg.BaseURL
		if u, perr := url.Parse(cfg.BaseURL); perr == nil && u.Host != "" {
			address = u.Host
		}
		msg := i18n.M("llm.error.timeout", "address", address)
		result.Problem = &msg
	}
	return result
}

// toProvider converts an editor input into a store record, with the
// blanks filled from the preset: kind, base URL and quirks.
func toProvider(id string, in ProviderInput) store.Provider {
	preset, _ := llm.PresetByID(in.Preset)
	p := store.Provider{ID: id, Name: strings.TrimSpace(in.Name), Kind: in.Kind, Preset: in.Preset,
		BaseURL: strings.TrimSpace(in.BaseURL), Model: strings.TrimSpace(in.Model)}
	if p.Kind == "" {
		p.Kind = string(preset.Kind)
	}
	if p.Kind == "" {
		p.Kind = store.ProviderOpenAI
	}
	if p.BaseURL == "" {
		p.BaseURL = preset.BaseURL
	}
	p.Quirks, _ = json.Marshal(joinQuirks(in.Quirks, preset.Quirks))
	return p
}

// toConfig is the llm settings of a stored provider with its key. The
// preset's quirks apply even when the record predates them.
func toConfig(p store.Provider, apiKey string) llm.Config {
	var quirks llm.Quirks
	_ = json.Unmarshal(p.Quirks, &quirks) // the store keeps only JSON objects; unknown ones are ignored
	if preset, ok := llm.PresetByID(p.Preset); ok {
		quirks = joinQuirks(quirks, preset.Quirks)
	}
	return llm.Config{Kind: llm.Kind(p.Kind), Preset: p.Preset, BaseURL: p.BaseURL, APIKey: apiKey,
		Model: p.Model, Quirks: quirks}
}

// joinQuirks returns the quirks either a or b has.
func joinQuirks(a, b llm.Quirks) llm.Quirks {
	return llm.Quirks{
		EchoReasoning:       a.EchoReasoning || b.EchoReasoning,
		ToolStream:          a.ToolStream || b.ToolStream,
		MaxCompletionTokens: a.MaxCompletionTokens || b.MaxCompletionTokens,
		Images:              a.Images || b.Images,
	}
}

func (c *Core) providerViews() ([]ProviderView, error) {
	providers, err := c.Store.Providers()
	if err != nil {
		return nil, err
	}
	views := make([]ProviderView, 0, len(providers))
	for _, p := range providers {
		v, err := c.providerView(p)
		if err != nil {
			return nil, err
		}
		views = append(views, v)
	}
	return views, nil
}

func (c *Core) providerView(p store.Provider) (ProviderView, error) {
	hint, err := c.secrets.apiKeyHint(p.ID)
	if err != nil {
		return ProviderView{}, err
	}
	set, err := c.Store.Settings()
	if err != nil {
		return ProviderView{}, err
	}
	return ProviderView{ID: p.ID, Name: p.Name, Kind: p.Kind, Preset: p.Preset, BaseURL: p.BaseURL, Model: p.Model,
		KeyHint: hint, IsDefault: set.DefaultProviderID == p.ID, Quirks: toConfig(p, "").Quirks}, nil
}

func (c *Core) providerList() (ProviderList, error) {
	v, views, err := versioned(c, c.providerViews)
	return ProviderList{Version: v, Providers: views}, err
}

func (c *Core) emitProviders() {
	c.updateSampling()
	if c.events == nil {
		return
	}
	if list, err := c.providerList(); err == nil {
		c.events.Emit(EventProviders, list)
	}
}

// providerSummary joins a provider editor's field errors into one line, in
// the order of the form.
func (e FieldErrors) providerSummary() i18n.Message {
	return e.inOrder("name", "preset", "kind", "baseUrl", "model", "apiKey")
}
