package app

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/theme"
)

const testIndex = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Gatehouse</title>` +
	`<script type="module" crossorigin src="/assets/start.js"></script></head><body><div id="app"></div></body></html>`

// assetFiles serves the page and its script as Wails' asset handler does
// (whose package needs the cgo webview to build).
var assetFiles = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/", "/index.html":
		if r.Header.Get("If-Modified-Since") != "" { // as http.ServeContent answers a reload
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Last-Modified", "Mon, 23 Nov 2026 00:00:00 GMT")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, testIndex)
	case "/assets/start.js":
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = io.WriteString(w, "export {}")
	default:
		http.NotFound(w, r)
	}
})

// servePage serves path with startPage as the asset server's middleware, as the window gets it.
func servePage(t *testing.T, path string, view func() (StartView, error), header ...string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "wails://wails"+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	startPage(view)(assetFiles).ServeHTTP(rec, req)
	if rec.Code == http.StatusOK && strings.Contains(rec.Body.String(), startViewID) &&
		(rec.Header().Get("Cache-Control") != "no-store" || rec.Header().Get("Last-Modified") != "") {
		t.Errorf("a page with a start view may be kept: Cache-Control %q, Last-Modified %q",
			rec.Header().Get("Cache-Control"), rec.Header().Get("Last-Modified"))
	}
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body)
}

// scripts parses page as WebKit would and returns its script elements: type and text.
func scripts(t *testing.T, page string) (types, texts []string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "script" {
			typ, text := "", ""
			for _, a := range n.Attr {
				if a.Key == "type" {
					typ = a.Val
				}
			}
			if n.FirstChild != nil {
				text = n.FirstChild.Data
			}
			types, texts = append(types, typ), append(texts, text)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return types, texts
}

func TestStartPage_ThePageBringsWhatItsFirstFrameShows(t *testing.T) {
	core, _ := openTestCore(t)
	servers := NewServersService(core)
	// A name that would end the data element and run a script if it were written as it is.
	hostile := `</script><script>alert(1)</script><!-- & "quoted"`
	if _, err := servers.Add(ServerInput{Name: hostile, Transport: store.TransportStdio, Command: "true"}); err != nil {
		t.Fatal(err)
	}
	settings := NewSettingsService(core)
	if _, err := settings.SetLanguage("zh-CN"); err != nil {
		t.Fatal(err)
	}
	themes := NewThemeService(core, &standInDesktop{preferred: theme.Dark})

	code, page := servePage(t, "/", func() (StartView, error) { return startView(settings, themes, servers) })
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	types, texts := scripts(t, page)
	// The page's module and the start view, data: nothing else.
	if want := []string{"module", "application/json"}; strings.Join(types, ",") != strings.Join(want, ",") {
		t.Fatalf("the page's scripts have types %q, want %q:\n%s", types, want, page)
	}
	if !strings.Contains(page, `id="`+startViewID+`"`) {
		t.Fatalf("the data element has no id %q:\n%s", startViewID, page)
	}
	var got StartView
	if err := json.Unmarshal([]byte(texts[1]), &got); err != nil {
		t.Fatalf("the start view is not JSON: %v\n%s", err, texts[1])
	}
	want, err := startView(settings, themes, servers)
	if err != nil {
		t.Fatal(err)
	}
	if got.Language != want.Language || got.Theme != want.Theme || got.WelcomeDismissed != want.WelcomeDismissed {
		t.Errorf("the page says language %+v, theme %+v, welcome dismissed %v; Go says %+v, %+v, %v",
			got.Language, got.Theme, got.WelcomeDismissed, want.Language, want.Theme, want.WelcomeDismissed)
	}
	if got.Language.Choice != "zh-CN" || got.Theme.System != "dark" {
		t.Errorf("the page says language %q and the desktop %q, want the stored zh-CN and the desktop's dark", got.Language.Choice, got.Theme.System)
	}
	if g := got.Servers.Servers; len(g) != len(want.Servers.Servers) || len(g) == 0 || g[len(g)-1].Input.Name != hostile || got.Servers.Version == 0 {
		t.Errorf("the page lists %+v, want the servers Go lists, the last named %q", got.Servers, hostile)
	}
}

func TestStartPage_LeavesEverythingElseAsItIs(t *testing.T) {
	view := func() (StartView, error) { return StartView{Servers: ServerList{Servers: []ServerView{}}}, nil }
	tests := []struct {
		name, path string
		view       func() (StartView, error)
		dataShown  bool
		header     []string
	}{
		{"the page at / carries the start view", "/", view, true, nil},
		{"the page as /index.html carries the start view", "/index.html", view, true, nil},
		{"a reload gets the page anew, not a kept copy with an older view", "/", view, true,
			[]string{"If-Modified-Since", "Mon, 23 Nov 2026 00:00:00 GMT"}},
		{"a script is served as it is", "/assets/start.js", view, false, nil},
		{"when Go cannot read the view the page comes without it and asks Go", "/",
			func() (StartView, error) { return StartView{}, errors.New("the store is closed") }, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, body := servePage(t, tc.path, tc.view, tc.header...)
			if code != http.StatusOK {
				t.Fatalf("status %d", code)
			}
			if got := strings.Contains(body, startViewID); got != tc.dataShown {
				t.Errorf("start view in %s: %v, want %v:\n%s", tc.path, got, tc.dataShown, body)
			}
			if tc.path == "/assets/start.js" && body != "export {}" {
				t.Errorf("the script came as %q", body)
			}
		})
	}
}

// The window's page closes the apps of the page before it as it is
// served (a reload), so that the new page's first frame waits for no call
// to Go to close them; the page's other files close nothing.
func TestWindowPage_ServingThePageClosesThePreviousPagesApps(t *testing.T) {
	f := newAppsFixture(t)
	f.open(t, "call-1")
	page := windowPage(NewSettingsService(f.core), NewThemeService(f.core, &standInDesktop{preferred: theme.Light}), NewServersService(f.core), f.apps)
	open := func() int {
		f.apps.mu.Lock()
		defer f.apps.mu.Unlock()
		return len(f.apps.open)
	}
	for _, tc := range []struct {
		path string
		open int
	}{
		{"/assets/start.js", 1},
		{"/", 0},
	} {
		rec := httptest.NewRecorder()
		page(assetFiles).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "wails://wails"+tc.path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: status %d", tc.path, rec.Code)
		}
		if got := open(); got != tc.open {
			t.Errorf("after serving %s, %d apps are open, want %d", tc.path, got, tc.open)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.served) != 0 {
		t.Errorf("the closed app's files are still served: %v", f.served)
	}
}
