package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// FieldOrderMeta is the _meta key under which the host records the order of
// a form's fields as the server wrote them. The SDK decodes requestedSchema
// into a Go map, which forgets that order; people expect the form to read in
// the order the server designed.
const FieldOrderMeta = "gatehouse.dev/fieldOrder"

const methodElicit = "elicitation/create"

// withFieldOrder returns elicitation params with FieldOrderMeta set from the
// raw requestedSchema, or the params unchanged when there is nothing to add.
func withFieldOrder(params json.RawMessage) json.RawMessage {
	var fields struct {
		Schema json.RawMessage `json:"requestedSchema"`
		Meta   json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(params, &fields); err != nil || fields.Schema == nil {
		return params
	}
	order := PropertyOrder(fields.Schema)
	if len(order) == 0 {
		return params
	}
	if trimmed := bytes.TrimSpace(params); fields.Meta == nil && len(trimmed) > 1 && trimmed[0] == '{' {
		// Without a _meta yet, add one as the first member and leave the
		// rest of the bytes as they are: no second encoding on every request
		// (issue 6, P1).
		orderJSON, _ := json.Marshal(order)
		out := make([]byte, 0, len(trimmed)+len(orderJSON)+len(FieldOrderMeta)+16)
		out = append(out, `{"_meta":{"`...)
		out = append(out, FieldOrderMeta...)
		out = append(out, `":`...)
		out = append(out, orderJSON...)
		out = append(out, '}')
		if rest := bytes.TrimSpace(trimmed[1:]); len(rest) > 0 && rest[0] != '}' {
			out = append(out, ',')
		}
		return append(out, trimmed[1:]...)
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return params
	}
	meta := map[string]json.RawMessage{}
	if raw := p["_meta"]; raw != nil {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return params
		}
	}
	meta[FieldOrderMeta], _ = json.Marshal(order)
	p["_meta"], _ = json.Marshal(meta)
	out, err := json.Marshal(p)
	if err != nil {
		return params
	}
	return out
}

// withInputRequestOrder applies withFieldOrder to every elicitation among a
// result's input requests (multi round-trip, 2026-07-28), which carry
// elicitation params inside a tools/call, prompts/get or resources/read result.
func withInputRequestOrder(result json.RawMessage) json.RawMessage {
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
		if json.Unmarshal(ir["method"], &method) == nil && method == methodElicit && ir["params"] != nil {
			ir["params"] = withFieldOrder(ir["params"])
		}
	}
	var err error
	if r["inputRequests"], err = json.Marshal(reqs); err != nil {
		return result
	}
	out, err := json.Marshal(r)
	if err != nil {
		return result
	}
	return out
}

// fieldOrderOf reads FieldOrderMeta back from a request's _meta.
func fieldOrderOf(meta sdk.Meta) []string {
	list, _ := meta[FieldOrderMeta].([]any)
	var order []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			order = append(order, s)
		}
	}
	return order
}

// fieldOrderTransport wraps a transport whose connections carry no optional
// SDK interfaces (stdio and legacy SSE) and records field order on every
// elicitation request read from it.
type fieldOrderTransport struct{ sdk.Transport }

func (t fieldOrderTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return fieldOrderConn{c}, nil
}

type fieldOrderConn struct{ sdk.Connection }

func (c fieldOrderConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.Method == methodElicit {
			m.Params = withFieldOrder(m.Params)
		}
	case *jsonrpc.Response:
		if m.Result != nil && bytes.Contains(m.Result, []byte(methodElicit)) {
			m.Result = withInputRequestOrder(m.Result)
		}
	}
	return msg, err
}

// fieldOrderBody rewrites, line by line, the JSON-RPC messages in a
// Streamable HTTP response body (a JSON document or an event stream's
// "data:" lines), for the same purpose. Its connection cannot be wrapped
// without losing the SDK's session state handling.
func fieldOrderBody(body io.ReadCloser) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(body, 64*1024)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				if _, werr := pw.Write(rewriteLine(line)); werr != nil {
					body.Close()
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return struct {
		io.Reader
		io.Closer
	}{pr, closerFunc(func() error { pr.Close(); return body.Close() })}
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// rewriteLine adds field order to the elicitations found on one line: an
// elicitation/create request, or a result's input requests.
func rewriteLine(line []byte) []byte {
	if !bytes.Contains(line, []byte(methodElicit)) {
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
		msg["params"] = withFieldOrder(msg["params"])
	case msg["result"] != nil:
		msg["result"] = withInputRequestOrder(msg["result"])
	default:
		return line
	}
	out, err := json.Marshal(msg)
	if err != nil {
		return line
	}
	return []byte(prefix + string(out) + string(suffix))
}

// isMessageBody reports whether an HTTP response carries JSON-RPC messages.
func isMessageBody(contentType string) bool {
	return strings.HasPrefix(contentType, "text/event-stream") || strings.HasPrefix(contentType, "application/json")
}
