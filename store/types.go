// Package store keeps Gatehouse's data in one bbolt file: the configured
// servers, the app settings, each server's elicitation policy and the
// history of elicitations. It knows nothing of MCP.
//
// A Store holds the file's lock from Open to Close, so one process at a time
// uses a data file; another gets ErrLocked. Open reads an existing file in
// full before anything writes to it and refuses a damaged one (ErrCorrupt)
// or one from a newer Gatehouse (ErrNewerVersion) without changing a byte.
// Every method is one transaction, committed and synced before it returns,
// so a process killed at any moment loses nothing a returned call stored.
//
// Open creates a missing data directory 0700 and the data file 0600, and
// narrows the file to 0600 when it is wider. It narrows an existing directory
// to 0700 only when that directory is Gatehouse's own default one (gatehouse
// in os.UserConfigDir); a directory the user chose, such as their home, is
// left as it is.
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
	// DisableURLMode refuses the server's URL-mode elicitations; by default
	// they are allowed.
	DisableURLMode bool `json:"disableUrlMode,omitempty"`
}

// StdioConfig starts a server as a child process speaking MCP on stdin/stdout.
type StdioConfig struct {
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Dir     string            `json:"dir,omitempty"`
	// InheritEnv passes the app's whole environment to the server, not only
	// a small safe set, as the person chose for a server they trust. False,
	// the safe default, is also what records from before the option read as.
	InheritEnv bool `json:"inheritEnv,omitempty"`
}

// HTTPConfig reaches a server over Streamable HTTP (or legacy SSE).
type HTTPConfig struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
	// OAuth holds how Gatehouse identifies itself when the server requires
	// sign-in; nil means dynamic client registration.
	OAuth *OAuthConfig `json:"oauth,omitempty"`
}

// OAuthConfig is a server's sign-in client settings: a client registered
// in advance with the authorization server, or a client ID metadata
// document URL. Tokens are not kept here.
type OAuthConfig struct {
	ClientID          string `json:"clientId,omitempty"`
	ClientSecret      string `json:"clientSecret,omitempty"`
	ClientMetadataURL string `json:"clientMetadataUrl,omitempty"`
}

// Settings are app-wide preferences.
type Settings struct {
	// ToolCallTimeout bounds a tool call; zero means the default (60 s).
	ToolCallTimeout time.Duration `json:"toolCallTimeout"`
	// Window remembers the main window's size between runs.
	WindowWidth  int `json:"windowWidth,omitempty"`
	WindowHeight int `json:"windowHeight,omitempty"`
	// ElicitationTimeout bounds how long a server's request for input waits
	// for the user; zero means the caller's default (10 min).
	ElicitationTimeout time.Duration `json:"elicitationTimeout,omitempty"`
	// RememberAnswers keeps the values the user submitted in the history
	// (HistoryEntry.Answer). Off by default: only the outcome is kept.
	RememberAnswers bool `json:"rememberAnswers,omitempty"`
}

// Policy modes: how Gatehouse answers a server's elicitations.
const (
	// PolicyAsk shows the request to the user. It is the default.
	PolicyAsk = ""
	// PolicyDecline answers decline without showing the request.
	PolicyDecline = "decline"
	// PolicyMute answers cancel without showing the request until
	// Policy.MutedUntil, then reads as PolicyAsk.
	PolicyMute = "mute"
)

// Policy is how Gatehouse answers one server's elicitations.
type Policy struct {
	Mode       string    `json:"mode,omitempty"`       // PolicyAsk, PolicyDecline or PolicyMute
	MutedUntil time.Time `json:"mutedUntil,omitempty"` // end of a PolicyMute; zero otherwise
}

// Effective returns the mode in force at now: Mode, except that a mute
// whose MutedUntil is not after now, or a mode this build does not know,
// is PolicyAsk.
func (p Policy) Effective(now time.Time) string {
	switch {
	case p.Mode == PolicyDecline:
		return PolicyDecline
	case p.Mode == PolicyMute && now.Before(p.MutedUntil):
		return PolicyMute
	}
	return PolicyAsk
}

// Outcomes of an elicitation, as recorded in HistoryEntry.Outcome.
const (
	// OutcomeAccepted means the user submitted an answer and it was sent.
	OutcomeAccepted = "accepted"
	// OutcomeDeclined means the user, or the server's policy, declined.
	OutcomeDeclined = "declined"
	// OutcomeCancelled means the user dismissed the request, or a mute did.
	OutcomeCancelled = "cancelled"
	// OutcomeTimedOut means nobody answered in time.
	OutcomeTimedOut = "timed_out"
	// OutcomeRateLimited means it was refused because the server asked too
	// often.
	OutcomeRateLimited = "rate_limited"
	// OutcomeInvalid means it was refused as invalid without being shown.
	OutcomeInvalid = "invalid"
	// OutcomeServerCancelled means the server withdrew the request or
	// disconnected before it was answered.
	OutcomeServerCancelled = "server_cancelled"
)

// MaxHistory is the most history entries kept; AddHistory deletes the oldest
// beyond it.
const MaxHistory = 10000

// HistoryEntry records one elicitation and what became of it. Message and
// URL are stored as the server sent them (except that invalid UTF-8 becomes
// U+FFFD, as in all JSON this package writes): they are untrusted text.
type HistoryEntry struct {
	ID         uint64         `json:"id"`               // assigned by AddHistory; later entries have higher IDs
	Time       time.Time      `json:"time"`             // when the request arrived
	ServerID   string         `json:"serverId"`         // Server.ID
	ServerName string         `json:"serverName"`       // the server's name at the time
	Mode       string         `json:"mode"`             // "form" or "url"
	Message    string         `json:"message"`          // as the server sent it
	Fields     []string       `json:"fields,omitempty"` // field names of a form
	URL        string         `json:"url,omitempty"`    // URL mode
	Outcome    string         `json:"outcome"`          // one of the Outcome constants
	Detail     string         `json:"detail,omitempty"` // why, in a sentence: a policy, a validation problem
	AnswerMs   int64          `json:"answerMs"`         // from shown to answered; 0 if never shown
	Answer     map[string]any `json:"answer,omitempty"` // the values sent, only when the caller keeps them
}

// HistoryFilter selects history entries. The zero value selects the newest
// 200 of all.
type HistoryFilter struct {
	ServerID string // only this server's entries; "" for all
	Outcome  string // only entries with this outcome; "" for all
	Limit    int    // at most this many; 0 or less means 200
	Before   uint64 // only entries with a lower ID, to page back; 0 means from the newest
}
