package app

import (
	"context"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// TestProviderSampler: the models a sampling request may run on are the
// person's providers, the default first, and an approved request streams to
// the chosen one (a scripted stand-in: no model can run on these machines).
func TestProviderSampler(t *testing.T) {
	core, _ := openTestCore(t)
	sampler := providerSampler{core}
	if got := sampler.Models(); len(got) != 0 {
		t.Fatalf("models with no provider: %v", got)
	}
	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"晴", "天"}}}})
	providers := NewProvidersService(core)
	first, err := providers.Add(ProviderInput{Name: "Local", BaseURL: stand.URL, Model: "qwen3"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := providers.Add(ProviderInput{Name: "Other", BaseURL: stand.URL, Model: "m2"})
	if err != nil {
		t.Fatal(err)
	}
	if err := providers.SetDefault(second.ID); err != nil {
		t.Fatal(err)
	}
	models := sampler.Models()
	if len(models) != 2 || models[0].ID != second.ID || models[0].Label != "Other · m2" || models[1].ID != first.ID {
		t.Fatalf("models = %+v", models)
	}
	res, err := sampler.Sample(context.Background(), first.ID, mcp.Sampling{SystemPrompt: "Be brief.", MaxTokens: 20,
		Messages: []mcp.SamplingMessage{{Role: "user", Text: "Weather?"}}})
	if err != nil || res.Text != "晴天" || res.Model != "qwen3" || res.StopReason != "endTurn" {
		t.Fatalf("result = %+v, %v", res, err)
	}
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	stand.ChatRequests()[0].Decode(t, &body)
	if len(body.Messages) != 2 || body.Messages[0].Content != "Be brief." || body.Messages[1].Content != "Weather?" {
		t.Errorf("the model got %+v", body.Messages)
	}
}
