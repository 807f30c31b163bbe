package gateway

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// The forwarded way reads a client's call, and completes a server's
// result, from their bytes: encoding/json's reflection took a call through
// the gateway about 70 µs on the cold core of a call that comes after a
// pause (P11), for a few fields. The scanning here reads JSON that
// encoding/json checked first (json.Valid, or the forwarder's decoding);
// what it does not read plainly (a key or a string written with escapes,
// a key that is not ASCII, one of the keys it reads twice) goes to
// encoding/json. Keys are matched regardless of case, as encoding/json
// matches them.

// parseCall reads what the forwarded way needs of a client's message, as
// json.Unmarshal into a forwardedCall would; ok is false for a message
// that is not valid JSON or not one json.Unmarshal would read into it.
func parseCall(line []byte) (msg forwardedCall, ok bool) {
	if !json.Valid(line) {
		return msg, false
	}
	// The message's values are kept (History, a call that waits), and the
	// Tap's line is not the taker's to keep: they are read from a copy.
	if msg, plain := scanCall(bytes.Clone(line)); plain {
		return msg, true
	}
	return msg, json.Unmarshal(line, &msg) == nil
}

// scanCall is parseCall for a message whose keys and text are plain;
// plain is false for anything else (then json.Unmarshal reads it, and
// says whether it can).
func scanCall(line []byte) (msg forwardedCall, plain bool) {
	plain = scanObject(line, callKeys, func(key string, value []byte) (ok bool) {
		switch key {
		case "jsonrpc":
			msg.JSONRPC, ok = plainString(value)
		case "id":
			msg.ID, ok = value, true
		case "method":
			msg.Method, ok = plainString(value)
		case "params":
			msg.Params, ok = nil, true
			if string(value) != "null" {
				msg.Params = &callParams{}
				ok = scanParams(value, msg.Params)
			}
		}
		return ok
	})
	return msg, plain
}

// scanParams reads a tools/call's params (scanCall).
func scanParams(obj []byte, p *callParams) bool {
	return scanObject(obj, paramsKeys, func(key string, value []byte) (ok bool) {
		switch key {
		case "name":
			p.Name, ok = plainString(value)
		case "arguments":
			p.Arguments, ok = value, true
		case "task":
			p.Task, ok = value, true
		case "_meta":
			ok = string(value) == "null" || scanMeta(value, &p.Meta)
		}
		return ok
	})
}

// scanMeta reads a call's _meta (scanCall).
func scanMeta(obj []byte, meta *callMeta) bool {
	return scanObject(obj, metaKeys, func(key string, value []byte) (ok bool) {
		switch key {
		case "progresstoken":
			meta.ProgressToken, ok = nil, true
			if string(value) != "null" {
				meta.ProgressToken = json.RawMessage(value)
			}
		case "io.modelcontextprotocol/protocolversion":
			meta.ProtocolVersion, ok = plainString(value)
		case "io.modelcontextprotocol/clientcapabilities":
			meta.ClientCapabilities, ok = value, true
		case "io.modelcontextprotocol/clientinfo":
			meta.ClientInfo, ok = value, true
		}
		return ok
	})
}

// scanObject hands read each member of obj whose key is one of names (in
// lower case, matched as keySet matches), with the name; it is false when
// obj is not an object it reads plainly, or read is false.
func scanObject(obj []byte, names []string, read func(name string, value []byte) bool) bool {
	ms, ok := members(obj)
	if !ok {
		return false
	}
	keys := keySet{names: names}
	for _, m := range ms {
		name, plain := keys.match(m.key)
		if !plain || name != "" && !read(name, m.value) {
			return false
		}
	}
	return true
}

// keySet matches the keys of one object with the ones read of it
// (names, in lower case), regardless of ASCII case, as encoding/json
// matches keys, and sees each of them once.
type keySet struct {
	names []string
	seen  uint32
}

// match is the name key matches ("" for none); plain is false for a key
// that is not ASCII (encoding/json folds some other letters too) and for
// one matched before in the object (encoding/json merges a second object
// into the first).
func (k *keySet) match(key []byte) (name string, plain bool) {
	for _, c := range key {
		if c >= 0x80 {
			return "", false
		}
	}
	for i, name := range k.names {
		if !equalFoldASCII(key, name) {
			continue
		}
		if k.seen&(1<<i) != 0 {
			return "", false
		}
		k.seen |= 1 << i
		return name, true
	}
	return "", true
}

// equalFoldASCII reports whether key, in ASCII, is name (lower case)
// regardless of case.
func equalFoldASCII(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != name[i] {
			return false
		}
	}
	return true
}

// The keys read of a call, its params and their _meta.
var (
	callKeys   = []string{"jsonrpc", "id", "method", "params"}
	paramsKeys = []string{"name", "arguments", "task", "_meta"}
	metaKeys   = []string{"progresstoken", "io.modelcontextprotocol/protocolversion",
		"io.modelcontextprotocol/clientcapabilities", "io.modelcontextprotocol/clientinfo"}
)

// plainString is the text of a JSON string written without escapes, in
// UTF-8 (encoding/json replaces bytes that are not); ok is false for
// anything else.
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

// completed is a result as the go-sdk's server answers a 2026-07-28 call:
// "resultType": "complete" (unless the server said otherwise), and
// Gatehouse named as the server in its _meta (the client's server is
// Gatehouse, whatever server ran the tool). The result's members are
// copied as the server wrote them (members); only one that cannot be read
// so is decoded, and a result that cannot be read at all is returned as
// it is. A 2026-07-28 server's result names the server already, and
// decoding and encoding it again took a forwarded call 12 µs on a warm
// core, several times that on a cold one (P11).
func completed(result json.RawMessage, serverInfo json.RawMessage) json.RawMessage {
	const infoKey = "io.modelcontextprotocol/serverInfo"
	top, ok := members(result)
	if !ok {
		return completedDecoding(result, serverInfo)
	}
	out := make([]byte, 0, len(result)+len(serverInfo)+96)
	out = append(out, '{')
	hasMeta, hasType := false, false
	for _, m := range top {
		hasType = hasType || string(m.key) == "resultType"
		hasMeta = hasMeta || string(m.key) == "_meta"
	}
	if !hasType {
		out = append(out, `"resultType":"complete",`...)
	}
	if !hasMeta {
		out = append(out, `"_meta":{"`+infoKey+`":`...)
		out = append(out, serverInfo...)
		out = append(out, "},"...)
	}
	for _, m := range top {
		if string(m.key) != "_meta" {
			out = append(out, m.raw...)
			out = append(out, ',')
			continue
		}
		meta, ok := members(m.value)
		if !ok {
			return completedDecoding(result, serverInfo)
		}
		out = append(out, `"_meta":{"`+infoKey+`":`...)
		out = append(out, serverInfo...)
		for _, mm := range meta {
			if string(mm.key) != infoKey {
				out = append(out, ',')
				out = append(out, mm.raw...)
			}
		}
		out = append(out, "},"...)
	}
	out[len(out)-1] = '}' // the last comma
	return out
}

// completedDecoding is completed for a result whose members cannot be
// copied as written (a key written with escapes): decoded and encoded.
func completedDecoding(result json.RawMessage, serverInfo json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(result, &fields) != nil {
		return result
	}
	meta := map[string]json.RawMessage{}
	if m, ok := fields["_meta"]; ok && json.Unmarshal(m, &meta) != nil {
		return result
	}
	meta["io.modelcontextprotocol/serverInfo"] = serverInfo
	if _, ok := fields["resultType"]; !ok {
		fields["resultType"] = json.RawMessage(`"complete"`)
	}
	var err error
	if fields["_meta"], err = json.Marshal(meta); err != nil {
		return result
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return result
	}
	return out
}

// member is one member of a JSON object: its key (as written, without
// quotes), its value, and the whole member ("key":value) as written.
type member struct {
	key, value, raw []byte
}

// members splits a JSON object into its members as written. ok is false
// for anything but an object, and for a key written with escapes (its
// name is then not the bytes between its quotes). obj must be valid JSON
// (the forwarder's decoding checked it): values are skipped, not checked.
func members(obj []byte) (ms []member, ok bool) {
	ms = make([]member, 0, 8)
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, false
	}
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return nil, true
	}
	for i < len(obj) && obj[i] == '"' {
		start := i
		end := bytes.IndexByte(obj[i+1:], '"')
		if end < 0 {
			return nil, false
		}
		key := obj[i+1 : i+1+end]
		if bytes.IndexByte(key, '\\') >= 0 {
			return nil, false
		}
		i = skipSpace(obj, i+2+end)
		if i >= len(obj) || obj[i] != ':' {
			return nil, false
		}
		valueStart := skipSpace(obj, i+1)
		valueEnd := skipValue(obj, valueStart)
		if valueEnd <= valueStart {
			return nil, false
		}
		ms = append(ms, member{key: key, value: obj[valueStart:valueEnd], raw: obj[start:valueEnd]})
		i = skipSpace(obj, valueEnd)
		if i < len(obj) && obj[i] == '}' {
			return ms, true
		}
		if i >= len(obj) || obj[i] != ',' {
			return nil, false
		}
		i = skipSpace(obj, i+1)
	}
	return nil, false
}

// skipSpace is the index of the first byte from i on that is not JSON's
// white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue is the index just after the valid JSON value that begins at
// i: a string, an object or array (to its matching end, strings inside
// skipped whole), or a number, true, false or null.
func skipValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i // the end of the object holding a number, true, false or null
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}
