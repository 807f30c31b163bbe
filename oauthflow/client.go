package oauthflow

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
)

// Limits of every sign-in request (see NewClient).
const (
	// MaxResponseBytes bounds the body of an answer: metadata, a client
	// registration and a token are a few kilobytes.
	MaxResponseBytes = 1 << 20
	// maxRedirects bounds the redirects followed within one origin.
	maxRedirects = 5
	// dialTimeout bounds making a connection, within the request's timeout.
	dialTimeout = 10 * time.Second
)

// ErrRefused is wrapped by every request NewClient's client refuses to
// make: its own message says which rule it broke.
var ErrRefused = i18n.Err("oauthflow.refused")

// refuse is a refusal of NewClient's client: msg, wrapping ErrRefused.
func refuse(msg i18n.Message) error { return &i18n.Error{Message: msg, Err: ErrRefused} }

// Refusal returns what a refused sign-in request says, when err (from the
// SDK, around the client's error) is one.
func Refusal(err error) (i18n.Message, bool) {
	for err != nil {
		var e *i18n.Error
		if !errors.As(err, &e) {
			break
		}
		if e.Err == ErrRefused {
			return e.Message, true
		}
		err = e.Err
	}
	return i18n.Message{}, false
}

// NewClient returns the HTTP client of every request of a sign-in to the
// MCP server at serverURL, and of the refreshes of its tokens: protected
// resource metadata, authorization server metadata, client registration,
// the token exchange and refreshes. The server chooses every URL these go
// to (through its metadata), so each request, and each redirect, must pass
// the rules a server cannot use to reach into the person's network:
//
//   - https, or plain http only to this computer;
//   - to a public internet address (linkcheck.PublicIP); this computer
//     (loopback) only when the MCP server itself is on it, a development
//     setup. The rule is checked on the address actually connected to, so
//     a name that resolves to a private address is refused too;
//   - no redirect to another origin, and at most five within one;
//   - an answer of at most MaxResponseBytes, and timeout for each request.
//
// Through a proxy (HTTPS_PROXY and the like) the connection is to the proxy,
// so the name's addresses are looked up and checked before the request
// instead; the proxy resolves the name again.
func NewClient(serverURL string, timeout time.Duration) *http.Client {
	g := guard{}
	if u, err := url.Parse(serverURL); err == nil {
		g.loopbackOK = linkcheck.LoopbackHost(u.Hostname())
	}
	direct := http.DefaultTransport.(*http.Transport).Clone()
	direct.Proxy = nil
	direct.DialContext = (&net.Dialer{Timeout: dialTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			host = address
		}
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return refuse(i18n.M("oauthflow.refuse.private", "host", host))
		}
		return g.checkIP(ip, host)
	}}).DialContext
	proxied := http.DefaultTransport.(*http.Transport).Clone()
	return &http.Client{
		Timeout:   timeout,
		Transport: &guardedTransport{g: g, direct: direct, proxied: proxied},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			from := via[len(via)-1].URL
			switch {
			case !linkcheck.SameOrigin(req.URL, via[0].URL):
				return refuse(i18n.M("oauthflow.refuse.redirect", "from", from.Redacted(), "to", linkcheck.Origin(req.URL)))
			case len(via) >= maxRedirects:
				return refuse(i18n.M("oauthflow.refuse.redirects", "url", via[0].URL.Redacted(), "n", maxRedirects))
			}
			return nil
		},
	}
}

// CheckBrowserAddress refuses an authorization URL the person's browser
// would be sent to by a sign-in to the MCP server at serverURL when it
// breaks NewClient's address rules: the server chooses that URL too (its
// authorization server's metadata), and the person was shown the server's
// host, not a router's or a service's on this computer. A name is looked
// up and each of its addresses checked (the browser looks it up again).
func CheckBrowserAddress(ctx context.Context, serverURL string, authURL *url.URL) error {
	g := guard{}
	if u, err := url.Parse(serverURL); err == nil {
		g.loopbackOK = linkcheck.LoopbackHost(u.Hostname())
	}
	if err := g.checkURL(authURL); err != nil {
		return err
	}
	if linkcheck.LoopbackHost(authURL.Hostname()) {
		return nil // allowed by checkURL: the server is on this computer too
	}
	return g.checkName(ctx, authURL.Hostname())
}

// guard holds the address rules of NewClient's client.
type guard struct {
	loopbackOK bool // the MCP server is on this computer
}

// checkURL refuses a request URL by its scheme and, when it is an IP
// address or "localhost", by its host, before anything is sent.
func (g guard) checkURL(u *url.URL) error {
	host := u.Hostname()
	loopback := linkcheck.LoopbackHost(host)
	switch {
	case u.Scheme == "https" && host != "":
	case u.Scheme == "http" && loopback:
	default:
		return refuse(i18n.M("oauthflow.refuse.scheme", "url", u.Redacted()))
	}
	if loopback {
		if !g.loopbackOK {
			return refuse(i18n.M("oauthflow.refuse.thisComputer", "host", host))
		}
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return g.checkIP(ip, host)
	}
	return nil
}

// checkIP refuses an address that is not public, unless it is this
// computer's and the MCP server is on this computer too.
func (g guard) checkIP(ip netip.Addr, host string) error {
	switch {
	case linkcheck.PublicIP(ip):
		return nil
	case ip.Unmap().IsLoopback() && ip.Zone() == "":
		if g.loopbackOK {
			return nil
		}
		return refuse(i18n.M("oauthflow.refuse.thisComputer", "host", host))
	}
	return refuse(i18n.M("oauthflow.refuse.private", "host", host))
}

// checkName looks a host name up and refuses it when any of its addresses
// is refused (for requests through a proxy, where the connection made is
// to the proxy).
func (g guard) checkName(ctx context.Context, host string) error {
	if _, err := netip.ParseAddr(host); err == nil {
		return nil // checked by checkURL
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return err
	}
	for _, ip := range ips {
		if err := g.checkIP(ip, host); err != nil {
			return err
		}
	}
	return nil
}

// guardedTransport applies guard to every request, redirects included,
// and bounds every answer's body.
type guardedTransport struct {
	g               guard
	direct, proxied *http.Transport
}

func (t *guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.g.checkURL(req.URL); err != nil {
		return nil, err
	}
	base := t.direct
	if proxy, err := http.ProxyFromEnvironment(req); err != nil {
		return nil, err
	} else if proxy != nil {
		if err := t.g.checkName(req.Context(), req.URL.Hostname()); err != nil {
			return nil, err
		}
		base = t.proxied
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &boundedBody{ReadCloser: resp.Body, left: MaxResponseBytes, host: req.URL.Host}
	return resp, nil
}

// boundedBody fails a read past its limit instead of handing on a body
// without end.
type boundedBody struct {
	io.ReadCloser
	left int64
	host string
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, refuse(i18n.M("oauthflow.refuse.tooLarge", "host", b.host, "size", "1 MiB"))
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n + int(b.left), refuse(i18n.M("oauthflow.refuse.tooLarge", "host", b.host, "size", "1 MiB"))
	}
	return n, err
}
