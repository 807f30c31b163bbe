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
// arguments (mcp.Manager.StartToolCall), and the server's result goes
// back to the client as the server wrote it. Every other message, and
// every call that does not qualify, goes the go-sdk's way.

// forwarding is one client's forwarded calls.
type forwarding struct {
	c   *conn
	out *lineio.Writer // the client's output, which the go-sdk writes to as well

	mu    sync.Mutex
	calls map[string]context.CancelFunc // running, by the client's request ID (idKey)
	// running counts the calls until each is answered and recorded, for
	// drain; ended is set by drain: no call starts after it.
	running sync.WaitGroup
	ended   bool
}

// drain waits, once the client's session has ended (its calls cancelled),
// until every call forwarded for it is answered and in History, so that
// the gateway's Close returns after them.
func (f *forwarding) drain() {
	f.mu.Lock()
	f.ended = true
	f.mu.Unlock()
	f.running.Wait()
}

// forwardedCall is what the forwarded way reads of a client's message
// (parseCall).
type forwardedCall struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  *callParams     `json:"params"`
}

// callParams are a tools/call's params, as the forwarded way reads them.
type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Task      json.RawMessage `json:"task"`
	Meta      callMeta        `json:"_meta"`
}

// callMeta is a call's _meta, as the forwarded way reads it.
type callMeta struct {
	ProgressToken any `json:"progressToken"`
	// 2026-07-28: each request says its revision and the client's
	// capabilities (SEP-2575).
	ProtocolVersion    string          `json:"io.modelcontextprotocol/protocolVersion"`
	ClientCapabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
	ClientInfo         json.RawMessage `json:"io.modelcontextprotocol/clientInfo"`
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
	msg, ok := parseCall(line)
	if !ok || msg.JSONRPC != "2.0" || msg.Method != "tools/call" || msg.Params == nil ||
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
	if f.ended {
		f.mu.Unlock()
		cancel()
		release()
		return false
	}
	f.calls[key] = cancel
	f.running.Add(1)
	f.mu.Unlock()
	done := func() {
		f.mu.Lock()
		delete(f.calls, key)
		f.mu.Unlock()
		cancel()
		release()
		f.running.Done()
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
	f.out.WriteSoon(append(out, '\n'), nil)
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
	if plainID(raw) {
		return string(raw), true // as json.Marshal writes it again
	}
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

// plainID reports whether raw is a string ID that json.Marshal writes as
// it is: printable ASCII, with nothing it escapes.
func plainID(raw json.RawMessage) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
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
