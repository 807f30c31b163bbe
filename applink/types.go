package applink

import (
	"github.com/gatehouse-app/gatehouse/i18n"
)

// Names of the tools every Server serves, besides its table.
const (
	// ToolStop stops the client's running calls of a tool (Stop), which
	// still answer: Run calls it when its context ends.
	ToolStop = "stop"
	// ToolFinishPage and ToolStopWaitingPage end a web page the client's
	// person opened during a call (a URL-mode request): "I'm finished"
	// and "stop waiting", as in the window.
	ToolFinishPage      = "finish_web_page"
	ToolStopWaitingPage = "stop_waiting_web_page"
)

// Stop is the input of ToolStop: the tool whose calls stop.
type Stop struct {
	Tool string `json:"tool"`
}

// Page is the input of finish_web_page and stop_waiting_web_page: the
// elicitationId the web page was asked with.
type Page struct {
	ID string `json:"id"`
}

// Failure is the structured content of a tool result marked as an error:
// the sentence, for the CLI to say in its own language. When the server
// could not be connected, Server names it and Log holds the end of its log.
type Failure struct {
	Error  i18n.Message `json:"error"`
	Server string       `json:"server,omitempty"`
	Log    string       `json:"log,omitempty"`
	// Notices are what the command's server was seen doing meanwhile
	// (Noticed), for the caller to say before the error.
	Notices []i18n.Message `json:"notices,omitempty"`
}

// Noticed is a command's error together with what its server was seen
// doing meanwhile, such as a flood of requests refused unseen: a command
// that fails still says it, before its error (Run returns it so too).
type Noticed struct {
	Notices []i18n.Message
	Err     error
}

func (n *Noticed) Error() string { return n.Err.Error() }

// Unwrap returns the command's error.
func (n *Noticed) Unwrap() error { return n.Err }

// _meta keys of what the app sends the client about its questions.
const (
	// ServerMeta, on a forwarded elicitation, says who asks (an
	// mcp.ServerRef).
	ServerMeta = "gatehouse.dev/server"
	// TimeoutMeta, on a forwarded elicitation, is how long the broker waits
	// for its answer, and then for its web page, in milliseconds.
	TimeoutMeta = "gatehouse.dev/timeout"
	// PageEndedMeta, on notifications/elicitation/complete, says why a web
	// page ended without its server's confirmation (a Failure).
	PageEndedMeta = "gatehouse.dev/unconfirmed"
	// KindMeta, on a forwarded elicitation, says it is a sign-in consent
	// (mcp.KindSignIn, sent as a URL request) or a model's tool call
	// (mcp.KindToolCall, sent as a form); absent for a server's request.
	KindMeta = "gatehouse.dev/kind"
	// ToolCallMeta, on a forwarded tool call, is the call (an mcp.ToolCall)
	// as JSON text, so that its arguments arrive exactly as the model wrote
	// them.
	ToolCallMeta = "gatehouse.dev/toolCall"
)

// ConnectError is a server that could not be connected for a CLI command:
// its name, why, and its log, which the CLI shows with the error.
type ConnectError struct {
	Server string
	Err    error
	Log    string
}

// Error implements error.
func (e *ConnectError) Error() string { return "cannot connect to " + e.Server + ": " + e.Err.Error() }

// Unwrap returns why.
func (e *ConnectError) Unwrap() error { return e.Err }
