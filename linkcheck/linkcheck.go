package linkcheck

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// MaxLength is the longest URL, in bytes, that Check accepts.
const MaxLength = 8192

// Kinds of Warning.
const (
	// WarnIDN marks a host with letters beyond plain ASCII (an IDN).
	WarnIDN = "idn"
	// WarnMixedScript marks a label mixing letters of several scripts.
	WarnMixedScript = "mixed-script"
	// WarnConfusable marks a label whose every letter imitates a Latin one.
	WarnConfusable = "confusable"
	// WarnLookAlike marks ASCII characters easily mistaken for others.
	WarnLookAlike = "look-alike"
	// WarnNormalized marks a host written with unusual letter forms that
	// were mapped to ordinary ones (full-width, mathematical, decomposed).
	WarnNormalized = "normalized"
	// WarnIPHost marks a host given as an IP address rather than a name.
	WarnIPHost = "ip-host"
	// WarnPrivate marks an IP address outside the public internet.
	WarnPrivate = "private-address"
	// WarnLoopback marks a development address on this computer.
	WarnLoopback = "loopback"
	// WarnPort marks an explicit port other than the scheme's default.
	WarnPort = "unusual-port"
)

// ErrUnsafe is wrapped by every refusal from Check.
var ErrUnsafe = errors.New("unsafe link")

// Report is what Gatehouse knows about a URL before showing it. Its JSON
// form is what the consent display receives; Warnings is never nil, so it
// is always a list there.
type Report struct {
	URL         string `json:"url"`         // the normalized URL as it will be opened, with the ASCII host
	Scheme      string `json:"scheme"`      // "https" or "http"
	Host        string `json:"host"`        // host as Unicode for display, lower case, no port or brackets
	ASCIIHost   string `json:"asciiHost"`   // host in ASCII (punycode) form
	Port        string `json:"port"`        // "" when the scheme's default
	Domain      string `json:"domain"`      // registrable domain (eTLD+1) in Unicode, the whole host if it has none; "" for IPs and localhost
	ASCIIDomain string `json:"asciiDomain"` // the registrable domain in ASCII

	// Display is the full URL with the Unicode host. Before, DomainPart and
	// After split it so that a UI can highlight DomainPart:
	// Before+DomainPart+After == Display. DomainPart is empty when Domain is.
	Display    string `json:"display"`
	Before     string `json:"before"`
	DomainPart string `json:"domainPart"`
	After      string `json:"after"`

	Loopback bool      `json:"loopback"` // http(s) to 127.0.0.0/8, ::1 or "localhost": a development address
	Warnings []Warning `json:"warnings"` // reasons to look twice: about the name, then the address, then the port
}

// Warning is one reason to look twice, in words a person understands.
type Warning struct {
	Kind    string       `json:"kind"`    // one of the Warn* constants
	Message i18n.Message `json:"message"` // a full sentence
}

// HasWarning reports whether r carries a warning of the given kind.
func (r *Report) HasWarning(kind string) bool {
	return slices.ContainsFunc(r.Warnings, func(w Warning) bool { return w.Kind == kind })
}

// refuse builds a refusal from Check: its message is a sentence for people
// and it matches ErrUnsafe with errors.Is.
func refuse(msg i18n.Message) error {
	return &i18n.Error{Message: msg, Err: ErrUnsafe}
}

// hostProfile is the strict IDNA profile every host name must pass.
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.ValidateLabels(true),
	idna.StrictDomainName(true),
	idna.CheckHyphens(true),
	idna.CheckJoiners(true),
	idna.VerifyDNSLength(true),
	idna.Transitional(false),
)

// Check parses raw strictly and returns its report, or an error wrapping
// ErrUnsafe whose message is a sentence for people naming the problem.
func Check(raw string) (*Report, error) {
	if err := checkLinkText(raw); err != nil {
		return nil, err
	}
	scheme, err := linkScheme(raw)
	if err != nil {
		return nil, err
	}
	if err := checkAuthority(raw[len(scheme)+len("://"):]); err != nil {
		return nil, err
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, refuse(i18n.M("linkcheck.refuse.malformed"))
	}
	if u.User != nil {
		return nil, refuse(i18n.M("linkcheck.refuse.userinfo"))
	}
	host, err := resolveLinkHost(u)
	if err != nil {
		return nil, err
	}
	if scheme == "http" && !host.loopback {
		return nil, refuse(i18n.M("linkcheck.refuse.http"))
	}
	port, err := linkPort(u.Port(), scheme)
	if err != nil {
		return nil, err
	}
	return buildReport(u, scheme, port, host), nil
}

// checkLinkText refuses strings that are empty, too long, padded, not UTF-8,
// or that contain characters which are invisible, control or separators, a
// leading dash, or backslashes.
func checkLinkText(raw string) error {
	switch {
	case raw == "":
		return refuse(i18n.M("linkcheck.refuse.empty"))
	case len(raw) > MaxLength:
		return refuse(i18n.M("linkcheck.refuse.tooLong", "max", MaxLength))
	case strings.TrimSpace(raw) != raw:
		return refuse(i18n.M("linkcheck.refuse.padded"))
	case !utf8.ValidString(raw):
		return refuse(i18n.M("linkcheck.refuse.notText"))
	}
	for _, r := range raw {
		if name, ok := hiddenRuneName(r); ok {
			return refuse(i18n.M("linkcheck.refuse.hidden", "what", name, "code", fmt.Sprintf("U+%04X", r)))
		}
	}
	if strings.HasPrefix(raw, "-") {
		return refuse(i18n.M("linkcheck.refuse.dash"))
	}
	if strings.ContainsRune(raw, '\\') {
		return refuse(i18n.M("linkcheck.refuse.backslash"))
	}
	return nil
}

// hiddenRuneName describes r when it is a character that must not appear in
// a link: controls, spaces and line breaks, format characters (bidi controls,
// zero-width characters, soft hyphen), variation selectors and other
// default-ignorable or non-characters. ok is false for ordinary characters.
func hiddenRuneName(r rune) (name i18n.Message, ok bool) {
	switch {
	case r == ' ':
		return i18n.M("linkcheck.char.space"), true
	case r == '\n' || r == '\r':
		return i18n.M("linkcheck.char.lineBreak"), true
	case r == '\t':
		return i18n.M("linkcheck.char.tab"), true
	case unicode.IsControl(r):
		return i18n.M("linkcheck.char.control"), true
	case unicode.In(r, unicode.Bidi_Control):
		return i18n.M("linkcheck.char.bidi"), true
	case unicode.IsSpace(r) || unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp):
		return i18n.M("linkcheck.char.spaceLike"), true
	case r == 0x00AD:
		return i18n.M("linkcheck.char.softHyphen"), true
	case unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point):
		return i18n.M("linkcheck.char.invisible"), true
	case r == utf8.RuneError || unicode.In(r, unicode.Noncharacter_Code_Point, unicode.Co, unicode.Cs):
		return i18n.M("linkcheck.char.unusable"), true
	}
	return i18n.Message{}, false
}

// linkScheme returns the lower-case scheme of raw, refusing anything but
// https and http and anything not followed by "//".
func linkScheme(raw string) (string, error) {
	name, rest, ok := strings.Cut(raw, ":")
	if !ok || !validSchemeName(name) {
		return "", refuse(i18n.M("linkcheck.refuse.noScheme"))
	}
	scheme := strings.ToLower(name)
	if scheme != "https" && scheme != "http" {
		return "", refuse(i18n.M("linkcheck.refuse.scheme", "scheme", strconv.Quote(shorten(scheme, 32)+":")))
	}
	if !strings.HasPrefix(rest, "//") {
		return "", refuse(i18n.M("linkcheck.refuse.noSlashes", "scheme", scheme))
	}
	return scheme, nil
}

// validSchemeName reports whether s matches the URL scheme grammar
// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
func validSchemeName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range []byte(s) {
		isAlpha := c|0x20 >= 'a' && c|0x20 <= 'z'
		if !isAlpha && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// checkAuthority refuses an authority (the text after "scheme://" up to the
// path) that carries user information or percent-encoding.
func checkAuthority(afterSlashes string) error {
	authority := afterSlashes
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	if strings.Contains(authority, "@") {
		return refuse(i18n.M("linkcheck.refuse.userinfo"))
	}
	if strings.Contains(authority, "%") {
		return refuse(i18n.M("linkcheck.refuse.percent"))
	}
	return nil
}

// linkHost is a host after validation.
type linkHost struct {
	raw      string     // as typed, brackets removed
	ascii    string     // ASCII form, lower case
	unicode  string     // Unicode form, lower case
	ip       netip.Addr // valid when the host is an IP address
	loopback bool       // 127.0.0.0/8, ::1 or localhost
	mapped   bool       // IDNA mapped unusual letter forms to ordinary ones
}

// resolveLinkHost validates the host of u and computes its forms.
func resolveLinkHost(u *url.URL) (linkHost, error) {
	raw := u.Hostname()
	if raw == "" {
		return linkHost{}, refuse(i18n.M("linkcheck.refuse.noHost"))
	}
	if strings.HasPrefix(u.Host, "[") {
		return resolveIPv6(raw)
	}
	if ip, err := netip.ParseAddr(raw); err == nil {
		if !ip.Is4() {
			return linkHost{}, refuse(i18n.M("linkcheck.refuse.ipv6Brackets"))
		}
		return ipHost(raw, ip), nil
	}
	if numericHost(raw) {
		return linkHost{}, refuse(i18n.M("linkcheck.refuse.numericHost", "host", shorten(raw, 64)))
	}
	ascii, err := hostProfile.ToASCII(raw)
	if err != nil {
		return linkHost{}, refuse(i18n.M("linkcheck.refuse.badName", "host", strconv.Quote(shorten(raw, 64))))
	}
	uni, err := hostProfile.ToUnicode(ascii)
	if err != nil {
		return linkHost{}, refuse(i18n.M("linkcheck.refuse.badName", "host", strconv.Quote(shorten(raw, 64))))
	}
	return linkHost{
		raw:      raw,
		ascii:    ascii,
		unicode:  uni,
		loopback: strings.TrimSuffix(ascii, ".") == "localhost",
		mapped:   hostWasMapped(raw, ascii, uni),
	}, nil
}

// resolveIPv6 validates a bracketed host, which must be an IPv6 address.
func resolveIPv6(raw string) (linkHost, error) {
	ip, err := netip.ParseAddr(raw)
	if err != nil || !ip.Is6() || ip.Zone() != "" {
		return linkHost{}, refuse(i18n.M("linkcheck.refuse.badIPv6", "host", strconv.Quote(shorten(raw, 64))))
	}
	return ipHost(raw, ip), nil
}

// ipHost describes an IP address host.
func ipHost(raw string, ip netip.Addr) linkHost {
	s := ip.String()
	return linkHost{raw: raw, ascii: s, unicode: s, ip: ip, loopback: ip.Unmap().IsLoopback()}
}

// numericHost reports whether a host that is not a canonical IP address
// would still be read as a number by browsers: its last label (ignoring a
// trailing dot) is decimal digits or "0x" followed by hex digits.
func numericHost(host string) bool {
	host = strings.TrimSuffix(host, ".")
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	digits := "0123456789"
	if len(last) >= 2 && last[0] == '0' && last[1]|0x20 == 'x' {
		last, digits = last[2:], "0123456789abcdefABCDEF"
	}
	return strings.Trim(last, digits) == ""
}

// hostWasMapped reports whether IDNA changed the host beyond lower-casing
// and punycode, for example by folding full-width or mathematical letters.
func hostWasMapped(raw, ascii, uni string) bool {
	rawLabels := strings.Split(strings.ToLower(raw), ".")
	asciiLabels := strings.Split(ascii, ".")
	uniLabels := strings.Split(uni, ".")
	if len(rawLabels) != len(asciiLabels) || len(uniLabels) != len(asciiLabels) {
		return true
	}
	for i, label := range rawLabels {
		want := uniLabels[i]
		if isASCII(label) {
			want = asciiLabels[i]
		}
		if label != want {
			return true
		}
	}
	return false
}

// linkPort validates an explicit port and returns it in canonical form, or ""
// when it is absent or the scheme's default.
func linkPort(port, scheme string) (string, error) {
	if port == "" {
		return "", nil
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return "", refuse(i18n.M("linkcheck.refuse.port", "port", shorten(port, 16)))
	}
	if (scheme == "https" && n == 443) || (scheme == "http" && n == 80) {
		return "", nil
	}
	return strconv.Itoa(n), nil
}

// buildReport assembles the report of a validated URL.
func buildReport(u *url.URL, scheme, port string, h linkHost) *Report {
	r := &Report{
		Scheme:    scheme,
		Host:      h.unicode,
		ASCIIHost: h.ascii,
		Port:      port,
		Loopback:  h.loopback,
	}
	if !h.ip.IsValid() && !h.loopback {
		r.ASCIIDomain = registrableDomain(h.ascii)
		r.Domain = unicodeDomain(h.unicode, r.ASCIIDomain)
	}

	u.Scheme = scheme
	u.Host = joinHostPort(h.ascii, h.ip, port)
	r.URL = u.String()
	prefix := scheme + "://"
	rest := strings.TrimPrefix(r.URL, prefix+u.Host)
	r.Display = prefix + joinHostPort(h.unicode, h.ip, port) + rest
	r.Before, r.DomainPart, r.After = r.Display, "", ""
	if r.Domain != "" {
		// The Unicode host ends with the domain, optionally followed by the
		// root dot; split there, never at an earlier occurrence.
		hostEnd := strings.TrimSuffix(h.unicode, ".")
		cut := len(prefix) + len(hostEnd) - len(r.Domain)
		r.Before = r.Display[:cut]
		r.DomainPart = r.Domain
		r.After = r.Display[cut+len(r.Domain):]
	}

	r.Warnings = linkWarnings(r, h)
	return r
}

// joinHostPort writes a host and optional port for a URL, bracketing IPv6.
func joinHostPort(host string, ip netip.Addr, port string) string {
	if ip.Is6() {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return host
}

// registrableDomain returns the eTLD+1 of an ASCII host, or the whole host
// (without a root dot) when it is itself a public suffix or has no eTLD+1.
func registrableDomain(asciiHost string) string {
	host := strings.TrimSuffix(asciiHost, ".")
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}

// unicodeDomain returns the Unicode form of an ASCII registrable domain, taken
// from the end of the Unicode host so that the two always agree.
func unicodeDomain(unicodeHost, asciiDomain string) string {
	labels := strings.Split(strings.TrimSuffix(unicodeHost, "."), ".")
	n := strings.Count(asciiDomain, ".") + 1
	if n > len(labels) {
		n = len(labels)
	}
	return strings.Join(labels[len(labels)-n:], ".")
}

// linkWarnings lists everything about a valid URL that deserves a second
// look: the name, then the address, then the port. The list is never nil.
func linkWarnings(r *Report, h linkHost) []Warning {
	ws := []Warning{} // never nil: the UI gets a list
	add := func(kind string, msg i18n.Message) {
		ws = append(ws, Warning{Kind: kind, Message: msg})
	}
	if h.ip.IsValid() {
		add(WarnIPHost, i18n.M("linkcheck.warn.ipHost", "host", h.ascii))
	} else {
		ws = append(ws, nameWarnings(r, h)...)
	}
	switch {
	case r.Loopback:
		add(WarnLoopback, i18n.M("linkcheck.warn.loopback", "host", h.ascii))
	case h.ip.IsValid() && !PublicIP(h.ip):
		add(WarnPrivate, i18n.M("linkcheck.warn.private", "host", h.ascii))
	}
	if r.Port != "" && !r.Loopback {
		add(WarnPort, i18n.M("linkcheck.warn.port", "port", r.Port, "scheme", r.Scheme))
	}
	return ws
}

// nameWarnings lists the warnings about a host name: mapped letter forms,
// IDN, mixed scripts, whole-script confusables and ASCII look-alikes.
func nameWarnings(r *Report, h linkHost) []Warning {
	var ws []Warning
	add := func(kind string, msg i18n.Message) {
		ws = append(ws, Warning{Kind: kind, Message: msg})
	}
	if h.mapped {
		add(WarnNormalized, i18n.M("linkcheck.warn.normalized", "host", h.ascii))
	}
	if !isASCII(h.unicode) {
		add(WarnIDN, i18n.M("linkcheck.warn.idn", "host", h.ascii))
	}
	imitated := imitatedName(r.Domain, h.unicode)
	labels := strings.Split(strings.TrimSuffix(h.unicode, "."), ".")
	tldScript := soleScript(labels[len(labels)-1])
	var mixed, confusable []string
	for _, label := range labels {
		if isASCII(label) {
			continue
		}
		scripts := labelScripts(label)
		if len(scripts) > 1 && !allowedScriptMix(scripts) {
			mixed = appendNew(mixed, scripts...)
			continue
		}
		// A label in the same script as the top-level domain (ерос.рф) is
		// not imitating a Latin name; unusual Latin letters always count.
		if len(scripts) == 1 && (scripts[0] != tldScript || scripts[0] == "Latin") {
			if sk, ok := latinSkeleton(label); ok && sk != label {
				confusable = appendNew(confusable, scripts...)
			}
		}
	}
	if len(mixed) > 0 {
		if imitated != "" {
			add(WarnMixedScript, i18n.M("linkcheck.warn.mixedScript.imitates", "scripts", scriptList(mixed), "name", imitated))
		} else {
			add(WarnMixedScript, i18n.M("linkcheck.warn.mixedScript", "scripts", scriptList(mixed)))
		}
	}
	if len(confusable) > 0 && imitated != "" {
		if slices.Equal(confusable, []string{"Latin"}) {
			add(WarnConfusable, i18n.M("linkcheck.warn.confusableLatin", "name", imitated))
		} else {
			add(WarnConfusable, i18n.M("linkcheck.warn.confusable", "scripts", scriptList(confusable), "name", imitated))
		}
	}
	if asciiLookAlike(h.raw, r.Domain) {
		add(WarnLookAlike, i18n.M("linkcheck.warn.lookAlike"))
	}
	return ws
}

// imitatedName returns the plain-Latin name a host may imitate: the skeleton
// of its registrable domain when that differs from the domain, otherwise the
// skeleton of the whole host when that differs; "" when no label can be
// fully spelled in plain Latin or nothing changes.
func imitatedName(domain, host string) string {
	for _, name := range []string{domain, strings.TrimSuffix(host, ".")} {
		if name == "" {
			continue
		}
		if sk := hostSkeleton(name); sk != name && isASCII(sk) {
			return sk
		}
	}
	return ""
}

// hostSkeleton replaces every label that can be spelled in plain Latin by
// its skeleton and keeps the others.
func hostSkeleton(host string) string {
	labels := strings.Split(host, ".")
	for i, label := range labels {
		if sk, ok := latinSkeleton(label); ok {
			labels[i] = sk
		}
	}
	return strings.Join(labels, ".")
}

// latinSkeleton spells label with the plain ASCII letters and digits its
// characters look like; ok is false when some character has no look-alike.
func latinSkeleton(label string) (string, bool) {
	var b strings.Builder
	for _, r := range label {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case latinLookAlikes[r] != 0:
			b.WriteByte(latinLookAlikes[r])
		default:
			return "", false
		}
	}
	return b.String(), true
}

// latinLookAlikes maps lower-case letters of other scripts (and unusual
// Latin letters) to the plain ASCII character they are easily mistaken for.
// Full-width and mathematical forms need no entry: IDNA already folds them.
var latinLookAlikes = map[rune]byte{
	// Cyrillic
	'а': 'a', 'б': '6', 'г': 'r', 'е': 'e', 'з': '3', 'к': 'k', 'о': 'o', 'п': 'n',
	'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ь': 'b', 'ѕ': 's', 'і': 'i', 'ј': 'j',
	'һ': 'h', 'ӏ': 'l', 'ү': 'y', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ѡ': 'w', 'ѵ': 'v',
	'ҽ': 'e',
	// Greek
	'α': 'a', 'γ': 'y', 'η': 'n', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p',
	'υ': 'u', 'χ': 'x', 'ω': 'w', 'ϲ': 'c', 'ϳ': 'j',
	// Armenian
	'օ': 'o', 'ս': 'u', 'ց': 'g', 'հ': 'h', 'ո': 'n', 'զ': 'q', 'ք': 'p',
	// Unusual Latin letters that are not accented forms of ASCII letters
	'ı': 'i', 'ȷ': 'j', 'ɑ': 'a', 'ɡ': 'g', 'ɩ': 'i', 'ɪ': 'i', 'ɴ': 'n', 'ʀ': 'r',
	'ʏ': 'y', 'ʙ': 'b', 'ʜ': 'h', 'ɢ': 'g', 'ᴀ': 'a', 'ᴄ': 'c', 'ᴅ': 'd', 'ᴇ': 'e',
	'ᴋ': 'k', 'ᴍ': 'm', 'ᴏ': 'o', 'ᴘ': 'p', 'ᴛ': 't', 'ᴜ': 'u', 'ᴠ': 'v', 'ᴡ': 'w',
	'ᴢ': 'z', 'ꜱ': 's',
}

// labelScripts returns the sorted names of the scripts of the letters in
// label, ignoring characters common to all scripts (digits, hyphen) and
// combining marks that inherit their base letter's script.
func labelScripts(label string) []string {
	var scripts []string
	for _, r := range label {
		if s := scriptOf(r); s != "" {
			scripts = appendNew(scripts, s)
		}
	}
	slices.Sort(scripts)
	return scripts
}

// soleScript returns the script of label when it has exactly one, else "".
func soleScript(label string) string {
	if s := labelScripts(label); len(s) == 1 {
		return s[0]
	}
	return ""
}

// scriptOf names the Unicode script of r, or "" for Common and Inherited.
func scriptOf(r rune) string {
	if r < utf8.RuneSelf {
		if unicode.IsLetter(r) {
			return "Latin"
		}
		return ""
	}
	for name, table := range unicode.Scripts {
		if name != "Common" && name != "Inherited" && unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

// allowedScriptMixes are the combinations that UTS #39 calls highly
// restrictive: writing systems that are normally mixed, such as Japanese.
var allowedScriptMixes = [][]string{
	{"Han", "Hiragana", "Katakana", "Latin"},
	{"Bopomofo", "Han", "Latin"},
	{"Han", "Hangul", "Latin"},
}

// allowedScriptMix reports whether scripts (sorted) fit one allowed mix.
func allowedScriptMix(scripts []string) bool {
	for _, mix := range allowedScriptMixes {
		if !slices.ContainsFunc(scripts, func(s string) bool { return !slices.Contains(mix, s) }) {
			return true
		}
	}
	return false
}

// asciiLookAlike applies the look-alike rule to the host as typed: some label
// has an upper-case "I" right after a lower-case letter (paypaI.com reads as
// paypal.com but opens paypai.com), or the registrable label (the one before
// the public suffix) is made only of letters, hyphens and the digits 0 and 1,
// with a 0 or 1 next to a letter (g00gle.com, paypa1.com).
func asciiLookAlike(rawHost, domain string) bool {
	for _, label := range strings.Split(rawHost, ".") {
		for i := 1; i < len(label); i++ {
			if label[i] == 'I' && isLowerASCII(label[i-1]) {
				return true
			}
		}
	}
	first, _, _ := strings.Cut(domain, ".")
	return digitsAmongLetters(first)
}

// isLowerASCII reports whether c is a lower-case ASCII letter.
func isLowerASCII(c byte) bool { return c >= 'a' && c <= 'z' }

// digitsAmongLetters reports whether label consists of ASCII letters,
// hyphens and the digits 0 and 1 only, with a 0 or 1 next to a letter.
func digitsAmongLetters(label string) bool {
	isLetter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	found := false
	for i := 0; i < len(label); i++ {
		c := label[i]
		switch {
		case isLetter(c) || c == '-':
		case c == '0' || c == '1':
			if i > 0 && isLetter(label[i-1]) || i+1 < len(label) && isLetter(label[i+1]) {
				found = true
			}
		default:
			return false
		}
	}
	return found
}

// isASCII reports whether s is plain ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// appendNew appends the values not yet in list.
func appendNew(list []string, values ...string) []string {
	for _, v := range values {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

// scriptList names scripts as a list in the person's language ("Latin and
// Cyrillic").
func scriptList(scripts []string) i18n.Message {
	names := make([]i18n.Message, len(scripts))
	for i, s := range scripts {
		if m, ok := scriptNames[s]; ok {
			names[i] = m
		} else {
			names[i] = i18n.Text(s)
		}
	}
	return i18n.List(names...)
}

// scriptNames are the names of the scripts a look-alike address most often
// mixes, in the person's language; others keep their Unicode name.
var scriptNames = map[string]i18n.Message{
	"Latin":      i18n.M("linkcheck.script.latin"),
	"Cyrillic":   i18n.M("linkcheck.script.cyrillic"),
	"Greek":      i18n.M("linkcheck.script.greek"),
	"Armenian":   i18n.M("linkcheck.script.armenian"),
	"Cherokee":   i18n.M("linkcheck.script.cherokee"),
	"Georgian":   i18n.M("linkcheck.script.georgian"),
	"Han":        i18n.M("linkcheck.script.han"),
	"Hiragana":   i18n.M("linkcheck.script.hiragana"),
	"Katakana":   i18n.M("linkcheck.script.katakana"),
	"Hangul":     i18n.M("linkcheck.script.hangul"),
	"Arabic":     i18n.M("linkcheck.script.arabic"),
	"Hebrew":     i18n.M("linkcheck.script.hebrew"),
	"Thai":       i18n.M("linkcheck.script.thai"),
	"Devanagari": i18n.M("linkcheck.script.devanagari"),
}

// shorten truncates s to at most n runes, marking the cut with an ellipsis.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
