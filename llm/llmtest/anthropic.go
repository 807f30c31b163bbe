package llmtest

import (
	"fmt"
	"net/http"
	"testing"
)

// NewAnthropic starts a stand-in that speaks Anthropic's Messages API:
// POST /v1/messages answers each request with the script's next turn as
// Anthropic's event sequence (message_start, ping, content_block_start /
// content_block_delta / content_block_stop per block with thinking_delta
// and signature_delta, text_delta, input_json_delta, then message_delta
// with stop_reason and usage, message_stop; an error event on failure),
// and GET /v1/models lists the script's models. Like Anthropic it refuses
// (400) thinking blocks without a signature or with one it did not issue
// (the script's Turn.Signature values are its own), tool-use IDs outside
// ^[a-zA-Z0-9_-]+$, tool blocks in a request without tools, and tool uses
// and results that do not pair up. Its URL has no /v1, as Anthropic's SDK
// expects.
func NewAnthropic(t testing.TB, script Script) *Server {
	s := &Server{t: t, script: script}
	s.render, s.tooLong = s.renderAnthropic, anthropicContextTooLong
	signatures := map[string]bool{}
	for _, turn := range script.Turns {
		if turn.Signature != "" {
			signatures[turn.Signature] = true
		}
	}
	s.refuse = func(req map[string]any) string {
		return anthropicRefusal(req, func(sig string) bool { return signatures[sig] })
	}
	authorized := func(r *http.Request) bool { return r.Header.Get("X-Api-Key") == script.APIKey }
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", func(w http.ResponseWriter, r *http.Request) {
		s.chat(w, r, authorized, anthropicUnauthorized)
	})
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		s.record(r)
		if script.APIKey != "" && !authorized(r) {
			writeBody(w, http.StatusUnauthorized, nil, anthropicUnauthorized)
			return
		}
		data := make([]map[string]any, 0, len(script.Models))
		for _, m := range script.Models {
			data = append(data, map[string]any{"type": "model", "id": m, "display_name": "Stand-in " + m, "created_at": "2025-01-01T00:00:00Z"})
		}
		page := map[string]any{"data": data, "has_more": false, "first_id": nil, "last_id": nil}
		if len(data) > 0 {
			page["first_id"], page["last_id"] = script.Models[0], script.Models[len(script.Models)-1]
		}
		writeJSON(w, page)
	})
	s.serve(mux, "")
	return s
}

// anthropicUnauthorized is Anthropic's answer to a wrong key.
const anthropicUnauthorized = `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_standin"}`

func (s *Server) renderAnthropic(w http.ResponseWriter, r *http.Request, turn Turn, req map[string]any) {
	e := sse{w: w, r: r, delay: turn.Delay}
	var usage Usage
	if turn.Usage != nil {
		usage = *turn.Usage
	}
	start := map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_standin%d", completionIDs.Add(1)), "type": "message", "role": "assistant",
		"model": requestModel(req), "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": usage.Input, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}}
	if !e.event("message_start", start) || !e.event("ping", map[string]any{"type": "ping"}) {
		return
	}
	index := 0
	blockStart := func(block map[string]any) bool {
		return e.event("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": block})
	}
	delta := func(i int, d map[string]any) bool {
		return e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
	}
	blockStop := func(i int) bool {
		return e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	if len(turn.Reasoning) > 0 {
		if !blockStart(map[string]any{"type": "thinking", "thinking": "", "signature": ""}) {
			return
		}
		for _, piece := range turn.Reasoning {
			if !delta(index, map[string]any{"type": "thinking_delta", "thinking": piece}) {
				return
			}
		}
		if turn.Signature != "" && !delta(index, map[string]any{"type": "signature_delta", "signature": turn.Signature}) {
			return
		}
		if !blockStop(index) {
			return
		}
		index++
	}
	if len(turn.Text) > 0 {
		if !blockStart(map[string]any{"type": "text", "text": ""}) {
			return
		}
		pacer := textPacer{turn: turn, r: r}
		for i, piece := range turn.Text {
			if !pacer.send(i, func() bool { return delta(index, map[string]any{"type": "text_delta", "text": piece}) }) {
				return
			}
		}
		if !blockStop(index) {
			return
		}
		index++
	}
	// Tool-use blocks: each opens, its input arrives as input_json_delta
	// pieces, it closes. Interleaved calls open together and close after
	// all their pieces.
	first := index
	for _, f := range fragments(turn) {
		call, i := turn.ToolCalls[f[0]], first+f[0]
		if f[1] < 0 {
			index = i
			if !blockStart(map[string]any{"type": "tool_use", "id": call.ID, "name": call.Name, "input": map[string]any{}}) {
				return
			}
		} else if !delta(i, map[string]any{"type": "input_json_delta", "partial_json": call.Arguments[f[1]]}) {
			return
		}
		last := f[1] == len(call.Arguments)-1 || (f[1] < 0 && len(call.Arguments) == 0)
		if last && !turn.InterleaveCalls && !blockStop(i) {
			return
		}
	}
	if turn.InterleaveCalls {
		for k := range turn.ToolCalls {
			if !blockStop(first + k) {
				return
			}
		}
	}
	if turn.StreamError != "" {
		e.event("error", `{"type":"error","error":`+turn.StreamError+`}`)
		return
	}
	if turn.Hold || turn.CutOff {
		e.end(turn)
		return
	}
	stop := turn.Finish
	if stop == "" {
		stop = "end_turn"
		if len(turn.ToolCalls) > 0 {
			stop = "tool_use"
		}
	}
	md := map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": usage.Output}}
	if !e.event("message_delta", md) {
		return
	}
	e.event("message_stop", map[string]any{"type": "message_stop"})
}
