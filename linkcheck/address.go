package linkcheck

import (
	"net/netip"
	"net/url"
	"strings"
)

// Addresses and origins: which IP addresses are public (for link warnings
// and for the addresses sign-in requests may reach), which hosts name this
// computer, and whether two URLs share an origin.

// notPublic are the address blocks, beyond those netip names (private,
// loopback, link-local, unspecified, multicast), that never name a host on
// the public internet (RFC 6890's special-purpose registries): a server
// that names one is pointing into the person's network or at nothing.
var notPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space (carrier-grade NAT)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation (TEST-NET-1)
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation (TEST-NET-2)
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation (TEST-NET-3)
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
	netip.MustParsePrefix("::/96"),           // IPv4-compatible IPv6 (deprecated)
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64 (RFC 8215): a network's own translator
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001::/32"),       // Teredo: the IPv4 address inside cannot be judged
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated, still routed inside networks)
}

// Translation prefixes carry an IPv4 address in an IPv6 one; the address is
// as public as the IPv4 address it carries.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// PublicIP reports whether ip may be a host on the public internet: it is
// none of private, loopback, link-local, unspecified, multicast, or the
// special-purpose blocks of notPublic (shared, documentation, benchmarking,
// reserved, broadcast, ...), and an IPv6 address that carries an IPv4 one
// (IPv4-mapped, NAT64, 6to4) is judged by the IPv4 address it carries. A
// link to any other IP address gets WarnPrivate, and sign-in requests
// (package oauthflow) are never sent to one.
func PublicIP(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.Zone() != "" {
		return false
	}
	switch {
	case ip.IsPrivate(), ip.IsLoopback(), ip.IsLinkLocalUnicast(), ip.IsUnspecified(),
		ip.IsMulticast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast():
		return false
	}
	for _, p := range notPublic {
		if p.Contains(ip) {
			return false
		}
	}
	b := ip.As16()
	if nat64.Contains(ip) {
		return PublicIP(netip.AddrFrom4([4]byte(b[12:16])))
	}
	if sixToFour.Contains(ip) {
		return PublicIP(netip.AddrFrom4([4]byte(b[2:6])))
	}
	return true
}

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
