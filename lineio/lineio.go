// Package lineio reads and writes newline-delimited JSON-RPC streams (a
// stdio server's pipes, another app's standard input and output) beside
// the go-sdk's own reading and writing of them. A Tap hands the lines its
// taker wants to it, whole, and passes every other byte on unchanged, so
// the SDK reads what it reads at its own pace (a flooding peer still waits
// for it); a Writer writes each message whole, whoever writes it. The
// gateway forwards the calls another app makes this way, without the
// SDK's decoding of them (issue 25, P11).
package lineio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"
)

// bufferSize is the Tap's read buffer: most messages fit in it whole.
const bufferSize = 64 << 10

// keepAtMost is the most a Tap keeps of its line buffer between lines: a
// rare large message does not hold its memory for the life of the stream.
const keepAtMost = 1 << 20

// A Tap reads a newline-delimited stream for one reader (the SDK's),
// offering each complete line of at most max bytes to take first: a line
// take returns true for is the taker's, and the reader never sees it.
// take must not keep the line it is given (copy what it keeps); it runs on
// the reader's goroutine, between its reads. A Tap is used by one reader
// at a time.
type Tap struct {
	r    *bufio.Reader
	c    io.Closer // nil: Close leaves the stream open
	take func(line []byte) bool
	max  int

	line []byte // the line read last
	rest []byte // what of it the reader has not read yet
	long bool   // passing on a line longer than max, as it comes
	err  error  // the stream's end, once rest is read
}

// NewTap returns a Tap reading r. Its Close closes r when r is an
// io.Closer.
func NewTap(r io.Reader, max int, take func(line []byte) bool) *Tap {
	c, _ := r.(io.Closer)
	return &Tap{r: bufio.NewReaderSize(r, bufferSize), c: c, take: take, max: max}
}

// Read reads the bytes of the stream that take did not take.
func (t *Tap) Read(p []byte) (int, error) {
	for len(t.rest) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		t.next()
	}
	n := copy(p, t.rest)
	t.rest = t.rest[n:]
	return n, nil
}

// Close closes the stream it reads, when NewTap was given a closer.
func (t *Tap) Close() error {
	if t.c == nil {
		return nil
	}
	return t.c.Close()
}

// next reads the next line (offering it to take), or the next part of a
// line too long to offer.
func (t *Tap) next() {
	if t.long {
		chunk, err := t.r.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			t.long, t.err = false, err
		}
		t.rest = chunk // valid until the next read, which waits for rest to be read
		return
	}
	if cap(t.line) > keepAtMost {
		t.line = nil
	}
	t.line = t.line[:0]
	for {
		chunk, err := t.r.ReadSlice('\n')
		t.line = append(t.line, chunk...)
		if err == bufio.ErrBufferFull {
			if len(t.line) >= t.max {
				t.long, t.rest = true, t.line // the reader bounds it
				return
			}
			continue
		}
		if err != nil {
			t.err, t.rest = err, t.line // a last line without its newline is the reader's
			return
		}
		break
	}
	if len(t.line) <= t.max+1 && t.take(t.line) {
		return
	}
	t.rest = t.line
}

// A Writer writes each message to a stream whole: one Write is one
// message (the SDK writes each message with one Write), never interleaved
// with another writer's.
type Writer struct {
	mu sync.Mutex
	w  io.WriteCloser
	// raw is w's descriptor when it is a non-blocking one (a pipe or socket
	// Go polls): WriteSoon writes to it without waiting.
	raw syscall.RawConn
	// wait, above 0, is the longest a message may wait for the reader
	// (NewBoundedWriter), with deadline the stream's write deadline.
	wait     time.Duration
	deadline interface{ SetWriteDeadline(time.Time) error }
}

// ErrNotReading is the error of a write to a bounded Writer whose reader
// did not take a message in time (NewBoundedWriter).
var ErrNotReading = errors.New("the other side stopped reading")

// NewWriter returns a Writer writing to w; its Close closes w.
func NewWriter(w io.WriteCloser) *Writer {
	lw := &Writer{w: w}
	if sc, ok := w.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil && nonBlocking(raw) {
			lw.raw = raw
		}
	}
	return lw
}

// NewBoundedWriter is NewWriter for a reader that may stop reading (another
// app): a message it does not take within wait ends the stream (w is
// closed), so that the messages waiting behind it, and whatever waits to
// write them, do not pile up for as long as it stays connected; that write
// fails with ErrNotReading, and each one after it. Without a write
// deadline on w (a socket, a pipe Go polls) there is no bound.
func NewBoundedWriter(w io.WriteCloser, wait time.Duration) *Writer {
	lw := NewWriter(w)
	if d, ok := w.(interface{ SetWriteDeadline(time.Time) error }); ok && wait > 0 {
		lw.wait, lw.deadline = wait, d
	}
	return lw
}

// Write writes p whole, after any Write begun before it.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeLocked(p)
}

// writeLocked writes p whole, within the wait of a bounded Writer; w.mu is
// held.
func (w *Writer) writeLocked(p []byte) (int, error) {
	if w.deadline == nil {
		return w.w.Write(p)
	}
	if err := w.deadline.SetWriteDeadline(time.Now().Add(w.wait)); err != nil {
		return w.w.Write(p) // a file Go does not poll: no deadline (os.ErrNoDeadline)
	}
	n, err := w.w.Write(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		_ = w.w.Close()
		return n, fmt.Errorf("%w: a message waited %s for it", ErrNotReading, w.wait)
	}
	return n, err
}

// WriteSoon writes p whole, as Write does, but never waits: when the
// stream is being written or cannot take all of p at once (a reader that
// does not read), a goroutine of its own writes what is left, in turn.
// It is for the goroutine that reads another stream, which must not stop
// for this one. A write that fails calls failed (when not nil) with its
// error, on that goroutine; the next Write sees it too.
func (w *Writer) WriteSoon(p []byte, failed func(error)) {
	later := func(write func() (int, error)) {
		if _, err := write(); err != nil && failed != nil {
			failed(err)
		}
	}
	if w.raw == nil || !w.mu.TryLock() {
		go later(func() (int, error) { return w.Write(p) })
		return
	}
	n := w.writeNow(p)
	if n == len(p) {
		w.mu.Unlock()
		return
	}
	go later(func() (int, error) {
		defer w.mu.Unlock() // held from here: the rest follows what was written
		return w.writeLocked(p[n:])
	})
}

// writeNow writes what of p the descriptor takes at once, and says how
// much.
func (w *Writer) writeNow(p []byte) int {
	n := 0
	_ = w.raw.Write(func(fd uintptr) bool {
		for n < len(p) {
			m, err := syscall.Write(int(fd), p[n:])
			if err == syscall.EINTR {
				continue
			}
			if err != nil || m <= 0 {
				break // full (EAGAIN) or broken: Write sees which
			}
			n += m
		}
		return true // never the poller's wait
	})
	return n
}

// nonBlocking reports whether raw's descriptor is in non-blocking mode.
func nonBlocking(raw syscall.RawConn) bool {
	var flags uintptr
	var errno syscall.Errno
	if err := raw.Control(func(fd uintptr) {
		flags, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	}); err != nil || errno != 0 {
		return false
	}
	return flags&syscall.O_NONBLOCK != 0
}

// Close closes the stream (without waiting for a Write blocked on it).
func (w *Writer) Close() error { return w.w.Close() }
