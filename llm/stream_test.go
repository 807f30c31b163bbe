package llm_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
)

// chineseAnswer is a model's answer with Chinese, full-width punctuation,
// an emoji and a combining accent, so that nothing is cut inside a
// character on its way through.
const chineseAnswer = "你好！今天北京天气晴朗，气温二十五度。☀️ Café au lait, naïve résumé."

func TestStream_TextArrivesInOrderAsDeltas(t *testing.T) {
	// Stand-in servers: no model can run on these machines.
	pieces := llmtest.Chunks(chineseAnswer, 3)
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			s := standIn(t, kind, llmtest.Script{Turns: []llmtest.Turn{{Text: pieces}}})
			r := stream(t, provider(t, llm.Config{Kind: kind, BaseURL: s.URL}), ask("北京天气怎么样？"))
			end := r.end(t)
			if got := r.deltas(llm.EventText); !slices.Equal(got, pieces) {
				t.Errorf("text deltas = %q, want %q", got, pieces)
			}
			if end.Message.Text != chineseAnswer || end.Message.Role != llm.RoleAssistant {
				t.Errorf("end message = %+v, want the assistant's whole text %q", end.Message, chineseAnswer)
			}
			if end.Finish != llm.FinishStop {
				t.Errorf("finish = %q, want %q", end.Finish, llm.FinishStop)
			}
		})
	}
}

func TestStream_ParallelToolCallsArriveWhole(t *testing.T) {
	// Stand-in servers: no model can run on these machines.
	weather := `{"city":"北京","unit":"摄氏度","days":[1,2,3]}`
	search := `{"query":"故宫 开放时间","limit":5}`
	calls := []llmtest.ToolCall{
		{ID: "call_weather", Name: "weather", Arguments: llmtest.Chunks(weather, 4)},
		{ID: "call_search", Name: "search", Arguments: llmtest.Chunks(search, 3)},
		{ID: "call_time", Name: "now"}, // a tool without arguments
	}
	want := []llm.ToolCall{
		{ID: "call_weather", Name: "weather", Arguments: []byte(weather)},
		{ID: "call_search", Name: "search", Arguments: []byte(search)},
		{ID: "call_time", Name: "now", Arguments: []byte(`{}`)},
	}
	for _, kind := range kinds {
		for _, interleave := range []bool{false, true} {
			name := string(kind) + "/call after call"
			if interleave {
				name = string(kind) + "/fragments interleaved"
			}
			t.Run(name, func(t *testing.T) {
				turn := llmtest.Turn{Text: []string{"我来查一下。"}, ToolCalls: calls, InterleaveCalls: interleave}
				s := standIn(t, kind, llmtest.Script{Turns: []llmtest.Turn{turn}})
				r := stream(t, provider(t, llm.Config{Kind: kind, BaseURL: s.URL}), ask("北京天气和故宫开放时间？"))
				end := r.end(t)
				if got := r.toolCalls(); !equalCalls(got, want) {
					t.Errorf("tool-call events = %s, want %s", callsText(got), callsText(want))
				}
				if !equalCalls(end.Message.ToolCalls, want) {
					t.Errorf("end message's calls = %s, want %s", callsText(end.Message.ToolCalls), callsText(want))
				}
				if end.Finish != llm.FinishToolCalls {
					t.Errorf("finish = %q, want %q", end.Finish, llm.FinishToolCalls)
				}
				if end.Message.Text != "我来查一下。" {
					t.Errorf("text before the calls = %q", end.Message.Text)
				}
			})
		}
	}
}

func TestStream_ToolCallsAfterAStopStillWaitForResults(t *testing.T) {
	// Stand-in server: no model can run on these machines. It ends a turn
	// with tool calls by "stop", as older Ollama versions do.
	turn := llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "weather", Arguments: []string{`{"city":"广州"}`}}}, Finish: "stop"}
	s := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{turn}})
	end := stream(t, provider(t, llm.Config{Preset: "ollama", BaseURL: s.URL}), ask("广州天气")).end(t)
	if end.Finish != llm.FinishToolCalls || len(end.Message.ToolCalls) != 1 {
		t.Errorf("finish %q with calls %s, want tool_calls with the one call", end.Finish, callsText(end.Message.ToolCalls))
	}
}

func TestStream_ACutAfterTheFinishKeepsTheTurn(t *testing.T) {
	// Stand-in server: no model can run on these machines. The stream
	// breaks off in the usage chunk, after the finish reason: the answer
	// is whole, only its usage is lost.
	raw := `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"完整的回答。"},"finish_reason":null}]}` + "\n\n" +
		`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
		`data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usa`
	s := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Raw: raw}}})
	end := stream(t, provider(t, llm.Config{BaseURL: s.URL}), ask("你好")).end(t)
	if end.Message.Text != "完整的回答。" || end.Finish != llm.FinishStop {
		t.Errorf("end = %q, %q", end.Message.Text, end.Finish)
	}
}

func TestStream_ToolArgumentsThatAreNoObjectAreHandedBackAsSent(t *testing.T) {
	// Stand-in servers: no model can run on these machines.
	cases := []struct {
		name          string
		arguments     []string
		wantArguments string // "" means nil
		wantMalformed string
	}{
		{"arguments cut short are malformed", []string{`{"city": `, `"北京"`}, "", `{"city": "北京"`},
		{"an array is no object", []string{`[1, 2]`}, "", `[1, 2]`},
		{"null is no object", []string{`null`}, "", `null`},
		{"an object encoded twice is unwrapped", []string{`"{\"city\":`, `\"上海\"}"`}, `{"city":"上海"}`, ""},
		{"whitespace around an object is fine", []string{" \n{\"a\":1} "}, `{"a":1}`, ""},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(string(kind)+"/"+tc.name, func(t *testing.T) {
				turn := llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "weather", Arguments: tc.arguments}}}
				s := standIn(t, kind, llmtest.Script{Turns: []llmtest.Turn{turn}})
				end := stream(t, provider(t, llm.Config{Kind: kind, BaseURL: s.URL}), ask("天气")).end(t)
				if len(end.Message.ToolCalls) != 1 {
					t.Fatalf("calls = %s, want one", callsText(end.Message.ToolCalls))
				}
				got := end.Message.ToolCalls[0]
				if string(got.Arguments) != tc.wantArguments || got.MalformedArguments != tc.wantMalformed {
					t.Errorf("arguments = %q, malformed = %q; want %q, %q", got.Arguments, got.MalformedArguments, tc.wantArguments, tc.wantMalformed)
				}
			})
		}
	}
}

func TestStream_ReasoningArrivesApartFromText(t *testing.T) {
	// Stand-in servers: no model can run on these machines.
	reasoning := []string{"用户问天气，", "我应该调用工具。"}
	cases := []struct {
		name  string
		kind  llm.Kind
		field string // the OpenAI delta field the server uses
	}{
		{"reasoning_content (DeepSeek, Qwen, vLLM)", llm.KindOpenAI, "reasoning_content"},
		{"reasoning (Ollama)", llm.KindOpenAI, "reasoning"},
		{"thinking blocks (Anthropic)", llm.KindAnthropic, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			turn := llmtest.Turn{Reasoning: reasoning, Signature: "sig-Ek8xQ==", Text: []string{"北京晴。"}}
			s := standIn(t, tc.kind, llmtest.Script{Turns: []llmtest.Turn{turn}, ReasoningField: tc.field})
			r := stream(t, provider(t, llm.Config{Kind: tc.kind, BaseURL: s.URL}), ask("北京天气？"))
			end := r.end(t)
			if got := r.deltas(llm.EventReasoning); !slices.Equal(got, reasoning) {
				t.Errorf("reasoning deltas = %q, want %q", got, reasoning)
			}
			if got := r.deltas(llm.EventText); !slices.Equal(got, []string{"北京晴。"}) {
				t.Errorf("text deltas = %q: reasoning must not leak into the text", got)
			}
			if end.Message.Reasoning != strings.Join(reasoning, "") {
				t.Errorf("end message reasoning = %q", end.Message.Reasoning)
			}
			if tc.kind == llm.KindAnthropic {
				want := []llm.ThinkingBlock{{Text: strings.Join(reasoning, ""), Signature: "sig-Ek8xQ=="}}
				if !slices.Equal(end.Message.Thinking, want) {
					t.Errorf("thinking blocks = %+v, want %+v (the signature must be kept to send back)", end.Message.Thinking, want)
				}
			}
		})
	}
}

func TestStream_UsageIsReported(t *testing.T) {
	// Stand-in servers: no model can run on these machines.
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			turn := llmtest.Turn{Text: []string{"好的"}, Usage: &llmtest.Usage{Input: 1234, Output: 56}}
			s := standIn(t, kind, llmtest.Script{Turns: []llmtest.Turn{turn}})
			r := stream(t, provider(t, llm.Config{Kind: kind, BaseURL: s.URL}), ask("你好"))
			r.end(t)
			var last llm.Usage
			n := 0
			for _, ev := range r.events {
				if ev.Type == llm.EventUsage {
					last, n = ev.Usage, n+1
				}
			}
			if n == 0 || last != (llm.Usage{InputTokens: 1234, OutputTokens: 56}) {
				t.Errorf("usage = %+v after %d usage events, want 1234 in, 56 out", last, n)
			}
		})
	}
	t.Run("usage inside the choice (Moonshot)", func(t *testing.T) {
		raw := `data: {"id":"cmpl-1","object":"chat.completion.chunk","created":1,"model":"moonshot-v1-8k","choices":[{"index":0,"delta":{"role":"assistant","content":"你好"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"cmpl-1","object":"chat.completion.chunk","created":1,"model":"moonshot-v1-8k","choices":[{"index":0,"delta":{},"finish_reason":"stop","usage":{"prompt_tokens":19,"completion_tokens":2,"total_tokens":21}}]}` + "\n\n" +
			"data: [DONE]\n\n"
		s := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Raw: raw}}})
		r := stream(t, provider(t, llm.Config{BaseURL: s.URL}), ask("你好"))
		r.end(t)
		found := false
		for _, ev := range r.events {
			found = found || (ev.Type == llm.EventUsage && ev.Usage == llm.Usage{InputTokens: 19, OutputTokens: 2})
		}
		if !found {
			t.Errorf("no usage event with 19 in, 2 out: %+v", r.events)
		}
	})
}

func TestStream_StopEndsTheStreamPromptly(t *testing.T) {
	// Stand-in servers: no model can run on these machines. The stand-in
	// holds the stream open (or waits before its first byte), as a model
	// that keeps thinking would; only the cancel can end it.
	cases := []struct {
		name        string
		turn        llmtest.Turn
		onFirstText bool // cancel at the first text, else 50 ms after the start
	}{
		{"cancel after the first text", llmtest.Turn{Text: []string{"第一句。"}, Hold: true}, true},
		{"cancel before anything arrived", llmtest.Turn{Text: []string{"太慢了"}, Delay: time.Hour}, false},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(string(kind)+"/"+tc.name, func(t *testing.T) {
				s := standIn(t, kind, llmtest.Script{Turns: []llmtest.Turn{tc.turn}})
				p := provider(t, llm.Config{Kind: kind, BaseURL: s.URL})
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				started := time.Now()
				if !tc.onFirstText {
					time.AfterFunc(50*time.Millisecond, cancel)
				}
				var last error
				texts := 0
				for ev, err := range p.Stream(ctx, ask("讲个长故事")) {
					if err != nil {
						last = err
						break
					}
					if ev.Type == llm.EventText {
						texts++
						cancel()
					}
				}
				if !errors.Is(last, context.Canceled) {
					t.Fatalf("the stream ended with %v, want context.Canceled", last)
				}
				// A generous bound: without the cancel the stream never ends.
				if waited := time.Since(started); waited > 5*time.Second {
					t.Errorf("the stream ended %v after it started", waited)
				}
				if tc.onFirstText && texts != 1 {
					t.Errorf("%d text events before the stop, want 1", texts)
				}
				waitIdle(t, s)
			})
		}
	}
}

func TestStream_AProviderThatGoesQuietIsStoppedWithASentence(t *testing.T) {
	// Stand-in servers: no model can run on these machines. The stand-in
	// sends its first words and then nothing, holding the stream open; before
	// the silence limit, only Stop ended it (and a sampling request has none).
	defer llm.SetSilenceLimit(300 * time.Millisecond)()
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			s := standIn(t, kind, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"第一句。"}, Hold: true}}})
			p := provider(t, llm.Config{Kind: kind, BaseURL: s.URL})
			started := time.Now()
			var last error
			texts := 0
			for ev, err := range p.Stream(context.Background(), ask("讲个长故事")) {
				if err != nil {
					last = err
					break
				}
				if ev.Type == llm.EventText {
					texts++
				}
			}
			var le *llm.Error
			if !errors.As(last, &le) || !errors.Is(last, llm.ErrCutOff) || le.Message.Key != "llm.error.silent" {
				t.Fatalf("the stream ended with %v; want the silence's sentence", last)
			}
			if !strings.Contains(le.Error(), "sent nothing for") {
				t.Errorf("the sentence: %q", le.Error())
			}
			if texts != 1 {
				t.Errorf("%d text events before the silence, want 1", texts)
			}
			// A generous bound: without the limit the stream never ends.
			if waited := time.Since(started); waited > 10*time.Second {
				t.Errorf("the stream ended %v after it started", waited)
			}
			waitIdle(t, s)
		})
	}
}

func TestStream_BreakingOutOfTheLoopClosesTheConnection(t *testing.T) {
	// Stand-in servers: no model can run on these machines. The stand-in
	// holds its stream until the client leaves.
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			s := standIn(t, kind, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"一"}, Hold: true}}})
			p := provider(t, llm.Config{Kind: kind, BaseURL: s.URL})
			for ev, err := range p.Stream(context.Background(), ask("数数")) {
				if err != nil || ev.Type == llm.EventText {
					break
				}
			}
			waitIdle(t, s)
		})
	}
}

// waitIdle fails the test unless the stand-in stops answering soon: a
// client that left must have closed its connection.
func waitIdle(t *testing.T, s *llmtest.Server) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for s.Answering() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the stand-in is still answering %d request(s): the connection was left open", s.Answering())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func equalCalls(a, b []llm.ToolCall) bool {
	return slices.EqualFunc(a, b, func(x, y llm.ToolCall) bool {
		return x.ID == y.ID && x.Name == y.Name && string(x.Arguments) == string(y.Arguments) && x.MalformedArguments == y.MalformedArguments
	})
}

func callsText(calls []llm.ToolCall) string {
	var b strings.Builder
	for _, c := range calls {
		b.WriteString("[" + c.ID + " " + c.Name + " " + string(c.Arguments) + c.MalformedArguments + "]")
	}
	return b.String()
}

// The benchmarks stream at a set rate (llmtest's Turn.Interval) and time
// the window against the moment each delta left (Turn.Sent).
func TestStandIn_PacesTextAndSaysWhenEachDeltaLeft(t *testing.T) {
	for _, kind := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			const n, interval = 10, 15 * time.Millisecond
			var mu sync.Mutex
			var sent []time.Time
			var indexes []int
			s := standIn(t, kind, llmtest.Script{Turns: []llmtest.Turn{{Text: llmtest.Chunks(chineseAnswer, 4)[:n], Interval: interval,
				Sent: func(i int, at time.Time) {
					mu.Lock()
					defer mu.Unlock()
					indexes, sent = append(indexes, i), append(sent, at)
				}}}})
			r := stream(t, provider(t, llm.Config{Kind: kind, BaseURL: s.URL}), ask("你好"))
			mu.Lock()
			defer mu.Unlock()
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := len(r.deltas(llm.EventText)); got != n {
				t.Fatalf("%d text deltas arrived, want %d", got, n)
			}
			if !slices.Equal(indexes, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
				t.Fatalf("Sent was called for deltas %v, want 0 to 9 in order", indexes)
			}
			for i := 1; i < n; i++ {
				if early := sent[0].Add(time.Duration(i) * interval).Sub(sent[i]); early > time.Millisecond {
					t.Errorf("delta %d left %s before its time", i, early)
				}
			}
			if took := sent[n-1].Sub(sent[0]); took > time.Duration(n-1)*interval+500*time.Millisecond {
				t.Errorf("the deltas took %s, want about %s", took, time.Duration(n-1)*interval)
			}
		})
	}
}
