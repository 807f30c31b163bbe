package visible

import (
	"fmt"
	"strings"
	"unicode"
)

// Hidden reports whether a person cannot see r, or r changes how the text
// after it is shown: control characters (Cc) other than newline and tab,
// format characters (Cf: bidi controls, zero-width characters, the soft
// hyphen), and the line and paragraph separators U+2028 and U+2029, which
// break a line where a reader of the JSON text expects none.
func Hidden(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// Code is r written as "U+202E": how a hidden character is shown.
func Code(r rune) string { return fmt.Sprintf("U+%04X", r) }

// A Segment is a piece of text as the window shows it: a run of plain text
// (Text), or one hidden character (Code, "U+202E", with Text empty), which
// the window draws as a marked code with the character's name.
type Segment struct {
	Text string `json:"text,omitempty"`
	Code string `json:"code,omitempty"`
}

// Segments splits s into runs of plain text and single hidden characters,
// in order; nil for "". Joining each segment's Text, or its Code for a
// hidden character, gives Mark(s).
func Segments(s string) []Segment {
	var out []Segment
	start := 0
	for i, r := range s {
		if !Hidden(r) {
			continue
		}
		if i > start {
			out = append(out, Segment{Text: s[start:i]})
		}
		out = append(out, Segment{Code: Code(r)})
		start = i + len(string(r))
	}
	if start < len(s) {
		out = append(out, Segment{Text: s[start:]})
	}
	return out
}

// HasHidden reports whether s holds a character Hidden reports.
func HasHidden(s string) bool { return strings.IndexFunc(s, Hidden) >= 0 }

// Mark returns s with each hidden character written as <U+XXXX>: for text
// written where no mark can be drawn (a terminal, a log line).
func Mark(s string) string {
	if !HasHidden(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if Hidden(r) {
			b.WriteString("<" + Code(r) + ">")
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
