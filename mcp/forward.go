package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/lineio"
)

// A tool call the gateway forwards for another app (issue 25, P11) goes to
// its server as the bytes the app sent, beside the SDK's own requests on
// the same connection: the SDK's client would decode the call's result
// into Go values only for the gateway's SDK server to encode them again,
// which doubled the time of a call through the gateway. The forwarder
// writes the request under an ID of its own, whole beside the SDK's
// messages (lineio.Writer), and takes the response off the server's output
// before the SDK reads it (commandTransport's lineio.Tap). Everything else
// on the connection (the server's questions during the call, its
// notifications, the SDK's own requests) goes the SDK's way as before.

// ErrNotForwarded says a call could not go the forwarded way (a connection
// that is not stdio, one whose per-request _meta is not known yet, a tool
// that needs a task, a server that asked for web pages first or for input):
// make it with CallTool instead. Nothing of it reached the server, or what
// did reached it as a call the server refused to run yet.
var ErrNotForwarded = errors.New("this call cannot be forwarded as it is")

// forwardPrefix begins the IDs of forwarded requests: the SDK numbers its
// own, so none of its IDs is a string.
const forwardPrefix = "gatehouse-forward-"

// forwardIDs numbers forwarded requests across connections.
var forwardIDs atomic.Int64

// forwarder sends requests on one stdio connection beside the SDK's
// (commandTransport) and takes their responses off it.
type forwarder struct {
	w *lineio.Writer // the server's input, set when the process starts

	mu      sync.Mutex
	pending map[string]*forwardedRequest
	ended   error // the connection's reading ended: every call fails
	// meta is the per-request _meta the SDK puts on its own requests when
	// the server speaks 2026-07-28 (protocol version, client info and
	// capabilities), learned from them (learn); nil until then.
	meta json.RawMessage
}

// forwardedRequest is a forwarded request waiting for its response.
type forwardedRequest struct {
	done func(forwardedResponse, error) // called once, by whoever removes the request from pending
	stop func() bool                    // stops the watch on the call's context
}

// forwardedResponse is a server's response to a forwarded request.
type forwardedResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
}

func newForwarder() *forwarder {
	return &forwarder{pending: map[string]*forwardedRequest{}}
}

// take is the lineio.Tap's taker: it takes a response to a forwarded
// request and ends the call with it, on the goroutine reading the
// server's output (one answering a call given up is dropped); every other
// line goes on to the SDK.
func (f *forwarder) take(line []byte) bool {
	if !bytes.Contains(line, []byte(`"`+forwardPrefix)) {
		return false
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		forwardedResponse
	}
	var id string
	if json.Unmarshal(line, &msg) != nil || msg.Method != "" || json.Unmarshal(msg.ID, &id) != nil || !strings.HasPrefix(id, forwardPrefix) {
		return false // the prefix is in something else: the SDK's
	}
	if req := f.remove(id); req != nil {
		req.stop()
		req.done(msg.forwardedResponse, nil)
	}
	return true
}

// remove takes the request id off pending: the one that does ends it.
func (f *forwarder) remove(id string) *forwardedRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	req := f.pending[id]
	delete(f.pending, id)
	return req
}

// end fails every forwarded call waiting, and every later one: the
// connection's reading ended with err.
func (f *forwarder) end(err error) {
	if f == nil || err == nil {
		return
	}
	f.mu.Lock()
	if f.ended == nil {
		f.ended = err
	}
	ended := f.pending
	f.pending = map[string]*forwardedRequest{}
	f.mu.Unlock()
	for _, req := range ended {
		req.stop()
		req.done(forwardedResponse{}, fmt.Errorf("%w: %w", ErrNotConnected, err))
	}
}

// learn keeps the per-request _meta of the SDK's own requests (2026-07-28:
// SEP-2575), for the forwarded ones to carry the same.
func (f *forwarder) learn(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if f == nil || !ok || len(req.Params) == 0 {
		return
	}
	f.mu.Lock()
	known := f.meta != nil
	f.mu.Unlock()
	if known || !bytes.Contains(req.Params, []byte(sdk.MetaKeyProtocolVersion)) {
		return
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(req.Params, &p) != nil || p.Meta[sdk.MetaKeyProtocolVersion] == nil {
		return
	}
	keep := map[string]json.RawMessage{}
	for _, k := range []string{sdk.MetaKeyProtocolVersion, sdk.MetaKeyClientInfo, sdk.MetaKeyClientCapabilities} {
		if v, ok := p.Meta[k]; ok {
			keep[k] = v
		}
	}
	b, err := json.Marshal(keep)
	if err != nil {
		return
	}
	f.mu.Lock()
	f.meta = b
	f.mu.Unlock()
}

// callTool sends a call of the tool name (its name as JSON) with arguments
// (a JSON object), and returns at once. done gets the response, once: on
// the goroutine reading the server's output, or the connection's end (then
// ErrNotConnected), or ctx's (then ctx's error, and the server is told the
// request is cancelled). newProtocol says the server speaks 2026-07-28,
// whose requests carry the SDK's _meta: without it learned yet,
// ErrNotForwarded. When callTool returns an error, done is never called.
func (f *forwarder) callTool(ctx context.Context, name, arguments []byte, newProtocol bool, done func(forwardedResponse, error)) error {
	f.mu.Lock()
	if f.ended != nil {
		ended := f.ended
		f.mu.Unlock()
		return fmt.Errorf("%w: %w", ErrNotConnected, ended)
	}
	meta := f.meta
	if f.w == nil || newProtocol && meta == nil {
		f.mu.Unlock()
		return ErrNotForwarded
	}
	id := forwardPrefix + strconv.FormatInt(forwardIDs.Add(1), 10)
	req := &forwardedRequest{done: done}
	f.pending[id] = req
	// Watched from now (AfterFunc never runs its function at once): a
	// context that has ended ends the call, the request written or not.
	req.stop = context.AfterFunc(ctx, func() { f.cancel(ctx, id) })
	f.mu.Unlock()
	line := make([]byte, 0, len(id)+len(name)+len(arguments)+len(meta)+96)
	line = append(line, `{"jsonrpc":"2.0","id":"`...)
	line = append(line, id...)
	line = append(line, `","method":"tools/call","params":{`...)
	if newProtocol {
		line = append(line, `"_meta":`...)
		line = append(line, meta...)
		line = append(line, ',')
	}
	line = append(line, `"name":`...)
	line = append(line, name...)
	line = append(line, `,"arguments":`...)
	line = append(line, arguments...)
	line = append(line, "}}\n"...)
	// Never waiting for a server that stopped reading (StartToolCall runs
	// on the goroutine reading the other app's messages).
	f.w.WriteSoon(line, func(err error) {
		if req := f.remove(id); req != nil {
			req.stop()
			req.done(forwardedResponse{}, fmt.Errorf("%w: %w", ErrNotConnected, err))
		}
	})
	return nil
}

// cancel ends the request id when ctx ended before its response came,
// and tells the server.
func (f *forwarder) cancel(ctx context.Context, id string) {
	req := f.remove(id)
	if req == nil {
		return // answered, or failed, first
	}
	req.done(forwardedResponse{}, ctx.Err())
	note, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
		"params": sdk.CancelledParams{RequestID: id, Reason: context.Cause(ctx).Error()}})
	f.w.WriteSoon(append(note, '\n'), nil) // never waiting either
}

// StartToolCall sends a call of the tool name on server id with arguments
// (a JSON object, as the other app sent it), the gateway's forwarded way,
// and returns at once: done gets the server's result as it sent it,
// undecoded (the gateway passes it on). done runs once, on the goroutine
// that reads the server's output (a call ended another way: another
// goroutine), and must not wait for anything: whatever can, it hands to a
// goroutine of its own. An answer handed back to a waiting goroutine cost
// a call through the gateway about 0.1 ms more on a 2-core machine (P11).
//
// StartToolCall never waits. It returns ErrNotForwarded when the call
// must be made with CallTool instead (see there; also when the server is
// not connected at the moment), and done then gets nothing. done gets
// ErrNotForwarded too when the server first wants a page visited or input
// given: the call is then made again with CallTool. It gets a
// *jsonrpc.Error (wrapped, as CallTool's) when the server refused the
// call, ErrNotConnected when the connection ended first, and ctx's error
// when ctx ended first. No progress is asked for.
func (m *Manager) StartToolCall(ctx context.Context, id, name string, arguments json.RawMessage, done func(json.RawMessage, error)) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	cs, err := s.live()
	if err != nil {
		return ErrNotForwarded // not connected now: CallTool waits for it
	}
	s.mu.Lock()
	fwd := s.forward
	s.mu.Unlock()
	if fwd.cs != cs || fwd.f == nil || s.needsTask(name) {
		return ErrNotForwarded
	}
	args := bytes.TrimSpace(arguments)
	if len(args) == 0 || args[0] != '{' || !json.Valid(args) {
		return ErrNotForwarded // CallTool sends an object, and says why not
	}
	quoted, err := json.Marshal(name)
	if err != nil {
		return ErrNotForwarded
	}
	newProtocol := false
	if ir := cs.InitializeResult(); ir != nil {
		newProtocol = ir.ProtocolVersion >= "2026-07-28"
	}
	return fwd.f.callTool(ctx, quoted, args, newProtocol, func(resp forwardedResponse, err error) {
		done(m.forwardedResult(id, s, name, resp, err))
	})
}

// forwardedResult is a forwarded call's result, or why there is none.
func (m *Manager) forwardedResult(id string, s *session, name string, resp forwardedResponse, err error) (json.RawMessage, error) {
	switch {
	case err != nil:
		return nil, err
	case resp.Error != nil && resp.Error.Code == sdk.CodeURLElicitationRequired:
		return nil, ErrNotForwarded // CallTool shows the pages, then calls again (E25)
	case resp.Error != nil:
		// As the go-sdk's client wraps it, so that it reads the same.
		return nil, fmt.Errorf("calling %s on %s: %w", name, m.config(id, s.srv).Name, fmt.Errorf("calling %q: %w", "tools/call", resp.Error))
	case bytes.Contains(resp.Result, []byte(`"inputRequests"`)):
		// The server asks for input first (2026-07-28): the person answers
		// it in Gatehouse's window, the way CallTool goes.
		return nil, ErrNotForwarded
	case len(resp.Result) == 0 || resp.Result[0] != '{':
		return nil, fmt.Errorf("calling %s on %s: %w", name, m.config(id, s.srv).Name, i18n.Err("mcp.error.badResult"))
	}
	return resp.Result, nil
}

// forwardOn is the forwarder of one connection of a session, with the
// session that connection made.
type forwardOn struct {
	cs *sdk.ClientSession
	f  *forwarder
}
