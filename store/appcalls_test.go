package store

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestAppCalls_KeptWithTheirConversationAcrossAReopen(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	conv, err := s.PutConversation(Conversation{Title: "Budget"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.PutConversation(Conversation{Title: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	call := AppCall{ConversationID: conv.ID, CallID: "call_1", ServerID: "srv", Tool: "get-budget-data",
		Arguments: json.RawMessage(`{"year":2026}`), Result: json.RawMessage(`{"structuredContent":{"total":5}}`)}
	if err := s.PutAppCall(call); err != nil {
		t.Fatalf("PutAppCall: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openT(t, dir)
	got, err := s.AppCall(conv.ID, "call_1")
	if err != nil {
		t.Fatalf("AppCall after reopening: %v", err)
	}
	if got.ServerID != "srv" || got.Tool != "get-budget-data" || string(got.Arguments) != `{"year":2026}` ||
		string(got.Result) != `{"structuredContent":{"total":5}}` {
		t.Errorf("AppCall = %+v", got)
	}
	// Another conversation's call under the same ID is not this one.
	if _, err := s.AppCall(other.ID, "call_1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("AppCall of another conversation: %v, want ErrNotFound", err)
	}
	// A newer call under the same ID replaces it.
	call.Result = json.RawMessage(`{"content":[]}`)
	if err := s.PutAppCall(call); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.AppCall(conv.ID, "call_1"); string(got.Result) != `{"content":[]}` {
		t.Errorf("after a second put, Result = %s", got.Result)
	}
	// Deleting the conversation deletes its app calls.
	if err := s.DeleteConversation(conv.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppCall(conv.ID, "call_1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("AppCall after deleting the conversation: %v, want ErrNotFound", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	openT(t, dir) // the file still passes Open's check
}

func TestPutAppCall_RefusesWhatItCannotKeep(t *testing.T) {
	s := openT(t, t.TempDir())
	conv, err := s.PutConversation(Conversation{Title: "c"})
	if err != nil {
		t.Fatal(err)
	}
	ok := AppCall{ConversationID: conv.ID, CallID: "c1", ServerID: "srv", Tool: "t",
		Arguments: json.RawMessage(`{}`), Result: json.RawMessage(`{}`)}
	big := json.RawMessage(`"` + strings.Repeat("x", MaxAppCallBytes) + `"`)
	tests := []struct {
		name string
		edit func(c *AppCall)
		want error
	}{
		{"no call ID", func(c *AppCall) { c.CallID = "" }, ErrInvalid},
		{"a call ID too long", func(c *AppCall) { c.CallID = strings.Repeat("i", 300) }, ErrInvalid},
		{"no server", func(c *AppCall) { c.ServerID = "" }, ErrInvalid},
		{"no tool", func(c *AppCall) { c.Tool = "" }, ErrInvalid},
		{"arguments not JSON", func(c *AppCall) { c.Arguments = json.RawMessage(`{`) }, ErrInvalid},
		{"no result", func(c *AppCall) { c.Result = nil }, ErrInvalid},
		{"a result over the bound", func(c *AppCall) { c.Result = big }, ErrInvalid},
		{"an unknown conversation", func(c *AppCall) { c.ConversationID = "nope" }, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.edit(&c)
			if err := s.PutAppCall(c); !errors.Is(err, tt.want) {
				t.Errorf("PutAppCall = %v, want %v", err, tt.want)
			}
			if _, err := s.AppCall(c.ConversationID, c.CallID); !errors.Is(err, ErrNotFound) {
				t.Errorf("AppCall after a refused put = %v, want ErrNotFound", err)
			}
		})
	}
}
