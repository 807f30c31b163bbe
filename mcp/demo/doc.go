// Package demo is the built-in demo server that `gatehouse demo-server`
// runs over stdio ([Run], called by package cli). Gatehouse adds it on the
// very first start (package app, once the data file says it is new) so
// that a newcomer sees a working connection at once, and the tests of
// packages mcp, app and cli use it as a real server ([NewServer]).
//
// It is an MCP server on the go-sdk alone: it imports no package of
// Gatehouse, and Gatehouse reaches it as any other server, through a
// process and its stdio. Its tools, resources and prompts exercise what the
// host shows:
//
//   - tools with plain text, structured output with an output schema
//     (forecast, [Forecast]), resource links and error results (echo, add,
//     divide, readme_link; their arguments are [EchoArgs], [AddArgs] and
//     [ForecastArgs]);
//   - elicitation in form mode (elicit.go): every field type, a legacy
//     form, a form that asks for a password (the host should warn), two
//     questions in a row, and a flood of questions at once;
//   - elicitation in URL mode (url.go): sign-in pages the demo serves
//     itself on a loopback port, a tool that fails with -32042 until one
//     was finished, and a link whose address imitates paypal.com;
//   - resources (a read-me, an image, a note that changes when echo runs,
//     for subscriptions), a resource template with completion, and a
//     prompt (content.go).
//
// Every session of a server shares its note and its pages; both are safe
// for concurrent use. The page server starts on the first URL-mode
// request and runs until the process exits.
package demo
