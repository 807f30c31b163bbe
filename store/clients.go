package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.etcd.io/bbolt"
)

// ClientApp is another app that used the person's servers through the
// gateway (`gatehouse gateway`, issue 25), and what the person chose for
// it. An app is known by what it claims to be (its clientInfo name) and
// what Gatehouse knows for sure (the program that launched the gateway):
// the same name from another program is another app.
type ClientApp struct {
	// ID is ClientAppID(Name, Launcher).
	ID string `json:"id"`
	// Name and Version are what the app last claimed (clientInfo): text.
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	// Launcher is the executable that launched the gateway, from /proc;
	// "" when the kernel did not say.
	Launcher string `json:"launcher,omitempty"`
	// Command is the launcher's last command line, for the person to
	// recognise it.
	Command   string    `json:"command,omitempty"`
	FirstSeen time.Time `json:"firstSeen"`
	LastSeen  time.Time `json:"lastSeen"`
	// Calls counts the tool calls it asked for (allowed or not).
	Calls int64 `json:"calls"`
	// Limited is set when the person chose the servers it sees: then only
	// Servers (server IDs). Otherwise it sees every server.
	Limited bool     `json:"limited,omitempty"`
	Servers []string `json:"servers,omitempty"`
	// Tools are its own tool modes, where they differ from the chat's (the
	// server's ToolPolicy): they win over those.
	Tools []ClientToolMode `json:"tools,omitempty"`
	// CutOff is set when the person cut the app off: its sessions are
	// refused with a sentence saying so.
	CutOff bool `json:"cutOff,omitempty"`
}

// ClientToolMode is one of an app's own tool modes: for one tool of a
// server, or for every tool of it (Tool "").
type ClientToolMode struct {
	ServerID string   `json:"serverId"`
	Tool     string   `json:"tool,omitempty"`
	Mode     ToolMode `json:"mode"`
	// Seen is what the person saw of the tool when they set it to ToolAllow
	// for this app: as the chat's allowance (ToolPolicy.Approved), it holds
	// only while the tool is the same; without it the call is asked.
	Seen *ToolSeen `json:"seen,omitempty"`
}

// Sees reports whether the app may see the server.
func (c ClientApp) Sees(serverID string) bool {
	return !c.Limited || slices.Contains(c.Servers, serverID)
}

// Policy is the server's tool policy p as it applies to this app: its own
// modes, where it has any, over p's. An allow of the app's own is bound to
// what the person saw of the tool for this app (ClientToolMode.Seen), not
// to what they saw when allowing it in the chat.
func (c ClientApp) Policy(serverID string, p ToolPolicy) ToolPolicy {
	out := p
	copied := false
	for _, m := range c.Tools {
		if m.ServerID != serverID {
			continue
		}
		if m.Tool == "" {
			out.Mode = m.Mode
			continue
		}
		if !copied {
			out.Tools = maps.Clone(p.Tools)
			if out.Tools == nil {
				out.Tools = map[string]ToolMode{}
			}
			out.Approved = maps.Clone(p.Approved)
			copied = true
		}
		out.Tools[m.Tool] = m.Mode
		delete(out.Approved, m.Tool)
		if m.Mode == ToolAllow && m.Seen != nil {
			if out.Approved == nil {
				out.Approved = map[string]ToolSeen{}
			}
			out.Approved[m.Tool] = *m.Seen
		}
	}
	return out
}

// ClientAppID is the ID of the app that claims name and was launched by
// launcher: 16 hex digits of their SHA-256.
func ClientAppID(name, launcher string) string {
	sum := sha256.Sum256([]byte(name + "\x00" + launcher))
	return hex.EncodeToString(sum[:8])
}

// Bounds of what an app's claims may put in the file.
const (
	maxClientText    = 256
	maxClientCommand = 1024
)

// clip cuts s to n bytes, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	return strings.ToValidUTF8(s, "")
}

// SeeClientApp records that the app (c's Name, Version, Launcher and
// Command; the rest is ignored) opened a session now, creating its record
// the first time, and returns the stored record: its settings and whether
// it is cut off.
func (s *Store) SeeClientApp(c ClientApp) (ClientApp, error) {
	name, launcher := clip(c.Name, maxClientText), clip(c.Launcher, maxClientText)
	id := ClientAppID(name, launcher)
	var out ClientApp
	err := s.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketClients)
		rec, found, err := readClientApp(b, id)
		if err != nil {
			return err
		}
		now := s.now()
		if !found {
			rec = ClientApp{ID: id, Name: name, Launcher: launcher, FirstSeen: now}
		}
		rec.Version, rec.Command, rec.LastSeen = clip(c.Version, maxClientText), clip(c.Command, maxClientCommand), now
		out = rec
		return putClientApp(b, rec)
	})
	return out, err
}

// AddClientCalls adds n to the app's Calls and makes now its LastSeen.
// It returns ErrNotFound for an unknown app.
func (s *Store) AddClientCalls(id string, n int64) error {
	return s.editClientApp(id, func(c *ClientApp) {
		c.Calls += n
		c.LastSeen = s.now()
	})
}

// ClientApps returns every app that used the gateway, the latest seen
// first.
func (s *Store) ClientApps() ([]ClientApp, error) {
	var out []ClientApp
	err := s.db.View(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketClients).ForEach(func(k, v []byte) error {
			var c ClientApp
			if err := decodeValue(bucketClients, k, v, &c); err != nil {
				return err
			}
			out = append(out, c)
			return nil
		})
	})
	slices.SortFunc(out, func(a, b ClientApp) int { return b.LastSeen.Compare(a.LastSeen) })
	return out, err
}

// ClientApp returns the app with the ID, or ErrNotFound.
func (s *Store) ClientApp(id string) (ClientApp, error) {
	var out ClientApp
	err := s.db.View(func(tx *bbolt.Tx) error {
		c, found, err := readClientApp(tx.Bucket(bucketClients), id)
		if err == nil && !found {
			err = fmt.Errorf("%w: no app %q used the gateway", ErrNotFound, id)
		}
		out = c
		return err
	})
	return out, err
}

// PutClientAppSettings saves what the person chose for the app: the
// servers it sees (Limited, Servers), its own tool modes (Tools: a mode of
// ToolDefault removes one) and CutOff; what Gatehouse saw of it is kept.
// It returns ErrNotFound for an unknown app, ErrInvalid for an unknown mode
// or a mode without a server.
func (s *Store) PutClientAppSettings(c ClientApp) (ClientApp, error) {
	var tools []ClientToolMode
	for _, m := range c.Tools {
		switch {
		case m.ServerID == "":
			return ClientApp{}, fmt.Errorf("%w: an app's tool mode needs a server", ErrInvalid)
		case m.Mode == ToolDefault:
			continue
		case m.Mode != ToolAsk && m.Mode != ToolAllow && m.Mode != ToolDeny:
			return ClientApp{}, fmt.Errorf("%w: unknown tool mode %q", ErrInvalid, m.Mode)
		}
		tools = slices.DeleteFunc(tools, func(o ClientToolMode) bool { return o.ServerID == m.ServerID && o.Tool == m.Tool })
		tools = append(tools, m)
	}
	var out ClientApp
	err := s.editClientApp(c.ID, func(rec *ClientApp) {
		rec.Limited, rec.Servers, rec.Tools, rec.CutOff = c.Limited, slices.Clone(c.Servers), tools, c.CutOff
		if !rec.Limited {
			rec.Servers = nil
		}
		out = *rec
	})
	return out, err
}

// AllowClientToolAlways saves the person's "Always allow" of a tool for
// one app alone (a question about its call, answered in the window): the
// app's own mode for the tool becomes ToolAllow, bound to what the person
// saw of it (seen, as ClientToolMode.Seen), and the chat's and other apps'
// permissions stay as they were. It returns the app's record as saved,
// ErrNotFound for an unknown app, ErrInvalid without a server, a tool or
// seen's fingerprint.
func (s *Store) AllowClientToolAlways(id, serverID, tool string, seen ToolSeen) (ClientApp, error) {
	switch {
	case serverID == "" || strings.TrimSpace(tool) == "":
		return ClientApp{}, fmt.Errorf("%w: an app's tool mode needs a server and a tool", ErrInvalid)
	case seen.Fingerprint == "":
		return ClientApp{}, fmt.Errorf("%w: an allowed tool needs the fingerprint of what the person saw", ErrInvalid)
	}
	var out ClientApp
	err := s.editClientApp(id, func(c *ClientApp) {
		c.Tools = slices.DeleteFunc(slices.Clone(c.Tools), func(m ClientToolMode) bool { return m.ServerID == serverID && m.Tool == tool })
		c.Tools = append(c.Tools, ClientToolMode{ServerID: serverID, Tool: tool, Mode: ToolAllow, Seen: &seen})
		out = *c
	})
	return out, err
}

// DeleteClientApp forgets the app: its next session is a first one. An
// unknown app is no error.
func (s *Store) DeleteClientApp(id string) error {
	return s.update(func(tx *bbolt.Tx) error { return tx.Bucket(bucketClients).Delete([]byte(id)) })
}

// editClientApp changes the stored record of the app in one transaction.
func (s *Store) editClientApp(id string, edit func(*ClientApp)) error {
	return s.update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketClients)
		c, found, err := readClientApp(b, id)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("%w: no app %q used the gateway", ErrNotFound, id)
		}
		edit(&c)
		return putClientApp(b, c)
	})
}

func readClientApp(b *bbolt.Bucket, id string) (ClientApp, bool, error) {
	v := b.Get([]byte(id))
	if v == nil {
		return ClientApp{}, false, nil
	}
	var c ClientApp
	if err := decodeValue(bucketClients, []byte(id), v, &c); err != nil {
		return ClientApp{}, false, err
	}
	return c, true, nil
}

func putClientApp(b *bbolt.Bucket, c ClientApp) error {
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode the app %s: %w", c.ID, err)
	}
	return b.Put([]byte(c.ID), data)
}
