package linkcheck

import (
	"net/netip"
	"net/url"
	"testing"
)

// TestPublicIP: which addresses may be hosts on the public internet. The
// sign-in client (package oauthflow) sends requests only to these, so every
// special-purpose block must be out, and an IPv6 address that carries an
// IPv4 one is judged by the address it carries (issue 22, item 1).
func TestPublicIP(t *testing.T) {
	for _, tc := range []struct {
		ip     string
		public bool
	}{
		{"93.184.216.34", true},
		{"2606:2800:220:1:248:1893:25c8:1946", true},
		{"10.0.0.1", false},
		{"172.16.5.4", false},
		{"192.168.1.1", false},
		{"127.0.0.2", false},
		{"169.254.169.254", false}, // cloud metadata (link-local)
		{"100.64.0.1", false},      // shared address space
		{"0.1.2.3", false},         // "this network"
		{"192.0.0.8", false},       // IETF protocol assignments
		{"192.0.2.1", false},       // documentation
		{"198.18.0.1", false},      // benchmarking
		{"203.0.113.9", false},     // documentation
		{"240.0.0.1", false},       // reserved
		{"255.255.255.255", false}, // broadcast
		{"224.0.0.1", false},       // multicast
		{"::1", false},
		{"::", false},
		{"fd00::1", false},             // unique local
		{"fe80::1", false},             // link-local
		{"fec0::1", false},             // site-local
		{"::ffff:10.0.0.1", false},     // IPv4-mapped private
		{"::ffff:93.184.216.34", true}, // IPv4-mapped public
		{"::10.0.0.1", false},          // IPv4-compatible
		{"64:ff9b::a00:1", false},      // NAT64 of 10.0.0.1
		{"64:ff9b::5db8:d822", true},   // NAT64 of 93.184.216.34
		{"64:ff9b:1::1", false},        // local-use NAT64
		{"2002:a00:1::1", false},       // 6to4 of 10.0.0.1
		{"2002:5db8:d822::1", true},    // 6to4 of 93.184.216.34
		{"2001::1", false},             // Teredo
		{"2001:db8::1", false},         // documentation
		{"100::1", false},              // discard-only
	} {
		if got := PublicIP(netip.MustParseAddr(tc.ip)); got != tc.public {
			t.Errorf("PublicIP(%s) = %v, want %v", tc.ip, got, tc.public)
		}
	}
}

// TestLoopbackHost: only "localhost" and loopback addresses name this
// computer, not names that look like them.
func TestLoopbackHost(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"localhost", true}, {"LOCALHOST", true}, {"localhost.", true},
		{"127.0.0.1", true}, {"127.1.2.3", true}, {"::1", true}, {"::ffff:127.0.0.1", true},
		{"localhost.example.com", false}, {"127.0.0.1.example.com", false}, {"example.com", false},
		{"10.0.0.1", false}, {"0.0.0.0", false}, {"", false}, {"fe80::1%lo", false},
	} {
		if got := LoopbackHost(tc.host); got != tc.want {
			t.Errorf("LoopbackHost(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

// TestSameOrigin: scheme, host and port, default ports written out.
func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://mcp.example/mcp", "https://mcp.example:443/other?x", true},
		{"https://MCP.example/mcp", "https://mcp.example/mcp", true},
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/messages", true},
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8081/mcp", false},
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.2:8080/mcp", false},
		{"http://mcp.example/mcp", "https://mcp.example/mcp", false},
		{"https://mcp.example/mcp", "https://evil.mcp.example/mcp", false},
		{"https://[::1]:8443/a", "https://[::1]:8443/b", true},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := SameOrigin(a, b); got != tc.want {
			t.Errorf("SameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
