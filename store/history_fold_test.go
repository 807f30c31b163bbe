package store

import (
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// refusal is an entry Gatehouse wrote for a request it refused unasked:
// a form over server's rate limit, with the server's own message.
func refusal(server, message string, at time.Time) HistoryEntry {
	return HistoryEntry{Time: at, ServerID: server, ServerName: server, Mode: "form", Message: message,
		Outcome: OutcomeRateLimited, Detail: i18n.M("mcp.history.flood")}
}

func TestHistory_AFloodOfRefusalsKeepsThePersonsHistory(t *testing.T) {
	s := openT(t, t.TempDir())
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	for i := range 5 {
		if _, err := s.AddHistory(HistoryEntry{Time: at, ServerID: "calm", Mode: "form", Outcome: OutcomeAccepted, AnswerMs: int64(1000 + i)}); err != nil {
			t.Fatal(err)
		}
	}
	// Two servers flood at once, each request with a message of its own:
	// before, 20,000 refusals pushed every earlier entry out (MaxHistory).
	batch := make([]HistoryEntry, 0, 1000)
	for i := range 20_000 {
		server := []string{"flood-a", "flood-b"}[i%2]
		batch = append(batch, refusal(server, "please "+string(rune('a'+i%26)), at.Add(time.Duration(i)*time.Millisecond)))
		if len(batch) == cap(batch) {
			if err := s.AddHistories(batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	all, err := s.History(HistoryFilter{Limit: MaxHistory})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 7 {
		t.Fatalf("%d entries; want the person's 5 and one per flooding server", len(all))
	}
	for _, e := range all[:2] {
		if e.Repeats != 9_999 || !e.LastTime.After(e.Time) || e.Message != "please a" && e.Message != "please b" {
			t.Errorf("flood entry %+v; want its first request with 9,999 repeats and the last one's time", e)
		}
	}
	for _, e := range all[2:] {
		if e.ServerID != "calm" || e.Repeats != 0 {
			t.Errorf("the person's entry %+v", e)
		}
	}
}

func TestHistory_WhatFoldsIntoARefusal(t *testing.T) {
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	base := refusal("s1", "first", at)
	// changed is a refusal like base with one thing changed.
	changed := func(change func(e *HistoryEntry)) HistoryEntry {
		e := refusal("s1", "x", at)
		change(&e)
		return e
	}
	tests := []struct {
		name   string
		before []HistoryEntry // added after base, before next
		next   HistoryEntry
		folds  bool
	}{
		{"the same refusal again, another message", nil, refusal("s1", "second", at.Add(time.Second)), true},
		{"after up to 15 other entries", entries(15, HistoryEntry{ServerID: "s2", Outcome: OutcomeAccepted, AnswerMs: 5}), refusal("s1", "again", at), true},
		{"not after 16 other entries", entries(16, HistoryEntry{ServerID: "s2", Outcome: OutcomeAccepted, AnswerMs: 5}), refusal("s1", "again", at), false},
		{"another server", nil, refusal("s2", "first", at), false},
		{"another tool", nil, changed(func(e *HistoryEntry) { e.Tool = "wipe" }), false},
		{"another reason", nil, changed(func(e *HistoryEntry) { e.Detail = i18n.M("mcp.history.policyDeclined") }), false},
		{"another outcome", nil, changed(func(e *HistoryEntry) { e.Outcome = OutcomeDeclined }), false},
		{"a question the person saw", nil, changed(func(e *HistoryEntry) { e.AnswerMs = 1200 }), false},
		{"an answer without Gatehouse's reason", nil, changed(func(e *HistoryEntry) { e.Detail = i18n.Message{} }), false},
		{"an accepted one", nil, changed(func(e *HistoryEntry) { e.Outcome = OutcomeAccepted }), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			if err := s.AddHistories(append([]HistoryEntry{base}, tc.before...)); err != nil {
				t.Fatal(err)
			}
			stored, err := s.AddHistory(tc.next)
			if err != nil {
				t.Fatal(err)
			}
			first, _ := s.History(HistoryFilter{Before: 2})
			wantCount := 2 + len(tc.before)
			if tc.folds {
				wantCount--
			}
			all, _ := s.History(HistoryFilter{Limit: 100})
			switch {
			case len(all) != wantCount:
				t.Errorf("%d entries; want %d", len(all), wantCount)
			case tc.folds && (stored.ID != 1 || first[0].Repeats != 1 || !first[0].LastTime.Equal(tc.next.Time) || first[0].Message != "first"):
				t.Errorf("folded into %+v; want the first entry counting one repeat", first[0])
			case !tc.folds && (first[0].Repeats != 0 || stored.ID == 1):
				t.Errorf("the first entry %+v counted a different entry", first[0])
			}
		})
	}
}

// entries is n copies of e.
func entries(n int, e HistoryEntry) []HistoryEntry {
	out := make([]HistoryEntry, n)
	for i := range out {
		out[i] = e
	}
	return out
}
