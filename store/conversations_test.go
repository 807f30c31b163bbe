package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

func TestPutConversation(t *testing.T) {
	tests := []struct {
		name    string
		put     func(t *testing.T, s *Store, prov Provider, existing Conversation) Conversation
		wantErr error
		wantMsg string
		check   func(t *testing.T, got, existing Conversation)
	}{
		{
			name: "create assigns an id, stamps both times and keeps the settings",
			put: func(_ *testing.T, _ *Store, prov Provider, _ Conversation) Conversation {
				return Conversation{Title: " 周末计划 ", ProviderID: prov.ID, Model: "qwen3:8b", SystemPrompt: "Answer briefly.",
					Servers: []string{"s1", " ", "s2", "s1"}, AllowedTools: []ToolGrant{{ServerID: "s1", Tool: "rm"}}}
			},
			check: func(t *testing.T, got, existing Conversation) {
				if got.ID == "" || got.ID == existing.ID || got.CreatedAt.IsZero() || !got.UpdatedAt.Equal(got.CreatedAt) {
					t.Errorf("id and times = %q %v %v", got.ID, got.CreatedAt, got.UpdatedAt)
				}
				if got.Title != "周末计划" || got.Model != "qwen3:8b" || got.SystemPrompt != "Answer briefly." {
					t.Errorf("fields = %+v", got)
				}
				if !slices.Equal(got.Servers, []string{"s1", "s2"}) {
					t.Errorf("Servers = %q, want blanks and repeats dropped", got.Servers)
				}
				if got.AllowedTools != nil {
					t.Errorf("a new conversation starts with approvals %v; only AllowToolInConversation adds them", got.AllowedTools)
				}
			},
		},
		{
			name: "an empty title is a new conversation's",
			put:  func(*testing.T, *Store, Provider, Conversation) Conversation { return Conversation{} },
		},
		{
			name: "update keeps CreatedAt and the approvals, and moves UpdatedAt",
			put: func(_ *testing.T, _ *Store, _ Provider, existing Conversation) Conversation {
				existing.Title, existing.Model = "renamed", "other-model"
				existing.AllowedTools, existing.CreatedAt = nil, time.Unix(1, 0)
				return existing
			},
			check: func(t *testing.T, got, existing Conversation) {
				if got.ID != existing.ID || !got.CreatedAt.Equal(existing.CreatedAt) || !got.UpdatedAt.After(existing.UpdatedAt) {
					t.Errorf("got %+v, was %+v", got, existing)
				}
				if !reflect.DeepEqual(got.AllowedTools, existing.AllowedTools) || got.Title != "renamed" || got.Model != "other-model" {
					t.Errorf("got %+v", got)
				}
			},
		},
		{
			name: "update of an unknown id is not found",
			put: func(*testing.T, *Store, Provider, Conversation) Conversation {
				return Conversation{ID: "0123456789abcdef"}
			},
			wantErr: ErrNotFound, wantMsg: `conversation "0123456789abcdef": not found`,
		},
		{
			name: "an unknown provider is refused",
			put: func(*testing.T, *Store, Provider, Conversation) Conversation {
				return Conversation{ProviderID: "0123456789abcdef"}
			},
			wantErr: ErrInvalid, wantMsg: `invalid: the conversation's provider "0123456789abcdef" does not exist (was it removed?)`,
		},
		{
			name: "a title of 201 characters is refused",
			put: func(*testing.T, *Store, Provider, Conversation) Conversation {
				return Conversation{Title: strings.Repeat("题", MaxTitleLength+1)}
			},
			wantErr: ErrInvalid, wantMsg: "invalid: the title has 201 characters; at most 200 fit",
		},
		{
			name: "a title of 200 Chinese characters fits",
			put: func(*testing.T, *Store, Provider, Conversation) Conversation {
				return Conversation{Title: strings.Repeat("题", MaxTitleLength)}
			},
		},
		{
			name: "a system prompt over the limit is refused",
			put: func(*testing.T, *Store, Provider, Conversation) Conversation {
				return Conversation{SystemPrompt: strings.Repeat("x", MaxSystemPromptLength+1)}
			},
			wantErr: ErrInvalid,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fakeClock(s)
			prov, err := s.PutProvider(Provider{Name: "Ollama", Kind: ProviderOpenAI})
			if err != nil {
				t.Fatal(err)
			}
			existing, err := s.PutConversation(Conversation{Title: "existing", ProviderID: prov.ID})
			if err != nil {
				t.Fatal(err)
			}
			if existing, err = s.AllowToolInConversation(existing.ID, ToolGrant{ServerID: "s1", Tool: "echo"}); err != nil {
				t.Fatal(err)
			}
			got, err := s.PutConversation(tc.put(t, s, prov, existing))
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("PutConversation = %v, want %v", err, tc.wantErr)
			}
			if tc.wantMsg != "" && (err == nil || err.Error() != tc.wantMsg) {
				t.Errorf("error = %v, want %q", err, tc.wantMsg)
			}
			if err != nil {
				if read, _ := s.Conversation(existing.ID); !reflect.DeepEqual(read, existing) {
					t.Errorf("a refused put changed %+v to %+v", existing, read)
				}
				return
			}
			if read, err := s.Conversation(got.ID); err != nil || !reflect.DeepEqual(read, got) {
				t.Errorf("read back %+v, %v; PutConversation returned %+v", read, err, got)
			}
			if tc.check != nil {
				tc.check(t, got, existing)
			}
		})
	}
}

func TestRenameConversation(t *testing.T) {
	s := openT(t, t.TempDir())
	fakeClock(s)
	conv, err := s.PutConversation(Conversation{Title: "New conversation", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := s.RenameConversation(conv.ID, "  Trip to 杭州 ")
	if err != nil || renamed.Title != "Trip to 杭州" || renamed.Model != "m" || !renamed.UpdatedAt.After(conv.UpdatedAt) {
		t.Errorf("RenameConversation = %+v, %v", renamed, err)
	}
	if _, err := s.RenameConversation(conv.ID, strings.Repeat("x", MaxTitleLength+1)); !errors.Is(err, ErrInvalid) {
		t.Errorf("a long title = %v, want ErrInvalid", err)
	}
	if _, err := s.RenameConversation("nope", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("renaming an unknown conversation = %v, want ErrNotFound", err)
	}
}

func TestConversationsLatestFirstInPages(t *testing.T) {
	s := openT(t, t.TempDir())
	fakeClock(s)
	var ids []string // oldest first
	for i := range 7 {
		c, err := s.PutConversation(Conversation{Title: fmt.Sprint("c", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	// A message, a rename and a dropped message each bring a conversation
	// to the top.
	if _, err := s.AppendMessages(ids[2], Message{Role: RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RenameConversation(ids[0], "c0 renamed"); err != nil {
		t.Fatal(err)
	}
	titles := func(list []Conversation) string {
		var out []string
		for _, c := range list {
			out = append(out, c.Title)
		}
		return strings.Join(out, ",")
	}
	all, err := s.Conversations(ConversationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := titles(all), "c0 renamed,c2,c6,c5,c4,c3,c1"; got != want {
		t.Fatalf("Conversations() = %s, want %s", got, want)
	}

	tests := []struct {
		name   string
		filter ConversationFilter
		want   string
	}{
		{"a limit gives the latest", ConversationFilter{Limit: 3}, "c0 renamed,c2,c6"},
		{"a page after the first", ConversationFilter{Limit: 3, Older: &all[2]}, "c5,c4,c3"},
		{"the last page is short", ConversationFilter{Limit: 3, Older: &all[5]}, "c1"},
		{"nothing after the oldest", ConversationFilter{Older: &all[6]}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Conversations(tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			if titles(got) != tc.want {
				t.Errorf("got %s, want %s", titles(got), tc.want)
			}
		})
	}
	// A conversation deleted meanwhile still marks the place of the page.
	if err := s.DeleteConversation(all[2].ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Conversations(ConversationFilter{Limit: 2, Older: &all[2]}); err != nil || titles(got) != "c5,c4" {
		t.Errorf("the page after a deleted conversation = %s, %v; want c5,c4", titles(got), err)
	}
}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// dump returns every record of the data file by its path, bucket names
// and key joined by "/", with the sequence of every bucket.
func dump(t *testing.T, s *Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(prefix string, b *bbolt.Bucket) error
	walk = func(prefix string, b *bbolt.Bucket) error {
		out[prefix+"#sequence"] = fmt.Sprint(b.Sequence())
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(prefix+string(k)+"/", b.Bucket(k))
			}
			out[prefix+string(k)] = string(v)
			return nil
		})
	}
	if err := s.db.View(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bbolt.Bucket) error { return walk(string(name)+"/", b) })
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDeleteConversationDeletesItsMessagesAndNothingElse(t *testing.T) {
	s := openT(t, t.TempDir())
	srv, err := s.PutServer(Server{Name: "Files", Transport: TransportHTTP, HTTP: &HTTPConfig{URL: "http://127.0.0.1:9/mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	prov, err := s.PutProvider(Provider{Name: "Ollama", Kind: ProviderOpenAI})
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		s.PutSecret(SecretSignIn, srv.ID, []byte(`{"token":"t"}`)),
		s.PutSecret(SecretAPIKey, prov.ID, []byte("sk-1")),
		s.PutToolPolicy(srv.ID, ToolPolicy{Mode: ToolAllow}),
		s.PutSettings(Settings{DefaultProviderID: prov.ID}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AddHistory(HistoryEntry{ServerID: srv.ID, Mode: "tool-call", Tool: "read", Outcome: OutcomeAccepted}); err != nil {
		t.Fatal(err)
	}
	var convs []Conversation
	for i := range 3 {
		c, err := s.PutConversation(Conversation{Title: fmt.Sprint("chat ", i), ProviderID: prov.ID})
		if err != nil {
			t.Fatal(err)
		}
		msgs := make([]Message, 20+i)
		for j := range msgs {
			msgs[j] = Message{Role: RoleUser, Text: fmt.Sprintf("chat %d message %d %s", i, j, strings.Repeat("x", 500))}
		}
		if _, err := s.AppendMessages(c.ID, msgs...); err != nil {
			t.Fatal(err)
		}
		convs = append(convs, c)
	}
	gone, err := s.Conversation(convs[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	before := dump(t, s)

	if err := s.DeleteConversation(gone.ID); err != nil {
		t.Fatal(err)
	}
	after := dump(t, s)

	want := map[string]string{}
	for path, v := range before {
		switch {
		case path == "conversations/"+gone.ID,
			path == "recent/"+string(recentKey(gone.UpdatedAt, gone.ID)),
			strings.HasPrefix(path, "messages/"+gone.ID+"/"):
			continue
		}
		want[path] = v
	}
	if len(want) >= len(before)-20 {
		t.Fatalf("the test removes only %d of %d records", len(before)-len(want), len(before))
	}
	if !reflect.DeepEqual(after, want) {
		for path := range before {
			if _, w := want[path]; w != (after[path] != "" || path[len(path)-1] == '#') {
				t.Errorf("%s: kept %v, want kept %v", path, !w, w)
			}
		}
		t.Fatalf("after the delete the file holds %d records, want %d", len(after), len(want))
	}
	if _, err := s.Messages(gone.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Messages of the deleted conversation = %v, want ErrNotFound", err)
	}
	if err := s.DeleteConversation(gone.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting it again = %v, want ErrNotFound", err)
	}
	list, _ := s.Conversations(ConversationFilter{})
	if len(list) != 2 || list[0].ID != convs[2].ID || list[1].ID != convs[0].ID {
		t.Errorf("conversations left = %+v", list)
	}
}

func TestUnreadableConversationRecords(t *testing.T) {
	tests := []struct {
		name string
		// damage edits the file holding conversations a and b, with two
		// messages each.
		damage func(tx *bbolt.Tx, a, b Conversation) error
		// check sees the reopened store.
		check func(t *testing.T, s *Store, a, b Conversation)
	}{
		{
			name: "a message that is not JSON fails its conversation only, which can be deleted",
			damage: func(tx *bbolt.Tx, a, _ Conversation) error {
				return tx.Bucket(bucketMessages).Bucket([]byte(a.ID)).Put(messageKey(2), []byte(`{"role":"user","text":"cut`))
			},
			check: func(t *testing.T, s *Store, a, b Conversation) {
				_, err := s.Messages(a.ID)
				want := fmt.Sprintf("messages/%s/2: unexpected end of JSON input", a.ID)
				if err == nil || err.Error() != want {
					t.Errorf("Messages = %v, want %q", err, want)
				}
				if msgs, err := s.Messages(b.ID); err != nil || len(msgs) != 2 {
					t.Errorf("the other conversation: %d messages, %v", len(msgs), err)
				}
				if _, err := s.SearchConversations("cut", 0); err == nil || !strings.Contains(err.Error(), a.ID) {
					t.Errorf("a search that reaches it = %v, want an error naming it", err)
				}
				if err := s.DeleteConversation(a.ID); err != nil {
					t.Errorf("DeleteConversation: %v", err)
				}
				if hits, err := s.SearchConversations("cut", 0); err != nil || len(hits) != 0 {
					t.Errorf("search after the delete = %+v, %v", hits, err)
				}
			},
		},
		{
			name: "a message of the wrong shape names itself, and replacing it mends it",
			damage: func(tx *bbolt.Tx, a, _ Conversation) error {
				return tx.Bucket(bucketMessages).Bucket([]byte(a.ID)).Put(messageKey(1), []byte(`{"seq":1,"role":7}`))
			},
			check: func(t *testing.T, s *Store, a, _ Conversation) {
				_, err := s.Messages(a.ID)
				if err == nil || !strings.HasPrefix(err.Error(), "messages/"+a.ID+"/1: json: cannot unmarshal number") {
					t.Errorf("Messages = %v", err)
				}
				if _, err := s.UpdateMessage(Message{ConversationID: a.ID, Seq: 1, Role: RoleUser, Text: "mended"}); err != nil {
					t.Fatal(err)
				}
				if msgs, err := s.Messages(a.ID); err != nil || msgs[0].Text != "mended" {
					t.Errorf("after mending: %+v, %v", msgs, err)
				}
			},
		},
		{
			name: "a conversation of the wrong shape names itself and can be deleted",
			damage: func(tx *bbolt.Tx, a, _ Conversation) error {
				return tx.Bucket(bucketConversations).Put([]byte(a.ID), []byte(`{"id":"`+a.ID+`","title":["x"]}`))
			},
			check: func(t *testing.T, s *Store, a, b Conversation) {
				_, err := s.Conversation(a.ID)
				want := fmt.Sprintf("conversations/%s: json: cannot unmarshal array into Go struct field Conversation.title of type string", a.ID)
				if err == nil || err.Error() != want {
					t.Errorf("Conversation = %v\nwant %q", err, want)
				}
				if _, err := s.Conversations(ConversationFilter{}); err == nil || !strings.Contains(err.Error(), a.ID) {
					t.Errorf("Conversations = %v, want an error naming it", err)
				}
				if err := s.DeleteConversation(a.ID); err != nil {
					t.Fatal(err)
				}
				if list, err := s.Conversations(ConversationFilter{}); err != nil || len(list) != 1 || list[0].ID != b.ID {
					t.Errorf("after deleting it: %+v, %v", list, err)
				}
			},
		},
		{
			name: "a message stored under another seq is refused",
			damage: func(tx *bbolt.Tx, a, _ Conversation) error {
				return tx.Bucket(bucketMessages).Bucket([]byte(a.ID)).Put(messageKey(2),
					[]byte(`{"conversationId":"`+a.ID+`","seq":1,"role":"user"}`))
			},
			check: func(t *testing.T, s *Store, a, _ Conversation) {
				_, err := s.Messages(a.ID)
				want := fmt.Sprintf("message 2 of conversation %q is stored as message 1 of %q", a.ID, a.ID)
				if err == nil || err.Error() != want {
					t.Errorf("Messages = %v, want %q", err, want)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openT(t, dir)
			var convs []Conversation
			for _, title := range []string{"a", "b"} {
				c, err := s.PutConversation(Conversation{Title: title})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.AppendMessages(c.ID, Message{Role: RoleUser, Text: "q"}, Message{Role: RoleAssistant, Text: "r"}); err != nil {
					t.Fatal(err)
				}
				if c, err = s.Conversation(c.ID); err != nil {
					t.Fatal(err)
				}
				convs = append(convs, c)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			rawUpdate(t, dir, func(tx *bbolt.Tx) error { return tc.damage(tx, convs[0], convs[1]) })
			tc.check(t, openT(t, dir), convs[0], convs[1])
		})
	}
}

// TestOpenRefusesDamagedChatRecords: records Open decodes, or checks the
// shape of, are refused with the record named, and the file is left as it
// was.
func TestOpenRefusesDamagedChatRecords(t *testing.T) {
	tests := []struct {
		name   string
		damage func(tx *bbolt.Tx, conv Conversation) error
		want   string // in the message, after the file's name
	}{
		{"a provider that is not JSON", func(tx *bbolt.Tx, _ Conversation) error {
			return tx.Bucket(bucketProviders).Put([]byte("p1"), []byte(`{"id":"p1","name":`))
		}, "(providers/p1: unexpected end of JSON input)"},
		{"a provider stored under another provider's id", func(tx *bbolt.Tx, _ Conversation) error {
			return tx.Bucket(bucketProviders).Put([]byte("p1"), []byte(`{"id":"p2","name":"x","kind":"openai"}`))
		}, `(provider stored under "p1" has id "p2")`},
		{"a tool-call policy that is not JSON", func(tx *bbolt.Tx, _ Conversation) error {
			return tx.Bucket(bucketToolPolicies).Put([]byte("s1"), []byte(`allow`))
		}, "(toolpolicies/s1: invalid character 'a' looking for beginning of value)"},
		{"a conversation that is not JSON", func(tx *bbolt.Tx, conv Conversation) error {
			return tx.Bucket(bucketConversations).Put([]byte(conv.ID), []byte(`{"id":"`))
		}, "(conversations/CONV: not a JSON record)"},
		{"a conversation missing from the list", func(tx *bbolt.Tx, conv Conversation) error {
			return tx.Bucket(bucketRecent).Delete(recentKey(conv.UpdatedAt, conv.ID))
		}, "(recent: 0 entries for 1 conversations)"},
		{"the list naming a conversation that is not there", func(tx *bbolt.Tx, _ Conversation) error {
			return tx.Bucket(bucketRecent).Put(recentKey(time.Unix(5, 0), "gone"), nil)
		}, "(recent: an entry 000000012a05f200676f6e65 that names no conversation)"},
		{"messages of a conversation that is not there", func(tx *bbolt.Tx, _ Conversation) error {
			_, err := tx.Bucket(bucketMessages).CreateBucket([]byte("gone"))
			return err
		}, "(messages/gone: messages of a conversation that does not exist)"},
		{"a message under a key that is not a seq", func(tx *bbolt.Tx, conv Conversation) error {
			return tx.Bucket(bucketMessages).Bucket([]byte(conv.ID)).Put([]byte("1"), []byte(`{}`))
		}, "(messages/CONV: a record under key 31, which is not a message's)"},
		{"a secret of no known kind", func(tx *bbolt.Tx, _ Conversation) error {
			return tx.Bucket(bucketSecrets).Put([]byte("password/s1"), []byte(`x`))
		}, "(secrets: a key that names no kind of secret)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openT(t, dir)
			conv, err := s.PutConversation(Conversation{Title: "chat"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.AppendMessages(conv.ID, Message{Role: RoleUser, Text: "hi"}); err != nil {
				t.Fatal(err)
			}
			if conv, err = s.Conversation(conv.ID); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			rawUpdate(t, dir, func(tx *bbolt.Tx) error { return tc.damage(tx, conv) })
			before := takeSnapshot(t, s.Path())

			_, err = Open(dir, nil)
			want := "the data file " + s.Path() + " is damaged and was left untouched " + strings.ReplaceAll(tc.want, "CONV", conv.ID)
			if !errors.Is(err, ErrCorrupt) || err.Error() != want {
				t.Errorf("Open = %v\nwant %s", err, want)
			}
			assertUnchanged(t, s.Path(), before)
		})
	}
}
