package oauthflow

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveOn runs handler on addr (host:0) and returns its base URL, or skips
// when the address cannot be listened on.
func serveOn(t *testing.T, addr string, handler http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String()
}

// TestNewClient_E33 (issue 22, item 1): every sign-in request keeps to the
// addresses a sign-in may reach, whatever the server's metadata names: no
// redirect to another origin (the "internal" listener on 127.0.0.2 never
// gets a request), no address on this computer unless the MCP server is on
// it, no private or link-local address, https unless this computer, and a
// bounded answer.
func TestNewClient_E33(t *testing.T) {
	var mu sync.Mutex
	var internalSeen []string
	internal := serveOn(t, "127.0.0.2:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		internalSeen = append(internalSeen, r.Method+" "+r.URL.Path)
		mu.Unlock()
	}))
	mux := http.NewServeMux()
	mux.HandleFunc("/meta", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"ok":true}`) })
	mux.HandleFunc("/to-internal", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, internal+"/admin/reboot", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/meta", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		chunk := strings.Repeat("x", 64<<10)
		for range 40 { // 2.5 MiB
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	})
	local := serveOn(t, "127.0.0.1:0", mux)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(local, "http://"))

	// A name of this machine that resolves to a loopback address (Debian
	// maps the host name to 127.0.1.1), for the check made on connecting.
	loopbackName := ""
	if name, err := os.Hostname(); err == nil {
		if ips, err := net.DefaultResolver.LookupNetIP(t.Context(), "ip4", name); err == nil && len(ips) > 0 && ips[0].IsLoopback() && ips[0] != netip.MustParseAddr("127.0.0.1") {
			loopbackName = name
		}
	}

	const remote = "https://mcp.example/mcp" // an MCP server on the internet
	for _, tc := range []struct {
		name, server, url string
		refused           string // part of the refusal; "" when the answer is read
	}{
		{"a server on this computer may use this computer", local + "/mcp", local + "/meta", ""},
		{"a redirect within the origin is followed", local + "/mcp", local + "/old", ""},
		{"a redirect to another origin is refused", local + "/mcp", local + "/to-internal", "redirected to another origin (http://127.0.0.2:"},
		{"endless redirects within the origin stop", local + "/mcp", local + "/loop", "redirected more than 5 times"},
		{"an answer over the limit fails", local + "/mcp", local + "/big", "is larger than 1 MiB"},
		{"this computer, for a server on the internet", remote, local + "/meta", "to this computer (127.0.0.1)"},
		{"localhost, for a server on the internet", remote, "http://localhost:" + port + "/meta", "to this computer (localhost)"},
		{"a private address", remote, "https://10.1.2.3/register", "to 10.1.2.3, which is not a public internet address"},
		{"a link-local address (cloud metadata)", remote, "https://169.254.169.254/latest/meta-data", "169.254.169.254, which is not a public"},
		{"a unique local IPv6 address", remote, "https://[fd00::1]/token", "fd00::1, which is not a public"},
		{"an IPv4-mapped private address", remote, "https://[::ffff:192.168.1.1]/token", "which is not a public"},
		{"a NAT64 address of a private one", remote, "https://[64:ff9b::a00:1]/token", "which is not a public"},
		{"plain http to the internet", remote, "http://as.example/token", "only over https"},
		{"plain http to a private address", local + "/mcp", "http://10.1.2.3/token", "only over https"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := NewClient(tc.server, 5*time.Second)
			resp, err := client.Get(tc.url)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused) || !errors.Is(err, ErrRefused)):
				t.Errorf("got %v; want a refusal saying %q", err, tc.refused)
			}
			if tc.refused != "" {
				if _, ok := Refusal(err); !ok {
					t.Errorf("Refusal does not find the sentence in %v", err)
				}
			}
		})
	}
	t.Run("a name that resolves to this computer, for a server on the internet", func(t *testing.T) {
		if loopbackName == "" {
			t.Skip("this machine's name does not resolve to a loopback address other than 127.0.0.1")
		}
		_, err := NewClient(remote, 5*time.Second).Get("https://" + loopbackName + ":" + port + "/meta")
		if err == nil || !strings.Contains(err.Error(), "to this computer") || !errors.Is(err, ErrRefused) {
			t.Errorf("got %v; want the connection refused", err)
		}
	})
	mu.Lock()
	defer mu.Unlock()
	if len(internalSeen) > 0 {
		t.Errorf("the internal address received %q", internalSeen)
	}
}
