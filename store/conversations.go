package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"go.etcd.io/bbolt"
)

// Limits of a conversation's fields. They keep a conversation's record,
// which every page of the list reads, small.
const (
	// MaxTitleLength is the most characters a conversation's title has.
	MaxTitleLength = 200
	// MaxSystemPromptLength is the most characters a system prompt has.
	MaxSystemPromptLength = 100_000
)

// MaxMessageBytes bounds one stored message (its JSON record). A message
// that would be larger has its largest parts (tool results, text,
// reasoning, tool arguments) cut, and says so in Message.Truncated: never
// silently. 1 MiB is some 250,000 tokens of text, more than most models'
// context holds, so little a model could use is lost, while a server
// returning a huge result cannot make a conversation slow to open or the
// data file grow without bound. An image in a tool result larger than that
// is cut like any other result.
const MaxMessageBytes = 1 << 20

// defaultConversationLimit is how many conversations Conversations returns
// when the filter sets no Limit.
const defaultConversationLimit = 200

// Conversations returns the conversations f selects, the most recently
// updated first. It reads only the page it returns, through an index by
// update time, so it costs the same with 10 or 10,000 conversations. The
// slice is empty, not nil, when there are none.
func (s *Store) Conversations(f ConversationFilter) ([]Conversation, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = defaultConversationLimit
	}
	out := []Conversation{}
	err := s.db.View(func(tx *bbolt.Tx) error {
		convs := tx.Bucket(bucketConversations)
		c := tx.Bucket(bucketRecent).Cursor()
		var k []byte
		if f.Older == nil {
			k, _ = c.Last()
		} else if k, _ = c.Seek(recentKey(f.Older.UpdatedAt, f.Older.ID)); k == nil {
			k, _ = c.Last() // every conversation is older
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && len(out) < limit; k, _ = c.Prev() {
			id := recentID(k)
			v := convs.Get([]byte(id))
			if v == nil {
				return fmt.Errorf("the list of conversations names %q, which is missing", id)
			}
			conv, err := decodeConversation([]byte(id), v)
			if err != nil {
				return err
			}
			out = append(out, conv)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read conversations: %w", err)
	}
	return out, nil
}

// Conversation returns the conversation with the given ID, or ErrNotFound.
func (s *Store) Conversation(id string) (Conversation, error) {
	var conv Conversation
	err := s.db.View(func(tx *bbolt.Tx) (err error) {
		conv, err = getConversation(tx, id)
		return err
	})
	return conv, err
}

// PutConversation stores c and returns the stored record.
//
// With an empty ID it creates a conversation, without messages, under a
// fresh random ID and sets CreatedAt. Otherwise it replaces the settings of
// the conversation with that ID, which must exist (else ErrNotFound),
// keeping its CreatedAt, AllowedTools and messages. Either way it trims
// Title, drops blank and repeated Servers, sets UpdatedAt, and refuses
// (ErrInvalid) a title over MaxTitleLength characters, a system prompt over
// MaxSystemPromptLength, or a ProviderID no provider has.
func (s *Store) PutConversation(c Conversation) (Conversation, error) {
	if err := cleanConversation(&c); err != nil {
		return Conversation{}, err
	}
	var stored Conversation
	err := s.update(func(tx *bbolt.Tx) error {
		if c.ProviderID != "" && tx.Bucket(bucketProviders).Get([]byte(c.ProviderID)) == nil {
			return fmt.Errorf("%w: the conversation's provider %q does not exist (was it removed?)", ErrInvalid, c.ProviderID)
		}
		now := s.now()
		var old *Conversation
		if c.ID == "" {
			c.ID = newID(tx.Bucket(bucketConversations))
			c.CreatedAt = now
			c.AllowedTools = nil
			if _, err := tx.Bucket(bucketMessages).CreateBucket([]byte(c.ID)); err != nil {
				return fmt.Errorf("create the messages of conversation %q: %w", c.ID, err)
			}
		} else {
			prev, err := getConversation(tx, c.ID)
			if err != nil {
				return err
			}
			old = &prev
			c.CreatedAt, c.AllowedTools = prev.CreatedAt, prev.AllowedTools
		}
		var err error
		stored, err = saveConversation(tx, c, old, now)
		return err
	})
	if err != nil {
		return Conversation{}, err
	}
	return stored, nil
}

// RenameConversation sets the title of the conversation with the given ID
// (trimmed, at most MaxTitleLength characters, else ErrInvalid) and returns
// the stored record, or ErrNotFound.
func (s *Store) RenameConversation(id, title string) (Conversation, error) {
	title = strings.TrimSpace(title)
	if err := validTitle(title); err != nil {
		return Conversation{}, err
	}
	return s.editConversation(id, func(c *Conversation) error {
		c.Title = title
		return nil
	})
}

// DeleteConversation removes the conversation with the given ID, all its
// messages and its app calls in one transaction, or returns ErrNotFound. A
// conversation whose record cannot be read can still be deleted. Its ID is
// not given to any later conversation.
func (s *Store) DeleteConversation(id string) error {
	return s.update(func(tx *bbolt.Tx) error {
		convs := tx.Bucket(bucketConversations)
		v := convs.Get([]byte(id))
		if v == nil {
			return fmt.Errorf("conversation %q: %w", id, ErrNotFound)
		}
		if err := deleteRecent(tx.Bucket(bucketRecent), id, v); err != nil {
			return fmt.Errorf("delete conversation %q: %w", id, err)
		}
		if msgs := tx.Bucket(bucketMessages); msgs.Bucket([]byte(id)) != nil {
			if err := msgs.DeleteBucket([]byte(id)); err != nil {
				return fmt.Errorf("delete the messages of conversation %q: %w", id, err)
			}
		}
		if err := deleteAppCalls(tx, id); err != nil {
			return err
		}
		if err := convs.Delete([]byte(id)); err != nil {
			return fmt.Errorf("delete conversation %q: %w", id, err)
		}
		return nil
	})
}

// Messages returns the conversation's messages in order (by Seq), or
// ErrNotFound for an unknown conversation. The slice is empty, not nil,
// when there are none. A message that cannot be read fails the call with
// an error naming it; DeleteConversation still works.
func (s *Store) Messages(convID string) ([]Message, error) {
	page, err := s.MessagePage(convID, 0, 0, 0)
	if err != nil {
		return nil, err
	}
	return page.Messages, nil
}

// AppendMessages adds msgs, in order, at the end of the conversation in one
// transaction, and returns them as stored: with ConversationID, Seq and
// CreatedAt set, and cut to MaxMessageBytes where needed (see
// Message.Truncated). The caller's ConversationID, Seq and CreatedAt are
// ignored. It returns ErrNotFound for an unknown conversation and
// ErrInvalid, storing nothing, when a message has an unknown role, is a
// RoleTool message without ToolCallID, or holds JSON fields that are not
// JSON.
func (s *Store) AppendMessages(convID string, msgs ...Message) ([]Message, error) {
	for i := range msgs {
		if err := validMessage(msgs[i]); err != nil {
			return nil, fmt.Errorf("message %d of %d: %w", i+1, len(msgs), err)
		}
	}
	stored := make([]Message, 0, len(msgs))
	err := s.update(func(tx *bbolt.Tx) error {
		conv, err := getConversation(tx, convID)
		if err != nil {
			return err
		}
		b, err := tx.Bucket(bucketMessages).CreateBucketIfNotExists([]byte(convID))
		if err != nil {
			return fmt.Errorf("open the messages of conversation %q: %w", convID, err)
		}
		// Messages are appended at the end, so pages need little room to
		// grow; the default of half-full pages would double the file.
		b.FillPercent = 0.9
		now := s.now()
		for _, m := range msgs {
			seq, err := b.NextSequence()
			if err != nil {
				return fmt.Errorf("number a message of conversation %q: %w", convID, err)
			}
			m.ConversationID, m.Seq, m.CreatedAt = convID, seq, now
			got, err := putMessage(b, m)
			if err != nil {
				return err
			}
			stored = append(stored, got)
		}
		old := conv
		_, err = saveConversation(tx, conv, &old, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return stored, nil
}

// UpdateMessage replaces the message with m's ConversationID and Seq,
// keeping its CreatedAt, and returns it as stored (cut to MaxMessageBytes
// where needed): for example to mark it Dropped. It returns ErrNotFound for
// an unknown conversation or message and ErrInvalid as AppendMessages does.
func (s *Store) UpdateMessage(m Message) (Message, error) {
	if err := validMessage(m); err != nil {
		return Message{}, err
	}
	var stored Message
	err := s.update(func(tx *bbolt.Tx) error {
		conv, err := getConversation(tx, m.ConversationID)
		if err != nil {
			return err
		}
		b := tx.Bucket(bucketMessages).Bucket([]byte(m.ConversationID))
		var v []byte
		if b != nil {
			v = b.Get(messageKey(m.Seq))
		}
		if v == nil {
			return fmt.Errorf("message %d of conversation %q: %w", m.Seq, m.ConversationID, ErrNotFound)
		}
		old, err := decodeMessage(m.ConversationID, messageKey(m.Seq), v)
		if err != nil {
			// Replacing an unreadable message is how it gets mended.
			old.CreatedAt = s.now()
		}
		m.CreatedAt = old.CreatedAt
		if stored, err = putMessage(b, m); err != nil {
			return err
		}
		prev := conv
		_, err = saveConversation(tx, conv, &prev, s.now())
		return err
	})
	if err != nil {
		return Message{}, err
	}
	return stored, nil
}

// DropToolResults marks the conversation's tool results with a Seq below
// before as Dropped, in one transaction, and returns how many it marked
// (those dropped already are not counted). This is how the person makes
// room in a model's context: the results stay stored and readable, while
// whoever sends the conversation to a model sends a short placeholder for
// each (a provider refuses a tool call without a result). Denials are kept:
// they are the person's answer, a few words the model should not lose. It
// returns ErrNotFound for an unknown conversation.
func (s *Store) DropToolResults(convID string, before uint64) (int, error) {
	dropped := 0
	err := s.update(func(tx *bbolt.Tx) error {
		conv, err := getConversation(tx, convID)
		if err != nil {
			return err
		}
		b := tx.Bucket(bucketMessages).Bucket([]byte(convID))
		if b == nil {
			return nil
		}
		var marked []Message
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			m, err := decodeMessage(convID, k, v)
			if err != nil {
				return err
			}
			if m.Seq >= before {
				break
			}
			if m.Role == RoleTool && !m.Dropped && (m.ToolResult == nil || !m.ToolResult.Denied) {
				m.Dropped = true
				marked = append(marked, m)
			}
		}
		for _, m := range marked { // not while the cursor walks the bucket
			if _, err := putMessage(b, m); err != nil {
				return err
			}
		}
		dropped = len(marked)
		if dropped == 0 {
			return nil
		}
		prev := conv
		_, err = saveConversation(tx, conv, &prev, s.now())
		return err
	})
	if err != nil {
		return 0, err
	}
	return dropped, nil
}

// editConversation applies edit to the stored conversation and saves it,
// in one transaction.
func (s *Store) editConversation(id string, edit func(c *Conversation) error) (Conversation, error) {
	var stored Conversation
	err := s.update(func(tx *bbolt.Tx) error {
		c, err := getConversation(tx, id)
		if err != nil {
			return err
		}
		old := c
		c.AllowedTools = slices.Clone(c.AllowedTools)
		if err := edit(&c); err != nil {
			return err
		}
		stored, err = saveConversation(tx, c, &old, s.now())
		return err
	})
	if err != nil {
		return Conversation{}, err
	}
	return stored, nil
}

// saveConversation sets c's UpdatedAt to now, stores it, moves it in the
// index from where old (nil for a new conversation) was, and returns what a
// later read will see.
func saveConversation(tx *bbolt.Tx, c Conversation, old *Conversation, now time.Time) (Conversation, error) {
	c.UpdatedAt = now
	data, err := json.Marshal(c)
	if err != nil {
		return Conversation{}, fmt.Errorf("encode conversation: %w", err)
	}
	recent := tx.Bucket(bucketRecent)
	if old != nil {
		if err := recent.Delete(recentKey(old.UpdatedAt, old.ID)); err != nil {
			return Conversation{}, fmt.Errorf("save conversation %q: %w", c.ID, err)
		}
	}
	if err := recent.Put(recentKey(c.UpdatedAt, c.ID), nil); err != nil {
		return Conversation{}, fmt.Errorf("save conversation %q: %w", c.ID, err)
	}
	if err := tx.Bucket(bucketConversations).Put([]byte(c.ID), data); err != nil {
		return Conversation{}, fmt.Errorf("save conversation %q: %w", c.ID, err)
	}
	var stored Conversation
	if err := json.Unmarshal(data, &stored); err != nil {
		return Conversation{}, fmt.Errorf("encode conversation: %w", err)
	}
	return stored, nil
}

// deleteRecent removes the conversation's index entry: where its record
// (v) says it is, or, if the record cannot be read, wherever it is.
func deleteRecent(recent *bbolt.Bucket, id string, v []byte) error {
	var c Conversation
	if json.Unmarshal(v, &c) == nil {
		if k := recentKey(c.UpdatedAt, id); recent.Get(k) != nil {
			return recent.Delete(k)
		}
	}
	cur := recent.Cursor()
	for k, _ := cur.First(); k != nil; k, _ = cur.Next() {
		if recentID(k) == id {
			return cur.Delete()
		}
	}
	return nil
}

// cleanConversation trims c's fields and checks them, in sentences.
func cleanConversation(c *Conversation) error {
	c.Title = strings.TrimSpace(c.Title)
	if err := validTitle(c.Title); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(c.SystemPrompt); n > MaxSystemPromptLength {
		return fmt.Errorf("%w: the system prompt has %d characters; at most %d are kept",
			ErrInvalid, n, MaxSystemPromptLength)
	}
	var servers []string
	for _, id := range c.Servers {
		if id = strings.TrimSpace(id); id != "" && !slices.Contains(servers, id) {
			servers = append(servers, id)
		}
	}
	c.Servers = servers
	return nil
}

// validTitle refuses a title over MaxTitleLength characters.
func validTitle(title string) error {
	if n := utf8.RuneCountInString(title); n > MaxTitleLength {
		return fmt.Errorf("%w: the title has %d characters; at most %d fit", ErrInvalid, n, MaxTitleLength)
	}
	return nil
}

// validMessage refuses a message AppendMessages must not store.
func validMessage(m Message) error {
	switch m.Role {
	case RoleSystem, RoleUser, RoleAssistant:
	case RoleTool:
		if m.ToolCallID == "" {
			return fmt.Errorf("%w: a tool message needs the ID of the tool call it answers", ErrInvalid)
		}
	default:
		return fmt.Errorf("%w: unknown message role %q", ErrInvalid, m.Role)
	}
	if len(m.ProviderData) > 0 && !json.Valid(m.ProviderData) {
		return fmt.Errorf("%w: the provider data of the message is not JSON", ErrInvalid)
	}
	for _, call := range m.ToolCalls {
		if len(call.Arguments) > 0 && !json.Valid(call.Arguments) {
			return fmt.Errorf("%w: the arguments of tool call %q are not JSON", ErrInvalid, call.ID)
		}
	}
	if r := m.ToolResult; r != nil && len(r.Content) > 0 && !json.Valid(r.Content) {
		return fmt.Errorf("%w: the result of tool call %q is not JSON", ErrInvalid, m.ToolCallID)
	}
	return nil
}

// putMessage stores m, cut to MaxMessageBytes, in the conversation's bucket
// b and returns what a later read will see.
func putMessage(b *bbolt.Bucket, m Message) (Message, error) {
	data, err := fitMessage(&m)
	if err != nil {
		return Message{}, fmt.Errorf("message %d of conversation %q: %w", m.Seq, m.ConversationID, err)
	}
	if err := b.Put(messageKey(m.Seq), data); err != nil {
		return Message{}, fmt.Errorf("save message %d of conversation %q: %w", m.Seq, m.ConversationID, err)
	}
	var stored Message
	if err := json.Unmarshal(data, &stored); err != nil {
		return Message{}, fmt.Errorf("encode message %d of conversation %q: %w", m.Seq, m.ConversationID, err)
	}
	return stored, nil
}

// getConversation reads the conversation stored under id within tx.
func getConversation(tx *bbolt.Tx, id string) (Conversation, error) {
	v := tx.Bucket(bucketConversations).Get([]byte(id))
	if v == nil {
		return Conversation{}, fmt.Errorf("conversation %q: %w", id, ErrNotFound)
	}
	return decodeConversation([]byte(id), v)
}

// decodeConversation decodes the record stored under key k and checks that
// it is the conversation the key names.
func decodeConversation(k, v []byte) (Conversation, error) {
	var c Conversation
	if err := decodeValue(bucketConversations, k, v, &c); err != nil {
		return Conversation{}, err
	}
	if c.ID != string(k) {
		return Conversation{}, fmt.Errorf("conversation stored under %q has id %q", k, c.ID)
	}
	return c, nil
}

// decodeMessage decodes the message stored under k in the conversation's
// bucket and checks that it is the message the key names.
func decodeMessage(convID string, k, v []byte) (Message, error) {
	seq, err := messageSeq(k)
	if err != nil {
		return Message{}, fmt.Errorf("conversation %q: %w", convID, err)
	}
	var m Message
	name := []byte(convID + "/" + strconv.FormatUint(seq, 10))
	if err := decodeValue(bucketMessages, name, v, &m); err != nil {
		return Message{}, err
	}
	if m.Seq != seq || m.ConversationID != convID {
		return Message{}, fmt.Errorf("message %d of conversation %q is stored as message %d of %q",
			seq, convID, m.Seq, m.ConversationID)
	}
	return m, nil
}

// messageKey is the key of the message with the given Seq: big-endian, so
// keys sort as Seqs do.
func messageKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), seq)
}

// messageSeq reads a key made by messageKey.
func messageSeq(k []byte) (uint64, error) {
	if len(k) != 8 {
		return 0, fmt.Errorf("message key %x is not 8 bytes", k)
	}
	return binary.BigEndian.Uint64(k), nil
}

// recentKey is a conversation's key in bucketRecent: its update time as
// 8 bytes big-endian nanoseconds since 1970, so keys sort by time, then its
// ID, so keys are unique.
func recentKey(updated time.Time, id string) []byte {
	ns := max(updated.UnixNano(), 0)
	return append(binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(id)), uint64(ns)), id...)
}

// recentID returns the conversation ID of a key made by recentKey.
func recentID(k []byte) string {
	if len(k) < 8 {
		return ""
	}
	return string(k[8:])
}

// A cuttable is a part of a message that fitMessage may shorten.
type cuttable struct {
	what  string            // the part, in a sentence: "The tool result was"
	full  string            // its text; for a JSON part, its JSON text
	size  int               // the most bytes it takes in the record: jsonStringLen(full)
	keep  int               // how many bytes of full are kept
	apply func(kept string) // writes the kept text back into the message
	undo  func()            // writes the part back as it was
}

// noteRoom is the room left for Message.Truncated's sentences when a
// message is cut.
const noteRoom = 2 << 10

// fitMessage encodes m, first cutting its largest parts until the record is
// at most MaxMessageBytes, and adds a sentence per cut part to m.Truncated.
// A cut JSON part becomes a JSON string of the start of its text. It fails
// with ErrInvalid only when the message would be too large even with those
// parts empty.
//
// The parts are cut to one length, the largest first (so a small text
// beside a huge tool result is kept whole), measured as encoding/json
// writes them, in a few passes over the message: a 5 MB tool result is cut
// in milliseconds.
func fitMessage(m *Message) ([]byte, error) {
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	if len(data) <= MaxMessageBytes {
		return data, nil
	}
	parts := cuttables(m)
	// What the rest of the record takes, with each part standing in as
	// "x": its name is counted, and 3 bytes more than nothing.
	for _, p := range parts {
		p.apply("x")
	}
	rest, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	level, ok := waterLevel(parts, MaxMessageBytes-noteRoom-len(rest))
	if !ok {
		return nil, fmt.Errorf("%w: the message is over %d bytes even without its text and results", ErrInvalid, MaxMessageBytes)
	}
	var notes []string
	if m.Truncated != "" {
		notes = append(notes, m.Truncated)
	}
	for _, p := range parts {
		if p.size <= level {
			p.undo()
			continue
		}
		p.keep = prefixWithin(p.full, level)
		p.apply(p.full[:p.keep])
		notes = append(notes, fmt.Sprintf("%s cut from %s to the first %s bytes: a stored message holds at most 1 MiB.",
			p.what, groupDigits(len(p.full)), groupDigits(p.keep)))
	}
	m.Truncated = strings.Join(notes, " ")
	if data, err = json.Marshal(m); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	if len(data) > MaxMessageBytes {
		return nil, fmt.Errorf("%w: the message is over %d bytes even after cutting its text and results", ErrInvalid, MaxMessageBytes)
	}
	return data, nil
}

// waterLevel returns the largest length such that the parts, each cut to
// at most that many stored bytes, take at most room bytes together; false
// when even empty parts do not fit.
func waterLevel(parts []*cuttable, room int) (int, bool) {
	sizes := make([]int, len(parts))
	for i, p := range parts {
		sizes[i] = p.size
	}
	slices.SortFunc(sizes, func(a, b int) int { return b - a })
	rest := 0 // the parts not cut
	for _, n := range sizes {
		rest += n
	}
	for k := 1; k <= len(sizes); k++ { // the k largest are cut to level
		rest -= sizes[k-1]
		level := (room - rest) / k
		if k < len(sizes) && level < sizes[k] {
			continue // the next part must be cut too
		}
		return level, level >= 2 // a cut part is at least "" in the record
	}
	return 0, false
}

// prefixWithin returns the length of the longest prefix of s, ending
// between characters, that encoding/json writes as a string of at most
// budget bytes.
func prefixWithin(s string, budget int) int {
	n := 2 // the quotes
	for i := 0; i < len(s); {
		size, enc := jsonRuneLen(s, i)
		if n+enc > budget {
			return i
		}
		n += enc
		i += size
	}
	return len(s)
}

// jsonStringLen returns the most bytes encoding/json takes to write s as a
// string.
func jsonStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		size, enc := jsonRuneLen(s, i)
		n += enc
		i += size
	}
	return n
}

// jsonRuneLen returns the size of the character at byte i of s and the most
// bytes encoding/json writes for it inside a string: escapes (\n, \u003c,
// \ufffd for invalid UTF-8) are longer than the character.
func jsonRuneLen(s string, i int) (size, enc int) {
	c := s[i]
	if c < utf8.RuneSelf {
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			return 1, 2
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			return 1, 6
		}
		return 1, 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
		return size, 6
	}
	return size, size
}

// cuttables lists the parts of m that fitMessage may cut.
func cuttables(m *Message) []*cuttable {
	text := func(what string, field *string) *cuttable {
		full := *field
		return &cuttable{what: what, full: full, size: jsonStringLen(full), keep: len(full),
			apply: func(kept string) { *field = kept },
			undo:  func() { *field = full }}
	}
	raw := func(what string, field *json.RawMessage) *cuttable {
		full := string(*field)
		return &cuttable{what: what, full: full, size: jsonStringLen(full), keep: len(full),
			apply: func(kept string) {
				*field, _ = json.Marshal(kept) // a string always encodes
			},
			undo: func() { *field = json.RawMessage(full) }}
	}
	parts := []*cuttable{text("The text was", &m.Text), text("The reasoning was", &m.Reasoning)}
	if m.ToolResult != nil {
		parts = append(parts, raw("The tool result was", &m.ToolResult.Content))
	}
	for i := range m.ToolCalls {
		call := &m.ToolCalls[i]
		parts = append(parts, raw(fmt.Sprintf("The arguments of tool call %q were", call.ID), &call.Arguments))
	}
	for i := range m.Attachments {
		a := &m.Attachments[i]
		parts = append(parts, text(fmt.Sprintf("The attached %q was", a.Name), &a.Text))
	}
	return parts
}

// groupDigits writes n with commas between groups of three digits.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	var b bytes.Buffer
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
