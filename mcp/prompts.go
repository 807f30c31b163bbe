package mcp

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// Prompts and completion (the Manager's side).

// unknownContent is how the go-sdk says a message held a content type it
// does not know; it has no typed error for it.
var unknownContent = regexp.MustCompile(`unrecognized content type "([^"]*)"`)

// GetPrompt gets a prompt's messages with the arguments given. A prompt
// whose messages hold a kind of content MCP does not define fails with a
// sentence naming it.
func (m *Manager) GetPrompt(ctx context.Context, id, name string, args map[string]string) (*sdk.GetPromptResult, error) {
	ctx, s, cs, release, err := m.liveSession(ctx, id)
	if err != nil {
		return nil, err
	}
	defer release()
	server := m.config(id, s.srv).Name
	caps := cs.InitializeResult().Capabilities
	if caps == nil || caps.Prompts == nil {
		return nil, i18n.Wrap(ErrNotOffered, "mcp.prompts.notOffered", "server", server)
	}
	params := &sdk.GetPromptParams{Name: name, Arguments: args}
	defer s.progress.track(ctx, params)() // progress to ctx's report (WithProgress)
	res, err := cs.GetPrompt(ctx, params)
	err = connectionEnded(ctx, err)
	if err != nil {
		var rpcErr *jsonrpc.Error
		if match := unknownContent.FindStringSubmatch(err.Error()); match != nil {
			return nil, i18n.Wrap(err, "mcp.prompts.unknownContent", "server", server, "prompt", name, "type", match[1])
		}
		if errors.As(err, &rpcErr) {
			return nil, i18n.Wrap(err, "mcp.prompts.refused", "server", server, "prompt", name, "detail", rpcErr.Message)
		}
		return nil, i18n.Wrap(err, "mcp.prompts.getFailed", "server", server, "prompt", name, "detail", Describe(err))
	}
	return res, nil
}

// Prompt returns one prompt the server listed, by name.
func (m *Manager) Prompt(id, name string) (*sdk.Prompt, error) {
	prompts, err := m.Prompts(id)
	if err != nil {
		return nil, err
	}
	for _, p := range prompts {
		if p.Name == name {
			return p, nil
		}
	}
	s, _ := m.session(id)
	server := id
	if s != nil {
		server = m.config(id, s.srv).Name
	}
	return nil, i18n.Err("mcp.prompts.noSuch", "server", server, "prompt", name)
}

// A CompletionRef is what completion/complete completes an argument of:
// a prompt (Prompt set) or a resource template (Template set).
type CompletionRef struct {
	Prompt   string
	Template string
}

// MaxCompletions bounds the suggestions kept from one completion (the
// specification says 100 at most; a server may send more).
const MaxCompletions = 100

// Complete asks the server for values of one argument of a prompt or a
// resource template that start like value; filled are the arguments
// already chosen, which a server may use to narrow its suggestions. A
// server that does not declare completions gets a sentence wrapping
// ErrNotOffered.
func (m *Manager) Complete(ctx context.Context, id string, ref CompletionRef, argument, value string, filled map[string]string) (*sdk.CompletionResultDetails, error) {
	ctx, s, cs, release, err := m.liveSession(ctx, id)
	if err != nil {
		return nil, err
	}
	defer release()
	server := m.config(id, s.srv).Name
	caps := cs.InitializeResult().Capabilities
	if caps == nil || caps.Completions == nil {
		return nil, i18n.Wrap(ErrNotOffered, "mcp.complete.notOffered", "server", server)
	}
	params := &sdk.CompleteParams{Argument: sdk.CompleteParamsArgument{Name: argument, Value: value}}
	if ref.Template != "" {
		params.Ref = &sdk.CompleteReference{Type: "ref/resource", URI: ref.Template}
	} else {
		params.Ref = &sdk.CompleteReference{Type: "ref/prompt", Name: ref.Prompt}
	}
	others := map[string]string{}
	for k, v := range filled {
		if k != argument && v != "" {
			others[k] = v
		}
	}
	if len(others) > 0 {
		params.Context = &sdk.CompleteContext{Arguments: others}
	}
	res, err := cs.Complete(ctx, params)
	err = connectionEnded(ctx, err)
	if err != nil {
		return nil, i18n.Wrap(err, "mcp.complete.failed", "server", server, "argument", argument, "detail", Describe(err))
	}
	out := res.Completion
	out.Values = unique(s.log, "value", fmt.Sprintf("the completion of %q", argument), out.Values, func(v string) string { return v })
	if len(out.Values) > MaxCompletions {
		out.Values, out.HasMore = out.Values[:MaxCompletions], true
	}
	return &out, nil
}
