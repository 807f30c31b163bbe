package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/gatehouse-app/gatehouse/appframe"
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/gateway"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Version is the app version, set at build time with
// -ldflags "-X github.com/gatehouse-app/gatehouse/app.Version=...".
var Version = "0.1.0-dev"

// DemoServerName is the name the built-in demo server gets on first start.
const DemoServerName = "Demo server"

// Emitter sends an event to the UI. The GUI's emits through the Wails
// runtime; tests record; the CLI has none.
type Emitter interface {
	Emit(name string, data any)
}

// Core is what the GUI and the CLI share: the open store, the manager and
// the elicitation broker.
type Core struct {
	Store   *store.Store
	Manager *mcp.Manager
	Broker  *mcp.Broker
	events  Emitter
	secrets *secretStore
	tokens  *tokenStore
	// providers are ProviderFor's, kept between turns.
	providers providerCache

	answererMu   sync.Mutex
	stopAnswerer func() // stops the current blocking answerer, if any

	samplingMu sync.Mutex
	sampling   bool // EnableSampling was called (the window reviews requests)

	// cliServer serves the command line: on the socket while the window is
	// open, in memory to a command line that opened this core (cliserver.go).
	cliMu     sync.Mutex
	cliServer *applink.Server
	// gateway serves the person's servers to other apps while the window
	// is open (gateway.go).
	gatewayMu sync.Mutex
	gateway   *gateway.Gateway
	// appCalls are the recent calls of tools with an interface, appContext
	// the model context apps gave conversations (MCP Apps, apps_book.go).
	appCalls   callBook
	appContext contextBook
	// serverOffMu guards serverOffHooks: what closes a server's apps when
	// the person turns it off or removes it (onServerOff).
	serverOffMu    sync.Mutex
	serverOffHooks []func(serverID string)
	// chat runs the turns of the window and of the command line (Chat).
	chatOnce sync.Once
	chat     *ChatService

	// listMu numbers the server and provider lists in the order they were
	// read (listVersion), for events and calls alike: events may reach the
	// window out of order, and it shows only a list newer than its own.
	listMu      sync.Mutex
	listVersion uint64
	// logEvents tells the window a server's log changed, listEvents that
	// its lists changed, resourceEvents that a subscribed resource changed,
	// each coalesced (live.go).
	logEvents      logEvents
	listEvents     keyedEvents[string]
	resourceEvents keyedEvents[ResourceUpdate]
	// appEvents tells the window an app's record changed (clientapps.go).
	appEvents mcp.Coalescer[string]
}

// CoreOptions configures OpenCore.
type CoreOptions struct {
	// DataDir holds the data file; empty means store.DefaultDir().
	DataDir string
	// DemoCommand is the program that runs `demo-server` (normally this
	// executable); empty means os.Executable().
	DemoCommand string
}

// OpenCore opens the store (failing fast with store.ErrLocked when another
// Gatehouse holds it), adds the demo server on the very first start, and
// creates a manager with no sessions yet: call ConnectAll (GUI) or Connect
// (CLI, one server).
func OpenCore(opts CoreOptions) (*Core, error) {
	dir := opts.DataDir
	if dir == "" {
		d, err := store.DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	st, err := store.Open(dir, nil)
	if err != nil {
		return nil, err
	}
	c := &Core{Store: st}
	c.logEvents.emit = func(id string) { c.emit(EventLog, id) }
	c.listEvents.send = func(id string) {
		c.emit(EventTools, id)
		c.emit(EventResources, id)
		c.emit(EventPrompts, id)
	}
	c.resourceEvents.send = func(u ResourceUpdate) { c.emit(EventResourceUpdated, u) }
	c.appEvents = mcp.Coalescer[string]{Every: appEventEvery, Send: func(id string) { c.emit(EventClientApps, id) }}
	if err := c.seedDemo(opts.DemoCommand); err != nil {
		st.Close()
		return nil, err
	}
	c.Broker = mcp.NewBroker(mcp.BrokerOptions{Store: st})
	c.SetAnswerer(nobody{})
	c.secrets = newSecretStore(st)
	c.tokens = &tokenStore{secrets: c.secrets}
	c.Manager = mcp.NewManager(mcp.Options{
		ClientName:    "gatehouse",
		ClientVersion: Version,
		Asker:         c.Broker,
		Tokens:        c.tokens,
		OnStatus: func(st mcp.Status) {
			c.emitServers()
			c.gatewayChanged(st.ServerID)
		},
		OnListsChanged: func(id string) {
			c.listEvents.put(id)
			c.gatewayChanged(id)
		},
		OnResourceUpdated: func(id, uri string) {
			// The window hears of what it subscribed to, the gateway's
			// clients of theirs.
			if c.Manager.SubscribedFor(id, uri, "") {
				c.resourceEvents.put(ResourceUpdate{ServerID: id, URI: uri})
			}
			c.gatewayResourceUpdated(id, uri)
		},
		OnLog: c.logEvents.changed,
	})
	return c, nil
}

// seedDemo adds the demo server the first time a data file is used, so a
// newcomer sees a working connection. It is never re-added once removed.
func (c *Core) seedDemo(command string) error {
	first, err := c.Store.MarkInitialized()
	if err != nil || !first {
		return err
	}
	if command == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("finding this program to run the demo server: %w", err)
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		command = exe
	}
	_, err = c.Store.PutServer(store.Server{
		Name: DemoServerName, Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: command, Args: []string{"demo-server"}},
	})
	if errors.Is(err, store.ErrDuplicateName) {
		return nil
	}
	return err
}

// ApplyLanguage makes Go's sentences render in the language a choice means
// ("" for the system's, from the environment: see i18n.FromEnv), and the
// window's WebKit follow it (its date and time fields: appframe.SetLanguage).
func ApplyLanguage(choice string) {
	l := i18n.Choice(choice).Resolve(systemLanguage())
	i18n.SetLanguage(l)
	appframe.SetLanguage(string(l))
}

// systemLanguage is the language the environment asks for.
func systemLanguage() i18n.Language { return i18n.FromEnv(os.Getenv) }

// isDemo reports whether srv runs the built-in demo server, as seedDemo
// sets it up: this program (or a copy of it) with the one argument
// demo-server. Its name does not matter; the person may rename it.
func isDemo(srv store.Server) bool {
	return srv.Transport == store.TransportStdio && srv.Stdio != nil &&
		len(srv.Stdio.Args) == 1 && srv.Stdio.Args[0] == "demo-server"
}

// Chat returns the core's one chat service: the window's and the command
// line's turns run in it, so the window can stop a turn the command line
// started, and the app's exit waits for every turn (StopAll).
func (c *Core) Chat() *ChatService {
	c.chatOnce.Do(func() { c.chat = NewChatService(c, c.ProviderFor) })
	return c.chat
}

// SetEmitter sets where UI events go (the GUI sets it on start-up).
func (c *Core) SetEmitter(e Emitter) { c.events = e }

// SetAnswerer sets who answers the broker's questions one at a time (a
// blocking mcp.Answerer: a test's), or nil when the window answers them
// through the broker's operations (QuestionService). Until it is set,
// questions are cancelled unseen; a command-line command answers only the
// questions routed to its terminal (applink).
func (c *Core) SetAnswerer(a mcp.Answerer) {
	c.answererMu.Lock()
	defer c.answererMu.Unlock()
	if c.stopAnswerer != nil {
		c.stopAnswerer()
		c.stopAnswerer = nil
	}
	if a != nil {
		c.stopAnswerer = c.Broker.AnswerWith(a)
	}
}

// nobody answers every question with cancel, unseen: the core's answerer
// until the window or a test sets one (a command-line command's core keeps
// it for the questions not routed to its terminal).
type nobody struct{}

func (nobody) Present(context.Context, *mcp.Question) (mcp.Response, error) {
	return mcp.Response{Action: mcp.ActionCancel}, nil
}
func (nobody) Notify(mcp.Notice)              {}
func (nobody) OpenedChanged([]mcp.OpenedPage) {}

// ConnectAll hands every configured server to the manager; enabled ones
// start connecting in the background.
func (c *Core) ConnectAll() error {
	servers, err := c.Store.Servers()
	if err != nil {
		return err
	}
	for _, s := range servers {
		c.Manager.Set(s)
	}
	return nil
}

// Close disconnects every server (stopping their processes) and closes the store.
func (c *Core) Close() error {
	c.StopGateway()
	c.StopCLI()
	c.Manager.Close()
	c.Broker.FlushHistory() // nothing recorded is lost
	return c.Store.Close()
}

func (c *Core) emit(name string, data any) {
	if c.events != nil {
		c.events.Emit(name, data)
	}
}

// versioned reads a list and gives it the next version (listMu).
func versioned[T any](c *Core, read func() ([]T, error)) (uint64, []T, error) {
	c.listMu.Lock()
	defer c.listMu.Unlock()
	list, err := read()
	if err != nil {
		return 0, nil, err
	}
	c.listVersion++
	return c.listVersion, list, nil
}

func (c *Core) serverList() (ServerList, error) {
	v, views, err := versioned(c, c.serverViews)
	return ServerList{Version: v, Servers: views}, err
}

func (c *Core) emitServers() {
	if c.events == nil {
		return
	}
	if list, err := c.serverList(); err == nil {
		c.events.Emit(EventServers, list)
	}
}

// serverName is the name the person gave a server, or its ID when it is
// gone.
func (c *Core) serverName(id string) string {
	if srv, err := c.Store.Server(id); err == nil {
		return srv.Name
	}
	return id
}

// onServerOff registers hook, called with a server's ID when the person
// turns the server off or removes it (an AppsService closes its apps).
func (c *Core) onServerOff(hook func(serverID string)) {
	c.serverOffMu.Lock()
	defer c.serverOffMu.Unlock()
	c.serverOffHooks = append(c.serverOffHooks, hook)
}

// serverOff calls the hooks of onServerOff for the server id.
func (c *Core) serverOff(id string) {
	c.serverOffMu.Lock()
	hooks := slices.Clone(c.serverOffHooks)
	c.serverOffMu.Unlock()
	for _, hook := range hooks {
		hook(id)
	}
}
