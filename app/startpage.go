package app

import (
	"bytes"
	"encoding/json"
	"log"
	"net/http"
	"strconv"

	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

// StartView is what the window's first frame shows that only Go knows: the
// language, the theme, the server list and whether the welcome was
// dismissed. startPage writes it into the page it serves, so that the first
// frame waits for no call to Go (issue 15, P4: each was a round trip through
// WebKit before the page could draw). The page follows changes as before,
// with events and by reading again.
type StartView struct {
	Language         LanguageView `json:"language"`
	Theme            ThemeView    `json:"theme"`
	Servers          ServerList   `json:"servers"`
	WelcomeDismissed bool         `json:"welcomeDismissed"`
}

// startViewID is the id of the data element that carries StartView in the
// page (frontend/src/lib/startview.ts reads it).
const startViewID = "gatehouse-start"

// startView reads StartView from the core.
func startView(settings *SettingsService, themes *ThemeService, servers *ServersService) (StartView, error) {
	var v StartView
	var err error
	if v.Language, err = settings.Language(); err != nil {
		return v, err
	}
	if v.Theme, err = themes.Get(); err != nil {
		return v, err
	}
	if v.Servers, err = servers.List(); err != nil {
		return v, err
	}
	v.WelcomeDismissed, err = settings.WelcomeDismissed()
	return v, err
}

// windowPage is startPage for the window: each time it serves the page
// (the window opens or reloads), the previous page's apps are closed first,
// so that Go no longer counts them against their maximum, and the page's
// first frame waits for no call to Go to close them (P4).
func windowPage(settings *SettingsService, themes *ThemeService, servers *ServersService, apps *AppsService) assetserver.Middleware {
	return startPage(func() (StartView, error) {
		apps.CloseAll()
		return startView(settings, themes, servers)
	})
}

// startPage is the asset server's middleware that adds StartView to the
// page's index.html as a data element:
//
//	<script type="application/json" id="gatehouse-start">{…}</script>
//
// It is data, not script: its type is not JavaScript, so the engine never
// runs it and the page's Content-Security-Policy (no inline scripts) stays
// as it is; the page reads it with JSON.parse. Server names and every other
// string in it are JSON-escaped with <, > and & as \u003c, \u003e and
// \u0026, so no text can close the element. When view fails, the page is
// served as it is and asks Go for each part, as outside the app.
func startPage(view func() (StartView, error)) assetserver.Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || (r.URL.Path != "/" && r.URL.Path != "" && r.URL.Path != "/index.html") {
				next.ServeHTTP(w, r)
				return
			}
			// The page carries the moment it was served: never "not modified"
			// (the copy a browser kept has an older view), never kept.
			r = r.Clone(r.Context())
			for _, h := range []string{"If-Modified-Since", "If-None-Match", "If-Range", "Range"} {
				r.Header.Del(h)
			}
			page := &pageRecorder{header: http.Header{}, status: http.StatusOK}
			next.ServeHTTP(page, r)
			page.header.Del("Last-Modified")
			page.header.Del("ETag")
			page.header.Set("Cache-Control", "no-store")
			body := page.body.Bytes()
			if page.status == http.StatusOK {
				if v, err := view(); err != nil {
					log.Printf("gatehouse: the window's start view: %v", err)
				} else {
					body = withStartView(body, v)
				}
			}
			for k, vs := range page.header {
				w.Header()[k] = vs
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(page.status)
			_, _ = w.Write(body)
		})
	}
}

// withStartView returns page with v's data element at the end of its head;
// page unchanged when it has no head or v does not encode.
func withStartView(page []byte, v StartView) []byte {
	i := bytes.Index(page, []byte("</head>"))
	if i < 0 {
		return page
	}
	data, err := json.Marshal(v) // escapes <, > and & (see startPage)
	if err != nil {
		log.Printf("gatehouse: the window's start view: %v", err)
		return page
	}
	var out bytes.Buffer
	out.Grow(len(page) + len(data) + 80)
	out.Write(page[:i])
	out.WriteString(`<script type="application/json" id="` + startViewID + `">`)
	out.Write(data)
	out.WriteString("</script>\n")
	out.Write(page[i:])
	return out.Bytes()
}

// pageRecorder keeps what the asset server writes for the page, so that
// startPage can add to it before it goes to WebKit.
type pageRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Header implements http.ResponseWriter.
func (p *pageRecorder) Header() http.Header { return p.header }

// WriteHeader implements http.ResponseWriter.
func (p *pageRecorder) WriteHeader(status int) { p.status = status }

// Write implements http.ResponseWriter.
func (p *pageRecorder) Write(b []byte) (int, error) { return p.body.Write(b) }
