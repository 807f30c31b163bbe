package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// URL mode in the terminal (E18–E25). A server asks the person to open a web
// page; the terminal shows the checked address (the registrable domain
// highlighted, both forms of an international name, the link warnings) and
// opens it only on consent, only through app.OpenLink, and only the link the
// core recorded for the request. Once open, the page is "opened" in the
// broker until its server says it is finished: the terminal says so, and a
// person at the prompt can press Enter when done or type c to stop waiting.

// urlPrompt is the question for a URL-mode request.
func urlPrompt() string { return i18n.M("cli.url.prompt").String() }

// Styles for the registrable domain on a terminal.
const (
	styleDomain = "\x1b[1;4m" // bold, underlined
	styleReset  = "\x1b[0m"
)

// openedPage is a web page the person opened whose server has not said yet
// that it is finished. The core's broker keeps it; the answerer learns how
// it ends from applink.Pages. Its ID is the elicitationId it was asked with.
type openedPage struct {
	id, serverName string
	until          time.Time // when the broker stops waiting
	ctx            context.Context
	cancel         context.CancelFunc // called when the page ends
	byPerson       string             // "finished" or "cancelled" when the person ended it
	done           chan struct{}      // closed when the page ended and it was said
}

// showLink prints the address of a URL-mode request: the full URL on its own
// line with the registrable domain highlighted (bold and underlined on a
// terminal, in [brackets] elsewhere), both forms of an international name,
// and every warning. All of it is server text, shown as safe text.
func (a *terminalAnswerer) showLink(req *mcp.Question) {
	l := req.Link
	if l == nil {
		return // the broker never presents a URL request without its checked link
	}
	fmt.Fprintln(a.out, a.linkLine(l))
	if l.Host != l.ASCIIHost {
		fmt.Fprintln(a.out, i18n.M("cli.url.idn", "host", oneLine(l.Host), "ascii", oneLine(l.ASCIIHost)))
	}
	for _, w := range l.Warnings {
		fmt.Fprintln(a.out, "Warning: "+oneLine(w.Message.String()))
	}
}

func (a *terminalAnswerer) linkLine(l *linkcheck.Report) string {
	if l.DomainPart == "" {
		return oneLine(l.Display)
	}
	open, shut := "[", "]"
	if a.styled {
		open, shut = styleDomain, styleReset
	}
	return oneLine(l.Before) + open + oneLine(l.DomainPart) + shut + oneLine(l.After)
}

// interactiveURL asks whether to open the page. Open opens it in the system
// browser and only then answers accept; if the browser cannot be started the
// person is told and asked again. The end of input cancels.
func (a *terminalAnswerer) interactiveURL(ctx context.Context, req *mcp.Question) (mcp.Response, error) {
	for {
		choice, err := a.readLine(ctx, urlPrompt())
		if err != nil {
			return mcp.Response{Action: mcp.ActionCancel}, nil
		}
		switch strings.ToLower(choice) {
		case "o", "open":
			if ctx.Err() != nil { // withdrawn while the person typed: open nothing
				return mcp.Response{Action: mcp.ActionCancel}, nil
			}
			if err := a.open(req); err != nil {
				fmt.Fprintln(a.out, visible(err.Error()))
				continue
			}
			fmt.Fprintln(a.out, i18n.M("cli.url.opened"))
			return mcp.Response{Action: mcp.ActionAccept}, nil
		case "d", "decline":
			return mcp.Response{Action: mcp.ActionDecline}, nil
		case "c", "cancel":
			return mcp.Response{Action: mcp.ActionCancel}, nil
		}
	}
}

// scriptedOpen is the answers file's "open" for a URL-mode request.
func (a *terminalAnswerer) scriptedOpen(req *mcp.Question, n int) mcp.Response {
	if err := a.open(req); err != nil {
		return a.scriptFailure(fmt.Errorf("answer %d: %s", n, strings.TrimSuffix(oneLine(strings.ReplaceAll(err.Error(), "\n", " ")), ".")))
	}
	fmt.Fprintln(a.out, i18n.M("cli.url.openedScripted", "n", n))
	return mcp.Response{Action: mcp.ActionAccept}
}

// open opens the link the core checked and recorded for req (never anything
// typed), through app.OpenLink, and remembers the request so the wait that
// follows can learn how its page ended (opened).
func (a *terminalAnswerer) open(req *mcp.Question) error {
	if err := app.OpenLink(req.Link); err != nil {
		// On a terminal the opener's own words follow the sentence: they
		// are what a person fixes their browser set-up with.
		var failed *app.BrowserError
		if errors.As(err, &failed) {
			return fmt.Errorf("%w\n%s", err, failed.Details())
		}
		return err
	}
	a.mu.Lock()
	a.accepted[req.ID] = req.Deadline.Sub(req.ReceivedAt)
	a.mu.Unlock()
	return nil
}

// opened is the page of req, which the person just opened (open) and the
// core's broker now keeps: it is announced and watched until it ends, and
// at a prompt standard input is read for "done" (Enter) or "stop waiting"
// (c).
func (a *terminalAnswerer) opened(req *mcp.Question) {
	a.mu.Lock()
	timeout, ok := a.accepted[req.ID]
	if !ok || a.ctx.Err() != nil {
		a.mu.Unlock()
		return
	}
	delete(a.accepted, req.ID)
	p := &openedPage{id: req.ID, serverName: req.Server.Name, until: time.Now().Add(timeout), done: make(chan struct{})}
	p.ctx, p.cancel = context.WithCancel(a.ctx)
	a.pages[p.id] = p
	a.order = append(a.order, p)
	read := a.in != nil && !a.reading && !a.inputEOF
	if read {
		a.reading = true
	}
	a.mu.Unlock()
	a.announce(p)
	go a.watch(p)
	if read {
		go a.readForPages()
	}
}

// announce prints what the person is waiting for and how to stop.
func (a *terminalAnswerer) announce(p *openedPage) {
	a.mu.Lock()
	canType := a.in != nil && !a.inputEOF
	a.mu.Unlock()
	name := oneLine(p.serverName)
	if canType {
		fmt.Fprintln(a.out, i18n.M("cli.url.finishInteractive", "server", name))
		return
	}
	fmt.Fprintln(a.out, i18n.M("cli.url.finish", "server", name, "until", untilText(p.until)))
}

func untilText(t time.Time) string {
	return i18n.M("cli.url.until", "time", t.Format("15:04:05")).String()
}

// watch waits until the broker ends the page (the server's completion
// notice, the person, the time limit or a disconnection) and says how.
func (a *terminalAnswerer) watch(p *openedPage) {
	a.ended(p, a.keeper.Wait(p.ctx, p.id))
}

// ended takes a page off the list once and says how it ended. A page that
// ended without confirmation (time limit, disconnection) is remembered as
// the command's failure; it is not printed here, as it is the error the
// command ends with.
func (a *terminalAnswerer) ended(p *openedPage, err error) {
	a.mu.Lock()
	if a.pages[p.id] != p {
		a.mu.Unlock()
		return
	}
	delete(a.pages, p.id)
	for i, q := range a.order {
		if q == p {
			a.order = append(a.order[:i:i], a.order[i+1:]...)
			break
		}
	}
	by := p.byPerson
	over := a.ctx.Err() != nil
	unconfirmed := err != nil && !errors.Is(err, mcp.ErrURLCancelled) && !over
	if unconfirmed && a.unconfirmed == nil {
		a.unconfirmed = err
	}
	a.ending[p] = true
	a.mu.Unlock()
	p.cancel()
	defer func() {
		a.mu.Lock()
		delete(a.ending, p)
		a.mu.Unlock()
		close(p.done)
	}()
	switch {
	case over || unconfirmed || by != "": // by the person: said when they did it
	case errors.Is(err, mcp.ErrURLCancelled):
		fmt.Fprintln(a.out, i18n.M("cli.url.stopped"))
	default:
		fmt.Fprintln(a.out, i18n.M("cli.url.confirmed"))
	}
}

// readForPages reads standard input while pages are open, taking lines only
// when no prompt is on screen: a line ends the oldest page as finished, "c"
// stops waiting for it. At the end of input the pages are left to their
// servers and the time limit.
func (a *terminalAnswerer) readForPages() {
	for {
		a.mu.Lock()
		if len(a.order) == 0 || a.ctx.Err() != nil {
			a.reading = false
			a.mu.Unlock()
			return
		}
		p := a.order[0]
		a.mu.Unlock()
		line, err := a.in.take(p.ctx, false)
		if errors.Is(err, io.EOF) {
			a.mu.Lock()
			a.reading, a.inputEOF = false, true
			waiting := append([]*openedPage(nil), a.order...)
			a.mu.Unlock()
			for _, w := range waiting {
				fmt.Fprintln(a.out, i18n.M("cli.url.noInput", "server", oneLine(w.serverName), "until", untilText(w.until)))
			}
			return
		}
		if err != nil {
			continue // the page ended; on to the next
		}
		stop := strings.EqualFold(strings.TrimSpace(line), "c") || strings.EqualFold(strings.TrimSpace(line), "cancel")
		a.mu.Lock()
		if a.pages[p.id] != p { // it ended meanwhile, and that was said
			a.mu.Unlock()
			continue
		}
		p.byPerson = "finished"
		if stop {
			p.byPerson = "cancelled"
		}
		a.mu.Unlock()
		// Said before the broker hears it: a call waiting for this page goes
		// on (or fails) at once and may end the command.
		if stop {
			fmt.Fprintln(a.out, i18n.M("cli.url.stopped"))
			if a.keeper.StopWaiting(p.id) == nil {
				a.ended(p, mcp.ErrURLCancelled)
			}
		} else {
			fmt.Fprintln(a.out, i18n.M("cli.url.saidFinished"))
			if a.keeper.Finish(p.id) == nil {
				a.ended(p, nil)
			}
		}
	}
}

// awaitEnded waits until the pages asked with the given elicitation IDs,
// which the running app said have ended, are off the list and their end
// said: the call's result can overtake their notices here. Bounded, as
// the notices were sent before the result.
func (a *terminalAnswerer) awaitEnded(elicitationIDs []string) {
	a.mu.Lock()
	var done []chan struct{}
	for _, p := range a.pages {
		if slices.Contains(elicitationIDs, p.id) {
			done = append(done, p.done)
		}
	}
	a.mu.Unlock()
	limit := time.After(endedNoticeWait)
	for _, d := range done {
		select {
		case <-d:
		case <-limit:
			return
		}
	}
}

// endedNoticeWait bounds awaitEnded.
const endedNoticeWait = 5 * time.Second

// waitPages is the end of `call` after a tool result: while web pages this
// command opened are still open, say so and wait until they end (the
// server's notice, Enter or c at a prompt, or the time limit). It returns
// an error when a page ended without the server's confirmation, or when
// ctx ended (Ctrl-C) first.
func (a *terminalAnswerer) waitPages(ctx context.Context) error {
	a.mu.Lock()
	pages := slices.Clone(a.order)
	var ending []*openedPage
	for p := range a.ending {
		ending = append(ending, p)
	}
	a.mu.Unlock()
	// A page whose end the server confirmed as the result came is said
	// first: the two arrive together, and the result can overtake it.
	for _, p := range ending {
		<-p.done
	}
	if len(pages) > 0 {
		a.announce(pages[0])
	}
	for _, p := range pages {
		select {
		case <-p.done:
		case <-ctx.Done():
			for _, p := range pages {
				_ = a.keeper.StopWaiting(p.id)
			}
			for _, p := range pages {
				<-p.done
			}
			return errors.New("interrupted while waiting for the web page")
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.unconfirmed
}
