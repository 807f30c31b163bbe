// Package visible shows data that came from a server or a model as it is,
// for a person to judge before anything is sent (issue 22, item 5): text
// with the characters a person cannot see made visible as codes, and JSON
// values as a tree whose numbers keep the text they were written with.
//
// The rule of what is hidden is [Hidden], here: control characters other
// than newline and tab, format characters (bidi overrides, zero-width
// characters, the soft hyphen), and the line and paragraph separators.
// [Segments] splits text into runs of plain text and single hidden
// characters ([Segment], each hidden one written as its [Code], "U+202E");
// [Escaped] does the same for a JSON string shown between quotes; [Mark]
// writes the codes inline, for text where no mark can be drawn.
//
// [JSON] and [Value] build the [Node] tree the window renders for a tool
// call's arguments and a tool's structured result, so that what
// the person approves is what the server receives and nothing of it is
// re-read by JavaScript: a number keeps its literal text, a repeated key
// shows the value that counts, and the tree is bounded ([MaxDepth],
// [MaxNodes]; larger values are shown as their text).
//
// The package only presents: it refuses nothing and changes no value sent.
// Package linkcheck refuses hidden characters in a link; package forms
// checks what a person enters. The window draws the segments and trees Go
// builds; for text the person types it has its own copy of Hidden
// (frontend/src/lib/visible.ts), which must match this one. The command
// line (package cli) writes hidden characters inline with [Hidden] and
// [Code].
//
// visible imports nothing of Gatehouse and has no state: every function is
// safe for concurrent use and returns values the caller owns. Packages
// store, mcp, chat, app and cli use it.
package visible
