package mcp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

// A grant ("Always allow", "Allow in this conversation") is bound to what the
// person saw when they gave it: the server as configured, the tool's name,
// titles, description, input schema and annotations. A server that changes
// any of them after the grant (the "rug pull": CVE-2025-54136, MCPoison)
// does not keep it: the grant is held and the next call is asked again,
// saying what changed (issue 22, item 8).

// Parts of a tool that a ToolChange names.
const (
	// ChangeUnrecorded: Gatehouse did not record the tool as the person
	// allowed it (a grant from before fingerprints, or an allow set in
	// Settings while the server did not offer the tool).
	ChangeUnrecorded = "unrecorded"
	// ChangeServer: the server's command line or URL changed.
	ChangeServer = "server"
	// ChangeTitle: the tool's title (or its annotations' title) changed.
	ChangeTitle = "title"
	// ChangeDescription: the tool's description changed; Was and Now say
	// how.
	ChangeDescription = "description"
	// ChangeSchema: the tool's input schema changed.
	ChangeSchema = "schema"
	// ChangeAnnotations: the tool's annotations changed.
	ChangeAnnotations = "annotations"
)

// ToolChange is one way a tool differs from what the person allowed.
type ToolChange struct {
	// Part is ChangeUnrecorded, ChangeServer, ChangeTitle,
	// ChangeDescription, ChangeSchema or ChangeAnnotations.
	Part string `json:"part"`
	// Was and Now are the description as allowed and as it is now (each at
	// most store.MaxSeenDescription characters), for ChangeDescription:
	// server text, shown as text.
	Was string `json:"was,omitempty"`
	Now string `json:"now,omitempty"`
}

// ToolTitle is a tool's display name: title, annotations.title, then name.
func ToolTitle(t *sdk.Tool) string {
	switch {
	case t.Title != "":
		return t.Title
	case t.Annotations != nil && t.Annotations.Title != "":
		return t.Annotations.Title
	}
	return t.Name
}

// ToolFingerprint returns what a person sees of a server's tool when they
// allow it, with the fingerprint a grant is bound to: the SHA-256 of the
// canonical JSON (object keys sorted, no spaces, numbers as the server
// wrote them) of the server's command line or URL, the tool's name, its
// title, description, input schema and annotations. At is left zero for
// the caller to set.
//
// Every tool call asks for it (the consent path compares it with the
// grant), so it is remembered by the plain JSON of what it is made of: the
// same bytes give the same fingerprint, and anything that differs — a
// changed description, schema or command line — is computed anew.
func ToolFingerprint(srv store.Server, t *sdk.Tool) store.ToolSeen {
	where := map[string]any{"transport": srv.Transport}
	if srv.Stdio != nil {
		where["command"], where["args"] = srv.Stdio.Command, srv.Stdio.Args
	}
	if srv.HTTP != nil {
		where["url"] = srv.HTTP.URL
	}
	parts := map[string]any{
		"server":      where,
		"name":        t.Name,
		"title":       t.Title,
		"description": t.Description,
		"inputSchema": t.InputSchema,
		"annotations": t.Annotations,
	}
	// JSON makes invalid UTF-8 in a string U+FFFD: such a description is
	// not remembered, its cut text would differ.
	key, err := json.Marshal(parts)
	memo := err == nil && len(key) <= maxFingerprintKey && utf8.ValidString(t.Description)
	if memo {
		if seen, ok := fingerprints.get(string(key)); ok {
			return seen
		}
	}
	seen := store.ToolSeen{
		Fingerprint:     hashJSON(parts),
		Server:          hashJSON(where),
		Name:            hashJSON(t.Name),
		Title:           hashJSON(t.Title),
		DescriptionHash: hashJSON(t.Description),
		Description:     cut(t.Description, store.MaxSeenDescription),
		Schema:          hashJSON(t.InputSchema),
		Annotations:     hashJSON(t.Annotations),
	}
	if memo {
		fingerprints.put(string(key), seen)
	}
	return seen
}

// FingerprintCache remembers ToolFingerprint of the tools a Manager
// lists, by the tool itself (the *sdk.Tool Manager.Tool returns: a listing
// makes new ones, and nothing changes one once listed) and the server's
// command line or URL: a call of a tool already seen costs no JSON. At
// most maxFingerprints tools are remembered (then it starts over). The
// zero value is ready; it is safe for concurrent use. Only tools as a
// Manager lists them may be given to it.
type FingerprintCache struct {
	mu sync.Mutex
	m  map[*sdk.Tool]cachedSeen
}

type cachedSeen struct {
	where string
	seen  store.ToolSeen
}

// Get returns ToolFingerprint(srv, t), remembered.
func (c *FingerprintCache) Get(srv store.Server, t *sdk.Tool) store.ToolSeen {
	where := string(srv.Transport)
	if srv.Stdio != nil {
		where += "\x00" + srv.Stdio.Command + "\x00" + strings.Join(srv.Stdio.Args, "\x00")
	}
	if srv.HTTP != nil {
		where += "\x01" + srv.HTTP.URL
	}
	c.mu.Lock()
	e, ok := c.m[t]
	c.mu.Unlock()
	if ok && e.where == where {
		return e.seen
	}
	seen := ToolFingerprint(srv, t)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxFingerprints {
		c.m = map[*sdk.Tool]cachedSeen{}
	}
	c.m[t] = cachedSeen{where, seen}
	c.mu.Unlock()
	return seen
}

// maxFingerprintKey and maxFingerprints bound what ToolFingerprint
// remembers: a tool's JSON up to 16 KiB (a bigger one is computed each
// time), 1,024 tools (then it starts over), at most 16 MiB held and
// usually far less (a tool is one or two KiB).
const (
	maxFingerprintKey = 16 << 10
	maxFingerprints   = 1024
)

// fingerprints are the tools' fingerprints computed so far, by the JSON of
// what each is made of.
var fingerprints = fingerprintMemo{m: map[string]store.ToolSeen{}}

type fingerprintMemo struct {
	mu sync.Mutex
	m  map[string]store.ToolSeen
}

func (f *fingerprintMemo) get(key string) (store.ToolSeen, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	seen, ok := f.m[key]
	return seen, ok
}

func (f *fingerprintMemo) put(key string, seen store.ToolSeen) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.m) >= maxFingerprints {
		clear(f.m)
	}
	f.m[key] = seen
}

// ToolChanges says how the tool now differs from what the person allowed
// (was): nothing when it is the same; ChangeUnrecorded alone when nothing
// was recorded.
func ToolChanges(was *store.ToolSeen, now store.ToolSeen) []ToolChange {
	if was.Same(now) {
		return nil
	}
	if was == nil || was.Fingerprint == "" {
		return []ToolChange{{Part: ChangeUnrecorded}}
	}
	var changes []ToolChange
	if was.Server != now.Server {
		changes = append(changes, ToolChange{Part: ChangeServer})
	}
	if was.Title != now.Title {
		changes = append(changes, ToolChange{Part: ChangeTitle})
	}
	if was.DescriptionHash != now.DescriptionHash {
		changes = append(changes, ToolChange{Part: ChangeDescription, Was: was.Description, Now: now.Description})
	}
	if was.Schema != now.Schema {
		changes = append(changes, ToolChange{Part: ChangeSchema})
	}
	if was.Annotations != now.Annotations {
		changes = append(changes, ToolChange{Part: ChangeAnnotations})
	}
	if len(changes) == 0 { // the name, or parts recorded differently by another version
		changes = append(changes, ToolChange{Part: ChangeUnrecorded})
	}
	return changes
}

// hashJSON is the hex SHA-256 of v's canonical JSON.
func hashJSON(v any) string {
	sum := sha256.Sum256(canonicalJSON(v))
	return hex.EncodeToString(sum[:])
}

// canonicalJSON encodes v as JSON with every object's keys sorted, without
// insignificant space, and with numbers as written (a schema's 1.0 stays
// 1.0): encoding/json sorts map keys, so v goes through a generic value
// decoded with UseNumber. A value that cannot be encoded is its error's
// text, which no JSON value equals.
func canonicalJSON(v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		return []byte("unencodable: " + err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return raw
	}
	out, err := json.Marshal(generic)
	if err != nil {
		return raw
	}
	return out
}

// cut returns s's first n characters.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}
