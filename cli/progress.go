package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// progressBarWidth is the number of cells of the bar `call` draws on a
// terminal.
const progressBarWidth = 24

// progressPrinter shows a call's progress notifications on stderr: on a
// terminal one line redrawn in place (a bar when the server says how much
// there is, else a count), otherwise one line per notification, for logs
// and scripts. The server's message is server text: it is shown on one
// line with control characters made visible.
type progressPrinter struct {
	out      io.Writer
	terminal bool

	mu    sync.Mutex
	drawn bool // a bar is on the terminal's current line
}

// show prints one progress notification.
func (p *progressPrinter) show(pr mcp.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := progressLine(pr, p.terminal)
	if p.terminal {
		fmt.Fprint(p.out, "\r\033[K"+line)
		p.drawn = true
		return
	}
	fmt.Fprintln(p.out, line)
}

// done takes the bar off the terminal's line, before the result is
// printed.
func (p *progressPrinter) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.out, "\r\033[K")
		p.drawn = false
	}
}

// progressLine is a notification as one line: "[#####·····] 2/5 message"
// with a bar, "Progress: 2 of 5: message" without.
func progressLine(pr mcp.Progress, bar bool) string {
	msg := oneLine(pr.Message)
	amount := number(pr.Progress)
	if pr.Total > 0 {
		amount = i18n.M("cli.progress.of", "done", number(pr.Progress), "total", number(pr.Total)).String()
	}
	if bar {
		line := amount
		if pr.Total > 0 {
			filled := int(min(max(pr.Progress/pr.Total, 0), 1) * progressBarWidth)
			line = "[" + strings.Repeat("#", filled) + strings.Repeat("·", progressBarWidth-filled) + "] " + amount
		}
		if msg != "" {
			line += " " + msg
		}
		return line
	}
	if msg != "" {
		return i18n.M("cli.progress.lineWithMessage", "amount", amount, "message", msg).String()
	}
	return i18n.M("cli.progress.line", "amount", amount).String()
}

// number writes a progress amount without a needless fraction.
func number(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
