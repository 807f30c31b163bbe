package connectapp

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/gatehouse-app/gatehouse/importcfg"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// maxDiffLines bounds the lines of one group of edits that are compared
// line by line (quadratic); a larger group is shown as removed and added
// whole.
const maxDiffLines = 2000

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
	masked := maskLines(lines)
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
			writeLine(&b, ' ', masked[k])
		}
		for _, op := range ops {
			switch op.kind {
			case ' ', '-':
				writeLine(&b, op.kind, masked[from+op.old])
			default:
				writeLine(&b, '+', importcfg.MaskLine(op.text, false))
			}
		}
		for k := to; k < hi; k++ {
			writeLine(&b, ' ', masked[k])
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
// subsequence.
func diffLines(a, b []string) []diffOp {
	var ops []diffOp
	if len(a)+len(b) > maxDiffLines {
		for i := range a {
			ops = append(ops, diffOp{kind: '-', old: i})
		}
		for _, l := range b {
			ops = append(ops, diffOp{kind: '+', text: l})
		}
		return ops
	}
	// lcs[i][j] is the length of the common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
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
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, diffOp{kind: '+', text: b[j]})
			j++
		default:
			ops = append(ops, diffOp{kind: '-', old: i})
			i++
		}
	}
	return ops
}

// blockStart is a line that opens a block of environment variables or
// headers: `"env": {` in JSON, `[mcp_servers.x.env]` or `env = {` in TOML.
var blockStart = regexp.MustCompile(`(?i)("(env|headers|http_headers|env_http_headers)"\s*:\s*\{|^\s*\[[^\]]*\.(env|headers|http_headers|env_http_headers)\]|^\s*(env|headers|http_headers|env_http_headers)\s*=\s*\{)`)

// maskLines masks each line of a file for showing (importcfg.MaskLine),
// every value inside a block of environment variables or headers.
func maskLines(lines []string) []string {
	out := make([]string, len(lines))
	depth := 0     // JSON: braces open in the current block
	table := false // TOML: inside an env or headers table
	for i, l := range lines {
		opens := blockStart.FindStringIndex(l)
		trimmed := strings.TrimSpace(l)
		switch {
		case opens != nil && strings.HasPrefix(trimmed, "["):
			table = true
			out[i] = importcfg.MaskLine(l, false)
			continue
		case strings.HasPrefix(trimmed, "["):
			table = false
		}
		inBlock := table || depth > 0
		if opens != nil && !inBlock {
			// What comes before the block on its line ("command") is shown.
			out[i] = importcfg.MaskLine(l[:opens[0]], false) + importcfg.MaskLine(l[opens[0]:], true)
		} else {
			out[i] = importcfg.MaskLine(l, inBlock)
		}
		switch {
		case depth > 0:
			depth += strings.Count(l, "{") - strings.Count(l, "}")
		case opens != nil && !strings.HasPrefix(trimmed, "["):
			rest := l[opens[0]:]
			depth = strings.Count(rest, "{") - strings.Count(rest, "}")
		}
		depth = max(depth, 0)
	}
	return out
}
