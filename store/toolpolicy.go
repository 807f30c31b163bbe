package store

import (
	"fmt"
	"maps"
	"strings"

	"go.etcd.io/bbolt"
)

// ToolPolicy returns the tool-call policy saved for the server, or the zero
// ToolPolicy (ask about everything, trust nothing) when none is saved or
// the server is unknown.
func (s *Store) ToolPolicy(serverID string) (ToolPolicy, error) {
	p, err := s.toolPolicies.get(s, serverID, bucketToolPolicies, []byte(serverID), func(v []byte) (ToolPolicy, error) {
		return decodeToolPolicy(serverID, v)
	})
	return p.clone(), err
}

// PutToolPolicy saves the server's tool-call policy, replacing the one
// saved. It returns ErrNotFound if no server has the ID, and ErrInvalid for
// an unknown mode or a tool with an empty name. Mode cannot be ToolDefault;
// ToolAsk is saved as the empty Mode. A tool set to ToolDefault is removed
// from Tools (it then follows Mode), and saving the zero policy removes the
// saved one.
func (s *Store) PutToolPolicy(serverID string, p ToolPolicy) error {
	p, err := cleanToolPolicy(p)
	if err != nil {
		return err
	}
	return s.update(func(tx *bbolt.Tx) error {
		return putToolPolicy(tx, serverID, p)
	})
}

// PutToolMode sets the mode of one tool of the server (ToolDefault removes
// the tool's own mode, so Mode applies; ToolAsk asks whatever Mode says),
// keeping the rest of its policy. What the person saw of the tool
// is not known here: a tool set to ToolAllow this way is held (see
// ToolPolicy.Approved) until AllowToolAlways binds it. It returns
// ErrNotFound if no server has the ID, and ErrInvalid for an unknown mode
// or an empty tool name.
func (s *Store) PutToolMode(serverID, tool string, mode ToolMode) error {
	return s.putToolMode(serverID, tool, mode, nil)
}

// AllowToolAlways sets one tool of the server to ToolAllow, bound to what
// the person saw of it: what "Always allow this tool" saves, and what
// allowing the tool again after it changed re-binds. It returns ErrNotFound
// if no server has the ID, and ErrInvalid for an empty tool name or a seen
// tool without a fingerprint.
func (s *Store) AllowToolAlways(serverID, tool string, seen ToolSeen) error {
	if seen.Fingerprint == "" {
		return fmt.Errorf("%w: an allowed tool needs the fingerprint of what the person saw", ErrInvalid)
	}
	return s.putToolMode(serverID, tool, ToolAllow, &seen)
}

// putToolMode sets one tool's mode and what the person saw of it (nil:
// not known), in one transaction.
func (s *Store) putToolMode(serverID, tool string, mode ToolMode, seen *ToolSeen) error {
	if err := validToolMode(mode, true); err != nil {
		return err
	}
	if strings.TrimSpace(tool) == "" {
		return fmt.Errorf("%w: a tool-call policy names a tool without a name", ErrInvalid)
	}
	return s.update(func(tx *bbolt.Tx) error {
		p, err := readToolPolicy(tx, serverID)
		if err != nil {
			return err
		}
		p.Tools = maps.Clone(p.Tools)
		if p.Tools == nil {
			p.Tools = map[string]ToolMode{}
		}
		p.Tools[tool] = mode
		p.Approved = maps.Clone(p.Approved)
		delete(p.Approved, tool)
		if seen != nil {
			if p.Approved == nil {
				p.Approved = map[string]ToolSeen{}
			}
			p.Approved[tool] = *seen
		}
		if p, err = cleanToolPolicy(p); err != nil {
			return err
		}
		return putToolPolicy(tx, serverID, p)
	})
}

// readToolPolicy reads the server's tool-call policy within tx.
func readToolPolicy(tx *bbolt.Tx, serverID string) (ToolPolicy, error) {
	return decodeToolPolicy(serverID, tx.Bucket(bucketToolPolicies).Get([]byte(serverID)))
}

// decodeToolPolicy decodes the server's policy as stored (v); nil is the
// zero ToolPolicy.
func decodeToolPolicy(serverID string, v []byte) (ToolPolicy, error) {
	var p ToolPolicy
	if v != nil {
		if err := decodeValue(bucketToolPolicies, []byte(serverID), v, &p); err != nil {
			return ToolPolicy{}, fmt.Errorf("read the tool-call policy of server %q: %w", serverID, err)
		}
	}
	return p, nil
}

// putToolPolicy saves a cleaned policy within tx.
func putToolPolicy(tx *bbolt.Tx, serverID string, p ToolPolicy) error {
	if tx.Bucket(bucketServers).Get([]byte(serverID)) == nil {
		return fmt.Errorf("server %q: %w", serverID, ErrNotFound)
	}
	b := tx.Bucket(bucketToolPolicies)
	if p.Mode == "" && len(p.Tools) == 0 && !p.Trusted {
		return b.Delete([]byte(serverID))
	}
	if err := putJSON(b, []byte(serverID), p); err != nil {
		return fmt.Errorf("save the tool-call policy of server %q: %w", serverID, err)
	}
	return nil
}

// cleanToolPolicy checks p and returns it with ToolAsk as the empty Mode,
// without tools set to ToolDefault, and with Approved only for tools set to
// ToolAllow.
func cleanToolPolicy(p ToolPolicy) (ToolPolicy, error) {
	if err := validToolMode(p.Mode, false); err != nil {
		return ToolPolicy{}, err
	}
	if p.Mode == ToolAsk {
		p.Mode = ""
	}
	tools := map[string]ToolMode{}
	for name, mode := range p.Tools {
		if strings.TrimSpace(name) == "" {
			return ToolPolicy{}, fmt.Errorf("%w: a tool-call policy names a tool without a name", ErrInvalid)
		}
		if err := validToolMode(mode, true); err != nil {
			return ToolPolicy{}, fmt.Errorf("tool %q: %w", name, err)
		}
		if mode != ToolDefault && mode != "" {
			tools[name] = mode
		}
	}
	p.Tools = nil
	if len(tools) > 0 {
		p.Tools = tools
	}
	approved := map[string]ToolSeen{}
	for name, seen := range p.Approved {
		if tools[name] == ToolAllow {
			approved[name] = seen
		}
	}
	p.Approved = nil
	if len(approved) > 0 {
		p.Approved = approved
	}
	return p, nil
}

// validToolMode refuses a mode this build does not know; ToolDefault is
// known only as a tool's own mode.
func validToolMode(mode ToolMode, ofTool bool) error {
	switch mode {
	case "", ToolAsk, ToolAllow, ToolDeny:
		return nil
	case ToolDefault:
		if ofTool {
			return nil
		}
	}
	return fmt.Errorf("%w: unknown tool-call mode %q", ErrInvalid, mode)
}
