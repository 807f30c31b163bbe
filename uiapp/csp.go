package uiapp

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
)

// Bounds of a resource's declared origins.
const (
	// MaxDomains bounds each list of declared origins; the rest are dropped.
	MaxDomains = 32
	// MaxDomainLength bounds one declared origin.
	MaxDomainLength = 253 + len("https://*.") + len(":65535")
)

// Permissions an app may declare (_meta.ui.permissions), in the order the
// window lists them.
var Permissions = []string{"camera", "microphone", "geolocation", "clipboardWrite"}

// Resource is what an app's resource declares in its _meta.ui, on the
// content item read, or (for what the item leaves out) on its listing.
type Resource struct {
	CSP CSP
	// Permissions are the declared ones of Permissions, in that order.
	Permissions []string
	// PrefersBorder is the app's wish for a visible border.
	PrefersBorder bool
	// Dropped says, for each declared origin that was dropped, why.
	Dropped []i18n.Message
}

// CSP are the network origins an app declared, each checked (ValidOrigin).
type CSP struct {
	Connect  []string // connect-src: fetch, XHR, WebSocket
	Resource []string // scripts, styles, images, fonts, media
	Frame    []string // nested frames
	BaseURI  []string // base-uri
}

// ReadResource reads a resource's _meta.ui: item is the content item's
// _meta, listed the listing's (either may be nil). The item's csp,
// permissions and prefersBorder each win over the listing's.
func ReadResource(item, listed map[string]any) Resource {
	ui, _ := item["ui"].(map[string]any)
	fallback, _ := listed["ui"].(map[string]any)
	pick := func(key string) any {
		if v, ok := ui[key]; ok && v != nil {
			return v
		}
		return fallback[key]
	}
	var r Resource
	csp, _ := pick("csp").(map[string]any)
	r.CSP.Connect = r.origins(csp, "connectDomains")
	r.CSP.Resource = r.origins(csp, "resourceDomains")
	r.CSP.Frame = r.origins(csp, "frameDomains")
	r.CSP.BaseURI = r.origins(csp, "baseUriDomains")
	perms, _ := pick("permissions").(map[string]any)
	for _, p := range Permissions {
		if v, ok := perms[p]; ok && v != nil && v != false {
			r.Permissions = append(r.Permissions, p)
		}
	}
	r.PrefersBorder, _ = pick("prefersBorder").(bool)
	return r
}

// origins reads one list of declared origins, keeping the valid ones (at
// most MaxDomains, each once) and saying why each other was dropped.
func (r *Resource) origins(csp map[string]any, key string) []string {
	raw, present := csp[key]
	if !present || raw == nil {
		return nil
	}
	list, ok := raw.([]any)
	if !ok {
		r.Dropped = append(r.Dropped, i18n.M("apps.csp.notList", "list", key))
		return nil
	}
	var out []string
	for i, v := range list {
		if len(out) == MaxDomains {
			r.Dropped = append(r.Dropped, i18n.M("apps.csp.tooMany", "list", key, "count", len(list)-i, "max", MaxDomains))
			break
		}
		s, _ := v.(string)
		origin, why, ok := ValidOrigin(s)
		if !ok {
			r.Dropped = append(r.Dropped, i18n.M("apps.csp.dropped", "list", key, "origin", shown(s), "why", why))
			continue
		}
		if !contains(out, origin) {
			out = append(out, origin)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// ValidOrigin checks one declared origin and returns it as the policy
// writes it (scheme and host in lower case). Accepted: https:// or wss://
// with a host name or address, an optional leading "*." wildcard over a
// name of at least two labels, an optional port and an optional plain
// path; http:// or ws:// only on loopback (localhost, 127.0.0.0/8, [::1]).
// Anything else — no scheme, other schemes (data:, blob:, javascript:,
// file:), a bare or inner "*", quotes, semicolons, commas, spaces,
// control characters, user information, a query or fragment — is refused
// with why, in a sentence.
func ValidOrigin(s string) (origin string, why i18n.Message, ok bool) {
	refuse := func(why i18n.Message) (string, i18n.Message, bool) { return "", why, false }
	if s == "" || len(s) > MaxDomainLength {
		return refuse(i18n.M("apps.csp.why.length"))
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`'";,\`+"`<>{}|^", c) >= 0 {
			return refuse(i18n.M("apps.csp.why.character"))
		}
	}
	scheme, rest, found := strings.Cut(s, "://")
	if !found {
		return refuse(i18n.M("apps.csp.why.scheme"))
	}
	scheme = strings.ToLower(scheme)
	if scheme != "https" && scheme != "wss" && scheme != "http" && scheme != "ws" {
		return refuse(i18n.M("apps.csp.why.scheme"))
	}
	authority, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	if strings.ContainsAny(path, "?#*%") || strings.Contains(path, "//") || strings.Contains(path, "/..") || strings.Contains(path, "/./") {
		return refuse(i18n.M("apps.csp.why.path"))
	}
	if strings.ContainsAny(authority, "@") {
		return refuse(i18n.M("apps.csp.why.character"))
	}
	host, port := authority, ""
	if strings.HasPrefix(authority, "[") {
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return refuse(i18n.M("apps.csp.why.host"))
		}
		host, port = authority[:end+1], strings.TrimPrefix(authority[end+1:], ":")
		if authority[end+1:] != "" && !strings.HasPrefix(authority[end+1:], ":") {
			return refuse(i18n.M("apps.csp.why.host"))
		}
	} else if h, p, has := strings.Cut(authority, ":"); has {
		host, port = h, p
	}
	if port != "" || strings.HasSuffix(authority, ":") {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
			return refuse(i18n.M("apps.csp.why.port"))
		}
	}
	host = strings.ToLower(host)
	wildcard := strings.HasPrefix(host, "*.")
	name := strings.TrimPrefix(host, "*.")
	if !validHost(name, wildcard) {
		return refuse(i18n.M("apps.csp.why.host"))
	}
	if (scheme == "http" || scheme == "ws") && (wildcard || !linkcheck.LoopbackHost(strings.Trim(name, "[]"))) {
		return refuse(i18n.M("apps.csp.why.plain"))
	}
	origin = scheme + "://" + host
	if port != "" {
		origin += ":" + port
	}
	return origin + path, i18n.Message{}, true
}

// validHost reports whether host is a DNS name of letters, digits and
// hyphens (punycode included), an IPv4 address, or a bracketed IPv6
// address; under a wildcard, a name of at least two labels.
func validHost(host string, wildcard bool) bool {
	if strings.HasPrefix(host, "[") {
		a, err := netip.ParseAddr(strings.Trim(host, "[]"))
		return !wildcard && err == nil && a.Is6() && a.Zone() == "" && strings.HasSuffix(host, "]")
	}
	if host == "" || len(host) > 253 {
		return false
	}
	labels := strings.Split(host, ".")
	if wildcard && len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range []byte(l) {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	last := labels[len(labels)-1]
	if last[0] >= '0' && last[0] <= '9' { // numeric: a plain dotted IPv4 address only
		a, err := netip.ParseAddr(host)
		return !wildcard && err == nil && a.Is4() && a.String() == host
	}
	return true
}

// Header is the Content-Security-Policy an app runs under: nothing but
// its own files, inline scripts and styles, and the origins it declared,
// each for what it declared it for. No eval, no plugins, no forms, no
// other frames unless declared.
//
// Scripts may also come from data: URLs. Bundled apps ship their workers
// inline that way: server-pdf's pdf.js starts a blob: module worker that
// imports its code from a data: URL (and, without a worker, imports it in
// the page); the worker inherits this policy, so without data: the import
// fails silently and the viewer waits forever. A data: script is text the
// app already holds, fetched from nowhere, and 'unsafe-inline' already
// lets the app run any text it holds as a script, so this grants nothing
// new: no network, no eval of the app's own page beyond what inline
// scripts can do. blob: stays out of script-src (workers only).
func (c CSP) Header() string {
	list := func(base string, origins []string, none bool) string {
		parts := []string{}
		if base != "" {
			parts = append(parts, base)
		}
		parts = append(parts, origins...)
		if len(parts) == 0 && none {
			return "'none'"
		}
		return strings.Join(parts, " ")
	}
	res := c.Resource
	directives := []string{
		"default-src 'none'",
		"script-src " + list("'self' 'unsafe-inline' data:", res, false),
		"style-src " + list("'self' 'unsafe-inline'", res, false),
		"img-src " + list("'self' data: blob:", res, false),
		"font-src " + list("'self' data:", res, false),
		"media-src " + list("'self' data: blob:", res, false),
		"connect-src " + list("'self'", c.Connect, false),
		"frame-src " + list("", c.Frame, true),
		"base-uri " + list("'self'", c.BaseURI, false),
		"worker-src 'self' blob:",
		"form-action 'none'",
		"object-src 'none'",
	}
	return strings.Join(directives, "; ")
}
