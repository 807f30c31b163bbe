package importcfg

import (
	"slices"
	"strings"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Environment variables that change how a program runs rather than what it
// is told: a file that sets one can make a harmless-looking command run
// other code. The preview shows their values in full (only a key or a URL
// password inside is masked, as in arguments) and says what each does.
// Names are compared in upper case (lower-case http_proxy and
// npm_config_* are common), and a name can match by prefix ("LD_*").
//
// Each class has its sentence (import.warn.env.CLASS):
//
//	path      PATH: which program a command name runs.
//	loader    LD_* (glibc's dynamic loader: LD_PRELOAD, LD_LIBRARY_PATH,
//	          LD_AUDIT, ...), DYLD_* (macOS): other code loaded into every
//	          program.
//	shell     BASH_ENV, ENV (a file every non-interactive bash / POSIX sh
//	          runs first), BASH_FUNC_* (exported functions), SHELLOPTS,
//	          BASHOPTS, PS4, PROMPT_COMMAND, IFS, ZDOTDIR.
//	runtime   code or options a language runtime loads: NODE_OPTIONS,
//	          NODE_PATH; PYTHON* (PYTHONPATH, PYTHONSTARTUP, PYTHONHOME,
//	          PYTHONINSPECT, ...); JAVA_TOOL_OPTIONS, _JAVA_OPTIONS,
//	          JDK_JAVA_OPTIONS, CLASSPATH; PERL5OPT, PERL5LIB, PERLLIB,
//	          PERL5DB; RUBYOPT, RUBYLIB; LUA_INIT, LUA_PATH, LUA_CPATH;
//	          DOTNET_STARTUP_HOOKS.
//	packages  where npx, bunx, pip and uv(x) fetch the package they run:
//	          NPM_CONFIG_* (registry, script-shell, ...), BUN_CONFIG_*,
//	          PIP_* (index-url, ...), UV_* (index, python, ...).
//	git       GIT_* (GIT_SSH_COMMAND, GIT_EXEC_PATH, GIT_CONFIG_* with
//	          core.hooksPath, GIT_ASKPASS, ...): programs Git runs.
//	network   which machine connections go through and which certificates
//	          are trusted: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY,
//	          SSL_CERT_FILE, SSL_CERT_DIR, NODE_EXTRA_CA_CERTS,
//	          NODE_TLS_REJECT_UNAUTHORIZED, REQUESTS_CA_BUNDLE,
//	          CURL_CA_BUNDLE.
var runtimeVars = []struct {
	class    string
	exact    []string
	prefixes []string
}{
	{"path", []string{"PATH"}, nil},
	{"loader", nil, []string{"LD_", "DYLD_"}},
	{"shell", []string{"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "IFS", "ZDOTDIR"}, []string{"BASH_FUNC_"}},
	{"network", []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
		"NODE_TLS_REJECT_UNAUTHORIZED", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"}, nil},
	{"runtime", []string{"NODE_OPTIONS", "NODE_PATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
		"PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB", "LUA_INIT", "LUA_PATH", "LUA_CPATH", "DOTNET_STARTUP_HOOKS"},
		[]string{"PYTHON", "LUA_INIT_"}},
	{"packages", nil, []string{"NPM_CONFIG_", "BUN_CONFIG_", "PIP_", "UV_"}},
	{"git", nil, []string{"GIT_"}},
}

// runtimeVar returns the class of a variable that changes how a program
// runs, or "" for any other.
func runtimeVar(name string) string {
	upper := strings.ToUpper(name)
	for _, v := range runtimeVars {
		if slices.Contains(v.exact, upper) || slices.ContainsFunc(v.prefixes, func(p string) bool { return strings.HasPrefix(upper, p) }) {
			return v.class
		}
	}
	return ""
}

// runtimeVarWarning is the sentence for a variable of a class.
func runtimeVarWarning(class, name, command string) i18n.Message {
	switch class {
	case "path":
		return i18n.M("import.warn.env.path", "name", name, "command", command)
	case "loader":
		return i18n.M("import.warn.env.loader", "name", name)
	case "shell":
		return i18n.M("import.warn.env.shell", "name", name)
	case "network":
		return i18n.M("import.warn.env.network", "name", name)
	case "packages":
		return i18n.M("import.warn.env.packages", "name", name)
	case "git":
		return i18n.M("import.warn.env.git", "name", name)
	}
	return i18n.M("import.warn.env.runtime", "name", name)
}
