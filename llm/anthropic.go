package llm

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"iter"
	"net/http"
	"net/url"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// anthropicProvider speaks Anthropic's Messages API through the official
// SDK. Like the OpenAI one, its services are made without the SDK's
// NewClient, which would read ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from
// the environment.
type anthropicProvider struct {
	cfg      Config
	messages anthropic.MessageService
	models   anthropic.ModelService
	d        describer
}

func newAnthropic(cfg Config, base *url.URL, client *http.Client, d describer) *anthropicProvider {
	// The SDK's paths start with v1/; a base URL copied with /v1 at its end
	// would double it.
	b := *base
	b.Path = strings.TrimSuffix(strings.TrimSuffix(b.Path, "/"), "/v1")
	opts := []option.RequestOption{
		option.WithBaseURL(b.String()),
		option.WithHTTPClient(client),
		option.WithMaxRetries(0),
		option.WithMiddleware(catchHTTPErrors),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &anthropicProvider{
		cfg:      cfg,
		messages: anthropic.NewMessageService(opts...),
		models:   anthropic.NewModelService(opts...),
		d:        d,
	}
}

// Stream implements Provider.
func (p *anthropicProvider) Stream(ctx context.Context, req Request) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		params, err := p.params(req)
		if err != nil {
			yield(Event{}, err)
			return
		}
		stream := p.messages.NewStreaming(ctx, params)
		defer stream.Close()
		turn := anthropicTurn{p: p, yield: yield, inputs: map[int64]*strings.Builder{}}
		for stream.Next() {
			if !turn.add(stream.Current()) {
				return
			}
		}
		if err := stream.Err(); err != nil {
			yield(Event{}, p.streamFailure(ctx, err, string(params.Model)))
			return
		}
		if !turn.stopped {
			yield(Event{}, p.d.cutOff(nil))
			return
		}
		yield(Event{Type: EventEnd, Finish: turn.finish, Message: turn.message()}, nil)
	}
}

// streamFailure explains why a stream stopped; see the OpenAI one.
func (p *anthropicProvider) streamFailure(ctx context.Context, err error, model string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if e := p.d.readFailure(err); e != nil {
		return e
	}
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		return p.d.fromStreamError([]byte(apiErr.RawJSON()), model)
	}
	// Without the request at hand the SDK reports an error event as text.
	if data, ok := strings.CutPrefix(err.Error(), "received error while streaming: "); ok {
		return p.d.fromStreamError([]byte(data), model)
	}
	var he *httpError
	if errors.As(err, &he) || isBeforeAnswer(err) {
		return p.d.describe(ctx, err, model)
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return p.d.badStream(err.Error())
	}
	return p.d.cutOff(err)
}

// anthropicTurn turns stream events into Events. The SDK's Message.Accumulate
// keeps the blocks (and checks their order); tool input is joined here from
// its input_json_delta pieces, because Accumulate replaces input that is not
// valid JSON with {}, and the caller must see what the model really sent.
type anthropicTurn struct {
	p       *anthropicProvider
	yield   func(Event, error) bool
	acc     anthropic.Message
	inputs  map[int64]*strings.Builder
	calls   []ToolCall
	usage   Usage
	finish  FinishReason
	stopped bool
	size    answerSize
}

func (t *anthropicTurn) add(ev anthropic.MessageStreamEventUnion) bool {
	if ev.Type == "content_block_delta" && t.size.grow(ev.Delta.Text, ev.Delta.Thinking, ev.Delta.PartialJSON).over() {
		t.yield(Event{}, t.p.d.answerTooLarge())
		return false
	}
	if err := t.acc.Accumulate(ev); err != nil {
		t.yield(Event{}, t.p.d.badStream(err.Error()))
		return false
	}
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		t.usage = Usage{InputTokens: u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens, OutputTokens: u.OutputTokens}
	case "content_block_start":
		if ev.ContentBlock.Type == "tool_use" {
			t.inputs[ev.Index] = &strings.Builder{}
		}
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			return ev.Delta.Text == "" || t.yield(Event{Type: EventText, Text: ev.Delta.Text}, nil)
		case "thinking_delta":
			return ev.Delta.Thinking == "" || t.yield(Event{Type: EventReasoning, Text: ev.Delta.Thinking}, nil)
		case "input_json_delta":
			if b := t.inputs[ev.Index]; b != nil {
				b.WriteString(ev.Delta.PartialJSON)
			}
		}
	case "content_block_stop":
		block := t.acc.Content[ev.Index]
		if block.Type != "tool_use" {
			return true
		}
		call := ToolCall{ID: cmp.Or(block.ID, newCallID()), Name: block.Name}
		call.Arguments, call.MalformedArguments = toolArguments(t.inputs[ev.Index].String())
		t.calls = append(t.calls, call)
		return t.yield(Event{Type: EventToolCall, ToolCall: call}, nil)
	case "message_delta":
		t.finish = anthropicFinish(ev.Delta.StopReason)
		t.usage.OutputTokens = ev.Usage.OutputTokens
		if ev.Usage.JSON.InputTokens.Valid() {
			t.usage.InputTokens = ev.Usage.InputTokens + ev.Usage.CacheCreationInputTokens + ev.Usage.CacheReadInputTokens
		}
		return t.yield(Event{Type: EventUsage, Usage: t.usage}, nil)
	case "message_stop":
		t.stopped = true
	}
	return true
}

// message assembles the assistant message from the accumulated blocks.
func (t *anthropicTurn) message() Message {
	m := Message{Role: RoleAssistant, ToolCalls: t.calls}
	var text, reasoning strings.Builder
	for _, b := range t.acc.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "thinking":
			reasoning.WriteString(b.Thinking)
			m.Thinking = append(m.Thinking, ThinkingBlock{Text: b.Thinking, Signature: b.Signature})
		case "redacted_thinking":
			m.Thinking = append(m.Thinking, ThinkingBlock{Redacted: b.Data})
		}
	}
	m.Text, m.Reasoning = text.String(), reasoning.String()
	return m
}

// anthropicFinish maps Anthropic's stop reasons onto ours.
func anthropicFinish(r anthropic.StopReason) FinishReason {
	switch r {
	case "end_turn", "stop_sequence":
		return FinishStop
	case "tool_use":
		return FinishToolCalls
	case "max_tokens", "model_context_window_exceeded":
		return FinishLength
	case "refusal":
		return FinishContentFilter
	}
	return FinishReason(r)
}

func (p *anthropicProvider) params(req Request) (anthropic.MessageNewParams, error) {
	model := cmp.Or(req.Model, p.cfg.Model)
	if model == "" {
		return anthropic.MessageNewParams{}, &Error{Kind: ErrConfig, Message: i18n.M("llm.error.noModel", "provider", p.d.provider)}
	}
	tools, err := anthropicTools(req.Tools)
	if err != nil {
		return anthropic.MessageNewParams{}, err
	}
	messages, system := anthropicMessages(req, p.cfg.Quirks.Images)
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(model),
		MaxTokens: int64(cmp.Or(req.MaxTokens, DefaultAnthropicMaxTokens)),
		Messages:  messages,
		Tools:     tools,
	}
	if system != "" {
		params.System = []anthropic.TextBlockParam{{Text: system}}
	}
	if req.ThinkingBudget > 0 {
		params.Thinking = anthropic.ThinkingConfigParamOfEnabled(int64(req.ThinkingBudget))
		// The budget is part of max_tokens and must be less than it.
		if params.MaxTokens <= int64(req.ThinkingBudget) {
			params.MaxTokens = int64(req.ThinkingBudget) + DefaultAnthropicMaxTokens
		}
	}
	return params, nil
}

// anthropicMessages converts the conversation: system messages join the
// system prompt; tool results and the person's text that follow one another
// become one user message (Anthropic wants all results of a turn's calls in
// the next user message); thinking blocks go back as they came.
//
// A conversation may have started with another provider, or offered tools
// it no longer offers, so two things Anthropic refuses are mended on the
// way: a tool-call ID outside Anthropic's pattern (Moonshot's
// "functions.weather:0") is sent as a safe ID of its own, the same in the
// call and its result; and when the request offers no tools, earlier calls
// and results go as text, since Anthropic refuses tool blocks in a request
// without tools.
//
// The parts the person attached follow their text as blocks of their own;
// images as image blocks when images is set, else as their sentence.
func anthropicMessages(req Request, images bool) ([]anthropic.MessageParam, string) {
	system := []string{}
	if req.System != "" {
		system = append(system, req.System)
	}
	asText := len(req.Tools) == 0
	var out []anthropic.MessageParam
	var user []anthropic.ContentBlockParamUnion
	flush := func() {
		if len(user) > 0 {
			out = append(out, anthropic.NewUserMessage(user...))
			user = nil
		}
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			system = append(system, m.Text)
		case RoleUser:
			if m.Text != "" {
				user = append(user, anthropic.NewTextBlock(m.Text))
			}
			for _, part := range m.Parts {
				if len(part.Image) > 0 && images {
					user = append(user, anthropic.NewImageBlockBase64(part.MimeType, base64.StdEncoding.EncodeToString(part.Image)))
				} else if part.Text != "" {
					user = append(user, anthropic.NewTextBlock(part.Text))
				}
			}
		case RoleTool:
			if asText {
				user = append(user, anthropic.NewTextBlock(toolResultText(m)))
				continue
			}
			result := anthropic.ToolResultBlockParam{ToolUseID: anthropicToolID(m.ToolCallID), IsError: param.NewOpt(m.IsError)}
			if m.Text != "" { // an empty text block is refused
				result.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: m.Text}}}
			}
			user = append(user, anthropic.ContentBlockParamUnion{OfToolResult: &result})
		case RoleAssistant:
			blocks := assistantBlocks(m, asText)
			if len(blocks) == 0 {
				continue
			}
			flush()
			out = append(out, anthropic.NewAssistantMessage(blocks...))
		}
	}
	flush()
	return out, strings.Join(system, "\n\n")
}

// assistantBlocks are an assistant message's blocks; with asText its tool
// calls are told in text.
func assistantBlocks(m Message, asText bool) []anthropic.ContentBlockParamUnion {
	var blocks []anthropic.ContentBlockParamUnion
	for _, t := range m.Thinking {
		switch {
		case t.Redacted != "":
			blocks = append(blocks, anthropic.NewRedactedThinkingBlock(t.Redacted))
		case t.Signature != "":
			blocks = append(blocks, anthropic.NewThinkingBlock(t.Signature, t.Text))
		}
		// Thinking without a signature (from another provider) cannot be
		// sent: Anthropic would refuse the whole request.
	}
	if m.Text != "" {
		blocks = append(blocks, anthropic.NewTextBlock(m.Text))
	}
	for _, c := range m.ToolCalls {
		input := c.Arguments
		if input == nil {
			input = json.RawMessage(`{}`)
		}
		if asText {
			blocks = append(blocks, anthropic.NewTextBlock(fmt.Sprintf("[Called the tool %s (call %s) with %s]", c.Name, c.ID, input)))
			continue
		}
		blocks = append(blocks, anthropic.NewToolUseBlock(anthropicToolID(c.ID), input, c.Name))
	}
	return blocks
}

// toolResultText tells a tool result in text, for a request without tools.
func toolResultText(m Message) string {
	what := "Result"
	if m.IsError {
		what = "Error"
	}
	return fmt.Sprintf("[%s of tool call %s: %s]", what, m.ToolCallID, m.Text)
}

// anthropicToolID returns id if Anthropic accepts it as a tool-use ID
// (^[a-zA-Z0-9_-]+$), else one it accepts: the allowed characters of id and
// a hash of the whole, so that two IDs never meet.
func anthropicToolID(id string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, id)
	if safe == id && id != "" {
		return id
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return fmt.Sprintf("%s_%08x", safe, h.Sum32())
}

func anthropicTools(tools []Tool) ([]anthropic.ToolUnionParam, error) {
	var out []anthropic.ToolUnionParam
	for _, t := range tools {
		schema, err := objectSchema(t)
		if err != nil {
			return nil, err
		}
		in := anthropic.ToolInputSchemaParam{Properties: schema["properties"], ExtraFields: map[string]any{}}
		for k, v := range schema {
			switch k {
			case "type", "properties":
			case "required":
				for _, name := range asSlice(v) {
					if s, ok := name.(string); ok {
						in.Required = append(in.Required, s)
					}
				}
			default:
				in.ExtraFields[k] = v
			}
		}
		tool := anthropic.ToolParam{Name: t.Name, InputSchema: in}
		if t.Description != "" {
			tool.Description = param.NewOpt(t.Description)
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: &tool})
	}
	return out, nil
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// Models implements Provider.
func (p *anthropicProvider) Models(ctx context.Context) ([]Model, error) {
	pager := p.models.ListAutoPaging(ctx, anthropic.ModelListParams{})
	var out []Model
	for read := 0; read < MaxModels*2 && len(out) < MaxModels && pager.Next(); read++ {
		out = keepModel(out, Model{ID: pager.Current().ID, DisplayName: pager.Current().DisplayName})
	}
	if err := pager.Err(); err != nil {
		return nil, p.d.describe(ctx, err, "")
	}
	return out, nil
}
