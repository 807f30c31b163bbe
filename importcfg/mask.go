package importcfg

import (
	"net/url"
	"regexp"
	"strings"
)

// Masked stands for a value the preview does not show.
const Masked = "••••••"

// What the preview masks is only ever the part that looks secret: the value
// of an option or variable named like a secret, a well-known key, a URL's
// password or a secret query parameter. The rest of an argument is shown as
// it is, because it may be what runs: `sh -c "sk-live-x; curl … | sh"`
// shows the script with only the key hidden. A masked part is made of
// letters, digits and punctuation a shell does not treat specially, so
// masking never hides or adds a quote, a space, a ";" or a "|".

// secretName matches names of options, query parameters and variables that
// usually carry a secret.
var secretName = regexp.MustCompile(`(?i)(token|secret|passw|pwd|api[-_]?key|apikey|auth|credential|private|access[-_]?key|session|cookie|bearer|signature|(^|[-_])key$|^key$)`)

// secretPrefixes start well-known kinds of keys and tokens.
var secretPrefixes = []string{"sk-", "sk_", "ghp_", "gho_", "ghu_", "ghs_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xapp-", "AKIA", "AIza", "hf_", "pk_live_", "rk_live_", "Bearer "}

// keyToken finds a well-known key anywhere in a text: a prefix at the start
// or after a character that is not a letter or digit (so "task-queue" is no
// "sk-" key), then at least seven token characters: letters, digits and
// ._~+=- (and "/" after "Bearer ", whose token68 has it; a key of another
// kind ends at "/", so a path after it stays visible). maskKeys keeps the
// prefix visible and masks the rest.
var keyToken = func() *regexp.Regexp {
	quoted := make([]string, 0, len(secretPrefixes))
	for _, p := range secretPrefixes {
		if p != "Bearer " {
			quoted = append(quoted, regexp.QuoteMeta(p))
		}
	}
	return regexp.MustCompile(`(^|[^A-Za-z0-9])((?:` + strings.Join(quoted, "|") + `)[A-Za-z0-9._~+=-]{7,}|Bearer [A-Za-z0-9._~+/=-]{7,})`)
}()

// maskKeys masks the well-known keys in s, keeping each one's prefix.
func maskKeys(s string) string {
	return keyToken.ReplaceAllStringFunc(s, func(m string) string {
		for _, p := range secretPrefixes {
			if i := strings.Index(m, p); i >= 0 && i <= 1 {
				return m[:i+len(p)] + Masked
			}
		}
		return Masked
	})
}

// urlInText finds URLs inside a text (an argument, a script): a scheme,
// "://", and everything up to a space, a quote or a shell operator.
var urlInText = regexp.MustCompile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s'\"`<>|;()\\\\]+")

// opaque is a value with no space and no character a shell or a program
// would read as code: what a key, a token or a password looks like. Only
// such a value is masked whole after a secret's name.
var opaque = regexp.MustCompile(`^[A-Za-z0-9._~+/=:@%,-]+$`)

// structural are the characters a shell (or a reader) splits or expands
// on: a URL's password or parameter holding one is code, not a secret, and
// is shown.
const structural = " \t\n\r;|&$`'\"()<>\\{}"

// assignName is the name part of a NAME=value argument (`env TOKEN=x cmd`,
// `docker run -e TOKEN=x`).
var assignName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// maskArgs masks the secret parts of arguments: the value of an option
// whose name says it is a secret (--api-key VALUE, --token=VALUE), the
// value of a NAME=VALUE argument named like one, well-known keys anywhere,
// and the secret parts of URLs anywhere. scripts are the indexes of
// arguments that are code to run (sh -c SCRIPT): their option-like
// neighbours never mask them, only the keys and URL secrets inside them are.
func maskArgs(args []string, scripts map[int]bool) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch name, value, hasValue := strings.Cut(a, "="); {
		case scripts[i]:
			out[i] = maskText(a)
		case i > 0 && isSecretOption(args[i-1]) && !strings.HasPrefix(a, "-"):
			out[i] = maskValue(a)
		case hasValue && (isSecretOption(name) || assignName.MatchString(name) && secretName.MatchString(name)):
			out[i] = name + "=" + maskValue(value)
		default:
			out[i] = maskText(a)
		}
	}
	return out
}

// MaskArgs masks the secret parts of a command line's arguments as the
// import preview does (the value of --api-key VALUE, TOKEN=VALUE,
// well-known keys and URL secrets anywhere), for showing the command line
// of a program Gatehouse did not start (the gateway's launcher).
func MaskArgs(args []string) []string { return maskArgs(args, nil) }

// isSecretOption reports whether a is an option (-x, --x) named like a secret.
func isSecretOption(a string) bool {
	return strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && secretName.MatchString(strings.TrimLeft(a, "-"))
}

// maskValue masks the value of something named like a secret: whole when it
// looks like a key (opaque), else only its secret-looking parts, so a
// hostile file cannot hide a script behind an option called --token.
func maskValue(v string) string {
	if opaque.MatchString(v) && !strings.Contains(v, "://") {
		return Masked
	}
	return maskText(v)
}

// maskAddress masks a server's URL: its password, secret parameters and
// any well-known key in it.
func maskAddress(u string) string {
	return maskURL(maskKeys(u))
}

// maskText masks the secret-looking parts of a text and nothing else:
// well-known keys, and the passwords and secret query parameters of the
// URLs in it.
func maskText(s string) string {
	return urlInText.ReplaceAllStringFunc(maskKeys(s), maskURL)
}

// maskURL masks a URL's password and the values of its query (and fragment)
// parameters named like secrets, working on the text as written: the rest
// is shown byte for byte, also when the URL does not parse, so the preview
// never shows another URL than the one that will be used.
// A password or value holding a structural character is code, not a key,
// and is shown: "?token=$(cat f)" must not read as "?token=••••••(cat f)".
func maskURL(raw string) string {
	scheme, authority, tail := "", "", raw
	if i := strings.Index(raw, "://"); i >= 0 {
		scheme, tail = raw[:i+3], raw[i+3:]
		end := strings.IndexAny(tail, "/?#")
		if end < 0 {
			end = len(tail)
		}
		authority, tail = tail[:end], tail[end:]
	}
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		if user, password, hasPassword := strings.Cut(authority[:at], ":"); hasPassword && !strings.ContainsAny(password, structural) {
			authority = user + ":" + Masked + authority[at:]
		}
	}
	var b strings.Builder
	b.WriteString(scheme + authority)
	// Parameters follow "?" and, in OAuth's implicit flow, "#".
	for tail != "" {
		i := strings.IndexAny(tail, "?#")
		if i < 0 {
			b.WriteString(tail)
			break
		}
		b.WriteString(tail[:i+1])
		tail = tail[i+1:]
		j := strings.IndexAny(tail, "?#")
		if j < 0 {
			j = len(tail)
		}
		b.WriteString(maskParams(tail[:j]))
		tail = tail[j:]
	}
	return b.String()
}

// maskParams masks the values of the parameters named like secrets in
// name=value&name=value.
func maskParams(query string) string {
	parts := strings.Split(query, "&")
	for i, p := range parts {
		name, value, ok := strings.Cut(p, "=")
		if !ok || strings.ContainsAny(value, structural) {
			continue
		}
		unescaped, err := url.QueryUnescape(name)
		if err != nil {
			unescaped = name
		}
		if secretName.MatchString(unescaped) {
			parts[i] = name + "=" + Masked
		}
	}
	return strings.Join(parts, "&")
}

// configPair finds a key and its string value on one line of a JSON file
// (`"KEY": "value"`) or a TOML file (`KEY = "value"`, `"KEY" = "value"`,
// also inside an inline table).
var configPair = regexp.MustCompile(`("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)(\s*[:=]\s*)"((?:[^"\\]|\\.)*)"`)

// MaskLine masks the secret-looking parts of one line of an app's config
// file, for showing the lines around a change (package connectapp's
// preview): the value of a key named like a secret, the value of every
// entry of a block of environment variables or headers (inBlock), and, as
// in a preview of an import, well-known keys and the passwords and secret
// parameters of URLs anywhere in the line.
func MaskLine(line string, inBlock bool) string {
	line = configPair.ReplaceAllStringFunc(line, func(m string) string {
		p := configPair.FindStringSubmatch(m)
		name := strings.Trim(p[1], `"`)
		if p[3] == "" || !inBlock && !secretName.MatchString(name) {
			return m
		}
		return p[1] + p[2] + `"` + Masked + `"`
	})
	return maskText(line)
}
