// Package llmtest has scripted stand-ins for model providers: HTTP servers
// on loopback that speak OpenAI's chat completions stream ([NewOpenAI]) and
// Anthropic's Messages stream ([NewAnthropic]) exactly as the vendors do,
// and record every request they receive. No model can run on the machines
// Gatehouse is tested on, so tests of the provider layer (package llm), of
// the chat (packages chat, app and cli, and the window's tests) and the
// benchmarks use these; each such test says so. Only tests import it.
//
// A [Script] is data: the turns ([Turn]) the stand-in answers, in order
// (one per chat request), the models it lists, the key it wants, and
// vendor behaviours (DeepSeek's reasoning_content check, Ollama's
// reasoning field, a context window). A Turn streams reasoning, text and
// tool calls ([ToolCall]), or fails as a provider fails (an HTTP error, an
// error event, a cut connection); the same Turn renders in either wire
// format. Like the vendors, the stand-ins refuse requests of the wrong
// shape with the vendor's own 400 answer (see vendor.go).
//
// A [Server] is a running stand-in: its URL is the base URL to configure,
// and [Server.Requests] and [Server.ChatRequests] return what it received
// ([Received]). It answers each request on the HTTP server's goroutine for
// it; its methods are safe to call from the test while it answers. It
// stops when the test that started it ends (t.Cleanup). [Chunks] splits a
// text into deltas for a Turn.
package llmtest
