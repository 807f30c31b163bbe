package connectapp

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gatehouse-app/gatehouse/importcfg"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// maxDiffCells bounds the work (and memory, 4 bytes a cell) of comparing
// the changed lines of one hunk line by line, which is quadratic: a larger
// change is shown as removed and added whole.
const maxDiffCells = 1 << 20

// maxShownLine is the longest line a diff shows whole. A longer one (a
// file of one line, a long string) shows the part around the change.
const maxShownLine = 400

// shownAround is how much of an unchanged part of a long line is shown
// beside the change.
const shownAround = 80

// splitLines splits data into lines, each with its newline.
func splitLines(data []byte) []string {
	var out []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, string(data))
			break
		}
		out = append(out, string(data[:i+1]))
		data = data[i+1:]
	}
	return out
}

// lineAt returns the index of the line that holds offset (len(lines) at the
// very end of a file that ends with a newline).
func lineAt(starts []int, offset int) int {
	lo, hi := 0, len(starts)
	for lo < hi {
		mid := (lo + hi) / 2
		if starts[mid] <= offset {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo - 1
}

// unifiedDiff writes the change the edits make to old as a unified diff of
// the file at path, secret-looking values masked (importcfg.MaskLine).
func unifiedDiff(path string, old []byte, edits []edit, created bool) string {
	lines := splitLines(old)
	starts := make([]int, len(lines)+1)
	for i, l := range lines {
		starts[i+1] = starts[i] + len(l)
	}
	starts = starts[:len(lines)]
	blocks := blockStates(lines)
	var b strings.Builder
	if created {
		b.WriteString("--- /dev/null\n")
	} else {
		b.WriteString("--- " + path + "\n")
	}
	b.WriteString("+++ " + path + "\n")
	shift := 0 // lines added less lines removed before the current hunk
	for i := 0; i < len(edits); {
		// A group: edits whose lines are near enough to share a hunk.
		first := lineRange(starts, len(old), edits[i])
		from, to := first[0], first[1]
		j := i + 1
		for ; j < len(edits); j++ {
			r := lineRange(starts, len(old), edits[j])
			if r[0] > to+2*diffContext {
				break
			}
			to = max(to, r[1])
		}
		regionStart, regionEnd := len(old), len(old)
		if from < len(lines) {
			regionStart = starts[from]
		}
		if to < len(lines) {
			regionEnd = starts[to]
		}
		var local []edit
		for _, e := range edits[i:j] {
			local = append(local, edit{e.start - regionStart, e.end - regionStart, e.text})
		}
		newLines := splitLines(apply(old[regionStart:regionEnd], local))
		ops := diffLines(lines[from:to], newLines)
		lo := max(from-diffContext, 0)
		hi := min(to+diffContext, len(lines))
		added := 0
		for _, op := range ops {
			switch op.kind {
			case '+':
				added++
			case '-':
				added--
			}
		}
		oldCount, newCount := hi-lo, hi-lo+added
		oldStart, newStart := lo+1, lo+1+shift
		if oldCount == 0 {
			oldStart--
		}
		if newCount == 0 {
			newStart--
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", oldStart, oldCount, newStart, newCount)
		for k := lo; k < from; k++ {
			writeLine(&b, ' ', show(lines[k], blocks[k], 0, 0))
		}
		raw := make([]string, len(ops))
		states := make([]block, len(ops))
		for k, op := range ops {
			if op.kind == '+' {
				// An added line is the entry's, or one of the file's with
				// a change: its own blocks are found on it.
				raw[k], states[k] = op.text, blockStates([]string{op.text})[0]
			} else {
				raw[k], states[k] = lines[from+op.old], blocks[from+op.old]
			}
		}
		for k, l := range showLines(ops, raw, states) {
			writeLine(&b, ops[k].kind, l)
		}
		for k := to; k < hi; k++ {
			writeLine(&b, ' ', show(lines[k], blocks[k], 0, 0))
		}
		shift += added
		i = j
	}
	return b.String()
}

// lineRange returns the lines [first, last) an edit touches; an insertion
// at the very end of the file touches none.
func lineRange(starts []int, size int, e edit) [2]int {
	if e.start >= size {
		return [2]int{len(starts), len(starts)}
	}
	first := lineAt(starts, e.start)
	last := lineAt(starts, max(e.end-1, e.start))
	return [2]int{first, last + 1}
}

// writeLine writes one line of a hunk, with a newline whether or not the
// file's line has one.
func writeLine(b *strings.Builder, kind byte, line string) {
	b.WriteByte(kind)
	b.WriteString(strings.TrimRight(line, "\r\n"))
	b.WriteByte('\n')
}

// A diffOp is one line of a hunk: ' ' kept, '-' removed (old is its index
// in the old lines), '+' added (text).
type diffOp struct {
	kind byte
	old  int
	text string
}

// diffLines compares two runs of lines by their longest common
// subsequence, after the lines they begin and end with alike.
func diffLines(a, b []string) []diffOp {
	var ops []diffOp
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		ops = append(ops, diffOp{kind: ' ', old: p})
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	for _, op := range diffMiddle(a[p:len(a)-s], b[p:len(b)-s]) {
		op.old += p
		ops = append(ops, op)
	}
	for i := len(a) - s; i < len(a); i++ {
		ops = append(ops, diffOp{kind: ' ', old: i})
	}
	return ops
}

// diffMiddle is diffLines on lines that begin and end differently.
func diffMiddle(a, b []string) []diffOp {
	var ops []diffOp
	if len(a)*len(b) > maxDiffCells {
		for i := range a {
			ops = append(ops, diffOp{kind: '-', old: i})
		}
		for _, l := range b {
			ops = append(ops, diffOp{kind: '+', text: l})
		}
		return ops
	}
	// lcs[i][j] is the length of the common subsequence of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, diffOp{kind: ' ', old: i})
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, diffOp{kind: '-', old: i})
			i++
		default:
			ops = append(ops, diffOp{kind: '+', text: b[j]})
			j++
		}
	}
	return ops
}

// blockStart is a line that opens a block of environment variables or
// headers: `"env": {` in JSON, `[mcp_servers.x.env]` or `env = {` in TOML.
var blockStart = regexp.MustCompile(`(?i)("(env|headers|http_headers|env_http_headers)"\s*:\s*\{|^\s*\[[^\]]*\.(env|headers|http_headers|env_http_headers)\]|^\s*(env|headers|http_headers|env_http_headers)\s*=\s*\{)`)

// A block says where a line is in a block of environment variables or
// headers, whose values are all masked.
type block struct {
	in    bool // the whole line is in one
	opens int  // one opens at this offset of the line (-1: none)
}

// blockStates finds for each line of a file whether it is in a block of
// environment variables or headers.
func blockStates(lines []string) []block {
	out := make([]block, len(lines))
	depth := 0     // JSON: braces open in the current block
	table := false // TOML: inside an env or headers table
	for i, l := range lines {
		out[i] = block{in: table || depth > 0, opens: -1}
		var opens []int
		if lower := strings.ToLower(l); strings.Contains(lower, "env") || strings.Contains(lower, "headers") {
			opens = blockStart.FindStringIndex(l)
		}
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "[") {
			table = opens != nil
			out[i].in = false
			continue
		}
		if opens != nil && !out[i].in {
			out[i].opens = opens[0]
		}
		switch {
		case depth > 0:
			depth += strings.Count(l, "{") - strings.Count(l, "}")
		case opens != nil:
			rest := l[opens[0]:]
			depth = strings.Count(rest, "{") - strings.Count(rest, "}")
		}
		depth = max(depth, 0)
	}
	return out
}

// show returns a line of the file as the diff shows it: secret-looking
// values masked (importcfg.MaskLine; every value of a block of
// environment variables or headers), and a long line cut to the part
// around the changed part [from, to) (its start when to <= from).
func show(line string, b block, from, to int) string {
	if len(line) <= maxShownLine {
		if b.opens > 0 {
			// What comes before the block on its line ("command") is shown.
			return importcfg.MaskLine(line[:b.opens], false) + importcfg.MaskLine(line[b.opens:], true)
		}
		return importcfg.MaskLine(line, b.in || b.opens == 0)
	}
	// Only the part shown is masked (masking megabytes takes seconds), and
	// of what is cut, nothing is left that could be part of a secret.
	var out strings.Builder
	var parts []string
	if to <= from {
		parts = []string{cut(line, 0, maxShownLine), "…"}
	} else {
		start, end := max(from-shownAround, 0), min(to+shownAround, len(line))
		if start > 0 {
			parts = append(parts, "…")
		}
		if to-from > maxShownLine {
			parts = append(parts, cut(line, start, from+maxShownLine/2), "…", cut(line, to-maxShownLine/2, end))
		} else {
			parts = append(parts, cut(line, start, end))
		}
		if end < len(line) {
			parts = append(parts, "…")
		}
	}
	at := 0 // where in line the next piece starts
	for i, p := range parts {
		if p == "…" {
			out.WriteString(p)
			continue
		}
		at = strings.Index(line[at:], p) + at
		left, right := i > 0, i < len(parts)-1
		trimmed := trimCut(p, left, right)
		start := at + strings.Index(p, trimmed)
		out.WriteString(maskPiece(trimmed, b.in || inBlockAt(line, b, start)))
		at += len(p)
	}
	return out.String()
}

// inBlockAt reports whether offset of a line is inside a block of
// environment variables or headers that opens on that line (their values
// are strings, so the block ends at the first "}").
func inBlockAt(line string, b block, offset int) bool {
	if b.opens < 0 || offset <= b.opens {
		return false
	}
	opens := blockStart.FindAllStringIndex(line[:offset], -1)
	if len(opens) == 0 {
		return false
	}
	last := opens[len(opens)-1][1]
	return !strings.Contains(line[last:offset], "}")
}

// maskPiece masks a piece of a long line, in is true when it starts inside
// a block of environment variables or headers: every value of such a
// block is masked, up to the "}" that ends it.
func maskPiece(p string, in bool) string {
	var b strings.Builder
	for len(p) > 0 {
		if in {
			end := strings.IndexByte(p, '}')
			if end < 0 {
				b.WriteString(importcfg.MaskLine(p, true))
				break
			}
			b.WriteString(importcfg.MaskLine(p[:end+1], true))
			p, in = p[end+1:], false
			continue
		}
		loc := blockStart.FindStringIndex(p)
		if loc == nil {
			b.WriteString(importcfg.MaskLine(p, false))
			break
		}
		b.WriteString(importcfg.MaskLine(p[:loc[1]], false))
		p, in = p[loc[1]:], true
	}
	return b.String()
}

// trimCut drops from a piece of a long line what a cut may have split:
// after a cut on the left, the rest of the string (or word) it fell in,
// and a value whose key was cut off; before a cut on the right, the
// string it fell in. A secret split by a cut is then not shown in part,
// nor a value whose name said it was one.
func trimCut(s string, left, right bool) string {
	if left {
		if i := strings.IndexAny(s, "\" \t"); i >= 0 {
			s = s[i+1:]
		} else {
			s = ""
		}
		if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, ":") || strings.HasPrefix(t, "=") {
			s = skipString(t)
		}
	}
	if right {
		if i := strings.LastIndexAny(s, "\" \t"); i >= 0 {
			s = s[:i]
		} else {
			s = ""
		}
	}
	return s
}

// skipString returns what follows the first whole string of s.
func skipString(s string) string {
	open := strings.IndexByte(s, '"')
	if open < 0 {
		return ""
	}
	for i := open + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return s[i+1:]
		}
	}
	return ""
}

// showLines returns the lines of a hunk as shown (show): a long line
// removed and added again with a change inside (a file of one line) shows
// only the part around the change.
func showLines(ops []diffOp, lines []string, states []block) []string {
	out := slices.Clone(lines)
	done := make([]bool, len(lines))
	for i := 0; i < len(ops); {
		if ops[i].kind != '-' {
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind == '-' {
			j++
		}
		k := j
		for k < len(ops) && ops[k].kind == '+' {
			k++
		}
		if n := j - i; k-j == n {
			for m := 0; m < n; m++ {
				o, a := lines[i+m], lines[j+m]
				p := commonPrefix(o, a)
				s := commonSuffix(o[p:], a[p:])
				out[i+m], out[j+m] = show(o, states[i+m], p, len(o)-s), show(a, states[j+m], p, len(a)-s)
				done[i+m], done[j+m] = true, true
			}
		}
		i = k
	}
	for i, l := range out {
		if !done[i] {
			out[i] = show(l, states[i], 0, 0)
		}
	}
	return out
}

// cut returns s[from:to] moved inward to whole UTF-8 characters.
func cut(s string, from, to int) string {
	from, to = max(from, 0), min(to, len(s))
	for from < to && !utf8.RuneStart(s[from]) {
		from++
	}
	for to < len(s) && to > from && !utf8.RuneStart(s[to]) {
		to--
	}
	return s[from:to]
}

// commonPrefix is the length of the longest prefix a and b share.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// commonSuffix is the length of the longest suffix a and b share.
func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}
