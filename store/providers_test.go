package store

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

func TestPutProvider(t *testing.T) {
	tests := []struct {
		name     string
		existing []string // provider names stored first
		put      func(ids map[string]Provider) Provider
		wantErr  error
		wantMsg  string // the error's whole text, when set
		check    func(t *testing.T, got Provider, ids map[string]Provider)
	}{
		{
			name: "insert assigns an id, stamps both times and keeps every field",
			put: func(map[string]Provider) Provider {
				return Provider{Name: "Ollama", Kind: ProviderOpenAI, Preset: "ollama", BaseURL: "http://127.0.0.1:11434/v1",
					Model: "qwen3:8b", Quirks: []byte(`{"reasoningInToolTurns":true}`)}
			},
			check: func(t *testing.T, got Provider, _ map[string]Provider) {
				if got.ID == "" || got.CreatedAt.IsZero() || !got.UpdatedAt.Equal(got.CreatedAt) {
					t.Errorf("id and times = %q %v %v", got.ID, got.CreatedAt, got.UpdatedAt)
				}
				if got.Name != "Ollama" || got.Kind != ProviderOpenAI || got.Preset != "ollama" ||
					got.BaseURL != "http://127.0.0.1:11434/v1" || got.Model != "qwen3:8b" ||
					string(got.Quirks) != `{"reasoningInToolTurns":true}` {
					t.Errorf("fields not kept: %+v", got)
				}
			},
		},
		{
			name: "name and base URL are trimmed, quirks compacted",
			put: func(map[string]Provider) Provider {
				return Provider{Name: "  智谱 GLM ", Kind: ProviderOpenAI, BaseURL: " https://open.bigmodel.cn/api/paas/v4/ ",
					Quirks: []byte(" {\n  \"toolStream\": true\n} ")}
			},
			check: func(t *testing.T, got Provider, _ map[string]Provider) {
				if got.Name != "智谱 GLM" || got.BaseURL != "https://open.bigmodel.cn/api/paas/v4/" || string(got.Quirks) != `{"toolStream":true}` {
					t.Errorf("got %q %q %s", got.Name, got.BaseURL, got.Quirks)
				}
			},
		},
		{
			name: "an Anthropic provider without base URL uses the SDK's",
			put: func(map[string]Provider) Provider {
				return Provider{Name: "Claude", Kind: ProviderAnthropic, Quirks: []byte("null")}
			},
			check: func(t *testing.T, got Provider, _ map[string]Provider) {
				if got.BaseURL != "" || got.Quirks != nil {
					t.Errorf("got %+v", got)
				}
			},
		},
		{
			name:    "empty name is invalid",
			put:     func(map[string]Provider) Provider { return Provider{Name: " ", Kind: ProviderOpenAI} },
			wantErr: ErrInvalid, wantMsg: "invalid: a provider needs a name",
		},
		{
			name:    "a kind other than openai and anthropic is invalid",
			put:     func(map[string]Provider) Provider { return Provider{Name: "x", Kind: "gemini"} },
			wantErr: ErrInvalid, wantMsg: `invalid: the provider "x" has kind "gemini"; it must be "openai" or "anthropic"`,
		},
		{
			name:    "an empty kind is invalid",
			put:     func(map[string]Provider) Provider { return Provider{Name: "x"} },
			wantErr: ErrInvalid,
		},
		{
			name: "a base URL without scheme is invalid",
			put: func(map[string]Provider) Provider {
				return Provider{Name: "x", Kind: ProviderOpenAI, BaseURL: "127.0.0.1:11434/v1"}
			},
			wantErr: ErrInvalid,
			wantMsg: `invalid: the base URL of provider "x" must be an http or https URL, such as http://127.0.0.1:11434/v1`,
		},
		{
			name: "a file URL is invalid",
			put: func(map[string]Provider) Provider {
				return Provider{Name: "x", Kind: ProviderOpenAI, BaseURL: "file:///etc/passwd"}
			},
			wantErr: ErrInvalid,
		},
		{
			name: "quirks that are a JSON array are invalid",
			put: func(map[string]Provider) Provider {
				return Provider{Name: "x", Kind: ProviderOpenAI, Quirks: []byte(`[true]`)}
			},
			wantErr: ErrInvalid, wantMsg: `invalid: the settings (quirks) of provider "x" must be a JSON object`,
		},
		{
			name: "quirks that are not JSON are invalid",
			put: func(map[string]Provider) Provider {
				return Provider{Name: "x", Kind: ProviderOpenAI, Quirks: []byte(`{toolStream}`)}
			},
			wantErr: ErrInvalid,
		},
		{
			name:     "same name in another case is a duplicate",
			existing: []string{"DeepSeek"},
			put:      func(map[string]Provider) Provider { return Provider{Name: " deepseek", Kind: ProviderOpenAI} },
			wantErr:  ErrDuplicateName, wantMsg: `duplicate name: a provider named "DeepSeek" already exists`,
		},
		{
			name:     "a provider may share a server's name",
			existing: nil,
			put:      func(map[string]Provider) Provider { return Provider{Name: "Files", Kind: ProviderOpenAI} },
		},
		{
			name:     "update keeps the id and CreatedAt and may change the name's case",
			existing: []string{"deepseek"},
			put: func(ids map[string]Provider) Provider {
				p := ids["deepseek"]
				p.Name, p.Model, p.CreatedAt = "DeepSeek", "deepseek-reasoner", time.Unix(1, 0)
				return p
			},
			check: func(t *testing.T, got Provider, ids map[string]Provider) {
				old := ids["deepseek"]
				if got.ID != old.ID || !got.CreatedAt.Equal(old.CreatedAt) || !got.UpdatedAt.After(old.UpdatedAt) ||
					got.Name != "DeepSeek" || got.Model != "deepseek-reasoner" {
					t.Errorf("updated = %+v, was %+v", got, old)
				}
			},
		},
		{
			name:     "update to another provider's name is a duplicate",
			existing: []string{"a", "b"},
			put: func(ids map[string]Provider) Provider {
				p := ids["b"]
				p.Name = "A"
				return p
			},
			wantErr: ErrDuplicateName,
		},
		{
			name: "update of an unknown id is not found",
			put: func(map[string]Provider) Provider {
				return Provider{ID: "0123456789abcdef", Name: "x", Kind: ProviderOpenAI}
			},
			wantErr: ErrNotFound, wantMsg: `provider "0123456789abcdef": not found`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fakeClock(s)
			if _, err := s.PutServer(Server{Name: "Files"}); err != nil {
				t.Fatal(err)
			}
			ids := map[string]Provider{}
			for _, name := range tc.existing {
				p, err := s.PutProvider(Provider{Name: name, Kind: ProviderOpenAI})
				if err != nil {
					t.Fatal(err)
				}
				ids[name] = p
			}
			got, err := s.PutProvider(tc.put(ids))
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("PutProvider = %v, want %v", err, tc.wantErr)
			}
			if tc.wantMsg != "" && (err == nil || err.Error() != tc.wantMsg) {
				t.Errorf("error = %v, want %q", err, tc.wantMsg)
			}
			all, lerr := s.Providers()
			if lerr != nil {
				t.Fatal(lerr)
			}
			if err != nil {
				if len(all) != len(tc.existing) {
					t.Errorf("a refused put changed the providers: %+v", all)
				}
				return
			}
			if read, err := s.Provider(got.ID); err != nil || !bytes.Equal(read.Quirks, got.Quirks) || read.Name != got.Name || !read.UpdatedAt.Equal(got.UpdatedAt) {
				t.Errorf("read back %+v, %v; PutProvider returned %+v", read, err, got)
			}
			if tc.check != nil {
				tc.check(t, got, ids)
			}
		})
	}
}

func TestProvidersOrderAndLookup(t *testing.T) {
	s := openT(t, t.TempDir())
	fakeClock(s)
	for _, name := range []string{"Ollama", "DeepSeek", "Claude"} {
		if _, err := s.PutProvider(Provider{Name: name, Kind: ProviderOpenAI}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := s.Providers()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range all {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "Ollama,DeepSeek,Claude" {
		t.Errorf("Providers() = %q, want the order they were added", names)
	}
	tests := []struct {
		name, query, want string
		wantErr           error
	}{
		{"exact", "DeepSeek", "DeepSeek", nil},
		{"other case and spaces", "  deepseek ", "DeepSeek", nil},
		{"unknown", "GPT", "", ErrNotFound},
		{"empty", "", "", ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := s.ProviderByName(tc.query)
			if !errors.Is(err, tc.wantErr) || p.Name != tc.want {
				t.Errorf("ProviderByName(%q) = %q, %v; want %q, %v", tc.query, p.Name, err, tc.want, tc.wantErr)
			}
		})
	}
	if _, err := s.ProviderByName("GPT"); err == nil || err.Error() != `provider named "GPT": not found` {
		t.Errorf("error = %v", err)
	}
}

func TestDeleteProvider(t *testing.T) {
	s := openT(t, t.TempDir())
	keep, err := s.PutProvider(Provider{Name: "Ollama", Kind: ProviderOpenAI})
	if err != nil {
		t.Fatal(err)
	}
	gone, err := s.PutProvider(Provider{Name: "DeepSeek", Kind: ProviderOpenAI})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Provider{keep, gone} {
		if err := s.PutSecret(SecretAPIKey, p.ID, []byte("sk-"+p.Name)); err != nil {
			t.Fatal(err)
		}
	}
	conv, err := s.PutConversation(Conversation{Title: "uses DeepSeek", ProviderID: gone.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutSettings(Settings{DefaultProviderID: gone.ID, WindowWidth: 900}); err != nil {
		t.Fatal(err)
	}

	if err := s.DeleteProvider(gone.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Provider(gone.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the deleted provider reads as %v", err)
	}
	if v, _ := s.Secret(SecretAPIKey, gone.ID); v != nil {
		t.Errorf("its API key is still in the file: %q", v)
	}
	if v, _ := s.Secret(SecretAPIKey, keep.ID); string(v) != "sk-Ollama" {
		t.Errorf("the other provider's key = %q", v)
	}
	if set, _ := s.Settings(); set != (Settings{WindowWidth: 900}) {
		t.Errorf("settings = %+v; want the default provider cleared and the rest kept", set)
	}
	if c, err := s.Conversation(conv.ID); err != nil || c.ProviderID != gone.ID {
		t.Errorf("the conversation = %+v, %v; want it kept with its provider's ID", c, err)
	}
	if _, err := s.PutProvider(Provider{Name: "deepseek", Kind: ProviderOpenAI}); err != nil {
		t.Errorf("the name is not free again: %v", err)
	}
	if err := s.DeleteProvider(gone.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting it again = %v, want ErrNotFound", err)
	}

	// Deleting another provider leaves the default alone.
	if err := s.PutSettings(Settings{DefaultProviderID: keep.ID}); err != nil {
		t.Fatal(err)
	}
	other, _ := s.ProviderByName("deepseek")
	if err := s.DeleteProvider(other.ID); err != nil {
		t.Fatal(err)
	}
	if set, _ := s.Settings(); set.DefaultProviderID != keep.ID {
		t.Errorf("default provider = %q, want %q", set.DefaultProviderID, keep.ID)
	}
}

func TestDefaultProviderMustExist(t *testing.T) {
	s := openT(t, t.TempDir())
	err := s.PutSettings(Settings{DefaultProviderID: "0123456789abcdef"})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `the default provider "0123456789abcdef" does not exist`) {
		t.Errorf("PutSettings with an unknown provider = %v", err)
	}
	if set, _ := s.Settings(); set != (Settings{}) {
		t.Errorf("a refused save changed the settings: %+v", set)
	}
}

// TestProviderRecordNeverHoldsItsKey reads the data file with bbolt, past
// the store: the provider's record holds no trace of its key, which is kept
// apart (here in the secrets bucket, as when no keyring answers).
func TestProviderRecordNeverHoldsItsKey(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	const key = "sk-live-3f9a0c1d2e4b5a6978877665544332211"
	p, err := s.PutProvider(Provider{Name: "OpenAI", Kind: ProviderOpenAI, BaseURL: "https://api.openai.com/v1", Model: "gpt-4.1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutSecret(SecretAPIKey, p.ID, []byte(key)); err != nil {
		t.Fatal(err)
	}
	// Editing the provider later does not pull the key in either.
	p.Model = "gpt-4.1-mini"
	if _, err := s.PutProvider(p); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := bbolt.Open(filepath.Join(dir, FileName), 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *bbolt.Tx) error {
		record := tx.Bucket(bucketProviders).Get([]byte(p.ID))
		if record == nil {
			t.Fatal("no provider record")
		}
		if bytes.Contains(record, []byte(key)) || bytes.Contains(record, []byte(key[3:15])) {
			t.Errorf("the provider's record holds its key: %s", record)
		}
		if !bytes.Contains(record, []byte(`"model":"gpt-4.1-mini"`)) {
			t.Errorf("the record read is not the provider's: %s", record)
		}
		return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
			return b.ForEach(func(k, v []byte) error {
				if bytes.Contains(v, []byte(key)) && string(name)+"/"+string(k) != "secrets/apikey/"+p.ID {
					t.Errorf("%s/%s holds the key", name, k)
				}
				return nil
			})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}
