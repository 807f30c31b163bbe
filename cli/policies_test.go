package cli

import (
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/store"
)

// TestCLI_Policies: a person reads and changes the tool permissions from the
// terminal; what they set is what the store keeps for the chat.
func TestCLI_Policies(t *testing.T) {
	dir := t.TempDir()
	steps := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string // in stdout (code 0) or stderr
	}{
		{"every server asks by default", []string{"policies"}, 0,
			"Demo server\n  tool calls: ask\n  read-only claims: not trusted\n  questions and sampling requests: ask\n"},
		{"a server's tool calls allowed", []string{"policies", "set", "demo server", "allow"}, 0, "  tool calls: allow without asking\n"},
		{"one tool denied under it", []string{"policies", "set", "Demo server", "--tool", "echo", "deny"}, 0, "  tool echo:  deny without asking\n"},
		{"one tool asks each time", []string{"policies", "set", "Demo server", "--tool=forecast", "ask"}, 0, "  tool forecast:  ask each time\n"},
		{"trust on", []string{"policies", "trust", "Demo server", "on"}, 0, "  read-only claims: trusted (its read-only tools run without asking)\n"},
		{"one server shown by name", []string{"policies", "DEMO SERVER"}, 0,
			"Demo server\n  tool calls: allow without asking\n  read-only claims: trusted (its read-only tools run without asking)\n  questions and sampling requests: ask\n  tool echo:      deny without asking\n  tool forecast:  ask each time\n"},
		{"default removes a tool's own mode", []string{"policies", "set", "Demo server", "--tool", "forecast", "default"}, 0, "  tool echo:  deny without asking\n"},
		{"trust off", []string{"policies", "trust", "Demo server", "off"}, 0, "  read-only claims: not trusted\n"},
		{"an unknown server", []string{"policies", "set", "Nope", "allow"}, 1, `no server named "Nope"`},
		{"an unknown server shown", []string{"policies", "Nope"}, 1, `no server named "Nope"`},
		{"an unknown mode", []string{"policies", "set", "Demo server", "sometimes"}, 1, `"sometimes" is not a choice for a server's tools: use ask, allow or deny`},
		{"default is for one tool", []string{"policies", "set", "Demo server", "default"}, 1, `"default" is not a choice for a server's tools`},
		{"trust needs on or off", []string{"policies", "trust", "Demo server", "yes"}, 2, "policies trust needs a server name and on or off"},
		{"set needs a mode", []string{"policies", "set", "Demo server"}, 2, "policies set needs a server name and ask, allow or deny"},
		{"--tool needs a name", []string{"policies", "set", "Demo server", "allow", "--tool"}, 2, "--tool needs a tool name"},
		{"an unknown option", []string{"policies", "set", "Demo server", "allow", "--all"}, 2, `unknown option "--all"`},
	}
	for _, s := range steps {
		code, out, errOut := gh(t, dir, s.args...)
		got := out
		if s.wantCode != 0 {
			got = errOut
		}
		if code != s.wantCode || !strings.Contains(got, s.wantOut) {
			t.Errorf("%s: %v: code %d, stdout %q, stderr %q; want code %d and %q", s.name, s.args, code, out, errOut, s.wantCode, s.wantOut)
		}
	}

	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := st.ServerByName("Demo server")
	if err != nil {
		t.Fatal(err)
	}
	p, err := st.ToolPolicy(srv.ID)
	if err != nil || p.Mode != store.ToolAllow || p.Trusted || len(p.Tools) != 1 || p.Tools["echo"] != store.ToolDeny {
		t.Errorf("stored policy = %+v (%v)", p, err)
	}
}
