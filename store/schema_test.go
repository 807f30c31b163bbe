package store

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gatehouse-app/gatehouse/i18n"
)

func TestOpenUpgradesOlderFiles(t *testing.T) {
	tests := []struct {
		name      string
		build     func(tx *bbolt.Tx) error // the old file's content
		version   int                      // the version build records
		wantNames []string
	}{
		{
			name:  "an empty bbolt file gets the current layout",
			build: func(tx *bbolt.Tx) error { return nil },
		},
		{
			name: "a file without a version keeps its servers",
			build: func(tx *bbolt.Tx) error {
				b, err := tx.CreateBucket(bucketServers)
				if err != nil {
					return err
				}
				return b.Put([]byte("s1"), []byte(`{"id":"s1","name":"old","transport":"stdio","stdio":{"command":"x"}}`))
			},
			wantNames: []string{"old"},
		},
		{
			name: "a meta bucket without a version is version 0",
			build: func(tx *bbolt.Tx) error {
				_, err := tx.CreateBucket(bucketMeta)
				return err
			},
		},
		{
			name:      "a version 1 file keeps its servers",
			build:     buildVersion1,
			version:   1,
			wantNames: []string{"first", "second"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			rawUpdate(t, dir, tc.build)
			if v := rawVersion(t, dir); v != tc.version {
				t.Fatalf("built file has version %d, want %d", v, tc.version)
			}

			s := openT(t, dir)
			all, err := s.Servers()
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, srv := range all {
				names = append(names, srv.Name)
			}
			if !slices.Equal(names, tc.wantNames) {
				t.Errorf("servers after upgrade = %q, want %q", names, tc.wantNames)
			}
			if _, err := s.Settings(); err != nil {
				t.Errorf("Settings after upgrade: %v", err)
			}
			// The elicitation buckets exist.
			if _, err := s.Policy("s1"); err != nil {
				t.Errorf("Policy after upgrade: %v", err)
			}
			if e, err := s.AddHistory(HistoryEntry{Outcome: OutcomeAccepted}); err != nil || e.ID != 1 {
				t.Errorf("AddHistory after upgrade = %d, %v; want ID 1", e.ID, err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if v := rawVersion(t, dir); v != schemaVersion() {
				t.Errorf("version after Open = %d, want %d", v, schemaVersion())
			}
		})
	}
}

// buildVersion1 writes a file as the first released layout left it: meta
// with version 1 and the initialized mark, two servers and settings.
func buildVersion1(tx *bbolt.Tx) error {
	records := []struct {
		bucket, key []byte
		value       string
	}{
		{bucketMeta, keyVersion, `1`},
		{bucketMeta, keyInitialized, `"2025-01-02T03:04:05Z"`},
		{bucketServers, []byte("s1"), `{"id":"s1","name":"first","enabled":true,"transport":"stdio",` +
			`"stdio":{"command":"npx","args":["-y","pkg"]},"createdAt":"2025-01-02T03:04:05Z","updatedAt":"2025-01-02T03:04:05Z"}`},
		{bucketServers, []byte("s2"), `{"id":"s2","name":"second","enabled":false,"transport":"http",` +
			`"http":{"url":"http://localhost:1234/mcp"},"createdAt":"2025-01-02T03:04:06Z","updatedAt":"2025-01-02T03:04:06Z"}`},
		{bucketSettings, keySettings, `{"toolCallTimeout":90000000000,"windowWidth":1200}`},
	}
	for _, r := range records {
		b, err := tx.CreateBucketIfNotExists(r.bucket)
		if err != nil {
			return err
		}
		if err := b.Put(r.key, []byte(r.value)); err != nil {
			return err
		}
	}
	return nil
}

func TestOpenUpgradesVersion1(t *testing.T) {
	dir := t.TempDir()
	rawUpdate(t, dir, buildVersion1)
	s := openT(t, dir)

	first, err := s.Server("s1")
	if err != nil {
		t.Fatal(err)
	}
	if !first.Enabled || first.Stdio == nil || !slices.Equal(first.Stdio.Args, []string{"-y", "pkg"}) || first.DisableURLMode {
		t.Errorf("server s1 after upgrade = %+v", first)
	}
	if second, err := s.Server("s2"); err != nil || second.HTTP == nil || second.HTTP.URL != "http://localhost:1234/mcp" {
		t.Errorf("server s2 after upgrade = %+v, %v", second, err)
	}
	want := Settings{ToolCallTimeout: 90 * time.Second, WindowWidth: 1200}
	if got, err := s.Settings(); err != nil || got != want {
		t.Errorf("settings after upgrade = %+v, %v; want %+v", got, err, want)
	}
	if again, err := s.MarkInitialized(); err != nil || again {
		t.Errorf("MarkInitialized after upgrade = %v, %v; want false", again, err)
	}
	if err := s.PutPolicy("s1", Policy{Mode: PolicyDecline}); err != nil {
		t.Errorf("PutPolicy on an upgraded server: %v", err)
	}
	if err := s.PutSecret(SecretSignIn, "s2", []byte(`{"token":"t"}`)); err != nil {
		t.Errorf("PutSecret on an upgraded server: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if v := rawVersion(t, dir); v != schemaVersion() {
		t.Errorf("version after upgrade = %d, want %d", v, schemaVersion())
	}
}

func TestOpenRefusesNewerFile(t *testing.T) {
	dir := withServers(t, 3)
	rawUpdate(t, dir, func(tx *bbolt.Tx) error {
		return putJSON(tx.Bucket(bucketMeta), keyVersion, schemaVersion()+1)
	})
	path := filepath.Join(dir, FileName)
	before := takeSnapshot(t, path)

	for range 2 { // and leaves it unlocked
		s, err := Open(dir, nil)
		if err == nil {
			s.Close()
			t.Fatal("Open succeeded on a file from a newer version")
		}
		if !errors.Is(err, ErrNewerVersion) {
			t.Fatalf("Open: %v, want ErrNewerVersion", err)
		}
		if errors.Is(err, ErrCorrupt) {
			t.Errorf("Open: %v; a newer file is not a damaged one", err)
		}
		for _, want := range []string{path, "newer version of Gatehouse", "left untouched"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("message %q does not contain %q", err, want)
			}
		}
	}
	assertUnchanged(t, path, before)
}

func TestMigrationSteps(t *testing.T) {
	errStep := errors.New("step failed")
	tests := []struct {
		name string
		step func(tx *bbolt.Tx) error
		// wantErr is nil when the upgrade should succeed.
		wantErr error
	}{
		{
			name: "a new step runs once and the new version is recorded",
			step: func(tx *bbolt.Tx) error {
				_, err := tx.CreateBucket([]byte("added"))
				return err // fails if run twice
			},
		},
		{
			name:    "a failing step leaves the file as it was",
			step:    func(tx *bbolt.Tx) error { return errStep },
			wantErr: errStep,
		},
		{
			name: "a step that fails after writing leaves the file as it was",
			step: func(tx *bbolt.Tx) error {
				b, err := tx.CreateBucket([]byte("half"))
				if err != nil {
					return err
				}
				if err := b.Put([]byte("k"), []byte(`"v"`)); err != nil {
					return err
				}
				return errStep
			},
			wantErr: errStep,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := withServers(t, 3)
			path := filepath.Join(dir, FileName)
			before := takeSnapshot(t, path)
			oldVersion := schemaVersion()
			withExtraStep(t, tc.step)

			s, err := Open(dir, nil)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Open = %v, want %v", err, tc.wantErr)
				}
				assertUnchanged(t, path, before)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if v := rawVersion(t, dir); v != oldVersion+1 {
				t.Errorf("version = %d, want %d", v, oldVersion+1)
			}
			s = openT(t, dir) // would fail if the step ran again
			if all, err := s.Servers(); err != nil || len(all) != 3 {
				t.Errorf("servers after upgrade: %d, %v; want 3", len(all), err)
			}
		})
	}
}

// withExtraStep appends step to the migrations for the rest of the test.
func withExtraStep(t *testing.T, step func(tx *bbolt.Tx) error) {
	old := migrations
	migrations = append(slices.Clip(old), step)
	t.Cleanup(func() { migrations = old })
}

// buildVersion3 writes a file as version 3 left it: servers, settings, an
// elicitation policy, two history entries, and a sign-in token kept in the
// file under the bare server ID.
func buildVersion3(tx *bbolt.Tx) error {
	if err := buildVersion1(tx); err != nil {
		return err
	}
	records := []struct {
		bucket, key []byte
		value       string
	}{
		{bucketMeta, keyVersion, `3`},
		{bucketPolicies, []byte("s1"), `{"mode":"decline"}`},
		{bucketHistory, historyKey(1), `{"id":1,"time":"2025-01-02T03:04:07Z","serverId":"s1","serverName":"first","mode":"form",` +
			`"message":"Your name?","fields":["name"],"outcome":"accepted","detail":"an older sentence","answerMs":1500}`},
		{bucketHistory, historyKey(2), `{"id":2,"time":"2025-01-02T03:05:00Z","serverId":"s2","serverName":"second","mode":"signin",` +
			`"message":"second wants you to sign in at example.com.","url":"https://example.com/authorize","outcome":"accepted","answerMs":900}`},
		{bucketSecrets, []byte("s2"), `{"token":{"access_token":"at-1","refresh_token":"rt-1"},"resource":"http://localhost:1234/mcp"}`},
	}
	for _, r := range records {
		b, err := tx.CreateBucketIfNotExists(r.bucket)
		if err != nil {
			return err
		}
		if err := b.Put(r.key, []byte(r.value)); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketHistory).SetSequence(2)
}

func TestOpenUpgradesVersion3(t *testing.T) {
	dir := t.TempDir()
	rawUpdate(t, dir, buildVersion3)
	if v := rawVersion(t, dir); v != 3 {
		t.Fatalf("built file has version %d, want 3", v)
	}
	s := openT(t, dir)

	all, err := s.Servers()
	if err != nil || len(all) != 2 || all[0].Name != "first" || all[1].Name != "second" {
		t.Errorf("servers after upgrade = %+v, %v", all, err)
	}
	if got, err := s.Settings(); err != nil || got != (Settings{ToolCallTimeout: 90 * time.Second, WindowWidth: 1200}) {
		t.Errorf("settings after upgrade = %+v, %v", got, err)
	}
	if p, err := s.Policy("s1"); err != nil || p.Mode != PolicyDecline {
		t.Errorf("policy after upgrade = %+v, %v", p, err)
	}
	hist, err := s.History(HistoryFilter{})
	if err != nil || len(hist) != 2 {
		t.Fatalf("history after upgrade = %+v, %v", hist, err)
	}
	if hist[0].Mode != "signin" || hist[0].URL != "https://example.com/authorize" || hist[1].Fields[0] != "name" || hist[1].AnswerMs != 1500 {
		t.Errorf("history after upgrade = %+v", hist)
	}
	// A detail written as an English sentence, before it was a message,
	// reads as that text in any language.
	if !reflect.DeepEqual(hist[1].Detail, i18n.Text("an older sentence")) || !hist[0].Detail.IsZero() {
		t.Errorf("details after upgrade = %#v, %#v", hist[1].Detail, hist[0].Detail)
	}
	if e, err := s.AddHistory(HistoryEntry{Outcome: OutcomeAccepted}); err != nil || e.ID != 3 {
		t.Errorf("the next history entry = %d, %v; want ID 3", e.ID, err)
	}

	// The sign-in token is read where sign-ins are now kept, unchanged.
	tok, err := s.Secret(SecretSignIn, "s2")
	want := `{"token":{"access_token":"at-1","refresh_token":"rt-1"},"resource":"http://localhost:1234/mcp"}`
	if err != nil || string(tok) != want {
		t.Errorf("sign-in after upgrade = %s, %v; want %s", tok, err, want)
	}
	if err := s.DeleteServer("s2"); err != nil {
		t.Fatal(err)
	}
	if tok, _ := s.Secret(SecretSignIn, "s2"); tok != nil {
		t.Errorf("removing the server left its upgraded sign-in: %s", tok)
	}

	// The chat's buckets are there.
	prov, err := s.PutProvider(Provider{Name: "Ollama", Kind: ProviderOpenAI, BaseURL: "http://127.0.0.1:11434/v1"})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := s.PutConversation(Conversation{Title: "first chat", ProviderID: prov.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendMessages(conv.ID, Message{Role: RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutToolPolicy("s1", ToolPolicy{Trusted: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if v := rawVersion(t, dir); v != schemaVersion() {
		t.Errorf("version after upgrade = %d, want %d", v, schemaVersion())
	}
	s = openT(t, dir) // the upgraded file passes Open's checks
	if msgs, err := s.Messages(conv.ID); err != nil || len(msgs) != 1 {
		t.Errorf("messages after reopen = %+v, %v", msgs, err)
	}
}

func TestUpgradeMovesEachSignIn(t *testing.T) {
	dir := t.TempDir()
	rawUpdate(t, dir, func(tx *bbolt.Tx) error {
		if err := buildVersion3(tx); err != nil {
			return err
		}
		return tx.Bucket(bucketSecrets).Put([]byte("s1"), []byte(`{"resource":"one"}`))
	})
	s := openT(t, dir)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	rawUpdate(t, dir, func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketSecrets).ForEach(func(k, _ []byte) error {
			keys = append(keys, string(k))
			return nil
		})
	})
	if want := []string{"signin/s1", "signin/s2"}; !slices.Equal(keys, want) {
		t.Errorf("secrets after upgrade are under %q, want %q", keys, want)
	}
}
