package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

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
	go func() {
		defer func() {
			f.mu.Lock()
			delete(f.calls, key)
			f.mu.Unlock()
			cancel()
			release()
		}()
		f.serve(ctx, msg)
	}()
	return true
}

// serve makes one forwarded call and answers the client, unless it
// cancelled the call or left.
func (f *forwarding) serve(ctx context.Context, msg forwardedCall) {
	a, refused, err := f.c.admit(ctx, msg.Params.Name, msg.Params.Arguments)
	var result json.RawMessage
	if refused == nil && err == nil {
		refused, result, err = f.c.run(ctx, a, nil, true)
	}
	if ctx.Err() != nil {
		return // cancelled: no answer (the go-sdk's server sends none either)
	}
	var rpcErr *jsonrpc.Error
	switch {
	case err != nil:
		if !errors.As(err, &rpcErr) {
			rpcErr = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
	case refused != nil:
		if result, err = json.Marshal(refused); err != nil {
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
	_, _ = f.out.Write(append(out, '\n'))
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
// "resultType": "complete", and Gatehouse named as the server in its _meta
// (the client's server is Gatehouse, whatever server ran the tool). A
// result that cannot be read is returned as it is.
func completed(result json.RawMessage, serverInfo json.RawMessage) json.RawMessage {
	if !bytes.Contains(result, []byte(`"_meta"`)) && !bytes.Contains(result, []byte(`"resultType"`)) {
		// Neither key is anywhere in it: add both in front.
		body := bytes.TrimSpace(result)
		rest := bytes.TrimSpace(body[1:])
		out := make([]byte, 0, len(result)+len(serverInfo)+96)
		out = append(out, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":`...)
		out = append(out, serverInfo...)
		out = append(out, '}')
		if rest[0] != '}' {
			out = append(out, ',')
		}
		return append(out, rest...)
	}
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
