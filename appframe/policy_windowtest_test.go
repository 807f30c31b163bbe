//go:build linux && cgo && windowtest

package appframe

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestAppPolicyFromHeaders: an app's Content-Security-Policy, sent as a
// response header of Scheme, is what WebKit enforces in its frame: the same
// image and fetch of the app's own origin are blocked under default-src
// 'none' (Go never sees the requests) and arrive when allowed; a path the
// instance does not serve answers 404. It also records, for the MCP Apps
// frame, what a sandbox without allow-same-origin does to an app on its own
// origin: 'self' then matches nothing, and a fetch of its own scheme is
// cross-origin, which the scheme (not CORS-enabled) refuses.
func TestAppPolicyFromHeaders(t *testing.T) {
	const app = `
const TAG = document.title, results = {};
const img = new Promise((done) => { const i = new Image(); i.onload = () => done("loaded"); i.onerror = () => done("error"); i.src = "/beacon-img"; });
const f = fetch("/beacon-fetch").then((r) => "fetched " + r.status, (e) => "failed: " + e);
Promise.all([img, f]).then(([a, b]) => { results.img = a; results.fetch = b; top.postMessage({ tag: TAG, results }, "*"); });
`
	const own = "default-src 'none'; script-src 'unsafe-inline'; img-src 'self'; connect-src 'self'"
	cases := []struct {
		name, sandbox, policy string
		requested             bool   // the image and the fetch reached Go
		fetch                 string // what the fetch gave, up to its first colon
	}{
		{"none", "allow-scripts allow-same-origin", "default-src 'none'; script-src 'unsafe-inline'", false, "failed"},
		{"self", "allow-scripts allow-same-origin", own, true, "fetched 404"},
		{"self-unsandboxed", "", own, true, "fetched 404"},
		{"self-opaque", "allow-scripts", own, false, "failed"},
		{"origin-opaque", "allow-scripts", "default-src 'none'; script-src 'unsafe-inline'; img-src ORIGIN; connect-src ORIGIN", true, "failed"},
	}
	ids := map[string]string{}
	var frames, names []string
	for _, c := range cases {
		ids[c.name] = NewInstanceID()
		names = append(names, c.name)
		sandbox := ""
		if c.sandbox != "" {
			sandbox = ` sandbox="` + c.sandbox + `"`
		}
		frames = append(frames, `<iframe src="`+Origin(ids[c.name])+`/app.html"`+sandbox+`></iframe>`)
	}
	page("/policy.html", "text/html; charset=utf-8", `<!doctype html><title>top</title><script>
const reports = {}, expected = `+mustJSON(t, names)+`;
window.addEventListener("message", (e) => {
	reports[e.data.tag] = e.data.results;
	if (expected.every((k) => k in reports)) window.WailsInvoke("POLICY " + JSON.stringify(reports));
});
</script><script src="/wails/ipc.js"></script>`+strings.Join(frames, "\n"))
	page("/wails/ipc.js", "text/javascript", wailsIPC(t))
	resetSeen()
	harnessOpen("wails://wails/policy.html", func() {
		for _, c := range cases {
			body := "<!doctype html><title>" + c.name + "</title><script>" + app + "</script>"
			policy := strings.ReplaceAll(c.policy, "ORIGIN", Origin(ids[c.name]))
			if err := Serve(ids[c.name], File{Path: "/app.html", ContentType: "text/html", Body: []byte(body),
				Header: http.Header{"Content-Security-Policy": {policy}}}); err != nil {
				t.Error(err)
			}
		}
	})
	m := waitMessage(t, "POLICY ", 30*time.Second)
	var got map[string]map[string]string
	if err := json.Unmarshal([]byte(strings.TrimPrefix(m.msg, "POLICY ")), &got); err != nil {
		t.Fatal(err)
	}
	_, requests := seen()
	for _, c := range cases {
		for _, path := range []string{"/beacon-img", "/beacon-fetch"} {
			if slices.Contains(requests, "GET "+Origin(ids[c.name])+path) != c.requested {
				t.Errorf("%s (sandbox %q, policy %q): %s requested %v, want %v", c.name, c.sandbox, c.policy, path, !c.requested, c.requested)
			}
		}
		r := got[c.name]
		t.Logf("%-16s sandbox %-34q image %s, fetch %s", c.name, c.sandbox, r["img"], r["fetch"])
		if r["img"] != "error" || !strings.HasPrefix(r["fetch"], c.fetch) {
			t.Errorf("%s: image %q, fetch %q; want error (nothing served) and %s", c.name, r["img"], r["fetch"], c.fetch)
		}
	}
}

// TestWindowPagePolicyFramesApps: the window's own page policy
// (frontend/index.html, with script-src 'self') lets the page frame an app
// of Scheme, and the user scripts work under it; the former frame-src
// 'none' did not let the frame load.
func TestWindowPagePolicyFramesApps(t *testing.T) {
	src, err := os.ReadFile("../frontend/index.html")
	if err != nil {
		t.Fatal(err)
	}
	policy := regexp.MustCompile(`http-equiv="Content-Security-Policy"\s+content="([^"]+)"`).FindSubmatch(src)
	if policy == nil {
		t.Fatal("no Content-Security-Policy in frontend/index.html")
	}
	page("/wails/ipc.js", "text/javascript", wailsIPC(t))
	page("/frames.js", "text/javascript", `
let framed = false;
window.addEventListener("message", (e) => { if (e.data === "ping") { framed = true; window.WailsInvoke("FRAME loaded"); } });
setTimeout(() => { if (!framed) window.WailsInvoke("FRAME blocked"); }, 3000);`)
	for _, tc := range []struct {
		name, policy, want string
	}{
		{"window", string(policy[1]), "FRAME loaded"},
		{"frame-src-none", regexp.MustCompile(`frame-src [^;"]+`).ReplaceAllString(string(policy[1]), "frame-src 'none'"), "FRAME blocked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := NewInstanceID()
			page("/"+tc.name+".html", "text/html; charset=utf-8", `<!doctype html><html><head>
<meta http-equiv="Content-Security-Policy" content="`+tc.policy+`">
<script src="/wails/ipc.js"></script><script src="/frames.js"></script></head>
<body><iframe src="`+Origin(id)+`/ping.html" sandbox="allow-scripts"></iframe></body></html>`)
			resetSeen()
			harnessOpen("wails://wails/"+tc.name+".html", func() {
				if err := Serve(id, File{Path: "/ping.html", ContentType: "text/html", Body: []byte(`<script>top.postMessage("ping", "*")</script>`),
					Header: http.Header{"Content-Security-Policy": {"default-src 'none'; script-src 'unsafe-inline'"}}}); err != nil {
					t.Error(err)
				}
			})
			if m := waitMessage(t, "FRAME ", 30*time.Second); m.msg != tc.want {
				t.Errorf("under %q: %q, want %q", tc.policy, m.msg, tc.want)
			}
		})
	}
}
