package cli

import (
	"bufio"
	"context"
	"io"
	"os"
	"sync"
)

// input is standard input, line by line, shared by the prompts and the wait
// for opened web pages ("press Enter when you are done"). One goroutine reads
// the stream; lines are handed out under a lock, so two readers never take
// the same line or read the stream at once. While a prompt is on screen only
// the prompt takes lines: what the person types answers what they see.
type input struct {
	mu     sync.Mutex
	lines  []string // read, not yet taken
	eof    bool
	prompt int           // prompts on screen
	wake   chan struct{} // closed and replaced whenever the above change
}

func newInput(r io.Reader) *input {
	in := &input{wake: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			in.change(func() { in.lines = append(in.lines, sc.Text()) })
		}
		in.change(func() { in.eof = true })
	}()
	return in
}

// change applies f under the lock and wakes every waiting reader.
func (in *input) change(f func()) {
	in.mu.Lock()
	defer in.mu.Unlock()
	f()
	close(in.wake)
	in.wake = make(chan struct{})
}

// prompting marks a prompt as on screen (true) or gone (false).
func (in *input) prompting(on bool) {
	in.change(func() {
		if on {
			in.prompt++
		} else {
			in.prompt--
		}
	})
}

// take returns the next line: at once for a prompt, and for anyone else only
// while no prompt is on screen. It returns io.EOF at the end of input and
// errWithdrawn when ctx ends first.
func (in *input) take(ctx context.Context, forPrompt bool) (string, error) {
	for {
		in.mu.Lock()
		if len(in.lines) > 0 && (forPrompt || in.prompt == 0) {
			line := in.lines[0]
			in.lines = in.lines[1:]
			in.mu.Unlock()
			return line, nil
		}
		if in.eof && len(in.lines) == 0 {
			in.mu.Unlock()
			return "", io.EOF
		}
		wake := in.wake
		in.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return "", errWithdrawn
		}
	}
}

// termOut is where the answerer writes. Several goroutines write (the
// prompt, the broker's notices, the wait for web pages), so each write is
// whole; after close nothing more is written, so nothing reaches the
// terminal (or a test's buffer) once the command is over.
type termOut struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (o *termOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return len(p), nil
	}
	return o.w.Write(p)
}

// shared returns a writer for the command's own messages (errors, result
// warnings): writes take turns with the answerer's and go on after close.
func (o *termOut) shared() io.Writer { return sharedOut{o} }

type sharedOut struct{ o *termOut }

func (s sharedOut) Write(p []byte) (int, error) {
	s.o.mu.Lock()
	defer s.o.mu.Unlock()
	return s.o.w.Write(p)
}

func (o *termOut) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
}

// isTerminal reports whether w is a terminal that understands ANSI styles.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
