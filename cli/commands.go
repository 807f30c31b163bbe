package cli

import (
	"context"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/hostapi"
	"github.com/gatehouse-app/gatehouse/importcfg"
	"github.com/gatehouse-app/gatehouse/store"
)

// commands are app.Commands: run on the core this command opened, or, while
// the window is open, by the running app (appCommands). Either way the same
// code does the work, so the output is the same.
type commands interface {
	Providers() ([]app.ProviderView, error)
	AddProvider(in app.ProviderInput) (app.ProviderView, error)
	RemoveProvider(name string) (string, error)
	TestProvider(name string) (string, app.TestResult, error)
	Policies() ([]app.ServerPolicyView, error)
	Policy(server string) (app.ServerPolicyView, error)
	SetPolicy(server, tool, mode string) (app.ServerPolicyView, error)
	TrustServer(server string, trusted bool) (app.ServerPolicyView, error)
	Conversations() ([]store.Conversation, error)
	ConversationMarkdown(id string) (string, error)
	PreviewImport(file string) (importcfg.Preview, error)
	Import(req app.ImportRequest) (app.ImportResult, error)
	SignOut(name string) (string, error)
	Resources(ctx context.Context, server string) (app.ResourceListView, error)
	ReadResource(ctx context.Context, server, uri string) (app.ResourceData, error)
	Prompts(ctx context.Context, server string) ([]app.PromptView, error)
	GetPrompt(ctx context.Context, server, name, argsJSON string) (app.PromptResultView, error)
	Roots(server string) (app.CLIRoots, error)
	AddRoot(server, folder string) (app.CLIRoots, error)
	RemoveRoot(server, folder string) (app.CLIRoots, error)
}

// openCommands returns the running app's commands when an app runs on this
// data folder, else those of a core opened on it; closeFn ends either.
func (e *env) openCommands() (c commands, closeFn func(), err error) {
	cs, err := e.dial(context.Background(), nil)
	if err != nil {
		return nil, nil, err
	}
	if cs != nil {
		return appCommands{cs}, func() { cs.Close() }, nil
	}
	core, err := e.openCore()
	if err != nil {
		return nil, nil, err
	}
	return app.NewCommands(core), func() { core.Close() }, nil
}

// appCommands asks the running app to run its Commands (app.cliTools).
type appCommands struct{ cs *sdk.ClientSession }

func (a appCommands) run(tool string, in, out any) error {
	return run(context.Background(), a.cs, tool, in, out)
}

func (a appCommands) Providers() ([]app.ProviderView, error) {
	var list hostapi.Items[app.ProviderView]
	err := a.run(app.ToolListProviders, struct{}{}, &list)
	return list.Items, err
}

func (a appCommands) AddProvider(in app.ProviderInput) (app.ProviderView, error) {
	var v app.ProviderView
	err := a.run(app.ToolAddProvider, in, &v)
	return v, err
}

func (a appCommands) RemoveProvider(name string) (string, error) {
	var out app.CLIName
	err := a.run(app.ToolRemoveProvider, app.CLIName{Name: name}, &out)
	return out.Name, err
}

func (a appCommands) TestProvider(name string) (string, app.TestResult, error) {
	var out app.CLITested
	err := a.run(app.ToolTestProvider, app.CLIName{Name: name}, &out)
	return out.Name, out.Result, err
}

func (a appCommands) Policies() ([]app.ServerPolicyView, error) {
	var list hostapi.Items[app.ServerPolicyView]
	err := a.run(app.ToolListPolicies, struct{}{}, &list)
	return list.Items, err
}

func (a appCommands) Policy(server string) (app.ServerPolicyView, error) {
	var v app.ServerPolicyView
	err := a.run(app.ToolServerPolicy, app.CLIName{Name: server}, &v)
	return v, err
}

func (a appCommands) SetPolicy(server, tool, mode string) (app.ServerPolicyView, error) {
	var v app.ServerPolicyView
	err := a.run(app.ToolSetPolicy, app.CLIPolicy{Server: server, Tool: tool, Mode: mode}, &v)
	return v, err
}

func (a appCommands) TrustServer(server string, trusted bool) (app.ServerPolicyView, error) {
	var v app.ServerPolicyView
	err := a.run(app.ToolTrustServer, app.CLITrust{Server: server, Trusted: trusted}, &v)
	return v, err
}

func (a appCommands) SignOut(name string) (string, error) {
	var out app.CLIName
	err := a.run(app.ToolSignOut, app.CLIName{Name: name}, &out)
	return out.Name, err
}

func (a appCommands) Conversations() ([]store.Conversation, error) {
	var list hostapi.Items[store.Conversation]
	err := a.run(app.ToolConversations, struct{}{}, &list)
	return list.Items, err
}

func (a appCommands) ConversationMarkdown(id string) (string, error) {
	var out app.CLIText
	err := a.run(app.ToolExportChat, app.CLIName{Name: id}, &out)
	return out.Text, err
}

// PreviewImport has the app read the file by its absolute path (the app's
// working folder is not the terminal's); the preview names it as typed.
func (a appCommands) PreviewImport(file string) (importcfg.Preview, error) {
	var p importcfg.Preview
	abs, err := filepath.Abs(file)
	if err != nil {
		return p, err
	}
	if err := a.run(app.ToolPreviewImport, app.CLIName{Name: abs}, &p); err != nil {
		return p, err
	}
	p.File = file
	return p, nil
}

func (a appCommands) Import(req app.ImportRequest) (app.ImportResult, error) {
	var res app.ImportResult
	abs, err := filepath.Abs(req.File)
	if err != nil {
		return res, err
	}
	req.File = abs
	err = a.run(app.ToolImport, req, &res)
	return res, err
}

func (a appCommands) Resources(ctx context.Context, server string) (app.ResourceListView, error) {
	var v app.ResourceListView
	err := run(ctx, a.cs, app.ToolListResources, app.CLIName{Name: server}, &v)
	return v, err
}

func (a appCommands) ReadResource(ctx context.Context, server, uri string) (app.ResourceData, error) {
	var v app.ResourceData
	err := run(ctx, a.cs, app.ToolReadResource, app.CLIRead{Server: server, URI: uri}, &v)
	return v, err
}

func (a appCommands) Prompts(ctx context.Context, server string) ([]app.PromptView, error) {
	var v app.CLIPrompts
	err := run(ctx, a.cs, app.ToolListPrompts, app.CLIName{Name: server}, &v)
	return v.Prompts, err
}

func (a appCommands) GetPrompt(ctx context.Context, server, name, argsJSON string) (app.PromptResultView, error) {
	var v app.PromptResultView
	err := run(ctx, a.cs, app.ToolGetPrompt, app.CLIPrompt{Server: server, Name: name, Arguments: argsJSON}, &v)
	return v, err
}

func (a appCommands) Roots(server string) (app.CLIRoots, error) {
	var out app.CLIRoots
	err := a.run(app.ToolServerRoots, app.CLIName{Name: server}, &out)
	return out, err
}

func (a appCommands) AddRoot(server, folder string) (app.CLIRoots, error) {
	var out app.CLIRoots
	err := a.run(app.ToolAddRoot, app.CLIRoot{Server: server, Path: folder}, &out)
	return out, err
}

func (a appCommands) RemoveRoot(server, folder string) (app.CLIRoots, error) {
	var out app.CLIRoots
	err := a.run(app.ToolRemoveRoot, app.CLIRoot{Server: server, Path: folder}, &out)
	return out, err
}
