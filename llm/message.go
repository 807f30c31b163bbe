package llm

import "encoding/json"

// A Role says who wrote a Message.
type Role string

// The roles of a conversation.
const (
	// RoleSystem is an instruction to the model. Request.System is the usual
	// place for it; a system message in Messages is sent where it stands
	// (OpenAI kind) or appended to the system prompt (Anthropic kind).
	RoleSystem Role = "system"
	// RoleUser is the person.
	RoleUser Role = "user"
	// RoleAssistant is the model: text, reasoning and tool calls.
	RoleAssistant Role = "assistant"
	// RoleTool is the result of one tool call, named by ToolCallID.
	RoleTool Role = "tool"
)

// A Message is one entry of a conversation. Its fields are plain data, so it
// can be stored as JSON and sent again to any provider.
type Message struct {
	// Role says who wrote it.
	Role Role `json:"role"`
	// Text is the message's text (for a tool message: the result's text).
	Text string `json:"text,omitempty"`
	// Reasoning is an assistant's reasoning as one text, shown folded. It is
	// sent back only where the provider asks for it (Quirks.EchoReasoning).
	Reasoning string `json:"reasoning,omitempty"`
	// Thinking holds Anthropic's thinking blocks exactly as they arrived,
	// signatures included: Anthropic requires them back unchanged in the
	// turns of a tool call. Other providers leave it empty and ignore it.
	Thinking []ThinkingBlock `json:"thinking,omitempty"`
	// ToolCalls are the tools an assistant asks to call, in its order.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID names the call a tool message answers.
	ToolCallID string `json:"toolCallId,omitempty"`
	// IsError marks a tool message whose result is an error (including a
	// call the person denied). Anthropic receives it as is_error; for OpenAI
	// the text has to say so.
	IsError bool `json:"isError,omitempty"`
	// Parts follow a user message's Text: the contents of the resources the
	// person attached to it, in their order.
	Parts []Part `json:"parts,omitempty"`
}

// A Part is one more piece of a person's message after its Text: a text,
// or an image. An image part carries a Text too: what a provider that does
// not read images (Quirks.Images unset) receives in its place, a sentence
// saying that an image was left out.
type Part struct {
	// Text is the part's text (for an image, what stands in for it).
	Text string `json:"text,omitempty"`
	// Image is an image's bytes: PNG, JPEG, GIF or WebP, as MimeType says.
	Image []byte `json:"image,omitempty"`
	// MimeType is the image's type ("image/png").
	MimeType string `json:"mimeType,omitempty"`
}

// A ThinkingBlock is one Anthropic thinking block: its text and signature,
// or, for a block the provider redacted, only its opaque Redacted data.
type ThinkingBlock struct {
	// Text is the thinking as the model wrote it.
	Text string `json:"text,omitempty"`
	// Signature proves to Anthropic that Text is unchanged.
	Signature string `json:"signature,omitempty"`
	// Redacted is the encrypted content of a redacted_thinking block.
	Redacted string `json:"redacted,omitempty"`
}

// A ToolCall is a model's request to call one tool.
type ToolCall struct {
	// ID is the provider's name for the call; tool results refer to it. A
	// provider that sends none gets one made up, so it is never empty.
	ID string `json:"id"`
	// Name is the tool's name as it was offered in Request.Tools.
	Name string `json:"name"`
	// Arguments is a JSON object. It is nil when the model's arguments were
	// not a JSON object; then MalformedArguments holds them as sent.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// MalformedArguments is the model's argument text when it is not a JSON
	// object. The caller should not run the tool but answer the call with an
	// error result, so that the model can try again.
	MalformedArguments string `json:"malformedArguments,omitempty"`
}

// A Tool is offered to the model.
type Tool struct {
	// Name is unique among the request's tools. Providers accept letters,
	// digits, '_' and '-' only (OpenAI: at most 64, Anthropic: 128).
	Name string `json:"name"`
	// Description tells the model what the tool does.
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema (an object schema) of the arguments;
	// empty means no arguments.
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// A Request asks for one model turn.
type Request struct {
	// Model is the model's ID; empty means Config.Model.
	Model string
	// System is the system prompt; empty means none.
	System string
	// Messages is the conversation so far, oldest first. A tool message
	// follows the assistant message that made its call.
	Messages []Message
	// Tools are offered to the model; none means it can only write text.
	Tools []Tool
	// MaxTokens bounds the answer's length; 0 means the provider's default
	// (Anthropic requires a bound: DefaultAnthropicMaxTokens).
	MaxTokens int
	// ThinkingBudget, when more than 0, turns on Anthropic's extended
	// thinking with this many tokens (at least 1024). OpenAI-compatible
	// providers think or not by model, and ignore it.
	ThinkingBudget int
}

// Usage counts a turn's tokens.
type Usage struct {
	// InputTokens is what the request cost, cached input included.
	InputTokens int64 `json:"inputTokens"`
	// OutputTokens is what the answer cost, reasoning included.
	OutputTokens int64 `json:"outputTokens"`
}

// A Model is one model an endpoint offers.
type Model struct {
	// ID is what Request.Model takes.
	ID string `json:"id"`
	// DisplayName is a friendlier name when the provider gives one.
	DisplayName string `json:"displayName,omitempty"`
}

// A FinishReason says why a turn ended.
type FinishReason string

// The finish reasons. A provider's reason outside this list is passed on as
// it came.
const (
	// FinishStop is a natural end (or a stop sequence).
	FinishStop FinishReason = "stop"
	// FinishToolCalls means the model waits for the results of its tool calls.
	FinishToolCalls FinishReason = "tool_calls"
	// FinishLength means the answer hit MaxTokens and is cut short.
	FinishLength FinishReason = "length"
	// FinishContentFilter means the provider withheld (part of) the answer.
	FinishContentFilter FinishReason = "content_filter"
)

// An EventType says what an Event carries.
type EventType int

// The events of a stream, in the order they can come: deltas interleave,
// tool calls arrive once complete, usage near the end, EventEnd last.
const (
	// EventText carries a piece of the answer's text in Event.Text.
	EventText EventType = iota + 1
	// EventReasoning carries a piece of the model's reasoning in Event.Text.
	EventReasoning
	// EventToolCall carries one complete tool call in Event.ToolCall.
	EventToolCall
	// EventUsage carries the turn's token counts in Event.Usage.
	EventUsage
	// EventEnd is the last event of a complete turn: Event.Finish and
	// Event.Message, the assistant message to append to the conversation.
	EventEnd
)

// An Event is one step of a streamed turn; Type says which fields are set.
type Event struct {
	// Type says what the event carries.
	Type EventType
	// Text is the delta of an EventText or EventReasoning.
	Text string
	// ToolCall is the call of an EventToolCall.
	ToolCall ToolCall
	// Usage is the count of an EventUsage.
	Usage Usage
	// Finish is why the turn ended (EventEnd).
	Finish FinishReason
	// Message is the whole assistant message (EventEnd): the text, reasoning,
	// thinking blocks and tool calls streamed before, assembled.
	Message Message
}
