package store

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.etcd.io/bbolt"

	"github.com/gatehouse-app/gatehouse/i18n"
)

func TestAddHistory(t *testing.T) {
	at := time.Date(2025, 5, 6, 7, 8, 9, 10, time.UTC)
	tests := []struct {
		name    string
		entry   HistoryEntry
		wantErr error
		// check sees the returned entry, the one read back and the bytes
		// stored.
		check func(t *testing.T, got, read HistoryEntry, raw []byte)
	}{
		{
			name:  "the first entry gets id 1 whatever the caller set",
			entry: HistoryEntry{ID: 77, Time: at, Outcome: OutcomeAccepted},
			check: func(t *testing.T, got, _ HistoryEntry, _ []byte) {
				if got.ID != 1 {
					t.Errorf("ID = %d, want 1", got.ID)
				}
			},
		},
		{
			name:  "a given time is kept",
			entry: HistoryEntry{Time: at, Outcome: OutcomeAccepted},
			check: func(t *testing.T, got, _ HistoryEntry, _ []byte) {
				if !got.Time.Equal(at) {
					t.Errorf("Time = %v, want %v", got.Time, at)
				}
			},
		},
		{
			name:  "a zero time is stamped with the store's clock",
			entry: HistoryEntry{Outcome: OutcomeTimedOut},
			check: func(t *testing.T, got, _ HistoryEntry, _ []byte) {
				if got.Time.Year() != 2025 || got.Time.Month() != time.January {
					t.Errorf("Time = %v, want the fake clock's January 2025", got.Time)
				}
			},
		},
		{
			name: "every field is kept",
			entry: HistoryEntry{Time: at, ServerID: "abc", ServerName: "Files", Mode: "form", Message: "Who are you?",
				Fields: []string{"name", "age"}, Outcome: OutcomeAccepted, Detail: i18n.Text("d"), AnswerMs: 1234,
				Answer: map[string]any{"name": "Ada", "age": 36.0, "ok": true}},
			check: func(t *testing.T, got, _ HistoryEntry, _ []byte) {
				want := HistoryEntry{ID: 1, Time: at, ServerID: "abc", ServerName: "Files", Mode: "form", Message: "Who are you?",
					Fields: []string{"name", "age"}, Outcome: OutcomeAccepted, Detail: i18n.Text("d"), AnswerMs: 1234,
					Answer: map[string]any{"name": "Ada", "age": 36.0, "ok": true}}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("got\n%+v\nwant\n%+v", got, want)
				}
			},
		},
		{
			name:  "no answer given stores none",
			entry: HistoryEntry{Time: at, Fields: []string{"name"}, Outcome: OutcomeAccepted},
			check: func(t *testing.T, got, _ HistoryEntry, raw []byte) {
				if got.Answer != nil {
					t.Errorf("Answer = %#v, want nil", got.Answer)
				}
				if bytes.Contains(raw, []byte(`"answer"`)) {
					t.Errorf("stored record has an answer key: %s", raw)
				}
			},
		},
		{
			name:  "an empty answer stores none",
			entry: HistoryEntry{Time: at, Outcome: OutcomeAccepted, Answer: map[string]any{}},
			check: func(t *testing.T, got, _ HistoryEntry, raw []byte) {
				if got.Answer != nil || bytes.Contains(raw, []byte(`"answer"`)) {
					t.Errorf("Answer = %#v, stored %s; want none", got.Answer, raw)
				}
			},
		},
		{
			name:  "numbers in an answer read back as float64",
			entry: HistoryEntry{Time: at, Outcome: OutcomeAccepted, Answer: map[string]any{"n": 3}},
			check: func(t *testing.T, got, _ HistoryEntry, _ []byte) {
				if n, ok := got.Answer["n"].(float64); !ok || n != 3 {
					t.Errorf("Answer[n] = %#v, want float64 3 as a later read sees it", got.Answer["n"])
				}
			},
		},
		{
			name: "server text is stored as given",
			entry: HistoryEntry{Time: at, Mode: "url", Outcome: OutcomeDeclined,
				Message: "<script>alert('x')</script> & \"quotes\" \u202e\x00 ünïcode",
				URL:     "https://example.com/auth?a=1&b=<2>#frag"},
			check: func(t *testing.T, got, _ HistoryEntry, _ []byte) {
				if got.Message != "<script>alert('x')</script> & \"quotes\" \u202e\x00 ünïcode" {
					t.Errorf("Message = %q", got.Message)
				}
				if got.URL != "https://example.com/auth?a=1&b=<2>#frag" {
					t.Errorf("URL = %q", got.URL)
				}
			},
		},
		{
			name:    "an unknown outcome is invalid",
			entry:   HistoryEntry{Time: at, Outcome: "ignored"},
			wantErr: ErrInvalid,
		},
		{
			name:    "an answer JSON cannot hold is invalid",
			entry:   HistoryEntry{Time: at, Outcome: OutcomeAccepted, Answer: map[string]any{"n": math.NaN()}},
			wantErr: ErrInvalid,
		},
		{
			name:    "an empty outcome is invalid",
			entry:   HistoryEntry{Time: at},
			wantErr: ErrInvalid,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fakeClock(s)
			got, err := s.AddHistory(tc.entry)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("AddHistory = %v, want %v", err, tc.wantErr)
			}
			all, err := s.History(HistoryFilter{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantErr != nil {
				if len(all) != 0 {
					t.Errorf("a refused entry was stored: %+v", all)
				}
				return
			}
			if len(all) != 1 {
				t.Fatalf("History has %d entries, want 1", len(all))
			}
			if !reflect.DeepEqual(all[0], got) {
				t.Errorf("AddHistory returned\n%+v\nbut History reads\n%+v", got, all[0])
			}
			var raw []byte
			err = s.db.View(func(tx *bbolt.Tx) error {
				raw = bytes.Clone(tx.Bucket(bucketHistory).Get(historyKey(got.ID)))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, got, all[0], raw)
		})
	}
}

func TestAddHistoryIDsIncrease(t *testing.T) {
	s := openT(t, t.TempDir())
	var last uint64
	for i := range 5 {
		e, err := s.AddHistory(HistoryEntry{Outcome: OutcomeCancelled})
		if err != nil {
			t.Fatal(err)
		}
		if e.ID != last+1 {
			t.Errorf("entry %d has ID %d, want %d", i, e.ID, last+1)
		}
		last = e.ID
	}
}

func TestAddHistoryConcurrently(t *testing.T) {
	s := openT(t, t.TempDir())
	const writers, each = 8, 5
	ids := make(chan uint64)
	for range writers {
		go func() {
			for range each {
				e, err := s.AddHistory(HistoryEntry{Outcome: OutcomeAccepted})
				if err != nil {
					t.Error(err)
				}
				ids <- e.ID
			}
		}()
	}
	var got []uint64
	for range writers * each {
		got = append(got, <-ids)
	}
	slices.Sort(got)
	for i, id := range got {
		if id != uint64(i+1) {
			t.Fatalf("IDs handed out = %v, want each of 1..%d once", got, writers*each)
		}
	}
}

func TestAddHistoryKeepsTheNewestMaxHistory(t *testing.T) {
	tests := []struct {
		name       string
		prefill    int // entries added in one transaction first
		adds       int // then entries added with AddHistory
		wantCount  int
		wantOldest uint64
	}{
		{"below the limit nothing is deleted", MaxHistory - 2, 1, MaxHistory - 1, 1},
		{"reaching the limit deletes nothing", MaxHistory - 1, 1, MaxHistory, 1},
		{"each add past the limit deletes the oldest", MaxHistory - 1, 4, MaxHistory, 4},
		{"a transaction adding past the limit keeps the newest", MaxHistory + 5, 0, MaxHistory, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fillHistory(t, s, tc.prefill, sampleEntry)
			for i := range tc.adds {
				if _, err := s.AddHistory(sampleEntry(i)); err != nil {
					t.Fatal(err)
				}
			}
			var keys int
			var first, last []byte
			err := s.db.View(func(tx *bbolt.Tx) error {
				b := tx.Bucket(bucketHistory)
				keys = b.Stats().KeyN
				first, _ = b.Cursor().First()
				last, _ = b.Cursor().Last()
				first, last = bytes.Clone(first), bytes.Clone(last)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if keys != tc.wantCount {
				t.Fatalf("%d entries kept, want %d", keys, tc.wantCount)
			}
			newest := uint64(tc.prefill + tc.adds)
			if !bytes.Equal(last, historyKey(newest)) || !bytes.Equal(first, historyKey(tc.wantOldest)) {
				t.Errorf("keys run from %x to %x, want IDs %d to %d", first, last, tc.wantOldest, newest)
			}
			// History sees the same: the oldest kept entry is the last one.
			oldest, err := s.History(HistoryFilter{Before: tc.wantOldest + 1})
			if err != nil || len(oldest) != 1 || oldest[0].ID != tc.wantOldest {
				t.Errorf("History before %d = %d entries, %v; want only entry %d", tc.wantOldest+1, len(oldest), err, tc.wantOldest)
			}
		})
	}
}

func TestHistoryFilter(t *testing.T) {
	// IDs 1..6, oldest first.
	entries := []struct{ server, outcome string }{
		{"a", OutcomeAccepted},
		{"b", OutcomeDeclined},
		{"a", OutcomeDeclined},
		{"a", OutcomeTimedOut},
		{"b", OutcomeAccepted},
		{"a", OutcomeDeclined},
	}
	s := openT(t, t.TempDir())
	for _, e := range entries {
		if _, err := s.AddHistory(HistoryEntry{ServerID: e.server, Outcome: e.outcome}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		filter HistoryFilter
		want   []uint64
	}{
		{"the zero filter returns all newest first", HistoryFilter{}, []uint64{6, 5, 4, 3, 2, 1}},
		{"by server", HistoryFilter{ServerID: "a"}, []uint64{6, 4, 3, 1}},
		{"by outcome", HistoryFilter{Outcome: OutcomeDeclined}, []uint64{6, 3, 2}},
		{"by server and outcome", HistoryFilter{ServerID: "a", Outcome: OutcomeDeclined}, []uint64{6, 3}},
		{"limit keeps the newest", HistoryFilter{Limit: 2}, []uint64{6, 5}},
		{"limit counts matches only", HistoryFilter{ServerID: "b", Limit: 1}, []uint64{5}},
		{"a negative limit means the default", HistoryFilter{Limit: -1}, []uint64{6, 5, 4, 3, 2, 1}},
		{"before returns older entries", HistoryFilter{Before: 4}, []uint64{3, 2, 1}},
		{"before with limit is the next page", HistoryFilter{Before: 6, Limit: 2}, []uint64{5, 4}},
		{"before with a filter", HistoryFilter{ServerID: "a", Before: 4}, []uint64{3, 1}},
		{"before above the newest returns from the newest", HistoryFilter{Before: 100}, []uint64{6, 5, 4, 3, 2, 1}},
		{"before the oldest is empty", HistoryFilter{Before: 1}, []uint64{}},
		{"an unknown server is empty", HistoryFilter{ServerID: "c"}, []uint64{}},
		{"an unknown outcome is empty", HistoryFilter{Outcome: "nope"}, []uint64{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.History(tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatal("History returned nil, want a non-nil slice")
			}
			ids := []uint64{}
			for _, e := range got {
				ids = append(ids, e.ID)
			}
			if !slices.Equal(ids, tc.want) {
				t.Errorf("IDs = %v, want %v", ids, tc.want)
			}
		})
	}
}

func TestHistoryPages(t *testing.T) {
	tests := []struct {
		name   string
		filter HistoryFilter // Before is set page by page
	}{
		{"pages of all entries", HistoryFilter{Limit: 7}},
		{"pages of one server", HistoryFilter{ServerID: sampleEntry(3).ServerID, Limit: 4}},
		{"pages of one outcome", HistoryFilter{Outcome: OutcomeDeclined, Limit: 5}},
		{"pages of the default size", HistoryFilter{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fillHistory(t, s, 450, sampleEntry)
			all := tc.filter
			all.Limit = MaxHistory
			want, err := s.History(all)
			if err != nil {
				t.Fatal(err)
			}

			var got []HistoryEntry
			f := tc.filter
			pageSize := cmp.Or(f.Limit, defaultHistoryLimit)
			for {
				page, err := s.History(f)
				if err != nil {
					t.Fatal(err)
				}
				if len(page) > pageSize {
					t.Fatalf("page of %d entries, want at most %d", len(page), pageSize)
				}
				if len(page) == 0 {
					break
				}
				got = append(got, page...)
				f.Before = page[len(page)-1].ID
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("pages joined hold %d entries, want the %d of one read", len(got), len(want))
			}
			for i := 1; i < len(got); i++ {
				if got[i].ID >= got[i-1].ID {
					t.Fatalf("entry %d has ID %d after %d: not newest first", i, got[i].ID, got[i-1].ID)
				}
			}
		})
	}
}

func TestClearHistory(t *testing.T) {
	tests := []struct {
		name   string
		before int // entries added before the clear
	}{
		{"clearing an empty history", 0},
		{"clearing a few entries", 3},
		{"clearing a full history", MaxHistory},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openT(t, dir)
			fillHistory(t, s, tc.before, sampleEntry)
			if err := s.ClearHistory(); err != nil {
				t.Fatal(err)
			}
			if got, err := s.History(HistoryFilter{}); err != nil || len(got) != 0 {
				t.Fatalf("after ClearHistory: %d entries, %v; want none", len(got), err)
			}
			e, err := s.AddHistory(HistoryEntry{Outcome: OutcomeAccepted})
			if err != nil {
				t.Fatal(err)
			}
			if want := uint64(tc.before + 1); e.ID != want {
				t.Errorf("next ID after clear = %d, want %d (IDs are not reused)", e.ID, want)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = openT(t, dir)
			got, err := s.History(HistoryFilter{})
			if err != nil || len(got) != 1 || got[0].ID != e.ID {
				t.Errorf("after reopen History = %+v, %v; want only entry %d", got, err, e.ID)
			}
		})
	}
}

func TestHistoryOutlivesItsServer(t *testing.T) {
	s := openT(t, t.TempDir())
	srv, err := s.PutServer(Server{Name: "files"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddHistory(HistoryEntry{ServerID: srv.ID, ServerName: srv.Name, Outcome: OutcomeDeclined}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteServer(srv.ID); err != nil {
		t.Fatal(err)
	}
	got, err := s.History(HistoryFilter{ServerID: srv.ID})
	if err != nil || len(got) != 1 || got[0].ServerName != "files" {
		t.Errorf("History of a deleted server = %+v, %v; want its entry with its name", got, err)
	}
}

func TestUnreadableHistoryEntry(t *testing.T) {
	tests := []struct {
		name  string
		value string // JSON that Open lets through but History cannot use
	}{
		{"a field of the wrong type", `{"id":2,"time":"yesterday","outcome":"accepted"}`},
		{"an entry stored under another id", `{"id":9,"outcome":"accepted"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openT(t, dir)
			if _, err := s.AddHistory(HistoryEntry{Outcome: OutcomeAccepted}); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			rawUpdate(t, dir, func(tx *bbolt.Tx) error {
				b := tx.Bucket(bucketHistory)
				if _, err := b.NextSequence(); err != nil {
					return err
				}
				return b.Put(historyKey(2), []byte(tc.value))
			})

			s = openT(t, dir)
			if _, err := s.History(HistoryFilter{}); err == nil {
				t.Fatal("History succeeded over an unreadable entry")
			}
			if got, err := s.History(HistoryFilter{Before: 2}); err != nil || len(got) != 1 {
				t.Errorf("History of the older entries = %d, %v; want the one readable entry", len(got), err)
			}
			if err := s.ClearHistory(); err != nil {
				t.Fatal(err)
			}
			if got, err := s.History(HistoryFilter{}); err != nil || len(got) != 0 {
				t.Errorf("after ClearHistory: %d entries, %v; want none", len(got), err)
			}
		})
	}
}

func TestHistoryFilterIsExact(t *testing.T) {
	s := openT(t, t.TempDir())
	add := func(e HistoryEntry) uint64 {
		t.Helper()
		got, err := s.AddHistory(e)
		if err != nil {
			t.Fatal(err)
		}
		return got.ID
	}
	plain := add(HistoryEntry{ServerID: "a", Outcome: OutcomeAccepted})
	// An answer can hold the very text a record of another server has.
	mimic := add(HistoryEntry{ServerID: "b", Outcome: OutcomeDeclined,
		Answer: map[string]any{"serverId": "a", "outcome": "accepted"}})
	odd := add(HistoryEntry{ServerID: "ünï <&> \" id", Outcome: OutcomeAccepted})
	prefix := add(HistoryEntry{ServerID: "ab", Outcome: OutcomeAccepted})
	tests := []struct {
		name   string
		filter HistoryFilter
		want   []uint64
	}{
		{"text in an answer does not match", HistoryFilter{ServerID: "a"}, []uint64{plain}},
		{"an outcome in an answer does not match", HistoryFilter{Outcome: OutcomeAccepted, ServerID: "b"}, []uint64{}},
		{"an id needing escapes matches", HistoryFilter{ServerID: "ünï <&> \" id"}, []uint64{odd}},
		{"a longer id does not match its prefix", HistoryFilter{ServerID: "ab"}, []uint64{prefix}},
		{"the other server's own entry matches", HistoryFilter{ServerID: "b"}, []uint64{mimic}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.History(tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			ids := []uint64{}
			for _, e := range got {
				ids = append(ids, e.ID)
			}
			if !slices.Equal(ids, tc.want) {
				t.Errorf("IDs = %v, want %v", ids, tc.want)
			}
		})
	}
}

func TestAddHistories(t *testing.T) {
	s := openT(t, t.TempDir())
	entries := []HistoryEntry{
		{ServerID: "a", ServerName: "A", Mode: "form", Outcome: OutcomeAccepted},
		{ServerID: "a", ServerName: "A", Mode: "form", Outcome: OutcomeRateLimited},
	}
	if err := s.AddHistories(append(entries, HistoryEntry{Outcome: "nope"})); err == nil {
		t.Fatal("an unknown outcome must be refused")
	}
	if got, _ := s.History(HistoryFilter{}); len(got) != 0 {
		t.Fatalf("a refused batch stored %d entries", len(got))
	}
	if err := s.AddHistories(entries); err != nil {
		t.Fatal(err)
	}
	got, err := s.History(HistoryFilter{})
	if err != nil || len(got) != 2 || got[0].Outcome != OutcomeRateLimited || got[1].Outcome != OutcomeAccepted || got[0].Time.IsZero() {
		t.Errorf("history = %+v, %v (newest first)", got, err)
	}
}

func TestHistoryOfToolCallsAndSampling(t *testing.T) {
	at := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)
	tests := []struct {
		name  string
		entry HistoryEntry
	}{
		{"a tool call the person allowed", HistoryEntry{Time: at, ServerID: "s1", ServerName: "Files", Mode: "tool-call", Tool: "write_file",
			Message: "Write notes.md", Fields: []string{"path", "content"}, Outcome: OutcomeAccepted, AnswerMs: 2300}},
		{"a tool call a policy denied", HistoryEntry{Time: at, ServerID: "s1", ServerName: "Files", Mode: "tool-call", Tool: "delete_file",
			Outcome: OutcomeDeclined, Detail: i18n.M("mcp.history.deniedBySettings", "why", "a policy")}},
		{"a sampling review", HistoryEntry{Time: at, ServerID: "s2", ServerName: "Everything", Mode: "sampling",
			Message: "Resource sampling_test: 你好", Outcome: OutcomeCancelled, AnswerMs: 15000}},
		{"a tool run from the Tools pane, remembered", HistoryEntry{Time: at, ServerID: "s1", ServerName: "Files", Mode: "tool-run",
			Tool: "read_file", Source: SourceToolsPane, Outcome: OutcomeOK, DurationMs: 42,
			Arguments: map[string]any{"path": "notes.md"}, Result: "# Notes"}},
		{"a chat's tool run that failed", HistoryEntry{Time: at, ServerID: "s1", ServerName: "Files", Mode: "tool-run",
			Tool: "read_file", Source: SourceChat, Outcome: OutcomeError, Detail: i18n.Text("The tool call failed: no such file"), DurationMs: 7}},
		{"a chat's tool run the person did not allow", HistoryEntry{Time: at, ServerID: "s1", ServerName: "Files", Mode: "tool-run",
			Tool: "delete_file", Source: SourceChat, Outcome: OutcomeDenied, Detail: i18n.M("mcp.approval.denied")}},
		{"a form keeps its field titles", HistoryEntry{Time: at, ServerID: "s1", ServerName: "Files", Mode: "form",
			Fields: []string{"email", "age"}, Titles: map[string]string{"email": "Email address"}, Outcome: OutcomeDeclined}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			got, err := s.AddHistory(tc.entry)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.entry
			want.ID = 1
			if !reflect.DeepEqual(got, want) {
				t.Errorf("stored %+v\nwant %+v", got, want)
			}
			if read, err := s.History(HistoryFilter{ServerID: tc.entry.ServerID, Outcome: tc.entry.Outcome}); err != nil || len(read) != 1 || !reflect.DeepEqual(read[0], want) {
				t.Errorf("History = %+v, %v", read, err)
			}
		})
	}
}

// TestOldHistoryEntriesReadBackUnchanged: entries written before Tool
// existed, and before Detail was a message, read back as they were, and
// write back byte for byte but for the detail: the message of its text.
func TestOldHistoryEntriesReadBackUnchanged(t *testing.T) {
	old := `{"id":1,"time":"2025-01-02T03:04:07Z","serverId":"s1","serverName":"first","mode":"form",` +
		`"message":"Your name?","fields":["name"],"outcome":"accepted","detail":"d","answerMs":1500,"answer":{"name":"Ada"}}`
	now := strings.Replace(old, `"detail":"d"`, `"detail":{"key":"","args":{"text":"d"},"text":"d"}`, 1)
	dir := t.TempDir()
	s := openT(t, dir)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rawUpdate(t, dir, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketHistory)
		if err := b.SetSequence(1); err != nil {
			return err
		}
		return b.Put(historyKey(1), []byte(old))
	})
	s = openT(t, dir)
	got, err := s.History(HistoryFilter{})
	if err != nil || len(got) != 1 {
		t.Fatalf("History = %+v, %v", got, err)
	}
	if got[0].Tool != "" || got[0].Detail.In(i18n.Chinese) != "d" {
		t.Errorf("Tool = %q, Detail = %#v; want empty, the text d", got[0].Tool, got[0].Detail)
	}
	again, err := json.Marshal(got[0])
	if err != nil || string(again) != now {
		t.Errorf("the entry writes back as\n%s\nwant\n%s", again, now)
	}
}

// TestToolRunResultIsBounded: a tool run keeps at most MaxHistoryResult
// bytes of its result, cut at a character with an ellipsis, so that 10,000
// entries stay small; a shorter result is kept whole.
func TestToolRunResultIsBounded(t *testing.T) {
	long := strings.Repeat("é", MaxHistoryResult) // two bytes each
	for _, tc := range []struct {
		name, result string
		wantLen      int
		wantCut      bool
	}{
		{"a short result is kept whole", "42", 2, false},
		{"a result of exactly the bound is kept whole", strings.Repeat("a", MaxHistoryResult), MaxHistoryResult, false},
		{"a long result is cut at a character", long, -1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			got, err := s.AddHistory(HistoryEntry{Mode: "tool-run", Tool: "t", Outcome: OutcomeOK, Result: tc.result})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Result) > MaxHistoryResult || !utf8.ValidString(got.Result) {
				t.Errorf("kept %d bytes (valid UTF-8: %v), want at most %d", len(got.Result), utf8.ValidString(got.Result), MaxHistoryResult)
			}
			if cut := strings.HasSuffix(got.Result, "…"); cut != tc.wantCut || (tc.wantLen >= 0 && len(got.Result) != tc.wantLen) {
				t.Errorf("kept %d bytes, cut %v; want %d, cut %v", len(got.Result), cut, tc.wantLen, tc.wantCut)
			}
		})
	}
}
