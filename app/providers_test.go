package app

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// standInKey is the key the stand-in providers below want.
const standInKey = "sk-stand-in-7Hq2LmN4pR8sT1vW3xY5"

// providersCore opens a core whose secrets go to kr: a broken keyring sends
// them to the data file, as on a machine without a secret service.
func providersCore(t *testing.T, kr *fakeKeyring) (*Core, *ProvidersService) {
	t.Helper()
	core, _ := openTestCore(t)
	kr.entries = map[string]string{}
	core.secrets = &secretStore{st: core.Store, keyring: kr}
	return core, NewProvidersService(core)
}

// closedAddress returns a loopback address where nothing listens.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestProvidersService_Test: "Test" lists the models the endpoint offers, or
// says in a sentence why it cannot, never showing the key. The endpoint is
// llmtest's stand-in for an OpenAI-compatible server (no model can run
// here); it lists models and checks the key as OpenAI does.
func TestProvidersService_Test(t *testing.T) {
	stand := llmtest.NewOpenAI(t, llmtest.Script{APIKey: standInKey, Models: []string{"qwen3:8b", "deepseek-r1:7b", "通义千问-max"}})
	_, svc := providersCore(t, &fakeKeyring{broken: true})
	saved, err := svc.Add(ProviderInput{Name: "Stand-in", BaseURL: stand.URL, Model: "qwen3:8b", APIKey: standInKey})
	if err != nil {
		t.Fatal(err)
	}
	closed := closedAddress(t)

	tests := []struct {
		name        string
		id          string // the provider being edited
		in          ProviderInput
		wantModels  string // IDs joined by spaces, when it works
		wantProblem string // in the sentence, when it does not
	}{
		{"the right key lists the models, sorted", "", ProviderInput{BaseURL: stand.URL, APIKey: standInKey},
			"deepseek-r1:7b qwen3:8b 通义千问-max", ""},
		{"the saved key is used when none is typed", saved.ID, ProviderInput{BaseURL: stand.URL},
			"deepseek-r1:7b qwen3:8b 通义千问-max", ""},
		{"a wrong key is refused in a sentence", "", ProviderInput{BaseURL: stand.URL, APIKey: "sk-wrong-0123456789abcdef"},
			"", "The API key was refused by 127.0.0.1"},
		{"no key where one is needed says so", "", ProviderInput{BaseURL: stand.URL},
			"", "needs an API key, and none is set"},
		{"clearing the saved key tests without it", saved.ID, ProviderInput{BaseURL: stand.URL, ClearKey: true},
			"", "needs an API key, and none is set"},
		{"an unreachable base URL is named", "", ProviderInput{BaseURL: "http://" + closed + "/v1"},
			"", "Nothing answers at " + closed + "."},
		{"a local preset asks whether it runs", "", ProviderInput{Preset: "ollama", BaseURL: "http://" + closed + "/v1"},
			"", "is Ollama running?"},
		{"a base URL that is no web address", "", ProviderInput{BaseURL: "ftp://files.example"},
			"", "is not a web address"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := svc.Test(tc.id, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range res.Models {
				ids = append(ids, m.ID)
			}
			problem := ""
			if res.Problem != nil {
				problem = res.Problem.String()
			}
			if got := strings.Join(ids, " "); got != tc.wantModels || !strings.Contains(problem, tc.wantProblem) ||
				(tc.wantProblem == "") != (res.Problem == nil) {
				t.Errorf("models %q, problem %q; want models %q, problem with %q", got, problem, tc.wantModels, tc.wantProblem)
			}
			b, _ := json.Marshal(res)
			if strings.Contains(string(b), standInKey) || strings.Contains(string(b), "0123456789abcdef") {
				t.Errorf("the result carries a key: %s", b)
			}
			if strings.Contains(string(b), "null") {
				t.Errorf("the result sends null: %s", b)
			}
		})
	}

	t.Run("a saved provider is tested with its saved key", func(t *testing.T) {
		res, err := svc.TestSaved(saved.ID)
		if err != nil || res.Problem != nil || len(res.Models) != 3 {
			t.Errorf("TestSaved = %+v, %v", res, err)
		}
	})
}

// TestProvidersService_KeyKeptApart: the API key goes to the keyring, or
// without one to the data file, never into the provider record; the window
// sees only a masked hint; an empty key on Update keeps it, ClearKey and
// Remove delete it.
func TestProvidersService_KeyKeptApart(t *testing.T) {
	tests := []struct {
		name       string
		keyring    *fakeKeyring
		wantInFile bool
	}{
		{"no keyring: the data file keeps the key", &fakeKeyring{broken: true}, true},
		{"a working keyring keeps it out of the data file", &fakeKeyring{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			logs := captureLogs(t)
			core, svc := providersCore(t, tc.keyring)
			keyWhere := func() (inFile, inKeyring bool) {
				t.Helper()
				list, _ := svc.List()
				views := list.Providers
				raw, _ := core.Store.Secret(store.SecretAPIKey, views[0].ID)
				tc.keyring.mu.Lock()
				defer tc.keyring.mu.Unlock()
				return string(raw) == standInKey, tc.keyring.entries[keyringService+"|apikey/"+views[0].ID] == standInKey
			}

			added, err := svc.Add(ProviderInput{Name: " DeepSeek ", Preset: "deepseek", Model: "deepseek-chat", APIKey: " " + standInKey + "\n"})
			if err != nil {
				t.Fatal(err)
			}
			want := ProviderView{ID: added.ID, Name: "DeepSeek", Kind: "openai", Preset: "deepseek", BaseURL: "https://api.deepseek.com",
				Model: "deepseek-chat", KeyHint: "sk-…3xY5", IsDefault: true, Quirks: llm.Quirks{EchoReasoning: true}}
			if added != want {
				t.Errorf("Add = %+v\nwant %+v", added, want)
			}
			if inFile, inKeyring := keyWhere(); inFile != tc.wantInFile || inKeyring == tc.wantInFile {
				t.Errorf("key in the data file: %v, in the keyring: %v; want in the file: %v", inFile, inKeyring, tc.wantInFile)
			}
			rec, _ := core.Store.Provider(added.ID)
			recJSON, _ := json.Marshal(rec)
			list, _ := svc.List()
			listJSON, _ := json.Marshal(list)
			for what, text := range map[string]string{"the provider record": string(recJSON), "List": string(listJSON)} {
				if strings.Contains(text, standInKey) {
					t.Errorf("%s carries the key: %s", what, text)
				}
			}

			// An empty key keeps the saved one.
			if _, err := svc.Update(added.ID, ProviderInput{Name: "DeepSeek", Preset: "deepseek", Model: "deepseek-reasoner"}); err != nil {
				t.Fatal(err)
			}
			if got, _ := core.secrets.get(store.SecretAPIKey, added.ID); got != standInKey {
				t.Errorf("after an Update without a key the key is %q", got)
			}
			// ClearKey removes it.
			cleared, err := svc.Update(added.ID, ProviderInput{Name: "DeepSeek", Preset: "deepseek", Model: "deepseek-reasoner", ClearKey: true})
			if err != nil || cleared.KeyHint != "" || cleared.Model != "deepseek-reasoner" {
				t.Errorf("Update with clearKey = %+v, %v", cleared, err)
			}
			if inFile, inKeyring := keyWhere(); inFile || inKeyring {
				t.Errorf("the cleared key is still kept: file %v, keyring %v", inFile, inKeyring)
			}
			// A new key replaces it; Remove deletes it with the provider.
			if _, err := svc.Update(added.ID, ProviderInput{Name: "DeepSeek", Preset: "deepseek", Model: "deepseek-chat", APIKey: standInKey}); err != nil {
				t.Fatal(err)
			}
			if err := svc.Remove(added.ID); err != nil {
				t.Fatal(err)
			}
			if raw, _ := core.Store.Secret(store.SecretAPIKey, added.ID); raw != nil {
				t.Errorf("the data file still holds the key of a removed provider")
			}
			if len(tc.keyring.entries) != 0 {
				t.Errorf("the keyring still holds %v", tc.keyring.entries)
			}
			if list, _ := svc.List(); len(list.Providers) != 0 {
				t.Errorf("List after Remove = %+v", list)
			}
			if set, _ := core.Store.Settings(); set.DefaultProviderID != "" {
				t.Errorf("the removed provider is still the default")
			}
			if strings.Contains(logs.String(), standInKey) {
				t.Errorf("the key was logged: %s", logs)
			}
		})
	}
}

// TestProvidersService_Validate: the editor's sentences per field.
func TestProvidersService_Validate(t *testing.T) {
	_, svc := providersCore(t, &fakeKeyring{broken: true})
	taken, err := svc.Add(ProviderInput{Name: "Ollama", Preset: "ollama", Model: "qwen3:8b"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		id    string
		in    ProviderInput
		field string // "" means valid
		want  string
	}{
		{"a preset fills the base URL", "", ProviderInput{Name: "Kimi", Preset: "moonshot", Model: "kimi-k2"}, "", ""},
		{"a name is needed", "", ProviderInput{Preset: "ollama", Model: "m"}, "name", "Give the provider a name."},
		{"names are unique, ignoring case", "", ProviderInput{Name: "ollama", Preset: "ollama", Model: "m"}, "name", `A provider named "Ollama" already exists.`},
		{"its own name is no duplicate", taken.ID, ProviderInput{Name: "Ollama", Preset: "ollama", Model: "m"}, "", ""},
		{"without a preset a base URL is needed", "", ProviderInput{Name: "Mine", Model: "m"}, "baseUrl", "Give the base URL"},
		{"the base URL is http or https", "", ProviderInput{Name: "Mine", BaseURL: "127.0.0.1:11434", Model: "m"}, "baseUrl", "must be an http or https address"},
		{"a model is needed; Test lists them", "", ProviderInput{Name: "Mine", BaseURL: "http://127.0.0.1:8080/v1"}, "model", "Test lists the models"},
		{"an unknown kind", "", ProviderInput{Name: "Mine", Kind: "gemini", BaseURL: "https://x.example", Model: "m"}, "kind", "Choose openai"},
		{"an unknown preset", "", ProviderInput{Name: "Mine", Preset: "nope", BaseURL: "https://x.example", Model: "m"}, "preset", `no preset named "nope"`},
		{"a key with a space inside", "", ProviderInput{Name: "Mine", Preset: "openai", Model: "m", APIKey: "sk-abc def"}, "apiKey", "no spaces"},
		{"a new key and clearKey at once", taken.ID, ProviderInput{Name: "Ollama", Preset: "ollama", Model: "m", APIKey: "sk-abc", ClearKey: true}, "apiKey", "not both"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs := svc.Validate(tc.id, tc.in)
			if tc.field == "" {
				if len(errs) != 0 {
					t.Errorf("errors %v, want none", errs)
				}
				return
			}
			if !strings.Contains(errs[tc.field].String(), tc.want) || len(errs) != 1 {
				t.Errorf("errors %v, want only %s: %q", errs, tc.field, tc.want)
			}
			if _, err := svc.Add(tc.in); tc.id == "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Add = %v, want it refused with %q", err, tc.want)
			}
		})
	}
}

// TestProvidersService_Default: the first provider becomes the default;
// SetDefault moves it, and the window hears of it; an unknown provider
// cannot be the default.
func TestProvidersService_Default(t *testing.T) {
	core, svc := providersCore(t, &fakeKeyring{broken: true})
	if list, err := svc.List(); err != nil || list.Providers == nil || len(list.Providers) != 0 {
		t.Errorf("List with no providers = %#v, %v; want an empty list (never null)", list, err)
	}
	first, err := svc.Add(ProviderInput{Name: "Ollama", Preset: "ollama", Model: "qwen3:8b"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := svc.Add(ProviderInput{Name: "LM Studio", Preset: "lmstudio", Model: "gemma"})
	if err != nil {
		t.Fatal(err)
	}
	if !first.IsDefault || second.IsDefault {
		t.Errorf("default after adding: first %v, second %v", first.IsDefault, second.IsDefault)
	}
	if err := svc.SetDefault(second.ID); err != nil {
		t.Fatal(err)
	}
	list, _ := svc.List()
	if l := list.Providers; len(l) != 2 || l[0].IsDefault || !l[1].IsDefault {
		t.Errorf("List after SetDefault = %+v", list)
	}
	sent, _ := core.events.(*recorder).last(EventProviders).(ProviderList)
	if len(sent.Providers) != 2 || !sent.Providers[1].IsDefault || sent.Version >= list.Version {
		t.Errorf("the window was last told %+v", sent)
	}
	if err := svc.SetDefault("0123456789abcdef"); err == nil {
		t.Error("an unknown provider became the default")
	}
}

// TestCore_ProviderFor: the chat gets a ready provider with the saved key
// and the preset's quirks. The endpoint is llmtest's stand-in (no model can
// run here), answering like DeepSeek: it refuses a tool turn whose
// reasoning is not sent back, which only the preset's quirk does.
func TestCore_ProviderFor(t *testing.T) {
	stand := llmtest.NewOpenAI(t, llmtest.Script{APIKey: standInKey, Models: []string{"deepseek-chat"}, RequireReasoningEcho: true,
		Turns: []llmtest.Turn{{Text: []string{"好的"}}}})
	core, svc := providersCore(t, &fakeKeyring{broken: true})
	added, err := svc.Add(ProviderInput{Name: "DeepSeek", Preset: "deepseek", BaseURL: stand.URL, Model: "deepseek-chat", APIKey: standInKey})
	if err != nil {
		t.Fatal(err)
	}
	p, rec, err := core.ProviderFor(added.ID)
	if err != nil || rec.Name != "DeepSeek" {
		t.Fatalf("ProviderFor = %v, %+v", err, rec)
	}
	req := llm.Request{Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "几点了?"},
		{Role: llm.RoleAssistant, Reasoning: "I should call the clock.", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "clock", Arguments: json.RawMessage(`{}`)}}},
		{Role: llm.RoleTool, ToolCallID: "call_1", Text: "12:00"},
	}}
	var text string
	for ev, err := range p.Stream(context.Background(), req) {
		if err != nil {
			t.Fatalf("the stream failed: %v", err)
		}
		text += ev.Text
	}
	if text != "好的" {
		t.Errorf("streamed %q", text)
	}
	chat := stand.ChatRequests()
	if len(chat) != 1 || chat[0].Header.Get("Authorization") != "Bearer "+standInKey {
		t.Errorf("the stand-in got %d chat requests; the key was not sent as saved", len(chat))
	}
	if _, _, err := core.ProviderFor("0123456789abcdef"); err == nil {
		t.Error("ProviderFor found a provider that does not exist")
	}
}

// TestProvidersService_ImagesSetByThePerson: a provider set up by hand reads
// images only when the person says so, the setting can be taken back, and a
// preset whose models read images keeps reading them whatever is sent.
func TestProvidersService_ImagesSetByThePerson(t *testing.T) {
	core, svc := providersCore(t, &fakeKeyring{broken: true})
	steps := []struct {
		name   string
		in     ProviderInput
		update bool
		want   bool
	}{
		{"added by hand without images", ProviderInput{Name: "LLaVA", BaseURL: "http://127.0.0.1:8080/v1", Model: "llava"}, false, false},
		{"marked as reading images", ProviderInput{Name: "LLaVA", BaseURL: "http://127.0.0.1:8080/v1", Model: "llava", Quirks: llm.Quirks{Images: true}}, true, true},
		{"the mark taken back", ProviderInput{Name: "LLaVA", BaseURL: "http://127.0.0.1:8080/v1", Model: "llava"}, true, false},
	}
	id := ""
	for _, s := range steps {
		var v ProviderView
		var err error
		if s.update {
			v, err = svc.Update(id, s.in)
		} else {
			v, err = svc.Add(s.in)
			id = v.ID
		}
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if v.Quirks.Images != s.want {
			t.Errorf("%s: the view says images = %v, want %v", s.name, v.Quirks.Images, s.want)
		}
		if rec, err := core.Store.Provider(id); err != nil || toConfig(rec, "").Quirks.Images != s.want {
			t.Errorf("%s: the chat would send images = %v (%v), want %v", s.name, toConfig(rec, "").Quirks.Images, err, s.want)
		}
	}
	claude, err := svc.Add(ProviderInput{Name: "Claude", Preset: "anthropic", Model: "claude-sonnet-4-5"})
	if err != nil || !claude.Quirks.Images {
		t.Errorf("the Anthropic preset: images = %v (%v), want true", claude.Quirks.Images, err)
	}
}

// A saved API key goes only to the address it was saved for: testing the
// editor's settings with another host sends no key, and saving them without
// a new key is refused with a sentence on the key field, so one service's
// key never reaches another host (a provider edited to point elsewhere, or
// switched to another preset). Another path on the same host keeps it.
func TestProvidersService_TheSavedKeyStaysWithItsAddress(t *testing.T) {
	first := llmtest.NewOpenAI(t, llmtest.Script{APIKey: standInKey, Models: []string{"first-model"}})
	other := llmtest.NewOpenAI(t, llmtest.Script{APIKey: "sk-other-0123456789abcdef", Models: []string{"other-model"}})
	_, svc := providersCore(t, &fakeKeyring{})
	saved, err := svc.Add(ProviderInput{Name: "First", BaseURL: first.URL, Model: "first-model", APIKey: standInKey})
	if err != nil {
		t.Fatal(err)
	}

	if _, err := svc.Test(saved.ID, ProviderInput{BaseURL: other.URL}); err != nil {
		t.Fatal(err)
	}
	if len(other.Requests()) == 0 {
		t.Fatal("the other address was not asked for its models")
	}
	for _, r := range other.Requests() {
		if strings.Contains(r.Header.Get("Authorization"), standInKey) || strings.Contains(r.Header.Get("X-Api-Key"), standInKey) {
			t.Fatalf("the key saved for %s was sent to %s", first.URL, other.URL)
		}
	}

	moved := ProviderInput{Name: "First", BaseURL: other.URL, Model: "first-model"}
	if errs := svc.Validate(saved.ID, moved); errs["apiKey"].Key != "providers.error.keyForOtherAddress" {
		t.Errorf("moving the provider to another host without a key: field errors %v", errs)
	}
	if _, err := svc.Update(saved.ID, moved); err == nil {
		t.Error("the provider was saved at another host with the key of the first")
	}
	for _, tc := range []struct {
		name string
		in   ProviderInput
	}{
		{"another path on the same host", ProviderInput{Name: "First", BaseURL: first.URL + "/", Model: "first-model"}},
		{"a new key for the other host", ProviderInput{Name: "First", BaseURL: other.URL, Model: "first-model", APIKey: "sk-other-0123456789abcdef"}},
	} {
		if _, err := svc.Update(saved.ID, tc.in); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	res, err := svc.TestSaved(saved.ID)
	if err != nil || res.Problem != nil || len(res.Models) != 1 || res.Models[0].ID != "other-model" {
		t.Errorf("the provider moved with its new key lists %+v (%v)", res, err)
	}
}
