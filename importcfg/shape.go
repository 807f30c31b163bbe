package importcfg

import (
	"encoding/base64"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"

	"mvdan.cc/sh/v3/syntax"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// A command line's shape says what a person must read before running it,
// beyond the program's name. These shapes get a warning in the preview:
//
//   - code written into the command line: `sh -c`, `bash -lc` (any POSIX
//     shell and fish), `python -c`, `node -e`/`--eval`/`-p`, `bun -e`,
//     `deno eval`, `perl -e`, `ruby -e`, `php -r`, `lua -e`,
//     `osascript -e`, `Rscript -e`, `powershell -Command` (and Windows
//     PowerShell's bare script), `cmd /c`;
//   - a PowerShell command that cannot be read (`-EncodedCommand`, `-enc`,
//     `-e`, `-ec`): decoded for the warning;
//   - code that downloads something and runs it: `curl … | sh`,
//     `wget -O- … | bash`, `sh <(curl …)`, `eval "$(curl …)"`,
//     `iex (iwr …)`, at any depth of the scripts above.
//
// Wrappers that run their arguments as a command (env, sudo, nohup, nice,
// timeout, setsid, stdbuf, busybox, command, exec, time) are looked
// through. The warnings are a reading aid, not a boundary: the preview
// shows the whole command line either way.

// shellNames are the POSIX shells and fish: "-c" makes their first operand
// a script.
var shellNames = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "fish"}

// interpreters are the programs whose option makes an argument code: the
// program names, the language for the sentence, the option (its group 1 is
// code written in the same word: -cCODE, --eval=CODE), the options that
// take the next word, and the options after which nothing is code.
var interpreters = []struct {
	names     *regexp.Regexp
	language  string
	code      *regexp.Regexp
	valueOpts []string
	stop      []string
}{
	{regexp.MustCompile(`^(python|pypy)[0-9.]*$`), "Python", regexp.MustCompile(`^-[bBdEhiIOPqRsSuvVx]*c(.*)$`), []string{"-W", "-X"}, []string{"-m"}},
	{regexp.MustCompile(`^(node|nodejs|bun)$`), "JavaScript", regexp.MustCompile(`^(?:-e|--eval|-p|--print|-pe|-ep)(?:=(.+))?$`),
		[]string{"-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--input-type", "--title", "--env-file"}, nil},
	{regexp.MustCompile(`^perl[0-9.]*$`), "Perl", regexp.MustCompile(`^-[acfnpsStTuUwWXl0-9]*[eE](.*)$`), []string{"-I", "-M", "-m"}, nil},
	{regexp.MustCompile(`^ruby[0-9.]*$`), "Ruby", regexp.MustCompile(`^-[acdlnpsSvwWyx]*e(.*)$`), []string{"-I", "-r", "-E"}, nil},
	{regexp.MustCompile(`^php[0-9.]*$`), "PHP", regexp.MustCompile(`^-r(.*)$`), []string{"-c", "-d", "-z"}, []string{"-f"}},
	{regexp.MustCompile(`^(lua[0-9.]*|luajit)$`), "Lua", regexp.MustCompile(`^-e()$`), []string{"-l"}, nil},
	{regexp.MustCompile(`^osascript$`), "AppleScript", regexp.MustCompile(`^-e()$`), []string{"-l", "-s"}, nil},
	{regexp.MustCompile(`^rscript$`), "R", regexp.MustCompile(`^-e()$`), nil, nil},
}

// wrappers run the rest of their arguments as a command.
var wrappers = []string{"env", "sudo", "doas", "nohup", "nice", "timeout", "setsid", "stdbuf", "busybox", "command", "exec", "time", "builtin"}

// downloaders fetch what an address serves; runners run what they are given
// (on standard input, or as words).
var (
	downloaders = []string{"curl", "wget", "fetch", "aria2c", "http", "https", "lwp-request", "iwr", "irm", "invoke-webrequest", "invoke-restmethod"}
	runners     = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "node", "nodejs", "bun", "deno", "perl", "ruby", "php", "lua",
		"source", ".", "eval", "exec", "iex", "invoke-expression", "pwsh", "powershell"}
)

// Code that is not a shell's is read as text for the same tricks.
var (
	downloadPipe = regexp.MustCompile(`(?i)\b(curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b[^|\n]*\|\s*(?:sudo\s+)?(sh|bash|dash|zsh|ksh|fish|python[0-9.]*|node|perl|ruby|php|iex|invoke-expression)\b`)
	downloadEval = regexp.MustCompile(`(?i)\b(iex|invoke-expression)\b[^\n]*?\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile)\b`)
)

// maxShapeDepth bounds how deep scripts inside scripts are read.
const maxShapeDepth = 4

// shape is what reading a command line found.
type shape struct {
	warnings []i18n.Message
	// scripts are the indexes of arguments that are code (args, not argv).
	scripts map[int]bool
	seen    map[string]bool
}

// commandShape reads command and args for the shapes above.
func commandShape(command string, args []string) shape {
	s := shape{scripts: map[int]bool{}, seen: map[string]bool{}}
	argv := append([]string{command}, args...)
	for _, i := range s.argv(argv, 0) {
		if i > 0 {
			s.scripts[i-1] = true
		}
	}
	return s
}

// warn adds a warning once.
func (s *shape) warn(m i18n.Message) {
	key := m.In(i18n.English)
	if !s.seen[key] {
		s.seen[key] = true
		s.warnings = append(s.warnings, m)
	}
}

// progName is a program's name as the shapes compare it: its base name, in
// lower case, without ".exe".
func progName(word string) string {
	return strings.TrimSuffix(strings.ToLower(filepath.Base(strings.ReplaceAll(word, `\`, "/"))), ".exe")
}

// argv reads one command (argv[0] is the program) and returns the indexes
// of its arguments that are code.
func (s *shape) argv(argv []string, depth int) []int {
	i := unwrap(argv)
	if i >= len(argv) || depth > maxShapeDepth {
		return nil
	}
	name, rest := progName(argv[i]), argv[i+1:]
	at := func(j int) int { return i + 1 + j } // index in argv of rest[j]
	how := func(opt string) string { return argv[i] + " " + opt }
	switch {
	case slices.Contains(shellNames, name):
		if j, opt := shellScript(rest); j >= 0 {
			s.warn(i18n.M("import.warn.inline", "language", "shell", "how", how(opt)))
			s.script(rest[j], depth)
			return []int{at(j)}
		}
	case name == "deno":
		if len(rest) >= 2 && rest[0] == "eval" {
			j := firstOperand(rest, 1)
			if j >= 0 {
				s.warn(i18n.M("import.warn.inline", "language", "JavaScript", "how", how("eval")))
				s.text(rest[j])
				return []int{at(j)}
			}
		}
	case name == "powershell" || name == "pwsh":
		return s.powershell(argv, i, name == "powershell")
	case name == "cmd":
		for j, a := range rest {
			if l := strings.ToLower(a); l == "/c" || l == "/k" {
				var out []int
				for k := j + 1; k < len(rest); k++ {
					out = append(out, at(k))
				}
				s.warn(i18n.M("import.warn.inline", "language", "cmd", "how", how(a)))
				s.text(strings.Join(rest[j+1:], " "))
				return out
			}
		}
	default:
		for _, in := range interpreters {
			if !in.names.MatchString(name) {
				continue
			}
			if j, opt, code := inlineCode(rest, in.code, in.valueOpts, in.stop); j >= 0 {
				s.warn(i18n.M("import.warn.inline", "language", in.language, "how", how(opt)))
				s.text(code)
				return []int{at(j)}
			}
		}
	}
	return nil
}

// unwrap returns the index of the program a wrapper runs (0 when argv[0]
// is no wrapper), skipping the wrappers' options and env's NAME=VALUE.
func unwrap(argv []string) int {
	i := 0
	for i < len(argv) && slices.Contains(wrappers, progName(argv[i])) {
		w := progName(argv[i])
		i++
		for i < len(argv) {
			a := argv[i]
			switch {
			case a == "--":
				i++
			case strings.HasPrefix(a, "-") && len(a) > 1:
				i++
				// Options that take the next word.
				if (w == "env" && (a == "-u" || a == "-C" || a == "-S")) || (w == "nice" && a == "-n") || (w == "sudo" && (a == "-u" || a == "-g" || a == "-C")) || (w == "stdbuf" && len(a) == 2) {
					i++
				}
				continue
			case w == "env" && strings.Contains(a, "="):
				i++
				continue
			case w == "timeout":
				i++ // the duration
			}
			break
		}
	}
	return i
}

// shellScript finds the script of `sh [options] -c SCRIPT`: the first
// operand when an option cluster holds "c" (-c, -lc, -ec), or fish's
// --command SCRIPT. It returns the operand's index in args and the option.
func shellScript(args []string) (int, string) {
	opt := ""
	for j := 0; j < len(args); j++ {
		a := args[j]
		switch {
		case a == "--" || a == "-":
			if opt != "" && j+1 < len(args) {
				return j + 1, opt
			}
			return -1, ""
		case a == "--command":
			if j+1 < len(args) {
				return j + 1, a
			}
		case strings.HasPrefix(a, "--command="):
			return j, "--command"
		case strings.HasPrefix(a, "--"):
		case (strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+")) && len(a) > 1:
			if a[0] == '-' && strings.ContainsRune(a, 'c') {
				opt = a
			}
			if strings.HasSuffix(a, "o") || strings.HasSuffix(a, "O") {
				j++ // -o NAME
			}
		default:
			if opt != "" {
				return j, opt
			}
			return -1, ""
		}
	}
	return -1, ""
}

// inlineCode finds the code of an interpreter's option among the options
// before its first operand (the script file, after which the arguments are
// the script's): the index of the word holding the code, the option as
// written, and the code.
func inlineCode(args []string, code *regexp.Regexp, valueOpts, stop []string) (int, string, string) {
	for j := 0; j < len(args); j++ {
		a := args[j]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" || slices.Contains(stop, a) {
			break
		}
		if m := code.FindStringSubmatch(a); m != nil {
			if m[1] != "" {
				return j, strings.TrimSuffix(a[:len(a)-len(m[1])], "="), m[1]
			}
			if j+1 < len(args) {
				return j + 1, a, args[j+1]
			}
			break
		}
		if slices.Contains(valueOpts, a) {
			j++
		}
	}
	return -1, "", ""
}

// firstOperand is the index of the first argument from start that is not
// an option, or -1.
func firstOperand(args []string, start int) int {
	for j := start; j < len(args); j++ {
		if !strings.HasPrefix(args[j], "-") {
			return j
		}
	}
	return -1
}

// powershell reads PowerShell's options (case-insensitive, "-" or "/",
// abbreviated as PowerShell allows): -EncodedCommand's code is decoded for
// the warning, -Command's is code, and Windows PowerShell (not pwsh) runs a
// bare first operand as a command too.
func (s *shape) powershell(argv []string, i int, windows bool) []int {
	takesValue := []string{"executionpolicy", "ex", "ep", "windowstyle", "w", "outputformat", "o", "of", "inputformat", "if", "inf",
		"configurationname", "config", "workingdirectory", "wd", "settingsfile", "custompipename", "version", "v", "psconsolefile"}
	rest := func(from int) []int {
		var out []int
		for k := from; k < len(argv); k++ {
			out = append(out, k)
		}
		return out
	}
	for j := i + 1; j < len(argv); j++ {
		a := argv[j]
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "/") {
			if windows {
				s.warn(i18n.M("import.warn.inline", "language", "PowerShell", "how", argv[i]))
				s.text(strings.Join(argv[j:], " "))
				return rest(j)
			}
			return nil
		}
		opt := strings.ToLower(strings.TrimLeft(a, "-/"))
		switch {
		case opt == "e" || opt == "ec" || len(opt) >= 2 && strings.HasPrefix("encodedcommand", opt):
			if j+1 >= len(argv) {
				return nil
			}
			if script, ok := decodePowerShell(argv[j+1]); ok {
				s.warn(i18n.M("import.warn.encoded", "how", argv[i]+" "+a, "script", maskText(script)))
				s.text(script)
			} else {
				s.warn(i18n.M("import.warn.encodedUnreadable", "how", argv[i]+" "+a))
			}
			return []int{j + 1}
		case opt == "c" || len(opt) >= 3 && strings.HasPrefix("command", opt):
			s.warn(i18n.M("import.warn.inline", "language", "PowerShell", "how", argv[i]+" "+a))
			s.text(strings.Join(argv[j+1:], " "))
			return rest(j + 1)
		case opt == "f" || len(opt) >= 2 && strings.HasPrefix("file", opt):
			return nil
		case slices.Contains(takesValue, opt):
			j++
		}
	}
	return nil
}

// decodePowerShell decodes -EncodedCommand's argument: base64 of UTF-16LE.
func decodePowerShell(b64 string) (string, bool) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil || len(raw)%2 != 0 {
		return "", false
	}
	units := make([]uint16, len(raw)/2)
	for k := range units {
		units[k] = uint16(raw[2*k]) | uint16(raw[2*k+1])<<8
	}
	return string(utf16.Decode(units)), true
}

// text reads code that is not a shell's for a download run into.
func (s *shape) text(code string) {
	if m := downloadPipe.FindStringSubmatch(code); m != nil {
		s.warn(i18n.M("import.warn.download", "downloader", strings.ToLower(m[1]), "runner", strings.ToLower(m[2])))
	}
	if m := downloadEval.FindStringSubmatch(code); m != nil {
		s.warn(i18n.M("import.warn.download", "downloader", strings.ToLower(m[2]), "runner", strings.ToLower(m[1])))
	}
}

// script reads a shell script: pipelines from a downloader into a runner,
// a runner given a downloader's output ($(curl …), <(curl …)), and every
// command in it whose words are plain text as a command line of its own.
// A script the parser cannot read is read as text.
func (s *shape) script(src string, depth int) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		s.text(src)
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryCmd:
			if n.Op != syntax.Pipe && n.Op != syntax.PipeAll {
				break
			}
			stages := pipeStages(&syntax.Stmt{Cmd: n})
			for k, st := range stages {
				runner := stmtName(st)
				if k == 0 || runner == "" || !slices.Contains(runners, runner) {
					continue
				}
				for _, before := range stages[:k] {
					if d := findDownloader(before); d != "" {
						s.warn(i18n.M("import.warn.download", "downloader", d, "runner", runner))
					}
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				break
			}
			name, words := callWords(n)
			if name == "" || slices.Contains(runners, name) {
				// A runner (or a command word made at run time) fed what
				// a downloader gets.
				for _, w := range n.Args {
					if d := findDownloaderIn(w); d != "" {
						r := name
						if r == "" {
							r = "$(…)"
						}
						s.warn(i18n.M("import.warn.download", "downloader", d, "runner", r))
					}
				}
			}
			if words != nil {
				s.argv(words, depth+1)
			}
		}
		return true
	})
}

// pipeStages flattens a pipeline into its stages, in order.
func pipeStages(st *syntax.Stmt) []*syntax.Stmt {
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
		return append(pipeStages(b.X), pipeStages(b.Y)...)
	}
	return []*syntax.Stmt{st}
}

// stmtName is the program a pipeline stage runs, or "".
func stmtName(st *syntax.Stmt) string {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return ""
	}
	name, _ := callWords(call)
	return name
}

// callWords returns the program a command runs (wrappers looked through)
// and, when every word is plain text, its words; name is "" when the
// program's word is made at run time.
func callWords(call *syntax.CallExpr) (string, []string) {
	words := make([]string, 0, len(call.Args))
	static := true
	for _, w := range call.Args {
		text, ok := wordText(w)
		if !ok {
			static = false
		}
		words = append(words, text)
	}
	i := unwrap(words)
	name := ""
	if i < len(words) {
		if _, ok := wordText(call.Args[i]); ok {
			name = progName(words[i])
		}
	}
	if !static {
		return name, nil
	}
	return name, words
}

// wordText is a word's text when it is plain (letters and quotes, no
// expansion).
func wordText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// findDownloader is the downloader a stage runs, anywhere inside it.
func findDownloader(n syntax.Node) string {
	found := ""
	syntax.Walk(n, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && found == "" {
			if name := stmtName(&syntax.Stmt{Cmd: call}); slices.Contains(downloaders, name) {
				found = name
			}
		}
		return found == ""
	})
	return found
}

// findDownloaderIn is the downloader run by a command or process
// substitution in a word, or "".
func findDownloaderIn(w *syntax.Word) string {
	found := ""
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			for _, st := range n.Stmts {
				if found == "" {
					found = findDownloader(st)
				}
			}
		case *syntax.ProcSubst:
			for _, st := range n.Stmts {
				if found == "" {
					found = findDownloader(st)
				}
			}
		}
		return found == ""
	})
	return found
}
