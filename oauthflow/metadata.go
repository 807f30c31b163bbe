package oauthflow

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
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
	if !StartsSignIn(resp) {
		return nil // not a sign-in: the SDK retries the request as it is
	}
	metadataURL := ""
	for _, c := range challenges {
		if metadataURL == "" {
			metadataURL = c.Params["resource_metadata"]
		}
	}
	client := NewClient(serverURL, metadataTimeout)
	var wrong []string
	tried := map[string]bool{}
	for _, c := range resourceMetadataCandidates(metadataURL, serverURL) {
		if tried[c.url] {
			continue // the challenge named the usual place
		}
		tried[c.url] = true
		resource, ok := fetchResourceMetadata(ctx, client, c.url)
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

// StartsSignIn reports whether a 401 or 403 answer asks for a sign-in, as
// the SDK's handler decides: a 401 does, a 403 only when its Bearer
// challenge asks for more scope (error="insufficient_scope", the step-up of
// the MCP specification); the SDK retries a request answered with another
// 403 as it is, and that answer stands.
func StartsSignIn(resp *http.Response) bool {
	if resp.StatusCode != http.StatusForbidden {
		return true
	}
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return true // the SDK's handler reports it
	}
	for _, c := range challenges {
		if c.Scheme == "bearer" && c.Params["error"] != "" {
			return c.Params["error"] == "insufficient_scope"
		}
	}
	return false
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

// metadataTimeout bounds each request for protected resource metadata.
const metadataTimeout = 10 * time.Second

// fetchResourceMetadata reads the resource a protected resource metadata
// document names; ok is false when there is no readable document at u.
// Like the SDK it fetches only https (or http on this computer), and
// client (NewClient's) keeps it to the addresses a sign-in may reach.
func fetchResourceMetadata(ctx context.Context, client *http.Client, u string) (resource string, ok bool) {
	if _, err := linkcheck.Check(u); err != nil { // https, or http on this computer
		return "", false
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", false
	}
	req.Header.Set("Accept", "application/json")
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
	if err := json.NewDecoder(resp.Body).Decode(&prm); err != nil || prm.Resource == nil {
		return "", false
	}
	return *prm.Resource, true
}
