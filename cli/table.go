package cli

import (
	"bytes"
	"io"
	"strings"

	"github.com/rivo/uniseg"
)

// columnGap is the space between two columns, in terminal columns.
const columnGap = 2

// A table is what the command line prints its lists with: text written to
// it is lines of cells separated by tabs, and Flush writes them with every
// column starting at the same terminal column. Unlike text/tabwriter,
// which counts runes, it measures cells as a terminal shows them: a Chinese
// character (or an emoji) takes two columns, a combining accent none. The
// last cell of a line is not padded.
type table struct {
	out io.Writer
	buf bytes.Buffer
}

func newTable(out io.Writer) *table { return &table{out: out} }

// Write adds text to the table; it is printed by Flush.
func (t *table) Write(p []byte) (int, error) { return t.buf.Write(p) }

// Flush writes the table, aligned, to its writer.
func (t *table) Flush() error {
	text := strings.TrimSuffix(t.buf.String(), "\n")
	t.buf.Reset()
	if text == "" {
		return nil
	}
	var rows [][]string
	var widths []int
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(line, "\t")
		rows = append(rows, cells)
		for i, c := range cells[:len(cells)-1] { // the last cell sets no width
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], uniseg.StringWidth(c))
		}
	}
	var out strings.Builder
	for _, cells := range rows {
		for i, c := range cells {
			out.WriteString(c)
			if i < len(cells)-1 {
				out.WriteString(strings.Repeat(" ", widths[i]-uniseg.StringWidth(c)+columnGap))
			}
		}
		out.WriteByte('\n')
	}
	_, err := io.WriteString(t.out, out.String())
	return err
}
