package app

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

// The window's page carries its Content-Security-Policy in a meta element
// (frontend/index.html): it may load its own files and data: images and
// sounds, and connect to nothing but itself. Nothing the window renders of
// a server's or a model's data can make a request or a DNS lookup (issue
// 22: the page also turns DNS prefetching off). The production binary
// serves that page as built.
//
// The development build (tag dev) serves the same page to a browser through
// Wails' dev server, whose bindings talk over a WebSocket on the loopback
// address; pagePolicy adds that address, and only it, to connect-src in the
// page that build serves.

// productionConnectSrc is the connect-src directive of the built page.
const productionConnectSrc = "connect-src 'self';"

// pagePolicy returns the asset server middleware that fits the page's
// policy to this build, or nil when the page is served as built (the
// production binary).
func pagePolicy() assetserver.Middleware {
	if devConnectSources == "" {
		return nil
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || (r.URL.Path != "/" && r.URL.Path != "" && r.URL.Path != "/index.html") {
				next.ServeHTTP(w, r)
				return
			}
			page := &pageRecorder{header: http.Header{}, status: http.StatusOK}
			next.ServeHTTP(page, r)
			body := withConnectSources(page.body.Bytes(), devConnectSources)
			for k, vs := range page.header {
				w.Header()[k] = vs
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(page.status)
			_, _ = w.Write(body)
		})
	}
}

// withConnectSources returns page with sources added to its policy's
// connect-src; page unchanged when its policy's connect-src is not the
// production one.
func withConnectSources(page []byte, sources string) []byte {
	return bytes.Replace(page, []byte(productionConnectSrc), []byte("connect-src 'self' "+sources+";"), 1)
}

// assetMiddleware chains the asset server middlewares that are set.
func assetMiddleware(mws ...assetserver.Middleware) assetserver.Middleware {
	var set []assetserver.Middleware
	for _, mw := range mws {
		if mw != nil {
			set = append(set, mw)
		}
	}
	if len(set) == 0 {
		return nil
	}
	return assetserver.ChainMiddleware(set...)
}
