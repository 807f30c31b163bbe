package mcp

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// Sampling review, the Broker's kind of question in two steps: a server's
// request to the host's model (KindSampling), then the model's answer
// (KindSamplingResult).

// CodeSamplingRejected answers a sampling request the person (or a policy)
// rejected, at either step, as the specification asks.
const CodeSamplingRejected = -1

// SetSampler sets who runs approved sampling requests (nil: nobody).
func (b *Broker) SetSampler(s Sampler) {
	b.mu.Lock()
	b.sampler = s
	b.mu.Unlock()
}

// Sample implements Asker for sampling/createMessage (deprecated from
// 2026-07-28, still used by servers on earlier revisions). The person sees
// the request first — who asks, its messages, system prompt, model hints
// and token limit — may edit the prompt and choose the model, then sees the
// model's answer before the server gets it; a rejection at either step is
// error -1. It is a question like any other: the server's policy, the rate
// limit, one on screen at a time, and the history.
func (b *Broker) Sample(ctx context.Context, peer Peer, p *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error) {
	e, record := b.entry(peer, KindSampling)
	defer record()
	e.Summary = i18n.M("history.summary.sampling") // the server words no message: Gatehouse's words say what it asks
	rejected := func(outcome string, why i18n.Message) (*sdk.CreateMessageResult, error) {
		return nil, ended(e, outcome, why,
			&jsonrpc.Error{Code: CodeSamplingRejected, Message: "User rejected sampling request: " + why.In(i18n.English)})
	}
	rateLimited := func() (*sdk.CreateMessageResult, error) {
		return nil, ended(e, store.OutcomeRateLimited, i18n.M("mcp.history.flood"),
			&jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many requests from this server; the user was not asked"})
	}
	b.mu.Lock()
	sampler := b.sampler
	b.mu.Unlock()
	switch {
	case sampler == nil || len(sampler.Models()) == 0:
		return rejected(store.OutcomeInvalid, i18n.M("mcp.history.noModel"))
	case p == nil || len(p.Messages) == 0:
		why := i18n.M("mcp.history.noMessages")
		return nil, ended(e, store.OutcomeInvalid, why, invalidParams(why.In(i18n.English)))
	case b.overLimit(peer):
		return rateLimited()
	}
	if outcome, why, ok := b.byPolicy(peer, e.Time); ok {
		return rejected(outcome, why)
	}
	req := samplingOf(p, sampler.Models())
	settings, _ := b.opts.Store.Settings()
	timeout := answerTime(settings)
	ask := func(kind string, sampling *Sampling) (Response, error) {
		at := b.opts.Now()
		q := &Question{ID: newQuestionID(), Kind: kind, Server: serverRef(peer), Sampling: sampling,
			ReceivedAt: at, Deadline: at.Add(timeout), Peer: peer}
		resp, shown, err := b.ask(ctx, q, kind == KindSamplingResult) // the answer step was already admitted
		e.AnswerMs += shown.Milliseconds()
		return resp, err
	}
	asked := func(err error) (*sdk.CreateMessageResult, error) {
		outcome, why := unanswered(ctx, err, timeout)
		switch outcome {
		case store.OutcomeRateLimited:
			return rateLimited()
		case store.OutcomeTimedOut:
			return rejected(outcome, why)
		}
		return nil, ended(e, outcome, why, ctx.Err())
	}

	resp, err := ask(KindSampling, req)
	if err != nil {
		return asked(err)
	}
	if resp.Action != ActionAccept {
		return rejected(outcomeOf(resp.Action), i18n.M("mcp.history.rejectedRequest"))
	}
	run, model, err := applySamplingEdit(req, resp.Edit)
	if err != nil {
		return rejected(store.OutcomeInvalid, i18n.ErrorMessage(err))
	}
	result, err := sampler.Sample(ctx, model, run)
	if err != nil {
		return nil, ended(e, store.OutcomeCancelled, i18n.M("mcp.history.modelFailed", "detail", err),
			&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the host's model could not answer: " + err.Error()})
	}
	review := run
	review.Result = &result
	if resp, err = ask(KindSamplingResult, &review); err != nil {
		return asked(err)
	}
	if resp.Action != ActionAccept {
		return rejected(outcomeOf(resp.Action), i18n.M("mcp.history.rejectedAnswer"))
	}
	if settings.RememberAnswers {
		e.Answer = map[string]any{"text": result.Text}
	}
	answer := &sdk.CreateMessageResult{Content: &sdk.TextContent{Text: result.Text}, Model: result.Model, Role: "assistant",
		StopReason: result.StopReason}
	return answer, ended(e, store.OutcomeAccepted, i18n.M("mcp.history.answeredBy", "model", result.Model), nil)
}

// samplingOf turns a sampling request into what the person reviews.
func samplingOf(p *sdk.CreateMessageParams, models []SamplingModel) *Sampling {
	s := &Sampling{SystemPrompt: p.SystemPrompt, MaxTokens: p.MaxTokens, Messages: []SamplingMessage{}, ModelHints: []string{},
		Models: slices.Clone(models)}
	for _, m := range p.Messages {
		if m == nil {
			continue
		}
		text := "[empty]"
		switch c := m.Content.(type) {
		case *sdk.TextContent:
			text = c.Text
		case *sdk.ImageContent:
			text = fmt.Sprintf("[an image, %s, not sent to the model]", c.MIMEType)
		case *sdk.AudioContent:
			text = fmt.Sprintf("[audio, %s, not sent to the model]", c.MIMEType)
		}
		s.Messages = append(s.Messages, SamplingMessage{Role: string(m.Role), Text: text})
	}
	if p.ModelPreferences != nil {
		for _, h := range p.ModelPreferences.Hints {
			if h != nil && h.Name != "" {
				s.ModelHints = append(s.ModelHints, h.Name)
			}
		}
	}
	return s
}

// applySamplingEdit returns the request as the person left it and the model
// they chose (the first offered when they chose none).
func applySamplingEdit(req *Sampling, edit *SamplingEdit) (Sampling, string, error) {
	run := *req
	run.Messages = slices.Clone(req.Messages)
	model := req.Models[0].ID
	if edit == nil {
		return run, model, nil
	}
	if edit.Model != "" {
		if !slices.ContainsFunc(req.Models, func(m SamplingModel) bool { return m.ID == edit.Model }) {
			return run, "", i18n.Err("mcp.sampling.unknownModel", "model", strconv.Quote(edit.Model))
		}
		model = edit.Model
	}
	run.SystemPrompt = edit.SystemPrompt
	if edit.Messages != nil {
		if len(edit.Messages) != len(req.Messages) {
			return run, "", i18n.Err("mcp.sampling.messageCount")
		}
		for i := range run.Messages {
			run.Messages[i].Text = edit.Messages[i].Text // roles stay the server's
		}
	}
	return run, model, nil
}
