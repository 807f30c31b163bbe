//go:build linux && cgo && windowtest

package appframe

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests run a real WebKit view, set up as Wails sets up its own
// (harness_windowtest.c), with Install's hook, on an X server: $DISPLAY, or
// an Xvfb of their own when there is none. They build with the windowtest
// tag only (make test-window):
//
//	go test -tags windowtest -count=1 -v ./appframe/

func TestMain(m *testing.M) {
	if os.Getenv("DISPLAY") == "" {
		display, err := startXvfb()
		if err != nil {
			fmt.Fprintln(os.Stderr, "appframe tests:", err)
			os.Exit(1)
		}
		_ = os.Setenv("DISPLAY", display)
	}
	_ = os.Setenv("GDK_BACKEND", "x11")
	if err := startGTK(); err != nil {
		fmt.Fprintln(os.Stderr, "appframe tests:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// startXvfb starts an X server on a free display and returns its name. It
// ends itself when its last client, this process, has gone (-terminate):
// stopping it first would make GDK exit the process on the lost connection.
func startXvfb() (string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-terminate")
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return "", fmt.Errorf("starting Xvfb (package xvfb): %w", err)
	}
	w.Close()
	kill := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM); _ = cmd.Wait() }
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case s := <-line:
		if _, err := strconv.Atoi(s); err != nil {
			kill()
			return "", fmt.Errorf("Xvfb reported no display number (%q)", s)
		}
		go func() { _ = cmd.Wait() }()
		return ":" + s, nil
	case <-time.After(20 * time.Second):
		kill()
		return "", fmt.Errorf("Xvfb reported no display within 20s")
	}
}

// page registers a page of the harness's own scheme (the window's page,
// wails://wails/PATH).
func page(path, contentType, body string) {
	harness.mu.Lock()
	defer harness.mu.Unlock()
	harness.pages[path] = response{status: http.StatusOK, header: http.Header{"Content-Type": {contentType}}, body: []byte(body)}
}

// wailsIPC is Wails' own runtime ipc.js, the one its asset server injects
// into the page (internal/frontend/runtime/ipc.js of the module in go.mod).
func wailsIPC(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/wailsapp/wails/v2").Output()
	if err != nil {
		t.Fatalf("go list the Wails module: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "internal", "frontend", "runtime", "ipc.js"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// resetSeen forgets what the harness received so far.
func resetSeen() {
	harness.mu.Lock()
	defer harness.mu.Unlock()
	harness.messages, harness.requests = nil, nil
}

// seen returns what the harness received so far.
func seen() ([]harnessMsg, []string) {
	harness.mu.Lock()
	defer harness.mu.Unlock()
	return slices.Clone(harness.messages), slices.Clone(harness.requests)
}

// waitMessage waits for a message starting with prefix, then a second for
// stragglers, and returns it. Messages come from the top frame through the
// shim and the relay (or from wherever they got in).
func waitMessage(t *testing.T, prefix string, timeout time.Duration) harnessMsg {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		msgs, _ := seen()
		for _, m := range msgs {
			if strings.HasPrefix(m.msg, prefix) {
				time.Sleep(time.Second)
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no message %q within %v; got %q", prefix, timeout, msgs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// probeScript tries every way out of a frame to Go, and posts what each
// attempt did to the top frame (postMessage reaches any origin).
const probeScript = `
const EVENT = %q, TAG = %q;
const results = { "typeof webkit": typeof window.webkit, "typeof chrome": typeof window.chrome };
const pwn = (how) => "PWNED " + TAG + " " + how;
const attempt = (name, fn) => {
	try { results[name] = "ran: " + String(fn()); } catch (e) { results[name] = "threw: " + e; }
};
attempt("webkit.messageHandlers.external.postMessage", () => window.webkit.messageHandlers.external.postMessage(pwn("webkit")));
attempt("WailsInvoke", () => window.WailsInvoke(pwn("WailsInvoke")));
attempt("parent.WailsInvoke", () => parent.WailsInvoke(pwn("parent.WailsInvoke")));
attempt("top.WailsInvoke", () => top.WailsInvoke(pwn("top.WailsInvoke")));
attempt("top.go bindings", () => top.go.app.Test.Hello());
attempt("parent.document", () => parent.document.title);
attempt("top.document", () => top.document.title);
attempt("event on top.document", () => top.document.dispatchEvent(new CustomEvent(EVENT, { detail: pwn("top event") })));
attempt("event on its own document", () => document.dispatchEvent(new CustomEvent(EVENT, { detail: pwn("own event") })));
attempt("chrome.webview.postMessage", () => window.chrome.webview.postMessage(pwn("chrome.webview")));
attempt("top.chrome.webview.postMessage", () => top.chrome.webview.postMessage(pwn("top.chrome.webview")));
attempt("top.webkit.messageHandlers.external.postMessage", () => top.webkit.messageHandlers.external.postMessage(pwn("top.webkit")));
attempt("other frames' documents", () => {
	const read = [];
	for (let i = 0; i < top.frames.length; i++) {
		if (top.frames[i] === window) continue;
		try { read.push(top.frames[i].document.title); } catch (e) {}
	}
	if (read.length === 0) throw new Error("none readable");
	return read.join(",");
});
top.postMessage({ tag: TAG, results }, "*");
`

// probe is a page that runs probeScript as tag, and nests more if given.
func probe(event, tag, nested string) string {
	return "<!doctype html><title>" + tag + "</title><script>" + fmt.Sprintf(probeScript, event, tag) + "</script>" + nested
}

// The attempts that run without an error but must reach nothing: the
// relay does not listen to a frame's own document.
var mayRun = map[string]bool{"event on its own document": true, "typeof webkit": true, "typeof chrome": true}

// TestBridgeOnlyInTheTopFrame loads, as the first document of a view set up
// as Wails does, a top page with Wails' own ipc.js that calls Go through it,
// and frames of every kind that try every way to Go: the top frame's call
// arrives with the page's URI; nothing of the frames does, and each of
// their attempts fails.
func TestBridgeOnlyInTheTopFrame(t *testing.T) {
	event := relayEvent
	if event == "" || harness.view == nil && isolated.Load() {
		t.Fatalf("Install set the event %q, isolated %v before there is a view", event, isolated.Load())
	}
	ids := map[string]string{"app-sandboxed": NewInstanceID(), "app": NewInstanceID(), "app-same-origin": NewInstanceID()}
	header := http.Header{"Content-Security-Policy": {"default-src 'none'; script-src 'unsafe-inline'"}}
	nested := `<iframe sandbox="allow-scripts" srcdoc="` + html.EscapeString(probe(event, "app-sandboxed/srcdoc", "")) + `"></iframe>`
	dataProbe := func(tag string) string {
		return "data:text/html;base64," + base64.StdEncoding.EncodeToString([]byte(probe(event, tag, "")))
	}
	tags := []string{"app-sandboxed", "app-sandboxed/srcdoc", "app", "app-same-origin", "srcdoc-sandboxed", "data", "data-sandboxed"}
	top := `<!doctype html><html><head><title>top</title><script src="/wails/ipc.js"></script><script>
const expected = ` + mustJSON(t, tags) + `, reports = {};
window.addEventListener("message", (e) => {
	if (!e.data || typeof e.data.tag !== "string") return;
	reports[e.data.tag] = e.data.results;
	if (expected.every((t) => t in reports)) window.WailsInvoke("REPORT " + JSON.stringify(reports));
});
window.WailsInvoke("C" + JSON.stringify({ name: "app.Test.Hello", args: [typeof window.webkit], callbackID: "hello" }));
</script></head><body>
<iframe src="` + Origin(ids["app-sandboxed"]) + `/probe.html" sandbox="allow-scripts"></iframe>
<iframe src="` + Origin(ids["app"]) + `/probe.html"></iframe>
<iframe src="` + Origin(ids["app-same-origin"]) + `/probe.html" sandbox="allow-scripts allow-same-origin"></iframe>
<iframe srcdoc="` + html.EscapeString(probe(event, "srcdoc-sandboxed", "")) + `" sandbox="allow-scripts"></iframe>
<iframe src="` + dataProbe("data") + `"></iframe>
<iframe src="` + dataProbe("data-sandboxed") + `" sandbox="allow-scripts"></iframe>
</body></html>`
	page("/wails/ipc.js", "text/javascript", wailsIPC(t))
	page("/probe.html", "text/html; charset=utf-8", top)
	resetSeen()
	// The first document of the view: Install's hook has run when the view
	// was put into its box, before the load; the apps are served then.
	harnessOpen("wails://wails/probe.html", func() {
		if !isolated.Load() {
			t.Error("the view's page is loading but its bridge is not isolated")
		}
		for tag, id := range ids {
			nest := ""
			if tag == "app-sandboxed" {
				nest = nested
			}
			if err := Serve(id, File{Path: "/probe.html", ContentType: "text/html; charset=utf-8", Body: []byte(probe(event, tag, nest)), Header: header}); err != nil {
				t.Error(err)
			}
		}
	})

	hello := waitMessage(t, "C", 30*time.Second)
	report := waitMessage(t, "REPORT ", 30*time.Second)
	var got map[string]map[string]string
	if err := json.Unmarshal([]byte(strings.TrimPrefix(report.msg, "REPORT ")), &got); err != nil {
		t.Fatalf("report: %v (%q)", err, report.msg)
	}

	// (i) the top frame's main world reaches Go through the shim and Wails'
	// unchanged ipc.js, with the page's URI for Wails' origin check; it no
	// longer has webkit.messageHandlers.external itself.
	if want := `C{"name":"app.Test.Hello","args":["undefined"],"callbackID":"hello"}`; hello.msg != want || hello.uri != "wails://wails/probe.html" {
		t.Errorf("the top frame's call arrived as %q from %q, want %q from wails://wails/probe.html", hello.msg, hello.uri, want)
	}
	// (ii) nothing of the frames reached Go.
	msgs, requests := seen()
	for _, m := range msgs {
		if m.msg != hello.msg && m.msg != report.msg {
			t.Errorf("Go received %q (from page %q)", m.msg, m.uri)
		}
	}
	if len(msgs) != 2 {
		t.Errorf("Go received %d messages, want the top frame's 2", len(msgs))
	}
	// Each frame ran and each of its attempts failed.
	for _, tag := range tags {
		results, ok := got[tag]
		if !ok {
			t.Errorf("frame %s did not report", tag)
			continue
		}
		names := make([]string, 0, len(results))
		for name := range results {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			res := results[name]
			t.Logf("%-20s %-48s %s", tag, name, res)
			if !mayRun[name] && !strings.HasPrefix(res, "threw: ") {
				t.Errorf("frame %s: %s did not fail: %s", tag, name, res)
			}
		}
		if results["typeof webkit"] != "undefined" || results["typeof chrome"] != "undefined" {
			t.Errorf("frame %s sees webkit (%s) or chrome (%s)", tag, results["typeof webkit"], results["typeof chrome"])
		}
	}
	t.Logf("requests of %s: %q", Scheme, requests)
}

// mustJSON is v as JSON, a JavaScript literal.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
