package app

import (
	"context"
	"encoding/json"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// PromptView is one prompt a server offers, with its arguments. Every
// string in it is server text.
type PromptView struct {
	Name        string               `json:"name"`
	Title       string               `json:"title"` // title, else name
	Description string               `json:"description"`
	Arguments   []PromptArgumentView `json:"arguments"`
}

// PromptArgumentView is one argument of a prompt: text the person fills in.
type PromptArgumentView struct {
	Name        string `json:"name"`
	Title       string `json:"title"` // title, else name
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// PromptResultView is what a prompt produces with the arguments given: the
// messages it would put in a conversation.
type PromptResultView struct {
	Description string              `json:"description"`
	Messages    []PromptMessageView `json:"messages"`
}

// PromptMessageView is one message of a prompt: who says it ("user" or
// "assistant") and its content, as a tool result's content is shown.
type PromptMessageView struct {
	Role    string      `json:"role"`
	Content ContentView `json:"content"`
}

// PromptsService is bound to the frontend: a server's prompts, filling
// their arguments (with the server's suggestions) and previewing their
// messages. The command line uses it too.
type PromptsService struct {
	core *Core
}

// NewPromptsService returns the prompts service on core.
func NewPromptsService(core *Core) *PromptsService { return &PromptsService{core: core} }

// List returns the prompts of a connected server, as it listed them.
func (p *PromptsService) List(serverID string) ([]PromptView, error) {
	prompts, err := p.core.Manager.Prompts(serverID)
	if err != nil {
		return nil, err
	}
	views := make([]PromptView, 0, len(prompts))
	for _, pr := range prompts {
		views = append(views, promptView(pr))
	}
	return views, nil
}

func promptView(p *sdk.Prompt) PromptView {
	v := PromptView{Name: p.Name, Title: orName(p.Title, p.Name), Description: p.Description, Arguments: []PromptArgumentView{}}
	for _, a := range p.Arguments {
		if a != nil {
			v.Arguments = append(v.Arguments, PromptArgumentView{Name: a.Name, Title: orName(a.Title, a.Name), Description: a.Description, Required: a.Required})
		}
	}
	return v
}

// Get returns the messages a prompt produces with args. A required
// argument left empty is said before anything is sent.
func (p *PromptsService) Get(serverID, name string, args map[string]string) (PromptResultView, error) {
	def, err := p.core.Manager.Prompt(serverID, name)
	if err != nil {
		return PromptResultView{}, err
	}
	var missing []i18n.Message
	sent := map[string]string{}
	for _, a := range def.Arguments {
		if a == nil {
			continue
		}
		if v := args[a.Name]; v != "" {
			sent[a.Name] = v
		} else if a.Required {
			missing = append(missing, i18n.Text(a.Name))
		}
	}
	if len(missing) > 0 {
		return PromptResultView{}, i18n.Err("prompts.error.missing", "prompt", name, "arguments", i18n.List(missing...))
	}
	for k, v := range args { // arguments the prompt does not list go too: the server decides
		if _, listed := sent[k]; !listed && v != "" {
			sent[k] = v
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	res, err := p.core.Manager.GetPrompt(ctx, serverID, name, sent)
	if err != nil {
		return PromptResultView{}, err
	}
	v := PromptResultView{Description: res.Description, Messages: make([]PromptMessageView, 0, len(res.Messages))}
	for _, m := range res.Messages {
		if m == nil {
			continue
		}
		v.Messages = append(v.Messages, PromptMessageView{Role: string(m.Role), Content: contentView(m.Content)})
	}
	return v, nil
}

// Complete asks the server for values of a prompt's argument that start
// like value; filled are the arguments already chosen.
func (p *PromptsService) Complete(serverID, prompt, argument, value string, filled map[string]string) (CompletionView, error) {
	return complete(p.core, serverID, mcp.CompletionRef{Prompt: prompt}, argument, value, filled)
}

// parsePromptArgs reads a prompt's arguments from the command line: a JSON
// object whose values are text (numbers and true/false are taken as they
// are written), or nothing.
func parsePromptArgs(argsJSON string) (map[string]string, error) {
	if strings.TrimSpace(argsJSON) == "" {
		return map[string]string{}, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(argsJSON), &raw); err != nil || raw == nil {
		return nil, i18n.Err("prompts.error.argsJSON")
	}
	args := make(map[string]string, len(raw))
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			args[k] = s
			continue
		}
		var scalar any
		if json.Unmarshal(v, &scalar) != nil {
			return nil, i18n.Err("prompts.error.argsJSON")
		}
		switch scalar.(type) {
		case float64, bool:
			args[k] = string(v)
		default:
			return nil, i18n.Err("prompts.error.argText", "argument", k)
		}
	}
	return args, nil
}
