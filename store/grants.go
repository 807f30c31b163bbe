package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.etcd.io/bbolt"
)

// AllowToolInConversation adds the grant to the conversation's
// AllowedTools, or, when the tool is there already, binds it to the grant's
// Seen (the person allowed the tool again as it is now), and returns the
// stored record: what "Allow in this conversation" saves. It returns
// ErrNotFound for an unknown conversation and ErrInvalid for an empty
// server ID or tool name.
func (s *Store) AllowToolInConversation(id string, grant ToolGrant) (Conversation, error) {
	if grant.ServerID == "" || strings.TrimSpace(grant.Tool) == "" {
		return Conversation{}, fmt.Errorf("%w: a tool to allow needs a server and a name", ErrInvalid)
	}
	return s.editConversation(id, func(c *Conversation) error {
		i := slices.IndexFunc(c.AllowedTools, func(g ToolGrant) bool { return g.Key() == grant.Key() })
		if i < 0 {
			c.AllowedTools = append(c.AllowedTools, grant)
		} else {
			c.AllowedTools[i] = grant
		}
		return nil
	})
}

// RevokeToolInConversation removes the tool from the conversation's
// AllowedTools, so that its next call there is asked, and returns the
// stored record. A tool not allowed there is no error. It returns
// ErrNotFound for an unknown conversation.
func (s *Store) RevokeToolInConversation(id string, key ToolKey) (Conversation, error) {
	return s.editConversation(id, func(c *Conversation) error {
		c.AllowedTools = slices.DeleteFunc(c.AllowedTools, func(g ToolGrant) bool { return g.Key() == key })
		if len(c.AllowedTools) == 0 {
			c.AllowedTools = nil
		}
		return nil
	})
}

// EndToolGrants removes the server's tool from the AllowedTools of every
// conversation (every tool of the server when tool is ""), in one
// transaction, and returns how many grants it removed: a setting the
// person chose later ("Ask each time", "Deny") then wins over the
// allowances they gave before in conversations. The conversations keep
// their UpdatedAt (nothing was said in them); one whose record cannot be
// read is left as it is.
func (s *Store) EndToolGrants(serverID, tool string) (int, error) {
	ended := 0
	err := s.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketConversations)
		type change struct {
			k []byte
			c Conversation
		}
		var changes []change
		err := b.ForEach(func(k, v []byte) error {
			c, err := decodeConversation(k, v)
			if err != nil || len(c.AllowedTools) == 0 {
				return nil
			}
			n := len(c.AllowedTools)
			c.AllowedTools = slices.DeleteFunc(c.AllowedTools, func(g ToolGrant) bool {
				return g.ServerID == serverID && (tool == "" || g.Tool == tool)
			})
			if len(c.AllowedTools) < n {
				ended += n - len(c.AllowedTools)
				if len(c.AllowedTools) == 0 {
					c.AllowedTools = nil
				}
				changes = append(changes, change{append([]byte(nil), k...), c})
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, ch := range changes {
			data, err := json.Marshal(ch.c)
			if err != nil {
				return fmt.Errorf("encode conversation %q: %w", ch.c.ID, err)
			}
			if err := b.Put(ch.k, data); err != nil {
				return fmt.Errorf("end the tool's allowances in conversation %q: %w", ch.c.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return ended, nil
}
