// Package cli is Gatehouse's command line, and the binary's entry point
// ([Main]): with no arguments it runs the window (app.RunGUI); with a
// command (servers, providers, tools, call, chat, policies, resources,
// read, prompts, prompt) it runs that command; see cli.usage in the
// catalogue for them all.
//
// Every command reaches the core one way: it calls a tool of the command
// line's MCP server (app.Commands served by package applink) as a client.
// While the window is open the running app serves those tools on its
// socket; otherwise the command opens the core on the data folder itself
// and serves them in memory (env.connect in link.go). Either way the same
// code does the work and the same sentences come out.
//
// The questions a command's calls cause (a server's forms and web pages, a
// sign-in consent, a model's tool calls in a chat turn) stay the broker's;
// the broker puts them to this terminal while the command runs, and the
// terminal answerer (answer.go) asks them, or reads the answers from a
// file (--answers). Every sentence is from the message catalogue, in the
// terminal's language; server text is printed with hidden characters
// marked.
//
// Ctrl-C and SIGTERM end a command's context: its calls are stopped on
// the server, which still answers, and the command exits with what it has.
package cli
