package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A Turn is what the stand-in answers to one chat request: a stream of
// reasoning, text and tool calls, or one of the ways a provider fails.
type Turn struct {
	// Reasoning is streamed first, one delta per element.
	Reasoning []string
	// Signature closes Anthropic's thinking block (signature_delta).
	Signature string
	// Text is streamed next, one delta per element.
	Text []string
	// ToolCalls are streamed last, each call's Arguments one fragment per
	// element (OpenAI: the first fragment carries id, type and name).
	ToolCalls []ToolCall
	// InterleaveCalls sends the fragments of parallel calls in turns
	// (call 0, call 1, call 0, ...) instead of call after call.
	InterleaveCalls bool
	// Finish is the wire's finish reason (OpenAI finish_reason, Anthropic
	// stop_reason); empty means the usual one: tool calls if there are
	// some, else a natural stop.
	Finish string
	// Usage is reported at the end (OpenAI: only when the request asked
	// for it with stream_options.include_usage, as OpenAI does).
	Usage *Usage

	// Status, when not 0, answers with this HTTP status, Header and Body
	// (a vendor's error body) instead of a stream.
	Status int
	// Header is sent with Status.
	Header http.Header
	// Body is the answer's body with Status.
	Body string

	// StreamError, when set, is the JSON error object sent as an error
	// event after the deltas; the stream ends there.
	StreamError string
	// CutOff breaks the connection after the deltas: no finish, no end.
	CutOff bool
	// Hold keeps the stream open after the deltas until the client leaves.
	Hold bool
	// Delay is waited before each event.
	Delay time.Duration
	// Interval, when set, paces the text deltas on a fixed schedule: delta
	// i leaves Interval×i after the first, however long the writes before
	// it took, so that a benchmark gets the rate it asked for.
	Interval time.Duration
	// Sent, when set, is called with each text delta's index and time right
	// after the delta was flushed to the client (benchmarks time what the
	// client shows against it).
	Sent func(i int, at time.Time)
	// Raw, when set, is written as the whole event-stream body, for wire
	// shapes the other fields cannot say.
	Raw string
}

// A ToolCall is one tool call of a Turn.
type ToolCall struct {
	// ID is the call's ID.
	ID string
	// Name is the tool's name.
	Name string
	// Arguments are the argument text's fragments, streamed one by one.
	Arguments []string
}

// Usage is a turn's token counts.
type Usage struct {
	// Input counts the prompt's tokens.
	Input int
	// Output counts the answer's tokens.
	Output int
}

// A Script is what a stand-in server does.
type Script struct {
	// Turns answer the chat requests in order.
	Turns []Turn
	// Repeat starts again at the first turn after the last (benchmarks).
	Repeat bool
	// Models are listed by GET /v1/models.
	Models []string
	// APIKey, when set, is required (OpenAI: Bearer, Anthropic: x-api-key);
	// a request without it gets the vendor's 401.
	APIKey string
	// ReasoningField is the delta field of OpenAI-format reasoning:
	// "reasoning_content" (the default; DeepSeek, Qwen, vLLM) or
	// "reasoning" (Ollama).
	ReasoningField string
	// RequireReasoningEcho answers like DeepSeek: 400 when an assistant
	// message with tool calls after the last user message has no
	// reasoning_content.
	RequireReasoningEcho bool
	// MaxRequestBytes, when more than 0, stands for the model's context
	// window: a chat request whose body is longer is refused with the
	// vendor's "context length exceeded" answer (400), and takes no turn.
	MaxRequestBytes int
}

// Received is one request the stand-in got.
type Received struct {
	// Method and Path are the request's.
	Method, Path string
	// Header is the request's header.
	Header http.Header
	// Body is the request's body.
	Body []byte
}

// Decode unmarshals the request's JSON body into v, failing the test if
// it is not JSON.
func (r Received) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("the request to %s is not JSON: %v\n%s", r.Path, err, r.Body)
	}
}

// A Server is a running stand-in. It stops when the test ends.
type Server struct {
	// URL is the base URL to configure: with /v1 for the OpenAI format
	// (as OpenAI-compatible servers document it), without for Anthropic
	// (as its SDK expects).
	URL string

	t        testing.TB
	script   Script
	render   func(w http.ResponseWriter, r *http.Request, turn Turn, req map[string]any)
	refuse   func(req map[string]any) string // a vendor's 400 body for a request it refuses, or ""
	tooLong  string                          // the vendor's 400 body for a prompt over MaxRequestBytes, with %d for its tokens
	mu       sync.Mutex
	received []Received
	next     int
	active   atomic.Int32
}

// Answering returns how many chat requests the stand-in is still
// answering: a held stream stays counted until the client leaves.
func (s *Server) Answering() int { return int(s.active.Load()) }

// Requests returns the requests received so far, oldest first.
func (s *Server) Requests() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// ChatRequests returns the chat requests received so far (not model
// listings), oldest first.
func (s *Server) ChatRequests() []Received {
	var out []Received
	for _, r := range s.Requests() {
		if r.Method == http.MethodPost {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) record(r *http.Request) []byte {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.received = append(s.received, Received{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()
	return body
}

// nextTurn takes the turn for the next chat request.
func (s *Server) nextTurn() (Turn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.script.Turns) {
		if !s.script.Repeat || len(s.script.Turns) == 0 {
			return Turn{}, false
		}
		s.next = 0
	}
	turn := s.script.Turns[s.next]
	s.next++
	return turn, true
}

// serve starts the server for s on loopback, stopped when the test ends.
func (s *Server) serve(mux *http.ServeMux, path string) {
	srv := httptest.NewServer(mux)
	s.t.Cleanup(srv.Close)
	s.URL = srv.URL + path
}

// chat answers a chat request: records it, checks the key, then renders
// the next turn (or its HTTP error).
func (s *Server) chat(w http.ResponseWriter, r *http.Request, authorized func(*http.Request) bool, unauthorized string) {
	s.active.Add(1)
	defer s.active.Add(-1)
	body := s.record(r)
	if s.script.APIKey != "" && !authorized(r) {
		writeBody(w, http.StatusUnauthorized, nil, unauthorized)
		return
	}
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		writeBody(w, http.StatusBadRequest, nil, `{"error":{"message":"the body is not JSON","type":"invalid_request_error"}}`)
		return
	}
	if max := s.script.MaxRequestBytes; max > 0 && len(body) > max {
		writeBody(w, http.StatusBadRequest, nil, fmt.Sprintf(s.tooLong, len(body)/4))
		return
	}
	if s.refuse != nil {
		if body := s.refuse(req); body != "" {
			writeBody(w, http.StatusBadRequest, nil, body)
			return
		}
	}
	turn, ok := s.nextTurn()
	if !ok {
		s.t.Errorf("llmtest: the stand-in got a chat request after its last turn")
		writeBody(w, http.StatusInternalServerError, nil, `{"error":{"message":"the stand-in has no turn left","type":"server_error"}}`)
		return
	}
	if turn.Status != 0 {
		writeBody(w, turn.Status, turn.Header, turn.Body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if turn.Raw != "" {
		fmt.Fprint(w, turn.Raw)
		return
	}
	s.render(w, r, turn, req)
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	writeBody(w, http.StatusOK, nil, string(b))
}

func writeBody(w http.ResponseWriter, status int, header http.Header, body string) {
	for k, vs := range header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

// sse writes server-sent events, one at a time, flushed, after the turn's
// delay; it stops once the client has gone.
type sse struct {
	w     http.ResponseWriter
	r     *http.Request
	delay time.Duration
}

// event writes one event; name "" writes only its data line (OpenAI).
func (e sse) event(name string, data any) bool {
	if e.delay > 0 {
		select {
		case <-time.After(e.delay):
		case <-e.r.Context().Done():
			return false
		}
	}
	var text string
	switch d := data.(type) {
	case string:
		text = d
	default:
		b, err := json.Marshal(d)
		if err != nil {
			panic(err)
		}
		text = string(b)
	}
	if name != "" {
		fmt.Fprintf(e.w, "event: %s\n", name)
	}
	fmt.Fprintf(e.w, "data: %s\n\n", text)
	e.w.(http.Flusher).Flush()
	return e.r.Context().Err() == nil
}

// textPacer sends a turn's text deltas on its schedule (Turn.Interval)
// and reports each one sent (Turn.Sent).
type textPacer struct {
	turn  Turn
	r     *http.Request
	start time.Time
}

// send waits for delta i's time, then sends it with write; false when the
// client has gone.
func (p *textPacer) send(i int, write func() bool) bool {
	if p.turn.Interval > 0 {
		if i == 0 {
			p.start = time.Now()
		}
		if wait := time.Until(p.start.Add(time.Duration(i) * p.turn.Interval)); wait > 0 {
			select {
			case <-time.After(wait):
			case <-p.r.Context().Done():
				return false
			}
		}
	}
	if !write() {
		return false
	}
	if p.turn.Sent != nil {
		p.turn.Sent(i, time.Now())
	}
	return true
}

// end finishes a turn that holds or breaks instead of ending.
func (e sse) end(turn Turn) {
	if turn.Hold {
		<-e.r.Context().Done()
		return
	}
	if turn.CutOff {
		// A torn connection: the chunked body never gets its last chunk.
		panic(http.ErrAbortHandler)
	}
}

// fragments orders the tool calls' argument fragments as the wire sends
// them: call after call, or interleaved. Each item is (call, fragment),
// fragment -1 standing for the call's opening.
func fragments(turn Turn) [][2]int {
	var out [][2]int
	if !turn.InterleaveCalls {
		for i, c := range turn.ToolCalls {
			out = append(out, [2]int{i, -1})
			for j := range c.Arguments {
				out = append(out, [2]int{i, j})
			}
		}
		return out
	}
	for i := range turn.ToolCalls {
		out = append(out, [2]int{i, -1})
	}
	for j := 0; ; j++ {
		more := false
		for i, c := range turn.ToolCalls {
			if j < len(c.Arguments) {
				out = append(out, [2]int{i, j})
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

func requestModel(req map[string]any) string {
	m, _ := req["model"].(string)
	return m
}
