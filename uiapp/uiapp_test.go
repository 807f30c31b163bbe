package uiapp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// meta decodes JSON as a server's _meta arrives (the SDK's map[string]any).
func meta(t *testing.T, s string) map[string]any {
	t.Helper()
	if s == "" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestReadTool(t *testing.T) {
	long := "ui://x/" + strings.Repeat("a", MaxURILength)
	tests := []struct {
		name string
		meta string
		want Tool
	}{
		{"no meta", ``, Tool{ForModel: true, ForApp: true}},
		{"resourceUri", `{"ui":{"resourceUri":"ui://budget/app.html"}}`, Tool{"ui://budget/app.html", true, true}},
		{"deprecated flat key", `{"ui/resourceUri":"ui://old/app.html"}`, Tool{"ui://old/app.html", true, true}},
		{"nested wins over flat", `{"ui":{"resourceUri":"ui://new"},"ui/resourceUri":"ui://old"}`, Tool{"ui://new", true, true}},
		{"upper-case scheme", `{"ui":{"resourceUri":"UI://a/b"}}`, Tool{"UI://a/b", true, true}},
		{"not ui scheme", `{"ui":{"resourceUri":"https://evil.example/app.html"}}`, Tool{"", true, true}},
		{"file scheme", `{"ui":{"resourceUri":"file:///etc/passwd"}}`, Tool{"", true, true}},
		{"bare ui://", `{"ui":{"resourceUri":"ui://"}}`, Tool{"", true, true}},
		{"newline", `{"ui":{"resourceUri":"ui://a/b\nc"}}`, Tool{"", true, true}},
		{"space", `{"ui":{"resourceUri":"ui://a/b c"}}`, Tool{"", true, true}},
		{"too long", `{"ui":{"resourceUri":"` + long + `"}}`, Tool{"", true, true}},
		{"not a string", `{"ui":{"resourceUri":42}}`, Tool{"", true, true}},
		{"app only", `{"ui":{"resourceUri":"ui://a","visibility":["app"]}}`, Tool{"ui://a", false, true}},
		{"model only", `{"ui":{"resourceUri":"ui://a","visibility":["model"]}}`, Tool{"ui://a", true, false}},
		{"empty visibility", `{"ui":{"visibility":[]}}`, Tool{"", false, false}},
		{"visibility not a list", `{"ui":{"visibility":"app"}}`, Tool{"", true, true}},
		{"visibility of other values", `{"ui":{"visibility":["App","MODEL",1,null]}}`, Tool{"", false, false}},
		{"visibility without app", `{"ui":{"visibility":["app"]}}`, Tool{"", false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ReadTool(meta(t, tt.meta)); got != tt.want {
				t.Errorf("ReadTool(%s) = %+v; want %+v", tt.meta, got, tt.want)
			}
		})
	}
}

func TestContent(t *testing.T) {
	html := "<!doctype html><p>hi</p>"
	tests := []struct {
		name   string
		mime   string
		text   string
		blob   []byte
		isBlob bool
		ok     bool
	}{
		{"text", "text/html;profile=mcp-app", html, nil, false, true},
		{"spacing and case", "Text/HTML ; Profile=\"mcp-app\"; charset=utf-8", html, nil, false, true},
		{"blob", "text/html;profile=mcp-app", "", []byte(html), true, true},
		{"plain html", "text/html", html, nil, false, false},
		{"other profile", "text/html;profile=other", html, nil, false, false},
		{"javascript", "application/javascript;profile=mcp-app", html, nil, false, false},
		{"no type", "", html, nil, false, false},
		{"garbage type", "text/html;;;profile", html, nil, false, false},
		{"empty", "text/html;profile=mcp-app", "", nil, false, false},
		{"empty blob", "text/html;profile=mcp-app", "", []byte{}, true, false},
		{"too big", "text/html;profile=mcp-app", strings.Repeat("a", MaxResourceBytes+1), nil, false, false},
		{"at the bound", "text/html;profile=mcp-app", strings.Repeat("a", MaxResourceBytes), nil, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, err := Content("ui://a", tt.mime, tt.text, tt.blob, tt.isBlob)
			if (err == nil) != tt.ok {
				t.Fatalf("Content: err %v; want ok %v", err, tt.ok)
			}
			if tt.ok && string(body) != tt.text+string(tt.blob) {
				t.Errorf("body %q", body[:min(len(body), 40)])
			}
		})
	}
}

func TestValidOrigin(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" for refused
	}{
		{"https://api.example.com", "https://api.example.com"},
		{"HTTPS://API.Example.com", "https://api.example.com"},
		{"wss://realtime.example.com:8443", "wss://realtime.example.com:8443"},
		{"https://*.cloudflare.com", "https://*.cloudflare.com"},
		{"https://cdn.jsdelivr.net/npm/", "https://cdn.jsdelivr.net/npm/"},
		{"https://203.0.113.7", "https://203.0.113.7"},
		{"https://[2001:db8::1]:443", "https://[2001:db8::1]:443"},
		{"http://localhost:5173", "http://localhost:5173"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"ws://[::1]:9000", "ws://[::1]:9000"},
		// Hostile or malformed: dropped.
		{"", ""},
		{"*", ""},
		{"https://*", ""},
		{"https://*.com", ""},
		{"https://a.*.example.com", ""},
		{"https://example.com/*", ""},
		{"*.example.com", ""},
		{"example.com", ""},
		{"'self'", ""},
		{"'unsafe-eval'", ""},
		{"https://a.example 'unsafe-eval'", ""},
		{"https://a.example; script-src *", ""},
		{"https://a.example,https://b.example", ""},
		{`https://a.example"`, ""},
		{"https://a.example\nscript-src *", ""},
		{"https://a.example\r\n", ""},
		{"https://a.example\t", ""},
		{"data:", ""},
		{"data:text/html,<script>", ""},
		{"blob:", ""},
		{"javascript:alert(1)", ""},
		{"file:///etc", ""},
		{"ftp://files.example.com", ""},
		{"http://api.example.com", ""},
		{"ws://api.example.com", ""},
		{"http://*.localhost", ""},
		{"http://localhost.example.com", ""},
		{"http://192.168.1.1", ""},
		{"https://user:pw@example.com", ""},
		{"https://example.com:0", ""},
		{"https://example.com:99999", ""},
		{"https://example.com:*", ""},
		{"https://example.com:", ""},
		{"https://example.com/a?b=c", ""},
		{"https://example.com/#x", ""},
		{"https://example.com/%2e%2e/", ""},
		{"https://example.com/../x", ""},
		{"https://exa_mple.com", ""},
		{"https://-example.com", ""},
		{"https://2130706433", ""},
		{"https://127.1", ""},
		{"https://[fe80::1%25eth0]", ""},
		{"https://bücher.example", ""},
		{"https://" + strings.Repeat("a.", 200) + "com", ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.in), func(t *testing.T) {
			got, why, ok := ValidOrigin(tt.in)
			if ok != (tt.want != "") || got != tt.want {
				t.Fatalf("ValidOrigin(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
			if !ok && why.IsZero() {
				t.Errorf("ValidOrigin(%q) refused without saying why", tt.in)
			}
		})
	}
}

func TestReadResource(t *testing.T) {
	huge := make([]string, 10000)
	for i := range huge {
		huge[i] = fmt.Sprintf("https://h%d.example.com", i)
	}
	hugeJSON, _ := json.Marshal(huge)
	tests := []struct {
		name         string
		item, listed string
		connect      []string
		resource     []string
		frame        []string
		base         []string
		permissions  []string
		border       bool
		dropped      int
	}{
		{name: "none"},
		{name: "item", item: `{"ui":{"csp":{"connectDomains":["https://api.example.com"],"resourceDomains":["https://cdn.example.com"],
			"frameDomains":["https://www.youtube.com"],"baseUriDomains":["https://base.example.com"]},
			"permissions":{"camera":{},"clipboardWrite":{}},"prefersBorder":true,"domain":"evil.example"}}`,
			connect: []string{"https://api.example.com"}, resource: []string{"https://cdn.example.com"},
			frame: []string{"https://www.youtube.com"}, base: []string{"https://base.example.com"},
			permissions: []string{"camera", "clipboardWrite"}, border: true},
		{name: "listing as fallback", listed: `{"ui":{"csp":{"connectDomains":["https://api.example.com"]},"prefersBorder":true}}`,
			connect: []string{"https://api.example.com"}, border: true},
		{name: "item wins", item: `{"ui":{"csp":{"connectDomains":["https://item.example.com"]},"prefersBorder":false}}`,
			listed:  `{"ui":{"csp":{"connectDomains":["https://list.example.com"]},"prefersBorder":true,"permissions":{"microphone":{}}}}`,
			connect: []string{"https://item.example.com"}, permissions: []string{"microphone"}},
		{name: "hostile", item: `{"ui":{"csp":{"connectDomains":["*","'unsafe-eval'","https://ok.example.com","data:","javascript:alert(1)",
			"https://a.example; script-src *","https://ok.example.com","https://x.example\nscript-src *",42,null],
			"resourceDomains":"https://not-a-list.example","frameDomains":["http://evil.example"]},
			"permissions":{"camera":false,"geolocation":null,"usb":{},"microphone":true}}}`,
			connect: []string{"https://ok.example.com"}, permissions: []string{"microphone"}, dropped: 10},
		{name: "huge list", item: `{"ui":{"csp":{"connectDomains":` + string(hugeJSON) + `}}}`,
			connect: huge[:MaxDomains], dropped: 1},
	}
	eq := func(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ReadResource(meta(t, tt.item), meta(t, tt.listed))
			if !eq(r.CSP.Connect, tt.connect) || !eq(r.CSP.Resource, tt.resource) || !eq(r.CSP.Frame, tt.frame) || !eq(r.CSP.BaseURI, tt.base) {
				t.Errorf("CSP = %+v", r.CSP)
			}
			if !eq(r.Permissions, tt.permissions) || r.PrefersBorder != tt.border {
				t.Errorf("permissions %v border %v", r.Permissions, r.PrefersBorder)
			}
			if len(r.Dropped) != tt.dropped {
				t.Errorf("dropped %d: %v; want %d", len(r.Dropped), r.Dropped, tt.dropped)
			}
		})
	}
}

func TestHeader(t *testing.T) {
	none := CSP{}.Header()
	want := "default-src 'none'; script-src 'self' 'unsafe-inline' data:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
		"font-src 'self' data:; media-src 'self' data: blob:; connect-src 'self'; frame-src 'none'; base-uri 'self'; " +
		"worker-src 'self' blob:; form-action 'none'; object-src 'none'"
	if none != want {
		t.Errorf("no declaration:\n got %s\nwant %s", none, want)
	}
	r := ReadResource(meta(t, `{"ui":{"csp":{"connectDomains":["wss://rt.example.com","https://a.example; script-src *"],
		"resourceDomains":["https://cdn.example.com"],"frameDomains":["https://www.youtube.com"]}}}`), nil)
	h := r.CSP.Header()
	for _, part := range []string{
		"script-src 'self' 'unsafe-inline' data: https://cdn.example.com;",
		"img-src 'self' data: blob: https://cdn.example.com;",
		"connect-src 'self' wss://rt.example.com;",
		"frame-src https://www.youtube.com;",
	} {
		if !strings.Contains(h, part) {
			t.Errorf("policy lacks %q: %s", part, h)
		}
	}
	for _, bad := range []string{"unsafe-eval", "script-src *", "\n", "a.example"} {
		if strings.Contains(h, bad) {
			t.Errorf("policy holds %q: %s", bad, h)
		}
	}
	if n := strings.Count(h, ";"); n != 11 {
		t.Errorf("policy has %d directives; want 12: %s", n+1, h)
	}
}

// directives splits a policy into its directives' sources, by name.
func directives(policy string) map[string][]string {
	out := map[string][]string{}
	for _, d := range strings.Split(policy, ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			out[f[0]] = f[1:]
		}
	}
	return out
}

// server-pdf's pdf.js runs its worker as a blob: module worker that
// imports the worker's code from a data: URL (or, without a worker,
// imports it in the page): both need data: scripts, and nothing more.
func TestHeaderLetsInlineWorkersLoad(t *testing.T) {
	for _, tt := range []struct {
		name string
		csp  CSP
	}{
		{"nothing declared", CSP{}},
		{"resources declared", CSP{Resource: []string{"https://unpkg.com"}, Connect: []string{"https://unpkg.com"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := directives(tt.csp.Header())
			has := func(name, source string) bool { return contains(d[name], source) }
			if !has("script-src", "data:") {
				t.Errorf("script-src %v: a data: module (pdf.js's worker code) cannot load", d["script-src"])
			}
			if !has("worker-src", "blob:") || !has("worker-src", "'self'") {
				t.Errorf("worker-src %v: a blob: worker cannot start", d["worker-src"])
			}
			for _, name := range []string{"script-src", "worker-src", "connect-src", "frame-src", "default-src"} {
				for _, bad := range []string{"'unsafe-eval'", "*", "https:", "http:", "'wasm-unsafe-eval'"} {
					if has(name, bad) {
						t.Errorf("%s holds %s: %v", name, bad, d[name])
					}
				}
			}
			for _, name := range []string{"script-src", "connect-src", "frame-src", "base-uri", "form-action"} {
				if name != "script-src" && has(name, "data:") || has(name, "blob:") {
					t.Errorf("%s holds data: or blob: %v", name, d[name])
				}
			}
		})
	}
}
