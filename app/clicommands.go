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

	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/hostapi"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/importcfg"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Commands are the command line's commands that work on saved things
// (providers, policies, conversations, importing servers), by the names the
// person types, with the command line's sentences for a name that is not
// there. The CLI runs them on the core it opened, or, while the window is
// open, asks the running app, which runs these same methods on its core
// (hostapi tools, see cliTools): the result is the same either way, and the
// window shows a change at once.
type Commands struct {
	core      *Core
	servers   *ServersService
	providers *ProvidersService
	policies  *PoliciesService
	chat      *ChatService
	resources *ResourcesService
	prompts   *PromptsService
}

// NewCommands returns the commands for core.
func NewCommands(core *Core) *Commands {
	return &Commands{core: core, servers: NewServersService(core), providers: NewProvidersService(core),
		policies: NewPoliciesService(core), chat: core.Chat(),
		resources: NewResourcesService(core, nil), prompts: NewPromptsService(core)}
}

// Providers lists the providers.
func (c *Commands) Providers() ([]ProviderView, error) {
	list, err := c.providers.List()
	return list.Providers, err
}

// AddProvider adds a provider.
func (c *Commands) AddProvider(in ProviderInput) (ProviderView, error) { return c.providers.Add(in) }

// RemoveProvider removes the named provider and returns its name as saved.
func (c *Commands) RemoveProvider(name string) (string, error) {
	p, err := c.provider(name)
	if err != nil {
		return "", err
	}
	return p.Name, c.providers.Remove(p.ID)
}

// TestProvider lists the named provider's models, and returns its name as
// saved.
func (c *Commands) TestProvider(name string) (string, TestResult, error) {
	p, err := c.provider(name)
	if err != nil {
		return "", TestResult{}, err
	}
	res, err := c.providers.TestSaved(p.ID)
	return p.Name, res, err
}

func (c *Commands) provider(name string) (store.Provider, error) {
	p, err := c.core.Store.ProviderByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return p, i18n.Err("cli.providers.noSuch", "name", strconv.Quote(name))
	}
	return p, err
}

// Policies returns every server's policies.
func (c *Commands) Policies() ([]ServerPolicyView, error) { return c.policies.List() }

// Policy returns the named server's policies.
func (c *Commands) Policy(server string) (ServerPolicyView, error) {
	srv, err := c.server(server)
	if err != nil {
		return ServerPolicyView{}, err
	}
	return c.policies.Server(srv.ID)
}

// SetPolicy sets what the named server's tool calls do: all of them, or
// only tool's when tool is not "".
func (c *Commands) SetPolicy(server, tool, mode string) (ServerPolicyView, error) {
	srv, err := c.server(server)
	if err != nil {
		return ServerPolicyView{}, err
	}
	if tool == "" {
		return c.policies.SetMode(srv.ID, mode)
	}
	return c.policies.SetToolMode(srv.ID, tool, mode)
}

// TrustServer sets whether the named server's read-only claims are trusted.
func (c *Commands) TrustServer(server string, trusted bool) (ServerPolicyView, error) {
	srv, err := c.server(server)
	if err != nil {
		return ServerPolicyView{}, err
	}
	return c.policies.SetTrusted(srv.ID, trusted)
}

func (c *Commands) server(name string) (store.Server, error) {
	srv, err := c.core.Store.ServerByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return srv, i18n.Err("cli.servers.noSuch", "name", strconv.Quote(name))
	}
	return srv, err
}

// Conversations lists the conversations, the most recently active first.
func (c *Commands) Conversations() ([]store.Conversation, error) { return c.chat.Conversations("") }

// ConversationMarkdown returns a conversation written as Markdown.
func (c *Commands) ConversationMarkdown(id string) (string, error) {
	md, err := c.chat.Markdown(id)
	if errors.Is(err, store.ErrNotFound) {
		return "", i18n.Err("cli.chat.noSuch", "id", strconv.Quote(id))
	}
	return md, err
}

// SignOut forgets the named remote server's sign-in and returns its name
// as saved.
func (c *Commands) SignOut(name string) (string, error) {
	srv, err := c.signInServer(name)
	if err != nil {
		return "", err
	}
	// A CLI process's manager may not run this server: delete in any case.
	if err := c.core.Manager.SignOut(srv.ID); err != nil && !errors.Is(err, mcp.ErrUnknownServer) && !errors.Is(err, mcp.ErrDisabled) {
		return "", err
	}
	return srv.Name, nil
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
func (c *Commands) Resources(ctx context.Context, server string) (ResourceListView, error) {
	srv, err := c.connected(ctx, server)
	if err != nil {
		return ResourceListView{}, err
	}
	return c.resources.List(srv.ID)
}

// ReadResource reads a resource of the named server whole: each item's
// text (JSON pretty-printed) or bytes.
func (c *Commands) ReadResource(ctx context.Context, server, uri string) (ResourceData, error) {
	srv, err := c.connected(ctx, server)
	if err != nil {
		return ResourceData{}, err
	}
	if _, err := c.resources.Read(srv.ID, uri); err != nil {
		return ResourceData{}, err
	}
	data := ResourceData{URI: uri, Contents: []ResourceItem{}}
	for i := 0; ; i++ {
		item, err := c.resources.item(srv.ID, uri, i)
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
func (c *Commands) Prompts(ctx context.Context, server string) ([]PromptView, error) {
	srv, err := c.connected(ctx, server)
	if err != nil {
		return nil, err
	}
	return c.prompts.List(srv.ID)
}

// GetPrompt returns the messages a prompt of the named server produces with
// the arguments given as a JSON object (argsJSON; "" for none).
func (c *Commands) GetPrompt(ctx context.Context, server, name, argsJSON string) (PromptResultView, error) {
	args, err := parsePromptArgs(argsJSON)
	if err != nil {
		return PromptResultView{}, err
	}
	srv, err := c.connected(ctx, server)
	if err != nil {
		return PromptResultView{}, err
	}
	return c.prompts.Get(srv.ID, name, args)
}

// connected finds the named server and waits until it is connected, with
// the sentences the command line says for a server that is off, needs
// sign-in or cannot be connected (a *hostapi.ConnectError with its log).
// A command line's own core connects only the servers it uses.
func (c *Commands) connected(ctx context.Context, name string) (store.Server, error) {
	srv, err := c.server(name)
	if err != nil {
		return srv, err
	}
	if !srv.Enabled {
		return srv, i18n.Err("cli.turnedOff", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
	}
	if _, err := c.core.Manager.Status(srv.ID); errors.Is(err, mcp.ErrUnknownServer) {
		c.core.Manager.Set(srv)
	}
	wctx, cancel := context.WithTimeout(ctx, hostapi.ConnectTimeout)
	defer cancel()
	if err := c.core.Manager.WaitConnected(wctx, srv.ID); err != nil {
		if errors.Is(err, mcp.ErrNeedsSignIn) {
			return srv, i18n.Err("cli.signinFirst", "server", srv.Name, "quoted", strconv.Quote(srv.Name))
		}
		serverLog, _ := c.core.Manager.Log(srv.ID)
		return srv, &hostapi.ConnectError{Server: srv.Name, Err: err, Log: serverLog}
	}
	return srv, nil
}

// Roots returns the folders the named server may see.
func (c *Commands) Roots(server string) (CLIRoots, error) {
	srv, err := c.server(server)
	if err != nil {
		return CLIRoots{}, err
	}
	return CLIRoots{Name: srv.Name, Roots: append([]string{}, srv.Roots...)}, nil
}

// AddRoot lets the named server see one more folder (an absolute path); a
// connected server is told at once.
func (c *Commands) AddRoot(server, folder string) (CLIRoots, error) {
	srv, err := c.server(server)
	if err != nil {
		return CLIRoots{}, err
	}
	return c.setRoots(srv, append(slices.Clone(srv.Roots), folder))
}

// RemoveRoot stops the named server seeing a folder; a connected server is
// told at once.
func (c *Commands) RemoveRoot(server, folder string) (CLIRoots, error) {
	srv, err := c.server(server)
	if err != nil {
		return CLIRoots{}, err
	}
	folder = filepath.Clean(folder)
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

// SignedIn is what SignIn did: the server's name as saved, and whether it
// was signed in already.
type SignedIn struct {
	Name    string `json:"name"`
	Already bool   `json:"already"`
}

// SignIn signs in to the named remote server (E33) and returns once the
// attempt the sign-in started ended: connected, or not with the reason.
// The consent is the broker's question (its checks, queue and history):
// answered by the command line's answerer when it opened the core, or
// routed to its terminal by the running app (ToolSignIn). Ending ctx stops
// waiting.
func (c *Commands) SignIn(ctx context.Context, name string) (SignedIn, error) {
	srv, err := c.signInServer(name)
	if err != nil {
		return SignedIn{}, err
	}
	m := c.core.Manager
	c.manage(srv)
	wctx, cancel := context.WithTimeout(ctx, hostapi.ConnectTimeout)
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
	deadline := time.Now().Add(mcp.SignInTimeout + hostapi.ConnectTimeout)
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

// ChatTurnHooks hear a chat turn of the command line as it runs (ChatTurn).
// Every field may be nil.
type ChatTurnHooks struct {
	// NotConnected is an enabled server that did not connect in time; the
	// turn goes on without its tools.
	NotConnected func(server string, why error)
	// Started is the turn's new conversation, before the model is asked.
	Started func(conversationID string)
	// Event is each event of the turn as the window gets it, in order; the
	// last is ChatDone or ChatFailed.
	Event func(ChatEvent)
}

// ChatTurn runs one turn of a new conversation, as the window's Send does:
// with the named provider ("" for the default), every enabled server's
// tools (each waited for a while: hooks.NotConnected names those that do
// not connect), and the person's message. It returns once the turn ended
// and is stored. Ending ctx stops the turn (the model, a question, a running
// call), which still ends with its ChatFailed. The turn's questions are the
// broker's: answered by the command line's answerer when it opened the
// core, or routed to its terminal by the running app (ToolChatTurn).
func (c *Commands) ChatTurn(ctx context.Context, provider, message string, hooks ChatTurnHooks) error {
	providerID, err := c.chatProvider(provider)
	if err != nil {
		return err
	}
	c.connectEnabled(ctx, hooks.NotConnected)
	conv, err := c.chat.NewConversation(providerID, "", "", nil)
	if err != nil {
		return err
	}
	if hooks.Started != nil {
		hooks.Started(conv.ID)
	}
	ended := make(chan struct{})
	stop := c.chat.watch(conv.ID, func(ev ChatEvent) {
		if hooks.Event != nil {
			hooks.Event(ev)
		}
		if ev.Kind == ChatDone || ev.Kind == ChatFailed {
			close(ended)
		}
	})
	defer stop()
	if err := c.chat.Send(conv.ID, message); err != nil {
		return err
	}
	select {
	case <-ended:
	case <-ctx.Done(): // Ctrl-C: the turn stops and says so
		c.chat.Stop(conv.ID)
		<-ended
	}
	return nil
}

// StopChatTurn stops the running turn of a conversation (Ctrl-C in the
// terminal whose turn the running app runs).
func (c *Commands) StopChatTurn(conversationID string) { c.chat.Stop(conversationID) }

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
// while for the enabled ones; notConnected (may be nil) hears each that
// does not connect.
func (c *Commands) connectEnabled(ctx context.Context, notConnected func(server string, why error)) {
	servers, _ := c.core.Store.Servers()
	for _, s := range servers {
		c.manage(s)
	}
	wctx, cancel := context.WithTimeout(ctx, hostapi.ConnectTimeout)
	defer cancel()
	for _, s := range servers {
		if !s.Enabled {
			continue
		}
		if err := c.core.Manager.WaitConnected(wctx, s.ID); err != nil && notConnected != nil {
			notConnected(s.Name, err)
		}
	}
}

// PreviewImport previews importing the servers of another app's file.
func (c *Commands) PreviewImport(file string) (importcfg.Preview, error) {
	return c.servers.PreviewImport(file)
}

// Import imports the servers of a previewed file.
func (c *Commands) Import(req ImportRequest) (ImportResult, error) { return c.servers.Import(req) }

// Argument and result objects of the tools below.
type (
	// CLIName is a provider, server or conversation named on the command line.
	CLIName struct {
		Name string `json:"name"`
	}
	// CLIPolicy is `policies set`'s arguments.
	CLIPolicy struct {
		Server string `json:"server"`
		Tool   string `json:"tool,omitempty"`
		Mode   string `json:"mode"`
	}
	// CLITrust is `policies trust`'s arguments.
	CLITrust struct {
		Server  string `json:"server"`
		Trusted bool   `json:"trusted"`
	}
	// CLITested is `providers test`'s result.
	CLITested struct {
		Name   string     `json:"name"`
		Result TestResult `json:"result"`
	}
	// CLIText is a text result.
	CLIText struct {
		Text string `json:"text"`
	}
	// CLIRead is `read`'s arguments.
	CLIRead struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	// CLIPrompt is `prompt`'s arguments: Arguments is a JSON object as
	// typed, "" for none.
	CLIPrompt struct {
		Server    string `json:"server"`
		Name      string `json:"name"`
		Arguments string `json:"arguments,omitempty"`
	}
	// CLIPrompts is `prompts`' result.
	CLIPrompts struct {
		Prompts []PromptView `json:"prompts"`
	}
	// CLIRoot is `servers roots SERVER add|remove PATH`'s arguments.
	CLIRoot struct {
		Server string `json:"server"`
		Path   string `json:"path"`
	}
	// CLIRoots are the folders a server may see, and its name as saved.
	CLIRoots struct {
		Name  string   `json:"name"`
		Roots []string `json:"roots"`
	}
	// CLIChatTurn is a chat turn's arguments.
	CLIChatTurn struct {
		Provider string `json:"provider,omitempty"`
		Message  string `json:"message"`
	}
	// CLIChatTurnEnded is a chat turn's result: how many notifications
	// told the turn (the caller waits for the last before it ends).
	CLIChatTurnEnded struct {
		Notices int `json:"notices"`
	}
	// CLINotConnected is a server that did not connect for a chat turn.
	CLINotConnected struct {
		Server string       `json:"server"`
		Why    i18n.Message `json:"why"`
	}
)

// _meta keys of the notifications/progress of a chat turn: each carries
// one of them, as JSON text so that a tool call's arguments arrive exactly
// as the model wrote them. The notification's own message is the model's
// text, for any client.
const (
	// ChatEventMeta is an event of the turn (a ChatEvent).
	ChatEventMeta = "gatehouse.dev/chatEvent"
	// ChatStartedMeta is the turn's new conversation (its ID).
	ChatStartedMeta = "gatehouse.dev/conversation"
	// ChatNotConnectedMeta is a server left out (a CLINotConnected).
	ChatNotConnectedMeta = "gatehouse.dev/notConnected"
)

// ResourceData is a whole read of a resource, for the command line.
type ResourceData struct {
	URI      string         `json:"uri"`
	Contents []ResourceItem `json:"contents"`
}

// ResourceItem is one item of a ResourceData: its Text (KindText,
// KindJSON pretty-printed) or its bytes in base64 (Data).
type ResourceItem struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType"`
	Kind     string `json:"kind"`
	Size     int    `json:"size"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
}

// Tool names of the Commands, as the running app serves them.
const (
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
	ToolSignOut        = "sign_out"
	ToolListResources  = "list_resources"
	ToolReadResource   = "read_resource"
	ToolListPrompts    = "list_prompts"
	ToolGetPrompt      = "get_prompt"
	ToolServerRoots    = "server_roots"
	ToolAddRoot        = "add_root"
	ToolRemoveRoot     = "remove_root"
	ToolSignIn         = "sign_in"
	ToolChatTurn       = "chat_turn"
	ToolStopChatTurn   = "stop_chat_turn"
)

// cliTools serves c's methods to the command line.
func (c *Commands) cliTools() []hostapi.Tool {
	return []hostapi.Tool{
		hostapi.NewTool(ToolListProviders, "Lists the model providers.", func(context.Context, struct{}) (hostapi.Items[ProviderView], error) {
			list, err := c.Providers()
			return hostapi.Items[ProviderView]{Items: list}, err
		}),
		hostapi.NewTool(ToolAddProvider, "Adds a model provider.", func(_ context.Context, in ProviderInput) (ProviderView, error) {
			return c.AddProvider(in)
		}),
		hostapi.NewTool(ToolRemoveProvider, "Removes a model provider.", func(_ context.Context, in CLIName) (CLIName, error) {
			name, err := c.RemoveProvider(in.Name)
			return CLIName{Name: name}, err
		}),
		hostapi.NewTool(ToolTestProvider, "Lists a provider's models.", func(_ context.Context, in CLIName) (CLITested, error) {
			name, res, err := c.TestProvider(in.Name)
			return CLITested{Name: name, Result: res}, err
		}),
		hostapi.NewTool(ToolListPolicies, "Lists every server's policies.", func(context.Context, struct{}) (hostapi.Items[ServerPolicyView], error) {
			list, err := c.Policies()
			return hostapi.Items[ServerPolicyView]{Items: list}, err
		}),
		hostapi.NewTool(ToolServerPolicy, "Shows a server's policies.", func(_ context.Context, in CLIName) (ServerPolicyView, error) {
			return c.Policy(in.Name)
		}),
		hostapi.NewTool(ToolSetPolicy, "Sets what a server's tool calls do.", func(_ context.Context, in CLIPolicy) (ServerPolicyView, error) {
			return c.SetPolicy(in.Server, in.Tool, in.Mode)
		}),
		hostapi.NewTool(ToolTrustServer, "Trusts a server's read-only claims, or not.", func(_ context.Context, in CLITrust) (ServerPolicyView, error) {
			return c.TrustServer(in.Server, in.Trusted)
		}),
		hostapi.NewTool(ToolConversations, "Lists the conversations.", func(context.Context, struct{}) (hostapi.Items[store.Conversation], error) {
			list, err := c.Conversations()
			return hostapi.Items[store.Conversation]{Items: list}, err
		}),
		hostapi.NewTool(ToolExportChat, "Writes a conversation as Markdown.", func(_ context.Context, in CLIName) (CLIText, error) {
			md, err := c.ConversationMarkdown(in.Name)
			return CLIText{Text: md}, err
		}),
		hostapi.NewTool(ToolPreviewImport, "Previews importing another app's servers from a file (an absolute path).", func(_ context.Context, in CLIName) (importcfg.Preview, error) {
			return c.PreviewImport(in.Name)
		}),
		hostapi.NewTool(ToolSignOut, "Forgets a remote server's sign-in.", func(_ context.Context, in CLIName) (CLIName, error) {
			name, err := c.SignOut(in.Name)
			return CLIName{Name: name}, err
		}),
		hostapi.NewTool(ToolImport, "Imports the servers of a previewed file.", func(_ context.Context, in ImportRequest) (ImportResult, error) {
			return c.Import(in)
		}),
		hostapi.NewTool(ToolListResources, "Lists a server's resources and resource templates.", func(ctx context.Context, in CLIName) (ResourceListView, error) {
			return c.Resources(ctx, in.Name)
		}),
		hostapi.NewTool(ToolReadResource, "Reads a server's resource whole.", func(ctx context.Context, in CLIRead) (ResourceData, error) {
			return c.ReadResource(ctx, in.Server, in.URI)
		}),
		hostapi.NewTool(ToolListPrompts, "Lists a server's prompts.", func(ctx context.Context, in CLIName) (CLIPrompts, error) {
			list, err := c.Prompts(ctx, in.Name)
			return CLIPrompts{Prompts: list}, err
		}),
		hostapi.NewTool(ToolGetPrompt, "Gets the messages of a server's prompt.", func(ctx context.Context, in CLIPrompt) (PromptResultView, error) {
			return c.GetPrompt(ctx, in.Server, in.Name, in.Arguments)
		}),
		hostapi.NewTool(ToolServerRoots, "Lists the folders a server may see.", func(_ context.Context, in CLIName) (CLIRoots, error) {
			return c.Roots(in.Name)
		}),
		hostapi.NewTool(ToolAddRoot, "Lets a server see a folder (an absolute path).", func(_ context.Context, in CLIRoot) (CLIRoots, error) {
			return c.AddRoot(in.Server, in.Path)
		}),
		hostapi.NewTool(ToolRemoveRoot, "Stops a server seeing a folder.", func(_ context.Context, in CLIRoot) (CLIRoots, error) {
			return c.RemoveRoot(in.Server, in.Path)
		}),
		hostapi.NewCallerTool(ToolSignIn, "Signs in to a remote server; its consent is asked of this client.", c.signInFor),
		hostapi.NewCallerTool(ToolChatTurn, "Runs a chat turn in a new conversation; its text and calls are told as progress, its questions asked of this client.", c.chatTurnFor),
		hostapi.NewTool(ToolStopChatTurn, "Stops a conversation's running turn.", func(_ context.Context, in CLIName) (struct{}, error) {
			c.StopChatTurn(in.Name)
			return struct{}{}, nil
		}),
	}
}

// signInFor signs in for the command line: the server's sign-in consent is
// asked in its terminal.
func (c *Commands) signInFor(ctx context.Context, caller *hostapi.Caller, in CLIName) (SignedIn, error) {
	srv, err := c.signInServer(in.Name)
	if err != nil {
		return SignedIn{}, err
	}
	release := caller.Route(func(q *mcp.Question) bool { return q.Kind == mcp.KindSignIn && q.Server.ID == srv.ID })
	defer release()
	return c.SignIn(ctx, in.Name)
}

// chatTurnFor runs a chat turn for the command line: its events go to it
// as progress notifications, and its questions are asked in its terminal —
// the approvals of its tool calls, and the form and URL requests of the
// servers while its calls run on them. (A sampling request is for the
// window, which reviews them.)
func (c *Commands) chatTurnFor(ctx context.Context, caller *hostapi.Caller, in CLIChatTurn) (CLIChatTurnEnded, error) {
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
	running := map[string]string{} // call ID → server ID, while it runs
	notify := func(text, key string, v any) {
		b, err := json.Marshal(v)
		if err == nil {
			err = caller.Notify(ctx, text, sdk.Meta{key: string(b)})
		}
		if err != nil && ctx.Err() == nil {
			log.Printf("gatehouse: telling the command line about its chat turn: %v", err)
		}
	}
	err := c.ChatTurn(ctx, in.Provider, in.Message, ChatTurnHooks{
		NotConnected: func(server string, why error) {
			notify("", ChatNotConnectedMeta, CLINotConnected{Server: server, Why: i18n.ErrorMessage(why)})
		},
		Started: func(id string) {
			mu.Lock()
			conversation = id
			mu.Unlock()
			notify("", ChatStartedMeta, id)
		},
		Event: func(ev ChatEvent) {
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
		},
	})
	return CLIChatTurnEnded{Notices: caller.Notified()}, err
}
