package mcp

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Log bounds kept per server. A chatty server must not grow the host's
// memory: the oldest lines are dropped first, whatever their source.
const (
	logMaxLines    = 500
	logMaxLineSize = 2000 // longer lines are cut and marked with "…"
)

// Sources of a server's log lines.
const (
	// LogStderr is a line a stdio server's process wrote to its stderr.
	LogStderr = "stderr"
	// LogEvent is Gatehouse's own note on the connection ("connected ...").
	LogEvent = "gatehouse"
	// LogMessage is a log message the server sent (notifications/message).
	LogMessage = "server"
)

// LogLevels are MCP's log levels (RFC 5424's severities), least severe
// first: logging/setLevel asks a server for the messages of one level and
// the levels after it.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// ValidLogLevel reports whether level is one of LogLevels.
func ValidLogLevel(level string) bool { return slices.Contains(LogLevels, level) }

// LogLine is one line of a server's log. All of it but Source and At is
// the server's text.
type LogLine struct {
	// Source is LogStderr, LogEvent or LogMessage.
	Source string `json:"source"`
	// At is the local time the line arrived, as 15:04:05.
	At string `json:"at"`
	// Level and Logger are a LogMessage's level (one of LogLevels, or what
	// the server sent) and the name of the logger that wrote it, if any.
	Level  string `json:"level"`
	Logger string `json:"logger"`
	Text   string `json:"text"`

	seq uint64 // a stderr line's number (serverLog.stderrSeen), for stderrSince
}

// String is the line as the plain-text log shows it: stderr as the server
// wrote it, Gatehouse's events and the server's messages with a bracketed
// head.
func (l LogLine) String() string {
	switch l.Source {
	case LogEvent:
		return "[gatehouse " + l.At + "] " + l.Text
	case LogMessage:
		head := "[" + l.Level + " " + l.At + "] "
		if l.Logger != "" {
			head += l.Logger + ": "
		}
		return head + l.Text
	}
	return l.Text
}

// serverLog is a bounded, concurrency-safe tail of one server's stderr, its
// log messages and the host's connection events for it. It is an io.Writer
// so a child process's stderr can be pointed at it.
type serverLog struct {
	// changed, when set, is called after lines were added, without the lock.
	changed func()

	mu      sync.Mutex
	lines   []LogLine
	partial bytes.Buffer // a stderr line not yet ended by '\n'
	// stderrSeen counts the stderr lines ever written, so that an attempt
	// to connect can find the lines its own process wrote (stderrSince).
	stderrSeen uint64
}

// Write splits p into lines and appends them.
func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, added := len(p), false
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
		l.stderrSeen++
		l.appendLocked(LogLine{Source: LogStderr, Text: strings.TrimRight(l.partial.String(), "\r"), seq: l.stderrSeen})
		l.partial.Reset()
		p = p[i+1:]
		added = true
	}
	l.mu.Unlock()
	if added {
		l.notify()
	}
	return n, nil
}

// event records a host-side line such as "connected".
func (l *serverLog) event(text string) {
	l.add(LogLine{Source: LogEvent, Text: text})
}

// message records a server's notifications/message: its level, its
// logger's name and its data as text (a string as it is, anything else as
// JSON).
func (l *serverLog) message(p *sdk.LoggingMessageParams) {
	if p == nil {
		return
	}
	text, ok := p.Data.(string)
	if !ok {
		b, err := json.Marshal(p.Data)
		if err != nil {
			return
		}
		text = string(b)
	}
	l.add(LogLine{Source: LogMessage, Level: string(p.Level), Logger: oneLine(p.Logger, logMaxLineSize), Text: text})
}

func (l *serverLog) add(line LogLine) {
	l.mu.Lock()
	l.appendLocked(line)
	l.mu.Unlock()
	l.notify()
}

func (l *serverLog) notify() {
	if l.changed != nil {
		l.changed()
	}
}

func (l *serverLog) appendLocked(line LogLine) {
	line.At = time.Now().Format("15:04:05")
	if len(line.Text) >= logMaxLineSize {
		line.Text = line.Text[:logMaxLineSize] + "…"
	}
	if len(l.lines) >= logMaxLines {
		l.lines = append(l.lines[:0], l.lines[len(l.lines)-logMaxLines+1:]...)
	}
	l.lines = append(l.lines, line)
}

// Lines returns the kept lines, oldest first, including a partial last
// stderr line.
func (l *serverLog) Lines() []LogLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := slices.Clone(l.lines)
	if l.partial.Len() > 0 {
		out = append(out, LogLine{Source: LogStderr, At: time.Now().Format("15:04:05"), Text: l.partial.String()})
	}
	return out
}

// String returns the kept lines as text, oldest first, including a partial
// last line.
func (l *serverLog) String() string {
	lines := l.Lines()
	text := make([]string, len(lines))
	for i, line := range lines {
		text[i] = line.String()
	}
	return strings.Join(text, "\n")
}

// Bounds of the stderr lines a failed connection's status carries (Status.Stderr).
const (
	stderrTailLines    = 5
	stderrTailLineSize = 300 // bytes; longer lines are cut and end with "…"
)

// stderrMark is where the stderr lines written from now on start, for
// stderrSince.
func (l *serverLog) stderrMark() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stderrSeen
}

// stderrSince returns what the stderr lines written after mark (a partial
// last line included) say about a failure: from the last line that reads as
// an error's head ("Error: Cannot find module 'x'", "ModuleNotFoundError:
// …", "panic: …"), when there is one, else the last lines; blank lines and
// stack frames left out, at most stderrTailLines, each cut to
// stderrTailLineSize bytes on a character boundary. They are the server's
// text, to be shown as text.
func (l *serverLog) stderrSince(mark uint64) []string {
	l.mu.Lock()
	var lines []string
	for _, line := range l.lines {
		if line.Source == LogStderr && line.seq > mark {
			lines = append(lines, line.Text)
		}
	}
	lines = append(lines, l.partial.String())
	l.mu.Unlock()
	lines = slices.DeleteFunc(lines, func(t string) bool { return strings.TrimSpace(t) == "" || stackFrame.MatchString(t) })
	from := max(len(lines)-stderrTailLines, 0)
	for i := len(lines) - 1; i >= 0; i-- {
		if errorHead.MatchString(lines[i]) {
			from = i
			break
		}
	}
	tail := slices.Clone(lines[from:min(from+stderrTailLines, len(lines))])
	for i, t := range tail {
		t = strings.TrimRight(t, " \t")
		if len(t) > stderrTailLineSize {
			cut := stderrTailLineSize
			for cut > 0 && !utf8.RuneStart(t[cut]) {
				cut--
			}
			t = t[:cut] + "…"
		}
		tail[i] = t
	}
	return tail
}

var (
	// errorHead is a line that starts saying what went wrong, as Node,
	// Python, Go and most runtimes write it.
	errorHead = regexp.MustCompile(`^(Uncaught )?[A-Za-z_.]*(Error|Exception)\b|^(panic|fatal error|error|Error|ERROR|FATAL|Fatal):`)
	// stackFrame is a line of a stack trace (Node's "    at …").
	stackFrame = regexp.MustCompile(`^\s+at\s`)
)

// oneLine cuts s at its first line break and at max bytes.
func oneLine(s string, max int) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > max {
		s = s[:max]
	}
	return s
}
