package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/lineio"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Options configures New.
type Options struct {
	Store   *store.Store
	Manager *mcp.Manager
	Broker  *mcp.Broker
	// Settings are the person's Tool permissions, the chat's (an app's own
	// modes go over them).
	Settings chat.ToolSettings
	// AppSaved, when set, is told that the gateway saved an app's own
	// mode of one of the server's tools (the person's "Always allow" on a
	// question about its call): Settings → Connected apps shows it.
	AppSaved func(appID, serverID string)
	// Version is the app's version, told to clients.
	Version string
	// CallTimeout is the time limit of one tool call (Settings); nil or
	// 0: none.
	CallTimeout func() time.Duration
	// Launcher says what launched a process (the gateway's pipe); nil
	// reads /proc (ReadLauncher).
	Launcher func(pid int) Launcher
	// Limits bound each client; the zero value is DefaultLimits.
	Limits Limits
	// OnAppsChanged, if set, is told the ID of an app whose record the
	// gateway changed: an app seen (a session began; a new app recorded)
	// or its calls counted (at most every countEvery). It must not block;
	// the window's list follows it.
	OnAppsChanged func(appID string)
}

// Limits bound what one client may ask of Gatehouse.
type Limits struct {
	// InFlight is the most requests of one client answered at a time;
	// more are refused at once.
	InFlight int
	// PerSecond and Burst rate-limit a client's requests: beyond them its
	// requests are refused with a sentence saying why.
	PerSecond float64
	Burst     int
	// AnswerWait is the longest one message may wait for the client to
	// read it: a client that stopped reading is then dropped, and the
	// answers of its requests stop piling up (lineio.NewBoundedWriter).
	// 0: no bound.
	AnswerWait time.Duration
}

// MaxMessage bounds one message a client sends on the socket: a tool
// call's arguments fit (a file to write, say); a client that sends more in
// one message is disconnected, so that its requests in flight hold at
// most InFlight times this much.
const MaxMessage = 4 << 20

// DefaultLimits are a client's limits unless Options says otherwise:
// enough for an agent that lists everything and calls tools in parallel,
// not for one that floods.
var DefaultLimits = Limits{InFlight: 16, PerSecond: 20, Burst: 60, AnswerWait: 30 * time.Second}

// A Gateway serves the person's servers to other apps, one MCP session per
// connection, until Close. It is safe for concurrent use.
type Gateway struct {
	opts Options
	ctx  context.Context // ends with Close
	stop context.CancelFunc

	reloadMu sync.Mutex // one reading of the lists at a time

	mu       sync.Mutex
	lists    []serverLists // the servers' lists, in the store's order: only connected ones
	loaded   bool          // lists was read once
	dirty    map[string]bool
	calls    map[string]int64 // calls counted since the last writing, by app
	conns    map[*conn]struct{}
	listener *net.UnixListener
	closed   bool
	wake     chan struct{}
	wg       sync.WaitGroup

	handedOver atomic.Int64 // sessions served on a client's own pipes (serveSocket)
	forwarded  atomic.Int64 // calls that went the forwarded way (forward.go)
	serverInfo []byte       // Gatehouse as a server, in JSON (forward.go's completed)

	fingerprints mcp.FingerprintCache // of the tools called (chat.ConsentRequest)

	subsMu sync.Mutex // one change of the subscriptions at a time (subscriptions.go)
	subs   map[subscription]map[*conn]bool
}

// serverLists are what one server offers, as its last listing said.
type serverLists struct {
	id, name  string
	tools     []*sdk.Tool
	resources []*sdk.Resource
	templates []*sdk.ResourceTemplate
	prompts   []*sdk.Prompt
	// subscribe is set when the server lets clients subscribe to its
	// resources' updates.
	subscribe bool
}

// New returns a gateway serving nothing yet (ServeUnix, Connect).
func New(opts Options) *Gateway {
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits
	}
	if opts.Launcher == nil {
		opts.Launcher = ReadLauncher
	}
	ctx, stop := context.WithCancel(context.Background())
	g := &Gateway{opts: opts, ctx: ctx, stop: stop, dirty: map[string]bool{}, calls: map[string]int64{}, conns: map[*conn]struct{}{}, wake: make(chan struct{}, 1),
		subs: map[subscription]map[*conn]bool{}}
	g.serverInfo, _ = json.Marshal(g.implementation())
	g.wg.Add(2)
	go g.follow()
	go g.countCalls()
	return g
}

// implementation is Gatehouse as the server of each client.
func (g *Gateway) implementation() *sdk.Implementation {
	return &sdk.Implementation{Name: "gatehouse", Title: "Gatehouse", Version: g.opts.Version}
}

// countEvery is how often the calls counted are written to the data file:
// a write waits for the disk, which a call should not.
const countEvery = time.Second

// counted counts one call of the app, written within countEvery.
func (g *Gateway) counted(appID string) {
	g.mu.Lock()
	g.calls[appID]++
	g.mu.Unlock()
}

// countCalls writes the calls counted, every countEvery and at Close.
func (g *Gateway) countCalls() {
	defer g.wg.Done()
	tick := time.NewTicker(countEvery)
	defer tick.Stop()
	for {
		select {
		case <-g.ctx.Done():
			g.writeCalls()
			return
		case <-tick.C:
			g.writeCalls()
		}
	}
}

func (g *Gateway) writeCalls() {
	g.mu.Lock()
	calls := g.calls
	g.calls = map[string]int64{}
	g.mu.Unlock()
	for id, n := range calls {
		if g.opts.Store.AddClientCalls(id, n) == nil {
			g.appChanged(id)
		}
	}
}

// appChanged tells Options.OnAppsChanged that the app's record changed.
func (g *Gateway) appChanged(id string) {
	if g.opts.OnAppsChanged != nil {
		g.opts.OnAppsChanged(id)
	}
}

// ServeUnix listens on path (applink.Listen: 0600 in a 0700 folder, a
// crashed app's socket replaced) and serves this user's processes that
// connect there, in the background, until Close. Each connection is one
// client, launched by the process that launched the one connecting.
func (g *Gateway) ServeUnix(path string) error {
	l, err := applink.Listen(path)
	if err != nil {
		return fmt.Errorf("serving the gateway: %w", err)
	}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		l.Close()
		return net.ErrClosed
	}
	g.listener = l
	g.mu.Unlock()
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		applink.AcceptPeers(l, "gateway", nil, func(c *net.UnixConn, p applink.Peer) {
			g.serveSocket(c, g.opts.Launcher(p.PID))
		})
	}()
	return nil
}

// Serve serves one client reading in and writing out (newline-delimited
// JSON-RPC: its standard output and input, or a socket) in the
// background, until it leaves or Close; the session's Close closes both.
// A message longer than MaxMessage ends the session. launcher is what
// Gatehouse knows of the program that launched the client.
func (g *Gateway) Serve(ctx context.Context, in io.ReadCloser, out io.WriteCloser, launcher Launcher) (*sdk.ServerSession, error) {
	c := newConn(g, launcher)
	c.streams = []io.Closer{out, in}
	f := &forwarding{c: c, out: lineio.NewBoundedWriter(out, g.opts.Limits.AnswerWait), calls: map[string]context.CancelFunc{}}
	t := &sdk.IOTransport{Reader: lineio.NewTap(in, MaxMessage, f.take), Writer: f.out, MaxLineLength: MaxMessage}
	ss, err := c.srv.Connect(ctx, t, nil)
	if err != nil {
		c.cancel()
		return nil, fmt.Errorf("serving a gateway session: %w", err)
	}
	c.mu.Lock()
	c.sessionRef = ss // before Close can see c
	c.mu.Unlock()
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		c.close()
		return nil, net.ErrClosed
	}
	g.conns[c] = struct{}{}
	g.wg.Add(1) // under g.mu: Close, once it has the lock, waits for this session
	g.mu.Unlock()
	go func() {
		defer g.wg.Done()
		_ = ss.Wait()
		c.cancel() // a client that leaves cancels its calls on the servers
		f.drain()
		g.unsubscribeAll(c, nil)
		g.mu.Lock()
		delete(g.conns, c)
		g.mu.Unlock()
	}()
	return ss, nil
}

// Changed tells the gateway that a server's lists or its connection
// changed (the manager's OnListsChanged and OnStatus; "" for every
// server): the lists are read again shortly, and each client whose view
// changed is told.
func (g *Gateway) Changed(serverID string) {
	g.mu.Lock()
	g.dirty[serverID] = true
	g.mu.Unlock()
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// AppChanged tells the gateway that the person changed what an app may
// do (store.PutClientAppSettings): its sessions read its record again,
// show the servers it may see now (telling it with list_changed), and
// refuse everything once it is cut off.
func (g *Gateway) AppChanged(id string) {
	for _, c := range g.connections() {
		c.reread(id)
	}
}

// changeDelay gathers the changes that come together (a server connecting
// says its status, then its lists) into one reading.
const changeDelay = 50 * time.Millisecond

// follow reads the lists again after changes, until Close.
func (g *Gateway) follow() {
	defer g.wg.Done()
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-g.wake:
		}
		select {
		case <-g.ctx.Done():
			return
		case <-time.After(changeDelay):
		}
		g.reload(g.ctx)
		for _, c := range g.connections() {
			c.sync()
		}
	}
}

// connections returns the clients connected now.
func (g *Gateway) connections() []*conn {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]*conn, 0, len(g.conns))
	for c := range g.conns {
		out = append(out, c)
	}
	return out
}

// listTimeout bounds reading one server's resource templates.
const listTimeout = 10 * time.Second

// reload reads every connected server's lists.
func (g *Gateway) reload(ctx context.Context) {
	g.reloadMu.Lock()
	defer g.reloadMu.Unlock()
	g.mu.Lock()
	g.dirty = map[string]bool{} // changes from now on are read again
	g.mu.Unlock()
	servers, err := g.opts.Store.Servers()
	if err != nil {
		return
	}
	g.mu.Lock()
	before := make(map[string]serverLists, len(g.lists))
	for _, l := range g.lists {
		before[l.id] = l
	}
	g.mu.Unlock()
	var lists []serverLists
	for _, srv := range servers {
		if !srv.Enabled {
			continue
		}
		peer, err := g.opts.Manager.Peer(srv.ID)
		if err != nil {
			// Not connected: it offers nothing now, unless it is on its
			// way back after a crash, when a call reconnects it at once
			// (Manager.Await): what it offered stays offered meanwhile.
			if l, ok := before[srv.ID]; ok && g.reconnecting(srv.ID) {
				lists = append(lists, l)
			}
			continue
		}
		tools, err := g.opts.Manager.Tools(srv.ID)
		if err != nil {
			continue
		}
		l := serverLists{id: srv.ID, name: peer.Server.Name, tools: tools}
		l.resources, _ = g.opts.Manager.Resources(srv.ID)
		l.prompts, _ = g.opts.Manager.Prompts(srv.ID)
		// Templates are not kept by the manager: read now (a server
		// without resources says so at once).
		lctx, cancel := context.WithTimeout(ctx, listTimeout)
		if rl, err := g.opts.Manager.ResourceList(lctx, srv.ID); err == nil {
			l.templates, l.subscribe = rl.Templates, rl.Subscribe
		}
		cancel()
		lists = append(lists, l)
	}
	g.mu.Lock()
	g.lists, g.loaded = lists, true
	g.mu.Unlock()
}

// reconnecting reports whether a server that was connected is on its way
// back: connecting again, or between attempts after its connection broke.
func (g *Gateway) reconnecting(id string) bool {
	st, err := g.opts.Manager.Status(id)
	return err == nil && (st.State == mcp.StateConnecting || st.State == mcp.StateError && st.Recovers)
}

// firstWait bounds how long a client's first listing waits for the
// servers still connecting: an app that `gatehouse gateway` just started
// is connecting all of them, and a client that lists once (a command-line
// client, an agent's start) would otherwise see none.
const firstWait = 10 * time.Second

// waitConnecting waits, at most firstWait, until no enabled server is
// still connecting (each is connected, failed or needs a sign-in).
func (g *Gateway) waitConnecting(ctx context.Context) {
	servers, err := g.opts.Store.Servers()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, firstWait)
	defer cancel()
	var wg sync.WaitGroup
	for _, srv := range servers {
		if !srv.Enabled {
			continue
		}
		if st, err := g.opts.Manager.Status(srv.ID); err != nil || st.State != mcp.StateConnecting {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = g.opts.Manager.WaitConnected(ctx, srv.ID)
			g.Changed(srv.ID)
		}()
	}
	wg.Wait()
}

// current returns the servers' lists, reading them first when they were
// never read or a change waits to be read.
func (g *Gateway) current() []serverLists {
	g.mu.Lock()
	stale := !g.loaded || len(g.dirty) > 0
	g.mu.Unlock()
	if stale {
		g.reload(g.ctx)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lists
}

// Close stops listening, ends every client's session (cancelling their
// calls) and removes the socket.
func (g *Gateway) Close() error {
	g.mu.Lock()
	g.closed = true
	l := g.listener
	conns := make([]*conn, 0, len(g.conns))
	for c := range g.conns {
		conns = append(conns, c)
	}
	g.mu.Unlock()
	g.stop()
	var err error
	if l != nil {
		err = l.Close()
	}
	for _, c := range conns {
		c.close()
	}
	g.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}
