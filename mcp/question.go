package mcp

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/visible"
)

// Kinds of question the broker asks a person.
const (
	// KindForm is a form-mode elicitation: fields to fill in.
	KindForm = "form"
	// KindURL is a URL-mode elicitation: a web page to open (E18–E25).
	KindURL = "url"
	// KindSignIn is a sign-in consent (E33): the host asks it, not the
	// server, when the person pressed Sign in, before anything is sent to
	// the server's authorization server. Its Link is Gatehouse's own start
	// page, which sends the browser on to the authorization page.
	KindSignIn = "signin"
	// KindToolCall is a model's tool call waiting for the person's approval
	// (the chat): the tool, its server and the exact arguments.
	KindToolCall = "tool-call"
	// KindToolRun is not asked: it is the history's record of a tool call
	// as it was made, from wherever it came (ToolRun.Source; Broker.RecordToolRun).
	KindToolRun = "tool-run"
	// KindSampling is a server's sampling request (sampling/createMessage)
	// for the person to review before the host's model sees it: they may
	// edit the prompt and choose the model.
	KindSampling = "sampling"
	// KindSamplingResult is the model's answer to a sampling request, for
	// the person to review before the server gets it.
	KindSamplingResult = "sampling-result"
	// KindAppMessage is what a server's app (MCP Apps) wants to give the
	// conversation's model, for the person to see before it does and to
	// refuse: a message into the conversation (ui/message) or context for
	// the next turn (ui/update-model-context).
	KindAppMessage = "app-message"
	// KindAppLink is a web page a server's app (MCP Apps) wants opened
	// (ui/open-link), with its address as Gatehouse checked it: accepted
	// once the person chose to open it and the browser took it.
	KindAppLink = "app-link"
)

// Scopes of an approval: how far an Allow reaches.
const (
	// ScopeOnce allows this one call.
	ScopeOnce = "once"
	// ScopeConversation allows the tool for the rest of the conversation.
	ScopeConversation = "conversation"
	// ScopeAlways allows the tool from now on, until the person changes it
	// in Settings.
	ScopeAlways = "always"
)

// Actions a person can take (E26).
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// ErrNotOpen is returned when the person answers a question that is no
// longer open: the server withdrew it, it timed out, or it was answered. The
// late answer is dropped; nothing is sent.
var ErrNotOpen = i18n.Err("mcp.error.notOpen")

// A Question is something a server (or the host on a server's behalf) asks
// the person, owned by the Broker from the moment it arrives until it is
// answered, refused or withdrawn. Every string in it that came from the
// server (Message, form labels and descriptions, the URL) must be shown as
// text, never as HTML (E16). A Question does not change once asked.
type Question struct {
	ID   string `json:"id"` // host-assigned and unguessable; not the JSON-RPC id
	Kind string `json:"kind"`
	// Server says who asks (E27): the name the person gave it first.
	Server  ServerRef `json:"server"`
	Message string    `json:"message"`
	// Form is the form of a KindForm question.
	Form *forms.Form `json:"form,omitempty"`
	// ToolCall is the call a KindToolCall question asks about.
	ToolCall *ToolCall `json:"toolCall,omitempty"`
	// AppMessage is what a KindAppMessage question shows.
	AppMessage *AppMessage `json:"appMessage,omitempty"`
	// AppLink names the app that asks a KindAppLink question.
	AppLink *AppLink `json:"appLink,omitempty"`
	// Sampling is the request (and, for KindSamplingResult, the answer) of
	// a sampling question.
	Sampling *Sampling `json:"sampling,omitempty"`
	// Link is the checked web address of a KindURL, KindSignIn or
	// KindAppLink question (E20, E22).
	Link       *linkcheck.Report `json:"link,omitempty"`
	ReceivedAt time.Time         `json:"receivedAt"`
	Deadline   time.Time         `json:"deadline" ts_type:"string"` // when it is cancelled if still unanswered

	// Peer is the connection it came on; ElicitationID is a URL request's
	// id, which the server's completion notice names (E24).
	Peer          Peer   `json:"-"`
	ElicitationID string `json:"-"`
	schema        *forms.Schema
	raw           json.RawMessage // a form's requestedSchema, as the server wrote it
}

// RequestedSchema returns a form question's requestedSchema exactly as the
// server wrote it (nil for other kinds), to forward it unchanged.
func (q *Question) RequestedSchema() json.RawMessage { return q.raw }

// ServerRef names the server behind a question, as the person sees it.
type ServerRef struct {
	ID   string `json:"id"`
	Name string `json:"name"` // the name the person gave it
	// Where it runs: the command line or the URL.
	Where string `json:"where"`
	// SelfName and SelfVersion are what the server calls itself: claims,
	// shown second ("calls itself …").
	SelfName    string `json:"selfName"`
	SelfVersion string `json:"selfVersion"`
}

func serverRef(p Peer) ServerRef {
	return ServerRef{ID: p.Server.ID, Name: p.Server.Name, Where: p.Where, SelfName: p.SelfName, SelfVersion: p.SelfVersion}
}

// OpensPage reports whether accepting the question means opening its web
// page in the browser.
func (q *Question) OpensPage() bool {
	return (q.Kind == KindURL || q.Kind == KindSignIn || q.Kind == KindAppLink) && q.Link != nil
}

// Validate checks form values as Answer would, without answering, and
// returns per-field sentences (empty when valid), so that the person sees
// problems as they type (E15).
func (q *Question) Validate(values map[string]any) map[string]i18n.Message {
	if q.schema == nil {
		return map[string]i18n.Message{}
	}
	_, errs := q.schema.Validate(values)
	return errs
}

// ToolCall is a tool call a model wants to make. Arguments are the exact
// bytes that will be sent if the person allows it: what they approve is what
// the server receives.
type ToolCall struct {
	Tool        string          `json:"tool"`
	Title       string          `json:"title"` // the tool's title, or its name
	Description string          `json:"description"`
	Arguments   json.RawMessage `json:"arguments" ts_type:"any"`
	// View is Arguments as the window shows them, built from those bytes
	// once (visible.JSON: numbers as written, hidden characters marked), so
	// that no reading of the JSON in the window can differ from what is sent.
	View visible.Node `json:"view"`
	// ReadOnly and Destructive are the server's annotations: claims, shown
	// as such.
	ReadOnly    bool `json:"readOnly"`
	Destructive bool `json:"destructive"`
	// ConversationID and Conversation name the chat the call comes from.
	ConversationID string `json:"conversationId"`
	Conversation   string `json:"conversation"`
	// Held is ScopeConversation or ScopeAlways when the person allowed the
	// tool that far but it changed since, so that the grant is held and
	// this call is asked; "" otherwise. Changes say what changed.
	Held    string       `json:"held,omitempty"`
	Changes []ToolChange `json:"changes,omitempty"`
	// App names the server's app (MCP Apps) that asks for the call, as the
	// window shows it ("the Budget allocator app"); "" when a model asks.
	App string `json:"app,omitempty"`
	// Client is the other app that asks through the gateway; nil when a
	// model or a server's app asks.
	Client *Client `json:"client,omitempty"`
}

// Client is another app that uses the person's servers through the gateway
// (`gatehouse gateway`): what it claims to be, and what Gatehouse knows for
// sure of the program that launched the gateway. Every string is text the
// window shows as it is.
type Client struct {
	// Name and Version are the client's clientInfo: claims, shown as such.
	Name    string `json:"name"`
	Version string `json:"version"`
	// Launcher is the executable of the process that started the gateway,
	// read from /proc (its parent's exe), and Command its command line;
	// both empty when the kernel did not say.
	Launcher string `json:"launcher"`
	Command  string `json:"command"`
	// PID is that process's ID.
	PID int `json:"pid"`
}

// Claimed is the client's name and version as it claims them, in one
// string ("Claude Code 2.1"); "" when it claimed none.
func (c *Client) Claimed() string {
	if c == nil {
		return ""
	}
	if c.Version == "" {
		return c.Name
	}
	return c.Name + " " + c.Version
}

// AppMessage is what a server's app wants to give the conversation's model
// (KindAppMessage). Every string in it came from the app: text, never HTML.
type AppMessage struct {
	// App names the app as the window shows it (its tool's title).
	App string `json:"app"`
	// Context is true for ui/update-model-context (context the model reads
	// with the next turn), false for ui/message (a message written into
	// the conversation as the person's).
	Context bool `json:"context"`
	// Text is exactly what the model will read if the person accepts.
	Text string `json:"text"`
	// ConversationID and Conversation name the chat it goes to.
	ConversationID string `json:"conversationId"`
	Conversation   string `json:"conversation"`
}

// Sampling is a server's request to the host's model, as the person reviews
// it. Every string in it came from the server or the model: text, never HTML.
type Sampling struct {
	SystemPrompt string            `json:"systemPrompt"`
	Messages     []SamplingMessage `json:"messages"`
	// ModelHints are the server's preferences, in its order: claims it may
	// make, not choices it can force.
	ModelHints []string `json:"modelHints"`
	MaxTokens  int64    `json:"maxTokens"`
	// Models are the models the person can choose from; the first is the
	// one chosen unless they pick another.
	Models []SamplingModel `json:"models"`
	// Result is the model's answer (KindSamplingResult).
	Result *SamplingResult `json:"result,omitempty"`
}

// SamplingMessage is one message of a sampling request. Content other than
// text is described in Text (such as "[image, image/png]") and is not sent
// to the model.
type SamplingMessage struct {
	Role string `json:"role"` // "user" or "assistant"
	Text string `json:"text"`
}

// SamplingModel is a model the person may run a sampling request on.
type SamplingModel struct {
	ID    string `json:"id"`    // what the Sampler understands
	Label string `json:"label"` // what the person reads: provider and model
}

// SamplingResult is a model's answer to a sampling request.
type SamplingResult struct {
	Model      string `json:"model"`
	Text       string `json:"text"`
	StopReason string `json:"stopReason"`
}

// SamplingEdit is what the person changed before a sampling request runs:
// the model, and the prompt as they left it (nil Messages keeps the
// server's).
type SamplingEdit struct {
	Model        string            `json:"model"`
	SystemPrompt string            `json:"systemPrompt"`
	Messages     []SamplingMessage `json:"messages"`
}

// A Sampler runs a host model for a sampling request the person approved.
// The app provides one; Models is empty while no model provider is set up.
type Sampler interface {
	Models() []SamplingModel
	Sample(ctx context.Context, model string, req Sampling) (SamplingResult, error)
}

// Approval is the decision on a tool call: by the person, or by a policy
// without asking.
type Approval struct {
	Allowed bool
	// Scope is how far an Allow reaches: ScopeOnce, ScopeConversation or
	// ScopeAlways; the caller keeps the wider ones.
	Scope string
	// Asked is true when the person decided, false when a policy did.
	Asked bool
	// Reason says why a call was not allowed, for the model (in English)
	// and the card (in the person's language).
	Reason i18n.Message
	// NoAnswer is the answer time the question waited in vain: no one
	// answered it (0 when it was answered, or not asked).
	NoAnswer time.Duration
}

// Response is a person's answer to a Question.
type Response struct {
	Action string         // ActionAccept, ActionDecline or ActionCancel
	Values map[string]any // form values, for ActionAccept
	Scope  string         // how far an allowed tool call reaches
	Edit   *SamplingEdit  // the person's changes to a sampling request

	// why is the reason the history keeps, set by the broker.
	why i18n.Message
	// content is a form's values as the broker's Answer validated them
	// (E15), what is sent; validated says it was set.
	content   map[string]any
	validated bool
}

// A Reply is the person's yes to a question, as the kind of question they
// saw asks for it (Broker.Accept). Kind is that kind; a reply to a question
// of another kind is refused.
type Reply struct {
	// Kind is KindForm, KindURL (any web page question: a URL request or a
	// sign-in), KindToolCall, KindSampling, KindSamplingResult or
	// KindAppMessage.
	Kind   string
	Values map[string]any // a form's values
	Scope  string         // how far an allowed tool call reaches: ScopeOnce, ScopeConversation or ScopeAlways
	Edit   *SamplingEdit  // the person's changes to a sampling request (nil: none)
	// Open opens a web page question's checked link in the browser; the
	// consent is sent only once it returned nil (E21, E23). Nil sends it
	// without opening anything (the page was opened elsewhere).
	Open func(*linkcheck.Report) error
}

// Snapshot is everything pending for the person at one moment: the question
// on screen, those waiting behind it, the web pages they opened whose servers
// have not confirmed yet, and notices. The UI renders the newest snapshot
// (by Version) and nothing else. Lists are never nil.
type Snapshot struct {
	// Version increases with every snapshot the broker publishes; a
	// snapshot older than one already shown is stale.
	Version uint64       `json:"version"`
	Current *Question    `json:"current"`
	Waiting []Waiting    `json:"waiting"`
	Opened  []OpenedPage `json:"opened"`
	Notices []Notice     `json:"notices"`
}

// Waiting is a question queued behind the one on screen.
type Waiting struct {
	ID         string    `json:"id"`
	Kind       string    `json:"kind"`
	ServerID   string    `json:"serverId"`
	ServerName string    `json:"serverName"`
	Message    string    `json:"message"`
	ReceivedAt time.Time `json:"receivedAt" ts_type:"string"`
}

// OpenedPage is a web page the person opened in the browser (a URL-mode
// request they accepted), waiting for its server to say it is done.
type OpenedPage struct {
	ID         string            `json:"id"` // the question's ID
	ServerID   string            `json:"serverId"`
	ServerName string            `json:"serverName"`
	Message    string            `json:"message"`
	Link       *linkcheck.Report `json:"link"`
	OpenedAt   time.Time         `json:"openedAt" ts_type:"string"`

	ElicitationID string `json:"-"`
}

// Notice kinds.
const (
	// NoticeFlood: a server sent too many questions; some were refused
	// without being shown (E29). The UI offers to mute it.
	NoticeFlood = "flood"
	// NoticeWithdrawn: the question on screen ended without the person's
	// answer: the server withdrew it or disconnected.
	NoticeWithdrawn = "withdrawn"
	// NoticeTimedOut: the question on screen had no answer in time.
	NoticeTimedOut = "timed-out"
)

// Notice is a message about a server for the person, kept in the snapshot
// until they dismiss it.
type Notice struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	ServerID   string `json:"serverId"`
	ServerName string `json:"serverName"`
	// Refused counts the questions refused unseen (NoticeFlood).
	Refused int `json:"refused"`
	// Message says it in a sentence.
	Message i18n.Message `json:"message"`
}

// Answerer is someone who answers one question at a time and is busy while
// doing so: the conformance client, a test. Broker.AnswerWith lets one
// answer the broker's questions; the window answers through the broker's
// operations instead, and a terminal through a route (Broker.Route).
type Answerer interface {
	// Present shows one question and blocks until the person answers or ctx
	// ends (the server withdrew it, disconnected, or it timed out); then the
	// display must close and the return value is ignored.
	Present(ctx context.Context, q *Question) (Response, error)
	// Notify shows a notice, such as "<server> is sending too many requests".
	Notify(n Notice)
	// OpenedChanged reports the web pages the person opened whose servers
	// have not yet said they are complete.
	OpenedChanged(opened []OpenedPage)
}
