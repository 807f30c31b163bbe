// Package mcp is Gatehouse's MCP layer on the official go-sdk (imported
// here as sdk). It owns two things: a connection to every enabled server,
// and every question put to the person about them. It has no UI
// dependency (it never imports Wails), so the window, the command line and
// the tests run the same core; package app above it binds it to the
// window, package store below it keeps what lasts.
//
// # Servers
//
// A [Manager] keeps one session per enabled server ([store.Server]) over
// stdio or streamable HTTP: it connects and reconnects it, lists its tools,
// resources and prompts, calls its tools ([Manager.CallTool]), and signs in
// to a server that needs it ([Manager.SignIn], OAuth in oauth.go).
// [Manager.Status] says how a connection is; the callbacks of [Options]
// say when that, a server's lists or its log change. Whatever a server
// asks of the person reaches them through the [Asker] interface, which the
// Broker implements.
//
// # Questions
//
// A [Broker] owns every pending [Question], of four kinds, each in its own
// file:
//
//   - elicitations, form and URL mode ([Broker.Elicit], elicitation.go),
//     with the web pages the person opened for them ([OpenedPage]);
//   - sign-in consents ([Broker.SignIn], signin.go);
//   - a model's tool calls waiting for approval ([Broker.ApproveToolCall],
//     toolcall.go);
//   - sampling reviews, the server's request and then the model's answer
//     ([Broker.Sample], sampling.go).
//
// There is one queue for them all, fair across servers, with one rate limit
// per server (E29), one question on screen at a time, and one history
// ([store.HistoryEntry]) of how each ended, beside every tool call as it
// ran ([ToolRun], [Broker.RecordToolRun]). The history keeps Gatehouse's
// own words as message keys, so they are shown in the reader's language.
// Whoever shows the questions follows the broker's snapshots ([Snapshot],
// [Broker.Subscribe]) and answers the one on screen with [Broker.Accept]
// (a [Reply] for the kind the person saw), [Broker.Decline] or
// [Broker.Cancel]; there is no other copy of this state.
//
// # Concurrency
//
// A Manager and a Broker are safe for concurrent use. A server's requests
// arrive on its session's goroutine, and the Broker's methods for them
// (Elicit, SignIn, ApproveToolCall, Sample) block there until the person
// answers, a policy or a limit answers for them, or the request is
// withdrawn (its context ends) or times out. The person's answers come from
// any goroutine; an answer to a question no longer on screen is
// [ErrNotOpen] and sends nothing. Each change of the questions is published
// as a Snapshot with a higher Version, in order, on the goroutine that made
// the change: a subscriber must not call back into the Broker
// synchronously. History is written in the background, a few entries per
// transaction; [Broker.FlushHistory] waits for it.
package mcp
