// Package gateway serves the person's MCP servers to other apps (issue 25):
// Claude Code, Cursor, an agent on the command line... Each launches
// `gatehouse gateway`, a pipe from its standard input and output to the
// running app's gateway socket (applink.GatewaySocketPath: beside the
// command line's, 0600 in a 0700 folder, the peer's user checked); the app
// serves every connection there with a [Gateway].
//
// Each connection gets an MCP server of its own (the go-sdk's, which speaks
// both revisions it knows) offering the tools, resources, resource
// templates and prompts of the servers that app may see
// (store.ClientApp.Sees), under the names the chat gives them (chat.NewCatalog,
// chat.ToolNames: each says which server it belongs to, and no server can
// take a name from another), with their titles, descriptions, schemas and
// annotations as the servers list them. When Gatehouse's servers or their
// lists change, the lists are read again and the client is told
// (list_changed). A client's resource subscriptions go to the servers that
// offer the resources, and their updates reach only the clients subscribed
// (subscriptions.go); the gateway says it offers them only when a server
// the app sees does.
//
// Every tools/call goes through the same consent as the chat's and the
// window's (chat.Consent: the person's Tool permissions, with the app's own
// modes over them; the question in Gatehouse's window says which app asks,
// as it claims and as the kernel says); a server's questions during the
// call are put to the person in Gatehouse's window, never to the client;
// the call's time limit pauses while the person answers (mcp.Broker.CallTimeout);
// History records the run with the app named. "Always allow" answered
// there is that app's own allow of the tool (store.AllowClientToolAlways),
// never the chat's; a question no one answers in time fails the call with
// a sentence, and nothing reaches the server. Progress is passed on to the
// client; a client's cancellation, or its leaving, cancels its calls on
// the servers. A client's requests in flight are bounded, and one that
// floods is refused for a while.
//
// An allowed call that needs nothing of the go-sdk's server goes the
// forwarded way (forward.go): taken off the client's input before the
// go-sdk reads it, through the same consent and History, to its server as
// the client's arguments, its result back as the server wrote it.
//
// The package never imports Wails: the app wires it (app.Core.ServeGateway).
package gateway
