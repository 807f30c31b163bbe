package llmtest

import (
	"cmp"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
)

// completionIDs numbers the stand-ins' completions across servers.
var completionIDs atomic.Int64

// NewOpenAI starts a stand-in that speaks OpenAI's chat completions:
// POST /v1/chat/completions answers each request with the script's next
// turn as an SSE stream (data: <chunk>, the same id in every chunk, the
// role in the first delta, tool_calls deltas by index with id, type and
// name only in a call's first fragment, finish_reason, the usage chunk
// with "choices": [] when include_usage was asked, data: [DONE]), and
// GET /v1/models lists the script's models. Like OpenAI it refuses (400) a
// conversation whose tool calls and tool messages do not pair up. Its URL
// ends in /v1.
func NewOpenAI(t testing.TB, script Script) *Server {
	s := &Server{t: t, script: script}
	s.render, s.tooLong = s.renderOpenAI, openAIContextTooLong
	s.refuse = func(req map[string]any) string {
		if body := openAIRefusal(req); body != "" {
			return body
		}
		if script.RequireReasoningEcho {
			if i := missingReasoning(req); i >= 0 {
				return fmt.Sprintf(deepSeekMissingReasoning, i)
			}
		}
		return ""
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		s.chat(w, r, bearer(script.APIKey), openAIUnauthorized)
	})
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		s.record(r)
		if script.APIKey != "" && !bearer(script.APIKey)(r) {
			writeBody(w, http.StatusUnauthorized, nil, openAIUnauthorized)
			return
		}
		data := make([]map[string]any, 0, len(script.Models))
		for _, m := range script.Models {
			data = append(data, map[string]any{"id": m, "object": "model", "created": 1735689600, "owned_by": "stand-in"})
		}
		writeJSON(w, map[string]any{"object": "list", "data": data})
	})
	s.serve(mux, "/v1")
	return s
}

// openAIUnauthorized is OpenAI's answer to a wrong key (the key masked, as
// OpenAI does).
const openAIUnauthorized = `{"error":{"message":"Incorrect API key provided: sk-wr***ng. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`

func bearer(key string) func(*http.Request) bool {
	return func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+key }
}

// deepSeekMissingReasoning is DeepSeek's answer to a tool turn without the
// reasoning_content it came with.
const deepSeekMissingReasoning = `{"error":{"message":"Missing ` + "`reasoning_content`" + ` field in the assistant message at message index %d. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`

// missingReasoning returns the index of the first assistant message with
// tool calls after the last user message that lacks reasoning_content, or
// -1.
func missingReasoning(req map[string]any) int {
	messages, _ := req["messages"].([]any)
	lastUser := -1
	for i, m := range messages {
		if mm, _ := m.(map[string]any); mm["role"] == "user" {
			lastUser = i
		}
	}
	for i := lastUser + 1; i < len(messages); i++ {
		mm, _ := messages[i].(map[string]any)
		if mm["role"] != "assistant" || mm["tool_calls"] == nil {
			continue
		}
		if _, ok := mm["reasoning_content"]; !ok {
			return i
		}
	}
	return -1
}

func (s *Server) renderOpenAI(w http.ResponseWriter, r *http.Request, turn Turn, req map[string]any) {
	e := sse{w: w, r: r, delay: turn.Delay}
	id := fmt.Sprintf("chatcmpl-standin%d", completionIDs.Add(1))
	model := requestModel(req)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1735689600, "model": model,
			"system_fingerprint": "fp_standin",
			"choices":            []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		}
	}
	if !e.event("", chunk(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil)) {
		return
	}
	field := cmp.Or(s.script.ReasoningField, "reasoning_content")
	for _, piece := range turn.Reasoning {
		if !e.event("", chunk(map[string]any{"content": nil, field: piece}, nil)) {
			return
		}
	}
	pacer := textPacer{turn: turn, r: r}
	for i, piece := range turn.Text {
		if !pacer.send(i, func() bool { return e.event("", chunk(map[string]any{"content": piece}, nil)) }) {
			return
		}
	}
	for _, f := range fragments(turn) {
		call := turn.ToolCalls[f[0]]
		entry := map[string]any{"index": f[0]}
		if f[1] < 0 {
			entry["id"], entry["type"] = call.ID, "function"
			entry["function"] = map[string]any{"name": call.Name, "arguments": ""}
		} else {
			entry["function"] = map[string]any{"arguments": call.Arguments[f[1]]}
		}
		if !e.event("", chunk(map[string]any{"tool_calls": []any{entry}}, nil)) {
			return
		}
	}
	if turn.StreamError != "" {
		e.event("", `{"error":`+turn.StreamError+`}`)
		return
	}
	if turn.Hold || turn.CutOff {
		e.end(turn)
		return
	}
	finish := turn.Finish
	if finish == "" {
		finish = "stop"
		if len(turn.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	if !e.event("", chunk(map[string]any{}, finish)) {
		return
	}
	if opts, _ := req["stream_options"].(map[string]any); opts["include_usage"] == true && turn.Usage != nil {
		u := turn.Usage
		usage := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1735689600, "model": model,
			"system_fingerprint": "fp_standin", "choices": []any{},
			"usage": map[string]any{"prompt_tokens": u.Input, "completion_tokens": u.Output, "total_tokens": u.Input + u.Output},
		}
		if !e.event("", usage) {
			return
		}
	}
	e.event("", "[DONE]")
}

// Chunks splits text into pieces of n runes, for streaming it in parts;
// Chinese text splits between characters, never inside one.
func Chunks(text string, n int) []string {
	var out []string
	r := []rune(text)
	for len(r) > 0 {
		k := min(n, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}
