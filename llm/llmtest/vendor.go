package llmtest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The stand-ins refuse, with the vendor's own 400 answer, the requests the
// real APIs refuse for their shape: a conversation whose tool calls and
// results do not pair up, Anthropic thinking without a signature the
// stand-in issued, a tool-call ID Anthropic does not accept, tool blocks
// without tools. A request Gatehouse builds wrongly (after a switch of
// provider, or after dropping tool results) then fails in tests as it would
// with the vendor. Script.MaxRequestBytes adds the vendors' answer to a
// conversation too long for the model's context.

// openAIContextTooLong is OpenAI's answer to a prompt over the model's
// context window.
const openAIContextTooLong = `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`

// anthropicContextTooLong is Anthropic's answer to the same.
const anthropicContextTooLong = `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: %d tokens > 8192 maximum"},"request_id":"req_standin"}`

// openAIRefusal returns OpenAI's 400 body for a request whose messages it
// refuses, or "".
func openAIRefusal(req map[string]any) string {
	messages, _ := req["messages"].([]any)
	var open []string // tool calls of the last assistant message still without a result
	for i, m := range messages {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		if role == "tool" {
			id, _ := mm["tool_call_id"].(string)
			k := slices.Index(open, id)
			if k < 0 {
				return openAIError(i, "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.")
			}
			open = append(open[:k], open[k+1:]...)
			continue
		}
		if len(open) > 0 {
			return openAIError(i, "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: "+strings.Join(open, ", "))
		}
		open = nil
		if role == "assistant" {
			calls, _ := mm["tool_calls"].([]any)
			for _, c := range calls {
				cm, _ := c.(map[string]any)
				id, _ := cm["id"].(string)
				open = append(open, id)
			}
		}
	}
	if len(open) > 0 {
		return openAIError(len(messages)-1, "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: "+strings.Join(open, ", "))
	}
	return ""
}

func openAIError(index int, message string) string {
	body, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": "invalid_request_error", "param": fmt.Sprintf("messages.[%d].role", index), "code": nil,
	}})
	return string(body)
}

// anthropicToolID is the pattern Anthropic requires of a tool_use block's ID.
var anthropicToolID = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// anthropicRefusal returns Anthropic's 400 body for a request it refuses,
// or "". signed says whether the stand-in issued a thinking signature.
func anthropicRefusal(req map[string]any, signed func(string) bool) string {
	messages, _ := req["messages"].([]any)
	tools, _ := req["tools"].([]any)
	var pending []string // tool_use IDs of the previous assistant message
	for i, m := range messages {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		blocks, _ := mm["content"].([]any)
		var results, uses []string
		for j, b := range blocks {
			bm, _ := b.(map[string]any)
			at := fmt.Sprintf("messages.%d.content.%d", i, j)
			switch bm["type"] {
			case "thinking":
				sig, _ := bm["signature"].(string)
				if sig == "" {
					return anthropicError(at + ".thinking.signature: Field required")
				}
				if !signed(sig) {
					return anthropicError(at + ": Invalid `signature` in `thinking` block")
				}
			case "tool_use", "tool_result":
				if len(tools) == 0 {
					return anthropicError("Requests which include `tool_use` or `tool_result` blocks must define tools.")
				}
				if bm["type"] == "tool_use" {
					id, _ := bm["id"].(string)
					if !anthropicToolID.MatchString(id) {
						return anthropicError(at + ".tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'")
					}
					uses = append(uses, id)
					continue
				}
				id, _ := bm["tool_use_id"].(string)
				if slices.Index(pending, id) < 0 {
					return anthropicError(fmt.Sprintf("%s: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", at, id))
				}
				results = append(results, id)
			}
		}
		if role == "user" || len(pending) > 0 {
			var missing []string
			for _, id := range pending {
				if slices.Index(results, id) < 0 {
					missing = append(missing, id)
				}
			}
			if len(missing) > 0 {
				return anthropicError(fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, strings.Join(missing, ", ")))
			}
		}
		pending = uses
	}
	return ""
}

func anthropicError(message string) string {
	body, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": message}, "request_id": "req_standin"})
	return string(body)
}
