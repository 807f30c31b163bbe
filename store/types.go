// Package store keeps Gatehouse's data in one bbolt file: the configured
// servers and the app settings (later: history and policies). It knows
// nothing of MCP.
//
// A Store holds the file's lock from Open to Close, so one process at a time
// uses a data file; another gets ErrLocked. Open reads an existing file in
// full before anything writes to it and refuses a damaged one (ErrCorrupt)
// or one from a newer Gatehouse (ErrNewerVersion) without changing a byte.
// Every method is one transaction, committed and synced before it returns,
// so a process killed at any moment loses nothing a returned call stored.
package store

import "time"

// Transport kinds of a server.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// Server is one configured MCP server.
type Server struct {
	ID        string       `json:"id"`   // assigned by PutServer when empty; never reused
	Name      string       `json:"name"` // unique, case-insensitively, after trimming spaces
	Enabled   bool         `json:"enabled"`
	Transport string       `json:"transport"` // TransportStdio or TransportHTTP
	Stdio     *StdioConfig `json:"stdio,omitempty"`
	HTTP      *HTTPConfig  `json:"http,omitempty"`
	CreatedAt time.Time    `json:"createdAt"`
	UpdatedAt time.Time    `json:"updatedAt"`
}

// StdioConfig starts a server as a child process speaking MCP on stdin/stdout.
type StdioConfig struct {
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Dir     string            `json:"dir,omitempty"`
}

// HTTPConfig reaches a server over Streamable HTTP (or legacy SSE).
type HTTPConfig struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
}

// Settings are app-wide preferences.
type Settings struct {
	// ToolCallTimeout bounds a tool call; zero means the default (60 s).
	ToolCallTimeout time.Duration `json:"toolCallTimeout"`
	// Window remembers the main window's size between runs.
	WindowWidth  int `json:"windowWidth,omitempty"`
	WindowHeight int `json:"windowHeight,omitempty"`
}
