package store

// The messages of a conversation: appending, reading (whole and by page),
// updating, dropping tool results and cutting large ones.

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.etcd.io/bbolt"
)

func TestMessagesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	fakeClock(s)
	conv, err := s.PutConversation(Conversation{Title: "weather"})
	if err != nil {
		t.Fatal(err)
	}
	in := []Message{
		{Role: RoleSystem, Text: "You are terse."},
		{Role: RoleUser, Text: "杭州明天天气怎么样？"},
		{Role: RoleAssistant, Reasoning: "The user asks about Hangzhou; call the weather tool.",
			ProviderData: json.RawMessage(`{"signature":"c2ln"}`),
			ToolCalls: []ToolCall{{ID: "call_1", Name: "weather__forecast", ServerID: "s1", Tool: "forecast",
				Arguments: json.RawMessage(`{"city":"杭州","days":1}`)}},
			Usage: &Usage{Input: 812, Output: 40}},
		{Role: RoleTool, ToolCallID: "call_1", ToolResult: &ToolResult{
			Content: json.RawMessage(`{"content":[{"type":"text","text":"晴，25°C"}]}`)}},
		{Role: RoleTool, ToolCallID: "call_2", ToolResult: &ToolResult{Denied: true,
			Content: json.RawMessage(`"The person denied this call."`)}},
		{Role: RoleAssistant, Text: "明天晴，25°C。", Usage: &Usage{Input: 900, Output: 12}},
		{Role: RoleAssistant, Error: "The API key was refused."},
	}
	stored, err := s.AppendMessages(conv.ID, in...)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openT(t, dir)
	got, err := s.Messages(conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, stored) {
		t.Errorf("read back:\n%+v\nAppendMessages returned:\n%+v", got, stored)
	}
	for i, m := range got {
		want := in[i]
		want.ConversationID, want.Seq, want.CreatedAt = conv.ID, uint64(i+1), m.CreatedAt
		if !reflect.DeepEqual(m, want) {
			t.Errorf("message %d = %+v\nwant %+v", i, m, want)
		}
		if m.CreatedAt.IsZero() {
			t.Errorf("message %d has no CreatedAt", i)
		}
	}
}

func TestThousandMessagesInOrder(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	conv, err := s.PutConversation(Conversation{Title: "long"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.PutConversation(Conversation{Title: "other"})
	if err != nil {
		t.Fatal(err)
	}
	text := func(i int) string { return fmt.Sprintf("message %d: %s", i, strings.Repeat("话", i%50)) }
	// In batches of varying size, as turns add them, interleaved with
	// another conversation.
	for i := 0; i < 1000; {
		n := min(1+i%13, 1000-i)
		batch := make([]Message, n)
		for j := range batch {
			batch[j] = Message{Role: []string{RoleUser, RoleAssistant}[(i+j)%2], Text: text(i + j)}
		}
		got, err := s.AppendMessages(conv.ID, batch...)
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Seq != uint64(i+1) {
			t.Fatalf("batch at %d starts with Seq %d", i, got[0].Seq)
		}
		if _, err := s.AppendMessages(other.ID, Message{Role: RoleUser, Text: "x"}); err != nil {
			t.Fatal(err)
		}
		i += n
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openT(t, dir)
	got, err := s.Messages(conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1000 {
		t.Fatalf("%d messages, want 1000", len(got))
	}
	for i, m := range got {
		if m.Seq != uint64(i+1) || m.Text != text(i) || m.ConversationID != conv.ID {
			t.Fatalf("message %d = seq %d %q", i, m.Seq, m.Text)
		}
	}
}

func TestAppendMessagesRefusesBadMessages(t *testing.T) {
	tests := []struct {
		name    string
		msgs    []Message
		wantMsg string
	}{
		{"an unknown role", []Message{{Role: "developer", Text: "x"}},
			`message 1 of 1: invalid: unknown message role "developer"`},
		{"a tool result without its call's ID", []Message{{Role: RoleTool, ToolResult: &ToolResult{}}},
			"message 1 of 1: invalid: a tool message needs the ID of the tool call it answers"},
		{"arguments that are not JSON", []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Arguments: json.RawMessage(`{"city":`)}}}},
			`message 1 of 1: invalid: the arguments of tool call "c1" are not JSON`},
		{"a result that is not JSON", []Message{{Role: RoleTool, ToolCallID: "c1", ToolResult: &ToolResult{Content: json.RawMessage(`sunny`)}}},
			`message 1 of 1: invalid: the result of tool call "c1" is not JSON`},
		{"provider data that is not JSON", []Message{{Role: RoleAssistant, ProviderData: json.RawMessage(`{`)}},
			"message 1 of 1: invalid: the provider data of the message is not JSON"},
		{"one bad message among good ones stores none", []Message{{Role: RoleUser, Text: "a"}, {Role: "", Text: "b"}},
			`message 2 of 2: invalid: unknown message role ""`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			conv, err := s.PutConversation(Conversation{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.AppendMessages(conv.ID, tc.msgs...)
			if !errors.Is(err, ErrInvalid) || err.Error() != tc.wantMsg {
				t.Errorf("AppendMessages = %v, want %q", err, tc.wantMsg)
			}
			if got, _ := s.Messages(conv.ID); len(got) != 0 {
				t.Errorf("a refused append stored %+v", got)
			}
			if got, err := s.AppendMessages(conv.ID, Message{Role: RoleUser}); err != nil || got[0].Seq != 1 {
				t.Errorf("the next message = %+v, %v; want Seq 1", got, err)
			}
		})
	}
	s := openT(t, t.TempDir())
	if _, err := s.AppendMessages("0123456789abcdef", Message{Role: RoleUser}); !errors.Is(err, ErrNotFound) {
		t.Errorf("appending to an unknown conversation = %v, want ErrNotFound", err)
	}
}

func TestUpdateMessage(t *testing.T) {
	s := openT(t, t.TempDir())
	fakeClock(s)
	conv, err := s.PutConversation(Conversation{})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.AppendMessages(conv.ID,
		Message{Role: RoleUser, Text: "read the file"},
		Message{Role: RoleTool, ToolCallID: "c1", ToolResult: &ToolResult{Content: json.RawMessage(`{"content":[]}`)}},
		Message{Role: RoleAssistant, Text: "done"})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := s.Conversation(conv.ID)

	drop := stored[1]
	drop.Dropped = true
	drop.CreatedAt = time.Unix(1, 0)
	got, err := s.UpdateMessage(drop)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Dropped || !got.CreatedAt.Equal(stored[1].CreatedAt) || got.ToolCallID != "c1" {
		t.Errorf("UpdateMessage = %+v", got)
	}
	all, _ := s.Messages(conv.ID)
	if len(all) != 3 || !all[1].Dropped || all[0].Dropped || all[2].Dropped {
		t.Errorf("after dropping message 2: %+v", all)
	}
	if after, _ := s.Conversation(conv.ID); !after.UpdatedAt.After(before.UpdatedAt) {
		t.Errorf("UpdatedAt = %v, was %v; want it moved", after.UpdatedAt, before.UpdatedAt)
	}

	tests := []struct {
		name string
		m    Message
		want error
	}{
		{"an unknown seq", Message{ConversationID: conv.ID, Seq: 9, Role: RoleUser}, ErrNotFound},
		{"seq 0", Message{ConversationID: conv.ID, Role: RoleUser}, ErrNotFound},
		{"an unknown conversation", Message{ConversationID: "0123456789abcdef", Seq: 1, Role: RoleUser}, ErrNotFound},
		{"an unknown role", Message{ConversationID: conv.ID, Seq: 1, Role: "x"}, ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.UpdateMessage(tc.m); !errors.Is(err, tc.want) {
				t.Errorf("UpdateMessage = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestDropToolResults(t *testing.T) {
	// Two turns with a tool call each; the person then drops the results
	// before their last message.
	turns := []Message{
		{Role: RoleUser, Text: "读一下文件"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", ServerID: "s1", Tool: "read", Arguments: json.RawMessage(`{}`)}}},
		{Role: RoleTool, ToolCallID: "c1", ToolResult: &ToolResult{Content: json.RawMessage(`"第一个结果"`)}},
		{Role: RoleAssistant, Text: "读好了。", ToolCalls: []ToolCall{{ID: "c1b", ServerID: "s1", Tool: "delete"}}},
		{Role: RoleTool, ToolCallID: "c1b", ToolResult: &ToolResult{Content: json.RawMessage(`"The person denied this call."`), Denied: true}},
		{Role: RoleUser, Text: "再读一次"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c2", ServerID: "s1", Tool: "read", Arguments: json.RawMessage(`{}`)}}},
		{Role: RoleTool, ToolCallID: "c2", ToolResult: &ToolResult{Content: json.RawMessage(`"第二个结果"`)}},
	}
	cases := []struct {
		name        string
		before      uint64
		wantCount   int
		wantDropped []uint64
	}{
		{"results before the last message of the person are dropped, later ones and denials kept", 6, 1, []uint64{3}},
		{"before the first message nothing is dropped", 1, 0, nil},
		{"past the end every result but the denial is dropped", 100, 2, []uint64{3, 8}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fakeClock(s)
			conv, err := s.PutConversation(Conversation{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.AppendMessages(conv.ID, turns...); err != nil {
				t.Fatal(err)
			}
			before, _ := s.Conversation(conv.ID)
			n, err := s.DropToolResults(conv.ID, tc.before)
			if err != nil || n != tc.wantCount {
				t.Fatalf("DropToolResults = %d, %v; want %d", n, err, tc.wantCount)
			}
			msgs, _ := s.Messages(conv.ID)
			var dropped []uint64
			for _, m := range msgs {
				if m.Dropped {
					dropped = append(dropped, m.Seq)
					if m.ToolResult == nil || !strings.Contains(string(m.ToolResult.Content), "结果") {
						t.Errorf("dropped message %d lost its result: %+v", m.Seq, m.ToolResult)
					}
				}
			}
			if !slices.Equal(dropped, tc.wantDropped) {
				t.Errorf("dropped %v, want %v", dropped, tc.wantDropped)
			}
			after, _ := s.Conversation(conv.ID)
			if moved := after.UpdatedAt.After(before.UpdatedAt); moved != (tc.wantCount > 0) {
				t.Errorf("UpdatedAt moved = %v, want %v", moved, tc.wantCount > 0)
			}
			// Dropping again drops nothing more.
			if n, err := s.DropToolResults(conv.ID, tc.before); err != nil || n != 0 {
				t.Errorf("dropping again = %d, %v; want 0", n, err)
			}
		})
	}
	s := openT(t, t.TempDir())
	if _, err := s.DropToolResults("0123456789abcdef", 10); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown conversation = %v, want ErrNotFound", err)
	}
}

func TestLargeMessagesAreCutWithANote(t *testing.T) {
	// A result of 2 MB: a list of rows as a server might return.
	var rows []string
	for i := 0; len(rows)*60 < 2<<20; i++ {
		rows = append(rows, fmt.Sprintf(`{"id":%d,"name":"row %d","note":"<b>&\"quoted\"</b>"}`, i, i))
	}
	bigResult := `{"content":[{"type":"text","text":` + mustJSON(strings.Join(rows, "\n")) + `}]}`
	bigChinese := strings.Repeat("长文本", 150_000) // 1.35 MB of three-byte characters

	tests := []struct {
		name string
		msg  Message
		// check sees the stored message.
		check func(t *testing.T, m Message)
	}{
		{
			name: "a message under the limit is kept whole",
			msg:  Message{Role: RoleUser, Text: strings.Repeat("a", MaxMessageBytes/2)},
			check: func(t *testing.T, m Message) {
				if m.Truncated != "" || len(m.Text) != MaxMessageBytes/2 {
					t.Errorf("Truncated = %q, text %d bytes", m.Truncated, len(m.Text))
				}
			},
		},
		{
			name: "a huge tool result is cut to a JSON string of its start, with a note",
			msg:  Message{Role: RoleTool, ToolCallID: "c1", Text: "summary kept", ToolResult: &ToolResult{Content: json.RawMessage(bigResult)}},
			check: func(t *testing.T, m Message) {
				var start string
				if err := json.Unmarshal(m.ToolResult.Content, &start); err != nil {
					t.Fatalf("the cut result is not a JSON string: %v", err)
				}
				if !strings.HasPrefix(bigResult, start) || len(start) < MaxMessageBytes/4 {
					t.Errorf("the kept %d bytes are not the result's start", len(start))
				}
				want := fmt.Sprintf("The tool result was cut from %s to the first %s bytes: a stored message holds at most 1 MiB.",
					groupDigits(len(bigResult)), groupDigits(len(start)))
				if m.Truncated != want {
					t.Errorf("Truncated = %q\nwant %q", m.Truncated, want)
				}
				if m.Text != "summary kept" {
					t.Errorf("a small part was cut too: %q", m.Text)
				}
			},
		},
		{
			name: "huge Chinese text is cut between characters",
			msg:  Message{Role: RoleAssistant, Text: bigChinese},
			check: func(t *testing.T, m Message) {
				if !utf8.ValidString(m.Text) || !strings.HasPrefix(bigChinese, m.Text) || len(m.Text) < MaxMessageBytes/2 {
					t.Errorf("kept %d bytes, valid UTF-8 %v", len(m.Text), utf8.ValidString(m.Text))
				}
				if !strings.HasPrefix(m.Truncated, "The text was cut from 1,350,000 to the first ") {
					t.Errorf("Truncated = %q", m.Truncated)
				}
			},
		},
		{
			name: "the largest parts are cut first, and each cut is told",
			msg: Message{Role: RoleAssistant, Text: strings.Repeat("t", 100_000), Reasoning: strings.Repeat("r", 1_200_000),
				ToolCalls: []ToolCall{{ID: "c9", Arguments: json.RawMessage(mustJSON(map[string]string{"data": strings.Repeat("a", 900_000)}))}},
				Truncated: "The provider's stream was cut off."},
			check: func(t *testing.T, m Message) {
				if m.Text != strings.Repeat("t", 100_000) {
					t.Errorf("the smallest part was cut")
				}
				var args string
				if err := json.Unmarshal(m.ToolCalls[0].Arguments, &args); err != nil {
					t.Fatalf("the cut arguments are not a JSON string: %v", err)
				}
				// Cut to one stored length: the arguments' quotes are escaped.
				reasoning, stored := jsonStringLen(m.Reasoning), len(m.ToolCalls[0].Arguments)
				if reasoning-stored > 6 || stored-reasoning > 6 || len(args) < 400_000 {
					t.Errorf("stored %d bytes of reasoning and %d of arguments; want the two largest cut to one length", reasoning, stored)
				}
				for _, want := range []string{"The provider's stream was cut off. ", "The reasoning was cut from 1,200,000",
					`The arguments of tool call "c9" were cut from 900,011`} {
					if !strings.Contains(m.Truncated, want) {
						t.Errorf("Truncated = %q, want it to contain %q", m.Truncated, want)
					}
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openT(t, dir)
			conv, err := s.PutConversation(Conversation{})
			if err != nil {
				t.Fatal(err)
			}
			stored, err := s.AppendMessages(conv.ID, tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			read, err := s.Messages(conv.ID)
			if err != nil || len(read) != 1 || !reflect.DeepEqual(read[0], stored[0]) {
				t.Fatalf("read back differs from what AppendMessages returned (%v)", err)
			}
			tc.check(t, read[0])
			if size := rawMessageSize(t, s, conv.ID, 1); size > MaxMessageBytes {
				t.Errorf("the stored record is %d bytes, over %d", size, MaxMessageBytes)
			}
			// UpdateMessage bounds the same way.
			again := read[0]
			again.Text += bigChinese
			updated, err := s.UpdateMessage(again)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(updated.Truncated, "The text was cut") {
				t.Errorf("after a huge update, Truncated = %q", updated.Truncated)
			}
			if size := rawMessageSize(t, s, conv.ID, 1); size > MaxMessageBytes {
				t.Errorf("the updated record is %d bytes, over %d", size, MaxMessageBytes)
			}
		})
	}
}

// rawMessageSize is the size of the stored record of a message.
func rawMessageSize(t *testing.T, s *Store, convID string, seq uint64) int {
	t.Helper()
	var n int
	if err := s.db.View(func(tx *bbolt.Tx) error {
		n = len(tx.Bucket(bucketMessages).Bucket([]byte(convID)).Get(messageKey(seq)))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestJSONStringLen(t *testing.T) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "<b>&</b>", "tab\tnew\nline\r", "\x00\x01\x1f\b\f",
		"中文 ünïcödé 😀", "bad \xff\xfe utf8", "line\u2028sep\u2029", strings.Repeat("<&>", 100)} {
		enc, _ := json.Marshal(s)
		if got := jsonStringLen(s); got < len(enc) || got > len(enc)+8 {
			t.Errorf("jsonStringLen(%q) = %d; encoding/json writes %d bytes", s, got, len(enc))
		}
		for budget := 2; budget <= len(enc); budget++ {
			n := prefixWithin(s, budget)
			if got, _ := json.Marshal(s[:n]); len(got) > budget {
				t.Fatalf("prefixWithin(%q, %d) = %d, which encodes in %d bytes", s, budget, n, len(got))
			}
		}
	}
}

func TestMessagePage(t *testing.T) {
	s := openT(t, t.TempDir())
	conv, err := s.PutConversation(Conversation{Title: "paged"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.PutConversation(Conversation{Title: "other"})
	if err != nil {
		t.Fatal(err)
	}
	empty, err := s.PutConversation(Conversation{Title: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	// Five turns of four messages: the person's at Seq 1, 5, 9, 13 and 17.
	for turn := range 5 {
		id := fmt.Sprintf("call_%d", turn)
		if _, err := s.AppendMessages(conv.ID,
			Message{Role: RoleUser, Text: fmt.Sprintf("question %d", turn)},
			Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: id, Name: "t", ServerID: "s1", Tool: "t"}}},
			Message{Role: RoleTool, ToolCallID: id, ToolResult: &ToolResult{Content: json.RawMessage(`"ok"`)}},
			Message{Role: RoleAssistant, Text: fmt.Sprintf("answer %d", turn)},
		); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AppendMessages(other.ID, Message{Role: RoleUser, Text: "elsewhere"}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name                string
		conv                string
		from, before        uint64
		limit               int
		wantFirst, wantLast uint64 // 0, 0: none
		wantMore            bool
		wantErr             error
	}{
		{name: "all", conv: conv.ID, wantFirst: 1, wantLast: 20},
		{name: "the newest turn", conv: conv.ID, limit: 4, wantFirst: 17, wantLast: 20, wantMore: true},
		{name: "a page cut inside a turn goes back to its question", conv: conv.ID, limit: 3, wantFirst: 17, wantLast: 20, wantMore: true},
		{name: "an older page", conv: conv.ID, before: 17, limit: 2, wantFirst: 13, wantLast: 16, wantMore: true},
		{name: "stretched back by at most limit", conv: conv.ID, limit: 1, wantFirst: 19, wantLast: 20, wantMore: true},
		{name: "the oldest page", conv: conv.ID, before: 5, limit: 10, wantFirst: 1, wantLast: 4},
		{name: "before past the end", conv: conv.ID, before: 100, wantFirst: 1, wantLast: 20},
		{name: "before the first", conv: conv.ID, before: 1, limit: 10},
		{name: "from a message on (read again after a turn)", conv: conv.ID, from: 9, wantFirst: 9, wantLast: 20, wantMore: true},
		{name: "from and before", conv: conv.ID, from: 9, before: 13, wantFirst: 9, wantLast: 12, wantMore: true},
		{name: "a conversation without messages", conv: empty.ID, limit: 10},
		{name: "an unknown conversation", conv: "nope", limit: 10, wantErr: ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page, err := s.MessagePage(tc.conv, tc.from, tc.before, tc.limit)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("MessagePage = %v; want %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			var want []uint64
			for seq := tc.wantFirst; seq != 0 && seq <= tc.wantLast; seq++ {
				want = append(want, seq)
			}
			var got []uint64
			for _, m := range page.Messages {
				got = append(got, m.Seq)
				if m.ConversationID != tc.conv {
					t.Errorf("message %d is of conversation %q", m.Seq, m.ConversationID)
				}
			}
			if !slices.Equal(got, want) || page.More != tc.wantMore {
				t.Errorf("MessagePage(%d, %d, %d) = %v, more %v; want %v, more %v", tc.from, tc.before, tc.limit, got, page.More, want, tc.wantMore)
			}
			if page.Messages == nil {
				t.Error("Messages is nil; want an empty list")
			}
		})
	}
}

// Reading a long conversation page by page, newest first, gives every
// message once, as Messages reads them.
func TestMessagePagesCoverTheConversation(t *testing.T) {
	s := openT(t, t.TempDir())
	conv, err := s.PutConversation(Conversation{Title: "long"})
	if err != nil {
		t.Fatal(err)
	}
	roles := []string{RoleUser, RoleAssistant, RoleAssistant, RoleUser, RoleAssistant, RoleAssistant, RoleAssistant}
	var in []Message
	for i := range 1000 {
		in = append(in, Message{Role: roles[i%len(roles)], Text: fmt.Sprint(i)})
	}
	if _, err := s.AppendMessages(conv.ID, in...); err != nil {
		t.Fatal(err)
	}
	all, err := s.Messages(conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []Message
	var before uint64
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("the pages never end")
		}
		page, err := s.MessagePage(conv.ID, 0, before, 60)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Messages) == 0 || len(page.Messages) > 120 {
			t.Fatalf("a page of %d messages", len(page.Messages))
		}
		if page.More && page.Messages[0].Role != RoleUser {
			t.Errorf("the page before %d begins with a %s message", before, page.Messages[0].Role)
		}
		got = append(slices.Clone(page.Messages), got...)
		if !page.More {
			break
		}
		before = page.Messages[0].Seq
	}
	if !reflect.DeepEqual(got, all) {
		t.Errorf("the pages hold %d messages, not the %d Messages reads, in order", len(got), len(all))
	}
}
