package app

import (
	"fmt"
	"log"
	"os/exec"
	"runtime"
	"strings"
	"time"

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
// sentence for the person.
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
	name, args := browserCommand()
	path, err := exec.LookPath(name)
	if err != nil {
		return i18n.Err("links.error.noBrowser", "program", name)
	}
	cmd := exec.Command(path, append(args, checked.URL)...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return i18n.Wrap(err, "links.error.browserStart", "detail", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			msg := strings.TrimSpace(out.String())
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			return fmt.Errorf("your browser could not open the page (%s): %v %s", name, err, msg)
		}
	case <-time.After(openerWait):
		// Still running: some openers stay in the foreground with the
		// browser. The page is open; do not wait for the browser to exit.
	}
	log.Printf("gatehouse: opened %s in the browser", checked.ASCIIHost)
	return nil
}

// openerWait is how long OpenLink waits for the opener to report a failure.
const openerWait = 5 * time.Second

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
