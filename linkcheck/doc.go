// Package linkcheck decides whether a URL may be shown to a person and
// opened, and says in plain sentences what deserves a second look
// (requirements E20 and E22). It is the one place Gatehouse judges a link
// meant for a person: the URL of an elicitation in URL mode, a sign-in's
// pages, a resource link in a tool's result, a link a model wrote in the
// chat. Packages mcp and app carry the [Report] it makes to the person, who
// consents to it, and app.OpenLink runs [Check] once more on the report's
// URL before it hands that URL, as a single argument, to the browser.
//
// [Check] parses a string strictly and returns a [Report] (the normalized
// URL, its host in Unicode and in ASCII, the registrable domain split out
// for highlighting, and a list of warnings, each a [Warning] of one of the
// Warn* kinds) or an error that wraps [ErrUnsafe] and is an i18n.Message
// for a person.
// Beside it, address.go answers the smaller questions other packages ask of
// an address they connect to: [PublicIP] (package oauthflow sends sign-in
// requests only to public addresses), [LoopbackHost], and [Origin] and
// [SameOrigin] as browsers compare them.
//
// # Rules
//
// Check refuses, before anything else, a string that is empty, longer than
// [MaxLength], padded with spaces, not UTF-8, that holds a character a
// person cannot see (controls, spaces, line breaks, bidi and other format
// characters, variation selectors), that starts with "-" (it could be
// taken for an option) or holds a backslash, or that carries user
// information ("user@") in its authority. Then the judgement calls:
//
//   - Schemes: only https, and http only to this computer (127.0.0.0/8, ::1,
//     "localhost"). Everything else, including scheme-less and relative
//     references, is refused.
//   - Numeric hosts: a canonical dotted-quad IPv4 address or a bracketed IPv6
//     address is allowed with a warning ([WarnIPHost], and [WarnPrivate]
//     when it is not [PublicIP]). Any other host whose last label is a
//     number (2130706433, 0x7f.1, 127.1, 0177.0.0.1, 127.0.0.1.) is refused:
//     resolvers and browsers disagree about what such forms mean, so the
//     address shown cannot be trusted to be the address reached.
//   - Percent-encoding in the host (https://exa%6dple.com), IPv6 zones
//     included, is refused: it can hide the real name.
//   - Hosts go through a strict IDNA profile (UTS #46 lookup mapping, STD3
//     characters only, label validation, hyphen, joiner, Bidi and DNS length
//     rules). Names it rejects, such as my_host.example, are refused.
//   - Compatibility forms that IDNA maps to ordinary letters (full-width
//     ｅｘａｍｐｌｅ.com, mathematical letters, decomposed accents) are
//     accepted, because the name shown is exactly the name opened, but they
//     are flagged with [WarnNormalized].
//   - Names beyond ASCII get [WarnIDN]; a label mixing scripts gets
//     [WarnMixedScript], and one whose every letter imitates a Latin one
//     gets [WarnConfusable], naming the Latin name it imitates.
//   - Look-alike ASCII ([WarnLookAlike]): an upper-case "I" right after a
//     lower-case letter in the host as typed (paypaI.com, which opens
//     paypai.com; camel case such as LinkedIn.com is flagged too, since the
//     rule cannot tell intent), or a registrable label made of letters,
//     hyphens and the digits 0 and 1 only, with a 0 or 1 next to a letter
//     (g00gle.com, paypa1.com, also 1password.com). An initial capital I
//     (Instagram.com) and a lower-case l among capitals open what they seem
//     to and are not flagged. Other substitutions, such as "rn" for "m",
//     are not detected: they occur in too many honest names.
//   - Loopback targets get [WarnLoopback] in both schemes (never
//     [WarnPrivate]) and are exempt from the unusual-port warning
//     ([WarnPort]).
//
// # Concurrency
//
// The package has no state: every function is safe for concurrent use, and
// each call of Check returns a new Report that the caller owns. Nothing here
// resolves a name or touches the network.
//
// linkcheck imports only package i18n of Gatehouse's packages, so every
// layer (llm, oauthflow, mcp, app, cli) can use it.
package linkcheck
