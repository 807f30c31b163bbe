package linkcheck

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// refusedLinks are addresses Check must refuse (E22), each with a word
// its message must contain.
var refusedLinks = []struct {
	name, raw, mention string
}{
	{"empty", "", "empty"},
	{"javascript", "javascript:alert(1)", `"javascript:"`},
	{"javascript upper case", "JavaScript:alert(1)", `"javascript:"`},
	{"data", "data:text/html,x", `"data:"`},
	{"file", "file:///etc/passwd", `"file:"`},
	{"smb", "smb://host/share", `"smb:"`},
	{"vscode", "vscode://x", `"vscode:"`},
	{"mailto", "mailto:someone@example.com", `"mailto:"`},
	{"ftp", "ftp://example.com/file", `"ftp:"`},
	{"ssh", "ssh://git@example.com/repo", `"ssh:"`},
	{"no scheme", "example.com/path", "https://"},
	{"relative path", "/relative/path", "https://"},
	{"scheme-relative", "//example.com/", "https://"},
	{"query only", "?q=1", "https://"},
	{"opaque https", "https:example.com", "https://"},
	{"one slash", "https:/example.com", "https://"},
	{"no host", "https:///etc/passwd", "server"},
	{"scheme only", "https://", "server"},
	{"port without host", "https://:443/", "server"},
	{"http to a name", "http://example.com", "http"},
	{"http to a private IP", "http://192.168.1.1/", "http"},
	{"userinfo look-alike", "https://example.com@evil.example/", "user name"},
	{"user and password", "https://user:pw@x.com", "user name"},
	{"empty userinfo", "https://@example.com/", "user name"},
	{"right-to-left override", "https://example.com/\u202Efdp.exe", "text-direction"},
	{"left-to-right isolate", "https://\u2066example.com", "text-direction"},
	{"arabic letter mark", "https://example.com/\u061C", "text-direction"},
	{"left-to-right mark", "https://example.com\u200E/", "text-direction"},
	{"zero-width space", "https://exa\u200Bmple.com", "invisible"},
	{"zero-width joiner", "https://example.com/a\u200Db", "invisible"},
	{"word joiner", "https://exam\u2060ple.com", "invisible"},
	{"byte order mark", "\uFEFFhttps://example.com", "invisible"},
	{"soft hyphen", "https://pay\u00ADpal.com", "soft hyphen"},
	{"variation selector", "https://example.com/a\uFE0F", "invisible"},
	{"newline", "https://example.com/\nx", "line break"},
	{"tab", "https://exam\tple.com", "tab"},
	{"space inside", "https://example.com/a b", "space"},
	{"no-break space", "https://example.com/a\u00A0b", "space"},
	{"leading space", " https://example.com", "blank space"},
	{"trailing newline", "https://example.com\n", "blank space"},
	{"NUL", "https://example.com/\x00", "control"},
	{"DEL", "https://example.com/\x7F", "control"},
	{"C1 control", "https://example.com/\u0085x", "control"},
	{"leading dash", "-https://example.com", "dash"},
	{"option-like", "--help", "dash"},
	{"too long", "https://example.com/" + strings.Repeat("a", 10000), "too long"},
	{"invalid UTF-8", "https://example.com/\xff", "not text"},
	{"backslash in host", `https://example.com\@evil.example/`, "backslash"},
	{"backslash after scheme", `https:\\example.com`, "backslash"},
	{"percent-encoded ASCII in host", "https://exa%6dple.com", "percent"},
	{"percent-encoded Unicode in host", "https://m%C3%BCnchen.de/", "percent"},
	{"IPv6 zone", "https://[fe80::1%25eth0]/", "percent"},
	{"decimal IPv4", "https://2130706433/", "unusual form"},
	{"hex IPv4", "https://0x7f.1/", "unusual form"},
	{"short IPv4", "https://127.1/", "unusual form"},
	{"octal IPv4", "https://0177.0.0.1/", "unusual form"},
	{"leading zero IPv4", "http://127.0.0.01/", "unusual form"},
	{"five-part number", "https://1.2.3.4.5/", "unusual form"},
	{"IPv4 with root dot", "https://127.0.0.1./", "unusual form"},
	{"numeric top-level label", "https://example.123/", "unusual form"},
	{"IPv4 in brackets", "https://[127.0.0.1]/", "not written correctly"},
	{"bad IPv6", "https://[::g]/", "not written correctly"},
	{"IPv6 without brackets", "https://::1/", "not"},
	{"underscore", "https://my_host.example/", "not a valid internet name"},
	{"bad punycode", "https://xn--abc.com/", "not a valid internet name"},
	{"label starting with a dash", "https://-evil.example/", "not a valid internet name"},
	{"double hyphen at 3-4", "https://ab--c.example/", "not a valid internet name"},
	{"empty label", "https://a..example/", "not a valid internet name"},
	{"label too long", "https://" + strings.Repeat("a", 64) + ".com/", "not a valid internet name"},
	{"symbol in host", "https://a!b.example/", "not a valid internet name"},
	{"disallowed compatibility character", "https://example\u2488com/", "not a valid internet name"},
	{"port too large", "https://example.com:99999/", "port"},
	{"port zero", "https://example.com:0/", "port"},
}

// TestCheck_Refused_E22 checks every refusal and that it wraps ErrUnsafe.
func TestCheck_Refused_E22(t *testing.T) {
	for _, tc := range refusedLinks {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Check(tc.raw)
			if err == nil {
				t.Fatalf("Check(%q) accepted it as %q; want a refusal", tc.raw, r.URL)
			}
			if !errors.Is(err, ErrUnsafe) {
				t.Errorf("error %v does not wrap ErrUnsafe", err)
			}
			if r != nil {
				t.Errorf("a refusal came with a report: %+v", r)
			}
			if !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("message %q does not mention %q", err.Error(), tc.mention)
			}
		})
	}
}

// acceptedLink is an address Check must accept, with the report it must give.
type acceptedLink struct {
	name, raw           string
	url, host, ascii    string
	port                string
	domain, asciiDomain string
	loopback            bool
	kinds               []string // warning kinds, in order
	mention             string   // text some warning must contain
}

var acceptedLinks = []acceptedLink{
	{name: "plain", raw: "https://example.com", url: "https://example.com", host: "example.com", ascii: "example.com", domain: "example.com", asciiDomain: "example.com"},
	{name: "github", raw: "https://github.com/gatehouse-app", url: "https://github.com/gatehouse-app", host: "github.com", ascii: "github.com", domain: "github.com", asciiDomain: "github.com"},
	{name: "upper-case scheme and host", raw: "HTTPS://EXAMPLE.COM", url: "https://example.com", host: "example.com", ascii: "example.com", domain: "example.com", asciiDomain: "example.com"},
	{name: "camel case without I", raw: "https://GitHub.com/", url: "https://github.com/", host: "github.com", ascii: "github.com", domain: "github.com", asciiDomain: "github.com"},
	{name: "legal punctuation in query", raw: "https://example.com/path?q=(a)!~", url: "https://example.com/path?q=(a)!~", host: "example.com", ascii: "example.com", domain: "example.com", asciiDomain: "example.com"},
	{name: "default port dropped", raw: "https://example.com:443/a", url: "https://example.com/a", host: "example.com", ascii: "example.com", domain: "example.com", asciiDomain: "example.com"},
	{name: "trailing root dot kept", raw: "https://example.com.", url: "https://example.com.", host: "example.com.", ascii: "example.com.", domain: "example.com", asciiDomain: "example.com"},
	{name: "sub-domain of a two-label suffix", raw: "https://sub.example.co.uk/", url: "https://sub.example.co.uk/", host: "sub.example.co.uk", ascii: "sub.example.co.uk", domain: "example.co.uk", asciiDomain: "example.co.uk"},
	{name: "public suffix itself", raw: "https://github.io/", url: "https://github.io/", host: "github.io", ascii: "github.io", domain: "github.io", asciiDomain: "github.io"},
	{name: "single-label name", raw: "https://intranet/", url: "https://intranet/", host: "intranet", ascii: "intranet", domain: "intranet", asciiDomain: "intranet"},
	{name: "brand inside sub-domains", raw: "https://accounts.google.com.evil.example/login", url: "https://accounts.google.com.evil.example/login", host: "accounts.google.com.evil.example", ascii: "accounts.google.com.evil.example", domain: "evil.example", asciiDomain: "evil.example"},
	{name: "Unicode path is encoded", raw: "https://example.com/über", url: "https://example.com/%C3%BCber", host: "example.com", ascii: "example.com", domain: "example.com", asciiDomain: "example.com"},
	{name: "unusual port", raw: "https://example.com:8443/", url: "https://example.com:8443/", host: "example.com", ascii: "example.com", port: "8443", domain: "example.com", asciiDomain: "example.com", kinds: []string{WarnPort}, mention: "8443"},

	// Internationalized names.
	{name: "IDN only for münchen", raw: "https://münchen.de/", url: "https://xn--mnchen-3ya.de/", host: "münchen.de", ascii: "xn--mnchen-3ya.de", domain: "münchen.de", asciiDomain: "xn--mnchen-3ya.de", kinds: []string{WarnIDN}, mention: "xn--mnchen-3ya.de"},
	{name: "IDN given as punycode", raw: "https://xn--mnchen-3ya.de/", url: "https://xn--mnchen-3ya.de/", host: "münchen.de", ascii: "xn--mnchen-3ya.de", domain: "münchen.de", asciiDomain: "xn--mnchen-3ya.de", kinds: []string{WarnIDN}},
	{name: "IDN in capitals", raw: "https://MÜNCHEN.de/", url: "https://xn--mnchen-3ya.de/", host: "münchen.de", ascii: "xn--mnchen-3ya.de", domain: "münchen.de", asciiDomain: "xn--mnchen-3ya.de", kinds: []string{WarnIDN}},
	{name: "Japanese mix is allowed", raw: "https://例え.jp/", url: "https://xn--r8jz45g.jp/", host: "例え.jp", ascii: "xn--r8jz45g.jp", domain: "例え.jp", asciiDomain: "xn--r8jz45g.jp", kinds: []string{WarnIDN}},
	{name: "Cyrillic name under a Cyrillic TLD", raw: "https://ерос.рф/", url: "https://xn--e1asff.xn--p1ai/", host: "ерос.рф", ascii: "xn--e1asff.xn--p1ai", domain: "ерос.рф", asciiDomain: "xn--e1asff.xn--p1ai", kinds: []string{WarnIDN}},
	{name: "upper-case Greek is shown lower-case", raw: "https://ΒΑΝΚ.com/", url: "https://xn--mxabzl.com/", host: "βανκ.com", ascii: "xn--mxabzl.com", domain: "βανκ.com", asciiDomain: "xn--mxabzl.com", kinds: []string{WarnIDN}},
	{name: "whole-script Cyrillic apple as punycode", raw: "https://xn--80ak6aa92e.com/", url: "https://xn--80ak6aa92e.com/", host: "аррӏе.com", ascii: "xn--80ak6aa92e.com", domain: "аррӏе.com", asciiDomain: "xn--80ak6aa92e.com", kinds: []string{WarnIDN, WarnConfusable}, mention: "may imitate apple.com"},
	{name: "whole-script Cyrillic apple as Unicode", raw: "https://аррӏе.com/", url: "https://xn--80ak6aa92e.com/", host: "аррӏе.com", ascii: "xn--80ak6aa92e.com", domain: "аррӏе.com", asciiDomain: "xn--80ak6aa92e.com", kinds: []string{WarnIDN, WarnConfusable}, mention: "Cyrillic"},
	{name: "whole-script Greek", raw: "https://ροκο.com/", url: "https://xn--vxajbf.com/", host: "ροκο.com", ascii: "xn--vxajbf.com", domain: "ροκο.com", asciiDomain: "xn--vxajbf.com", kinds: []string{WarnIDN, WarnConfusable}, mention: "Greek letters that look like Latin ones and may imitate poko.com"},
	{name: "unusual Latin letter", raw: "https://ɡoogle.com/", url: "https://xn--oogle-qmc.com/", host: "ɡoogle.com", ascii: "xn--oogle-qmc.com", domain: "ɡoogle.com", asciiDomain: "xn--oogle-qmc.com", kinds: []string{WarnIDN, WarnConfusable}, mention: "may imitate google.com"},
	{name: "mixed Latin and Cyrillic", raw: "https://pаypal.com", url: "https://xn--pypal-4ve.com", host: "pаypal.com", ascii: "xn--pypal-4ve.com", domain: "pаypal.com", asciiDomain: "xn--pypal-4ve.com", kinds: []string{WarnIDN, WarnMixedScript}, mention: "may imitate paypal.com"},
	{name: "mixed script without a Latin twin", raw: "https://exampleд.com/", url: "https://xn--example-5gg.com/", host: "exampleд.com", ascii: "xn--example-5gg.com", domain: "exampleд.com", asciiDomain: "xn--example-5gg.com", kinds: []string{WarnIDN, WarnMixedScript}, mention: "Cyrillic and Latin"},
	{name: "mixed script in a sub-domain", raw: "https://login.pаypal.evil.com/", url: "https://login.xn--pypal-4ve.evil.com/", host: "login.pаypal.evil.com", ascii: "login.xn--pypal-4ve.evil.com", domain: "evil.com", asciiDomain: "evil.com", kinds: []string{WarnIDN, WarnMixedScript}, mention: "login.paypal.evil.com"},
	{name: "full-width letters", raw: "https://ｅｘａｍｐｌｅ.com/", url: "https://example.com/", host: "example.com", ascii: "example.com", domain: "example.com", asciiDomain: "example.com", kinds: []string{WarnNormalized}, mention: "opens example.com"},
	{name: "mathematical letter", raw: "https://𝐞xample.com/", url: "https://example.com/", host: "example.com", ascii: "example.com", domain: "example.com", asciiDomain: "example.com", kinds: []string{WarnNormalized}},

	// ASCII look-alikes.
	{name: "capital I for l", raw: "https://paypaI.com", url: "https://paypai.com", host: "paypai.com", ascii: "paypai.com", domain: "paypai.com", asciiDomain: "paypai.com", kinds: []string{WarnLookAlike}, mention: "letter by letter"},
	{name: "zeros for o", raw: "https://g00gle.com/", url: "https://g00gle.com/", host: "g00gle.com", ascii: "g00gle.com", domain: "g00gle.com", asciiDomain: "g00gle.com", kinds: []string{WarnLookAlike}},
	{name: "one for l", raw: "https://paypa1.com/", url: "https://paypa1.com/", host: "paypa1.com", ascii: "paypa1.com", domain: "paypa1.com", asciiDomain: "paypa1.com", kinds: []string{WarnLookAlike}},
	{name: "digits in a sub-domain are fine", raw: "https://web1.example.com/", url: "https://web1.example.com/", host: "web1.example.com", ascii: "web1.example.com", domain: "example.com", asciiDomain: "example.com"},
	{name: "initial capital I is fine", raw: "https://Instagram.com/", url: "https://instagram.com/", host: "instagram.com", ascii: "instagram.com", domain: "instagram.com", asciiDomain: "instagram.com"},

	// IP addresses and this computer.
	{name: "loopback http with port", raw: "http://127.0.0.1:8080/x", url: "http://127.0.0.1:8080/x", host: "127.0.0.1", ascii: "127.0.0.1", port: "8080", loopback: true, kinds: []string{WarnIPHost, WarnLoopback}, mention: "development address"},
	{name: "loopback http anywhere in 127/8", raw: "http://127.8.9.10/", url: "http://127.8.9.10/", host: "127.8.9.10", ascii: "127.8.9.10", loopback: true, kinds: []string{WarnIPHost, WarnLoopback}},
	{name: "localhost http", raw: "http://localhost:3000", url: "http://localhost:3000", host: "localhost", ascii: "localhost", port: "3000", loopback: true, kinds: []string{WarnLoopback}, mention: "localhost"},
	{name: "localhost http default port", raw: "http://LOCALHOST:80/", url: "http://localhost/", host: "localhost", ascii: "localhost", loopback: true, kinds: []string{WarnLoopback}},
	{name: "IPv6 loopback http", raw: "http://[::1]:5173/", url: "http://[::1]:5173/", host: "::1", ascii: "::1", port: "5173", loopback: true, kinds: []string{WarnIPHost, WarnLoopback}},
	{name: "IPv6 loopback https", raw: "https://[::1]/", url: "https://[::1]/", host: "::1", ascii: "::1", loopback: true, kinds: []string{WarnIPHost, WarnLoopback}},
	{name: "localhost https", raw: "https://localhost/", url: "https://localhost/", host: "localhost", ascii: "localhost", loopback: true, kinds: []string{WarnLoopback}},
	{name: "public IPv4", raw: "https://8.8.8.8/", url: "https://8.8.8.8/", host: "8.8.8.8", ascii: "8.8.8.8", kinds: []string{WarnIPHost}, mention: "raw IP number"},
	{name: "public IPv6 canonicalized", raw: "https://[2606:4700:0:0::1111]/", url: "https://[2606:4700::1111]/", host: "2606:4700::1111", ascii: "2606:4700::1111", kinds: []string{WarnIPHost}},
	{name: "private 192.168/16", raw: "https://192.168.1.1/", url: "https://192.168.1.1/", host: "192.168.1.1", ascii: "192.168.1.1", kinds: []string{WarnIPHost, WarnPrivate}, mention: "private"},
	{name: "private 10/8", raw: "https://10.1.2.3/", url: "https://10.1.2.3/", host: "10.1.2.3", ascii: "10.1.2.3", kinds: []string{WarnIPHost, WarnPrivate}},
	{name: "private 172.16/12", raw: "https://172.31.0.1/", url: "https://172.31.0.1/", host: "172.31.0.1", ascii: "172.31.0.1", kinds: []string{WarnIPHost, WarnPrivate}},
	{name: "link-local metadata address", raw: "https://169.254.169.254/latest", url: "https://169.254.169.254/latest", host: "169.254.169.254", ascii: "169.254.169.254", kinds: []string{WarnIPHost, WarnPrivate}},
	{name: "shared address space", raw: "https://100.64.1.1/", url: "https://100.64.1.1/", host: "100.64.1.1", ascii: "100.64.1.1", kinds: []string{WarnIPHost, WarnPrivate}},
	{name: "unspecified IPv4", raw: "https://0.0.0.0/", url: "https://0.0.0.0/", host: "0.0.0.0", ascii: "0.0.0.0", kinds: []string{WarnIPHost, WarnPrivate}},
	{name: "unique local IPv6", raw: "https://[fc00::1]/", url: "https://[fc00::1]/", host: "fc00::1", ascii: "fc00::1", kinds: []string{WarnIPHost, WarnPrivate}},
	{name: "link-local IPv6", raw: "https://[fe80::1]/", url: "https://[fe80::1]/", host: "fe80::1", ascii: "fe80::1", kinds: []string{WarnIPHost, WarnPrivate}},
	{name: "IPv4-mapped private with port", raw: "https://[::ffff:10.0.0.1]:8443/", url: "https://[::ffff:10.0.0.1]:8443/", host: "::ffff:10.0.0.1", ascii: "::ffff:10.0.0.1", port: "8443", kinds: []string{WarnIPHost, WarnPrivate, WarnPort}},
}

// TestCheck_Accepted_E22 checks the report and the warnings of every
// accepted address.
func TestCheck_Accepted_E22(t *testing.T) {
	for _, tc := range acceptedLinks {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Check(tc.raw)
			if err != nil {
				t.Fatalf("Check(%q) refused: %v", tc.raw, err)
			}
			wantScheme, _, _ := strings.Cut(tc.url, ":")
			got := []string{r.URL, r.Scheme, r.Host, r.ASCIIHost, r.Port, r.Domain, r.ASCIIDomain}
			want := []string{tc.url, wantScheme, tc.host, tc.ascii, tc.port, tc.domain, tc.asciiDomain}
			fields := []string{"URL", "Scheme", "Host", "ASCIIHost", "Port", "Domain", "ASCIIDomain"}
			for i := range fields {
				if got[i] != want[i] {
					t.Errorf("%s = %q, want %q", fields[i], got[i], want[i])
				}
			}
			if r.Loopback != tc.loopback {
				t.Errorf("Loopback = %v, want %v", r.Loopback, tc.loopback)
			}
			if kinds := warningKinds(r); !slices.Equal(kinds, tc.kinds) {
				t.Errorf("warnings %v, want %v; texts: %v", kinds, tc.kinds, r.Warnings)
			}
			if tc.mention != "" && !slices.ContainsFunc(r.Warnings, func(w Warning) bool { return strings.Contains(w.Message.String(), tc.mention) }) {
				t.Errorf("no warning mentions %q: %v", tc.mention, r.Warnings)
			}
			for _, kind := range tc.kinds {
				if !r.HasWarning(kind) {
					t.Errorf("HasWarning(%q) = false", kind)
				}
			}
		})
	}
}

// TestReport_JSON_E20 checks the JSON the consent display receives: the
// fields it reads by name, and warnings as a list even when there are none.
func TestReport_JSON_E20(t *testing.T) {
	for _, tc := range []struct {
		name, raw, want string
	}{
		{"no warnings is an empty list", "https://example.com/a",
			`{"url":"https://example.com/a","scheme":"https","host":"example.com","asciiHost":"example.com","port":"","domain":"example.com","asciiDomain":"example.com","display":"https://example.com/a","before":"https://","domainPart":"example.com","after":"/a","loopback":false,"warnings":[]}`},
		{"a warning has its kind and sentence", "https://example.com:8443/",
			`{"url":"https://example.com:8443/","scheme":"https","host":"example.com","asciiHost":"example.com","port":"8443","domain":"example.com","asciiDomain":"example.com","display":"https://example.com:8443/","before":"https://","domainPart":"example.com","after":":8443/","loopback":false,"warnings":[{"kind":"unusual-port","message":{"key":"linkcheck.warn.port","args":{"port":"8443","scheme":"https"},"text":"This address uses the unusual port 8443 instead of the standard one for https."}}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Check(tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("JSON\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// warningKinds lists the kinds of r's warnings in order, nil for none.
func warningKinds(r *Report) []string {
	var kinds []string
	for _, w := range r.Warnings {
		kinds = append(kinds, w.Kind)
	}
	return kinds
}

// TestCheck_Highlight_E20 checks that the display string is split at the
// registrable domain inside the host.
func TestCheck_Highlight_E20(t *testing.T) {
	cases := []struct {
		raw, display, before, domain, after string
	}{
		{"https://accounts.google.com.evil.example/login", "https://accounts.google.com.evil.example/login", "https://accounts.google.com.", "evil.example", "/login"},
		{"https://example.com/?next=https://example.com", "https://example.com/?next=https://example.com", "https://", "example.com", "/?next=https://example.com"},
		{"https://evil.example/evil.example", "https://evil.example/evil.example", "https://", "evil.example", "/evil.example"},
		{"https://example.com.example.com/", "https://example.com.example.com/", "https://example.com.", "example.com", "/"},
		{"https://sub.example.co.uk:8443/x", "https://sub.example.co.uk:8443/x", "https://sub.", "example.co.uk", ":8443/x"},
		{"https://example.com.", "https://example.com.", "https://", "example.com", "."},
		{"https://xn--80ak6aa92e.com/", "https://аррӏе.com/", "https://", "аррӏе.com", "/"},
		{"https://www.münchen.de/a?b#c", "https://www.münchen.de/a?b#c", "https://www.", "münchen.de", "/a?b#c"},
		{"HTTPS://WWW.EXAMPLE.COM", "https://www.example.com", "https://www.", "example.com", ""},
		{"https://192.168.1.1/x", "https://192.168.1.1/x", "https://192.168.1.1/x", "", ""},
		{"http://localhost:3000/", "http://localhost:3000/", "http://localhost:3000/", "", ""},
		{"https://[::1]:8443/", "https://[::1]:8443/", "https://[::1]:8443/", "", ""},
	}
	for _, tc := range cases {
		r, err := Check(tc.raw)
		if err != nil {
			t.Errorf("Check(%q) refused: %v", tc.raw, err)
			continue
		}
		if r.Display != tc.display || r.Before != tc.before || r.DomainPart != tc.domain || r.After != tc.after {
			t.Errorf("Check(%q) display %q split %q|%q|%q, want %q split %q|%q|%q",
				tc.raw, r.Display, r.Before, r.DomainPart, r.After, tc.display, tc.before, tc.domain, tc.after)
		}
	}
	for _, tc := range acceptedLinks {
		r, err := Check(tc.raw)
		if err != nil {
			continue // reported by TestCheck_Accepted_E22
		}
		if r.Before+r.DomainPart+r.After != r.Display {
			t.Errorf("%s: %q+%q+%q != Display %q", tc.name, r.Before, r.DomainPart, r.After, r.Display)
		}
		if r.DomainPart != r.Domain {
			t.Errorf("%s: DomainPart %q != Domain %q", tc.name, r.DomainPart, r.Domain)
		}
		if !strings.Contains(r.Display, r.Host) {
			t.Errorf("%s: Display %q does not show the Unicode host %q", tc.name, r.Display, r.Host)
		}
	}
}

// TestCheck_URLIsStable_E22 checks that the normalized URL is itself
// accepted and normalizes to itself, so what is shown is what is opened.
func TestCheck_URLIsStable_E22(t *testing.T) {
	for _, tc := range acceptedLinks {
		r, err := Check(tc.raw)
		if err != nil {
			continue
		}
		again, err := Check(r.URL)
		if err != nil {
			t.Errorf("%s: normalized URL %q refused: %v", tc.name, r.URL, err)
			continue
		}
		if again.URL != r.URL || again.Display != r.Display {
			t.Errorf("%s: %q normalizes to %q / %q", tc.name, r.URL, again.URL, again.Display)
		}
		if !strings.HasPrefix(r.URL, r.Scheme+"://") || !isASCII(r.ASCIIHost) {
			t.Errorf("%s: URL %q does not start with the scheme and the ASCII host %q", tc.name, r.URL, r.ASCIIHost)
		}
	}
}

// TestCheck_MaxLength_E22 checks the length limit at its boundary.
func TestCheck_MaxLength_E22(t *testing.T) {
	prefix := "https://example.com/"
	atLimit := prefix + strings.Repeat("a", MaxLength-len(prefix))
	if _, err := Check(atLimit); err != nil {
		t.Errorf("a URL of exactly MaxLength bytes was refused: %v", err)
	}
	if _, err := Check(atLimit + "a"); !errors.Is(err, ErrUnsafe) {
		t.Errorf("a URL one byte over MaxLength gave %v, want ErrUnsafe", err)
	}
}

// TestCheck_MessagesAreSentences_E22 checks that every refusal and
// warning reads as a full English sentence without Go error text.
func TestCheck_MessagesAreSentences_E22(t *testing.T) {
	var texts []string
	for _, tc := range refusedLinks {
		if _, err := Check(tc.raw); err != nil {
			texts = append(texts, err.Error())
		}
	}
	for _, tc := range acceptedLinks {
		if r, err := Check(tc.raw); err == nil {
			for _, w := range r.Warnings {
				if w.Message.String() == "" || w.Kind == "" {
					t.Errorf("%s: empty warning %+v", tc.name, w)
				}
				texts = append(texts, w.Message.String())
			}
		}
	}
	for _, s := range texts {
		first, _ := utf8.DecodeRuneInString(s)
		if !unicode.IsUpper(first) || !strings.HasSuffix(s, ".") {
			t.Errorf("not a sentence: %q", s)
		}
		for _, leak := range []string{"parse \"", "idna:", "publicsuffix:", "netip", "strconv", "invalid URL escape", "%!"} {
			if strings.Contains(s, leak) {
				t.Errorf("message leaks %q: %q", leak, s)
			}
		}
		if len(s) > 400 {
			t.Errorf("message is %d bytes long: %.80q…", len(s), s)
		}
	}
}

// FuzzCheck checks that Check never panics, that refusals wrap
// ErrUnsafe, and that accepted reports keep their invariants (E20, E22).
func FuzzCheck(f *testing.F) {
	for _, tc := range refusedLinks {
		f.Add(tc.raw)
	}
	for _, tc := range acceptedLinks {
		f.Add(tc.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		r, err := Check(raw)
		if err != nil {
			if !errors.Is(err, ErrUnsafe) {
				t.Fatalf("Check(%q) error %v does not wrap ErrUnsafe", raw, err)
			}
			return
		}
		if r.Before+r.DomainPart+r.After != r.Display || r.DomainPart != r.Domain {
			t.Fatalf("Check(%q) split %q|%q|%q of %q", raw, r.Before, r.DomainPart, r.After, r.Display)
		}
		if r.Scheme != "https" && !(r.Scheme == "http" && r.Loopback) {
			t.Fatalf("Check(%q) accepted scheme %q (loopback %v)", raw, r.Scheme, r.Loopback)
		}
		again, err := Check(r.URL)
		if err != nil || again.URL != r.URL {
			t.Fatalf("Check(%q) gave URL %q, which then gives %v, %v", raw, r.URL, again, err)
		}
	})
}
