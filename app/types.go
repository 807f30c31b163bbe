package app

import (
	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/visible"
)

// ServerInput is what the server editor sends when a person adds or edits a
// server. Exactly one of Stdio or HTTP is used, chosen by Transport.
type ServerInput struct {
	Name      string            `json:"name"`
	Enabled   bool              `json:"enabled"`
	Transport string            `json:"transport"` // "stdio" or "http"
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	Dir       string            `json:"dir"`
	// InheritEnv passes Gatehouse's whole environment to a stdio server;
	// off, it gets only a small safe set and Env.
	InheritEnv bool              `json:"inheritEnv"`
	URL        string            `json:"url"`
	Headers    map[string]string `json:"headers"`
	// EnvLines and HeaderLines are the editor's text for Env and Headers,
	// read by Go (ParseEnv, ParseHeaders): when one is set it replaces its
	// map, and a line that cannot be read is that field's error.
	EnvLines    string `json:"envLines,omitempty"`
	HeaderLines string `json:"headerLines,omitempty"`
	// NoURLMode turns URL-mode elicitation off for this server: it is not
	// offered, and a URL request from it is refused (E4).
	NoURLMode bool `json:"noUrlMode"`
	// Sign-in client (HTTP servers that require OAuth): a client registered
	// in advance, or a client ID metadata document URL. Empty means dynamic
	// client registration.
	ClientID          string `json:"clientId"`
	ClientSecret      string `json:"clientSecret"`
	ClientMetadataURL string `json:"clientMetadataUrl"`
	// Roots are the folders the server may see (MCP roots), as absolute
	// paths; none by default. A change reaches a connected server at once.
	Roots []string `json:"roots"`
}

// FieldErrors maps an input field name ("name", "command", "url", ...) to a
// sentence explaining what is wrong with it. An empty map means valid.
type FieldErrors map[string]i18n.Message

// ImportRequest confirms the preview of a file of another app's servers
// (ServersService.PreviewImport) for ServersService.Import.
type ImportRequest struct {
	// File is the preview's file and Digest its content as previewed.
	File   string `json:"file"`
	Digest string `json:"digest"`
	// Servers are the entries to import.
	Servers []ImportChoice `json:"servers"`
}

// ImportChoice is one entry of a preview to import: its Key, and the name
// it gets ("" keeps the preview's).
type ImportChoice struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

// ImportResult is what an import added and what it could not add.
type ImportResult struct {
	Added  []ServerView    `json:"added"`
	Failed []ImportFailure `json:"failed"`
}

// ImportFailure is a server that was not imported, and why: Key is its
// entry in the preview (ImportChoice.Key), Name the name it was to get.
type ImportFailure struct {
	Key     string       `json:"key"`
	Name    string       `json:"name"`
	Message i18n.Message `json:"message"`
}

// ServerView is one configured server with its live status, as the servers
// pane shows it.
type ServerView struct {
	ID     string      `json:"id"`
	Input  ServerInput `json:"input"`
	Where  string      `json:"where"` // "npx -y foo" or "https://host/mcp": where it runs
	Status StatusView  `json:"status"`
	// Demo is true for the built-in demo server (`gatehouse demo-server`),
	// which the first-start welcome counts as no server of the person's own.
	Demo bool `json:"demo"`
	// LogLevel is the level of log messages asked of the server
	// (logging/setLevel, when it logs); "" leaves the server's default.
	LogLevel string `json:"logLevel"`
}

// StatusView is the connection state of one server.
type StatusView struct {
	// State is one of "connecting", "connected", "error", "disabled",
	// "needs-sign-in".
	State string `json:"state"`
	// Message is a sentence for people when State is "error" (and a hint while
	// reconnecting), e.g. "command not found: foo".
	Message         i18n.Message `json:"message"`
	Transport       string       `json:"transport"` // "stdio", "streamable HTTP" or "legacy SSE"
	ProtocolVersion string       `json:"protocolVersion"`
	ServerName      string       `json:"serverName"` // what the server calls itself
	ServerVersion   string       `json:"serverVersion"`
	Capabilities    []string     `json:"capabilities"` // "tools", "resources", "prompts", ...
	Since           string       `json:"since"`        // RFC 3339 time of the last change
	NextRetry       string       `json:"nextRetry"`    // RFC 3339, set while waiting to reconnect
	Counts          ListCount    `json:"counts"`
	// Stderr are the last lines a stdio server wrote to its stderr in the
	// attempt that failed (State "error"): the server's text, a few lines,
	// each bounded (mcp.Status.Stderr), shown as text on its card.
	Stderr []string `json:"stderr"`
}

// ListCount tells how many tools, resources and prompts a server offers.
type ListCount struct {
	Tools     int `json:"tools"`
	Resources int `json:"resources"`
	Prompts   int `json:"prompts"`
}

// ToolView is one tool of a server, ready to render in the tools pane.
type ToolView struct {
	Name        string    `json:"name"`
	Title       string    `json:"title"` // title, annotations.title, or name
	Description string    `json:"description"`
	Annotations ToolHints `json:"annotations"`
	// SchemaID names the version of the tool's input schema: the same for
	// the same schema, another when the server changes it. The schema
	// itself comes with the tool's form (ToolsService.Form).
	SchemaID  string `json:"schemaId"`
	HasOutput bool   `json:"hasOutputSchema"`
	// NeedsTask is a tool that can only run as an MCP task
	// (execution.taskSupport "required"), which Gatehouse cannot do yet.
	NeedsTask bool `json:"needsTask"`
	// App is the tool's interface (MCP Apps), when it has one.
	App *ToolAppView `json:"app,omitempty"`
}

// ToolAppView is what a tool declares of its interface (MCP Apps).
type ToolAppView struct {
	// ResourceURI is its ui:// resource.
	ResourceURI string `json:"resourceUri"`
	// ForModel is false for a tool only its app may call
	// (visibility ["app"]): not offered to the model, not listed as its.
	ForModel bool `json:"forModel"`
	// ForApp is false for a tool its app may not call (visibility
	// ["model"]).
	ForApp bool `json:"forApp"`
}

// ToolFormView is what the tools pane shows of an opened tool beyond the
// list: the form made from its input schema and the schema itself.
type ToolFormView struct {
	Form        forms.Form `json:"form"`
	InputSchema string     `json:"inputSchema"` // pretty JSON, shown beside the JSON editor
	SchemaID    string     `json:"schemaId"`    // as ToolView.SchemaID
}

// ToolHints are the tool annotations, as plain flags. Hints are claims made by
// the server, not guarantees.
type ToolHints struct {
	ReadOnly    bool `json:"readOnly"`
	Destructive bool `json:"destructive"`
	Idempotent  bool `json:"idempotent"`
	OpenWorld   bool `json:"openWorld"`
}

// ArgumentCheck is a tool form's values read as Call would send them.
// When Errors is empty, Arguments are what to send; otherwise they are a
// draft (empty fields left out, JSON fields parsed where they parse) to
// start the JSON editor from, and Errors says per field what is wrong.
type ArgumentCheck struct {
	Arguments map[string]any          `json:"arguments"`
	Errors    map[string]i18n.Message `json:"errors"`
}

// ToolResultView is the outcome of a tool call, ready to render.
type ToolResultView struct {
	IsError    bool          `json:"isError"`
	Content    []ContentView `json:"content"`
	Structured string        `json:"structured"` // pretty JSON of structuredContent, "" if none
	// StructuredView is Structured as the window draws it (visible.JSON),
	// nil when there is none.
	StructuredView *visible.Node `json:"structuredView,omitempty"`
	// StructuredWarning is set when structuredContent does not match the
	// tool's outputSchema, in words a person understands.
	StructuredWarning *i18n.Message `json:"structuredWarning,omitempty"`
	DurationMs        int64         `json:"durationMs"`
	// ArgumentErrors says, per argument ("" for the arguments as a whole),
	// why the arguments did not pass the tool's input schema. When it is
	// not empty the tool was not called and nothing else is set.
	ArgumentErrors map[string]i18n.Message `json:"argumentErrors"`
}

// ContentView is one content item of a tool result. Every string in it came
// from the server and must be rendered as text.
type ContentView struct {
	Type     string `json:"type"` // text, image, audio, resource_link, resource
	Text     string `json:"text"`
	MimeType string `json:"mimeType"`
	Data     string `json:"data"` // base64 for image/audio
	URI      string `json:"uri"`
	Name     string `json:"name"`
	Title    string `json:"title"`
	// Link is set for a resource_link the link analysis accepts: the person
	// may open it, after consent, with ToolsService.OpenLink(LinkID).
	Link   *linkcheck.Report `json:"link,omitempty"`
	LinkID string            `json:"linkId,omitempty"`
	// LinkProblem says why a resource_link cannot be opened.
	LinkProblem string `json:"linkProblem,omitempty"`
	// Readable is set for a resource_link or an embedded resource whose
	// URI is not a web address: ResourcesService.Read(serverID, URI) reads
	// it on the server that returned it.
	Readable bool `json:"readable,omitempty"`
}

// AppInfo is shown in the settings pane.
type AppInfo struct {
	Version string `json:"version"`
	DataDir string `json:"dataDir"`
	DBPath  string `json:"dbPath"`
	// Keyring is true when secrets (sign-in tokens, API keys) are kept in
	// the OS keyring; false means they are kept in the data file (readable
	// by this user only).
	Keyring bool `json:"keyring"`
}

// Event names sent to the frontend.
const (
	// EventServers carries a ServerList whenever any server changes.
	EventServers = "servers:changed"
	// EventTools carries the ID of a server whose tool list changed.
	EventTools = "tools:changed"
	// EventProviders carries a ProviderList whenever a model provider is
	// added, changed or removed, or the default changes.
	EventProviders = "providers:changed"
	// EventLanguage carries the LanguageView when the person changes the
	// language in Settings.
	EventLanguage = "language:changed"
)
