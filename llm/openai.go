package llm

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// openAIProvider speaks OpenAI's chat completions through the official SDK.
// Its services are made without openai.NewClient, which would read
// OPENAI_API_KEY and OPENAI_BASE_URL from the environment and could send an
// OpenAI key to a local server.
type openAIProvider struct {
	cfg    Config
	chat   openai.ChatCompletionService
	models openai.ModelService
	d      describer
}

func newOpenAI(cfg Config, base *url.URL, client *http.Client, d describer) *openAIProvider {
	opts := []option.RequestOption{
		option.WithBaseURL(base.String()),
		option.WithHTTPClient(client),
		option.WithAPIKey(cfg.APIKey),
		// The chat decides about retrying; the SDK's own retries would hide
		// a rate limit and delay "nothing answers" by seconds.
		option.WithMaxRetries(0),
		option.WithMiddleware(catchHTTPErrors),
	}
	return &openAIProvider{
		cfg:    cfg,
		chat:   openai.NewChatCompletionService(opts...),
		models: openai.NewModelService(opts...),
		d:      d,
	}
}

// Stream implements Provider.
func (p *openAIProvider) Stream(ctx context.Context, req Request) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		params, opts, err := p.params(req)
		if err != nil {
			yield(Event{}, err)
			return
		}
		stream := p.chat.NewStreaming(ctx, params, opts...)
		defer stream.Close()
		turn := openAITurn{p: p, yield: yield}
		for stream.Next() {
			if !turn.add(stream.Current()) {
				return
			}
		}
		// A broken connection after the finish reason loses only the usage:
		// the turn is whole. A cancel or an error event still counts.
		err = stream.Err()
		if err != nil && (turn.finish == "" || ctx.Err() != nil || isStreamError(err)) {
			yield(Event{}, p.streamFailure(ctx, err, params.Model))
			return
		}
		if turn.finish == "" {
			yield(Event{}, p.d.cutOff(nil))
			return
		}
		yield(Event{Type: EventEnd, Finish: turn.finish, Message: turn.message()}, nil)
	}
}

func isStreamError(err error) bool {
	var se *ssestream.StreamError
	return errors.As(err, &se)
}

// streamFailure explains why a stream stopped: the caller's cancel, an
// error event inside the stream, an error answer, or a broken connection.
func (p *openAIProvider) streamFailure(ctx context.Context, err error, model string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if e := p.d.readFailure(err); e != nil {
		return e
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		return p.d.fromStreamError(se.Event.Data, model)
	}
	var he *httpError
	if errors.As(err, &he) {
		return p.d.describe(ctx, err, model)
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return p.d.badStream(err.Error())
	}
	if isBeforeAnswer(err) {
		return p.d.describe(ctx, err, model)
	}
	return p.d.cutOff(err)
}

// isBeforeAnswer says whether err happened while connecting rather than
// while reading an answer already under way.
func isBeforeAnswer(err error) bool {
	var urlErr *url.Error
	return errors.As(err, &urlErr)
}

// openAITurn turns the chunks of one stream into Events, accumulating tool
// calls with the SDK's accumulator (fragments joined by index).
type openAITurn struct {
	p         *openAIProvider
	yield     func(Event, error) bool
	acc       openai.ChatCompletionAccumulator
	text      strings.Builder
	reasoning strings.Builder
	calls     []ToolCall
	finish    FinishReason
	size      answerSize
}

// add handles one chunk; false means stop (the consumer left, or the stream
// is broken and the error was yielded).
func (t *openAITurn) add(chunk openai.ChatCompletionChunk) bool {
	if !t.acc.AddChunk(chunk) {
		t.yield(Event{}, t.p.d.badStream("a chunk does not continue the completion (id "+chunk.ID+")"))
		return false
	}
	for _, choice := range chunk.Choices {
		if choice.Index != 0 {
			continue // one answer was asked for
		}
		t.size.grow(choice.Delta.Content, choice.Delta.Refusal, reasoningDelta(choice.Delta))
		for _, c := range choice.Delta.ToolCalls {
			t.size.grow(c.Function.Name, c.Function.Arguments)
		}
		if t.size.over() {
			t.yield(Event{}, t.p.d.answerTooLarge())
			return false
		}
		if r := reasoningDelta(choice.Delta); r != "" {
			t.reasoning.WriteString(r)
			if !t.yield(Event{Type: EventReasoning, Text: r}, nil) {
				return false
			}
		}
		if c := choice.Delta.Content; c != "" {
			t.text.WriteString(c)
			if !t.yield(Event{Type: EventText, Text: c}, nil) {
				return false
			}
		}
		if u, ok := choiceUsage(choice); ok && !t.yield(Event{Type: EventUsage, Usage: u}, nil) {
			return false
		}
		if choice.FinishReason != "" && t.finish == "" {
			t.finish = FinishReason(choice.FinishReason)
			for _, call := range t.toolCalls() {
				if !t.yield(Event{Type: EventToolCall, ToolCall: call}, nil) {
					return false
				}
			}
			// Some servers (older Ollama) say "stop" after tool calls; the
			// model waits for their results all the same.
			if len(t.calls) > 0 && t.finish == FinishStop {
				t.finish = FinishToolCalls
			}
		}
	}
	if chunk.JSON.Usage.Valid() {
		u := Usage{InputTokens: chunk.Usage.PromptTokens, OutputTokens: chunk.Usage.CompletionTokens}
		if !t.yield(Event{Type: EventUsage, Usage: u}, nil) {
			return false
		}
	}
	return true
}

// toolCalls takes the accumulated calls, once, when the finish reason came:
// only then are all arguments complete, even when a provider interleaves
// the fragments of parallel calls.
func (t *openAITurn) toolCalls() []ToolCall {
	if len(t.acc.Choices) == 0 {
		return nil
	}
	for _, c := range t.acc.Choices[0].Message.ToolCalls {
		if c.Function.Name == "" && c.Function.Arguments == "" {
			continue // an index the provider skipped
		}
		call := ToolCall{ID: c.ID, Name: c.Function.Name}
		if call.ID == "" {
			call.ID = newCallID()
		}
		call.Arguments, call.MalformedArguments = toolArguments(c.Function.Arguments)
		t.calls = append(t.calls, call)
	}
	return t.calls
}

func (t *openAITurn) message() Message {
	return Message{Role: RoleAssistant, Text: t.text.String(), Reasoning: t.reasoning.String(), ToolCalls: t.calls}
}

// reasoningFields are where OpenAI-compatible servers put reasoning deltas:
// reasoning_content (DeepSeek, Qwen, Moonshot, GLM, SiliconFlow, vLLM, LM
// Studio, llama.cpp) or reasoning (Ollama, newer vLLM, which may send both
// with the same text: the first one with text wins).
var reasoningFields = []string{"reasoning_content", "reasoning"}

func reasoningDelta(delta openai.ChatCompletionChunkChoiceDelta) string {
	for _, name := range reasoningFields {
		f, ok := delta.JSON.ExtraFields[name]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// choiceUsage reads usage that a provider puts inside the choice instead of
// the chunk (Moonshot does, on the last chunk).
func choiceUsage(choice openai.ChatCompletionChunkChoice) (Usage, bool) {
	// Unknown fields are never Valid in the SDK's terms; their Raw is there.
	f, ok := choice.JSON.ExtraFields["usage"]
	if !ok || f.Raw() == "" || f.Raw() == "null" {
		return Usage{}, false
	}
	var u struct {
		Prompt     int64 `json:"prompt_tokens"`
		Completion int64 `json:"completion_tokens"`
	}
	if json.Unmarshal([]byte(f.Raw()), &u) != nil {
		return Usage{}, false
	}
	return Usage{InputTokens: u.Prompt, OutputTokens: u.Completion}, true
}

// toolArguments checks a call's argument text: a JSON object is kept, no
// text at all means no arguments ({}), an object encoded once more as a
// JSON string (some models do) is unwrapped; anything else is returned as
// malformed, for the caller to answer with an error result.
func toolArguments(text string) (json.RawMessage, string) {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return json.RawMessage(`{}`), ""
	}
	if isJSONObject(trimmed) {
		return json.RawMessage(trimmed), ""
	}
	var inner string
	if json.Unmarshal([]byte(trimmed), &inner) == nil {
		inner = strings.TrimSpace(inner)
		if isJSONObject(inner) {
			return json.RawMessage(inner), ""
		}
	}
	return nil, text
}

func isJSONObject(s string) bool {
	var obj map[string]json.RawMessage
	return json.Unmarshal([]byte(s), &obj) == nil && obj != nil
}

// newCallID names a tool call a provider left unnamed (some local servers).
func newCallID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "call_" + hex.EncodeToString(b)
}

// params builds the SDK's request, and the request options for the quirks
// that have no field in it.
func (p *openAIProvider) params(req Request) (openai.ChatCompletionNewParams, []option.RequestOption, error) {
	model := cmp.Or(req.Model, p.cfg.Model)
	if model == "" {
		return openai.ChatCompletionNewParams{}, nil, &Error{Kind: ErrConfig, Message: i18n.M("llm.error.noModel", "provider", p.d.provider)}
	}
	tools, err := p.tools(req.Tools)
	if err != nil {
		return openai.ChatCompletionNewParams{}, nil, err
	}
	params := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(model),
		Messages:      p.messages(req),
		Tools:         tools,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)},
	}
	if req.MaxTokens > 0 {
		if p.cfg.Quirks.MaxCompletionTokens {
			params.MaxCompletionTokens = param.NewOpt(int64(req.MaxTokens))
		} else {
			params.MaxTokens = param.NewOpt(int64(req.MaxTokens))
		}
	}
	var opts []option.RequestOption
	if p.cfg.Quirks.ToolStream && len(tools) > 0 {
		opts = append(opts, option.WithJSONSet("tool_stream", true))
	}
	return params, opts, nil
}

// messages converts the conversation. Reasoning goes back only with
// Quirks.EchoReasoning, and only in the current turn (after the person's
// last message): DeepSeek needs it there and ignores it before.
func (p *openAIProvider) messages(req Request) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	if req.System != "" {
		out = append(out, openai.SystemMessage(req.System))
	}
	lastUser := -1
	for i, m := range req.Messages {
		if m.Role == RoleUser {
			lastUser = i
		}
	}
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			out = append(out, openai.SystemMessage(m.Text))
		case RoleUser:
			out = append(out, p.userMessage(m))
		case RoleTool:
			out = append(out, openai.ToolMessage(m.Text, m.ToolCallID))
		case RoleAssistant:
			if m.Text == "" && len(m.ToolCalls) == 0 {
				continue // a turn stopped before it said anything
			}
			var a openai.ChatCompletionAssistantMessageParam
			if m.Text != "" {
				a.Content.OfString = param.NewOpt(m.Text)
			}
			for _, c := range m.ToolCalls {
				args := string(c.Arguments)
				if c.Arguments == nil {
					args = c.MalformedArguments
				}
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID:       c.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: args},
					},
				})
			}
			if p.cfg.Quirks.EchoReasoning && i > lastUser {
				a.SetExtraFields(map[string]any{"reasoning_content": m.Reasoning})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		}
	}
	return out
}

// userMessage is the person's message: its text alone, or, with attached
// parts, content parts (images as data: URLs with Quirks.Images).
func (p *openAIProvider) userMessage(m Message) openai.ChatCompletionMessageParamUnion {
	if len(m.Parts) == 0 {
		return openai.UserMessage(m.Text)
	}
	var parts []openai.ChatCompletionContentPartUnionParam
	if m.Text != "" {
		parts = append(parts, openai.TextContentPart(m.Text))
	}
	for _, part := range m.Parts {
		if len(part.Image) > 0 && p.cfg.Quirks.Images {
			parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
				URL: "data:" + part.MimeType + ";base64," + base64.StdEncoding.EncodeToString(part.Image)}))
		} else if part.Text != "" {
			parts = append(parts, openai.TextContentPart(part.Text))
		}
	}
	return openai.UserMessage(parts)
}

func (p *openAIProvider) tools(tools []Tool) ([]openai.ChatCompletionToolUnionParam, error) {
	var out []openai.ChatCompletionToolUnionParam
	for _, t := range tools {
		schema, err := objectSchema(t)
		if err != nil {
			return nil, err
		}
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			def.Description = param.NewOpt(t.Description)
		}
		out = append(out, openai.ChatCompletionFunctionTool(def))
	}
	return out, nil
}

// objectSchema reads a tool's input schema as a JSON object, with
// "type": "object" as both APIs require; no schema is an empty object.
func objectSchema(t Tool) (map[string]any, error) {
	schema := map[string]any{}
	if len(t.InputSchema) > 0 {
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil || schema == nil {
			return nil, &Error{Kind: ErrConfig, Message: i18n.M("llm.error.toolSchema", "tool", t.Name)}
		}
	}
	if _, ok := schema["type"]; !ok {
		schema["type"] = "object"
	}
	if _, ok := schema["properties"]; !ok {
		schema["properties"] = map[string]any{}
	}
	return schema, nil
}

// Models implements Provider.
func (p *openAIProvider) Models(ctx context.Context) ([]Model, error) {
	page, err := p.models.List(ctx)
	if err != nil {
		return nil, p.d.describe(ctx, err, "")
	}
	out := make([]Model, 0, min(len(page.Data), MaxModels))
	for _, m := range page.Data {
		if len(out) == MaxModels {
			break
		}
		out = keepModel(out, Model{ID: m.ID})
	}
	slices.SortFunc(out, func(a, b Model) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}
