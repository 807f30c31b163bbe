package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.etcd.io/bbolt"
)

// Bounds of SearchConversations.
const (
	defaultSearchLimit = 50
	// MaxSearchResults is the most conversations one search returns.
	MaxSearchResults = 500
)

// snippetBefore and snippetLength bound ConversationHit.Snippet, in
// characters: some context before the match, and the snippet in all.
const (
	snippetBefore = 30
	snippetLength = 120
)

// SearchConversations returns the conversations whose title or whose
// messages' text contains query, the most recently updated first, each
// once, at most limit of them (0 or less means 50, more than
// MaxSearchResults means MaxSearchResults). Letters match whatever their
// case (compared after unicode.ToLower, one character at a time, except
// that a character outside ASCII never matches one in it: the Kelvin sign
// is not a "k"); text without case, such as Chinese, matches as it is.
// Surrounding spaces of query are ignored; an empty query finds nothing.
// Only Message.Text is searched, not reasoning, tool arguments or tool
// results.
//
// It reads the conversations newest first and stops at limit. Records are
// first sieved as stored bytes (see newSieve), so only those that may
// match are decoded: a search of 100,000 messages that finds nothing takes
// under 0.1 s on a 2-core machine (BenchmarkChat).
func (s *Store) SearchConversations(query string, limit int) ([]ConversationHit, error) {
	switch {
	case limit <= 0:
		limit = defaultSearchLimit
	case limit > MaxSearchResults:
		limit = MaxSearchResults
	}
	out := []ConversationHit{}
	query = strings.TrimSpace(query)
	if query == "" {
		return out, nil
	}
	needle := lowerRunes(query)
	mayMatch := newSieve(query)

	err := s.db.View(func(tx *bbolt.Tx) error {
		convs := tx.Bucket(bucketConversations)
		msgs := tx.Bucket(bucketMessages)
		c := tx.Bucket(bucketRecent).Cursor()
		for k, _ := c.Last(); k != nil && len(out) < limit; k, _ = c.Prev() {
			id := recentID(k)
			v := convs.Get([]byte(id))
			if v == nil {
				return fmt.Errorf("the list of conversations names %q, which is missing", id)
			}
			var conv *Conversation
			if mayMatch(v) {
				got, err := decodeConversation([]byte(id), v)
				if err != nil {
					return err
				}
				if indexFold(got.Title, needle) >= 0 {
					out = append(out, ConversationHit{Conversation: got})
					continue
				}
				conv = &got
			}
			hit, found, err := searchMessages(msgs.Bucket([]byte(id)), id, needle, mayMatch)
			if err != nil || !found {
				if err != nil {
					return err
				}
				continue
			}
			if conv == nil {
				got, err := decodeConversation([]byte(id), v)
				if err != nil {
					return err
				}
				conv = &got
			}
			hit.Conversation = *conv
			out = append(out, hit)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("search conversations: %w", err)
	}
	return out, nil
}

// searchMessages returns the first message of the conversation's bucket b
// (nil for none) whose text contains needle, with a snippet.
func searchMessages(b *bbolt.Bucket, convID string, needle []rune, mayMatch func([]byte) bool) (ConversationHit, bool, error) {
	if b == nil {
		return ConversationHit{}, false, nil
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil || !mayMatch(v) {
			continue
		}
		seq, err := messageSeq(k)
		if err != nil {
			return ConversationHit{}, false, fmt.Errorf("conversation %q: %w", convID, err)
		}
		var m struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(v, &m); err != nil {
			return ConversationHit{}, false, fmt.Errorf("%s/%s/%d: %w", bucketMessages, convID, seq, err)
		}
		if at := indexFold(m.Text, needle); at >= 0 {
			return ConversationHit{Seq: seq, Snippet: snippet(m.Text, at)}, true, nil
		}
	}
	return ConversationHit{}, false, nil
}

// newSieve returns a test of a stored record (JSON) that is true for every
// record whose text holds query, and false for most others. The stored JSON
// holds text as it is, except for characters JSON escapes (such as "<" and
// the quote), so the sieve looks for the longest part of the query without
// them in the stored bytes:
//   - a part of ASCII and of characters without case (Chinese) is a plain
//     byte search in the record with its ASCII letters lowered, which is
//     exact because a character outside ASCII never matches one in it;
//   - another part (with "é", say) is looked for character by character;
//   - a query made only of characters JSON escapes gets no sieve.
func newSieve(query string) func(v []byte) bool {
	var part string
	for _, p := range strings.FieldsFunc(query, escapedInJSON) {
		if len(p) > len(part) {
			part = p
		}
	}
	needle := lowerRunes(part)
	switch {
	case part == "":
		return func([]byte) bool { return true }
	case strings.ContainsFunc(part, hasCase):
		return func(v []byte) bool { return indexFold(v, needle) >= 0 }
	}
	want := []byte(string(needle))
	var buf []byte
	return func(v []byte) bool {
		buf = append(buf[:0], v...)
		for i, c := range buf {
			if 'A' <= c && c <= 'Z' {
				buf[i] = c + 'a' - 'A'
			}
		}
		return bytes.Contains(buf, want)
	}
}

// hasCase reports whether r is a character outside ASCII that has other
// cases.
func hasCase(r rune) bool {
	return r >= utf8.RuneSelf && unicode.SimpleFold(r) != r
}

// escapedInJSON reports whether encoding/json writes r other than as its
// UTF-8 bytes inside a string.
func escapedInJSON(r rune) bool {
	switch r {
	case '"', '\\', '<', '>', '&', '\u2028', '\u2029', utf8.RuneError:
		return true
	}
	return r < 0x20
}

// lowerRunes returns s's characters, each lowered by lowerRune.
func lowerRunes(s string) []rune {
	out := []rune(s)
	for i, r := range out {
		out[i] = lowerRune(r)
	}
	return out
}

// lowerRune is unicode.ToLower, except that a character outside ASCII that
// would become one in it stays as it is.
func lowerRune(r rune) rune {
	if lower := unicode.ToLower(r); lower >= utf8.RuneSelf || r < utf8.RuneSelf {
		return lower
	}
	return r
}

// indexFold returns the byte index of the first place where s holds needle
// (lowered by lowerRunes), comparing each character of s after
// unicode.ToLower, or -1.
func indexFold[T string | []byte](s T, needle []rune) int {
	if len(needle) == 0 {
		return 0
	}
	for i := 0; i < len(s); {
		r, size := lowerRuneAt(s, i)
		if r == needle[0] && hasFoldPrefix(s, i+size, needle[1:]) {
			return i
		}
		i += size
	}
	return -1
}

// hasFoldPrefix reports whether s, from byte i on, starts with needle.
func hasFoldPrefix[T string | []byte](s T, i int, needle []rune) bool {
	for _, want := range needle {
		if i >= len(s) {
			return false
		}
		r, size := lowerRuneAt(s, i)
		if r != want {
			return false
		}
		i += size
	}
	return true
}

// lowerRuneAt decodes the character at byte i of s, lowered, and its size.
func lowerRuneAt[T string | []byte](s T, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return rune(c), 1
	}
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], s[i:min(i+utf8.UTFMax, len(s))])
	r, size := utf8.DecodeRune(buf[:n])
	return lowerRune(r), size
}

// snippet returns text around byte at, on one line: up to snippetBefore
// characters before it and snippetLength in all, with "…" where cut.
func snippet(text string, at int) string {
	start := at
	for n := 0; n < snippetBefore && start > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:start])
		start -= size
	}
	end := start
	for n := 0; n < snippetLength && end < len(text); n++ {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	out := strings.Join(strings.Fields(text[start:end]), " ")
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}
