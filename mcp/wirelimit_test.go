package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// repeated is an endless reader of one byte.
type repeated byte

func (r repeated) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// text is n bytes of 'a'.
func text(n int) io.Reader { return io.LimitReader(repeated('a'), int64(n)) }

func readers(rs ...any) io.ReadCloser {
	var all []io.Reader
	for _, r := range rs {
		switch r := r.(type) {
		case string:
			all = append(all, strings.NewReader(r))
		case io.Reader:
			all = append(all, r)
		}
	}
	return io.NopCloser(io.MultiReader(all...))
}

// TestWireGuard_BoundsEveryBody: what a server sends is passed on as long as
// one message stays within MaxMessageSize, and refused (tripping the guard)
// as soon as one goes over, whatever shape the excess takes.
func TestWireGuard_BoundsEveryBody(t *testing.T) {
	const eventHead = "event: message\ndata: "
	for _, tc := range []struct {
		name        string
		contentType string
		body        func() io.ReadCloser
		wantLen     int64 // bytes passed on when it passes
		tooLarge    bool
	}{
		{"an event whose one line never ends is refused", "text/event-stream",
			func() io.ReadCloser { return readers(eventHead, repeated('a')) }, 0, true},
		{"an event of many short data lines, over the bound together, is refused", "text/event-stream",
			func() io.ReadCloser { return readers(io.LimitReader(repeatedLine("data: x"), MaxMessageSize+1)) }, 0, true},
		{"many events, each within the bound, pass however much they add up to", "text/event-stream",
			func() io.ReadCloser {
				event := func() io.Reader { return readers(eventHead, text(MaxMessageSize/2), "\n\n") }
				return readers(event(), event(), event(), event())
			}, 4 * int64(len(eventHead)+MaxMessageSize/2+2), false},
		{"an event of exactly the bound passes", "text/event-stream",
			func() io.ReadCloser { return readers(eventHead, text(MaxMessageSize-len(eventHead)-1), "\n") }, MaxMessageSize, false},
		{"a JSON body without end is refused", "application/json",
			func() io.ReadCloser { return readers(`{"jsonrpc":"2.0","id":1,"result":{"x":"`, repeated('a')) }, 0, true},
		{"a JSON body of many lines, over the bound together, is refused", "application/json",
			func() io.ReadCloser { return readers(io.LimitReader(repeatedLine(" "), MaxMessageSize+1)) }, 0, true},
		{"a JSON body of exactly the bound passes", "application/json",
			func() io.ReadCloser { return readers(text(MaxMessageSize)) }, MaxMessageSize, false},
		{"an error page without end is refused", "text/html",
			func() io.ReadCloser { return readers(repeated('<')) }, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newWireGuard(context.Background())
			resp := &http.Response{Header: http.Header{"Content-Type": {tc.contentType}}, Body: tc.body()}
			body := g.body(resp, true)
			n, err := io.Copy(io.Discard, body)
			body.Close()
			if tc.tooLarge {
				if !errors.Is(err, ErrMessageTooLarge) || !errors.Is(g.tripped(), ErrMessageTooLarge) {
					t.Fatalf("read %d bytes, err %v, guard %v; want ErrMessageTooLarge from both", n, err, g.tripped())
				}
				if n > MaxMessageSize {
					t.Errorf("passed on %d bytes, more than the bound", n)
				}
				return
			}
			if err != nil || g.tripped() != nil || n != tc.wantLen {
				t.Errorf("read %d bytes, err %v, guard %v; want %d bytes, no error", n, err, g.tripped(), tc.wantLen)
			}
		})
	}
}

// repeatedLine is an endless reader of one line (a newline is added).
func repeatedLine(line string) io.Reader {
	return &lineRepeater{line: line + "\n"}
}

type lineRepeater struct {
	line string
	at   int
}

func (r *lineRepeater) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.line[r.at]
		r.at = (r.at + 1) % len(r.line)
	}
	return len(p), nil
}

// TestWireGuard_NilBoundsToo: the command line's own connection has no
// guard; its reads are bounded all the same.
func TestWireGuard_NilBoundsToo(t *testing.T) {
	var g *wireGuard
	resp := &http.Response{Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: readers("data: ", repeated('a'))}
	body := g.body(resp, true)
	defer body.Close()
	if _, err := io.Copy(io.Discard, body); !errors.Is(err, ErrMessageTooLarge) {
		t.Errorf("err = %v, want ErrMessageTooLarge", err)
	}
	if g.tripped() != nil {
		t.Error("a nil guard says it tripped")
	}
}

// TestBoundedLines_PassesAnEventWithoutWaitingForTheNext: lines are passed
// on together only while more have arrived; an event is never held back
// until the server sends the rest of the next one.
func TestBoundedLines_PassesAnEventWithoutWaitingForTheNext(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	body := boundedLines(pr, nil, true)
	defer body.Close()
	go func() { _, _ = pw.Write([]byte("id: 1\ndata: {}\n\ndata: {\"jsonrpc\"")) }()
	got := make(chan string, 1)
	go func() {
		want := "id: 1\ndata: {}\n\n"
		buf := make([]byte, len(want))
		_, err := io.ReadFull(body, buf)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- string(buf)
	}()
	select {
	case s := <-got:
		if s != "id: 1\ndata: {}\n\n" {
			t.Errorf("read %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the first event was held back until the next one ends")
	}
}
