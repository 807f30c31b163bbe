// Package i18n is Gatehouse's message catalogue: every sentence a person
// reads is a [Message], a key into the catalogue with named arguments, so
// that it can be shown in the person's language. It is the bottom of every
// layer: it imports no package of Gatehouse, and nearly all of them use it.
//
// The catalogue is one flat JSON file per [Language] under locales/ (key →
// template, with {name} placeholders filled from the message's arguments):
// en.json (English, the source) and zh-CN.json (Simplified Chinese). The same
// files serve Go (embedded here), the command line and the window (the
// frontend imports them; see frontend/src/lib/i18n.svelte.ts). A test fails
// when a key is in one language and not the other, when the placeholders of
// a message differ between languages, or when a key is used nowhere.
//
// Keys are written where the message is made, as string literals in calls
// to [M], [Err] or [Wrap]; a test checks that each exists and that its
// arguments match the template's placeholders. [Text] carries words that
// are not Gatehouse's own (a server's, the system's) untranslated, and
// [List], [Sentences] and [Duration] are written as each language writes
// them. An error for a person is an [Error], whose message [MessageOf] and
// [ErrorMessage] find again through wrapping.
//
// Go renders a message in the process's language ([SetLanguage]; English
// until set): package cli sets the terminal's ([FromEnv]), package app the
// person's [Choice] or the system's. A message is sent to the window as
// {key, args, text}, which the window renders again in its own language.
// A key missing from a language falls back to English, and one missing
// from both shows as the key itself.
//
// There are no plural rules: wordings avoid them, or a message has two keys
// ending in .one and .other, chosen by the caller.
//
// Every function is safe for concurrent use: the current language is
// stored atomically, and each catalogue is read once, when its language is
// first used. Nothing here changes a Message once it is made, so one may
// be shared between goroutines.
//
// See README.md beside this file for the glossary of the Chinese terms.
package i18n
