package importcfg

import (
	"net/url"
	"regexp"
	"strings"
)

// Masked stands for a value the preview does not show.
const Masked = "••••••"

// secretName matches names of options, query parameters and variables that
// usually carry a secret.
var secretName = regexp.MustCompile(`(?i)(token|secret|passw|pwd|api[-_]?key|apikey|auth|credential|private|access[-_]?key|session|cookie|bearer|signature|(^|[-_])key$|^key$)`)

// secretPrefixes start well-known kinds of keys and tokens.
var secretPrefixes = []string{"sk-", "sk_", "ghp_", "gho_", "ghu_", "ghs_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xapp-", "AKIA", "AIza", "hf_", "pk_live_", "rk_live_", "Bearer "}

// maskArgs masks arguments that carry a secret: the value of an option whose
// name says it is one (--api-key VALUE, --token=VALUE), anything that starts
// like a well-known key, and the secret parts of URLs.
func maskArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if i > 0 && isSecretOption(args[i-1]) && !strings.HasPrefix(a, "-") {
			out[i] = Masked
			continue
		}
		if name, _, ok := strings.Cut(a, "="); ok && isSecretOption(name) {
			out[i] = name + "=" + Masked
			continue
		}
		if looksLikeKey(a) {
			out[i] = Masked
			continue
		}
		if strings.Contains(a, "://") {
			out[i] = maskURL(a)
		}
	}
	return out
}

// isSecretOption reports whether a is an option (-x, --x) named like a secret.
func isSecretOption(a string) bool {
	return strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && secretName.MatchString(strings.TrimLeft(a, "-"))
}

// looksLikeKey reports whether s starts like a well-known key or token.
func looksLikeKey(s string) bool {
	for _, p := range secretPrefixes {
		if strings.HasPrefix(s, p) && len(s) > len(p)+6 {
			return true
		}
	}
	return false
}

// maskURL masks a URL's password and the values of query parameters named
// like secrets. A URL that does not parse shows only up to its query.
func maskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			return raw[:i] + "?" + Masked
		}
		return raw
	}
	const placeholder = "GATEHOUSEMASKED"
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), placeholder)
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			name, _, _ := strings.Cut(p, "=")
			if unescaped, err := url.QueryUnescape(name); err == nil && secretName.MatchString(unescaped) || looksLikeKey(p) {
				parts[i] = name + "=" + placeholder
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	return strings.ReplaceAll(u.String(), placeholder, Masked)
}
