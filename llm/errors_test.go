package llm_test

import (
	"cmp"
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
)

func TestStream_ErrorsAreSentencesOfAKind(t *testing.T) {
	// Stand-in servers: no model can run on these machines. The bodies are
	// the vendors' own error bodies.
	const key = "sk-standin-0123456789"
	cases := []struct {
		name       string
		kind       llm.Kind
		preset     string // names the provider in sentences
		apiKey     string
		model      string
		turn       llmtest.Turn
		wantKind   error
		want       string // the sentence; {url} is the stand-in's base URL
		wantRetry  time.Duration
		wantDetail string
	}{
		{
			name: "a refused key", preset: "deepseek", apiKey: "sk-wrong",
			turn:     llmtest.Turn{Status: 401, Body: `{"error":{"message":"Authentication Fails, Your api key: ****rong is invalid","type":"authentication_error","param":null,"code":"invalid_request_error"}}`},
			wantKind: llm.ErrKeyRefused, want: "The API key was refused by DeepSeek.",
		},
		{
			name: "no key where one is needed", preset: "qwen",
			turn:     llmtest.Turn{Status: 401, Body: `{"error":{"message":"You didn't provide an API key.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`},
			wantKind: llm.ErrKeyRefused, want: "Qwen (DashScope) needs an API key, and none is set.",
		},
		{
			name: "a key without permission (Anthropic 403)", kind: llm.KindAnthropic, preset: "anthropic", apiKey: key,
			turn:     llmtest.Turn{Status: 403, Body: `{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}}`},
			wantKind: llm.ErrKeyRefused, want: "The API key was refused by Anthropic.",
		},
		{
			name: "a provider that repeats the key it refused never shows it", preset: "siliconflow", apiKey: key,
			turn:     llmtest.Turn{Status: 403, Body: `{"code":30001,"message":"Key ` + key + ` is disabled","data":null}`},
			wantKind: llm.ErrKeyRefused, want: "The API key was refused by SiliconFlow.", wantDetail: "Key [API key] is disabled",
		},
		{
			name: "Ollama has not pulled the model", preset: "ollama", model: "qwen3:8b",
			turn:     llmtest.Turn{Status: 404, Body: `{"error":{"message":"model \"qwen3:8b\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`},
			wantKind: llm.ErrModelNotFound, want: "Ollama has no model named “qwen3:8b”.",
		},
		{
			name: "OpenAI has no such model", preset: "openai", apiKey: key, model: "gpt-9",
			turn:     llmtest.Turn{Status: 404, Body: "{\"error\":{\"message\":\"The model `gpt-9` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}"},
			wantKind: llm.ErrModelNotFound, want: "OpenAI has no model named “gpt-9”.",
		},
		{
			name: "DeepSeek has no such model (400)", preset: "deepseek", apiKey: key, model: "deepseek-v9",
			turn:     llmtest.Turn{Status: 400, Body: `{"error":{"message":"Model Not Exist","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`},
			wantKind: llm.ErrModelNotFound, want: "DeepSeek has no model named “deepseek-v9”.",
		},
		{
			name: "GLM has no such model (in Chinese)", preset: "glm", apiKey: key, model: "glm-9",
			turn:     llmtest.Turn{Status: 400, Body: `{"error":{"code":"1211","message":"模型不存在，请检查模型代码。"}}`},
			wantKind: llm.ErrModelNotFound, want: "Zhipu GLM has no model named “glm-9”.", wantDetail: "模型不存在，请检查模型代码。",
		},
		{
			name: "Anthropic has no such model", kind: llm.KindAnthropic, preset: "anthropic", apiKey: key, model: "claude-nope",
			turn:     llmtest.Turn{Status: 404, Body: `{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"},"request_id":"req_011"}`},
			wantKind: llm.ErrModelNotFound, want: "Anthropic has no model named “claude-nope”.",
		},
		{
			name: "rate limited with Retry-After", preset: "moonshot", apiKey: key,
			turn: llmtest.Turn{Status: 429, Header: http.Header{"Retry-After": {"20"}},
				Body: `{"error":{"message":"Your account org-1 request reached organization max RPM: 3, please try again after 20 seconds","type":"rate_limit_reached_error"}}`},
			wantKind: llm.ErrRateLimited, want: "Moonshot (Kimi) is limiting requests; try again in 20 s.", wantRetry: 20 * time.Second,
		},
		{
			name: "rate limited with OpenAI's retry-after-ms", preset: "openai", apiKey: key,
			turn: llmtest.Turn{Status: 429, Header: http.Header{"Retry-After-Ms": {"1500"}},
				Body: `{"error":{"message":"Rate limit reached for gpt-4o","type":"requests","param":null,"code":"rate_limit_exceeded"}}`},
			wantKind: llm.ErrRateLimited, want: "OpenAI is limiting requests; try again in 2 s.", wantRetry: 1500 * time.Millisecond,
		},
		{
			name: "rate limited without a wait (Anthropic)", kind: llm.KindAnthropic, preset: "anthropic", apiKey: key,
			turn:     llmtest.Turn{Status: 429, Body: `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`},
			wantKind: llm.ErrRateLimited, want: "Anthropic is limiting requests; try again in a moment.",
		},
		{
			name: "no credit left is not a rate limit", preset: "openai", apiKey: key,
			turn:     llmtest.Turn{Status: 429, Body: `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`},
			wantKind: llm.ErrProvider, want: "OpenAI answered with an error (HTTP 429): You exceeded your current quota, please check your plan and billing details.",
		},
		{
			name: "context too long (OpenAI's code)", preset: "openai", apiKey: key, model: "gpt-4o",
			turn:     llmtest.Turn{Status: 400, Body: `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`},
			wantKind: llm.ErrContextTooLong, want: "The conversation is too long for the model gpt-4o: it no longer fits the model's context.",
		},
		{
			name: "context too long (vLLM's top-level body)", preset: "vllm", model: "Qwen/Qwen3-8B",
			turn:     llmtest.Turn{Status: 400, Body: `{"object":"error","message":"This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`},
			wantKind: llm.ErrContextTooLong, want: "The conversation is too long for the model Qwen/Qwen3-8B: it no longer fits the model's context.",
		},
		{
			name: "context too long (llama.cpp)", preset: "llamacpp", model: "local",
			turn:     llmtest.Turn{Status: 400, Body: `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}`},
			wantKind: llm.ErrContextTooLong, want: "The conversation is too long for the model local: it no longer fits the model's context.",
		},
		{
			name: "context too long (Moonshot)", preset: "moonshot", apiKey: key, model: "moonshot-v1-8k",
			turn:     llmtest.Turn{Status: 400, Body: `{"error":{"message":"Invalid request: Your request exceeded model token limit: 8192","type":"invalid_request_error"}}`},
			wantKind: llm.ErrContextTooLong, want: "The conversation is too long for the model moonshot-v1-8k: it no longer fits the model's context.",
		},
		{
			name: "context too long (DashScope)", preset: "qwen", apiKey: key, model: "qwen-plus",
			turn:     llmtest.Turn{Status: 400, Body: `{"error":{"message":"<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 129024]","type":"invalid_request_error","param":null,"code":"invalid_parameter_error"}}`},
			wantKind: llm.ErrContextTooLong, want: "The conversation is too long for the model qwen-plus: it no longer fits the model's context.",
		},
		{
			name: "context too long (Anthropic)", kind: llm.KindAnthropic, preset: "anthropic", apiKey: key, model: "claude-sonnet-4-5",
			turn:     llmtest.Turn{Status: 400, Body: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210394 tokens > 200000 maximum"},"request_id":"req_011"}`},
			wantKind: llm.ErrContextTooLong, want: "The conversation is too long for the model claude-sonnet-4-5: it no longer fits the model's context.",
		},
		{
			name: "a too large answer bound is not a too long conversation", preset: "deepseek", apiKey: key,
			turn:     llmtest.Turn{Status: 400, Body: `{"error":{"message":"Invalid max_tokens value, the valid range of max_tokens is [1, 8192]","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`},
			wantKind: llm.ErrProvider, want: "DeepSeek answered with an error (HTTP 400): Invalid max_tokens value, the valid range of max_tokens is [1, 8192]",
		},
		{
			name: "the provider's own message in Chinese", preset: "deepseek", apiKey: key,
			turn:     llmtest.Turn{Status: 503, Body: `{"error":{"message":"服务器繁忙，请稍后重试。","type":"service_unavailable_error"}}`},
			wantKind: llm.ErrProvider, want: "DeepSeek answered with an error (HTTP 503): 服务器繁忙，请稍后重试。",
		},
		{
			name: "no balance (DeepSeek 402)", preset: "deepseek", apiKey: key,
			turn:     llmtest.Turn{Status: 402, Body: `{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}`},
			wantKind: llm.ErrProvider, want: "DeepSeek answered with an error (HTTP 402): Insufficient Balance",
		},
		{
			name: "Anthropic overloaded (529)", kind: llm.KindAnthropic, preset: "anthropic", apiKey: key,
			turn:     llmtest.Turn{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
			wantKind: llm.ErrProvider, want: "Anthropic answered with an error (HTTP 529): Overloaded",
		},
		{
			name: "an error without a body",
			turn: llmtest.Turn{Status: 502, Body: ""}, wantKind: llm.ErrProvider, want: "{host} answered with an error (HTTP 502).",
		},
		{
			name:     "an HTML error page shows no markup",
			turn:     llmtest.Turn{Status: 502, Header: http.Header{"Content-Type": {"text/html"}}, Body: "<html><body><h1>502 Bad Gateway</h1></body></html>"},
			wantKind: llm.ErrProvider, want: "{host} answered with an error (HTTP 502).",
		},
		{
			name:     "a web page where the API should be",
			turn:     llmtest.Turn{Status: 200, Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: "<!doctype html><title>Welcome</title>"},
			wantKind: llm.ErrProvider, want: "{url}/chat/completions answered with a web page, not the API. Is the base URL right?",
		},
		{
			name: "an error event inside the stream (OpenAI format)", preset: "vllm",
			turn:     llmtest.Turn{Text: []string{"开始"}, StreamError: `{"message":"CUDA out of memory","type":"InternalServerError","code":500}`},
			wantKind: llm.ErrProvider, want: "vLLM stopped the answer with an error: CUDA out of memory",
		},
		{
			name: "an error event inside the stream (Anthropic)", kind: llm.KindAnthropic, preset: "anthropic", apiKey: key,
			turn:     llmtest.Turn{Text: []string{"开始"}, StreamError: `{"type":"overloaded_error","message":"Overloaded"}`},
			wantKind: llm.ErrProvider, want: "Anthropic stopped the answer with an error: Overloaded",
		},
		{
			name: "context too long told inside the stream", preset: "lmstudio", model: "qwen2.5-7b",
			turn:     llmtest.Turn{StreamError: `{"message":"Trying to keep the first 5120 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens","type":"invalid_request_error"}`},
			wantKind: llm.ErrContextTooLong, want: "The conversation is too long for the model qwen2.5-7b: it no longer fits the model's context.",
		},
		{
			name: "a stream cut off mid-answer (OpenAI format)", preset: "ollama",
			turn:     llmtest.Turn{Text: []string{"北京", "今天"}, CutOff: true},
			wantKind: llm.ErrCutOff, want: "The answer from Ollama stopped before its end.",
		},
		{
			name: "a stream cut off mid-answer (Anthropic)", kind: llm.KindAnthropic, preset: "anthropic", apiKey: key,
			turn:     llmtest.Turn{Text: []string{"北京", "今天"}, CutOff: true},
			wantKind: llm.ErrCutOff, want: "The answer from Anthropic stopped before its end.",
		},
		{
			name: "a stream that ends cleanly but early", preset: "ollama",
			turn: llmtest.Turn{Raw: `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"半句"},"finish_reason":null}]}` + "\n\n" +
				`data: {"id":"c1","object":"chat.comp`},
			wantKind: llm.ErrCutOff, want: "The answer from Ollama stopped before its end.",
		},
		{
			name: "chunks of two different completions", preset: "ollama",
			turn: llmtest.Turn{Raw: `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"一"},"finish_reason":null}]}` + "\n\n" +
				`data: {"id":"c2","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"二"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"},
			wantKind: llm.ErrProvider, want: "Ollama sent an answer that does not follow its API.",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			kind := cmp.Or(tc.kind, llm.KindOpenAI)
			s := standIn(t, kind, llmtest.Script{Turns: []llmtest.Turn{tc.turn}})
			p := provider(t, llm.Config{Kind: kind, Preset: tc.preset, BaseURL: s.URL, APIKey: tc.apiKey, Model: cmp.Or(tc.model, "stand-in-model")})
			r := stream(t, p, ask("你好"))
			checkError(t, r.err, tc.wantKind, expand(tc.want, s.URL), tc.apiKey)
			var e *llm.Error
			if errors.As(r.err, &e) {
				if e.RetryAfter != tc.wantRetry {
					t.Errorf("RetryAfter = %v, want %v", e.RetryAfter, tc.wantRetry)
				}
				if tc.wantDetail != "" && e.Detail != tc.wantDetail {
					t.Errorf("Detail = %q, want %q", e.Detail, tc.wantDetail)
				}
			}
			if tc.turn.CutOff {
				if got := r.deltas(llm.EventText); !slices.Equal(got, tc.turn.Text) {
					t.Errorf("the text before the cut = %q, want %q", got, tc.turn.Text)
				}
			}
		})
	}
}

func TestStream_NothingAnswers(t *testing.T) {
	// No stand-in: a port where nothing listens.
	addr := closedAddress(t)
	cases := []struct {
		name   string
		kind   llm.Kind
		preset string
		want   string
	}{
		{"a local preset asks whether its server runs", llm.KindOpenAI, "ollama", "Nothing answers at " + addr + " — is Ollama running?"},
		{"LM Studio by its name", llm.KindOpenAI, "lmstudio", "Nothing answers at " + addr + " — is LM Studio running?"},
		{"a server added by hand", llm.KindOpenAI, "", "Nothing answers at " + addr + "."},
		{"Anthropic's format", llm.KindAnthropic, "", "Nothing answers at " + addr + "."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := provider(t, llm.Config{Kind: tc.kind, Preset: tc.preset, BaseURL: "http://" + addr + "/v1"})
			start := time.Now()
			r := stream(t, p, ask("你好"))
			checkError(t, r.err, llm.ErrUnreachable, tc.want, "")
			// No retries with back-off: the person hears at once.
			if waited := time.Since(start); waited > 2*time.Second {
				t.Errorf("the error took %v", waited)
			}
			_, err := p.Models(context.Background())
			checkError(t, err, llm.ErrUnreachable, tc.want, "")
		})
	}
}

func TestStream_WrongBaseURLSaysSo(t *testing.T) {
	// Stand-in server: no model can run on these machines. Its API is under
	// /v1; the base URL forgets it, and the stand-in's mux answers 404 as a
	// Go server does.
	s := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"不会到这里"}}}})
	base := strings.TrimSuffix(s.URL, "/v1")
	p := provider(t, llm.Config{BaseURL: base})
	r := stream(t, p, ask("你好"))
	checkError(t, r.err, llm.ErrProvider, "Nothing answers at "+base+"/chat/completions (HTTP 404). Is the base URL right? OpenAI-compatible servers usually end in /v1.", "")
}

// checkError checks an error's kind and sentence, and that the key is in
// neither its text nor its detail.
func checkError(t *testing.T, err error, kind error, sentence, apiKey string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", sentence)
	}
	if !errors.Is(err, kind) {
		t.Errorf("error %q is not of kind %q", err, kind)
	}
	if err.Error() != sentence {
		t.Errorf("sentence:\n got %q\nwant %q", err.Error(), sentence)
	}
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T is not an *llm.Error", err)
	}
	if apiKey != "" && (strings.Contains(err.Error(), apiKey) || strings.Contains(e.Detail, apiKey)) {
		t.Errorf("the API key shows in the error: %q / %q", err.Error(), e.Detail)
	}
}

// expand fills {url} (the base URL) and {host} (its host:port) in want.
func expand(want, base string) string {
	u, _ := url.Parse(base)
	return strings.NewReplacer("{url}", base, "{host}", u.Host).Replace(want)
}

// closedAddress returns a loopback address where nothing listens.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
