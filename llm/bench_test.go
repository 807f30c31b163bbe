package llm_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
)

// BenchmarkFirstToken measures the time from asking to the first streamed
// text through our Provider and through the vendor's SDK used directly,
// against the same stand-in server (no model can run on these machines),
// in both wire formats: the provider layer's share of issue 11's P8a. The
// whole host path (ChatService.Send with a store and a connected MCP
// server) is measured in bench/ (BenchmarkP8FirstToken, in `make bench`).
// Each iteration runs one turn each way, in alternating order,
// so that both see the same machine; it reports both medians and their
// difference (added-median-µs). The rest of each stream is read too, so
// connections are reused as in a chat. Run it with a count of iterations:
// go test -run '^$' -bench FirstToken -benchtime 300x ./llm/
func BenchmarkFirstToken(b *testing.B) {
	turn := llmtest.Turn{Text: llmtest.Chunks(chineseAnswer, 4), Usage: &llmtest.Usage{Input: 20, Output: 30}}
	req := ask("北京天气怎么样？")
	for _, kind := range kinds {
		b.Run(string(kind), func(b *testing.B) {
			s := standIn(b, kind, llmtest.Script{Turns: []llmtest.Turn{turn}, Repeat: true})
			p := provider(b, llm.Config{Kind: kind, BaseURL: s.URL, Model: "stand-in-model"})
			ours := func(ctx context.Context, first func()) {
				for ev, err := range p.Stream(ctx, req) {
					if err != nil {
						b.Fatal(err)
					}
					if ev.Type == llm.EventText {
						first()
					}
				}
			}
			direct := openAIDirect(b, s.URL)
			if kind == llm.KindAnthropic {
				direct = anthropicDirect(b, s.URL)
			}
			var viaProvider, viaSDK []time.Duration
			i := 0
			for b.Loop() {
				if i%2 == 0 {
					viaProvider = append(viaProvider, firstToken(b, ours))
					viaSDK = append(viaSDK, firstToken(b, direct))
				} else {
					viaSDK = append(viaSDK, firstToken(b, direct))
					viaProvider = append(viaProvider, firstToken(b, ours))
				}
				i++
			}
			mp, ms := median(viaProvider), median(viaSDK)
			b.ReportMetric(micros(mp), "provider-median-µs")
			b.ReportMetric(micros(ms), "sdk-median-µs")
			b.ReportMetric(micros(mp-ms), "added-median-µs")
		})
	}
}

// firstToken runs one turn, which calls first at each text delta, and
// returns the time to the first one.
func firstToken(b *testing.B, turn func(ctx context.Context, first func())) time.Duration {
	b.Helper()
	start := time.Now()
	var took time.Duration
	turn(context.Background(), func() {
		if took == 0 {
			took = time.Since(start)
		}
	})
	if took == 0 {
		b.Fatal("no text arrived")
	}
	return took
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}

func micros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }

// openAIDirect streams with the OpenAI SDK alone, as a host without our
// layer would.
func openAIDirect(b *testing.B, baseURL string) func(ctx context.Context, first func()) {
	chat := openai.NewChatCompletionService(option.WithBaseURL(baseURL), option.WithMaxRetries(0))
	params := openai.ChatCompletionNewParams{
		Model:    "stand-in-model",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("北京天气怎么样？")},
	}
	return func(ctx context.Context, first func()) {
		stream := chat.NewStreaming(ctx, params)
		defer stream.Close()
		for stream.Next() {
			if c := stream.Current(); len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
				first()
			}
		}
		if err := stream.Err(); err != nil {
			b.Fatal(err)
		}
	}
}

// anthropicDirect streams with the Anthropic SDK alone.
func anthropicDirect(b *testing.B, baseURL string) func(ctx context.Context, first func()) {
	messages := anthropic.NewMessageService(anthropicoption.WithBaseURL(baseURL), anthropicoption.WithMaxRetries(0))
	params := anthropic.MessageNewParams{
		Model:     "stand-in-model",
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("北京天气怎么样？"))},
	}
	return func(ctx context.Context, first func()) {
		stream := messages.NewStreaming(ctx, params)
		defer stream.Close()
		for stream.Next() {
			if ev := stream.Current(); ev.Type == "content_block_delta" && ev.Delta.Text != "" {
				first()
			}
		}
		if err := stream.Err(); err != nil {
			b.Fatal(err)
		}
	}
}
