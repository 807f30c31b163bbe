package chat

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// maxToolName is the longest tool name every provider accepts (OpenAI: 64).
const maxToolName = 64

// maxPrefix bounds a server's prefix, so that a qualified name keeps room
// for the tool's own name within maxToolName.
const maxPrefix = 24

// NamedServer is one server whose tools are offered under one set of names:
// its ID and the name the person gave it, and its tools' names as the
// server lists them.
type NamedServer struct {
	ID    string
	Name  string
	Tools []string
}

// ToolNames gives each server's tools the names they are offered under, to
// a model (the chat) or to another client (a gateway): names[i][j] is the
// name of servers[i].Tools[j]. Whoever receives the names sees no server
// beyond them, so a name must never point to a server it seems to belong to
// (issue 22, item 6). The rule:
//
//   - Names are made of letters, digits, '_' and '-' (any other character
//     becomes '_'), at most 64 characters, unique among all the servers'
//     names.
//   - Each server owns a name space: the names that start with its prefix
//     and "__" (compared without regard to case). The prefix is the server's
//     configured name made safe, runs of '_' made one and outer '_' removed,
//     at most 24 characters ("My Mail" → "My_Mail", so "My_Mail__send");
//     a name with no such character gets "server_" and six hex digits of
//     its ID's SHA-256. Two servers whose prefixes are equal share one space.
//   - A tool keeps its own name unless that name lies in the space of
//     another server and not its own: such a tool is offered in its own
//     server's space instead ("<own prefix>__<its name>"). The owner keeps
//     its names, whatever the order of the servers: a server that lists
//     Mail__send cannot have Mail's send renamed.
//   - A name that tools of several servers share (without regard to case)
//     is offered in each one's space: "Mail__send", "Chat__send".
//   - Names still taken (a name cut to 64 characters, two names that become
//     equal once made safe) are numbered "_2", "_3", ... in the servers'
//     and tools' order, names kept as they are first. Numbering never leaves
//     a space: a qualified name keeps its prefix.
//
// The result depends on the servers' order only where numbering does.
func ToolNames(servers []NamedServer) [][]string { return toolNames(servers, false) }

// QualifiedNames is ToolNames with every name in its server's space
// ("<prefix>__<name>"), so that each name says which server it belongs
// to: what the gateway offers another app, whose model sees many servers
// (issue 25). The rest of the rule is ToolNames': a name that looks like
// another server's ("Mail__send" listed by Squatter) is offered in its own
// server's space ("Squatter__Mail__send"), names are cut and numbered the
// same way.
func QualifiedNames(servers []NamedServer) [][]string { return toolNames(servers, true) }

func toolNames(servers []NamedServer, qualifyAll bool) [][]string {
	prefixes := make([]string, len(servers))
	owners := map[string][]int{} // lower-case prefix → the servers owning the space
	for i, s := range servers {
		prefixes[i] = serverPrefix(s.Name, s.ID)
		key := strings.ToLower(prefixes[i])
		owners[key] = append(owners[key], i)
	}
	// offends reports whether name lies in the space of a server other than
	// server i, and not in i's own.
	offends := func(i int, name string) bool {
		head, _, ok := strings.Cut(name, "__")
		if !ok {
			return false
		}
		own := owners[strings.ToLower(collapse(head))]
		return len(own) > 0 && !slices.Contains(own, i)
	}

	// How many servers list each name (without regard to case), offenders
	// left out: they are moved anyway.
	safe := make([][]string, len(servers))
	shared := map[string]int{}
	for i, s := range servers {
		safe[i] = make([]string, len(s.Tools))
		counted := map[string]bool{}
		for j, t := range s.Tools {
			safe[i][j] = safeName(t)
			key := strings.ToLower(safe[i][j])
			if !offends(i, safe[i][j]) && !counted[key] {
				counted[key] = true
				shared[key]++
			}
		}
	}

	names := make([][]string, len(servers))
	taken := map[string]bool{}
	var qualified [][2]int // tools offered in their server's space, named in a second pass
	for i := range servers {
		names[i] = make([]string, len(safe[i]))
		for j, n := range safe[i] {
			if qualifyAll || offends(i, n) || shared[strings.ToLower(n)] > 1 {
				qualified = append(qualified, [2]int{i, j})
				continue
			}
			names[i][j] = unique(taken, n)
		}
	}
	for _, q := range qualified {
		i, j := q[0], q[1]
		names[i][j] = unique(taken, prefixes[i]+"__"+safe[i][j])
	}
	return names
}

// serverPrefix is a server's prefix: see ToolNames.
func serverPrefix(name, id string) string {
	p := collapse(safeName(name))
	if len(p) > maxPrefix {
		p = strings.TrimRight(p[:maxPrefix], "_")
	}
	if strings.Trim(p, "_-") == "" {
		sum := sha256.Sum256([]byte(id))
		return "server_" + hex.EncodeToString(sum[:3])
	}
	return p
}

// collapse makes runs of '_' one and removes '_' at both ends, so that a
// prefix never holds "__" and "_Mail" is Mail's.
func collapse(s string) string {
	var b strings.Builder
	prev := byte('_') // a leading '_' is dropped
	for i := 0; i < len(s); i++ {
		if s[i] == '_' && prev == '_' {
			continue
		}
		b.WriteByte(s[i])
		prev = s[i]
	}
	return strings.TrimSuffix(b.String(), "_")
}

// unique cuts name to maxToolName, numbers it when taken, and takes it.
func unique(taken map[string]bool, name string) string {
	name = truncateName(name, maxToolName)
	candidate := name
	for i := 2; taken[candidate]; i++ {
		suffix := fmt.Sprintf("_%d", i)
		candidate = truncateName(name, maxToolName-len(suffix)) + suffix
	}
	taken[candidate] = true
	return candidate
}

// safeName keeps letters, digits, '_' and '-', and turns anything else into
// '_'.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "tool"
	}
	return b.String()
}

func truncateName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
