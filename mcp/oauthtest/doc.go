// Package oauthtest is an OAuth-protected MCP server for tests: a small
// authorization server (metadata, dynamic client registration, an
// authorization endpoint that approves at once, a token endpoint with PKCE,
// resource indicators and refresh) and a go-sdk MCP server behind
// auth.RequireBearerToken, all on one loopback port. It is written for
// Gatehouse's tests and is not an authorization server to deploy.
//
// [Start] runs a [Server] until its context ends. The Server's URL is the
// protected MCP endpoint, OtherURL a second one that is another resource
// (its tokens are refused at URL, and the other way round), and Issuer the
// authorization server. Its "admin" tool needs [AdminScope], so a client's
// step-up authorization can be tested. [Options] makes it misbehave, or
// behave in a less common way (a wrong issuer or resource, no
// registration, pre-registered clients with secrets, metadata that never
// answers, methods let through without a token), for tests of the
// client's checks; [Server.Counts] ([Counters]) and
// [Server.AuthorizationRequests] ([Authorization]) tell a test what
// happened.
//
// The sign-in tests of packages mcp, app and cli use it, and command
// tests/oauthpeer runs it for the browser end-to-end tests. It imports the
// go-sdk and no package of Gatehouse.
//
// A Server answers each request on its HTTP server's goroutine; its
// methods are safe to call from the test meanwhile. Start starts the HTTP
// server's goroutines, which end when the context given to Start ends.
package oauthtest
