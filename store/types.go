package store

import (
	"encoding/json"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/visible"
)

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
	// Roots are the folders the person lets the server see (MCP roots), as
	// absolute paths: none by default, and none in records from before them.
	Roots []string `json:"roots,omitempty"`
	// LogLevel is the level of log messages asked of the server with
	// logging/setLevel at every connection; "" asks nothing (the server's
	// own default).
	LogLevel string `json:"logLevel,omitempty"`
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
	// WindowX and WindowY are the window's top-left corner on the desktop,
	// meaningful only with WindowPlaced (0,0 is a position too). The window
	// opens there only while that is on a screen (gtkwin.Place).
	WindowX      int  `json:"windowX,omitempty"`
	WindowY      int  `json:"windowY,omitempty"`
	WindowPlaced bool `json:"windowPlaced,omitempty"`
	// WindowMaximised is set when the window was closed maximised; the size
	// and position are then those it had before.
	WindowMaximised bool `json:"windowMaximised,omitempty"`
	// ElicitationTimeout bounds how long a server's request for input waits
	// for the user; zero means the caller's default (10 min).
	ElicitationTimeout time.Duration `json:"elicitationTimeout,omitempty"`
	// RememberAnswers keeps the values the user submitted in the history
	// (HistoryEntry.Answer). Off by default: only the outcome is kept.
	RememberAnswers bool `json:"rememberAnswers,omitempty"`
	// DefaultProviderID is the Provider.ID new conversations start with;
	// empty means none chosen. PutSettings refuses an ID no provider has,
	// and DeleteProvider clears it when it names the deleted provider.
	DefaultProviderID string `json:"defaultProviderId,omitempty"`
	// Language is the person's language choice for the window and the
	// sentences Go shows there: "" follows the system, "en" or "zh-CN"
	// (see i18n.Choice).
	Language string `json:"language,omitempty"`
	// Theme is the window's look: ThemeSystem (follow the desktop),
	// ThemeLight or ThemeDark. PutSettings refuses any other value.
	Theme string `json:"theme,omitempty"`
	// WelcomeDismissed is set once the person dismissed the first-start
	// welcome; it never shows again on this data file.
	WelcomeDismissed bool `json:"welcomeDismissed,omitempty"`
	// SettingsSection is the settings pane's section the person chose last
	// (app.SettingsSections); "" shows the first.
	SettingsSection string `json:"settingsSection,omitempty"`
}

// Themes the window can show (Settings.Theme).
const (
	ThemeSystem = ""
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

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

// Outcomes of a tool run (HistoryEntry.Mode "tool-run"); a run can also end
// OutcomeCancelled (the person stopped it) or OutcomeTimedOut (it reached
// its time limit).
const (
	// OutcomeOK means the tool ran and its result is not an error.
	OutcomeOK = "ok"
	// OutcomeError means the call failed, or the tool's result is an error.
	OutcomeError = "error"
	// OutcomeDenied means the call was not made: the person or their
	// settings did not allow it.
	OutcomeDenied = "denied"
)

// Sources of a tool run (HistoryEntry.Source): where the call came from.
// They are defined here once; the window names each in words (History).
const (
	// SourceToolsPane: the person ran it in the window's Tools pane.
	SourceToolsPane = "tools"
	// SourceChat: a model called it in a chat.
	SourceChat = "chat"
	// SourceCLI: the person ran it on the command line, with or without the
	// window open.
	SourceCLI = "cli"
	// SourceApp: a server's own interface (MCP Apps) called it.
	SourceApp = "app"
	// SourceClient: another MCP client called it through Gatehouse (the
	// gateway).
	SourceClient = "client"
)

// MaxHistoryResult bounds the result text a tool run keeps in the history
// (HistoryEntry.Result): enough to recognise it, while 10,000 entries stay a
// few megabytes (issue 12).
const MaxHistoryResult = 4 * 1024

// MaxHistory is the most history entries kept; AddHistory deletes the oldest
// beyond it.
const MaxHistory = 10000

// HistoryEntry records one question the person was asked, or that a policy
// answered for them, and what became of it: an elicitation ("form", "url"),
// a sign-in ("signin"), a model's tool call ("tool-call", with Tool set) or a
// server's sampling request ("sampling"). For a tool call, accepted means
// allowed and declined means denied. It also records a tool call as it was
// run ("tool-run", with Tool and Source set), with one of the tool-run
// outcomes. Message and URL are stored as the
// server sent them (except that invalid UTF-8 becomes U+FFFD, as in all JSON
// this package writes): they are untrusted text.
//
// Answer, Arguments and Result hold what the person or a tool sent; callers
// set them only when Settings.RememberAnswers is on.
type HistoryEntry struct {
	ID         uint64    `json:"id"`             // assigned by AddHistory; later entries have higher IDs
	Time       time.Time `json:"time"`           // when the request arrived, or the call was sent
	ServerID   string    `json:"serverId"`       // Server.ID
	ServerName string    `json:"serverName"`     // the server's name at the time
	Mode       string    `json:"mode"`           // "form", "url", "signin", "tool-call", "tool-run" or "sampling"
	Tool       string    `json:"tool,omitempty"` // the tool's name, for a tool call or run
	Message    string    `json:"message"`        // as the server sent it; "" when Gatehouse asked in its own words
	// Summary says what was asked in Gatehouse's own words, as a message
	// key and its arguments, for a question the server did not word (a
	// sign-in, a sampling request): the window shows it in its language.
	Summary i18n.Message `json:"summary,omitzero"`
	Fields  []string     `json:"fields,omitempty"` // field names of a form
	// Titles are the form's field titles by field name, for the fields
	// whose title is not their name.
	Titles  map[string]string `json:"titles,omitempty"`
	URL     string            `json:"url,omitempty"` // URL mode and sign-in: the address asked for
	Outcome string            `json:"outcome"`       // one of the Outcome constants
	// Detail says why, as a message key and its arguments (a policy, a
	// validation problem), shown in the window's language. Entries written
	// before it was a message hold an English sentence, read as its text.
	Detail   i18n.Message   `json:"detail,omitzero"`
	AnswerMs int64          `json:"answerMs"`         // from shown to answered; 0 if never shown
	Answer   map[string]any `json:"answer,omitempty"` // the values sent, only when the caller keeps them
	// Source is where a tool run came from: one of the Source constants.
	Source string `json:"source,omitempty"`
	// Client is what another app that called through the gateway claims
	// to be (its name and version), and Launcher the program that launched
	// the gateway as the kernel says (Source SourceClient); text.
	Client   string `json:"client,omitempty"`
	Launcher string `json:"launcher,omitempty"`
	// DurationMs is how long a tool run took, from sent to its end.
	DurationMs int64 `json:"durationMs,omitempty"`
	// Arguments are a tool run's arguments, only when the caller keeps them.
	Arguments map[string]any `json:"arguments,omitempty"`
	// Result is a tool run's result as text, at most MaxHistoryResult
	// bytes, only when the caller keeps it.
	Result string `json:"result,omitempty"`
	// Repeats is how many more times the same thing was refused without
	// the person after this entry (refusedUnasked), folded into it, and LastTime
	// when the last of them was: a server, app or client that keeps asking
	// for what is refused cannot push the person's history out (E29).
	Repeats  int       `json:"repeats,omitempty"`
	LastTime time.Time `json:"lastTime,omitzero"`
}

// HistoryFilter selects history entries. The zero value selects the newest
// 200 of all.
type HistoryFilter struct {
	ServerID string // only this server's entries; "" for all
	Outcome  string // only entries with this outcome; "" for all
	Limit    int    // at most this many; 0 or less means 200
	Before   uint64 // only entries with a lower ID, to page back; 0 means from the newest
}

// Provider kinds: the API a model provider speaks.
const (
	// ProviderOpenAI is the OpenAI-compatible chat completions API, which
	// Ollama, LM Studio, llama.cpp, vLLM and most cloud vendors speak.
	ProviderOpenAI = "openai"
	// ProviderAnthropic is Anthropic's Messages API.
	ProviderAnthropic = "anthropic"
)

// Provider is one configured model provider. Its API key is a secret (see
// SecretAPIKey) and is never part of this record.
type Provider struct {
	ID   string `json:"id"`   // assigned by PutProvider when empty; never reused
	Name string `json:"name"` // unique among providers, case-insensitively, after trimming spaces
	Kind string `json:"kind"` // ProviderOpenAI or ProviderAnthropic
	// Preset names the preset the provider was made from ("ollama",
	// "deepseek", ...); empty for one set up by hand. The store does not
	// interpret it.
	Preset string `json:"preset,omitempty"`
	// BaseURL is the API's base URL (http or https); empty means the SDK's
	// default for Kind.
	BaseURL string `json:"baseUrl,omitempty"`
	// Model is the model new conversations use; empty means the person
	// chooses one per conversation.
	Model string `json:"model,omitempty"`
	// Quirks are per-provider settings for known vendor differences (such
	// as sending reasoning back in tool turns): a JSON object that the
	// package speaking to the provider interprets and the store only checks
	// to be an object. Empty means none.
	Quirks    json.RawMessage `json:"quirks,omitempty"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

// Secret kinds: what a secret belongs to, and so whose ID names it.
const (
	// SecretSignIn is a server's sign-in (OAuth) token; the ID is a
	// Server.ID.
	SecretSignIn = "signin"
	// SecretAPIKey is a model provider's API key; the ID is a Provider.ID.
	SecretAPIKey = "apikey"
)

// ToolKey names one tool of one server.
type ToolKey struct {
	ServerID string `json:"serverId"` // Server.ID
	Tool     string `json:"tool"`     // the tool's name as the server lists it
}

// MaxSeenDescription bounds the description a ToolSeen keeps to say what
// changed (in characters); the fingerprint covers all of it.
const MaxSeenDescription = 500

// ToolSeen is what the person saw of a tool when they allowed it: a grant
// ("Always allow", "Allow in this conversation") holds only while the tool
// is still the same (issue 22, item 8; the "rug pull", CVE-2025-54136).
// The store keeps it as it is given; package mcp makes it
// (mcp.ToolFingerprint) and says what changed (mcp.ToolChanges).
type ToolSeen struct {
	// Fingerprint is the hash of all the parts below, taken together: a
	// grant holds only while the tool's fingerprint is this one.
	Fingerprint string `json:"fingerprint"`
	// Server, Name, Title, Schema and Annotations are the hashes of each
	// part (the server's command line or URL, the tool's name, its titles,
	// its input schema, its annotations), to say which changed.
	Server      string `json:"server,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Schema      string `json:"schema,omitempty"`
	Annotations string `json:"annotations,omitempty"`
	// DescriptionHash is the hash of the whole description; Description is
	// its start (at most MaxSeenDescription characters), to show the
	// change.
	DescriptionHash string `json:"descriptionHash,omitempty"`
	Description     string `json:"description,omitempty"`
	// At is when the person allowed the tool.
	At time.Time `json:"at" ts_type:"string"`
}

// Same reports whether the tool now is the one seen: s is not nil and has
// the same fingerprint. A nil s (a grant from before Gatehouse recorded
// what was seen) is never the same, so such a grant asks once more.
func (s *ToolSeen) Same(now ToolSeen) bool {
	return s != nil && s.Fingerprint != "" && s.Fingerprint == now.Fingerprint
}

// ToolGrant is a tool the person allowed "in this conversation", bound to
// what they saw of it.
type ToolGrant struct {
	ServerID string `json:"serverId"` // Server.ID
	Tool     string `json:"tool"`     // the tool's name as the server lists it
	// Seen is the tool as the person allowed it. Grants stored before it
	// was recorded have none: they are held, like a grant whose tool
	// changed, until the person allows the tool again.
	Seen *ToolSeen `json:"seen,omitempty"`
}

// Key names the granted tool.
func (g ToolGrant) Key() ToolKey { return ToolKey{ServerID: g.ServerID, Tool: g.Tool} }

// Conversation is one chat with a model. Its messages are kept apart and
// read with Store.Messages.
type Conversation struct {
	ID string `json:"id"` // assigned by PutConversation when empty; never reused
	// Title is trimmed and at most MaxTitleLength characters; it may be
	// empty (a new conversation).
	Title      string `json:"title"`
	ProviderID string `json:"providerId,omitempty"` // Provider.ID; the provider may since have been removed
	Model      string `json:"model,omitempty"`      // empty means the provider's Model
	// SystemPrompt is sent before the messages; at most
	// MaxSystemPromptLength characters.
	SystemPrompt string `json:"systemPrompt,omitempty"`
	// Servers are the IDs of the servers whose tools are offered to the
	// model; empty means every enabled server.
	Servers []string `json:"servers,omitempty"`
	// AllowedTools are the tools the person allowed "in this conversation":
	// their calls are not asked about again here while each tool is still
	// the one they saw (ToolGrant.Seen). Only AllowToolInConversation adds
	// to it and RevokeToolInConversation and EndToolGrants take from it;
	// PutConversation keeps it.
	AllowedTools []ToolGrant `json:"allowedTools,omitempty"`
	CreatedAt    time.Time   `json:"createdAt" ts_type:"string"`
	// UpdatedAt is the time of the last change to the conversation or its
	// messages; Conversations lists the latest first.
	UpdatedAt time.Time `json:"updatedAt" ts_type:"string"`
}

// ConversationFilter selects a page of conversations. The zero value
// selects the 200 most recently updated.
type ConversationFilter struct {
	Limit int // at most this many; 0 or less means 200
	// Older, when set, pages back: only the conversations listed after it,
	// that is updated before it. Pass the last conversation of the previous
	// page.
	Older *Conversation
}

// Message roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	// RoleTool is the result of one tool call, answering the assistant
	// message's ToolCall with the same ID.
	RoleTool = "tool"
)

// Message is one message of a conversation, as the person and the model see
// it. Text, Reasoning, tool arguments and results are untrusted text: they
// come from a model or a server.
type Message struct {
	ConversationID string `json:"conversationId"` // set by AppendMessages
	// Seq orders the conversation's messages: assigned by AppendMessages,
	// starting at 1, higher for later messages, never reused.
	Seq  uint64 `json:"seq"`
	Role string `json:"role"` // one of the Role constants
	Text string `json:"text,omitempty"`
	// Reasoning is the model's reasoning (reasoning_content, thinking),
	// shown folded and, where the provider needs it, sent back.
	Reasoning string `json:"reasoning,omitempty"`
	// ProviderData is what the provider needs to receive this message
	// again exactly (such as signatures of thinking blocks): JSON the
	// package speaking to the provider writes and reads.
	ProviderData json.RawMessage `json:"providerData,omitempty" ts_type:"unknown"`
	ToolCalls    []ToolCall      `json:"toolCalls,omitempty"`  // an assistant's tool calls
	ToolCallID   string          `json:"toolCallId,omitempty"` // the ToolCall.ID a RoleTool message answers
	ToolResult   *ToolResult     `json:"toolResult,omitempty"` // a RoleTool message's result
	Usage        *Usage          `json:"usage,omitempty"`      // tokens of the turn that produced it
	// ProviderID and Model say which provider (Provider.ID) and model wrote
	// an assistant message: a conversation may switch between them, and
	// what one provider needs back (ProviderData) another may refuse.
	// Empty on messages of other roles and on those stored before they
	// were recorded.
	ProviderID string `json:"providerId,omitempty"`
	Model      string `json:"model,omitempty"`
	// Error is why the turn failed, in a sentence, on the message that
	// stands for the failed turn.
	Error string `json:"error,omitempty"`
	// ContextTooLong marks a failed turn whose conversation outgrew the
	// model's context, so that the ways on are offered also after a restart.
	ContextTooLong bool `json:"contextTooLong,omitempty"`
	// Dropped leaves the message out of what is sent to the model: the
	// person dropped it, for example to make room in the context (see
	// DropToolResults). A dropped tool result stays stored and readable;
	// the model gets a short placeholder in its place, since providers
	// refuse a tool call without a result.
	Dropped bool `json:"dropped,omitempty"`
	// Attachments are the resources the person attached to a user message,
	// with what the model received of each.
	Attachments []Attachment `json:"attachments,omitempty"`
	// Truncated says, in sentences, what the store cut to keep the message
	// within MaxMessageBytes; empty when nothing was cut. Whoever shows or
	// sends the message should show or send this too.
	Truncated string    `json:"truncated,omitempty"`
	CreatedAt time.Time `json:"createdAt" ts_type:"string"` // set by AppendMessages
}

// Attachment is one resource the person attached to a message: which one
// it was, as the message shows it again, and what the model received of
// it. Every string but ServerID is untrusted server text.
type Attachment struct {
	ServerID string `json:"serverId"` // Server.ID
	// ServerName is the server's name when the resource was attached.
	ServerName string `json:"serverName"`
	URI        string `json:"uri"`
	Name       string `json:"name"`
	MimeType   string `json:"mimeType,omitempty"`
	// Size is the size in bytes of the contents the server sent.
	Size int `json:"size"`
	// Text is what the model received as text: the contents (perhaps cut,
	// saying so), or a sentence standing for an image or what could not
	// be sent. The store may cut it further (see Message.Truncated).
	Text string `json:"text,omitempty"`
	// Image is an image's bytes (PNG, JPEG, GIF or WebP, as MimeType
	// says), sent as an image to providers whose models read images.
	Image []byte `json:"image,omitempty" ts_type:"string"`
}

// ToolCall is one tool call a model asked for.
type ToolCall struct {
	ID string `json:"id"` // the model's ID for the call
	// Name is the tool's name as it was offered to the model (made unique
	// across servers); ServerID and Tool say which tool that was.
	Name     string `json:"name,omitempty"`
	ServerID string `json:"serverId"`
	Tool     string `json:"tool"`
	// Arguments are the arguments as JSON, normally an object. If they had
	// to be cut (see Message.Truncated) they are a JSON string holding the
	// start of the original text.
	Arguments json.RawMessage `json:"arguments,omitempty" ts_type:"unknown"`
	// View is Arguments as the window shows them (visible.JSON). It is
	// never stored: the app fills it in when it reads a conversation for
	// the window, so that the window never reads the JSON itself.
	View *visible.Node `json:"view,omitempty"`
	// App is true when the tool had an interface (MCP Apps) when it was
	// called: the call's card shows the app, given the call kept with
	// PutAppCall.
	App bool `json:"app,omitempty"`
}

// ToolResult is what became of one tool call.
type ToolResult struct {
	// Content is the result as JSON (normally the server's CallToolResult;
	// for a denial, the text returned to the model). If it had to be cut
	// (see Message.Truncated) it is a JSON string holding the start of the
	// original JSON text.
	Content json.RawMessage `json:"content,omitempty" ts_type:"unknown"`
	IsError bool            `json:"isError,omitempty"` // the server, or Gatehouse, reported an error
	Denied  bool            `json:"denied,omitempty"`  // the person or a policy denied the call: it never reached the server
	// Interrupted marks the result Gatehouse stored in place of one that
	// never came: it was closed or killed while the call was asked about
	// or ran, so whether the tool ran is not known. Content says so to the
	// model.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Usage is the tokens one model turn used, as the provider reported them.
type Usage struct {
	Input  int64 `json:"input"`
	Output int64 `json:"output"`
}

// ConversationHit is one conversation found by SearchConversations.
type ConversationHit struct {
	Conversation Conversation `json:"conversation"`
	// Seq is the first message whose text matches; 0 when the title
	// matches.
	Seq uint64 `json:"seq,omitempty"`
	// Snippet is the matching message's text around the match, with "…"
	// where it was cut; empty when the title matches.
	Snippet string `json:"snippet,omitempty"`
}

// ToolMode is what Gatehouse does with a model's call of a tool, as the
// person sets it for a server or for one of its tools; the chat, the broker,
// the window (models.ts, store.ToolMode) and the CLI use these words.
type ToolMode string

// Tool-call modes.
const (
	// ToolAsk asks the person. For a whole server it is the default (and is
	// saved as the empty Mode); a trusted server's read-only tools are then
	// called without asking. As one tool's own mode it asks every call of
	// that tool, whatever the server's mode and trust (a server allowed
	// without asking can keep one tool that asks).
	ToolAsk ToolMode = "ask"
	// ToolAllow calls the tool without asking.
	ToolAllow ToolMode = "allow"
	// ToolDeny answers the model that the call was denied, without asking.
	ToolDeny ToolMode = "deny"
	// ToolDefault is only a tool's mode: the tool has none of its own, so
	// its server's applies. It is never saved: setting it removes the
	// tool's own mode (as does the empty mode).
	ToolDefault ToolMode = "default"
)

// ToolPolicy is how Gatehouse treats a model's calls of one server's tools.
// The zero value asks about every call and trusts nothing. (A server's
// sampling requests follow its elicitation Policy.)
type ToolPolicy struct {
	// Mode applies to every tool of the server without a mode of its own.
	// Empty is ToolAsk.
	Mode ToolMode `json:"mode,omitempty"` // ToolAsk, ToolAllow or ToolDeny
	// Tools holds modes of single tools, by tool name; they win over Mode.
	Tools map[string]ToolMode `json:"tools,omitempty"`
	// Approved holds, by tool name, what the person saw of each tool set to
	// ToolAllow when they allowed it: the allowance holds only while the
	// tool is the same (ToolSeen.Same). A tool allowed without one (before
	// Gatehouse recorded it, or in Settings while the server did not offer
	// it) is held until the person allows it again.
	Approved map[string]ToolSeen `json:"approved,omitempty"`
	// Trusted means the person believes the server's tool annotations: a
	// tool it marks readOnlyHint may then be called without asking.
	// Annotations of servers not trusted are claims and change nothing.
	Trusted bool `json:"trusted,omitempty"`
}

// Approval is what the person saw of the tool when they set it to
// ToolAllow (see Approved), or nil.
func (p ToolPolicy) Approval(tool string) *ToolSeen {
	if seen, ok := p.Approved[tool]; ok {
		return &seen
	}
	return nil
}
