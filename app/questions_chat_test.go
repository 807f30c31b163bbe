package app

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// cannedSampler stands in for the person's model (none can run here).
type cannedSampler struct{ got mcp.Sampling }

func (c *cannedSampler) Models() []mcp.SamplingModel {
	return []mcp.SamplingModel{{ID: "p1", Label: "Local · qwen3"}}
}
func (c *cannedSampler) Sample(_ context.Context, model string, req mcp.Sampling) (mcp.SamplingResult, error) {
	c.got = req
	return mcp.SamplingResult{Model: model, Text: "晴天", StopReason: "endTurn"}, nil
}

// TestQuestionService_ToolCallAndSampling: the window sees a tool call's
// exact arguments and allows it for the conversation; it sees a sampling
// request, edits its prompt, then accepts the model's answer.
func TestQuestionService_ToolCallAndSampling(t *testing.T) {
	core, rec, svc, _, demo := dialogFixture(t)
	peer, err := core.Manager.Peer(demo)
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"message":"你好"}`)
	approved := make(chan mcp.Approval, 1)
	go func() {
		a, _ := core.Broker.ApproveToolCall(context.Background(), peer, mcp.ToolCall{Tool: "echo", Arguments: args}, store.ToolAsk, i18n.Message{})
		approved <- a
	}()
	q := shownRequest(t, rec, 0)
	if q.Kind != mcp.KindToolCall || q.ToolCall == nil || string(q.ToolCall.Arguments) != string(args) || q.Server.Name != DemoServerName {
		t.Fatalf("the window shows %+v", q)
	}
	if _, err := svc.Submit(q.ID, map[string]any{}); err == nil {
		t.Error("a tool call was answered like a form")
	}
	if err := svc.Allow(q.ID, "conversation"); err != nil {
		t.Fatal(err)
	}
	if a := <-approved; !a.Allowed || a.Scope != mcp.ScopeConversation {
		t.Errorf("approval = %+v", a)
	}

	model := &cannedSampler{}
	core.Broker.SetSampler(model)
	result := make(chan *sdk.CreateMessageResult, 1)
	go func() {
		r, _ := core.Broker.Sample(context.Background(), peer, &sdk.CreateMessageParams{SystemPrompt: "Be helpful.", MaxTokens: 50,
			Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: "Weather?"}}}})
		result <- r
	}()
	review := shownRequest(t, rec, 1)
	if review.Kind != mcp.KindSampling || review.Sampling.Messages[0].Text != "Weather?" || len(review.Sampling.Models) != 1 {
		t.Fatalf("the window shows %+v", review)
	}
	if err := svc.Accept(review.ID); err == nil {
		t.Error("a request was accepted as if it were the model's answer")
	}
	edit := mcp.SamplingEdit{Model: "p1", SystemPrompt: "Answer in one word.", Messages: review.Sampling.Messages}
	if err := svc.ReviewSampling(review.ID, edit); err != nil {
		t.Fatal(err)
	}
	answer := shownRequest(t, rec, 2)
	if answer.Kind != mcp.KindSamplingResult || answer.Sampling.Result.Text != "晴天" {
		t.Fatalf("the window shows %+v", answer)
	}
	if err := svc.Accept(answer.ID); err != nil {
		t.Fatal(err)
	}
	if r := <-result; r == nil || r.Content.(*sdk.TextContent).Text != "晴天" {
		t.Errorf("the server got %+v", r)
	}
	if model.got.SystemPrompt != "Answer in one word." {
		t.Errorf("the model got %+v", model.got)
	}
}
