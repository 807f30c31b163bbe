package linkcheck

import (
	"net/netip"
	"net/url"
	"strings"
)

// LoopbackHost reports whether host (as url.URL.Hostname gives it: no port,
// no brackets) names this computer: "localhost" (any case, with or without
// a final dot) or an IP address in 127.0.0.0/8 or ::1, IPv4-mapped ones
// included. Names that merely start or end like it (localhost.example,
// 127.0.0.1.example) are not.
func LoopbackHost(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.Unmap().IsLoopback()
}

// Origin is a URL's origin as browsers compare them (RFC 6454): the
// scheme, the host in lower case and the port, with the scheme's default
// port written out, e.g. "https://mcp.example:443".
func Origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + ":" + port
}

// SameOrigin reports whether a and b have the same origin (Origin).
func SameOrigin(a, b *url.URL) bool { return Origin(a) == Origin(b) }
