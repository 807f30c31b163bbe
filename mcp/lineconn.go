package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// A lineConn is Gatehouse's own connection for newline-delimited JSON-RPC
// (a stdio server's pipes, the command line's socket to the app), in place
// of the go-sdk's ioConn. The SDK's reader decodes every incoming message
// four times (a stream decoder, an attempt as a batch, the envelope, the
// method), each with a new decoder and a 32 KB buffer, which made most of
// the garbage of an elicitation round trip (issue 15, P2). This one reads
// each line once into a reused buffer, walks the envelope itself and carries
// the form schemas (rawschema.go) on the same bytes.
//
// It accepts and refuses what jsonrpc.DecodeMessage does (FuzzDecodeMessage
// compares the two), with these deliberate differences:
//   - A message is one line, as the MCP stdio transport requires ("MUST NOT
//     contain embedded newlines"); the SDK's stream decoder would also join
//     a JSON value written over several lines.
//   - A line may end in spaces or tabs; the SDK refuses those.
//   - A batch (a JSON array) is refused with its own error (the SDK's
//     client reads its elements one by one). MCP removed batching in
//     2025-06-18; the TypeScript SDK (1.32, testdata/peers) neither sends
//     nor accepts one, and the go-sdk's own server answers in a batch only
//     a batch it received, which no client sends.
type lineConn struct {
	w        io.Writer
	stop     func() error // closes the writing side and what is behind it
	incoming chan lineMsg
	closed   chan struct{}

	writeMu sync.Mutex
	// refused is the line the peer sent that ended the reading, if one did
	// (the SDK passes on only the text of a read error).
	refused atomic.Pointer[wireError]

	closeOnce sync.Once
	closeErr  error
}

type lineMsg struct {
	msg jsonrpc.Message
	err error
}

// LineTransport is a newline-delimited JSON-RPC transport over conn (the
// command line's socket to the running app) whose elicitations carry their
// requestedSchema in _meta[RawSchemaMeta], as the manager's own connections
// do (see RemoteQuestion). Closing the connection closes conn.
func LineTransport(conn io.ReadWriteCloser) sdk.Transport { return lineTransport{conn} }

type lineTransport struct{ conn io.ReadWriteCloser }

func (t lineTransport) Connect(context.Context) (sdk.Connection, error) {
	return newLineConn(t.conn, t.conn, t.conn.Close), nil
}

// maxLineLength bounds one incoming message, as the SDK's
// DefaultMaxLineLength bounds its frames.
const maxLineLength = sdk.DefaultMaxLineLength

// maxDepth bounds the nesting of a message, as the SDK's decoder does.
const maxDepth = 1000

// A wireError is a line from the peer that lineConn refuses, which ends the
// connection. Its message is the reason a person is shown (Describe), and
// it is preferred to the exit status of a server that was stopped for it.
type wireError struct{ msg i18n.Message }

func (e *wireError) Error() string { return e.msg.String() }

func wireErr(msg i18n.Message) error { return &wireError{msg} }

// errBatch is the error for a JSON-RPC batch (see lineConn).
var errBatch = wireErr(i18n.M("mcp.wire.batch"))

// errLineTooLong is the error for a line over maxLineLength.
var errLineTooLong = wireErr(i18n.M("mcp.wire.tooLong", "mib", maxLineLength>>20))

// notMessage is the error for a line that is JSON but not a JSON-RPC 2.0
// message; what is wrong shows in the line, quoted up to 200 bytes.
func notMessage(line []byte) error {
	return wireErr(i18n.M("mcp.wire.notMessage", "line", quoteStart(line)))
}

func quoteStart(line []byte) string { return fmt.Sprintf("%.200q", line) }

// newLineConn reads messages from r on its own goroutine and writes them to
// w. Close calls stop (once; every Close returns what it did) and then ends
// Read with io.EOF, whether or not r's reading returned.
func newLineConn(r io.Reader, w io.Writer, stop func() error) *lineConn {
	c := &lineConn{w: w, stop: stop, incoming: make(chan lineMsg), closed: make(chan struct{})}
	go c.readLines(r)
	return c
}

// readLines decodes each line of r and hands it to Read, until the first
// error (io.EOF when r ends), which it hands on too.
func (c *lineConn) readLines(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than br's buffer is gathered here
	for {
		line, err := readLine(br, &long)
		var msg jsonrpc.Message
		if err == nil {
			trimmed := bytes.TrimRight(line, "\r\n")
			if len(bytes.TrimLeft(trimmed, " \t\r")) == 0 {
				continue // an empty line
			}
			// The message's params and result point into this copy, so
			// the reused buffer can be read into again.
			msg, err = decodeMessage(bytes.Clone(trimmed))
			if err == nil {
				carryOnRead(msg)
			}
		}
		if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed)) {
			// The peer closed its end, or the process ended and its pipe
			// was closed by Wait.
			err = io.EOF
		}
		if wire, ok := err.(*wireError); ok {
			c.refused.Store(wire)
		}
		select {
		case c.incoming <- lineMsg{msg, err}:
		case <-c.closed:
			return
		}
		if err != nil {
			return
		}
	}
}

// readLine returns the next line of br with its newline, valid until the
// next call; at the end of the input the last line may have none and the
// error is io.EOF. A line longer than maxLineLength is errLineTooLong.
func readLine(br *bufio.Reader, long *[]byte) ([]byte, error) {
	frag, err := br.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		if errors.Is(err, io.EOF) && len(frag) > 0 {
			return frag, nil // the last line; the next call returns io.EOF
		}
		return frag, err
	}
	buf := append((*long)[:0], frag...)
	for errors.Is(err, bufio.ErrBufferFull) {
		frag, err = br.ReadSlice('\n')
		if len(buf)+len(frag) > maxLineLength {
			return nil, errLineTooLong
		}
		buf = append(buf, frag...)
	}
	if cap(buf) <= 1<<20 {
		*long = buf // keep a modest buffer for the next long line, not a huge one
	}
	if errors.Is(err, io.EOF) && len(buf) > 0 {
		err = nil
	}
	return buf, err
}

// carryOnRead applies the host's rewriting of incoming messages
// (rawschema.go, tasks.go) to a freshly decoded message.
func carryOnRead(msg jsonrpc.Message) {
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
			m.Result = carryTaskSupport(m.Result)
		}
	}
}

// Read returns the next message, io.EOF once the peer has closed or the
// connection is closed, or the error that ended the reading.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-c.incoming:
		return m.msg, m.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write sends one message as a line.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.w.Write(data)
	return err
}

// Close stops the connection once (for a stdio server: closes its input
// and waits for the process, see stdioProcess.stop) and returns the first
// Close's result every time. A concurrent Close waits for the first.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = c.stop()
		close(c.closed)
	})
	return c.closeErr
}

// refusedLine returns why the connection stopped reading the peer's lines,
// when it was one of them (nil otherwise).
func (c *lineConn) refusedLine() error {
	if wire := c.refused.Load(); wire != nil {
		return wire
	}
	return nil
}

// SessionID is empty: a line connection has no session of its own.
func (c *lineConn) SessionID() string { return "" }

// decodeMessage decodes one JSON-RPC message (a line without its newline)
// as jsonrpc.DecodeMessage does: member names are matched exactly, the last
// of a repeated member wins, "jsonrpc" must be "2.0", a message with a
// "method" member is a request and one without is a response, which needs
// an id. The params, result and error data of the message point into line.
func decodeMessage(line []byte) (jsonrpc.Message, error) {
	if !json.Valid(line) {
		return nil, wireErr(i18n.M("mcp.wire.notJSON", "line", quoteStart(line)))
	}
	if depthOver(line, maxDepth) {
		return nil, wireErr(i18n.M("mcp.wire.tooDeep", "depth", maxDepth))
	}
	switch line[skipSpace(line, 0)] {
	case '[':
		return nil, errBatch
	case '{':
	default:
		return nil, notMessage(line)
	}
	var (
		version, id, method, params, result []byte
		errObj                              *jsonrpc.Error
	)
	err := eachMember(line, func(name, value []byte) error {
		switch string(name) {
		case "jsonrpc":
			version = value
		case "id":
			id = value
		case "method":
			method = value
		case "params":
			params = value
		case "result":
			result = value
		case "error":
			var err error
			errObj, err = decodeWireError(errObj, value)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, notMessage(line)
	}
	if v, err := stringValue(version); err != nil || v != "2.0" {
		return nil, notMessage(line)
	}
	msgID, err := decodeID(id)
	if err != nil {
		return nil, notMessage(line)
	}
	if method != nil {
		name, err := stringValue(method)
		if err != nil {
			return nil, notMessage(line)
		}
		return &jsonrpc.Request{ID: msgID, Method: name, Params: params}, nil
	}
	if !msgID.IsValid() {
		return nil, notMessage(line) // a response needs an id
	}
	resp := &jsonrpc.Response{ID: msgID, Result: result}
	if errObj != nil {
		resp.Error = errObj
	}
	return resp, nil
}

// decodeID reads a request id: absent or null (none), a string, or a
// number, which the SDK keeps as the integer part of its float64.
func decodeID(v []byte) (jsonrpc.ID, error) {
	if v == nil || isNull(v) {
		return jsonrpc.MakeID(nil)
	}
	switch v[0] {
	case '"':
		s, err := stringValue(v)
		if err != nil {
			return jsonrpc.ID{}, err
		}
		return jsonrpc.MakeID(s)
	case '{', '[', 't', 'f':
		return jsonrpc.ID{}, fmt.Errorf("the peer sent an id that is neither a number nor a string: %.100s", v)
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return jsonrpc.ID{}, fmt.Errorf("the peer sent an id out of range: %.100s", v)
	}
	return jsonrpc.MakeID(f)
}

// decodeWireError decodes an error member into into (a repeated member
// fills in the same error, as the SDK's decoder does; null removes it).
func decodeWireError(into *jsonrpc.Error, v []byte) (*jsonrpc.Error, error) {
	if isNull(v) {
		return nil, nil
	}
	if v[0] != '{' {
		return nil, fmt.Errorf("the peer sent an error that is not an object: %.100s", v)
	}
	if into == nil {
		into = &jsonrpc.Error{}
	}
	err := eachMember(v, func(name, value []byte) error {
		switch string(name) {
		case "code":
			if isNull(value) {
				return nil
			}
			code, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil {
				return fmt.Errorf("the peer sent an error code that is not an integer: %.100s", value)
			}
			into.Code = code
		case "message":
			if isNull(value) {
				return nil
			}
			s, err := stringValue(value)
			if err != nil {
				return fmt.Errorf("the peer sent an error message that is not a string: %.100s", value)
			}
			into.Message = s
		case "data":
			into.Data = value
		}
		return nil
	})
	return into, err
}

// eachMember calls f with the name and the value of each member of the
// JSON object that b is (b must be valid JSON: decodeMessage checks). A
// name written with escapes is unescaped; a value is its bytes in b.
func eachMember(b []byte, f func(name, value []byte) error) error {
	i := skipSpace(b, skipSpace(b, 0)+1)
	for i < len(b) && b[i] != '}' {
		keyEnd := stringEnd(b, i)
		name := b[i+1 : keyEnd-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			var s string
			if err := json.Unmarshal(b[i:keyEnd], &s); err != nil {
				return err
			}
			name = []byte(s)
		}
		i = skipSpace(b, skipSpace(b, keyEnd)+1) // past the colon
		end := valueEnd(b, i)
		if err := f(name, b[i:end]); err != nil {
			return err
		}
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return nil
}

// stringValue returns the text of a JSON string value, "" for null, and an
// error for any other value.
func stringValue(v []byte) (string, error) {
	if v == nil || isNull(v) {
		return "", nil
	}
	if v[0] != '"' {
		return "", fmt.Errorf("not a string: %.50s", v)
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), nil
	}
	var s string
	err := json.Unmarshal(v, &s)
	return s, err
}

func isNull(v []byte) bool { return string(v) == "null" }

// depthOver reports whether the brackets of valid JSON b nest deeper than
// max.
func depthOver(b []byte, max int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i) - 1
		case '{', '[':
			if depth++; depth > max {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}
