package mcp

import (
	"context"
	"errors"
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
	now := b.opts.Now()
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: KindSampling,
		Message: "Asks your model to write a message"}
	rejected := func(outcome, detail string) (*sdk.CreateMessageResult, error) {
		entry.Outcome, entry.Detail = outcome, detail
		b.record(entry)
		return nil, &jsonrpc.Error{Code: CodeSamplingRejected, Message: "User rejected sampling request: " + detail}
	}
	b.mu.Lock()
	sampler := b.sampler
	b.mu.Unlock()
	if sampler == nil || len(sampler.Models()) == 0 {
		return rejected(store.OutcomeInvalid, "no model is set up in Gatehouse")
	}
	if p == nil || len(p.Messages) == 0 {
		entry.Outcome, entry.Detail = store.OutcomeInvalid, "a sampling request must have messages"
		b.record(entry)
		return nil, invalidParams(entry.Detail)
	}
	if b.overLimit(peer) {
		entry.Outcome, entry.Detail = store.OutcomeRateLimited, "refused: the server sent too many requests"
		b.record(entry)
		return nil, &jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many requests from this server; the user was not asked"}
	}
	policy, err := b.opts.Store.Policy(peer.Server.ID)
	if err == nil {
		switch policy.Effective(now) {
		case store.PolicyDecline:
			return rejected(store.OutcomeDeclined, "declined automatically by the server's policy")
		case store.PolicyMute:
			return rejected(store.OutcomeCancelled, "the server is muted")
		}
	}
	req := samplingOf(p, sampler.Models())
	settings, _ := b.opts.Store.Settings()
	timeout := settings.ElicitationTimeout
	if timeout <= 0 {
		timeout = DefaultElicitationTimeout
	}
	ask := func(kind string, sampling *Sampling) (Response, error) {
		at := b.opts.Now()
		q := &Question{ID: newQuestionID(), Kind: kind, Server: serverRef(peer), Sampling: sampling,
			ReceivedAt: at, Deadline: at.Add(timeout), Peer: peer}
		resp, shown, err := b.ask(ctx, q, kind == KindSamplingResult) // the answer step was already admitted
		entry.AnswerMs += shown.Milliseconds()
		return resp, err
	}
	asked := func(err error) (*sdk.CreateMessageResult, error) {
		switch {
		case errors.Is(err, errRateLimited):
			entry.Outcome, entry.Detail = store.OutcomeRateLimited, "refused: the server sent too many requests"
			b.record(entry)
			return nil, &jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many requests from this server; the user was not asked"}
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			return rejected(store.OutcomeTimedOut, "no answer within "+i18n.Duration(timeout).In(i18n.English))
		}
		entry.Outcome, entry.Detail = store.OutcomeServerCancelled, "the server withdrew the request or disconnected"
		b.record(entry)
		return nil, ctx.Err()
	}

	resp, err := ask(KindSampling, req)
	if err != nil {
		return asked(err)
	}
	if resp.Action != ActionAccept {
		return rejected(outcomeOf(resp.Action), "the person rejected the request")
	}
	run, model, err := applySamplingEdit(req, resp.Edit)
	if err != nil {
		return rejected(store.OutcomeInvalid, err.Error())
	}
	result, err := sampler.Sample(ctx, model, run)
	if err != nil {
		entry.Outcome, entry.Detail = store.OutcomeCancelled, "the model failed: "+err.Error()
		b.record(entry)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the host's model could not answer: " + err.Error()}
	}
	review := run
	review.Result = &result
	if resp, err = ask(KindSamplingResult, &review); err != nil {
		return asked(err)
	}
	if resp.Action != ActionAccept {
		return rejected(outcomeOf(resp.Action), "the person rejected the model's answer")
	}
	entry.Outcome, entry.Detail = store.OutcomeAccepted, "answered by "+result.Model
	if settings.RememberAnswers {
		entry.Answer = map[string]any{"text": result.Text}
	}
	b.record(entry)
	return &sdk.CreateMessageResult{Content: &sdk.TextContent{Text: result.Text}, Model: result.Model, Role: "assistant",
		StopReason: result.StopReason}, nil
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

// outcomeOf is the history outcome of a declining action.
func outcomeOf(action string) string {
	if action == ActionDecline {
		return store.OutcomeDeclined
	}
	return store.OutcomeCancelled
}
