package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fullHistoryDir returns a closed data file holding a few servers and
// MaxHistory history entries of typical size.
func fullHistoryDir(b *testing.B) string {
	b.Helper()
	dir := withServers(b, 10)
	s, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	fillHistory(b, s, MaxHistory, sampleEntry)
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkOpenWithFullHistory measures Open and Close of an up-to-date
// file with MaxHistory entries: the cost added to every start of the app.
func BenchmarkOpenWithFullHistory(b *testing.B) {
	dir := fullHistoryDir(b)
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fi.Size())/1e6, "file-MB") // after the loop, which clears metrics
}

// BenchmarkOpenWithoutHistory is BenchmarkOpenWithFullHistory's baseline:
// a file with the same servers and no history.
func BenchmarkOpenWithoutHistory(b *testing.B) {
	dir := withServers(b, 10)
	for b.Loop() {
		s, err := Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistory measures History over MaxHistory entries.
func BenchmarkHistory(b *testing.B) {
	dir := fullHistoryDir(b)
	s, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		name   string
		filter HistoryFilter
	}{
		{"newest page", HistoryFilter{}},
		{"one server of seven", HistoryFilter{ServerID: sampleEntry(3).ServerID}},
		{"a filter matching nothing", HistoryFilter{ServerID: "nobody"}},
		{"everything", HistoryFilter{Limit: MaxHistory}},
	}
	for _, tc := range tests {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.History(tc.filter); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// chatDir returns a closed data file holding convs conversations of msgs
// messages each, of typical size, with Chinese and English text.
func chatDir(b *testing.B, convs, msgs int) (dir string, ids []string) {
	b.Helper()
	dir = b.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	s.db.NoSync = true // the file is built, not crash-tested
	batch := make([]Message, msgs)
	for i := range convs {
		c, err := s.PutConversation(Conversation{Title: fmt.Sprintf("对话 %d: planning the week", i), Model: "qwen3:8b"})
		if err != nil {
			b.Fatal(err)
		}
		for j := range batch {
			batch[j] = Message{Role: []string{RoleUser, RoleAssistant}[j%2],
				Text: fmt.Sprintf("消息 %d of conversation %d. Please look at the files in the project and tell me "+
					"which of them still use the old API; 我们明天再讨论。", j, i),
				Usage: &Usage{Input: 1200, Output: 300}}
		}
		if _, err := s.AppendMessages(c.ID, batch...); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	return dir, ids
}

// BenchmarkChat measures the chat's reads over 10,000 conversations of 10
// messages, and one conversation of 1,000 messages.
func BenchmarkChat(b *testing.B) {
	dir, _ := chatDir(b, 10_000, 10)
	s, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	long, err := s.PutConversation(Conversation{Title: "long"})
	if err != nil {
		b.Fatal(err)
	}
	s.db.NoSync = true
	for range 10 {
		batch := make([]Message, 100)
		for j := range batch {
			batch[j] = Message{Role: RoleAssistant, Text: strings.Repeat("一段回答。", 60)}
		}
		if _, err := s.AppendMessages(long.ID, batch...); err != nil {
			b.Fatal(err)
		}
	}
	s.db.NoSync = false

	b.Run("newest page of 10,000 conversations", func(b *testing.B) {
		for b.Loop() {
			if list, err := s.Conversations(ConversationFilter{}); err != nil || len(list) != 200 {
				b.Fatal(len(list), err)
			}
		}
	})
	b.Run("all 10,000 conversations", func(b *testing.B) {
		for b.Loop() {
			if list, err := s.Conversations(ConversationFilter{Limit: 20_000}); err != nil || len(list) != 10_001 {
				b.Fatal(len(list), err)
			}
		}
	})
	b.Run("messages of a 1,000-message conversation", func(b *testing.B) {
		for b.Loop() {
			if msgs, err := s.Messages(long.ID); err != nil || len(msgs) != 1000 {
				b.Fatal(len(msgs), err)
			}
		}
	})
	for _, q := range []string{"nothing matches this", "没有这个词", "Nothing-Matches <this>"} {
		b.Run("search of 100,000 messages matching nothing: "+q, func(b *testing.B) {
			for b.Loop() {
				if hits, err := s.SearchConversations(q, 0); err != nil || len(hits) != 0 {
					b.Fatal(len(hits), err)
				}
			}
		})
	}
	b.Run("append one message (synced) to the 1,000", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.AppendMessages(long.ID, Message{Role: RoleUser, Text: "继续"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkOpenWithChats measures Open and Close of a file with 10,000
// conversations of 10 messages: the cost the chat adds to every start.
func BenchmarkOpenWithChats(b *testing.B) {
	dir, _ := chatDir(b, 10_000, 10)
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fi.Size())/1e6, "file-MB")
}
