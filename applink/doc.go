// Package applink is the command line's link to Gatehouse's core: an MCP
// server whose tools are the CLI's commands, and the client the CLI talks
// to it with (issue 13, issue 23). There is one road: every command is a
// call of one of these tools, whether the core is the running app's or one
// the command opened itself.
//
//   - While the window is open the app holds the data file, and serves the
//     tools on a unix socket private to the person ([Server.ServeUnix] at
//     [SocketPath]: its folder 0700, the socket 0600, the peer's user checked
//     with SO_PEERCRED, a crashed app's socket replaced, no network port).
//     The CLI reaches it with [Dial].
//   - With no app running, the CLI opens the core itself, builds the very
//     same [Server] on it, and talks to it in memory ([Server.Client], the
//     go-sdk's in-memory transport), exactly as it talks to the running app.
//
// A [Server] is made by [NewServer] from a table of [Tool]s (app.Commands
// gives the CLI's; a tool is made with [NewTool] or [NewCallerTool]) and
// serves any number of sessions, each on any [sdk.Transport]
// ([Server.Connect]): a socket connection, an in-memory pipe, or standard
// input and output. Serving a set of tools to another MCP client over stdio
// (the gateway another app launches, whose calls go through the app's
// broker and policies) is one more call of [Server.Connect] with an
// [sdk.StdioTransport] and its own tool table, not another road.
//
// The questions a caller's command causes — a server's form and URL
// requests during its call, a sign-in consent, a model's tool calls in its
// chat — stay the broker's (its checks, queue, policy, rate limit and
// history); [Caller.Route] and [Caller.RouteServer] have the broker put
// them to the caller as elicitation/create while the command runs
// (mcp.Broker.Route), and the caller answers them in its terminal
// ([ClientOptions.Answer]). The web pages it opens that way are the
// broker's too; the client learns how they end ([Pages]). [Run] calls a
// tool; ending its context stops the command on the server (the stop
// tool), which still answers, so that Ctrl-C ends a command the same way
// on either side.
//
// The package sits below app/ and never imports Wails. A Server is safe
// for concurrent use; each session is served on goroutines of its own.
package applink
