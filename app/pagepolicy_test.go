package app

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gatehouse-app/gatehouse/appframe"
)

// pageMeta returns the content of the page's meta elements by http-equiv
// (lower case).
func pageMeta(t *testing.T, page []byte) map[string]string {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "meta" {
			var equiv, content string
			for _, a := range n.Attr {
				switch a.Key {
				case "http-equiv":
					equiv = strings.ToLower(a.Val)
				case "content":
					content = a.Val
				}
			}
			if equiv != "" {
				out[equiv] = content
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// directives splits a policy into its directives by name.
func directives(policy string) map[string][]string {
	out := map[string][]string{}
	for _, d := range strings.Split(policy, ";") {
		if f := strings.Fields(d); len(f) > 0 {
			out[f[0]] = f[1:]
		}
	}
	return out
}

// TestPagePolicy_Production: the page the production binary serves (the
// source and the built frontend/dist/index.html it embeds) connects to
// nothing but itself, loads images and sounds only as data: URLs beside its
// own files, frames nothing but MCP Apps (their own scheme, issue 24), and
// turns DNS prefetching off; this build serves it unchanged (issue 22:
// ws://127.0.0.1:* was allowed in the production page).
func TestPagePolicy_Production(t *testing.T) {
	if devConnectSources != "" {
		t.Skip("a development build")
	}
	if pagePolicy() != nil {
		t.Fatal("the production build changes the page it serves")
	}
	for _, path := range []string{"../frontend/index.html", "../frontend/dist/index.html"} {
		t.Run(filepath.Base(filepath.Dir(path))+"/index.html", func(t *testing.T) {
			page, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err) // the Go build embeds frontend/dist: it must exist
			}
			meta := pageMeta(t, page)
			policy := directives(meta["content-security-policy"])
			want := map[string]string{
				"default-src": "'self'",
				"connect-src": "'self'",
				"img-src":     "'self' data:",
				"media-src":   "'self' data:",
				"script-src":  "'self'",
				"object-src":  "'none'",
				"frame-src":   appframe.Scheme + ":",
				"base-uri":    "'none'",
				"form-action": "'none'",
			}
			for name, sources := range want {
				if got := strings.Join(policy[name], " "); got != sources {
					t.Errorf("%s is %q, want %q (policy %q)", name, got, sources, meta["content-security-policy"])
				}
			}
			for name, sources := range policy {
				for _, s := range sources {
					if strings.Contains(s, ":") && s != "data:" && (name != "frame-src" || s != appframe.Scheme+":") {
						t.Errorf("%s allows %s: the window must reach no other origin, and frame only MCP Apps", name, s)
					}
				}
			}
			if meta["x-dns-prefetch-control"] != "off" {
				t.Errorf("x-dns-prefetch-control is %q, want off", meta["x-dns-prefetch-control"])
			}
		})
	}
}

// TestPagePolicy_OnlyTheDevBuildAddsItsWebSocket: the development build's
// page may also connect to its dev server's WebSocket on the loopback
// address, and to nothing else; other files pass unchanged.
func TestPagePolicy_OnlyTheDevBuildAddsItsWebSocket(t *testing.T) {
	page, err := os.ReadFile("../frontend/index.html")
	if err != nil {
		t.Fatal(err)
	}
	got := directives(pageMeta(t, withConnectSources(page, "ws://127.0.0.1:* ws://localhost:*"))["content-security-policy"])
	if strings.Join(got["connect-src"], " ") != "'self' ws://127.0.0.1:* ws://localhost:*" {
		t.Errorf("the dev page's connect-src is %q", got["connect-src"])
	}
	if strings.Join(got["img-src"], " ") != "'self' data:" {
		t.Errorf("the dev page's img-src changed: %q", got["img-src"])
	}

	mw := pagePolicy()
	if devConnectSources == "" {
		if mw != nil {
			t.Error("the production build has a page policy middleware")
		}
		return
	}
	files := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			_, _ = w.Write(page)
			return
		}
		_, _ = w.Write([]byte("connect-src 'self';")) // a script that happens to hold the text
	})
	h := assetMiddleware(mw, nil)(files)
	for path, wantWS := range map[string]bool{"/": true, "/assets/start.js": false} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if strings.Contains(rec.Body.String(), "ws://127.0.0.1:*") != wantWS {
			t.Errorf("%s: the WebSocket source added: %v, want %v", path, !wantWS, wantWS)
		}
		if rec.Header().Get("Content-Length") != "" && rec.Header().Get("Content-Length") != strconv.Itoa(rec.Body.Len()) {
			t.Errorf("%s: Content-Length %s for %d bytes", path, rec.Header().Get("Content-Length"), rec.Body.Len())
		}
	}
}
