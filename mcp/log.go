package mcp

import (
	"bytes"
	"strings"
	"sync"
	"time"
)

// Log bounds kept per server. A chatty server must not grow the host's
// memory: the oldest lines are dropped first.
const (
	logMaxLines    = 500
	logMaxLineSize = 2000 // longer lines are cut and marked with "…"
)

// serverLog is a bounded, concurrency-safe tail of one server's stderr and of
// the host's connection events for it. It is an io.Writer so a child
// process's stderr can be pointed at it.
type serverLog struct {
	mu      sync.Mutex
	lines   []string
	partial bytes.Buffer // a line not yet ended by '\n'
}

// Write splits p into lines and appends them.
func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if l.partial.Len() < logMaxLineSize {
				l.partial.Write(p[:min(len(p), logMaxLineSize-l.partial.Len())])
			}
			break
		}
		if l.partial.Len() < logMaxLineSize {
			l.partial.Write(p[:min(i, logMaxLineSize-l.partial.Len())])
		}
		l.appendLocked(strings.TrimRight(l.partial.String(), "\r"))
		l.partial.Reset()
		p = p[i+1:]
	}
	return n, nil
}

// event records a host-side line such as "connected" with a timestamp.
func (l *serverLog) event(format string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.appendLocked("[gatehouse " + time.Now().Format("15:04:05") + "] " + format)
}

func (l *serverLog) appendLocked(line string) {
	if len(line) >= logMaxLineSize {
		line = line[:logMaxLineSize] + "…"
	}
	if len(l.lines) >= logMaxLines {
		l.lines = append(l.lines[:0], l.lines[len(l.lines)-logMaxLines+1:]...)
	}
	l.lines = append(l.lines, line)
}

// String returns the kept lines, oldest first, including a partial last line.
func (l *serverLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := strings.Join(l.lines, "\n")
	if l.partial.Len() > 0 {
		if s != "" {
			s += "\n"
		}
		s += l.partial.String()
	}
	return s
}
