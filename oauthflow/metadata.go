package oauthflow

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/gatehouse-app/gatehouse/linkcheck"
)

// CheckResourceMetadata refuses to sign in to a server whose protected
// resource metadata (RFC 9728) is for another resource. The SDK skips such
// metadata, and when it finds no other it falls back to the 2025-03-26 rule
// (the server's own origin as authorization server), as if the server had
// published none; but metadata naming another resource must not be used at
// all (RFC 9728 section 3.3), so Gatehouse stops there, before any request
// to an authorization server. It looks where the SDK looks, in the same
// order (the challenge's resource_metadata, then the path-based and the root
// well-known URLs), and is satisfied by the first metadata for the right
// resource; metadata it cannot fetch or read is left to the SDK. resp is the
// 401 or 403 answer to a request to serverURL; only its headers are read.
func CheckResourceMetadata(ctx context.Context, resp *http.Response, serverURL string) error {
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return nil // the SDK reports it
	}
	metadataURL, bearerError := "", ""
	for _, c := range challenges {
		if metadataURL == "" {
			metadataURL = c.Params["resource_metadata"]
		}
		if c.Scheme == "bearer" && bearerError == "" {
			bearerError = c.Params["error"]
		}
	}
	if resp.StatusCode == http.StatusForbidden && bearerError != "insufficient_scope" {
		return nil // not a sign-in: the SDK retries the request as it is
	}
	var wrong []string
	tried := map[string]bool{}
	for _, c := range resourceMetadataCandidates(metadataURL, serverURL) {
		if tried[c.url] {
			continue // the challenge named the usual place
		}
		tried[c.url] = true
		resource, ok := fetchResourceMetadata(ctx, c.url)
		if !ok {
			continue
		}
		if resource == c.resource {
			return nil
		}
		wrong = append(wrong, fmt.Sprintf("%s is for %q", c.url, resource))
	}
	if len(wrong) == 0 {
		return nil
	}
	return fmt.Errorf("the server's protected resource metadata is for another resource than %s (%s); Gatehouse does not sign in with it",
		serverURL, strings.Join(wrong, "; "))
}

type metadataCandidate struct{ url, resource string }

// resourceMetadataCandidates lists where protected resource metadata for
// serverURL may be, with the resource each must name: the URL of the 401's
// challenge, then "/.well-known/oauth-protected-resource" with the server's
// path (for the server URL), then without it (for the origin).
func resourceMetadataCandidates(challengeURL, serverURL string) []metadataCandidate {
	var out []metadataCandidate
	if challengeURL != "" {
		out = append(out, metadataCandidate{challengeURL, serverURL})
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return out
	}
	wk := *u
	wk.Path, wk.RawPath = "/.well-known/oauth-protected-resource/"+strings.TrimLeft(u.Path, "/"), ""
	out = append(out, metadataCandidate{wk.String(), serverURL})
	wk.Path = "/.well-known/oauth-protected-resource"
	origin := *u
	origin.Path, origin.RawPath = "", ""
	return append(out, metadataCandidate{wk.String(), origin.String()})
}

// fetchResourceMetadata reads the resource a protected resource metadata
// document names; ok is false when there is no readable document at u. Like
// the SDK it fetches only https (or http on this computer) and only from
// public addresses, and it does not follow redirects.
func fetchResourceMetadata(ctx context.Context, u string) (resource string, ok bool) {
	if _, err := linkcheck.Check(u); err != nil { // https, or http on this computer
		return "", false
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", false
	}
	req.Header.Set("Accept", "application/json")
	client := metadataClient
	if proxy, _ := http.ProxyFromEnvironment(req); proxy != nil {
		client = proxiedMetadataClient // the address check would only see the proxy
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", false
	}
	var prm struct {
		Resource *string `json:"resource"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&prm); err != nil || prm.Resource == nil {
		return "", false
	}
	return *prm.Resource, true
}

// metadataClient fetches metadata from public addresses and this computer
// only, so a server cannot make Gatehouse reach into the local network.
var metadataClient = &http.Client{
	Timeout:       10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	Transport: func() http.RoundTripper {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil
		t.DialContext = (&net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				host = address
			}
			ip, err := netip.ParseAddr(host)
			if err != nil || !(linkcheck.PublicIP(ip) || ip.Unmap().IsLoopback()) {
				return fmt.Errorf("metadata is not fetched from %s, which is not a public address", host)
			}
			return nil
		}}).DialContext
		return t
	}(),
}

var proxiedMetadataClient = &http.Client{
	Timeout:       10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}
