package app

import (
	"errors"
	"log"
	"os/exec"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
)

// OpenLink is the one function in Gatehouse that opens a URL (E21). It is
// called only after the person consented, with a link the core checked
// itself (never a string from the web view), and it opens it only in the
// system's default browser:
//
//   - the link is checked again with linkcheck.Check: http(s) only, http only
//     to this computer, nothing the analysis refuses;
//   - no shell is involved: the opener program gets the URL as its single
//     argument, so characters such as $( ) ; | or a newline mean nothing;
//   - the URL cannot be taken for an option: linkcheck.Check refuses a leading "-"
//     and the URL always starts with its scheme.
//
// Wails' own BrowserOpenURL is not used: it silently drops valid URLs that
// contain ( ) ! or ~ (see ../shared/NOTES.md). A failure is returned as a
// sentence for the person; the opener's own words are in a *BrowserError
// it wraps.
func OpenLink(link *linkcheck.Report) error {
	if link == nil {
		return i18n.Err("links.error.none")
	}
	checked, err := linkcheck.Check(link.URL)
	if err != nil {
		return i18n.Wrap(err, "links.error.refused", "detail", err)
	}
	if checked.URL != link.URL || (checked.Scheme != "https" && checked.Scheme != "http") {
		return i18n.Err("links.error.changed")
	}
	name, err := runOpener(checked.URL)
	var failed *BrowserError
	switch {
	case errors.Is(err, errNoOpener):
		return i18n.Err("links.error.noBrowser", "program", name)
	case errors.As(err, &failed):
		return i18n.Wrap(failed, "links.error.browserFailed")
	case err != nil:
		return i18n.Wrap(err, "links.error.browserStart", "detail", err)
	}
	log.Printf("gatehouse: opened %s in the browser", checked.ASCIIHost)
	return nil
}

// A BrowserError is the system's opener failing to open a checked page
// (issue 26: "exit status 4 /usr/bin/chromium: 9: [: …: unexpected
// operator"). OpenLink says a sentence in the person's language
// (links.error.browserFailed) and wraps this error, which keeps what the
// program said, for the window's folded details (windowError) and the log.
type BrowserError struct {
	// Program is the opener that ran ("xdg-open").
	Program string
	// Detail is its exit status and what it wrote, as text, bounded.
	Detail string
}

// Error is the details, untranslated: the system's words.
func (e *BrowserError) Error() string { return e.Program + ": " + e.Detail }

// Details is what the window shows folded under the sentence.
func (e *BrowserError) Details() string { return e.Error() }

// maxBrowserDetail bounds the details of a BrowserError: an opener may
// write a whole browser's start-up noise.
const maxBrowserDetail = 4000

// browserFailure is the BrowserError of an opener that exited with err
// after writing out.
func browserFailure(program string, err error, out string) *BrowserError {
	detail := err.Error()
	if out = strings.TrimSpace(out); out != "" {
		detail += "\n" + out
	}
	if len(detail) > maxBrowserDetail {
		cut := maxBrowserDetail
		for cut > 0 && !utf8.RuneStart(detail[cut]) {
			cut--
		}
		detail = detail[:cut] + "…"
	}
	return &BrowserError{Program: program, Detail: strings.ToValidUTF8(detail, "�")}
}

// openerWait is how long OpenLink waits for the opener to report a failure.
const openerWait = 5 * time.Second

// errNoOpener is runOpener's error when the system has no opener program.
var errNoOpener = errors.New("no opener program")

// runOpener gives target to the system's opener (browserCommand) as its
// single argument, with no shell, and waits openerWait for it to report a
// failure: errNoOpener when the program is missing, its start error, or a
// *BrowserError with what it said. It returns the program's name. Only
// OpenLink (a checked, consented URL) and openFolder (Gatehouse's own data
// folder) call it.
func runOpener(target string) (string, error) {
	name, args := browserCommand()
	path, err := exec.LookPath(name)
	if err != nil {
		return name, errNoOpener
	}
	cmd := exec.Command(path, append(args, target)...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return name, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return name, browserFailure(name, err, out.String())
		}
	case <-time.After(openerWait):
		// Still running: some openers stay in the foreground with the
		// browser or file manager. It is open; do not wait for it to exit.
	}
	return name, nil
}

// browserCommand is the system's "open this URL in the default browser"
// program and its arguments before the URL.
func browserCommand() (string, []string) {
	switch runtime.GOOS {
	case "darwin":
		return "open", nil
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler"}
	}
	return "xdg-open", nil
}
