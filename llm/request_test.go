package llm_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
)

// toolTurn is a conversation after one tool round, in Chinese: the person
// asked, the model called a tool (with its reasoning, and for Anthropic
// its signed thinking), the tool answered.
var toolTurn = llm.Request{
	System: "你是一个有帮助的助手。",
	Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "北京天气怎么样？"},
		{
			Role: llm.RoleAssistant, Text: "我查一下。", Reasoning: "需要调用天气工具。",
			Thinking:  []llm.ThinkingBlock{{Text: "需要调用天气工具。", Signature: "sig-abc"}, {Redacted: "EmwKAhgB"}},
			ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "weather", Arguments: []byte(`{"city":"北京"}`)}, {ID: "call_2", Name: "clock", Arguments: []byte(`{}`)}},
		},
		{Role: llm.RoleTool, ToolCallID: "call_1", Text: "晴，25°C"},
		{Role: llm.RoleTool, ToolCallID: "call_2", Text: "the person denied this call", IsError: true},
	},
	Tools: []llm.Tool{
		{Name: "weather", Description: "查询城市天气", InputSchema: []byte(`{"type":"object","properties":{"city":{"type":"string","description":"城市"}},"required":["city"],"additionalProperties":false}`)},
		{Name: "clock"},
	},
	MaxTokens: 300,
}

func TestStream_SendsTheConversationAsTheWireFormatWants(t *testing.T) {
	// Stand-in servers: no model can run on these machines. They record
	// the request; the test reads what went over the wire.
	cases := []struct {
		kind llm.Kind
		want map[string]string // JSON path → JSON value
	}{
		{llm.KindOpenAI, map[string]string{
			"model":          `"stand-in-model"`,
			"stream":         `true`,
			"stream_options": `{"include_usage":true}`,
			"max_tokens":     `300`,
			"messages": `[
				{"role":"system","content":"你是一个有帮助的助手。"},
				{"role":"user","content":"北京天气怎么样？"},
				{"role":"assistant","content":"我查一下。","tool_calls":[
					{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"北京\"}"}},
					{"id":"call_2","type":"function","function":{"name":"clock","arguments":"{}"}}]},
				{"role":"tool","tool_call_id":"call_1","content":"晴，25°C"},
				{"role":"tool","tool_call_id":"call_2","content":"the person denied this call"}]`,
			"tools": `[
				{"type":"function","function":{"name":"weather","description":"查询城市天气",
					"parameters":{"type":"object","properties":{"city":{"type":"string","description":"城市"}},"required":["city"],"additionalProperties":false}}},
				{"type":"function","function":{"name":"clock","parameters":{"type":"object","properties":{}}}}]`,
		}},
		{llm.KindAnthropic, map[string]string{
			"model":      `"stand-in-model"`,
			"stream":     `true`,
			"max_tokens": `300`,
			"system":     `[{"type":"text","text":"你是一个有帮助的助手。"}]`,
			"messages": `[
				{"role":"user","content":[{"type":"text","text":"北京天气怎么样？"}]},
				{"role":"assistant","content":[
					{"type":"thinking","thinking":"需要调用天气工具。","signature":"sig-abc"},
					{"type":"redacted_thinking","data":"EmwKAhgB"},
					{"type":"text","text":"我查一下。"},
					{"type":"tool_use","id":"call_1","name":"weather","input":{"city":"北京"}},
					{"type":"tool_use","id":"call_2","name":"clock","input":{}}]},
				{"role":"user","content":[
					{"type":"tool_result","tool_use_id":"call_1","content":[{"type":"text","text":"晴，25°C"}],"is_error":false},
					{"type":"tool_result","tool_use_id":"call_2","content":[{"type":"text","text":"the person denied this call"}],"is_error":true}]}]`,
			"tools": `[
				{"name":"weather","description":"查询城市天气",
					"input_schema":{"type":"object","properties":{"city":{"type":"string","description":"城市"}},"required":["city"],"additionalProperties":false}},
				{"name":"clock","input_schema":{"type":"object","properties":{}}}]`,
		}},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			// The thinking block's signature is the stand-in's own, as if
			// it had made the earlier turn.
			s := standIn(t, tc.kind, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"北京今天晴。"}, Signature: "sig-abc"}}})
			stream(t, provider(t, llm.Config{Kind: tc.kind, BaseURL: s.URL}), toolTurn).end(t)
			var body map[string]any
			s.ChatRequests()[0].Decode(t, &body)
			for path, want := range tc.want {
				if got := asJSON(field(body, path)); !sameJSON(t, got, want) {
					t.Errorf("%s:\n got %s\nwant %s", path, got, strings.Join(strings.Fields(want), " "))
				}
			}
		})
	}
}

func TestStream_DeepSeekGetsItsReasoningBackInToolTurns(t *testing.T) {
	// Stand-in server: no model can run on these machines. It answers like
	// DeepSeek: a tool turn whose assistant message lacks the
	// reasoning_content it came with is refused (400).
	cases := []struct {
		name    string
		quirks  llm.Quirks
		wantErr error
	}{
		{"the DeepSeek preset sends it back", llm.Quirks{EchoReasoning: true}, nil},
		{"without the quirk DeepSeek refuses the turn", llm.Quirks{}, llm.ErrProvider},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.NewOpenAI(t, llmtest.Script{RequireReasoningEcho: true, Turns: []llmtest.Turn{
				{Reasoning: []string{"先查", "天气。"}, ToolCalls: []llmtest.ToolCall{{ID: "call_0", Name: "weather", Arguments: []string{`{"city":`, `"北京"}`}}}},
				{Text: []string{"北京今天晴。"}},
			}})
			cfg, _ := llm.PresetByID("deepseek")
			config := cfg.Config("sk-standin", "deepseek-reasoner")
			config.BaseURL, config.Quirks = s.URL, tc.quirks
			p := provider(t, config)
			first := stream(t, p, ask("北京天气？")).end(t)
			if first.Message.Reasoning != "先查天气。" {
				t.Fatalf("reasoning = %q", first.Message.Reasoning)
			}
			// An earlier exchange with reasoning: before the person's last
			// message, so it is not sent back.
			next := llm.Request{Messages: []llm.Message{
				{Role: llm.RoleUser, Text: "你好"},
				{Role: llm.RoleAssistant, Text: "你好！", Reasoning: "打招呼。"},
				{Role: llm.RoleUser, Text: "北京天气？"},
				first.Message,
				{Role: llm.RoleTool, ToolCallID: first.Message.ToolCalls[0].ID, Text: "晴"},
			}}
			r := stream(t, p, next)
			if !errors.Is(r.err, tc.wantErr) {
				t.Fatalf("second turn: error %v, want %v", r.err, tc.wantErr)
			}
			if tc.wantErr != nil {
				var e *llm.Error
				if errors.As(r.err, &e) && !strings.Contains(e.Detail, "reasoning_content") {
					t.Errorf("the error's detail does not carry DeepSeek's message: %q", e.Detail)
				}
				return
			}
			var body map[string]any
			s.ChatRequests()[1].Decode(t, &body)
			if got := field(body, "messages.3.reasoning_content"); got != "先查天气。" {
				t.Errorf("the tool turn's assistant message has reasoning_content %v, want it back", got)
			}
			if got := field(body, "messages.1"); got.(map[string]any)["reasoning_content"] != nil {
				t.Errorf("an earlier turn's reasoning was sent: %v", got)
			}
		})
	}
}

func TestStream_QuirksChangeTheRequest(t *testing.T) {
	// Stand-in server: no model can run on these machines.
	withTools := llm.Request{Messages: ask("查天气").Messages, Tools: []llm.Tool{{Name: "weather"}}, MaxTokens: 500}
	cases := []struct {
		name   string
		preset string
		req    llm.Request
		want   map[string]any // top-level field → value; nil value means absent
	}{
		{"GLM asks to stream tool arguments", "glm", withTools, map[string]any{"tool_stream": true}},
		{"GLM without tools asks nothing", "glm", ask("你好"), map[string]any{"tool_stream": nil}},
		{"others do not ask", "deepseek", withTools, map[string]any{"tool_stream": nil}},
		{"OpenAI takes max_completion_tokens", "openai", withTools, map[string]any{"max_completion_tokens": 500.0, "max_tokens": nil}},
		{"compatible servers take max_tokens", "ollama", withTools, map[string]any{"max_tokens": 500.0, "max_completion_tokens": nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"好"}}}})
			preset, ok := llm.PresetByID(tc.preset)
			if !ok {
				t.Fatalf("no preset %q", tc.preset)
			}
			cfg := preset.Config("sk-standin", "m")
			cfg.BaseURL = s.URL
			stream(t, provider(t, cfg), tc.req).end(t)
			var body map[string]any
			s.ChatRequests()[0].Decode(t, &body)
			for k, want := range tc.want {
				if got := body[k]; got != want {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
		})
	}
}

func TestStream_KeysGoOnlyWhereTheyBelong(t *testing.T) {
	// Stand-in servers: no model can run on these machines. The
	// environment holds keys for the vendors' SDKs; a provider must not
	// pick them up (an OpenAI key must never reach a local server).
	t.Setenv("OPENAI_API_KEY", "sk-from-the-environment")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-the-environment")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
	cases := []struct {
		name   string
		kind   llm.Kind
		key    string
		header string
		want   string
	}{
		{"a local server gets no key", llm.KindOpenAI, "", "Authorization", ""},
		{"an OpenAI-format key is a bearer token", llm.KindOpenAI, "sk-standin", "Authorization", "Bearer sk-standin"},
		{"Anthropic without a key gets none", llm.KindAnthropic, "", "X-Api-Key", ""},
		{"an Anthropic key is x-api-key", llm.KindAnthropic, "sk-ant-standin", "X-Api-Key", "sk-ant-standin"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := standIn(t, tc.kind, llmtest.Script{APIKey: tc.key, Turns: []llmtest.Turn{{Text: []string{"好"}}}, Models: []string{"m"}})
			p := provider(t, llm.Config{Kind: tc.kind, BaseURL: s.URL, APIKey: tc.key})
			stream(t, p, ask("你好")).end(t)
			if _, err := p.Models(t.Context()); err != nil {
				t.Fatal(err)
			}
			for _, r := range s.Requests() {
				if got := r.Header.Get(tc.header); got != tc.want {
					t.Errorf("%s %s: %s = %q, want %q", r.Method, r.Path, tc.header, got, tc.want)
				}
				if strings.Contains(strings.Join(r.Header.Values("Authorization"), "")+r.Header.Get("X-Api-Key"), "environment") {
					t.Errorf("%s %s carries the environment's key", r.Method, r.Path)
				}
			}
		})
	}
}

func TestStream_AnthropicTakesAConversationBegunElsewhere(t *testing.T) {
	// Stand-in server: no model can run on these machines. Like Anthropic,
	// it refuses unsigned thinking, tool-use IDs outside its pattern and
	// tool blocks in a request without tools. The history was made by an
	// OpenAI-compatible provider (Moonshot names its calls
	// "functions.NAME:INDEX") and has reasoning but no signed thinking.
	history := []llm.Message{
		{Role: llm.RoleUser, Text: "北京天气？"},
		{Role: llm.RoleAssistant, Reasoning: "查一下。", ToolCalls: []llm.ToolCall{{ID: "functions.weather:0", Name: "weather", Arguments: []byte(`{"city":"北京"}`)}}},
		{Role: llm.RoleTool, ToolCallID: "functions.weather:0", Text: "晴"},
		{Role: llm.RoleAssistant, Text: "北京晴。"},
		{Role: llm.RoleUser, Text: "上海呢？"},
	}
	cases := []struct {
		name  string
		tools []llm.Tool
		want  map[string]string // JSON path → JSON value
	}{
		{"a call ID Anthropic refuses is sent as one it accepts, the same in the call and its result",
			[]llm.Tool{{Name: "weather"}}, map[string]string{
				"messages.1.content": `[{"type":"tool_use","id":"functions_weather_0_0ffa7886","name":"weather","input":{"city":"北京"}}]`,
				"messages.2.content": `[{"type":"tool_result","tool_use_id":"functions_weather_0_0ffa7886","content":[{"type":"text","text":"晴"}],"is_error":false}]`,
			}},
		{"without tools offered, earlier calls and results are told as text",
			nil, map[string]string{
				"messages.1.content": `[{"type":"text","text":"[Called the tool weather (call functions.weather:0) with {\"city\":\"北京\"}]"}]`,
				"messages.2.content": `[{"type":"text","text":"[Result of tool call functions.weather:0: 晴]"}]`,
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.NewAnthropic(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"上海多云。"}}}})
			p := provider(t, llm.Config{Kind: llm.KindAnthropic, BaseURL: s.URL})
			stream(t, p, llm.Request{Messages: history, Tools: tc.tools}).end(t)
			var body map[string]any
			s.ChatRequests()[0].Decode(t, &body)
			for path, want := range tc.want {
				if got := asJSON(field(body, path)); !sameJSON(t, got, want) {
					t.Errorf("%s:\n got %s\nwant %s", path, got, want)
				}
			}
		})
	}
}
