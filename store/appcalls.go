package store

import (
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// MaxAppCallBytes bounds what is kept of one call of a tool with an
// interface (AppCall's arguments and result together): a call past it is
// not kept, and its app is not shown again once the window forgot it.
const MaxAppCallBytes = 512 << 10

// maxAppCallIDBytes bounds a call ID used as a key (the model gives it).
const maxAppCallIDBytes = 256

// bucketAppCalls holds, per conversation, the calls of tools with an
// interface (MCP Apps) its tool-call cards show: one nested bucket named by
// Conversation.ID, the model's call ID → AppCall. It is created by the
// first PutAppCall rather than by a migration: a build that does not know
// it reads the file as before (it only touches the bucket's bytes), and a
// nested bucket left by such a build's DeleteConversation is never read.
var bucketAppCalls = []byte("appcalls")

// AppCall is a chat call of a tool with an interface as the server
// answered it: what the app shown in the call's card is given when the
// conversation is read again, after the window forgot the call (Gatehouse
// restarted). The messages keep what the model was given; this keeps the
// server's own result.
type AppCall struct {
	ConversationID string `json:"conversationId"`
	// CallID is the model's ID for the call (ToolCall.ID).
	CallID   string `json:"callId"`
	ServerID string `json:"serverId"`
	Tool     string `json:"tool"`
	// Arguments are the arguments sent, as JSON.
	Arguments json.RawMessage `json:"arguments" ts_type:"unknown"`
	// Result is the CallToolResult the server returned, as JSON.
	Result json.RawMessage `json:"result" ts_type:"unknown"`
}

// PutAppCall keeps c with its conversation, replacing a call kept under the
// same ID. It returns ErrNotFound for an unknown conversation and
// ErrInvalid, keeping nothing, for a call without an ID, server or tool,
// JSON that is not JSON, or more than MaxAppCallBytes.
func (s *Store) PutAppCall(c AppCall) error {
	switch {
	case c.CallID == "" || len(c.CallID) > maxAppCallIDBytes || c.ServerID == "" || c.Tool == "":
		return fmt.Errorf("%w: an app call needs its call ID (at most %d bytes), server and tool", ErrInvalid, maxAppCallIDBytes)
	case !json.Valid(c.Arguments) || !json.Valid(c.Result):
		return fmt.Errorf("%w: the app call %q holds arguments or a result that are not JSON", ErrInvalid, c.CallID)
	case len(c.Arguments)+len(c.Result) > MaxAppCallBytes:
		return fmt.Errorf("%w: the app call %q is over %d bytes", ErrInvalid, c.CallID, MaxAppCallBytes)
	}
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode the app call %q: %w", c.CallID, err)
	}
	return s.update(func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketConversations).Get([]byte(c.ConversationID)) == nil {
			return fmt.Errorf("conversation %q: %w", c.ConversationID, ErrNotFound)
		}
		all, err := tx.CreateBucketIfNotExists(bucketAppCalls)
		if err != nil {
			return fmt.Errorf("keep the app call %q: %w", c.CallID, err)
		}
		b, err := all.CreateBucketIfNotExists([]byte(c.ConversationID))
		if err != nil {
			return fmt.Errorf("keep the app call %q: %w", c.CallID, err)
		}
		if err := b.Put([]byte(c.CallID), data); err != nil {
			return fmt.Errorf("keep the app call %q: %w", c.CallID, err)
		}
		return nil
	})
}

// AppCall returns the call kept under callID in the conversation, or
// ErrNotFound.
func (s *Store) AppCall(conversationID, callID string) (AppCall, error) {
	var c AppCall
	err := s.db.View(func(tx *bbolt.Tx) error {
		var v []byte
		if all := tx.Bucket(bucketAppCalls); all != nil {
			if b := all.Bucket([]byte(conversationID)); b != nil {
				v = b.Get([]byte(callID))
			}
		}
		if v == nil || tx.Bucket(bucketConversations).Get([]byte(conversationID)) == nil {
			return fmt.Errorf("app call %q of conversation %q: %w", callID, conversationID, ErrNotFound)
		}
		if err := decodeValue(bucketAppCalls, []byte(conversationID+"/"+callID), v, &c); err != nil {
			return err
		}
		if c.ConversationID != conversationID || c.CallID != callID {
			return fmt.Errorf("app call %q of conversation %q is stored as %q of %q", callID, conversationID, c.CallID, c.ConversationID)
		}
		return nil
	})
	if err != nil {
		return AppCall{}, err
	}
	return c, nil
}

// deleteAppCalls removes the app calls kept with a conversation, within tx.
func deleteAppCalls(tx *bbolt.Tx, conversationID string) error {
	all := tx.Bucket(bucketAppCalls)
	if all == nil || all.Bucket([]byte(conversationID)) == nil {
		return nil
	}
	if err := all.DeleteBucket([]byte(conversationID)); err != nil {
		return fmt.Errorf("delete the app calls of conversation %q: %w", conversationID, err)
	}
	return nil
}
