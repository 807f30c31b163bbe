package lineio

import (
	"bufio"
	"fmt"
	"io"
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

// TestWriter: messages written at once from many goroutines each arrive
// whole, on a line of their own.
func TestWriter(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	out := NewWriter(w)
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				msg := fmt.Sprintf(`{"writer":%d,"n":%d,"pad":"%s"}`+"\n", i, j, strings.Repeat("p", 3000+i*j))
				if _, err := out.Write([]byte(msg)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); out.Close() }()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	lines := 0
	for sc.Scan() {
		var i, j int
		var pad string
		if _, err := fmt.Sscanf(sc.Text(), `{"writer":%d,"n":%d,"pad":%q}`, &i, &j, &pad); err != nil || len(pad) != 3000+i*j {
			t.Fatalf("line %d is not one message: %.80q (%v)", lines, sc.Text(), err)
		}
		lines++
	}
	if lines != writers*each {
		t.Errorf("%d lines, want %d", lines, writers*each)
	}
}
