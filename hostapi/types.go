package hostapi

import (
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Tool names: the CLI's commands, as the running app serves them.
const (
	ToolListServers   = "list_servers"
	ToolAddServer     = "add_server"
	ToolRemoveServer  = "remove_server"
	ToolEnableServer  = "enable_server"
	ToolDisableServer = "disable_server"
	ToolListTools     = "list_tools"
	ToolCallTool      = "call_tool"
	// ToolFinishPage and ToolStopWaitingPage end a web page the client's
	// person opened during a call_tool (a URL-mode request): "I'm finished"
	// and "stop waiting", as in the window.
	ToolFinishPage      = "finish_web_page"
	ToolStopWaitingPage = "stop_waiting_web_page"
)

// Page is the input of finish_web_page and stop_waiting_web_page: the
// elicitationId the web page was asked with.
type Page struct {
	ID string `json:"id"`
}

// ServerList is list_servers' result: every configured server.
type ServerList struct {
	Servers []ServerRow `json:"servers"`
}

// ServerRow is one line of `gatehouse servers list`.
type ServerRow struct {
	Name      string `json:"name"`
	Enabled   bool   `json:"enabled"`
	Transport string `json:"transport"`
	// Stdio is true for a server the app starts as a program; InheritEnv
	// then says whether it gets the app's whole environment.
	Stdio      bool   `json:"stdio"`
	InheritEnv bool   `json:"inheritEnv"`
	Where      string `json:"where"` // the command line or the URL
}

// Rows describes servers as `gatehouse servers list` shows them, whether
// the command line read them itself or asked the running app.
func Rows(servers []store.Server) []ServerRow {
	rows := make([]ServerRow, 0, len(servers))
	for _, s := range servers {
		rows = append(rows, ServerRow{Name: s.Name, Enabled: s.Enabled, Transport: s.Transport,
			Stdio: s.Stdio != nil, InheritEnv: s.Stdio != nil && s.Stdio.InheritEnv, Where: mcp.Where(s)})
	}
	return rows
}

// NewServer is add_server's input: a server as `gatehouse servers add`
// reads it from the command line (the fields of app.ServerInput it sets).
type NewServer struct {
	Name       string            `json:"name"`
	Enabled    bool              `json:"enabled"`
	Transport  string            `json:"transport" jsonschema:"stdio or http"`
	Command    string            `json:"command,omitempty"`
	Args       []string          `json:"args,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
	Dir        string            `json:"dir,omitempty"`
	InheritEnv bool              `json:"inheritEnv,omitempty"`
	URL        string            `json:"url,omitempty"`
	Headers    map[string]string `json:"headers,omitempty"`
}

// Added is add_server's result.
type Added struct {
	Name       string `json:"name"`
	Where      string `json:"where"`
	InheritEnv bool   `json:"inheritEnv"`
}

// ServerName is the input of the tools that take one server by its name
// (case-insensitive).
type ServerName struct {
	Name string `json:"name"`
}

// Changed is the result of remove_server, enable_server and disable_server:
// the server's name as the person gave it.
type Changed struct {
	Name string `json:"name"`
}

// ToolList is list_tools' result: a connected server's tools, sorted by name.
type ToolList struct {
	Tools []ToolInfo `json:"tools"`
}

// ToolInfo is one tool as `gatehouse tools` shows it. Both are server text.
type ToolInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Call is call_tool's input. Its result is a CallResult.
type Call struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Arguments is a JSON object as text, as typed on the command line;
	// empty means none.
	Arguments string `json:"arguments,omitempty"`
}

// CallResult is call_tool's result: the app's tool result view
// (app.ToolResultView, the same the CLI prints without the app; a client
// decodes it into the value Result points to) and the web pages of the call
// that ended before it, by the elicitationId they were asked with. Their
// notices were sent before the result, but a client handles notifications
// after its results: it waits for these before it waits for pages still open.
type CallResult struct {
	Result     any      `json:"result"`
	EndedPages []string `json:"endedPages,omitempty"`
}

// Failure is the structured content of a tool result marked as an error:
// the sentence, for the CLI to say in its own language. When the server
// could not be connected, Server names it and Log holds the end of its log.
type Failure struct {
	Error  i18n.Message `json:"error"`
	Server string       `json:"server,omitempty"`
	Log    string       `json:"log,omitempty"`
}

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
