package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Everything a server sends is read in bounded pieces (issue 22, item 2): a
// server that never ends a line, an event or a JSON body must not make
// Gatehouse hold what it sends. Before, the Streamable HTTP rewriting layer
// (rawSchemaBody) read each line whole, so a server sending a gigabyte
// without a newline grew the app by that much, and the go-sdk reads an
// application/json body with io.ReadAll.
//
// The bound is the go-sdk's own for the messages it reads itself
// (DefaultMaxEventSize for an event stream's event, DefaultMaxLineLength for
// a stdio line): MaxMessageSize for one message, whatever the transport. A
// connection whose server goes over it fails with ErrMessageTooLarge, which
// says so in the person's language, as the server's error.

// MaxMessageSize is the most Gatehouse reads of one message from a server:
// one line of a stdio server, one event of an event stream (its lines
// together), one HTTP response body that is not an event stream.
const MaxMessageSize = 16 << 20

// sdkMaxEventSize is the bound given to the go-sdk's own event reader: a
// little above MaxMessageSize, so that the wire guard, which is read first
// and says why, always meets an oversized event before the SDK does (the
// SDK's own error names no cause a person could act on).
const sdkMaxEventSize = MaxMessageSize + 64<<10

// ErrMessageTooLarge is why a connection ended when its server sent one
// message larger than MaxMessageSize.
var ErrMessageTooLarge = i18n.Err("mcp.status.tooLarge", "size", i18n.M("units.mb", "n", MaxMessageSize>>20))

// sdkFrameTooLarge is the text of the go-sdk's error for a stdio line over
// its DefaultMaxLineLength (the error itself is not exported).
const sdkFrameTooLarge = "exceeded the configured maximum line length"

// A wireGuard watches one connection attempt's reads: the first message
// over MaxMessageSize trips it, which ends the connection with
// ErrMessageTooLarge. A nil *wireGuard bounds the reads all the same and
// only ends nothing.
type wireGuard struct {
	ctx  context.Context // done when tripped, or when the connection ends
	trip context.CancelCauseFunc
}

// newWireGuard returns a guard for a connection that lives under parent.
func newWireGuard(parent context.Context) *wireGuard {
	ctx, trip := context.WithCancelCause(parent)
	return &wireGuard{ctx: ctx, trip: trip}
}

// tooLarge trips the guard and returns ErrMessageTooLarge.
func (g *wireGuard) tooLarge() error {
	if g != nil {
		g.trip(ErrMessageTooLarge)
	}
	return ErrMessageTooLarge
}

// tripped returns ErrMessageTooLarge when the guard tripped, else nil.
func (g *wireGuard) tripped() error {
	if g != nil && errors.Is(context.Cause(g.ctx), ErrMessageTooLarge) {
		return ErrMessageTooLarge
	}
	return nil
}

// done is closed when the guard tripped or its connection ended.
func (g *wireGuard) done() <-chan struct{} { return g.ctx.Done() }

// readErr returns the error of a read of the SDK's stdio connection, as
// ErrMessageTooLarge when the SDK refused a line over its bound.
func (g *wireGuard) readErr(err error) error {
	if err != nil && strings.Contains(err.Error(), sdkFrameTooLarge) {
		return errors.Join(g.tooLarge(), err)
	}
	return err
}

// body bounds an HTTP response body from a server: an event stream event by
// event (with rewrite, each line of it is also given to rewriteLine, see
// rawschema.go), anything else as one message. The SDK then never reads
// more than MaxMessageSize of one message from it.
func (g *wireGuard) body(resp *http.Response, rewrite bool) io.ReadCloser {
	contentType := resp.Header.Get("Content-Type")
	if strings.HasPrefix(contentType, "text/event-stream") {
		return boundedLines(resp.Body, g, rewrite)
	}
	body := io.ReadCloser(&limitedBody{body: resp.Body, left: MaxMessageSize, g: g})
	if rewrite && strings.HasPrefix(contentType, "application/json") {
		body = boundedLines(body, g, true)
	}
	return body
}

// limitedBody is a response body that fails, and trips its guard, once
// more than left bytes are read from it.
type limitedBody struct {
	body io.ReadCloser
	left int64
	g    *wireGuard
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, ErrMessageTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1] // one byte more tells a body of exactly left bytes from a longer one
	}
	n, err := b.body.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, b.g.tooLarge()
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.body.Close() }

// linesBatch is the size of boundedLines' read buffer and of the batches of
// short lines it passes on.
const linesBatch = 64 << 10

// errLineTooLarge is readLine's: the line does not fit the budget.
var errLineTooLarge = errors.New("line over budget")

// readLine reads one line, its '\n' included, holding at most budget bytes
// of it: a longer line is errLineTooLarge, and nothing of it is kept. A line
// that fits r's buffer is returned from it, valid until r's next read.
func readLine(r *bufio.Reader, budget int) ([]byte, error) {
	frag, err := r.ReadSlice('\n')
	if len(frag) > budget {
		return nil, errLineTooLarge
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return frag, err
	}
	line := append([]byte(nil), frag...)
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > budget {
			return nil, errLineTooLarge
		}
		line = append(line, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// lineWaiting reports whether r holds the whole of a next line already, so
// that reading it does not wait for the server.
func lineWaiting(r *bufio.Reader) bool {
	b, _ := r.Peek(r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// isBlankLine reports whether a line ends an event of an event stream.
func isBlankLine(line []byte) bool {
	return len(line) > 0 && len(bytes.TrimRight(line, "\r\n")) == 0
}

// boundedLines passes a body on line by line (rewritten with rewriteLine
// when rewrite is set), holding at most MaxMessageSize of it: the lines of
// one event of an event stream (up to its blank line) together may not go
// over it. A longer event (or a JSON body without an end) trips the guard,
// closes the body, and the reader gets ErrMessageTooLarge. Short lines are
// passed on together, up to linesBatch bytes, as long as the next whole line
// has already arrived, so that a server sending many tiny lines costs no
// hand-over each while a line is never held back waiting for the server.
func boundedLines(body io.ReadCloser, g *wireGuard, rewrite bool) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(body, linesBatch)
		out := make([]byte, 0, linesBatch)
		flush := func(more []byte) error {
			if len(out) > 0 {
				if _, err := pw.Write(out); err != nil {
					return err
				}
				out = out[:0]
			}
			if len(more) > 0 {
				_, err := pw.Write(more)
				return err
			}
			return nil
		}
		event := 0 // bytes of the event read so far
		for {
			line, err := readLine(r, MaxMessageSize-event)
			if errors.Is(err, errLineTooLarge) {
				body.Close()
				pw.CloseWithError(g.tooLarge())
				return
			}
			event += len(line)
			if isBlankLine(line) {
				event = 0
			}
			if rewrite && len(line) > 0 {
				line = rewriteLine(line)
			}
			var werr error
			switch {
			case len(out)+len(line) > linesBatch:
				werr = flush(line)
			case err != nil || !lineWaiting(r):
				out = append(out, line...)
				werr = flush(nil)
			default:
				out = append(out, line...)
			}
			if werr != nil {
				body.Close()
				return
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
