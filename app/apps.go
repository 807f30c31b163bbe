package app

import (
	"encoding/json"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// AppsService shows the interfaces servers ship (MCP Apps): it opens an app
// of a tool on an origin of its own (appframe), and every request an app
// makes comes through it to the person's consent (the Broker) and to the
// app's own server only. The window's frame speaks the MCP Apps protocol
// with the app (ext-apps' AppBridge) and forwards to these methods what the
// app asks; nothing the app says is trusted.
type AppsService struct {
	core *Core
}

// NewAppsService returns the service over core.
func NewAppsService(core *Core) *AppsService { return &AppsService{core: core} }

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

// errAppsNotYet is what the skeleton answers until each method is built.
var errAppsNotYet = i18n.Err("apps.error.notYet")

// Open opens the app of a server's tool: reads the tool's ui:// resource
// from its server, checks it, and serves it on a new origin. callID names
// the call the app is shown for (a chat tool call's ID or the Tools pane's
// call ID), whose arguments and result the app receives; "" for none.
func (a *AppsService) Open(serverID, tool, callID string) (AppView, error) {
	return AppView{}, errAppsNotYet
}

// Close ends an app instance: its origin serves nothing more and its
// requests are refused.
func (a *AppsService) Close(instanceID string) error { return errAppsNotYet }

// AllowPermissions records which of the app's declared permissions the
// person allowed (none by default) and returns the instance as it now is.
func (a *AppsService) AllowPermissions(instanceID string, allowed []string) (AppView, error) {
	return AppView{}, errAppsNotYet
}

// CallTool is the app's tools/call: a tool of its own server whose
// visibility includes "app", under the person's Tool permissions, asked in
// the app's name. It returns the CallToolResult as JSON.
func (a *AppsService) CallTool(instanceID, tool, argsJSON string) (string, error) {
	return "", errAppsNotYet
}

// ReadResource is the app's resources/read of its own server's resource. It
// returns the ReadResourceResult as JSON.
func (a *AppsService) ReadResource(instanceID, uri string) (string, error) {
	return "", errAppsNotYet
}

// CheckLink is the app's ui/open-link: the address is checked (https, or
// http on loopback, nothing else) for the window's consent dialog, which
// names the app as the asker; OpenLink opens it after the person agreed.
func (a *AppsService) CheckLink(instanceID, url string) (CheckedLink, error) {
	return CheckedLink{}, errAppsNotYet
}

// OpenLink opens an address CheckLink checked, by its ID; the window calls
// it only after the person consented.
func (a *AppsService) OpenLink(linkID string) error { return errAppsNotYet }

// Message is the app's ui/message: what the app wants to write into the
// conversation is shown to the person (a Broker question naming the app);
// if they accept, Go sends exactly that to the conversation's model. It
// reports whether it was sent.
func (a *AppsService) Message(instanceID, paramsJSON string) (bool, error) {
	return false, errAppsNotYet
}

// UpdateContext is the app's ui/update-model-context: shown to the person
// like Message; if they accept, the model reads it with the conversation's
// next turn. It reports whether it was accepted.
func (a *AppsService) UpdateContext(instanceID, paramsJSON string) (bool, error) {
	return false, errAppsNotYet
}
