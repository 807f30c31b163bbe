// Package cmdline writes a program and its arguments as one line of text
// that a person can read and a POSIX shell would run as the same program
// with the same arguments. Gatehouse shows a stdio server's command this
// way everywhere (the import preview, the server card, the consent
// dialogs, the command line), so that where one argument ends and the next
// begins is never a guess: `sh -c 'a; b'` is two arguments after sh, and
// `sh -c a; b` would be something else.
//
// Quoting follows the POSIX shell (IEEE Std 1003.1-2024, "Quoting"): an
// argument with no character a shell treats specially is written as it is,
// others in single quotes, or double quotes when they hold a single quote.
// An argument with a character that cannot be written visibly inside
// quotes (a control character, an invisible or direction-changing one such
// as U+200B or U+202E, a byte that is not UTF-8) is written in the
// dollar-single-quote form the same standard added ($'…', with \n, \t and
// \xHH escapes), so nothing in it is hidden or reordered on screen.
package cmdline

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Join writes command and args as one shell command line: each word quoted
// by Quote, separated by one space.
func Join(command string, args []string) string {
	words := make([]string, 0, 1+len(args))
	words = append(words, quote(command, true))
	for _, a := range args {
		words = append(words, quote(a, false))
	}
	return strings.Join(words, " ")
}

// Quote writes one argument as a POSIX shell word that stands for exactly
// that argument.
func Quote(arg string) string {
	return quote(arg, false)
}

// quote quotes s; first says it is the command's own word, where "NAME=x"
// would be read as an assignment and so needs quotes it does not need as
// an argument.
func quote(s string, first bool) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil {
		// A character POSIX can only write in $'…' (or a NUL byte, which
		// no argument can hold: shown so that the line is still exact).
		return dollarQuote(s)
	}
	if !first && q != s && !strings.HasPrefix(s, "=") {
		// "=" needs quoting only where it makes an assignment, before the
		// command; "--key=value" reads better as it is.
		if plain, err := syntax.Quote(strings.ReplaceAll(s, "=", "_"), syntax.LangPOSIX); err == nil && plain == strings.ReplaceAll(s, "=", "_") {
			return s
		}
	}
	return q
}

// dollarQuote writes s as $'…': printable characters as they are, ' and \
// escaped, the usual control characters as \n, \t, ..., and every other
// byte of an unprintable character as \xHH (POSIX.1-2024 dollar-single-
// quotes; \u is bash's, not POSIX's). A printable hex digit right after an
// \xHH escape starts a new $'…' so that the escape stays two digits long.
func dollarQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	afterHex := false
	for rem := s; len(rem) > 0; {
		r, size := utf8.DecodeRuneInString(rem)
		wasHex := afterHex
		afterHex = false
		switch {
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r != utf8.RuneError && unicode.IsPrint(r):
			if wasHex && strings.ContainsRune("0123456789abcdefABCDEF", r) {
				b.WriteString("'$'")
			}
			b.WriteRune(r)
		case r == '\a':
			b.WriteString(`\a`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\v':
			b.WriteString(`\v`)
		default:
			for i := range size {
				fmt.Fprintf(&b, `\x%02x`, rem[i])
			}
			afterHex = true
		}
		rem = rem[size:]
	}
	b.WriteByte('\'')
	return b.String()
}
