package store

import (
	"errors"
	"reflect"
	"testing"

	"go.etcd.io/bbolt"
)

func TestToolSeenSame(t *testing.T) {
	now := ToolSeen{Fingerprint: "abc"}
	tests := []struct {
		name string
		seen *ToolSeen
		want bool
	}{
		{"the same fingerprint is the same tool", &ToolSeen{Fingerprint: "abc", Description: "other text kept"}, true},
		{"another fingerprint is another tool", &ToolSeen{Fingerprint: "abd"}, false},
		{"nothing recorded is never the same", nil, false},
		{"an empty fingerprint is never the same", &ToolSeen{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.seen.Same(now); got != tc.want {
				t.Errorf("Same = %v, want %v", got, tc.want)
			}
		})
	}
	if (&ToolSeen{}).Same(ToolSeen{}) {
		t.Error("two empty fingerprints are the same")
	}
}

func TestConversationGrants(t *testing.T) {
	s := openT(t, t.TempDir())
	fakeClock(s)
	conv, err := s.PutConversation(Conversation{Title: "Trip to 杭州"})
	if err != nil {
		t.Fatal(err)
	}
	v1, v2 := &ToolSeen{Fingerprint: "v1"}, &ToolSeen{Fingerprint: "v2"}
	echo := ToolGrant{ServerID: "s1", Tool: "echo", Seen: v1}
	add := ToolGrant{ServerID: "s2", Tool: "echo", Seen: v1}
	echoAgain := ToolGrant{ServerID: "s1", Tool: "echo", Seen: v2}
	for _, g := range []ToolGrant{echo, add, echoAgain} {
		if _, err := s.AllowToolInConversation(conv.ID, g); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := s.Conversation(conv.ID)
	if want := []ToolGrant{echoAgain, add}; !reflect.DeepEqual(got.AllowedTools, want) || got.Title != "Trip to 杭州" {
		t.Errorf("after allowing echo, add, and echo as it is now: %+v, want echo bound to v2 and add", got.AllowedTools)
	}
	for _, bad := range []ToolGrant{{ServerID: "", Tool: "echo"}, {ServerID: "s1", Tool: " "}} {
		if _, err := s.AllowToolInConversation(conv.ID, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("AllowToolInConversation(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := s.AllowToolInConversation("nope", echo); !errors.Is(err, ErrNotFound) {
		t.Errorf("allowing in an unknown conversation = %v, want ErrNotFound", err)
	}

	revoked, err := s.RevokeToolInConversation(conv.ID, ToolKey{ServerID: "s1", Tool: "echo"})
	if err != nil || !reflect.DeepEqual(revoked.AllowedTools, []ToolGrant{add}) {
		t.Errorf("after revoking echo: %+v, %v", revoked.AllowedTools, err)
	}
	if again, err := s.RevokeToolInConversation(conv.ID, ToolKey{ServerID: "s1", Tool: "echo"}); err != nil || len(again.AllowedTools) != 1 {
		t.Errorf("revoking a tool not allowed = %+v, %v; want no change and no error", again.AllowedTools, err)
	}
	if _, err := s.RevokeToolInConversation("nope", echo.Key()); !errors.Is(err, ErrNotFound) {
		t.Errorf("revoking in an unknown conversation = %v, want ErrNotFound", err)
	}
	if last, _ := s.RevokeToolInConversation(conv.ID, add.Key()); last.AllowedTools != nil {
		t.Errorf("after revoking every grant: %+v, want none", last.AllowedTools)
	}
}

func TestEndToolGrants(t *testing.T) {
	grant := func(server, tool string) ToolGrant {
		return ToolGrant{ServerID: server, Tool: tool, Seen: &ToolSeen{Fingerprint: server + tool}}
	}
	tests := []struct {
		name         string
		server, tool string
		wantEnded    int
		want         [][]ToolGrant // each conversation's grants afterwards
	}{
		{"one tool ends in every conversation", "s1", "rm", 2,
			[][]ToolGrant{{grant("s1", "ls"), grant("s2", "rm")}, {grant("s2", "rm")}, nil}},
		{"every tool of the server when no tool is named", "s1", "", 3,
			[][]ToolGrant{{grant("s2", "rm")}, {grant("s2", "rm")}, nil}},
		{"a tool allowed nowhere ends nothing", "s3", "rm", 0,
			[][]ToolGrant{{grant("s1", "rm"), grant("s1", "ls"), grant("s2", "rm")}, {grant("s1", "rm"), grant("s2", "rm")}, nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, t.TempDir())
			fakeClock(s)
			start := [][]ToolGrant{{grant("s1", "rm"), grant("s1", "ls"), grant("s2", "rm")}, {grant("s1", "rm"), grant("s2", "rm")}, nil}
			var convs []Conversation
			for _, grants := range start {
				c, err := s.PutConversation(Conversation{})
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range grants {
					if c, err = s.AllowToolInConversation(c.ID, g); err != nil {
						t.Fatal(err)
					}
				}
				convs = append(convs, c)
			}
			ended, err := s.EndToolGrants(tc.server, tc.tool)
			if err != nil || ended != tc.wantEnded {
				t.Errorf("EndToolGrants = %d, %v; want %d", ended, err, tc.wantEnded)
			}
			for i, c := range convs {
				got, err := s.Conversation(c.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got.AllowedTools, tc.want[i]) {
					t.Errorf("conversation %d: grants %+v, want %+v", i, got.AllowedTools, tc.want[i])
				}
				if !got.UpdatedAt.Equal(c.UpdatedAt) {
					t.Errorf("conversation %d moved in the list (updated %v, was %v)", i, got.UpdatedAt, c.UpdatedAt)
				}
			}
		})
	}
}

// TestGrantsFromBeforeFingerprints: a data file written before grants were
// bound to what the person saw (its conversation grants name only the tool,
// its "Always allow" has no Approved) reads as it was, with every grant
// held: nothing recorded is never the same tool, so each asks once more.
func TestGrantsFromBeforeFingerprints(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	srv, err := s.PutServer(Server{Name: "Files", Transport: TransportStdio, Stdio: &StdioConfig{Command: "files"}})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := s.PutConversation(Conversation{Title: "old"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	rawUpdate(t, dir, func(tx *bbolt.Tx) error {
		old := `{"id":"` + conv.ID + `","title":"old","allowedTools":[{"serverId":"` + srv.ID + `","tool":"rm"}],` +
			`"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`
		if err := tx.Bucket(bucketConversations).Put([]byte(conv.ID), []byte(old)); err != nil {
			return err
		}
		return tx.Bucket(bucketToolPolicies).Put([]byte(srv.ID), []byte(`{"tools":{"rm":"allow"}}`))
	})
	s = openT(t, dir)
	got, err := s.Conversation(conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.AllowedTools) != 1 || got.AllowedTools[0].Key() != (ToolKey{ServerID: srv.ID, Tool: "rm"}) ||
		got.AllowedTools[0].Seen.Same(ToolSeen{Fingerprint: "anything"}) {
		t.Errorf("the old grant reads as %+v, want rm, held", got.AllowedTools)
	}
	p, err := s.ToolPolicy(srv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tools["rm"] != ToolAllow || p.Approved != nil {
		t.Errorf("the old always-allow reads as %+v, want allow without what was seen (held)", p)
	}
	// Allowing it again binds it; other tools' settings are kept.
	seen := ToolSeen{Fingerprint: "now"}
	if err := s.AllowToolAlways(srv.ID, "rm", seen); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.ToolPolicy(srv.ID); p.Tools["rm"] != ToolAllow || p.Approved["rm"].Fingerprint != "now" {
		t.Errorf("after allowing again: %+v, want rm allowed and bound", p)
	}
	// Allowing the old conversation grant again binds it too.
	if _, err := s.AllowToolInConversation(conv.ID, ToolGrant{ServerID: srv.ID, Tool: "rm", Seen: &seen}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Conversation(conv.ID); len(got.AllowedTools) != 1 || !got.AllowedTools[0].Seen.Same(seen) {
		t.Errorf("after allowing in the conversation again: %+v", got.AllowedTools)
	}
}

func TestAllowToolAlways(t *testing.T) {
	s := openT(t, t.TempDir())
	srv, err := s.PutServer(Server{Name: "Files", Transport: TransportStdio, Stdio: &StdioConfig{Command: "files"}})
	if err != nil {
		t.Fatal(err)
	}
	v1, v2 := ToolSeen{Fingerprint: "v1", Description: "Reads a file."}, ToolSeen{Fingerprint: "v2"}
	steps := []struct {
		name string
		do   func() error
		want ToolPolicy
	}{
		{"always allow binds the tool to what was seen", func() error { return s.AllowToolAlways(srv.ID, "read", v1) },
			ToolPolicy{Tools: map[string]ToolMode{"read": ToolAllow}, Approved: map[string]ToolSeen{"read": v1}}},
		{"allowing again re-binds it", func() error { return s.AllowToolAlways(srv.ID, "read", v2) },
			ToolPolicy{Tools: map[string]ToolMode{"read": ToolAllow}, Approved: map[string]ToolSeen{"read": v2}}},
		{"a server-wide change keeps it", func() error {
			p, _ := s.ToolPolicy(srv.ID)
			p.Trusted = true
			return s.PutToolPolicy(srv.ID, p)
		}, ToolPolicy{Tools: map[string]ToolMode{"read": ToolAllow}, Approved: map[string]ToolSeen{"read": v2}, Trusted: true}},
		{"allow set without what was seen is held", func() error { return s.PutToolMode(srv.ID, "read", ToolAllow) },
			ToolPolicy{Tools: map[string]ToolMode{"read": ToolAllow}, Trusted: true}},
		{"another mode forgets what was seen", func() error {
			if err := s.AllowToolAlways(srv.ID, "read", v1); err != nil {
				return err
			}
			return s.PutToolMode(srv.ID, "read", ToolAsk)
		}, ToolPolicy{Tools: map[string]ToolMode{"read": ToolAsk}, Trusted: true}},
		{"what was seen of a tool not allowed is not kept", func() error {
			return s.PutToolPolicy(srv.ID, ToolPolicy{Tools: map[string]ToolMode{"rm": ToolDeny}, Approved: map[string]ToolSeen{"rm": v1}})
		}, ToolPolicy{Tools: map[string]ToolMode{"rm": ToolDeny}}},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got, _ := s.ToolPolicy(srv.ID); !reflect.DeepEqual(got, st.want) {
			t.Errorf("%s: policy %+v, want %+v", st.name, got, st.want)
		}
	}
	if err := s.AllowToolAlways(srv.ID, "read", ToolSeen{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("allowing without a fingerprint = %v, want ErrInvalid", err)
	}
	if err := s.AllowToolAlways("nope", "read", v1); !errors.Is(err, ErrNotFound) {
		t.Errorf("allowing a tool of an unknown server = %v, want ErrNotFound", err)
	}
}
