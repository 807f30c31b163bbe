package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/connectapp"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Commands are the command line's commands, by the names the person types,
// with the command line's sentences for a name that is not there. Each is
// one method here and one row of tools, the table the command line's
// server serves (applink): the CLI calls them on the running app's core
// while the window is open (ServeCLI), and on a core it opened itself
// otherwise (ConnectCLI) — the same road and the same code either way, so
// the output is the same, and the window shows a change at once.
type Commands struct {
	core      *Core
	servers   *ServersService
	tools     *ToolsService
	providers *ProvidersService
	policies  *PoliciesService
	chat      *ChatService
	resources *ResourcesService
	prompts   *PromptsService
	connect   *ConnectService
}

// newCommands returns the commands for core.
func newCommands(core *Core) *Commands {
	return &Commands{core: core, servers: NewServersService(core), tools: NewToolsService(core), providers: NewProvidersService(core),
		policies: NewPoliciesService(core), chat: core.Chat(),
		resources: NewResourcesService(core, nil), prompts: NewPromptsService(core), connect: NewConnectService(core)}
}

// table is the commands as the command line's server serves them: adding
// a command is a method below, its tool's name and a row here.
func (c *Commands) table() []applink.Tool {
	return []applink.Tool{
		applink.NewTool(ToolListServers, "Lists the configured servers.", c.ListServers),
		applink.NewTool(ToolAddServer, "Adds a server.", c.AddServer),
		applink.NewTool(ToolRemoveServer, "Removes a server.", c.RemoveServer),
		applink.NewTool(ToolEnableServer, "Turns a server on.", c.EnableServer),
		applink.NewTool(ToolDisableServer, "Turns a server off.", c.DisableServer),
		applink.NewTool(ToolListTools, "Lists a connected server's tools.", c.ListTools),
		applink.NewCallerTool(ToolCallTool, "Calls a server's tool; its questions are asked of this client.", c.CallTool),
		applink.NewTool(ToolListProviders, "Lists the model providers.", c.Providers),
		applink.NewTool(ToolAddProvider, "Adds a model provider.", c.AddProvider),
		applink.NewTool(ToolRemoveProvider, "Removes a model provider.", c.RemoveProvider),
		applink.NewTool(ToolTestProvider, "Lists a provider's models.", c.TestProvider),
		applink.NewTool(ToolListPolicies, "Lists every server's policies.", c.Policies),
		applink.NewTool(ToolServerPolicy, "Shows a server's policies.", c.Policy),
		applink.NewTool(ToolSetPolicy, "Sets what a server's tool calls do.", c.SetPolicy),
		applink.NewTool(ToolTrustServer, "Trusts a server's read-only claims, or not.", c.TrustServer),
		applink.NewTool(ToolConversations, "Lists the conversations.", c.Conversations),
		applink.NewTool(ToolExportChat, "Writes a conversation as Markdown.", c.ExportConversation),
		applink.NewTool(ToolPreviewImport, "Previews importing another app's servers from a file (an absolute path).", c.PreviewImport),
		applink.NewTool(ToolImport, "Imports the servers of a previewed file.", c.Import),
		applink.NewCallerTool(ToolSignIn, "Signs in to a remote server; its consent is asked of this client.", c.SignIn),
		applink.NewTool(ToolSignOut, "Forgets a remote server's sign-in.", c.SignOut),
		applink.NewTool(ToolListResources, "Lists a server's resources and resource templates.", c.Resources),
		applink.NewTool(ToolReadResource, "Reads a server's resource whole.", c.ReadResource),
		applink.NewTool(ToolListPrompts, "Lists a server's prompts.", c.Prompts),
		applink.NewTool(ToolGetPrompt, "Gets the messages of a server's prompt.", c.GetPrompt),
		applink.NewTool(ToolServerRoots, "Lists the folders a server may see.", c.Roots),
		applink.NewTool(ToolAddRoot, "Lets a server see a folder (an absolute path).", c.AddRoot),
		applink.NewTool(ToolRemoveRoot, "Stops a server seeing a folder.", c.RemoveRoot),
		applink.NewTool(ToolConnectApps, "Lists the apps Gatehouse can connect to its gateway.", c.ConnectApps),
		applink.NewTool(ToolConnectPreview, "Previews adding the gateway entry to an app's file.", c.ConnectPreview),
		applink.NewTool(ToolConnect, "Adds the gateway entry to an app's file, as previewed.", c.Connect),
		applink.NewTool(ToolConnectUndo, "Takes back the last change made to an app's file.", c.ConnectUndo),
		applink.NewTool(ToolConnectUndoPreview, "Previews taking back the last change made to an app's file.", c.ConnectUndoPreview),
		applink.NewTool(ToolConnectUndoChanged, "Takes Gatehouse's part out of an app's file changed since, as previewed.", c.ConnectUndoChanged),
		applink.NewCallerTool(ToolChatTurn, "Runs a chat turn in a new conversation; its text and calls are told as progress, its questions asked of this client.", c.ChatTurn),
	}
}

// Tool names of the Commands, as the command line's server serves them.
const (
	ToolListServers    = "list_servers"
	ToolAddServer      = "add_server"
	ToolRemoveServer   = "remove_server"
	ToolEnableServer   = "enable_server"
	ToolDisableServer  = "disable_server"
	ToolListTools      = "list_tools"
	ToolCallTool       = "call_tool"
	ToolListProviders  = "list_providers"
	ToolAddProvider    = "add_provider"
	ToolRemoveProvider = "remove_provider"
	ToolTestProvider   = "test_provider"
	ToolListPolicies   = "list_policies"
	ToolServerPolicy   = "server_policy"
	ToolSetPolicy      = "set_policy"
	ToolTrustServer    = "trust_server"
	ToolConversations  = "list_conversations"
	ToolExportChat     = "export_conversation"
	ToolPreviewImport  = "preview_import"
	ToolImport         = "import_servers"
	ToolSignIn         = "sign_in"
	ToolSignOut        = "sign_out"
	ToolListResources  = "list_resources"
	ToolReadResource   = "read_resource"
	ToolListPrompts    = "list_prompts"
	ToolGetPrompt      = "get_prompt"
	ToolServerRoots    = "server_roots"
	ToolAddRoot        = "add_root"
	ToolRemoveRoot     = "remove_root"
	ToolChatTurn       = "chat_turn"
	ToolConnectApps    = "connect_apps"
	ToolConnectPreview = "connect_preview"
	ToolConnect        = "connect_app"
	ToolConnectUndo    = "connect_undo"
	// ToolConnectUndoPreview and ToolConnectUndoChanged take back Gatehouse's
	// part of a file the app changed since (connectapp.UndoChanged).
	ToolConnectUndoPreview = "connect_undo_preview"
	ToolConnectUndoChanged = "connect_undo_changed"
)

// cliConnectTimeout bounds how long a command waits for its server to
// connect.
const cliConnectTimeout = 30 * time.Second

// ListServers lists the configured servers.
func (c *Commands) ListServers(context.Context, struct{}) (applink.Items[ServerRow], error) {
	servers, err := c.core.Store.Servers()
	rows := make([]ServerRow, 0, len(servers))
	for _, s := range servers {
		rows = append(rows, serverRow(s))
	}
	return applink.Items[ServerRow]{Items: rows}, err
}

// serverRow is srv as the command line shows it.
func serverRow(s store.Server) ServerRow {
	return ServerRow{Name: s.Name, Enabled: s.Enabled, Transport: s.Transport,
		Stdio: s.Stdio != nil, InheritEnv: s.Stdio != nil && s.Stdio.InheritEnv, Where: mcp.Where(s)}
}

// AddServer adds a server, as the window does: a running app connects it at
// once.
func (c *Commands) AddServer(_ context.Context, in ServerInput) (ServerRow, error) {
	v, err := c.servers.Add(in)
	return ServerRow{Name: v.Input.Name, Enabled: v.Input.Enabled, Transport: v.Input.Transport,
		Stdio: v.Input.Transport == store.TransportStdio, InheritEnv: v.Input.InheritEnv, Where: v.Where}, err
}

// RemoveServer removes the named server and returns its name as saved.
func (c *Commands) RemoveServer(_ context.Context, in CLIName) (CLIName, error) {
	srv, err := c.server(in.Name)
	if err != nil {
		return CLIName{}, err
	}
	return CLIName{Name: srv.Name}, c.servers.Remove(srv.ID)
}

// EnableServer turns the named server on and returns its name as saved.
func (c *Commands) EnableServer(_ context.Context, in CLIName) (CLIName, error) {
	return c.setEnabled(in.Name, true)
}

// DisableServer turns the named server off and returns its name as saved.
func (c *Commands) DisableServer(_ context.Context, in CLIName) (CLIName, error) {
	return c.setEnabled(in.Name, false)
}

func (c *Commands) setEnabled(name string, enabled bool) (CLIName, error) {
	srv, err := c.server(name)
	if err != nil {
		return CLIName{}, err
	}
	return CLIName{Name: srv.Name}, c.servers.SetEnabled(srv.ID, enabled)
}

// ListTools lists the named server's tools, once it is connected, each
// with its interface (MCP Apps, ToolView.App) when it has one: `gatehouse
// tools` marks those, and the tools only their app may call.
func (c *Commands) ListTools(ctx context.Context, in CLIName) (applink.Items[ToolView], error) {
	srv, err := c.connected(ctx, in.Name)
	if err != nil {
		return applink.Items[ToolView]{}, err
	}
	list, err := c.tools.List(srv.ID)
	return applink.Items[ToolView]{Items: list}, err
}

// CallTool calls one of the named server's tools as the Tools pane does,
// with its checks, time limit and history; the caller ending its call
// (Ctrl-C) cancels it on the server too. While it runs, the form and URL
// requests its server asks are put to the caller through the broker, which
// keeps owning them, and its progress goes to the caller.
func (c *Commands) CallTool(ctx context.Context, caller *applink.Caller, in CLICall) (CLICallResult, error) {
	named, err := c.server(in.Server)
	if err != nil {
		return CLICallResult{}, err
	}
	// Routed before the server is connected: what it asks as soon as it
	// is (on connecting, before the call) is this command's question too.
	release := caller.RouteServer(named.ID)
	defer release()
	srv, err := c.connected(ctx, in.Server)
	if err != nil {
		return CLICallResult{}, err
	}
	floodsBefore, _ := c.floods(srv.ID, nil)
	res, err := CallTool(caller.Progress(ctx), c.tools, "", srv.ID, in.Tool, in.Arguments)
	_, notices := c.floods(srv.ID, floodsBefore)
	if err != nil {
		if len(notices) > 0 {
			err = &applink.Noticed{Notices: notices, Err: err}
		}
		return CLICallResult{}, err
	}
	// The pages of this call that have ended are told before the result,
	// and named in it: else the caller would wait for such a page (and say
	// so) a second time.
	return CLICallResult{Result: res, EndedPages: caller.EndedPages(), Notices: notices}, nil
}

// floods returns the IDs of the broker's flood notices about serverID,
// and the messages of those that are not in before: a server refused for
// asking too much during a command is said in its terminal too (the window,
// when it is open, shows the notice as well).
func (c *Commands) floods(serverID string, before map[string]bool) (ids map[string]bool, added []i18n.Message) {
	ids = map[string]bool{}
	for _, n := range c.core.Broker.Snapshot().Notices {
		if n.Kind != mcp.NoticeFlood || n.ServerID != serverID {
			continue
		}
		ids[n.ID] = true
		if !before[n.ID] {
			added = append(added, n.Message)
		}
	}
	return ids, added
}

// Providers lists the providers.
func (c *Commands) Providers(context.Context, struct{}) (applink.Items[ProviderView], error) {
	list, err := c.providers.List()
	return applink.Items[ProviderView]{Items: list.Providers}, err
}

// AddProvider adds a provider.
func (c *Commands) AddProvider(_ context.Context, in ProviderInput) (ProviderView, error) {
	return c.providers.Add(in)
}

// RemoveProvider removes the named provider and returns its name as saved.
func (c *Commands) RemoveProvider(_ context.Context, in CLIName) (CLIName, error) {
	p, err := c.provider(in.Name)
	if err != nil {
		return CLIName{}, err
	}
	return CLIName{Name: p.Name}, c.providers.Remove(p.ID)
}

// TestProvider lists the named provider's models, with its name as saved.
func (c *Commands) TestProvider(_ context.Context, in CLIName) (CLITested, error) {
	p, err := c.provider(in.Name)
	if err != nil {
		return CLITested{}, err
	}
	res, err := c.providers.TestSaved(p.ID)
	return CLITested{Name: p.Name, Result: res}, err
}

func (c *Commands) provider(name string) (store.Provider, error) {
	p, err := c.core.Store.ProviderByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return p, i18n.Err("cli.providers.noSuch", "name", strconv.Quote(name))
	}
	return p, err
}

// Policies returns every server's policies.
func (c *Commands) Policies(context.Context, struct{}) (applink.Items[ServerPolicyView], error) {
	list, err := c.policies.List()
	return applink.Items[ServerPolicyView]{Items: list}, err
}

// Policy returns the named server's policies.
func (c *Commands) Policy(_ context.Context, in CLIName) (ServerPolicyView, error) {
	srv, err := c.server(in.Name)
	if err != nil {
		return ServerPolicyView{}, err
	}
	return c.policies.Server(srv.ID)
}

// SetPolicy sets what the named server's tool calls do: all of them, or
// only in.Tool's when it is not "".
func (c *Commands) SetPolicy(_ context.Context, in CLIPolicy) (ServerPolicyView, error) {
	srv, err := c.server(in.Server)
	if err != nil {
		return ServerPolicyView{}, err
	}
	if in.Tool == "" {
		return c.policies.SetMode(srv.ID, in.Mode)
	}
	return c.policies.SetToolMode(srv.ID, in.Tool, in.Mode)
}

// TrustServer sets whether the named server's read-only claims are trusted.
func (c *Commands) TrustServer(_ context.Context, in CLITrust) (ServerPolicyView, error) {
	srv, err := c.server(in.Server)
	if err != nil {
		return ServerPolicyView{}, err
	}
	return c.policies.SetTrusted(srv.ID, in.Trusted)
}

func (c *Commands) server(name string) (store.Server, error) {
	srv, err := c.core.Store.ServerByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return srv, i18n.Err("cli.servers.noSuch", "name", strconv.Quote(name))
	}
	return srv, err
}

// Conversations lists the conversations, the most recently active first.
func (c *Commands) Conversations(context.Context, struct{}) (applink.Items[store.Conversation], error) {
	list, err := c.chat.Conversations("")
	return applink.Items[store.Conversation]{Items: list}, err
}

// ExportConversation returns a conversation (in.Name is its ID) written as
// Markdown.
func (c *Commands) ExportConversation(_ context.Context, in CLIName) (CLIText, error) {
	md, err := c.chat.Markdown(in.Name)
	if errors.Is(err, store.ErrNotFound) {
		return CLIText{}, i18n.Err("cli.chat.noSuch", "id", strconv.Quote(in.Name))
	}
	return CLIText{Text: md}, err
}

// PreviewImport previews importing the servers of another app's file
// (in.Name, an absolute path: the app's working folder is not the
// terminal's).
func (c *Commands) PreviewImport(_ context.Context, in CLIName) (importcfg.Preview, error) {
	return c.servers.PreviewImport(in.Name)
}

// ConnectApps lists the apps Gatehouse connects and the state of each.
func (c *Commands) ConnectApps(context.Context, struct{}) (applink.Items[connectapp.Status], error) {
	apps, err := c.connect.Apps()
	return applink.Items[connectapp.Status]{Items: apps}, err
}

// ConnectPreview previews connecting an app.
func (c *Commands) ConnectPreview(_ context.Context, req ConnectRequest) (connectapp.Change, error) {
	return c.connect.Preview(req)
}

// Connect writes the previewed change to an app's file.
func (c *Commands) Connect(_ context.Context, req ConnectRequest) (connectapp.Written, error) {
	return c.connect.Connect(req)
}

// ConnectUndo takes back the last change made to the app's file (in.Name).
func (c *Commands) ConnectUndo(_ context.Context, in CLIName) (connectapp.Undone, error) {
	return c.connect.Undo(in.Name)
}

// ConnectUndoPreview previews taking back the last change made to the
// app's file (in.Name).
func (c *Commands) ConnectUndoPreview(_ context.Context, in CLIName) (connectapp.UndoChange, error) {
	return c.connect.PreviewUndo(in.Name)
}

// ConnectUndoChanged takes Gatehouse's part out of the app's file as
// previewed.
func (c *Commands) ConnectUndoChanged(_ context.Context, req UndoRequest) (connectapp.Undone, error) {
	return c.connect.UndoChanged(req)
}

// Import imports the servers of a previewed file.
func (c *Commands) Import(_ context.Context, req ImportRequest) (ImportResult, error) {
	return c.servers.Import(req)
}

// SignOut forgets the named remote server's sign-in and returns its name
// as saved.
func (c *Commands) SignOut(_ context.Context, in CLIName) (CLIName, error) {
	srv, err := c.signInServer(in.Name)
	if err != nil {
		return CLIName{}, err
	}
	// A CLI process's manager may not run this server: delete in any case.
	if err := c.core.Manager.SignOut(srv.ID); err != nil && !errors.Is(err, mcp.ErrUnknownServer) && !errors.Is(err, mcp.ErrDisabled) {
		return CLIName{}, err
	}
	return CLIName{Name: srv.Name}, nil
}

// signInServer finds the named server that can sign in: a remote one,
// turned on.
func (c *Commands) signInServer(name string) (store.Server, error) {
	srv, err := c.server(name)
	switch {
	case err != nil:
		return srv, err
	case srv.HTTP == nil:
		return srv, i18n.Err("cli.signin.local", "server", srv.Name)
	case !srv.Enabled:
		return srv, i18n.Err("cli.turnedOff", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
	}
	return srv, nil
}

// Resources lists the named server's resources and templates.
func (c *Commands) Resources(ctx context.Context, in CLIName) (ResourceListView, error) {
	srv, err := c.connected(ctx, in.Name)
	if err != nil {
		return ResourceListView{}, err
	}
	return c.resources.List(srv.ID)
}

// ReadResource reads a resource of the named server whole: each item's
// text (JSON pretty-printed) or bytes.
func (c *Commands) ReadResource(ctx context.Context, in CLIRead) (ResourceData, error) {
	srv, err := c.connected(ctx, in.Server)
	if err != nil {
		return ResourceData{}, err
	}
	if _, err := c.resources.Read(srv.ID, in.URI); err != nil {
		return ResourceData{}, err
	}
	data := ResourceData{URI: in.URI, Contents: []ResourceItem{}}
	for i := 0; ; i++ {
		item, err := c.resources.item(srv.ID, in.URI, i)
		if err != nil {
			break
		}
		it := ResourceItem{URI: item.view.URI, MimeType: item.view.MimeType, Kind: item.view.Kind, Size: item.view.Size}
		if it.Kind == KindText || it.Kind == KindJSON {
			it.Text = item.text
		} else {
			it.Data = base64.StdEncoding.EncodeToString(item.data)
		}
		data.Contents = append(data.Contents, it)
	}
	return data, nil
}

// Prompts lists the named server's prompts.
func (c *Commands) Prompts(ctx context.Context, in CLIName) (applink.Items[PromptView], error) {
	srv, err := c.connected(ctx, in.Name)
	if err != nil {
		return applink.Items[PromptView]{}, err
	}
	list, err := c.prompts.List(srv.ID)
	return applink.Items[PromptView]{Items: list}, err
}

// GetPrompt returns the messages a prompt of the named server produces with
// the arguments given as a JSON object (in.Arguments; "" for none).
func (c *Commands) GetPrompt(ctx context.Context, in CLIPrompt) (PromptResultView, error) {
	args, err := parsePromptArgs(in.Arguments)
	if err != nil {
		return PromptResultView{}, err
	}
	srv, err := c.connected(ctx, in.Server)
	if err != nil {
		return PromptResultView{}, err
	}
	return c.prompts.Get(srv.ID, in.Name, args)
}

// connected finds the named server and waits until it is connected, with
// the sentences the command line says for a server that is off, needs
// sign-in or cannot be connected (an *applink.ConnectError with its log).
// A command line's own core connects only the servers it uses (manage).
func (c *Commands) connected(ctx context.Context, name string) (store.Server, error) {
	srv, err := c.server(name)
	if err != nil {
		return srv, err
	}
	if !srv.Enabled {
		return srv, i18n.Err("cli.turnedOff", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
	}
	c.manage(srv)
	wctx, cancel := context.WithTimeout(ctx, cliConnectTimeout)
	defer cancel()
	if err := c.core.Manager.WaitConnected(wctx, srv.ID); err != nil {
		if errors.Is(err, mcp.ErrNeedsSignIn) {
			return srv, i18n.Err("cli.signinFirst", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
		}
		serverLog, _ := c.core.Manager.Log(srv.ID)
		return srv, &applink.ConnectError{Server: srv.Name, Err: err, Log: serverLog}
	}
	return srv, nil
}

// Roots returns the folders the named server may see.
func (c *Commands) Roots(_ context.Context, in CLIName) (CLIRoots, error) {
	srv, err := c.server(in.Name)
	if err != nil {
		return CLIRoots{}, err
	}
	return CLIRoots{Name: srv.Name, Roots: append([]string{}, srv.Roots...)}, nil
}

// AddRoot lets the named server see one more folder (an absolute path); a
// connected server is told at once.
func (c *Commands) AddRoot(_ context.Context, in CLIRoot) (CLIRoots, error) {
	srv, err := c.server(in.Server)
	if err != nil {
		return CLIRoots{}, err
	}
	return c.setRoots(srv, append(slices.Clone(srv.Roots), in.Path))
}

// RemoveRoot stops the named server seeing a folder; a connected server is
// told at once.
func (c *Commands) RemoveRoot(_ context.Context, in CLIRoot) (CLIRoots, error) {
	srv, err := c.server(in.Server)
	if err != nil {
		return CLIRoots{}, err
	}
	folder := filepath.Clean(in.Path)
	if !slices.Contains(srv.Roots, folder) {
		return CLIRoots{}, i18n.Err("roots.error.notSeen", "server", srv.Name, "path", folder)
	}
	return c.setRoots(srv, slices.DeleteFunc(slices.Clone(srv.Roots), func(f string) bool { return f == folder }))
}

func (c *Commands) setRoots(srv store.Server, folders []string) (CLIRoots, error) {
	v, err := c.servers.SetRoots(srv.ID, folders)
	if err != nil {
		return CLIRoots{}, err
	}
	return CLIRoots{Name: v.Input.Name, Roots: v.Input.Roots}, nil
}

// SignIn signs in to the named remote server (E33) and returns once the
// attempt the sign-in started ended: connected, or not with the reason.
// The consent is the broker's question (its checks, queue and history),
// asked in the caller's terminal. Ending ctx stops waiting.
func (c *Commands) SignIn(ctx context.Context, caller *applink.Caller, in CLIName) (SignedIn, error) {
	srv, err := c.signInServer(in.Name)
	if err != nil {
		return SignedIn{}, err
	}
	release := caller.Route(func(q *mcp.Question) bool { return q.Kind == mcp.KindSignIn && q.Server.ID == srv.ID })
	defer release()
	m := c.core.Manager
	c.manage(srv)
	wctx, cancel := context.WithTimeout(ctx, cliConnectTimeout)
	defer cancel()
	err = m.WaitConnected(wctx, srv.ID)
	if err == nil {
		return SignedIn{Name: srv.Name, Already: true}, nil
	}
	if !errors.Is(err, mcp.ErrNeedsSignIn) {
		return SignedIn{}, i18n.Wrap(err, "cli.cannotConnect", "server", srv.Name, "detail", err)
	}
	before, _ := m.Status(srv.ID)
	if err := m.SignIn(srv.ID); err != nil {
		return SignedIn{}, err
	}
	// Wait for the attempt the sign-in started to end, connected or not.
	deadline := time.Now().Add(mcp.SignInTimeout + cliConnectTimeout)
	for {
		st, err := m.Status(srv.ID)
		if err != nil {
			return SignedIn{}, err
		}
		if st.Since.After(before.Since) {
			switch st.State {
			case mcp.StateConnected:
				return SignedIn{Name: srv.Name}, nil
			case mcp.StateNeedsSignIn, mcp.StateError:
				return SignedIn{}, i18n.Err("cli.signin.not", "server", srv.Name, "detail", st.Message)
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return SignedIn{}, i18n.Err("cli.signin.unfinished", "server", srv.Name)
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ChatTurn runs one turn of a new conversation, as the window's Send does:
// with the named provider ("" for the default), every enabled server's
// tools (each waited for a while; those that do not connect are told), and
// the person's message. It returns once the turn ended and is stored.
// Ending ctx stops the turn (the model, a question, a running call), which
// still ends with its ChatFailed. The turn's events go to the caller as
// notifications/progress (ChatEventMeta and the other _meta keys), and its
// questions are the broker's, asked in the caller's terminal: the approvals
// of its tool calls, and the form and URL requests of the servers while its
// calls run on them. (A sampling request is for the window, which reviews
// them.)
func (c *Commands) ChatTurn(ctx context.Context, caller *applink.Caller, in CLIChatTurn) (CLIChatTurnEnded, error) {
	var mu sync.Mutex
	conversation := ""
	calling := map[string]int{} // server ID → this turn's calls running on it
	release := caller.Route(func(q *mcp.Question) bool {
		mu.Lock()
		defer mu.Unlock()
		switch q.Kind {
		case mcp.KindToolCall:
			return conversation != "" && q.ToolCall.ConversationID == conversation
		case mcp.KindForm, mcp.KindURL:
			return calling[q.Server.ID] > 0
		}
		return false
	})
	defer release()
	notify := func(text, key string, v any) {
		b, err := json.Marshal(v)
		if err == nil { // the turn's end is told after Ctrl-C too
			err = caller.Notify(context.WithoutCancel(ctx), text, sdk.Meta{key: string(b)})
		}
		if err != nil && ctx.Err() == nil {
			log.Printf("gatehouse: telling the command line about its chat turn: %v", err)
		}
	}
	ended := func() CLIChatTurnEnded { return CLIChatTurnEnded{Notices: caller.Notified()} }
	providerID, err := c.chatProvider(in.Provider)
	if err != nil {
		return ended(), err
	}
	c.connectEnabled(ctx, func(server string, why error) {
		notify("", ChatNotConnectedMeta, CLINotConnected{Server: server, Why: i18n.ErrorMessage(why)})
	})
	conv, err := c.chat.NewConversation(providerID, "", "", nil)
	if err != nil {
		return ended(), err
	}
	mu.Lock()
	conversation = conv.ID
	mu.Unlock()
	notify("", ChatStartedMeta, conv.ID)
	running := map[string]string{} // call ID → server ID, while it runs
	done := make(chan struct{})
	stop := c.chat.watch(conv.ID, func(ev ChatEvent) {
		if ev.Kind == chat.EventCall && ev.Call != nil {
			mu.Lock()
			switch ev.Call.State {
			case chat.CallRunning, chat.CallWaiting:
				if _, ok := running[ev.Call.ID]; !ok {
					running[ev.Call.ID] = ev.Call.ServerID
					calling[ev.Call.ServerID]++
				}
			default:
				if id, ok := running[ev.Call.ID]; ok {
					delete(running, ev.Call.ID)
					calling[id]--
				}
			}
			mu.Unlock()
		}
		notify(ev.Text, ChatEventMeta, ev)
		if ev.Kind == ChatDone || ev.Kind == ChatFailed {
			close(done)
		}
	})
	defer stop()
	if err := c.chat.Send(conv.ID, in.Message); err != nil {
		return ended(), err
	}
	select {
	case <-done:
	case <-ctx.Done(): // Ctrl-C: the turn stops and says so
		c.chat.Stop(conv.ID)
		<-done
	}
	return ended(), nil
}

// chatProvider finds the provider by name, or the default one.
func (c *Commands) chatProvider(name string) (string, error) {
	if name != "" {
		p, err := c.provider(name)
		return p.ID, err
	}
	s, err := c.core.Store.Settings()
	if err != nil {
		return "", err
	}
	if s.DefaultProviderID == "" {
		return "", i18n.Err("cli.chat.noProvider")
	}
	return s.DefaultProviderID, nil
}

// manage hands srv to the manager unless it has it: the command line's
// own core starts with none, the app's has them all, connected.
func (c *Commands) manage(srv store.Server) {
	if _, err := c.core.Manager.Status(srv.ID); errors.Is(err, mcp.ErrUnknownServer) {
		c.core.Manager.Set(srv)
	}
}

// connectEnabled hands every server to the manager (manage) and waits a
// while for the enabled ones; notConnected hears each that does not
// connect.
func (c *Commands) connectEnabled(ctx context.Context, notConnected func(server string, why error)) {
	servers, _ := c.core.Store.Servers()
	for _, s := range servers {
		c.manage(s)
	}
	wctx, cancel := context.WithTimeout(ctx, cliConnectTimeout)
	defer cancel()
	for _, s := range servers {
		if !s.Enabled {
			continue
		}
		if err := c.core.Manager.WaitConnected(wctx, s.ID); err != nil {
			notConnected(s.Name, err)
		}
	}
}
