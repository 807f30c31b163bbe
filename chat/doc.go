// Package chat runs a conversation's turns: it streams the person's chosen
// model (package llm), offers it the enabled MCP servers' tools, and puts
// every tool call the model makes in front of the person first, as a
// question of the same broker that owns elicitations, sign-ins and sampling
// reviews (mcp.Broker.ApproveToolCall). The arguments the person approves
// are the arguments the server receives; a denied call never reaches the
// server and the model is told so in a tool result.
//
// It has no UI: the app streams its Events to the window, the CLI prints
// them, and the tests read them.
package chat
