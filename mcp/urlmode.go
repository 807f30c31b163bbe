package mcp

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// URL mode (E18–E25): a server sends the person to a web page for what must
// not pass through the host (keys, third-party sign-in, payments). The
// broker asks a KindURL question; when the person consents, their side opens
// the page in the system browser and answers accept. The request is then
// "opened" (Broker.finish): it waits, bound to the connection it came on, for
// that server's notifications/elicitation/complete, for the person to say
// they finished, or for the answer time to run out.

// MaxElicitationIDLength bounds a URL request's elicitationId.
const MaxElicitationIDLength = 256

// ErrURLCancelled is returned by WaitCompleted when the person stopped
// waiting for a page they opened (or never opened it).
var ErrURLCancelled = i18n.Err("mcp.url.stoppedWaiting")

// openedURL is a URL request the person opened, until it ends.
type openedURL struct {
	q        *Question
	openedAt time.Time
	done     chan struct{} // closed when it ends
	err      error         // why it ended: nil when completed or finished
	stop     func()        // stops the expiry watchers
}

// checkURLRequest checks a URL-mode request before anything is shown: it must
// carry url, elicitationId and message (E18), no form schema, and a URL the
// link-safety analysis accepts (E22).
func checkURLRequest(p *sdk.ElicitParams) (*linkcheck.Report, error) {
	switch {
	case p.Message == "":
		return nil, errors.New("a URL request must have a message saying why")
	case p.ElicitationID == "":
		return nil, errors.New("a URL request must have an elicitationId")
	case p.URL == "":
		return nil, errors.New("a URL request must have a url")
	case p.RequestedSchema != nil || hasCarriedSchema(p.Meta):
		return nil, errors.New("a URL request must not have a requestedSchema")
	case len(p.ElicitationID) > MaxElicitationIDLength || !utf8.ValidString(p.ElicitationID):
		return nil, fmt.Errorf("the elicitationId is over %d bytes or not text", MaxElicitationIDLength)
	}
	link, err := linkcheck.Check(p.URL)
	if err != nil {
		return nil, fmt.Errorf("the url is refused: %w", err)
	}
	return link, nil
}
