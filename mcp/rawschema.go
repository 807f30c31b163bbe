package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A form request's requestedSchema is carried past the go-sdk, untouched, so
// that Gatehouse's own form code is the one authority over it (E14, E15).
//
// Why at the wire: after the host's ElicitationHandler returns accept, the
// go-sdk client validates the content against the requestedSchema with a
// second JSON Schema library and then applies the schema's defaults to it
// (client.elicit → ApplyDefaults, also for 2026-07-28 input requests, which it
// fulfils through the same function). A field the person cleared would reach
// the server with its default: the server would receive an answer the person
// never gave. The SDK has no option to turn this off, and the decoded schema
// it hands over has also lost the order of the fields. So every
// elicitation/create read from a connection (and every elicitation among a
// result's input requests) is rewritten before the SDK decodes it: the schema
// the server wrote moves, byte for byte, into _meta[RawSchemaMeta] as a JSON
// string, and the SDK sees a null requestedSchema (placeholderSchema): no
// schema, so it neither validates the answer nor applies a default, and it
// does not decode, compile and check the schema a second time for nothing
// (about 60 µs and a 32 KB buffer of each request; issue 15, P2). The broker
// parses the carried schema once, the form shows it, and the content
// validated against it is exactly what is sent. The SDK's own check that a
// URL request has no requestedSchema is the broker's (checkURLRequest).
//
// A request without a requestedSchema is left without one (form mode then
// refuses it, E6), and a RawSchemaMeta the server wrote itself is removed, so
// that only the host can put a schema there.

// RawSchemaMeta is the _meta key that carries a form request's requestedSchema
// as the server wrote it (a JSON text in a JSON string).
const RawSchemaMeta = "gatehouse.dev/requestedSchema"

// placeholderSchema is the requestedSchema the go-sdk sees instead: none.
const placeholderSchema = `null`

const methodElicit = "elicitation/create"

// rawSchemaOf returns the requestedSchema carried in a request's _meta, and
// whether there is one.
func rawSchemaOf(meta sdk.Meta) (json.RawMessage, bool) {
	s, ok := meta[RawSchemaMeta].(string)
	if !ok {
		return nil, false
	}
	return json.RawMessage(s), true
}

// hasCarriedSchema reports whether a request's requestedSchema was carried
// into its _meta (the SDK then sees none).
func hasCarriedSchema(meta sdk.Meta) bool {
	_, ok := rawSchemaOf(meta)
	return ok
}

// carrySchema rewrites the params of one elicitation/create as described
// above. Params it cannot read are returned unchanged: the SDK refuses them
// itself (its decoding fails the same way), so nothing unchecked is shown.
func carrySchema(params json.RawMessage) json.RawMessage {
	hasSchema := bytes.Contains(params, []byte(`"requestedSchema"`))
	hasOurKey := bytes.Contains(params, []byte(RawSchemaMeta))
	if !hasSchema && !hasOurKey {
		return params // a URL request, or a form without a schema: nothing to carry
	}
	members, empty, ok := topLevelMembers(params)
	if !ok {
		return params
	}
	schema, meta := members["requestedSchema"], members["_meta"]
	if schema.count > 1 || meta.count > 1 {
		return carrySchemaSlow(params)
	}
	var carried []byte
	if schema.count == 1 && !isJSONNull(params[schema.start:schema.end]) {
		carried = params[schema.start:schema.end]
		if !utf8.Valid(carried) {
			return params // text that is not UTF-8 cannot be carried as it is: the broker refuses it
		}
	}
	newMeta, ok := metaWithSchema(metaValue(params, meta), carried)
	if !ok {
		return params
	}
	// Splice: the members the host does not change keep their bytes.
	type edit struct {
		start, end int
		with       []byte
	}
	var edits []edit
	if carried != nil {
		edits = append(edits, edit{schema.start, schema.end, []byte(placeholderSchema)})
	}
	switch {
	case newMeta == nil: // no _meta (or a null one) and nothing to carry
	case meta.count == 1:
		edits = append(edits, edit{meta.start, meta.end, newMeta})
	default:
		// No _meta yet: add one as the first member.
		at := bytes.IndexByte(params, '{') + 1
		with := append(append([]byte(`"_meta":`), newMeta...), ',')
		if empty {
			with = with[:len(with)-1]
		}
		edits = append(edits, edit{at, at, with})
	}
	if len(edits) == 2 && edits[1].start < edits[0].start {
		edits[0], edits[1] = edits[1], edits[0]
	}
	out := make([]byte, 0, len(params)+len(newMeta)+len(placeholderSchema)+16)
	last := 0
	for _, e := range edits {
		out = append(out, params[last:e.start]...)
		out = append(out, e.with...)
		last = e.end
	}
	return append(out, params[last:]...)
}

// carrySchemaSlow is carrySchema for params with repeated members, decoded
// as the SDK decodes them (the last of a repeated member wins).
func carrySchemaSlow(params json.RawMessage) json.RawMessage {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return params
	}
	var carried []byte
	if s, has := p["requestedSchema"]; has && !isJSONNull(s) {
		if !utf8.Valid(s) {
			return params
		}
		carried = s
		p["requestedSchema"] = json.RawMessage(placeholderSchema)
	}
	newMeta, ok := metaWithSchema(p["_meta"], carried)
	if !ok {
		return params
	}
	if newMeta != nil {
		p["_meta"] = newMeta
	}
	out, err := marshalAsSent(p)
	if err != nil {
		return params
	}
	return out
}

// metaWithSchema returns the _meta object with RawSchemaMeta set to the
// carried schema (or removed when carried is nil), nil when there is no
// _meta and nothing to carry, and false when _meta is not an object.
func metaWithSchema(meta json.RawMessage, carried []byte) (json.RawMessage, bool) {
	if meta == nil || isJSONNull(meta) {
		if carried == nil {
			return nil, true
		}
		// The usual case: no _meta, one member to write.
		quoted, err := marshalAsSent(string(carried))
		if err != nil {
			return nil, false
		}
		out := make([]byte, 0, len(quoted)+len(RawSchemaMeta)+5)
		out = append(append(append(out, `{"`...), RawSchemaMeta...), `":`...)
		return append(append(out, quoted...), '}'), true
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(meta, &m); err != nil || m == nil {
		return nil, false
	}
	delete(m, RawSchemaMeta)
	if carried != nil {
		quoted, err := marshalAsSent(string(carried))
		if err != nil {
			return nil, false
		}
		m[RawSchemaMeta] = quoted
	}
	out, err := marshalAsSent(m)
	if err != nil {
		return nil, false
	}
	return out, true
}

// memberSpan is where the value of a top-level member of a JSON object lies.
type memberSpan struct {
	start, end int
	count      int // how often the member occurs
}

// topLevelMembers finds the spans of the requestedSchema and _meta members of
// a JSON object, and whether the object is empty. It reports false for
// anything that is not one valid object. It runs on every form request, so
// it checks the text once (json.Valid) and then walks only the top level,
// skipping strings and nested values by their brackets (issue 15, P1).
func topLevelMembers(b []byte) (members map[string]memberSpan, empty, ok bool) {
	if !json.Valid(b) {
		return nil, false, false
	}
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false, false
	}
	members = map[string]memberSpan{}
	empty = true
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] != '}' {
		empty = false
		keyEnd := stringEnd(b, i)
		name := string(b[i+1 : keyEnd-1])
		if bytes.IndexByte(b[i:keyEnd], '\\') >= 0 {
			_ = json.Unmarshal(b[i:keyEnd], &name) // an escaped name, as the SDK reads it
		}
		i = skipSpace(b, keyEnd)
		i = skipSpace(b, i+1) // the colon
		valueEnd := valueEnd(b, i)
		if name == "requestedSchema" || name == "_meta" {
			span := members[name]
			span.start, span.end, span.count = i, valueEnd, span.count+1
			members[name] = span
		}
		i = skipSpace(b, valueEnd)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return members, empty, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the JSON string starting at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// valueEnd returns the index after the valid JSON value starting at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = stringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	default: // a number, true, false or null
		j := i
		for j < len(b) && !strings.ContainsRune(",}] \t\n\r", rune(b[j])) {
			j++
		}
		return j
	}
}

func metaValue(b []byte, span memberSpan) json.RawMessage {
	if span.count == 0 {
		return nil
	}
	return b[span.start:span.end]
}

// marshalAsSent encodes a value for a message the SDK reads in place of the
// server's: unlike json.Marshal it leaves "<", ">" and "&" as the server
// wrote them (json.Marshal would also rewrite them inside every
// json.RawMessage it re-encodes), so a member the host does not change
// keeps its text. Found by FuzzCarrySchema.
func marshalAsSent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func isJSONNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

// carryInputRequestSchemas applies carrySchema to every elicitation among a
// result's input requests (multi round-trip, 2026-07-28), which carry
// elicitation params inside a tools/call, prompts/get or resources/read result.
func carryInputRequestSchemas(result json.RawMessage) json.RawMessage {
	var r map[string]json.RawMessage
	if err := json.Unmarshal(result, &r); err != nil || r["inputRequests"] == nil {
		return result
	}
	var reqs map[string]map[string]json.RawMessage
	if err := json.Unmarshal(r["inputRequests"], &reqs); err != nil {
		return result
	}
	for _, ir := range reqs {
		var method string
		if ir != nil && json.Unmarshal(ir["method"], &method) == nil && method == methodElicit && ir["params"] != nil {
			ir["params"] = carrySchema(ir["params"])
		}
	}
	var err error
	if r["inputRequests"], err = marshalAsSent(reqs); err != nil {
		return result
	}
	out, err := marshalAsSent(r)
	if err != nil {
		return result
	}
	return out
}

// CarrySchemas wraps a newline-delimited transport (stdio, a socket) so that
// every elicitation read from it carries its requestedSchema in
// _meta[RawSchemaMeta], as the manager's own connections do: for the
// command line's session with the running app (see RemoteQuestion).
func CarrySchemas(t sdk.Transport) sdk.Transport { return rawSchemaTransport{t, nil, nil} }

// rawSchemaTransport wraps a transport whose connections carry no optional
// SDK interfaces (stdio and legacy SSE) and carries the schema of every
// elicitation read from it. Its guard (may be nil) hears of a stdio line
// the SDK refused as too long (wirelimit.go).
type rawSchemaTransport struct {
	sdk.Transport
	guard *wireGuard
	// fwd, when set, sends the gateway's forwarded calls on the
	// connection (forward.go, commandTransport).
	fwd *forwarder
}

func (t rawSchemaTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return rawSchemaConn{Connection: c, guard: t.guard, fwd: t.fwd}, nil
}

type rawSchemaConn struct {
	sdk.Connection
	guard *wireGuard
	fwd   *forwarder // nil: no forwarded calls on this connection
}

// Write sends msg, learning the _meta the SDK's requests carry for the
// forwarded ones.
func (c rawSchemaConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.fwd.learn(msg)
	return c.Connection.Write(ctx, msg)
}

func (c rawSchemaConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	err = c.guard.readErr(err)
	c.fwd.end(err)
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.Method == methodElicit {
			m.Params = carrySchema(m.Params)
		}
	case *jsonrpc.Response:
		if m.Result != nil && bytes.Contains(m.Result, []byte(methodElicit)) {
			m.Result = carryInputRequestSchemas(m.Result)
		}
		if m.Result != nil {
			m.Result = carryTaskSupport(m.Result) // tasks.go
		}
	}
	return msg, err
}

// A Streamable HTTP connection cannot be wrapped as the others are without
// losing the SDK's session state handling, so its response bodies are
// rewritten line by line instead (a JSON document, or an event stream's
// "data:" lines), for the same purpose: wirelimit.go's boundedLines, which
// also bounds what it holds, hands each line to rewriteLine.

// rewriteLine carries the schemas of the elicitations found on one line (an
// elicitation/create request, or a result's input requests) and the task
// support of the tools of a tools/list result (tasks.go).
func rewriteLine(line []byte) []byte {
	if !bytes.Contains(line, []byte(methodElicit)) && !mayCarryTaskSupport(line) {
		return line
	}
	prefix, payload := "", line
	if after, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		prefix, payload = "data: ", bytes.TrimLeft(after, " ")
	}
	trimmed := bytes.TrimRight(payload, "\r\n")
	suffix := payload[len(trimmed):]
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &msg); err != nil {
		return line
	}
	var method string
	switch {
	case json.Unmarshal(msg["method"], &method) == nil && method == methodElicit && msg["params"] != nil:
		msg["params"] = carrySchema(msg["params"])
	case msg["result"] != nil:
		msg["result"] = carryTaskSupport(carryInputRequestSchemas(msg["result"]))
	default:
		return line
	}
	out, err := marshalAsSent(msg)
	if err != nil {
		return line
	}
	return []byte(prefix + string(out) + string(suffix))
}
