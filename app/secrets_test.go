package app

import (
	"bytes"
	"errors"
	"log"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/zalando/go-keyring"
	"golang.org/x/oauth2"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// fakeKeyring is an OS keyring in memory. With broken set it fails as a
// machine without a secret service does; refuse makes it turn down values
// (as a keyring does with values too big) while the probe still works.
type fakeKeyring struct {
	mu      sync.Mutex
	entries map[string]string // service + "|" + user → secret
	broken  bool
	refuse  bool
}

var errNoSecretService = errors.New("org.freedesktop.secrets was not provided by any .service files")

func (k *fakeKeyring) Get(service, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken {
		return "", errNoSecretService
	}
	v, ok := k.entries[service+"|"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (k *fakeKeyring) Set(service, user, secret string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch {
	case k.broken:
		return errNoSecretService
	case k.refuse && user != "gatehouse-probe":
		return keyring.ErrSetDataTooBig
	}
	k.entries[service+"|"+user] = secret
	return nil
}

func (k *fakeKeyring) Delete(service, user string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken {
		return errNoSecretService
	}
	if _, ok := k.entries[service+"|"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(k.entries, service+"|"+user)
	return nil
}

// captureLogs sends the standard and structured logs to a buffer for the
// rest of the test.
func captureLogs(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	oldOut, oldFlags := log.Writer(), log.Flags()
	oldSlog := slog.Default()
	log.SetOutput(&buf)
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() {
		log.SetOutput(oldOut)
		log.SetFlags(oldFlags)
		slog.SetDefault(oldSlog)
	})
	return &buf
}

// TestSecrets_WhereTheyAreKept: API keys and sign-in tokens go through one
// helper, into the keyring when it works and into the data file when it
// does not; neither the logs nor an error ever carries one.
func TestSecrets_WhereTheyAreKept(t *testing.T) {
	const key = "sk-proj-7Hq2LmN4pR8sT1vW3xY5zA6bC9dE0fG2a1b2"
	tests := []struct {
		name        string
		keyring     *fakeKeyring
		wantKeyring bool // usesKeyring
		wantInFile  bool // the secrets end up in the data file
	}{
		{"no keyring: the data file keeps them", &fakeKeyring{broken: true}, false, true},
		{"a working keyring keeps them out of the file", &fakeKeyring{}, true, false},
		{"a keyring that refuses a value leaves it to the file", &fakeKeyring{refuse: true}, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			logs := captureLogs(t)
			core, _ := openTestCore(t)
			tc.keyring.entries = map[string]string{}
			sec := &secretStore{st: core.Store, keyring: tc.keyring}
			tokens := &tokenStore{secrets: sec}
			st := core.Store

			prov, err := st.PutProvider(store.Provider{Name: "OpenAI", Kind: store.ProviderOpenAI})
			if err != nil {
				t.Fatal(err)
			}
			srv, err := st.PutServer(store.Server{Name: "Calendar", Transport: store.TransportHTTP, HTTP: &store.HTTPConfig{URL: "https://cal.example/mcp"}})
			if err != nil {
				t.Fatal(err)
			}
			if sec.usesKeyring() != tc.wantKeyring {
				t.Fatalf("usesKeyring = %v, want %v", !tc.wantKeyring, tc.wantKeyring)
			}

			// An API key.
			if got, err := sec.get(store.SecretAPIKey, prov.ID); err != nil || got != "" {
				t.Fatalf("before saving: %q, %v", got, err)
			}
			if err := sec.put(store.SecretAPIKey, prov.ID, key); err != nil {
				t.Fatal(err)
			}
			if got, err := sec.get(store.SecretAPIKey, prov.ID); err != nil || got != key {
				t.Errorf("get = %q, %v", got, err)
			}
			if hint, err := sec.apiKeyHint(prov.ID); err != nil || hint != "sk-…a1b2" {
				t.Errorf("apiKeyHint = %q, %v; want sk-…a1b2", hint, err)
			}
			inFile, _ := st.Secret(store.SecretAPIKey, prov.ID)
			if (string(inFile) == key) != tc.wantInFile {
				t.Errorf("the data file holds %q; want it there: %v", inFile, tc.wantInFile)
			}

			// A sign-in token, through mcp.TokenStore.
			tok := &mcp.SavedToken{Token: &oauth2.Token{AccessToken: "at-secret-123", RefreshToken: "rt-secret-456"}, Resource: "https://cal.example/mcp"}
			if err := tokens.SaveToken(srv.ID, tok); err != nil {
				t.Fatal(err)
			}
			loaded, err := tokens.LoadToken(srv.ID, "https://cal.example/mcp")
			if err != nil || loaded == nil || loaded.Token.RefreshToken != "rt-secret-456" {
				t.Errorf("LoadToken = %+v, %v", loaded, err)
			}
			if other, _ := tokens.LoadToken(srv.ID, "https://evil.example/mcp"); other != nil {
				t.Error("a token was offered for another resource")
			}
			tokInFile, _ := st.Secret(store.SecretSignIn, srv.ID)
			if (tokInFile != nil) != tc.wantInFile {
				t.Errorf("token in the data file: %s; want it there: %v", tokInFile, tc.wantInFile)
			}

			// Errors name what failed, never the value.
			err = sec.put(store.SecretAPIKey, "0123456789abcdef", key)
			if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("saving a key for an unknown provider = %v, want ErrNotFound", err)
			}
			if err != nil && strings.Contains(err.Error(), key[3:]) {
				t.Errorf("the error %q carries the key", err)
			}
			if len(tc.keyring.entries) > 2 {
				t.Errorf("the keyring kept a key for an unknown provider: %d entries", len(tc.keyring.entries))
			}

			// Deleting removes them from both places.
			if err := sec.delete(store.SecretAPIKey, prov.ID); err != nil {
				t.Fatal(err)
			}
			if err := tokens.DeleteToken(srv.ID); err != nil {
				t.Fatal(err)
			}
			if got, _ := sec.get(store.SecretAPIKey, prov.ID); got != "" {
				t.Errorf("after delete: %q", got)
			}
			if got, _ := tokens.LoadToken(srv.ID, "https://cal.example/mcp"); got != nil {
				t.Errorf("token after delete: %+v", got)
			}
			if err := sec.delete(store.SecretAPIKey, prov.ID); err != nil {
				t.Errorf("deleting nothing: %v", err)
			}
			for _, secret := range []string{key, "at-secret-123", "rt-secret-456"} {
				if strings.Contains(logs.String(), secret) {
					t.Errorf("a secret was logged: %s", logs)
				}
			}
		})
	}
}

// TestSecrets_MovingToTheKeyring: a secret first kept in the data file
// (no keyring then) leaves it when saved again with a keyring, and a
// sign-in saved in the keyring by an earlier version, under the bare server
// ID, is still found.
func TestSecrets_MovingToTheKeyring(t *testing.T) {
	core, _ := openTestCore(t)
	prov, err := core.Store.PutProvider(store.Provider{Name: "DeepSeek", Kind: store.ProviderOpenAI})
	if err != nil {
		t.Fatal(err)
	}
	if err := core.Store.PutSecret(store.SecretAPIKey, prov.ID, []byte("sk-old")); err != nil {
		t.Fatal(err)
	}
	kr := &fakeKeyring{entries: map[string]string{
		keyringService + "|0123456789abcdef": `{"resource":"https://cal.example/mcp","token":{"access_token":"at-1"}}`,
	}}
	sec := &secretStore{st: core.Store, keyring: kr}

	if got, _ := sec.get(store.SecretAPIKey, prov.ID); got != "sk-old" {
		t.Errorf("a key in the file is not read while the keyring has none: %q", got)
	}
	if err := sec.put(store.SecretAPIKey, prov.ID, "sk-new-0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	if v, _ := core.Store.Secret(store.SecretAPIKey, prov.ID); v != nil {
		t.Errorf("the old key stayed in the data file: %q", v)
	}
	if kr.entries[keyringService+"|apikey/"+prov.ID] != "sk-new-0123456789abcdef" {
		t.Errorf("keyring = %v", kr.entries)
	}
	tok, err := (&tokenStore{secrets: sec}).LoadToken("0123456789abcdef", "https://cal.example/mcp")
	if err != nil || tok == nil || tok.Token.AccessToken != "at-1" {
		t.Errorf("a token saved under the bare server ID = %+v, %v", tok, err)
	}
}

// TestRemoveServerDeletesItsSignIn: removing a server deletes its sign-in
// from the keyring, not only from the data file.
func TestRemoveServerDeletesItsSignIn(t *testing.T) {
	core, _ := openTestCore(t)
	kr := &fakeKeyring{entries: map[string]string{}}
	core.secrets.keyring = kr
	view, err := NewServersService(core).Add(ServerInput{Name: "Calendar", Transport: "http", URL: "http://127.0.0.1:9/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	if err := core.tokens.SaveToken(view.ID, &mcp.SavedToken{Token: &oauth2.Token{AccessToken: "at"}, Resource: "http://127.0.0.1:9/mcp"}); err != nil {
		t.Fatal(err)
	}
	if len(kr.entries) != 1 {
		t.Fatalf("keyring = %v", kr.entries)
	}
	if err := NewServersService(core).Remove(view.ID); err != nil {
		t.Fatal(err)
	}
	if len(kr.entries) != 0 {
		t.Errorf("the sign-in outlived its server in the keyring: %v", kr.entries)
	}
}

func TestMaskSecret(t *testing.T) {
	tests := []struct {
		name, secret, want string
	}{
		{"nothing saved shows nothing", "", ""},
		{"a long key keeps its prefix and last four", "sk-proj-7Hq2LmN4pR8sT1vW3xY5zA6bC9dE0fG2a1b2", "sk-…a1b2"},
		{"an Anthropic key", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-9z8y", "sk-…9z8y"},
		{"a key of 20 characters is long", "abcdefghijklmnopqrst", "abc…qrst"},
		{"a key of 19 characters shows its last two", "abcdefghijklmnopqrs", "…rs"},
		{"a short secret shows its last two", "12345678", "…78"},
		{"a very short secret shows none of it", "1234567", "…"},
		{"characters, not bytes", "密钥密钥密钥密钥密钥密钥密钥密钥密钥甲乙丙丁", "密钥密…甲乙丙丁"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := maskSecret(tc.secret); got != tc.want {
				t.Errorf("maskSecret(%q) = %q, want %q", tc.secret, got, tc.want)
			}
		})
	}
}

// TestSecrets_OSKeyring runs against the machine's own keyring when one
// answers (on Linux: a Secret Service, such as gnome-keyring inside
// dbus-run-session), and is skipped otherwise.
func TestSecrets_OSKeyring(t *testing.T) {
	core, _ := openTestCore(t)
	sec := newSecretStore(core.Store)
	if !sec.usesKeyring() {
		t.Skip("no OS keyring answers here")
	}
	prov, err := core.Store.PutProvider(store.Provider{Name: "Moonshot", Kind: store.ProviderOpenAI})
	if err != nil {
		t.Fatal(err)
	}
	const key = "sk-os-keyring-test-0123456789abcdef"
	if err := sec.put(store.SecretAPIKey, prov.ID, key); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sec.delete(store.SecretAPIKey, prov.ID) })
	if got, err := sec.get(store.SecretAPIKey, prov.ID); err != nil || got != key {
		t.Errorf("get = %q, %v", got, err)
	}
	if v, _ := core.Store.Secret(store.SecretAPIKey, prov.ID); v != nil {
		t.Errorf("the data file holds the key as well: %q", v)
	}
	if got, err := keyring.Get(keyringService, "apikey/"+prov.ID); err != nil || got != key {
		t.Errorf("the OS keyring holds %q, %v", got, err)
	}
	if err := sec.delete(store.SecretAPIKey, prov.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get(keyringService, "apikey/"+prov.ID); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("after delete the OS keyring answers %v", err)
	}
}
