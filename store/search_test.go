package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestSearchConversations(t *testing.T) {
	s := openT(t, t.TempDir())
	fakeClock(s)
	// Conversations, oldest first; each gets its messages before the next
	// is created, so the last listed here is the latest.
	fixtures := []struct {
		title string
		msgs  []Message
	}{
		{"Trip planning", []Message{
			{Role: RoleUser, Text: "What should I see in Hangzhou?"},
			{Role: RoleAssistant, Text: "西湖 is the classic: walk the Su Causeway at dawn,\nthen take a boat to the islands."},
		}},
		{"周末计划", []Message{{Role: RoleUser, Text: "帮我安排一下周末"}}},
		{"Weather", []Message{
			{Role: RoleUser, Text: "杭州明天天气怎么样？"},
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", ServerID: "s1", Tool: "forecast", Arguments: json.RawMessage(`{"city":"Shanghai"}`)}}},
			{Role: RoleTool, ToolCallID: "c1", ToolResult: &ToolResult{Content: json.RawMessage(`{"content":[{"type":"text","text":"Typhoon warning"}]}`)}},
			{Role: RoleAssistant, Text: "明天晴，25°C。", Reasoning: "The forecast mentions no Typhoon for Hangzhou."},
		}},
		{"Markup", []Message{
			{Role: RoleUser, Text: `How do I write <b>bold</b> & "quotes" in HTML?`},
			{Role: RoleAssistant, Text: "ÄPFEL und Birnen; straße"},
		}},
		{"Cheese", []Message{{Role: RoleUser, Text: strings.Repeat("filler ", 100) + "Where does GRUYÈRE come from?" + strings.Repeat(" more", 100)}}},
	}
	for _, f := range fixtures {
		c, err := s.PutConversation(Conversation{Title: f.title})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AppendMessages(c.ID, f.msgs...); err != nil {
			t.Fatal(err)
		}
	}

	tests := []struct {
		name  string
		query string
		limit int
		// want lists "title#seq: snippet" per hit, latest conversation first.
		want []string
	}{
		{"Chinese text in a message", "天气", 0, []string{"Weather#1: 杭州明天天气怎么样？"}},
		{"Chinese in a title", "周末", 0, []string{"周末计划#0: "}},
		{"Chinese text in an English conversation", "西湖", 0,
			[]string{"Trip planning#2: 西湖 is the classic: walk the Su Causeway at dawn, then take a boat to the islands."}},
		{"ASCII ignores case", "hANGZHOU", 0, []string{"Trip planning#1: What should I see in Hangzhou?"}},
		{"other letters ignore case", "äpfel", 0, []string{"Markup#2: ÄPFEL und Birnen; straße"}},
		{"a query JSON escapes", `<b>bold</b> & "quotes"`, 0,
			[]string{`Markup#1: How do I write <b>bold</b> & "quotes" in HTML?`}},
		{"a title and a message of another conversation", "AT", 0,
			[]string{"Weather#0: ", "Trip planning#1: What should I see in Hangzhou?"}},
		{"a long message gives a snippet around the match", "gruyère", 0,
			[]string{"Cheese#1: …ller filler filler Where does GRUYÈRE come from? more more more more more more more more more more more more more more m…"}},
		{"the title wins over the messages", "planning", 0, []string{"Trip planning#0: "}},
		{"each conversation once, latest first", "the", 0,
			[]string{"Weather#0: ", "Trip planning#2: 西湖 is the classic: walk the Su Causeway at dawn, then take a boat to the islands."}},
		{"a limit keeps the latest", "a", 2, []string{"Markup#0: ", "Weather#0: "}},
		{"tool arguments and results are not searched", "shanghai", 0, nil},
		{"reasoning is not searched", "typhoon", 0, nil},
		{"surrounding spaces are ignored", "  西湖 ", 0,
			[]string{"Trip planning#2: 西湖 is the classic: walk the Su Causeway at dawn, then take a boat to the islands."}},
		{"an empty query finds nothing", "  ", 0, nil},
		{"field names of the record are not text", "role", 0, nil},
		{"a query only of characters JSON escapes", `<>`, 0, nil},
		{"a query JSON escapes, in another case", `<B>BOLD</B>`, 0,
			[]string{`Markup#1: How do I write <b>bold</b> & "quotes" in HTML?`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := s.SearchConversations(tc.query, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, fmt.Sprintf("%s#%d: %s", h.Conversation.Title, h.Seq, h.Snippet))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("SearchConversations(%q) =\n%s\nwant\n%s", tc.query, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestSearchIsBounded(t *testing.T) {
	s := openT(t, t.TempDir())
	s.db.NoSync = true // the file is built, not crash-tested
	for i := range MaxSearchResults + 5 {
		if _, err := s.PutConversation(Conversation{Title: fmt.Sprint("chat ", i)}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		limit int
		want  int
	}{
		{"no limit gives 50", 0, 50},
		{"a negative limit gives 50", -1, 50},
		{"a limit is kept", 7, 7},
		{"a limit over the most gives the most", MaxSearchResults * 2, MaxSearchResults},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := s.SearchConversations("CHAT", tc.limit)
			if err != nil || len(hits) != tc.want {
				t.Errorf("%d hits, %v; want %d", len(hits), err, tc.want)
			}
		})
	}
}

func TestIndexFold(t *testing.T) {
	tests := []struct {
		s, query string
		want     int
	}{
		{"Hello World", "world", 6},
		{"hello", "HELLO", 0},
		{"杭州西湖", "西湖", 6},
		{"ÄPFEL", "äpfel", 0},
		{"Ωmega", "ωMEGA", 0},
		{"abc", "abcd", -1},
		{"ab", "", 0},
		{"", "a", -1},
		{"a\xffb", "b", 2},  // invalid UTF-8 is a character of its own
		{"\u212a", "k", -1}, // the Kelvin sign is not a k
		{"\u212a", "\u212a", 0},
		{"İstanbul", "istanbul", -1},
	}
	for _, tc := range tests {
		if got := indexFold(tc.s, lowerRunes(tc.query)); got != tc.want {
			t.Errorf("indexFold(%q, %q) = %d, want %d", tc.s, tc.query, got, tc.want)
		}
		if got := indexFold([]byte(tc.s), lowerRunes(tc.query)); got != tc.want {
			t.Errorf("indexFold([]byte(%q), %q) = %d, want %d", tc.s, tc.query, got, tc.want)
		}
	}
}
