package store

import (
	"fmt"
	"slices"

	"go.etcd.io/bbolt"
)

// MessagePage is a part of a conversation's messages, oldest first (see
// Store.MessagePage).
type MessagePage struct {
	Messages []Message `json:"messages"`
	// More says the conversation has messages older than these.
	More bool `json:"more"`
}

// MessagePage reads a conversation's newest messages with from <= Seq <
// before (before 0: no upper bound), at most limit of them (limit <= 0:
// all), and returns them oldest first. A page cut by limit is stretched
// back to the person's message that begins its turn (by at most limit more
// messages), so that a tool call and its result come in the same page.
// More is set when the conversation has older messages than the page's.
// The window opens a long conversation on its newest page and reads the
// older ones as the person scrolls up (issue 26, P8c). It returns
// ErrNotFound for an unknown conversation; a message that cannot be read
// fails the call with an error naming it. Messages is the page of all.
func (s *Store) MessagePage(convID string, from, before uint64, limit int) (MessagePage, error) {
	page := MessagePage{Messages: []Message{}}
	err := s.db.View(func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketConversations).Get([]byte(convID)) == nil {
			return fmt.Errorf("conversation %q: %w", convID, ErrNotFound)
		}
		b := tx.Bucket(bucketMessages).Bucket([]byte(convID))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		var k, v []byte
		if before == 0 {
			k, v = c.Last()
		} else if k, _ = c.Seek(messageKey(before)); k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil; k, v = c.Prev() {
			seq, err := messageSeq(k)
			if err != nil {
				return fmt.Errorf("conversation %q: %w", convID, err)
			}
			if seq < from {
				break
			}
			if n := len(page.Messages); limit > 0 && n >= limit {
				if page.Messages[n-1].Role == RoleUser || n >= 2*limit {
					break
				}
			}
			m, err := decodeMessage(convID, k, v)
			if err != nil {
				return err
			}
			page.Messages = append(page.Messages, m)
		}
		page.More = k != nil
		return nil
	})
	if err != nil {
		return MessagePage{}, err
	}
	slices.Reverse(page.Messages)
	return page, nil
}
