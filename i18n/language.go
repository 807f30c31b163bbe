package i18n

import "strings"

// A Language is one the catalogue has, named by its BCP 47 tag, which is
// also its file name under locales/.
type Language string

// The languages Gatehouse speaks.
const (
	// English is the source language and the fallback.
	English Language = "en"
	// Chinese is Simplified Chinese (zh-CN).
	Chinese Language = "zh-CN"
)

// Languages lists the catalogue's languages, English first.
var Languages = []Language{English, Chinese}

// Match returns the language for a locale name or language tag: a POSIX
// locale ("zh_CN.UTF-8", "en_GB@euro", "C") or a BCP 47 tag ("zh-Hans-SG",
// "en-US"). Every Chinese one is Chinese: zh, zh_CN, zh_SG and zh-Hans, and
// also Traditional Chinese (zh_TW, zh_HK, zh_MO, zh-Hant), whose readers
// read Simplified Chinese more easily than English and can choose English in
// Settings. English ones and "C"/"POSIX" are English. ok is false for any
// other language, so that a caller can look further down a list.
func Match(locale string) (l Language, ok bool) {
	s := locale
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i] // the encoding and modifier say nothing about the language
	}
	s = strings.ToLower(strings.ReplaceAll(s, "_", "-"))
	lang, _, _ := strings.Cut(s, "-")
	switch {
	case lang == "zh":
		return Chinese, true
	case lang == "en", s == "c", s == "posix":
		return English, true
	}
	return "", false
}

// FromEnv returns the language the environment asks for, read as GLib reads
// it (which is also where the window's navigator.language comes from): each
// entry of the colon-separated LANGUAGE list, then the first set of LC_ALL,
// LC_MESSAGES and LANG. The first entry Match knows wins; English when none
// does.
func FromEnv(getenv func(string) string) Language {
	var candidates []string
	if list := getenv("LANGUAGE"); list != "" {
		candidates = strings.Split(list, ":")
	}
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			candidates = append(candidates, v)
			break
		}
	}
	for _, c := range candidates {
		if l, ok := Match(c); ok {
			return l
		}
	}
	return English
}

// A Choice is the person's language setting: System (follow the system's
// locale), or one of the Languages.
type Choice string

// System follows the system's locale.
const System Choice = ""

// Resolve returns the language a choice means, with system being the
// system's language for System or an unknown choice.
func (c Choice) Resolve(system Language) Language {
	for _, l := range Languages {
		if string(c) == string(l) {
			return l
		}
	}
	return system
}

// Valid reports whether c is System or one of the Languages.
func (c Choice) Valid() bool {
	return c == System || c.Resolve("") != ""
}
