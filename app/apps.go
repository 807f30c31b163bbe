package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/appframe"
	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/uiapp"
)

// AppsService shows the interfaces servers ship (MCP Apps): it opens an app
// of a tool on an origin of its own (appframe), and every request an app
// makes comes through it to the person's consent (the Broker) and to the
// app's own server only. The window's frame speaks the MCP Apps protocol
// with the app (ext-apps' AppBridge) and forwards to these methods what the
// app asks; nothing the app says is trusted.
//
// At most maxOpenApps instances are open at once: opening one more is
// refused with a sentence (the window closes the apps it no longer shows),
// rather than closing an app the person may be using.
type AppsService struct {
	core  *Core
	tools *ToolsService // the one road of a tool call (ToolsService.run)

	// serve and forget serve an instance's files on its own origin and
	// stop: appframe's, which serves only in the real window; tests set
	// their own.
	serve  func(id string, files ...appframe.File) error
	forget func(id string)

	mu    sync.Mutex
	open  map[string]*appInstance // by instance ID
	order []string                // instance IDs, oldest first
	// closings counts CloseAll: an app whose opening began before one (the
	// window reloaded meanwhile) is not kept.
	closings int
}

// NewAppsService returns the service over core.
func NewAppsService(core *Core) *AppsService {
	a := &AppsService{core: core, tools: NewToolsService(core), serve: appframe.Serve, forget: appframe.Forget,
		open: map[string]*appInstance{}}
	if core != nil {
		core.onServerOff(a.closeServer) // a server turned off or removed takes its apps with it
	}
	return a
}

// appInstance is one open app.
type appInstance struct {
	view AppView
	// callID is the call the app was opened for ("" for none): the window
	// opens it again when it draws the call's card anew (a chat turn that
	// ends), which replaces this instance (Open).
	callID string
	// conversationID and conversationTitle name the chat the app was opened
	// in ("" for the Tools pane): its messages and context go there.
	conversationID, conversationTitle string
	// ctx ends when the app is closed: its questions are withdrawn and its
	// calls cancelled.
	ctx    context.Context
	cancel context.CancelFunc
	// allowedHere are the tools the person allowed for this app while it is
	// open ("for this conversation" in the question), each bound to what
	// they saw of it.
	allowedHere map[string]store.ToolSeen
	// running holds a slot for each of its requests running (begin).
	running chan struct{}

	// linkMu guards linkAsked, true while one of the app's links is asked,
	// and linksRefused, how many the person did not open (OpenLink).
	linkMu       sync.Mutex
	linkAsked    bool
	linksRefused int
}

// maxRefusedLinks is how many of an app's links the person may leave
// unopened before the app asks no more (OpenLink).
const maxRefusedLinks = 3

// askLink reports whether the app may ask the person about a link now:
// none of its links is asked already and the person has not refused
// maxRefusedLinks. When it may, asked says how that one ended.
func (inst *appInstance) askLink() (asked func(opened bool), ok bool) {
	inst.linkMu.Lock()
	defer inst.linkMu.Unlock()
	if inst.linkAsked || inst.linksRefused >= maxRefusedLinks {
		return nil, false
	}
	inst.linkAsked = true
	return func(opened bool) {
		inst.linkMu.Lock()
		defer inst.linkMu.Unlock()
		inst.linkAsked = false
		if !opened {
			inst.linksRefused++
		}
	}, true
}

// begin takes a slot for one of the app's requests, or refuses it with a
// sentence when maxAppRequests are running; end frees the slot.
func (inst *appInstance) begin() (end func(), err error) {
	select {
	case inst.running <- struct{}{}:
		return func() { <-inst.running }, nil
	default:
		return nil, i18n.Err("apps.error.busy", "max", maxAppRequests)
	}
}

// AppView is one open app instance, as the window frames it.
type AppView struct {
	// InstanceID names this instance in every later call.
	InstanceID string `json:"instanceId"`
	// URL is where the frame loads it (gatehouse-app://INSTANCE/index.html),
	// Origin the instance's origin, the only one the window talks to.
	URL    string `json:"url"`
	Origin string `json:"origin"`
	// ServerID and ServerName (as the person configured it) name the
	// server the app belongs to; Tool and ToolTitle the tool it shows.
	ServerID    string `json:"serverId"`
	ServerName  string `json:"serverName"`
	Tool        string `json:"tool"`
	ToolTitle   string `json:"toolTitle"`
	ResourceURI string `json:"resourceUri"`
	// PrefersBorder is the app's wish for a visible border (a claim).
	PrefersBorder bool `json:"prefersBorder"`
	// Permissions are what the app declares it wants (camera, microphone,
	// geolocation, clipboardWrite); Allowed what the person allowed of
	// them (AllowPermissions). The frame's allow attribute is built from
	// Allowed only.
	Permissions []string `json:"permissions"`
	Allowed     []string `json:"allowed"`
	// ConnectDomains, ResourceDomains and FrameDomains are the network
	// origins the app declared, as its Content-Security-Policy applies
	// them, for the frame's information panel.
	ConnectDomains  []string `json:"connectDomains"`
	ResourceDomains []string `json:"resourceDomains"`
	FrameDomains    []string `json:"frameDomains"`
	// Dropped says, for each origin the app declared that is not in its
	// policy, why (uiapp.ValidOrigin).
	Dropped []i18n.Message `json:"dropped"`
	// ToolInput is the call's arguments and ToolResult its result
	// (CallToolResult, as the server sent it), when the app is opened for a
	// call (Open's callID); null otherwise.
	ToolInput  json.RawMessage `json:"toolInput" ts_type:"any"`
	ToolResult json.RawMessage `json:"toolResult" ts_type:"any"`
	// Limits bound what the app may ask of the frame.
	Limits AppLimits `json:"limits"`
}

// AppLimits bound what an app may ask of its frame: beyond them the window
// clamps (heights) or closes the app with a sentence (messages).
type AppLimits struct {
	MinHeight         int `json:"minHeight"`         // px
	MaxHeight         int `json:"maxHeight"`         // px, in the conversation or the Tools pane
	MaxMessageBytes   int `json:"maxMessageBytes"`   // one message from the app
	MessagesPerSecond int `json:"messagesPerSecond"` // sustained, before the app is closed
	MaxOpen           int `json:"maxOpen"`           // apps open at once in the window
}

// The limits of every app (AppLimits).
const (
	maxOpenApps        = 10
	appMinHeight       = 48
	appMaxHeight       = 2000
	appMaxMessageBytes = 1 << 20
	appMessagesPerSec  = 50
	// maxAppURI bounds a resource URI an app asks to read.
	maxAppURI = 4096
	// appReadTimeout bounds reading an app's resource when it opens.
	appReadTimeout = 30 * time.Second
	// maxAppRequests bounds an app's tool calls and reads running at once;
	// more are refused at once (appInstance.begin).
	maxAppRequests = 8
)

// appLimits are the limits the window applies to every app.
var appLimits = AppLimits{MinHeight: appMinHeight, MaxHeight: appMaxHeight, MaxMessageBytes: appMaxMessageBytes,
	MessagesPerSecond: appMessagesPerSec, MaxOpen: maxOpenApps}

// errAppNotOpen refuses a request of an app that is closed, or never was.
var errAppNotOpen = i18n.Err("apps.error.notOpen")

// Open opens the app of a server's tool: reads the tool's ui:// resource
// from its server, checks it, and serves it on a new origin. callID names
// the call the app is shown for (a chat tool call's ID or the Tools pane's
// call ID), whose arguments and result the app receives; "" for none.
// conversationID names the chat call's conversation, where the call was
// kept for a card drawn after a restart; "" outside a chat.
func (a *AppsService) Open(serverID, tool, callID, conversationID string) (AppView, error) {
	def, err := a.core.Manager.Tool(serverID, tool)
	if err != nil {
		return AppView{}, err
	}
	serverName := a.core.serverName(serverID)
	decl := uiapp.ReadTool(def.Meta)
	if !decl.HasApp() {
		return AppView{}, i18n.Err("apps.error.noApp", "tool", mcp.ToolTitle(def), "server", serverName)
	}
	if callID != "" {
		// The window draws a call's card anew (the live turn's card becomes
		// the stored message's when the turn ends) and opens its app again
		// before the old frame's close arrives: that replaces the old
		// instance, and never counts twice against maxOpenApps.
		a.closeCall(callID)
	}
	a.mu.Lock()
	closings := a.closings
	a.mu.Unlock()
	if a.count() >= maxOpenApps {
		return AppView{}, i18n.Err("apps.error.tooMany", "max", maxOpenApps)
	}
	body, meta, err := a.readApp(serverID, serverName, decl.ResourceURI)
	if err != nil {
		return AppView{}, err
	}
	id := appframe.NewInstanceID()
	view := AppView{InstanceID: id, URL: appframe.Origin(id) + "/index.html", Origin: appframe.Origin(id),
		ServerID: serverID, ServerName: serverName, Tool: def.Name, ToolTitle: mcp.ToolTitle(def), ResourceURI: decl.ResourceURI,
		PrefersBorder: meta.PrefersBorder, Permissions: nonNil(meta.Permissions), Allowed: []string{},
		ConnectDomains: nonNil(meta.CSP.Connect), ResourceDomains: nonNil(meta.CSP.Resource), FrameDomains: nonNil(meta.CSP.Frame),
		Dropped: meta.Dropped, Limits: appLimits}
	if view.Dropped == nil {
		view.Dropped = []i18n.Message{}
	}
	inst := &appInstance{view: view, callID: callID, allowedHere: map[string]store.ToolSeen{}, running: make(chan struct{}, maxAppRequests)}
	if callID != "" {
		// Only a call of this very tool of this server: never another's.
		if c, ok := a.core.keptAppCall(conversationID, callID); ok && c.serverID == serverID && c.tool == def.Name {
			inst.view.ToolInput, inst.view.ToolResult = c.args, c.result
			inst.conversationID = c.conversationID
			if c.conversationID != "" {
				if conv, err := a.core.Store.Conversation(c.conversationID); err == nil {
					inst.conversationTitle = conv.Title
				}
			}
		}
	}
	header := http.Header{}
	header.Set("Content-Security-Policy", meta.CSP.Header())
	header.Set("X-Content-Type-Options", "nosniff")
	header.Set("Referrer-Policy", "no-referrer")
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closings != closings { // the window reloaded meanwhile: the page that asked is gone
		return AppView{}, i18n.Err("apps.error.reloaded")
	}
	if len(a.open) >= maxOpenApps { // another opened meanwhile
		return AppView{}, i18n.Err("apps.error.tooMany", "max", maxOpenApps)
	}
	if err := a.serve(id, appframe.File{Path: "/index.html", ContentType: "text/html; charset=utf-8", Body: body, Header: header}); err != nil {
		return AppView{}, i18n.Wrap(err, "apps.error.serve", "detail", err)
	}
	inst.ctx, inst.cancel = context.WithCancel(context.Background())
	a.open[id] = inst
	a.order = append(a.order, id)
	return inst.view, nil
}

// readApp reads and checks an app's resource on its server: its HTML and
// what it declares (the read item's _meta.ui, else its listing's).
func (a *AppsService) readApp(serverID, serverName, uri string) ([]byte, uiapp.Resource, error) {
	ctx, cancel := context.WithTimeout(context.Background(), appReadTimeout)
	defer cancel()
	res, err := a.core.Manager.ReadResource(ctx, serverID, uri)
	if err != nil {
		return nil, uiapp.Resource{}, err
	}
	var item *mcp.Contents
	for i, c := range res.Contents {
		if c.Raw.URI == uri || len(res.Contents) == 1 && c.Raw.URI == "" {
			item = &res.Contents[i]
			break
		}
	}
	if item == nil {
		return nil, uiapp.Resource{}, i18n.Err("apps.error.noResource", "server", serverName, "uri", uri)
	}
	body, err := uiapp.Content(uri, item.MIMEType, item.Raw.Text, item.Raw.Blob, !item.IsText)
	if err != nil {
		return nil, uiapp.Resource{}, err
	}
	var listed map[string]any
	if resources, err := a.core.Manager.Resources(serverID); err == nil {
		for _, r := range resources {
			if r != nil && r.URI == uri {
				listed = r.Meta
			}
		}
	}
	return body, uiapp.ReadResource(item.Raw.Meta, listed), nil
}

// count is the number of open apps.
func (a *AppsService) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.open)
}

// instance returns an open app, or refuses.
func (a *AppsService) instance(id string) (*appInstance, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	inst := a.open[id]
	if inst == nil {
		return nil, errAppNotOpen
	}
	return inst, nil
}

// Close ends an app instance: its origin serves nothing more and its
// requests are refused; its questions on screen are withdrawn and its
// calls cancelled. Closing an app already closed does nothing.
func (a *AppsService) Close(instanceID string) error {
	a.mu.Lock()
	inst := a.open[instanceID]
	delete(a.open, instanceID)
	a.order = removeString(a.order, instanceID)
	a.mu.Unlock()
	if inst != nil {
		inst.cancel()
		a.forget(instanceID)
	}
	return nil
}

// closeCall closes the open instances shown for callID.
func (a *AppsService) closeCall(callID string) {
	a.mu.Lock()
	var ids []string
	for _, id := range a.order {
		if a.open[id].callID == callID {
			ids = append(ids, id)
		}
	}
	a.mu.Unlock()
	for _, id := range ids {
		_ = a.Close(id)
	}
}

// closeServer closes the open instances of the server serverID's apps.
func (a *AppsService) closeServer(serverID string) {
	a.mu.Lock()
	var ids []string
	for _, id := range a.order {
		if a.open[id].view.ServerID == serverID {
			ids = append(ids, id)
		}
	}
	a.mu.Unlock()
	for _, id := range ids {
		_ = a.Close(id)
	}
}

// CloseAll closes every open app (the window's reload and exit).
func (a *AppsService) CloseAll() {
	a.mu.Lock()
	a.closings++
	ids := slices.Clone(a.order)
	a.mu.Unlock()
	for _, id := range ids {
		_ = a.Close(id)
	}
}

// AllowPermissions records which of the app's declared permissions the
// person allowed (none by default) and returns the instance as it now is.
// A permission the app did not declare is never allowed.
func (a *AppsService) AllowPermissions(instanceID string, allowed []string) (AppView, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	inst := a.open[instanceID]
	if inst == nil {
		return AppView{}, errAppNotOpen
	}
	inst.view.Allowed = []string{}
	for _, p := range inst.view.Permissions {
		if slices.Contains(allowed, p) {
			inst.view.Allowed = append(inst.view.Allowed, p)
		}
	}
	return inst.view, nil
}

// CallTool is the app's tools/call: a tool of its own server whose
// visibility includes "app", under the person's Tool permissions, asked in
// the app's name. It returns the CallToolResult as JSON. Every refusal is
// an error with a sentence; History records the run with the app as its
// source.
func (a *AppsService) CallTool(instanceID, tool, argsJSON string) (string, error) {
	inst, err := a.instance(instanceID)
	if err != nil {
		return "", err
	}
	v := inst.view
	if len(argsJSON) > appMaxMessageBytes {
		return "", i18n.Err("apps.error.tooLarge", "max", appMaxMessageBytes)
	}
	end, err := inst.begin()
	if err != nil {
		return "", err
	}
	defer end()
	// A server waiting to reconnect after a crash reconnects now, for this call (issue 26).
	waitCtx, stop := context.WithTimeout(inst.ctx, a.core.toolCallTimeout())
	err = a.core.Manager.Await(waitCtx, v.ServerID)
	stop()
	if err != nil {
		return "", err
	}
	def, err := a.core.Manager.Tool(v.ServerID, tool)
	if err != nil {
		// Only the app's own server is looked in: another server's tool is
		// not found there.
		return "", i18n.Wrap(err, "apps.error.noTool", "tool", shortText(tool), "server", v.ServerName)
	}
	if !uiapp.ReadTool(def.Meta).ForApp {
		return "", i18n.Err("apps.error.notForApp", "tool", mcp.ToolTitle(def), "server", v.ServerName)
	}
	args, problem := parseArgs(argsJSON)
	if problem != nil {
		return "", i18n.Err("apps.error.arguments", "tool", mcp.ToolTitle(def), "detail", *problem)
	}
	peer, err := a.core.Manager.Peer(v.ServerID)
	if err != nil {
		return "", err
	}
	sent, err := json.Marshal(args) // what is shown is what is sent
	if err != nil {
		return "", i18n.Err("apps.error.arguments", "tool", mcp.ToolTitle(def), "detail", err.Error())
	}
	consented, err := chat.Consent{Broker: a.core.Broker, Settings: storeToolSettings{a.core}}.Approve(inst.ctx, chat.ConsentRequest{
		Peer: peer, Tool: def,
		Call: mcp.ToolCall{Arguments: sent, ConversationID: inst.conversationID, Conversation: inst.conversationTitle, App: v.ToolTitle},
		AllowedHere: func(k store.ToolKey) (*store.ToolSeen, bool) {
			a.mu.Lock()
			defer a.mu.Unlock()
			seen, ok := inst.allowedHere[k.Tool]
			return &seen, ok
		},
		Here: i18n.M("apps.why.thisApp")})
	if err != nil {
		return "", errAppNotOpen // its question was withdrawn when it closed
	}
	if approval := consented.Approval; !approval.Allowed {
		a.core.Broker.RecordToolRun(mcp.ToolRun{ServerID: v.ServerID, ServerName: v.ServerName, Tool: def.Name,
			Source: store.SourceApp, Started: time.Now(), Outcome: store.OutcomeDenied, Detail: approval.Reason, Arguments: args})
		return "", i18n.Err("apps.error.denied", "tool", mcp.ToolTitle(def), "why", approval.Reason)
	}
	if consented.Scope == mcp.ScopeConversation {
		a.mu.Lock()
		inst.allowedHere[def.Name] = consented.Seen
		a.mu.Unlock()
	}
	run, err := a.tools.run(inst.ctx, store.SourceApp, "", v.ServerID, def.Name, argsJSON)
	if err != nil {
		return "", err
	}
	if len(run.view.ArgumentErrors) > 0 {
		return "", i18n.Err("apps.error.arguments", "tool", mcp.ToolTitle(def), "detail", argumentErrors(run.view.ArgumentErrors))
	}
	out, err := json.Marshal(run.res)
	return string(out), err
}

// ReadResource is the app's resources/read of its own server's resource. It
// returns the ReadResourceResult as JSON.
func (a *AppsService) ReadResource(instanceID, uri string) (string, error) {
	inst, err := a.instance(instanceID)
	if err != nil {
		return "", err
	}
	if uri == "" || len(uri) > maxAppURI {
		return "", i18n.Err("apps.error.badURI", "max", maxAppURI)
	}
	end, err := inst.begin()
	if err != nil {
		return "", err
	}
	defer end()
	ctx, cancel := context.WithTimeout(inst.ctx, appReadTimeout)
	defer cancel()
	res, err := a.core.Manager.ReadResource(ctx, inst.view.ServerID, uri)
	if err != nil {
		return "", err
	}
	out, err := json.Marshal(res.Raw)
	return string(out), err
}

// OpenLink is the app's ui/open-link. The address is checked (https, or
// http on loopback, nothing else; refused with a sentence otherwise) and
// shown to the person as a Broker question naming the app (mcp.KindAppLink):
// it opens in the system browser only when they choose to, through the one
// opener (QuestionService.Open). It reports whether the page was opened. One
// link of an app is asked at a time: a link asked meanwhile, and every link
// of an app the person left unopened maxRefusedLinks times, is refused
// without asking (false).
func (a *AppsService) OpenLink(instanceID, url string) (bool, error) {
	inst, err := a.instance(instanceID)
	if err != nil {
		return false, err
	}
	link, err := linkcheck.Check(url)
	if err != nil {
		return false, i18n.Wrap(err, "links.error.refused", "detail", err)
	}
	peer, err := a.core.Manager.Peer(inst.view.ServerID)
	if err != nil {
		return false, err
	}
	asked, ok := inst.askLink()
	if !ok {
		return false, nil
	}
	opened := false
	defer func() { asked(opened) }()
	if opened, err = a.core.Broker.AskAppLink(inst.ctx, peer, inst.view.ToolTitle, link); err != nil {
		return false, errAppNotOpen // withdrawn: the app closed
	}
	return opened, nil
}

// Message is the app's ui/message: what the app wants to write into the
// conversation is shown to the person (a Broker question naming the app);
// if they accept, Go sends exactly that to the conversation's model. It
// reports whether it was sent.
func (a *AppsService) Message(instanceID, paramsJSON string) (bool, error) {
	inst, err := a.instance(instanceID)
	if err != nil {
		return false, err
	}
	text, err := appText(paramsJSON, false)
	if err != nil {
		return false, err
	}
	if inst.conversationID == "" {
		return false, i18n.Err("apps.error.noConversation")
	}
	chats := a.core.Chat()
	if chats.isRunning(inst.conversationID) {
		return false, ErrTurnRunning
	}
	if ok, err := a.ask(inst, text, false); !ok || err != nil {
		return false, err
	}
	if err := chats.Send(inst.conversationID, text); err != nil {
		return false, err
	}
	return true, nil
}

// UpdateContext is the app's ui/update-model-context: shown to the person
// like Message; if they accept, the model reads it with the conversation's
// next turn. It reports whether it was accepted. Each update replaces the
// app's one before; an empty one removes it without asking.
func (a *AppsService) UpdateContext(instanceID, paramsJSON string) (bool, error) {
	inst, err := a.instance(instanceID)
	if err != nil {
		return false, err
	}
	text, err := appText(paramsJSON, true)
	if err != nil {
		return false, err
	}
	if inst.conversationID == "" {
		return false, i18n.Err("apps.error.noConversation")
	}
	c := appContext{instanceID: instanceID, app: inst.view.ToolTitle, server: inst.view.ServerName, text: text}
	if text == "" {
		a.core.appContext.put(inst.conversationID, c)
		return true, nil
	}
	if ok, err := a.ask(inst, text, true); !ok || err != nil {
		return false, err
	}
	a.core.appContext.put(inst.conversationID, c)
	return true, nil
}

// ask shows the person what the app wants to give the model.
func (a *AppsService) ask(inst *appInstance, text string, isContext bool) (bool, error) {
	peer, err := a.core.Manager.Peer(inst.view.ServerID)
	if err != nil {
		return false, err
	}
	ok, err := a.core.Broker.AskAppMessage(inst.ctx, peer, mcp.AppMessage{App: inst.view.ToolTitle, Context: isContext, Text: text,
		ConversationID: inst.conversationID, Conversation: inst.conversationTitle})
	if err != nil {
		return false, errAppNotOpen // withdrawn: the app closed
	}
	return ok, nil
}

// appParams are the params of ui/message and ui/update-model-context.
type appParams struct {
	Role    *string `json:"role"`
	Content []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

// appText reads the text of a ui/message (role "user", text content only)
// or of a ui/update-model-context (text content and structuredContent,
// as compact JSON), bounded by maxAppText, without spaces around it: what
// the person reads and the model gets.
func appText(paramsJSON string, isContext bool) (string, error) {
	if len(paramsJSON) > appMaxMessageBytes {
		return "", i18n.Err("apps.error.tooLarge", "max", appMaxMessageBytes)
	}
	var p appParams
	if err := json.Unmarshal([]byte(paramsJSON), &p); err != nil {
		return "", i18n.Err("apps.error.params", "detail", err.Error())
	}
	if !isContext && (p.Role == nil || *p.Role != "user") {
		return "", i18n.Err("apps.error.role")
	}
	var parts []string
	for _, c := range p.Content {
		if c.Type != "text" || c.Text == nil {
			return "", i18n.Err("apps.error.onlyText", "type", shortText(c.Type))
		}
		if t := strings.TrimSpace(*c.Text); t != "" {
			parts = append(parts, t)
		}
	}
	if isContext && len(p.StructuredContent) > 0 && string(p.StructuredContent) != "null" {
		var compact bytes.Buffer
		if err := json.Compact(&compact, p.StructuredContent); err == nil {
			parts = append(parts, compact.String())
		}
	}
	text := strings.Join(parts, "\n\n")
	switch {
	case len(text) > maxAppText:
		return "", i18n.Err("apps.error.textTooLong", "size", len(text), "max", maxAppText)
	case text == "" && !isContext:
		return "", i18n.Err("apps.error.emptyMessage")
	}
	return text, nil
}

// argumentErrors are a call's argument problems in one sentence.
func argumentErrors(errs map[string]i18n.Message) i18n.Message {
	keys := make([]string, 0, len(errs))
	for k := range errs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	msgs := make([]i18n.Message, 0, len(keys))
	for _, k := range keys {
		if k == "" {
			msgs = append(msgs, errs[k])
		} else {
			msgs = append(msgs, i18n.M("apps.error.argument", "name", k, "why", errs[k]))
		}
	}
	return i18n.Sentences(msgs...)
}

// shortText is an app's string as a sentence quotes it: at most 80
// characters.
func shortText(s string) string { return truncate(strings.ToValidUTF8(s, "?"), 80) }

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
