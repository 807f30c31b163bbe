package gateway

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
	"golang.org/x/time/rate"

	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// conn is one client's session: its own MCP server, offering what that
// app may see.
type conn struct {
	g        *Gateway
	srv      *sdk.Server
	launcher Launcher
	// streams are the client's input and output (Serve), closed by close
	// before the session: a write waiting for a client that stopped reading
	// then ends, and the session with it.
	streams []io.Closer
	// ctx ends when the client leaves or the gateway closes: its calls end.
	ctx    context.Context
	cancel context.CancelFunc

	inFlight chan struct{}
	listens  chan struct{} // subscriptions/listen streams open
	limiter  *rate.Limiter

	syncMu     sync.Mutex // one sync at a time
	rereadMu   sync.Mutex // one reading of the app's record at a time: the latest wins
	identifyMu sync.Mutex // the first requests wait for one identification

	mu         sync.Mutex
	identified bool
	client     *mcp.Client
	app        store.ClientApp
	tools      map[string]route // offered name → the server's tool
	prompts    map[string]route // offered name → the server's prompt
	resources  map[string]route // URI → its server (Name: the server's name)
	templates  map[string]route // URI template → its server
	shown      map[string]string
	allowed    map[store.ToolKey]*store.ToolSeen // allowed for this session
	subscribed map[string]string                 // URI → its server, subscribed to (subscriptions.go)
	updates    map[string]bool                   // URIs whose update waits to be sent
	sending    bool                              // a goroutine sends the updates
	sessionRef *sdk.ServerSession
}

// route is where an offered name leads: a server and its own name there.
type route struct {
	serverID, serverName, name string
}

func newConn(g *Gateway, launcher Launcher) *conn {
	c := &conn{g: g, launcher: launcher, inFlight: make(chan struct{}, g.opts.Limits.InFlight), listens: make(chan struct{}, maxListens),
		limiter: rate.NewLimiter(rate.Limit(g.opts.Limits.PerSecond), g.opts.Limits.Burst),
		tools:   map[string]route{}, prompts: map[string]route{}, resources: map[string]route{}, templates: map[string]route{},
		shown: map[string]string{}, allowed: map[store.ToolKey]*store.ToolSeen{}, subscribed: map[string]string{}}
	c.ctx, c.cancel = context.WithCancel(g.ctx)
	c.srv = sdk.NewServer(g.implementation(), &sdk.ServerOptions{
		// Declared from the start: the lists fill in once the client says
		// who it is, and change with Gatehouse's servers.
		Capabilities: &sdk.ServerCapabilities{
			Tools:       &sdk.ToolCapabilities{ListChanged: true},
			Resources:   &sdk.ResourceCapabilities{ListChanged: true},
			Prompts:     &sdk.PromptCapabilities{ListChanged: true},
			Completions: &sdk.CompletionCapabilities{},
		},
		CompletionHandler:  c.complete,
		SubscribeHandler:   c.subscribe,
		UnsubscribeHandler: c.unsubscribe,
		Instructions:       "Gatehouse: the tools, resources and prompts of the person's MCP servers. Each name says which server it belongs to. Every tool call is under the person's consent in Gatehouse's window.",
	})
	c.srv.AddReceivingMiddleware(c.guard)
	return c
}

// close ends the session, without waiting for the client to read what was
// written to it: the go-sdk's session waits for the answers being written
// before it closes its streams, and an answer waits for the client.
func (c *conn) close() {
	c.cancel()
	for _, s := range c.streams {
		_ = s.Close()
	}
	c.mu.Lock()
	ss := c.sessionRef
	c.mu.Unlock()
	if ss != nil {
		_ = ss.Close()
	}
}

// needsClient are the methods that show or use the person's servers: the
// client must have said who it is (and not be cut off) first.
var needsClient = map[string]bool{
	"tools/list": true, "tools/call": true, "resources/list": true, "resources/templates/list": true,
	"resources/read": true, "prompts/list": true, "prompts/get": true, "completion/complete": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
}

// guard bounds a client's requests (in flight, rate) and makes sure it
// said who it is before it sees anything.
func (c *conn) guard(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		// A subscriptions/listen (2026-07-28) stays open while the client
		// listens: bounded on its own, not among the requests in flight.
		slots := c.inFlight
		if method == methodListen {
			slots = c.listens
		}
		release, err := c.reserve(slots)
		if err != nil {
			return nil, err
		}
		defer release()
		if needsClient[method] || method == methodListen && listensToResources(req) {
			if err := c.identify(req); err != nil {
				return nil, err
			}
		}
		// The client leaving (or the gateway closing) ends the request too.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(c.ctx, cancel)
		defer stop()
		res, err := next(ctx, method, req)
		if err == nil && (method == "initialize" || method == "server/discover") {
			c.advertise(req, res)
		}
		return res, err
	}
}

// reserve lets one more request of the client through its rate limit and
// takes one of slots for it (release gives it back), or says why not.
func (c *conn) reserve(slots chan struct{}) (release func(), err error) {
	if !c.limiter.Allow() {
		return nil, refusal(i18n.M("gateway.error.flood"))
	}
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, nil
	default:
		return nil, refusal(i18n.M("gateway.error.busy", "max", cap(slots)))
	}
}

// methodListen is the request a 2026-07-28 client listens for
// notifications with, its subscriptions among them.
const methodListen = "subscriptions/listen"

// listensToResources reports whether a subscriptions/listen subscribes to
// resources: the client must have said who it is, and see the resources,
// before the go-sdk takes their URIs. One that listens only for
// list_changed is taken at once, so that it hears of every change.
func listensToResources(req sdk.Request) bool {
	p, ok := req.GetParams().(*sdk.SubscriptionsListenParams)
	return ok && p != nil && p.Notifications != nil && len(p.Notifications.ResourceSubscriptions) > 0
}

// maxListens bounds a client's subscriptions/listen streams open at once.
const maxListens = maxSubscriptions + 4

// advertise says, in the capabilities of an initialize or server/discover
// result, that the client may subscribe to resources only when a server
// the app may see lets clients subscribe (the servers still connecting
// are waited for, at most firstWait).
func (c *conn) advertise(req sdk.Request, res sdk.Result) {
	var caps *sdk.ServerCapabilities
	switch r := res.(type) {
	case *sdk.InitializeResult:
		caps = r.Capabilities
	case *sdk.DiscoverResult:
		caps = r.Capabilities
	}
	if caps == nil || caps.Resources == nil {
		return
	}
	c.g.waitConnecting(c.ctx)
	info := clientInfo(req)
	app, err := c.g.opts.Store.ClientApp(store.ClientAppID(info.Name, c.launcher.Exe))
	if err != nil {
		app = store.ClientApp{} // a first session sees every server
	}
	caps.Resources.Subscribe = c.g.subscribable(app)
}

// refusal is a request refused with a sentence the client shows.
func refusal(m i18n.Message) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: m.String()}
}

// identify learns who the client says it is, the first time, records it
// (store.SeeClientApp) and fills its lists; a client the person cut off is
// refused.
func (c *conn) identify(req sdk.Request) error {
	c.identifyMu.Lock()
	defer c.identifyMu.Unlock()
	c.mu.Lock()
	done, app := c.identified, c.app
	c.mu.Unlock()
	if !done {
		c.g.waitConnecting(c.ctx)
		info := clientInfo(req)
		rec, err := c.g.opts.Store.SeeClientApp(store.ClientApp{Name: info.Name, Version: info.Version,
			Launcher: c.launcher.Exe, Command: c.launcher.Command})
		if err != nil {
			return refusal(i18n.M("gateway.error.store", "detail", err))
		}
		c.g.appChanged(rec.ID)
		c.mu.Lock()
		c.identified, c.app = true, rec
		c.client = &mcp.Client{Name: rec.Name, Version: rec.Version, Launcher: c.launcher.Exe, Command: c.launcher.Command, PID: c.launcher.PID}
		c.mu.Unlock()
		app = rec
		c.sync()
	}
	if app.CutOff {
		return refusal(i18n.M("gateway.error.cutOff", "client", app.Name))
	}
	return nil
}

// reread reads the app's record again when this session is that app's,
// and shows what it may see now.
func (c *conn) reread(id string) {
	c.rereadMu.Lock()
	c.mu.Lock()
	mine := c.identified && c.app.ID == id
	c.mu.Unlock()
	if !mine {
		c.rereadMu.Unlock()
		return
	}
	rec, err := c.g.opts.Store.ClientApp(id)
	if err == nil {
		c.mu.Lock()
		c.app = rec
		c.mu.Unlock()
	}
	c.rereadMu.Unlock()
	if err == nil {
		c.sync()
		// What it may no longer see it no longer hears of.
		c.g.unsubscribeAll(c, func(serverID string) bool { return !rec.CutOff && rec.Sees(serverID) })
	}
}

// clientInfo is what the client says it is: in initialize (2025-11-25),
// or in each request's _meta (2026-07-28).
func clientInfo(req sdk.Request) sdk.Implementation {
	if ss, ok := req.GetSession().(*sdk.ServerSession); ok {
		if ip := ss.InitializeParams(); ip != nil && ip.ClientInfo != nil {
			return *ip.ClientInfo
		}
	}
	if p := req.GetParams(); p != nil {
		if raw, ok := p.GetMeta()[sdk.MetaKeyClientInfo]; ok {
			var info sdk.Implementation
			if b, err := json.Marshal(raw); err == nil && json.Unmarshal(b, &info) == nil {
				return info
			}
		}
	}
	return sdk.Implementation{}
}

// sync makes the client's lists what its servers offer now, telling it
// what changed (the go-sdk sends list_changed).
func (c *conn) sync() {
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	c.mu.Lock()
	identified, app := c.identified, c.app
	c.mu.Unlock()
	if !identified {
		return
	}
	var lists []serverLists // a cut-off app sees nothing
	for _, l := range c.g.current() {
		if !app.CutOff && app.Sees(l.id) {
			lists = append(lists, l)
		}
	}
	tools := c.syncTools(lists)
	prompts := c.syncPrompts(lists)
	resources, templates := c.syncResources(lists)
	c.mu.Lock()
	c.tools, c.prompts, c.resources, c.templates = tools, prompts, resources, templates
	c.mu.Unlock()
}

// apply adds what is new or changed of want (kind "tool", "prompt",
// "resource", "template": key → item) and removes what is gone.
func (c *conn) apply(kind string, want map[string]any, add func(key string), remove func(keys ...string)) {
	var gone []string
	for k := range c.shown {
		if name, ok := strings.CutPrefix(k, kind+"\x00"); ok {
			if _, still := want[name]; !still {
				gone = append(gone, name)
				delete(c.shown, k)
			}
		}
	}
	if len(gone) > 0 {
		remove(gone...)
	}
	for _, key := range slices.Sorted(maps.Keys(want)) {
		b, _ := json.Marshal(want[key])
		if c.shown[kind+"\x00"+key] != string(b) {
			c.shown[kind+"\x00"+key] = string(b)
			add(key)
		}
	}
}

// syncTools offers the tools under the chat's rule, each name in its
// server's space (chat.NewQualifiedCatalog).
func (c *conn) syncTools(lists []serverLists) map[string]route {
	st := make([]chat.ServerTools, len(lists))
	for i, l := range lists {
		st[i] = chat.ServerTools{ServerID: l.id, ServerName: l.name, Tools: l.tools}
	}
	routes := map[string]route{}
	want := map[string]any{}
	for _, o := range chat.NewQualifiedCatalog(st).Offered() {
		if !objectSchema(o.Tool.InputSchema) {
			continue // the go-sdk cannot offer it (and the server broke the rule)
		}
		t := *o.Tool
		t.Name = o.Name
		want[o.Name] = &t
		routes[o.Name] = route{serverID: o.ServerID, serverName: o.ServerName, name: o.Tool.Name}
	}
	c.apply("tool", want, func(k string) { c.srv.AddTool(want[k].(*sdk.Tool), c.callTool) }, c.srv.RemoveTools)
	return routes
}

// objectSchema reports whether an input schema is a JSON object of type
// "object", as MCP requires and the go-sdk checks.
func objectSchema(schema any) bool {
	if schema == nil {
		return false
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return false
	}
	var m map[string]any
	return json.Unmarshal(b, &m) == nil && m["type"] == "object"
}

// syncPrompts offers the prompts under names made by the chat's rule.
func (c *conn) syncPrompts(lists []serverLists) map[string]route {
	named := make([]chat.NamedServer, len(lists))
	for i, l := range lists {
		named[i] = chat.NamedServer{ID: l.id, Name: l.name}
		for _, p := range l.prompts {
			named[i].Tools = append(named[i].Tools, p.Name)
		}
	}
	names := chat.QualifiedNames(named)
	routes := map[string]route{}
	want := map[string]any{}
	for i, l := range lists {
		for j, p := range l.prompts {
			cp := *p
			cp.Name = names[i][j]
			want[cp.Name] = &cp
			routes[cp.Name] = route{serverID: l.id, serverName: l.name, name: p.Name}
		}
	}
	c.apply("prompt", want, func(k string) { c.srv.AddPrompt(want[k].(*sdk.Prompt), c.getPrompt) }, c.srv.RemovePrompts)
	return routes
}

// syncResources offers the resources and templates under their own URIs
// (links in results and other resources name them), named by the chat's
// rule. A URI or template two servers list is offered by neither: no
// server can take another's reads.
func (c *conn) syncResources(lists []serverLists) (resources, templates map[string]route) {
	named := make([]chat.NamedServer, len(lists))
	uris, tmpls := map[string]int{}, map[string]int{}
	for i, l := range lists {
		named[i] = chat.NamedServer{ID: l.id, Name: l.name}
		for _, r := range l.resources {
			named[i].Tools = append(named[i].Tools, r.Name)
			uris[r.URI]++
		}
		for _, t := range l.templates {
			named[i].Tools = append(named[i].Tools, t.Name)
			tmpls[t.URITemplate]++
		}
	}
	names := chat.QualifiedNames(named)
	resources, templates = map[string]route{}, map[string]route{}
	wantR, wantT := map[string]any{}, map[string]any{}
	for i, l := range lists {
		for j, r := range l.resources {
			if u, err := url.Parse(r.URI); uris[r.URI] != 1 || err != nil || u.Scheme == "" {
				continue
			}
			cp := *r
			cp.Name = names[i][j]
			wantR[cp.URI] = &cp
			resources[cp.URI] = route{serverID: l.id, serverName: l.name, name: r.URI}
		}
		for j, t := range l.templates {
			if _, err := uritemplate.New(t.URITemplate); tmpls[t.URITemplate] != 1 || err != nil || !strings.Contains(t.URITemplate, ":") {
				continue
			}
			cp := *t
			cp.Name = names[i][len(l.resources)+j]
			wantT[cp.URITemplate] = &cp
			templates[cp.URITemplate] = route{serverID: l.id, serverName: l.name, name: t.URITemplate}
		}
	}
	c.apply("resource", wantR, func(k string) { c.srv.AddResource(wantR[k].(*sdk.Resource), c.readResource) }, c.srv.RemoveResources)
	c.apply("template", wantT, func(k string) { c.srv.AddResourceTemplate(wantT[k].(*sdk.ResourceTemplate), c.readResource) },
		c.srv.RemoveResourceTemplates)
	return resources, templates
}
