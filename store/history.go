package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"go.etcd.io/bbolt"
)

// defaultHistoryLimit is how many entries History returns when the filter
// sets no Limit.
const defaultHistoryLimit = 200

// outcomes are the values HistoryEntry.Outcome may take.
var outcomes = []string{
	OutcomeAccepted, OutcomeDeclined, OutcomeCancelled, OutcomeTimedOut,
	OutcomeRateLimited, OutcomeInvalid, OutcomeServerCancelled,
	OutcomeOK, OutcomeError, OutcomeDenied,
}

// AddHistory stores e as a new history entry and returns the stored entry.
//
// It gives e a new ID, higher than any before (the caller's ID is ignored),
// and stamps Time with the current time when it is zero. Answer is stored
// exactly when it is non-empty, so a caller that does not keep answers
// passes nil. Once MaxHistory entries are kept, the oldest are deleted in the
// same transaction. An Outcome other than the Outcome constants, or an
// Answer that JSON cannot hold (a NaN, a channel), is refused with
// ErrInvalid.
func (s *Store) AddHistory(e HistoryEntry) (HistoryEntry, error) {
	if !slices.Contains(outcomes, e.Outcome) {
		return HistoryEntry{}, fmt.Errorf("%w: unknown elicitation outcome %q", ErrInvalid, e.Outcome)
	}
	if e.Time.IsZero() {
		e.Time = s.now()
	}
	var data []byte
	err := s.db.Update(func(tx *bbolt.Tx) (err error) {
		data, err = addHistory(tx.Bucket(bucketHistory), e)
		return err
	})
	if err != nil {
		return HistoryEntry{}, fmt.Errorf("add to the elicitation history: %w", err)
	}
	// Return what a later read will see, not the caller's value.
	var stored HistoryEntry
	if err := json.Unmarshal(data, &stored); err != nil {
		return HistoryEntry{}, fmt.Errorf("add to the elicitation history: read back: %w", err)
	}
	return stored, nil
}

// AddHistories stores several entries in one transaction (one disk sync),
// in order. An entry with an unknown outcome is refused and nothing is
// stored.
func (s *Store) AddHistories(entries []HistoryEntry) error {
	for _, e := range entries {
		if !slices.Contains(outcomes, e.Outcome) {
			return fmt.Errorf("%w: unknown elicitation outcome %q", ErrInvalid, e.Outcome)
		}
	}
	err := s.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketHistory)
		for _, e := range entries {
			if e.Time.IsZero() {
				e.Time = s.now()
			}
			if _, err := addHistory(b, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("add to the elicitation history: %w", err)
	}
	return nil
}

// refusedUnasked reports whether e records something Gatehouse refused without
// asking the person, saying why in its own words: a flood's question over
// the limit, a request the server's policy declined, a tool call the Tool
// permissions deny, a request that was not valid. Never one the person saw
// or answered.
func (e HistoryEntry) refusedUnasked() bool {
	switch e.Outcome {
	case OutcomeRateLimited, OutcomeDeclined, OutcomeCancelled, OutcomeDenied, OutcomeInvalid:
		return e.AnswerMs == 0 && e.Detail.Key != ""
	}
	return false
}

// sameRefusal reports whether refusals a and b are the same thing refused
// again: the same server, kind, tool, source, client, outcome and reason.
// The server's message, the arguments and what the reason quotes may
// differ: a flood that varies them is still one flood.
func sameRefusal(a, b HistoryEntry) bool {
	return a.ServerID == b.ServerID && a.Mode == b.Mode && a.Tool == b.Tool && a.Source == b.Source &&
		a.Client == b.Client && a.Launcher == b.Launcher && a.Outcome == b.Outcome &&
		a.Detail.Key == b.Detail.Key && a.Summary.Key == b.Summary.Key
}

// foldBack is how many of the newest entries a refusal is compared with
// to fold into (foldRefusal): enough for two or three floods at once
// interleaved with the rest.
const foldBack = 16

// foldRefusal counts e, a refusal (HistoryEntry.refusedUnasked), into the same
// refusal among the newest foldBack entries, if there is one, and returns
// that entry's new record.
func foldRefusal(b *bbolt.Bucket, e HistoryEntry) ([]byte, bool, error) {
	c := b.Cursor()
	k, v := c.Last()
	for range foldBack {
		if k == nil {
			return nil, false, nil
		}
		var f HistoryEntry
		if json.Unmarshal(v, &f) == nil && f.refusedUnasked() && sameRefusal(f, e) {
			f.Repeats++
			f.LastTime = e.Time
			data, err := json.Marshal(f)
			if err != nil {
				return nil, false, err
			}
			return data, true, b.Put(k, data)
		}
		k, v = c.Prev()
	}
	return nil, false, nil
}

// addHistory stores e under the bucket's next sequence number, deletes the
// entries that leave the newest MaxHistory, and returns the stored record.
// A refusal that repeats one of the newest entries is counted into it
// instead (foldRefusal).
func addHistory(b *bbolt.Bucket, e HistoryEntry) ([]byte, error) {
	if e.refusedUnasked() {
		if data, folded, err := foldRefusal(b, e); err != nil || folded {
			return data, err
		}
	}
	// Entries are only appended at the end, so pages need little room to
	// grow; the default of half-full pages would double the file.
	b.FillPercent = 0.9
	id, err := b.NextSequence()
	if err != nil {
		return nil, err
	}
	e.ID = id
	e.Result = cutText(e.Result, MaxHistoryResult)
	data, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("%w: the history entry cannot be stored as JSON (%v)", ErrInvalid, err)
	}
	if err := b.Put(historyKey(id), data); err != nil {
		return nil, err
	}
	// IDs only grow, so the entries to keep are those above id-MaxHistory.
	// Normally this deletes one entry.
	if id <= MaxHistory {
		return data, nil
	}
	oldest := id - MaxHistory
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.First() {
		kid, err := historyID(k)
		if err != nil {
			return nil, err
		}
		if kid > oldest {
			break
		}
		if err := c.Delete(); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// History returns the entries f selects, newest (highest ID) first. The
// slice is empty, not nil, when none match. An entry that cannot be decoded
// fails the call; ClearHistory removes it.
func (s *Store) History(f HistoryFilter) ([]HistoryEntry, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = defaultHistoryLimit
	}
	out := []HistoryEntry{}
	serverNeedle := fieldNeedle("serverId", f.ServerID)
	outcomeNeedle := fieldNeedle("outcome", f.Outcome)
	err := s.db.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketHistory).Cursor()
		var k, v []byte
		if f.Before == 0 {
			k, v = c.Last()
		} else if k, _ = c.Seek(historyKey(f.Before)); k == nil {
			k, v = c.Last() // every entry is older than Before
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && len(out) < limit; k, v = c.Prev() {
			// Decoding is most of the cost; skip what cannot match unread.
			if !mayContain(v, serverNeedle) || !mayContain(v, outcomeNeedle) {
				continue
			}
			e, err := decodeHistory(k, v)
			if err != nil {
				return err
			}
			if (f.ServerID == "" || e.ServerID == f.ServerID) && (f.Outcome == "" || e.Outcome == f.Outcome) {
				out = append(out, e)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the elicitation history: %w", err)
	}
	return out, nil
}

// ClearHistory deletes every history entry. Later entries still get IDs
// higher than any deleted one.
func (s *Store) ClearHistory() error {
	err := s.db.Update(func(tx *bbolt.Tx) error {
		seq := tx.Bucket(bucketHistory).Sequence()
		if err := tx.DeleteBucket(bucketHistory); err != nil {
			return err
		}
		b, err := tx.CreateBucket(bucketHistory)
		if err != nil {
			return err
		}
		return b.SetSequence(seq)
	})
	if err != nil {
		return fmt.Errorf("clear the elicitation history: %w", err)
	}
	return nil
}

// cutText returns s cut to at most max bytes at a character boundary, with
// an ellipsis when anything was cut.
func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const more = "…"
	cut := max - len(more)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + more
}

// fieldNeedle returns the bytes that every history record whose field (by
// its JSON name) has the string value contains, or nil when it cannot tell.
// Records are written only by addHistory, with json.Marshal, which writes
// `"name":"value"` without spaces and writes letters, digits and "-_." as
// themselves; values with other characters, whose encoding could differ
// between Go versions, get nil. A record containing the needle may still not
// match (the text can occur in an answer), so it is only a first sieve.
func fieldNeedle(field, value string) []byte {
	if value == "" {
		return nil
	}
	for _, c := range []byte(value) {
		plain := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
		if !plain {
			return nil
		}
	}
	return []byte(`"` + field + `":"` + value + `"`)
}

// mayContain reports whether v contains needle; a nil needle is in
// everything.
func mayContain(v, needle []byte) bool {
	return needle == nil || bytes.Contains(v, needle)
}

// historyKey is the key of the entry with the given ID: big-endian, so keys
// sort as IDs do.
func historyKey(id uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), id)
}

// historyID reads a key made by historyKey.
func historyID(k []byte) (uint64, error) {
	if len(k) != 8 {
		return 0, fmt.Errorf("%s/%x: history key is not 8 bytes", bucketHistory, k)
	}
	return binary.BigEndian.Uint64(k), nil
}

// decodeHistory decodes the entry stored under k and checks that it is the
// entry the key names.
func decodeHistory(k, v []byte) (HistoryEntry, error) {
	id, err := historyID(k)
	if err != nil {
		return HistoryEntry{}, err
	}
	var e HistoryEntry
	if err := decodeValue(bucketHistory, strconv.AppendUint(nil, id, 10), v, &e); err != nil {
		return HistoryEntry{}, err
	}
	if e.ID != id {
		return HistoryEntry{}, fmt.Errorf("history entry stored under %d has id %d", id, e.ID)
	}
	return e, nil
}
