package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// providerSampler runs servers' sampling requests on the person's model
// providers, once the person approved them in the broker's review.
type providerSampler struct{ core *Core }

// Models lists every configured provider with its model, the default first.
func (p providerSampler) Models() []mcp.SamplingModel {
	providers, err := p.core.Store.Providers()
	if err != nil {
		return nil
	}
	settings, _ := p.core.Store.Settings()
	var out []mcp.SamplingModel
	for _, pr := range providers {
		m := mcp.SamplingModel{ID: pr.ID, Label: fmt.Sprintf("%s · %s", pr.Name, pr.Model)}
		if pr.ID == settings.DefaultProviderID {
			out = append([]mcp.SamplingModel{m}, out...)
		} else {
			out = append(out, m)
		}
	}
	return out
}

// Sample streams the approved request to the chosen provider and returns
// its whole answer.
func (p providerSampler) Sample(ctx context.Context, model string, req mcp.Sampling) (mcp.SamplingResult, error) {
	provider, record, err := p.core.ProviderFor(model)
	if err != nil {
		return mcp.SamplingResult{}, err
	}
	lreq := llm.Request{System: req.SystemPrompt, MaxTokens: int(req.MaxTokens)}
	for _, m := range req.Messages {
		role := llm.RoleUser
		if m.Role == "assistant" {
			role = llm.RoleAssistant
		}
		lreq.Messages = append(lreq.Messages, llm.Message{Role: role, Text: m.Text})
	}
	var text strings.Builder
	stop := "endTurn"
	for ev, err := range provider.Stream(ctx, lreq) {
		if err != nil {
			return mcp.SamplingResult{}, err
		}
		switch ev.Type {
		case llm.EventText:
			text.WriteString(ev.Text)
		case llm.EventEnd:
			if ev.Finish == llm.FinishLength {
				stop = "maxTokens"
			}
		}
	}
	return mcp.SamplingResult{Model: record.Model, Text: text.String(), StopReason: stop}, nil
}

// EnableSampling lets servers ask the person's model (sampling), reviewed
// in the window: declared to servers only while a model provider is set
// up, and again whenever the providers change.
func (c *Core) EnableSampling() {
	c.samplingMu.Lock()
	c.sampling = true
	c.samplingMu.Unlock()
	c.Broker.SetSampler(providerSampler{c})
	c.updateSampling()
}

// updateSampling declares sampling to servers when enabled and a provider
// exists.
func (c *Core) updateSampling() {
	c.samplingMu.Lock()
	on := c.sampling
	c.samplingMu.Unlock()
	if !on {
		return
	}
	providers, err := c.Store.Providers()
	c.Manager.SetSampling(err == nil && len(providers) > 0)
}
