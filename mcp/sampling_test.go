package mcp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

// cannedModel stands in for a model provider: no model can run on these
// machines, so it answers every prompt with fixed text and records what it
// was given. The broker and the servers around it are real.
type cannedModel struct {
	mu   sync.Mutex
	runs []Sampling
	used []string
	fail error
}

func (m *cannedModel) Models() []SamplingModel {
	return []SamplingModel{{ID: "local/qwen", Label: "Ollama · qwen3"}, {ID: "cloud/deepseek", Label: "DeepSeek · deepseek-chat"}}
}

func (m *cannedModel) Sample(_ context.Context, model string, req Sampling) (SamplingResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.runs, m.used = append(m.runs, req), append(m.used, model)
	if m.fail != nil {
		return SamplingResult{}, m.fail
	}
	return SamplingResult{Model: model, Text: "你好，这是模型的回答。", StopReason: "endTurn"}, nil
}

// TestBroker_Sampling: the person reviews the request (and may edit the
// prompt and choose the model), then the answer; rejecting either is error
// -1 and the model never runs for a rejected request.
func TestBroker_Sampling(t *testing.T) {
	params := &sdk.CreateMessageParams{SystemPrompt: "You are a helpful test server.", MaxTokens: 100,
		Messages:         []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: "Summarize the weather."}}},
		ModelPreferences: &sdk.ModelPreferences{Hints: []*sdk.ModelHint{{Name: "claude"}}}}
	edit := &SamplingEdit{Model: "cloud/deepseek", SystemPrompt: "Be brief.", Messages: []SamplingMessage{{Role: "user", Text: "Summarize the weather in Oslo."}}}
	cases := []struct {
		name       string
		first      Response
		second     Response
		wantRuns   int
		wantReject bool
		outcome    string
	}{
		{"approved as sent, then the answer approved", Response{Action: ActionAccept}, Response{Action: ActionAccept}, 1, false, store.OutcomeAccepted},
		{"edited and another model chosen", Response{Action: ActionAccept, Edit: edit}, Response{Action: ActionAccept}, 1, false, store.OutcomeAccepted},
		{"the request rejected: the model never runs", Response{Action: ActionDecline}, Response{}, 0, true, store.OutcomeDeclined},
		{"the answer rejected", Response{Action: ActionAccept}, Response{Action: ActionDecline}, 1, true, store.OutcomeDeclined},
		{"the answer dismissed", Response{Action: ActionAccept}, Response{Action: ActionCancel}, 1, true, store.OutcomeCancelled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var shown []*Question
			f := newBrokerFixture(t, newScripted(func(q *Question) (Response, bool) {
				shown = append(shown, q)
				if q.Kind == KindSampling {
					return tc.first, true
				}
				return tc.second, true
			}), BrokerOptions{})
			model := &cannedModel{}
			f.broker.SetSampler(model)
			res, err := f.broker.Sample(context.Background(), f.a, params)
			var je *jsonrpc.Error
			if tc.wantReject {
				if !errors.As(err, &je) || je.Code != CodeSamplingRejected {
					t.Fatalf("err = %v, want -1", err)
				}
			} else if err != nil || res.Model == "" || res.Content.(*sdk.TextContent).Text != "你好，这是模型的回答。" {
				t.Fatalf("result = %+v, %v", res, err)
			}
			if len(model.runs) != tc.wantRuns {
				t.Fatalf("the model ran %d times, want %d", len(model.runs), tc.wantRuns)
			}
			first := shown[0].Sampling
			if shown[0].Kind != KindSampling || first.SystemPrompt != params.SystemPrompt || first.Messages[0].Text != "Summarize the weather." ||
				first.ModelHints[0] != "claude" || first.MaxTokens != 100 || len(first.Models) != 2 {
				t.Errorf("the request shown = %+v", first)
			}
			if tc.wantRuns == 1 {
				if shown[1].Kind != KindSamplingResult || shown[1].Sampling.Result.Text != "你好，这是模型的回答。" {
					t.Errorf("the answer shown = %+v", shown[1].Sampling)
				}
				run, used := model.runs[0], model.used[0]
				if tc.first.Edit != nil && (used != "cloud/deepseek" || run.SystemPrompt != "Be brief." || run.Messages[0].Text != "Summarize the weather in Oslo.") {
					t.Errorf("the model got %q %+v, not the person's edit", used, run)
				}
				if tc.first.Edit == nil && (used != "local/qwen" || run.SystemPrompt != params.SystemPrompt) {
					t.Errorf("the model got %q %+v, not the request as sent", used, run)
				}
			}
			if h := f.history(t); len(h) != 1 || h[0].Mode != KindSampling || h[0].Outcome != tc.outcome {
				t.Errorf("history = %+v", h)
			}
		})
	}
}

// TestBroker_SamplingRefusedUnseen: without a model set up, under a decline
// policy, or for an edit naming a model not offered, nothing is shown or run.
func TestBroker_SamplingRefusedUnseen(t *testing.T) {
	params := &sdk.CreateMessageParams{MaxTokens: 10, Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: "hi"}}}}
	t.Run("no model set up", func(t *testing.T) {
		f := newBrokerFixture(t, newScripted(nil), BrokerOptions{})
		if _, err := f.broker.Sample(context.Background(), f.a, params); !isRejected(err) || f.ans.shownCount() != 0 {
			t.Errorf("err = %v, shown %d", err, f.ans.shownCount())
		}
	})
	t.Run("the server's policy declines", func(t *testing.T) {
		f := newBrokerFixture(t, newScripted(nil), BrokerOptions{Sampler: &cannedModel{}})
		if err := f.st.PutPolicy(f.a.Server.ID, store.Policy{Mode: store.PolicyDecline}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.broker.Sample(context.Background(), f.a, params); !isRejected(err) || f.ans.shownCount() != 0 {
			t.Errorf("err = %v, shown %d", err, f.ans.shownCount())
		}
	})
	t.Run("an edit naming a model not offered", func(t *testing.T) {
		model := &cannedModel{}
		f := newBrokerFixture(t, newScripted(func(*Question) (Response, bool) {
			return Response{Action: ActionAccept, Edit: &SamplingEdit{Model: "evil/model"}}, true
		}), BrokerOptions{Sampler: model})
		if _, err := f.broker.Sample(context.Background(), f.a, params); !isRejected(err) || len(model.runs) != 0 {
			t.Errorf("err = %v, runs %d", err, len(model.runs))
		}
	})
}

func isRejected(err error) bool {
	var je *jsonrpc.Error
	return errors.As(err, &je) && je.Code == CodeSamplingRejected
}

// TestSampling_ServerEverything: server-everything's trigger-sampling-request
// over stdio reaches the person, runs the (stand-in) model with their edit,
// and the server gets the answer they approved.
func TestSampling_ServerEverything(t *testing.T) {
	model := &cannedModel{}
	var kinds []string
	h := newElicitHarness(t, func(q *Question) (Response, bool) {
		kinds = append(kinds, q.Kind)
		if q.Kind == KindSampling {
			return Response{Action: ActionAccept, Edit: &SamplingEdit{Model: "local/qwen", SystemPrompt: "Answer in Chinese.", Messages: q.Sampling.Messages}}, true
		}
		return Response{Action: ActionAccept}, true
	})
	h.broker.SetSampler(model)
	h.m.SetSampling(true)
	srv := h.add(t, store.Server{Name: "Everything", Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: "node", Args: []string{everythingPath(t), "stdio"}}})
	out := h.call(t, srv, "trigger-sampling-request", map[string]any{"prompt": "weather", "maxTokens": 50})
	if !strings.Contains(out, "LLM sampling result") || !strings.Contains(out, "你好，这是模型的回答。") {
		t.Errorf("the server got %s", out)
	}
	if strings.Join(kinds, ",") != "sampling,sampling-result" {
		t.Errorf("questions = %v", kinds)
	}
	if len(model.runs) != 1 || model.runs[0].SystemPrompt != "Answer in Chinese." || !strings.Contains(model.runs[0].Messages[0].Text, "weather") {
		t.Errorf("the model got %+v", model.runs)
	}
}
