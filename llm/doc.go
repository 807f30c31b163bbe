// Package llm is Gatehouse's provider layer: one small interface over the
// official OpenAI and Anthropic Go SDKs, so that the chat loop can stream a
// model's answer, see its tool calls and ask the person before running any of
// them (issue 11).
//
// A Provider streams one model turn as Events: text and reasoning deltas as
// they arrive, each tool call once its arguments are complete and checked to
// be a JSON object, usage, and an end that carries the finish reason and the
// whole assistant Message to keep in the conversation. The package never runs
// a tool: the caller owns every tool call.
//
// Two wire formats cover every provider: OpenAI-compatible chat completions
// (Ollama, LM Studio, llama.cpp, vLLM, DeepSeek, Qwen, Moonshot, GLM,
// SiliconFlow, OpenAI) and Anthropic's Messages API. Vendor differences are
// data in Quirks, chosen by a Preset, never branches on a vendor's name.
//
// Errors are *Error values whose text is a sentence for a person and whose
// Kind (ErrKeyRefused, ErrUnreachable, ErrContextTooLong, ...) lets the caller
// branch with errors.Is. API keys never appear in errors.
//
// The package imports neither mcp, app, store nor Wails.
package llm
