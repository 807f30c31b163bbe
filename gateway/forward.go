package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/lineio"
)

// The forwarded way of a tools/call (P11). The go-sdk's server would
// decode a client's call into Go values, and encode the result the go-sdk's
// client decoded from the server's bytes: the work of a client and a
// server on top of theirs, with the garbage of four decodings of each
// message, so a call through the gateway took twice as long as a direct
// one. A call that needs nothing of the go-sdk's server (no progress asked
// for, no task, from a client that has said who it is) is taken off the
// client's input before the go-sdk reads it (lineio.Tap); it goes through
// the same consent (conn.admit) and History, to its server as the client's
// arguments (mcp.Manager.ForwardToolCall), and the server's result goes
// back to the client as the server wrote it. Every other message, and
// every call that does not qualify, goes the go-sdk's way.

// forwarding is one client's forwarded calls.
type forwarding struct {
	c   *conn
	out *lineio.Writer // the client's output, which the go-sdk writes to as well

	mu    sync.Mutex
	calls map[string]context.CancelFunc // running, by the client's request ID (idKey)
}

// forwardedCall is what the forwarded way reads of a client's message.
type forwardedCall struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Task      json.RawMessage `json:"task"`
		Meta      struct {
			ProgressToken any `json:"progressToken"`
			// 2026-07-28: each request says its revision and the
			// client's capabilities (SEP-2575).
			ProtocolVersion    string          `json:"io.modelcontextprotocol/protocolVersion"`
			ClientCapabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
			ClientInfo         json.RawMessage `json:"io.modelcontextprotocol/clientInfo"`
		} `json:"_meta"`
	} `json:"params"`
}

// take is the client input's taker (lineio.Tap): it starts the calls it
// forwards, and ends the ones the client cancels.
func (f *forwarding) take(line []byte) bool {
	switch {
	case bytes.Contains(line, []byte(`"tools/call"`)):
		return f.start(line)
	case bytes.Contains(line, []byte(`"notifications/cancelled"`)):
		f.cancelled(line) // and the go-sdk's own, if it is one
	}
	return false
}

// start forwards a call when it qualifies (see above) and the client's
// limits let it through now (conn.reserve); otherwise the go-sdk takes it,
// and refuses what the limits refuse (conn.guard).
func (f *forwarding) start(line []byte) bool {
	var msg forwardedCall
	if json.Unmarshal(line, &msg) != nil || msg.JSONRPC != "2.0" || msg.Method != "tools/call" || msg.Params == nil ||
		msg.Params.Task != nil || msg.Params.Meta.ProgressToken != nil || newRevision(msg) && !wellFormedMeta(msg) {
		return false // the go-sdk's server answers it (and refuses a malformed _meta)
	}
	key, ok := idKey(msg.ID)
	if !ok {
		return false
	}
	c := f.c
	c.mu.Lock()
	_, offered := c.tools[msg.Params.Name]
	ready := c.identified && offered && !c.app.CutOff
	c.mu.Unlock()
	if !ready {
		return false
	}
	f.mu.Lock()
	_, twice := f.calls[key]
	f.mu.Unlock()
	if twice {
		return false
	}
	release, err := c.reserve(c.inFlight)
	if err != nil {
		return false // the go-sdk's server answers it, with the same refusal (conn.guard)
	}
	ctx, cancel := context.WithCancel(c.ctx)
	f.mu.Lock()
	f.calls[key] = cancel
	f.mu.Unlock()
	done := func() {
		f.mu.Lock()
		delete(f.calls, key)
		f.mu.Unlock()
		cancel()
		release()
	}
	// Most calls the person's settings decide at once: admitted here, on
	// the goroutine that reads the client, the answer written by the one
	// that reads the server. A call handed to a goroutine of its own cost
	// a call through the gateway about 0.03× more (P11); one that waits
	// for the person, or for its server to reconnect, gets one.
	a, refused, err := c.admit(ctx, msg.Params.Name, msg.Params.Arguments, true)
	if errors.Is(err, errWouldWait) {
		go f.serve(ctx, msg, done)
		return true
	}
	f.forward(ctx, msg, a, refused, err, done)
	return true
}

// serve admits a forwarded call where it can wait for the person, then
// forwards it.
func (f *forwarding) serve(ctx context.Context, msg forwardedCall, done func()) {
	a, refused, err := f.c.admit(ctx, msg.Params.Name, msg.Params.Arguments, false)
	f.forward(ctx, msg, a, refused, err, done)
}

// forward makes an admitted call and answers the client, unless it
// cancelled the call or left; then done. The answer usually goes from the
// goroutine that reads the server's output (conn.forward), History's
// record after it.
func (f *forwarding) forward(ctx context.Context, msg forwardedCall, a admitted, refused *sdk.CallToolResult, err error, done func()) {
	if refused != nil || err != nil {
		f.answer(ctx, msg, callEnd{res: refused, err: err})
		done()
		return
	}
	f.c.forward(ctx, a, func(e callEnd) {
		f.answer(ctx, msg, e)
		e.record(f.c.g.opts.Broker)
		done()
	})
}

// answer writes the answer to a call to the client, without waiting for
// it to read (lineio.Writer.WriteSoon): the result as the server wrote it,
// or the one Gatehouse made, or the error; none to a call the client
// cancelled.
func (f *forwarding) answer(ctx context.Context, msg forwardedCall, e callEnd) {
	if ctx.Err() != nil {
		return // cancelled: no answer (the go-sdk's server sends none either)
	}
	result, err := e.body, e.err
	var rpcErr *jsonrpc.Error
	switch {
	case err != nil:
		if !errors.As(err, &rpcErr) {
			rpcErr = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
	case e.res != nil:
		if result, err = json.Marshal(e.res); err != nil {
			rpcErr = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
	}
	if rpcErr == nil && newRevision(msg) {
		result = completed(result, f.c.g.serverInfo)
	}
	var out []byte
	if rpcErr != nil {
		out, _ = json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *jsonrpc.Error  `json:"error"`
		}{"2.0", msg.ID, rpcErr})
	} else {
		out = make([]byte, 0, len(msg.ID)+len(result)+32)
		out = append(out, `{"jsonrpc":"2.0","id":`...)
		out = append(out, msg.ID...)
		out = append(out, `,"result":`...)
		out = append(out, result...)
		out = append(out, '}')
	}
	f.out.WriteSoon(append(out, '\n'))
}

// cancelled ends the forwarded call a notifications/cancelled names.
func (f *forwarding) cancelled(line []byte) {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method != "notifications/cancelled" {
		return
	}
	key, ok := idKey(msg.Params.RequestID)
	if !ok {
		return
	}
	f.mu.Lock()
	cancel := f.calls[key]
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// idKey is a request ID (a string or a number) as one key, however the
// client wrote it; ok is false for anything else.
func idKey(raw json.RawMessage) (string, bool) {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch v.(type) {
	case string, float64:
		b, err := json.Marshal(v)
		return string(b), err == nil
	}
	return "", false
}

// newRevision reports whether a call is made in revision 2026-07-28 or
// later, whose results say they are complete and who answered (SEP-2575).
func newRevision(msg forwardedCall) bool {
	return msg.Params.Meta.ProtocolVersion >= "2026-07-28"
}

// wellFormedMeta reports whether a 2026-07-28 call's _meta has what the
// go-sdk's server requires of it: the client's capabilities, and its
// information if any, as objects.
func wellFormedMeta(msg forwardedCall) bool {
	object := func(b json.RawMessage) bool { return len(b) > 0 && b[0] == '{' }
	m := msg.Params.Meta
	return object(m.ClientCapabilities) && (m.ClientInfo == nil || object(m.ClientInfo))
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
		hasType = hasType || m.key == "resultType"
		hasMeta = hasMeta || m.key == "_meta"
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
		if m.key != "_meta" {
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
			if mm.key != infoKey {
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
	key        string
	value, raw []byte
}

// members splits a JSON object into its members as written. ok is false
// for anything but an object, and for a key written with escapes (its
// name is then not the bytes between its quotes). obj must be valid JSON
// (the forwarder's decoding checked it): values are skipped, not checked.
func members(obj []byte) (ms []member, ok bool) {
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
		ms = append(ms, member{key: string(key), value: obj[valueStart:valueEnd], raw: obj[start:valueEnd]})
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
