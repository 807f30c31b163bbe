// Package bench holds Gatehouse's performance benchmarks (issues 6, 11, 15,
// 24 and 25), run by `make bench` and, with tiny sizes, by `make test-bench`:
//
//	P1 elicitation round trip: Gatehouse's core vs a bare go-sdk client
//	P2 the same against a TypeScript SDK client
//	P3 memory of the running app (and of the MCP Inspector)
//	P4 start-up time of the app's window, against a bare Wails app built
//	   the same way (bench/floorapp)
//	P5 a flood of 10,000 elicitations from one server
//	P6 50 stdio servers
//	P7 a question reaches the person: from a server's write of
//	   elicitation/create (bench/asker) to the dialog on the screen, in
//	   Gatehouse's window and in the MCP Inspector's UI in Chromium
//	P8 the chat, against llmtest's stand-in model provider: the host's added
//	   latency to the first token (P8a), the window under a stream of 2,000
//	   chunks a second (P8b), its memory with 1,000 messages open, their
//	   draw time against 10 messages', and the frames while 10,000 messages
//	   scroll (P8c)
//	P9 big lists: the Tools pane with a server of 1,000 tools and the History
//	   pane over 10,000 entries, drawn and scrolled in the production window,
//	   and the app's memory, beside the same window with small lists
//	P10 MCP Apps (issue 24): a tool's result → its app's first paint in the
//	   window, beside the MCP Inspector's Apps view, for the pinned example
//	   server server-basic-vanillajs (behind bench/apptap, which notes when
//	   the result passes); and the memory of 1, 5 and 10 open apps
//	P11 the gateway (issue 25): a tool call another app makes through
//	   `gatehouse gateway` to the running app vs the same client on the
//	   server directly; tools/list over 20 servers; the memory of the
//	   gateway process
//
// Every benchmark runs once (-benchtime 1x); its size comes from the flags
// below (go test ./bench -bench . -benchtime 1x -args -n 2000). Figures are
// reported with b.ReportMetric, ratios computed in the same run, and
// bench/report turns the output into the P1–P11 table.
//
// bench/server is the MCP server every client is measured against, and
// bench/node the Node side (TypeScript SDK client, MCP Inspector, Chromium
// through playwright-core). See the README's "Performance" section.
package bench
