package appframe

import (
	"errors"
	"net/http"
	"regexp"
	"testing"
)

// TestServe_Answers: what a request of Scheme is answered with, per
// instance, path and method; every answer carries a policy and is neither
// cached nor sniffed, and a file without a policy gets the strictest one.
func TestServe_Answers(t *testing.T) {
	isolated.Store(true)
	t.Cleanup(func() { isolated.Store(false) })
	id, other := NewInstanceID(), NewInstanceID()
	err := Serve(id,
		File{Path: "/", ContentType: "text/html", Body: []byte("<p>app"), Header: http.Header{"content-security-policy": {"default-src 'self'"}}},
		File{Path: "/app.js", ContentType: "text/javascript", Body: []byte("1")},
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := Serve(other, File{Path: "/", Body: []byte("other")}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, method, id, path string
		status                 int
		body, ctype, policy    string
	}{
		{"page", "GET", id, "/", 200, "<p>app", "text/html", "default-src 'self'"},
		{"empty path is /", "GET", id, "", 200, "<p>app", "text/html", "default-src 'self'"},
		{"no policy given", "GET", id, "/app.js", 200, "1", "text/javascript", defaultPolicy},
		{"no type given", "GET", other, "/", 200, "other", "application/octet-stream", defaultPolicy},
		{"unknown path", "GET", id, "/secret", 404, "Not Found", "text/plain; charset=utf-8", defaultPolicy},
		{"unknown instance", "GET", NewInstanceID(), "/", 404, "Not Found", "text/plain; charset=utf-8", defaultPolicy},
		{"no instance", "GET", "", "/", 404, "Not Found", "text/plain; charset=utf-8", defaultPolicy},
		{"post", "POST", id, "/", 405, "Method Not Allowed", "text/plain; charset=utf-8", defaultPolicy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := answer(tc.method, tc.id, tc.path)
			if r.status != tc.status || string(r.body) != tc.body || r.header.Get("Content-Type") != tc.ctype {
				t.Errorf("got %d %q (%s), want %d %q (%s)", r.status, r.body, r.header.Get("Content-Type"), tc.status, tc.body, tc.ctype)
			}
			if got := r.header.Values("Content-Security-Policy"); len(got) != 1 || got[0] != tc.policy {
				t.Errorf("policy %q, want %q", got, tc.policy)
			}
			if r.header.Get("Cache-Control") != "no-store" || r.header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("headers %v", r.header)
			}
		})
	}
	Forget(id)
	if r := answer("GET", id, "/"); r.status != 404 {
		t.Errorf("a forgotten instance answers %d, want 404", r.status)
	}
	if r := answer("GET", other, "/"); r.status != 200 {
		t.Errorf("forgetting one instance made another answer %d", r.status)
	}
	Forget(other)
}

// TestServe_Refuses: nothing is served before the bridge is isolated, nor
// under an ID that is no host name or a path that is no absolute path.
func TestServe_Refuses(t *testing.T) {
	isolated.Store(false)
	if err := Serve(NewInstanceID(), File{Path: "/"}); !errors.Is(err, ErrNotIsolated) {
		t.Errorf("before isolation: %v, want ErrNotIsolated", err)
	}
	isolated.Store(true)
	t.Cleanup(func() { isolated.Store(false) })
	for _, id := range []string{"", "UPPER", "a.b", "a/b", "-a", "a-", "ä", "a b", string(make([]byte, 64))} {
		if err := Serve(id, File{Path: "/"}); err == nil {
			t.Errorf("Serve(%q) served", id)
			Forget(id)
		}
	}
	for name, f := range map[string]File{
		"a relative path":            {Path: "index.html"},
		"a policy with a break":      {Path: "/", Header: http.Header{"Content-Security-Policy": {"default-src 'none'\r\nX: y"}}},
		"a header name with a space": {Path: "/", Header: http.Header{"Content Security": {"x"}}},
		"a type with a break":        {Path: "/", ContentType: "text/html\n"},
	} {
		if err := Serve(NewInstanceID(), f); err == nil {
			t.Errorf("%s was served", name)
		}
	}
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(NewInstanceID()) || NewInstanceID() == NewInstanceID() {
		t.Error("instance IDs are not 32 random hex digits")
	}
}

// TestScripts: the event name is in both scripts as a string literal, and
// the scripts reach the handler only through it.
func TestScripts(t *testing.T) {
	name := newEventName()
	relay, shim := scripts(name)
	for _, s := range []string{relay, shim} {
		if !regexp.MustCompile(`"` + name + `"`).MatchString(s) {
			t.Errorf("the event %s is not in %s", name, s)
		}
	}
	if regexp.MustCompile(`messageHandlers`).MatchString(shim) {
		t.Error("the main world's shim names the message handlers")
	}
}
