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
	pending map[string]chan forwardedResponse
	ended   error // the connection's reading ended: every call fails
	// meta is the per-request _meta the SDK puts on its own requests when
	// the server speaks 2026-07-28 (protocol version, client info and
	// capabilities), learned from them (learn); nil until then.
	meta json.RawMessage
}

// forwardedResponse is a server's response to a forwarded request.
type forwardedResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
}

func newForwarder() *forwarder {
	return &forwarder{pending: map[string]chan forwardedResponse{}}
}

// take is the lineio.Tap's taker: it takes a response to a forwarded
// request, handing it to the call waiting (one answering a call given up
// is dropped); every other line goes on to the SDK.
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
	f.mu.Lock()
	ch := f.pending[id]
	delete(f.pending, id)
	f.mu.Unlock()
	if ch != nil {
		ch <- msg.forwardedResponse // buffered: one response per request
	}
	return true
}

// end fails every forwarded call waiting, and every later one: the
// connection's reading ended with err.
func (f *forwarder) end(err error) {
	if f == nil || err == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ended == nil {
		f.ended = err
	}
	for id, ch := range f.pending {
		close(ch)
		delete(f.pending, id)
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

// callTool calls the tool name (its name as JSON) with arguments (a JSON
// object) and waits for the response, or for ctx: then the server is told
// the request is cancelled. newProtocol says the server speaks 2026-07-28,
// whose requests carry the SDK's _meta: without it learned yet,
// ErrNotForwarded.
func (f *forwarder) callTool(ctx context.Context, name, arguments []byte, newProtocol bool) (forwardedResponse, error) {
	f.mu.Lock()
	if f.ended != nil {
		ended := f.ended
		f.mu.Unlock()
		return forwardedResponse{}, fmt.Errorf("%w: %w", ErrNotConnected, ended)
	}
	meta := f.meta
	if f.w == nil || newProtocol && meta == nil {
		f.mu.Unlock()
		return forwardedResponse{}, ErrNotForwarded
	}
	id := forwardPrefix + strconv.FormatInt(forwardIDs.Add(1), 10)
	ch := make(chan forwardedResponse, 1)
	f.pending[id] = ch
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
	if _, err := f.w.Write(line); err != nil {
		f.forget(id)
		return forwardedResponse{}, fmt.Errorf("%w: %w", ErrNotConnected, err)
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return forwardedResponse{}, ErrNotConnected
		}
		return resp, nil
	case <-ctx.Done():
		f.forget(id)
		note, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
			"params": sdk.CancelledParams{RequestID: id, Reason: context.Cause(ctx).Error()}})
		_, _ = f.w.Write(append(note, '\n'))
		return forwardedResponse{}, ctx.Err()
	}
}

// forget drops a request no one waits for any more.
func (f *forwarder) forget(id string) {
	f.mu.Lock()
	delete(f.pending, id)
	f.mu.Unlock()
}

// ForwardToolCall calls the tool name on server id with arguments (a JSON
// object, as the other app sent it) and returns the server's result as it
// sent it, undecoded (the gateway passes it on). It returns ErrNotForwarded
// when the call must be made with CallTool instead (see there), a
// *jsonrpc.Error (wrapped, as CallTool's) when the server refused the call,
// and ErrNotConnected when the connection ended first. No progress is
// asked for.
func (m *Manager) ForwardToolCall(ctx context.Context, id, name string, arguments json.RawMessage) (json.RawMessage, error) {
	s, cs, err := m.liveSession(ctx, id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	fwd := s.forward
	s.mu.Unlock()
	if fwd.cs != cs || fwd.f == nil || s.needsTask(name) {
		return nil, ErrNotForwarded
	}
	args := bytes.TrimSpace(arguments)
	if len(args) == 0 || args[0] != '{' || !json.Valid(args) {
		return nil, ErrNotForwarded // CallTool sends an object, and says why not
	}
	quoted, err := json.Marshal(name)
	if err != nil {
		return nil, ErrNotForwarded
	}
	newProtocol := false
	if ir := cs.InitializeResult(); ir != nil {
		newProtocol = ir.ProtocolVersion >= "2026-07-28"
	}
	resp, err := fwd.f.callTool(ctx, quoted, args, newProtocol)
	if err != nil {
		return nil, err
	}
	if resp.Error != nil {
		if resp.Error.Code == sdk.CodeURLElicitationRequired {
			return nil, ErrNotForwarded // CallTool shows the pages, then calls again (E25)
		}
		// As the go-sdk's client wraps it, so that it reads the same.
		return nil, fmt.Errorf("calling %s on %s: %w", name, m.config(id, s.srv).Name, fmt.Errorf("calling %q: %w", "tools/call", resp.Error))
	}
	if bytes.Contains(resp.Result, []byte(`"inputRequests"`)) {
		// The server asks for input first (2026-07-28): the person answers
		// it in Gatehouse's window, the way CallTool goes.
		return nil, ErrNotForwarded
	}
	if len(resp.Result) == 0 || resp.Result[0] != '{' {
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
