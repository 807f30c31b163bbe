//go:build dev

package app

// devConnectSources are where the development build's page may also
// connect: Wails' dev server, whose IPC is a WebSocket on the loopback
// address (frontend/e2e/helpers.mjs drives it).
const devConnectSources = "ws://127.0.0.1:* ws://localhost:*"
