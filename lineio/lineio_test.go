package lineio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestTap: the lines the taker takes are its own, whole and in order; the
// reader reads every other byte unchanged, also a line too long to offer
// and a last line without its newline.
func TestTap(t *testing.T) {
	long := `{"take":"` + strings.Repeat("x", 200) + `"}` + "\n"
	for _, tc := range []struct {
		name, in   string
		max        int
		taken, out string
	}{
		{"none taken", "{\"a\":1}\n{\"b\":2}\n", 64, "", "{\"a\":1}\n{\"b\":2}\n"},
		{"taken between others", "{\"a\":1}\n{\"take\":1}\n{\"b\":2}\n", 64, "{\"take\":1}\n", "{\"a\":1}\n{\"b\":2}\n"},
		{"every line taken", "{\"take\":1}\n{\"take\":2}\n", 64, "{\"take\":1}\n{\"take\":2}\n", ""},
		{"CRLF and blank lines pass", "{\"a\":1}\r\n\n{\"take\":1}\r\n", 64, "{\"take\":1}\r\n", "{\"a\":1}\r\n\n"},
		{"a line longer than max is not offered", long + "{\"take\":2}\n", 64, "{\"take\":2}\n", long},
		{"a last line without newline is the reader's", "{\"take\":1}\n{\"take\":2}", 64, "{\"take\":1}\n", "{\"take\":2}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var taken strings.Builder
			tap := NewTap(io.NopCloser(strings.NewReader(tc.in)), tc.max, func(line []byte) bool {
				if strings.Contains(string(line), "take") {
					taken.Write(line)
					return true
				}
				return false
			})
			out, err := io.ReadAll(iotestOneByte{tap})
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.out || taken.String() != tc.taken {
				t.Errorf("read %q, taken %q; want %q, %q", out, taken.String(), tc.out, tc.taken)
			}
		})
	}
}

// iotestOneByte reads at most 7 bytes at a time, as a reader with a small
// buffer would: the Tap must hand over a line in parts.
type iotestOneByte struct{ r io.Reader }

func (r iotestOneByte) Read(p []byte) (int, error) {
	if len(p) > 7 {
		p = p[:7]
	}
	return r.r.Read(p)
}

// TestTap_WaitsNotForMoreThanMax: a peer that sends more than max bytes
// without a newline and then waits gets them read (the reader, which
// bounds a message, sees them and can refuse it) instead of the Tap
// waiting for the rest of the line.
func TestTap_WaitsNotForMoreThanMax(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	const max = 256 << 10
	go func() { _, _ = w.Write([]byte(strings.Repeat("a", max+10))) }() // and no more, no close
	tap := NewTap(r, max, func([]byte) bool { return false })
	done := make(chan error, 1)
	go func() {
		got := 0
		buf := make([]byte, 4096)
		for got < max {
			n, err := tap.Read(buf)
			if err != nil {
				done <- err
				return
			}
			got += n
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the Tap waits for the rest of a line longer than max")
	}
}

// pipeKinds are the streams a Writer writes to: a pipe Go polls, whose
// descriptor WriteSoon writes to itself, and one it cannot (io.Pipe).
var pipeKinds = []struct {
	name string
	pipe func() (io.ReadCloser, io.WriteCloser, error)
}{
	{"os.Pipe", func() (io.ReadCloser, io.WriteCloser, error) { return os.Pipe() }},
	{"io.Pipe", func() (io.ReadCloser, io.WriteCloser, error) { r, w := io.Pipe(); return r, w, nil }},
}

// TestWriter: messages written at once from many goroutines, with Write
// and WriteSoon, each arrive whole, on a line of their own, on a pipe Go
// polls and on one it cannot (io.Pipe).
func TestWriter(t *testing.T) {
	for _, tc := range pipeKinds {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := tc.pipe()
			if err != nil {
				t.Fatal(err)
			}
			out := NewWriter(w)
			const writers, each = 8, 200
			var wg, soon sync.WaitGroup
			for i := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for j := range each {
						msg := fmt.Sprintf(`{"writer":%d,"n":%d,"pad":"%s"}`+"\n", i, j, strings.Repeat("p", 3000+i*j))
						if i%2 == 1 {
							soon.Add(1)
							out.WriteSoon([]byte(msg), nil)
							soon.Done()
							continue
						}
						if _, err := out.Write([]byte(msg)); err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			lines := make(chan int, 1)
			go func() {
				sc := bufio.NewScanner(r)
				sc.Buffer(make([]byte, 1<<20), 1<<20)
				n := 0
				for sc.Scan() {
					var i, j int
					var pad string
					if _, err := fmt.Sscanf(sc.Text(), `{"writer":%d,"n":%d,"pad":%q}`, &i, &j, &pad); err != nil || len(pad) != 3000+i*j {
						t.Errorf("line %d is not one message: %.80q (%v)", n, sc.Text(), err)
					}
					n++
					if n == writers*each {
						break
					}
				}
				lines <- n
			}()
			wg.Wait()
			soon.Wait()
			select {
			case n := <-lines:
				if n != writers*each {
					t.Errorf("%d lines, want %d", n, writers*each)
				}
			case <-time.After(time.Minute):
				t.Fatal("the messages did not all arrive")
			}
			out.Close()
		})
	}
}

// TestWriter_SoonWaitsForNoReader: WriteSoon returns while the reader
// reads nothing (the goroutine reading a server's output must not stop
// for a client that does not read), and what it wrote arrives whole, in
// turn, once the reader reads.
func TestWriter_SoonWaitsForNoReader(t *testing.T) {
	for _, tc := range pipeKinds {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := tc.pipe()
			if err != nil {
				t.Fatal(err)
			}
			out := NewWriter(w)
			big := `{"big":"` + strings.Repeat("b", 1<<20) + `"}` + "\n" // more than a pipe holds
			returned := make(chan struct{})
			go func() {
				out.WriteSoon([]byte(big), nil)
				out.WriteSoon([]byte("{\"small\":1}\n"), nil)
				close(returned)
			}()
			select {
			case <-returned:
			case <-time.After(time.Minute):
				t.Fatal("WriteSoon waited for the reader")
			}
			got := make(chan string, 1)
			go func() {
				b, _ := io.ReadAll(io.LimitReader(r, int64(len(big)+len("{\"small\":1}\n"))))
				got <- string(b)
			}()
			select {
			case s := <-got:
				if s != big+"{\"small\":1}\n" && s != "{\"small\":1}\n"+big {
					t.Errorf("read %d bytes, not the two messages whole", len(s))
				}
			case <-time.After(time.Minute):
				t.Fatal("the messages did not arrive")
			}
			out.Close()
		})
	}
}

// A bounded Writer whose reader stopped reading ends the stream once a
// message has waited its wait, whichever way the message was written, and
// the write fails with ErrNotReading (WriteSoon's: to its failed).
func TestBoundedWriter_EndsTheStreamOfAReaderThatStoppedReading(t *testing.T) {
	const wait = 100 * time.Millisecond
	for _, c := range []struct {
		name  string
		write func(w *Writer) error
	}{
		{"Write", func(w *Writer) error { _, err := w.Write([]byte("{}\n")); return err }},
		{"WriteSoon", func(w *Writer) error {
			failed := make(chan error, 1)
			w.WriteSoon([]byte("{}\n"), func(err error) { failed <- err })
			return <-failed
		}},
	} {
		writerEnd, readerEnd := net.Pipe() // no buffer: nobody reads, so every write waits
		w := NewBoundedWriter(writerEnd, wait)
		start := time.Now()
		if err := c.write(w); !errors.Is(err, ErrNotReading) {
			t.Errorf("%s: the write waiting for nobody ended with %v, want ErrNotReading", c.name, err)
		}
		if ended := time.Since(start); ended < wait {
			t.Errorf("%s: the write ended after %s, before its wait", c.name, ended)
		}
		time.Sleep(3 * wait) // nobody reads
		_ = readerEnd.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := readerEnd.Read(make([]byte, 1)); err != io.EOF {
			t.Errorf("%s: the reader's end reads %v, want the stream closed (EOF)", c.name, err)
		}
		readerEnd.Close()
	}
}
