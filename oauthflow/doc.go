// Package oauthflow holds the parts of an MCP sign-in (OAuth 2.1, requirement
// E33) that a desktop app adds around the go-sdk's
// auth.AuthorizationCodeHandler, and that need nothing of Gatehouse's
// servers or sessions:
//
//   - Redirect, the loopback redirect URI of RFC 8252: it listens on
//     127.0.0.1 only while a sign-in waits for the browser, serves each
//     sign-in's start page (the address the person agrees to open, which
//     sends the browser on to the authorization server once it is known),
//     and hands each waiting sign-in (a Wait) the one answer that carries
//     its state;
//   - NewClient, the HTTP client of every sign-in request (metadata,
//     registration, token, refresh): https, public addresses (this computer
//     only for a server on it), no redirect to another origin, bounded
//     answers, a timeout;
//   - CheckResourceMetadata, which refuses protected resource metadata
//     (RFC 9728) that names another resource, before anything is sent to an
//     authorization server;
//   - SavingTokenSource, a token source that reports each refreshed token
//     so it can be stored.
//
// Package mcp decides when a sign-in may be shown, asks the person, and keeps
// the tokens.
package oauthflow
