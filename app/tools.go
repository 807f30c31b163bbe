package app

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/uiapp"
	"github.com/gatehouse-app/gatehouse/visible"
)

// DefaultToolCallTimeout bounds a tool call when the settings give none.
const DefaultToolCallTimeout = 60 * time.Second

// ToolsService is bound to the frontend: the tools pane.
type ToolsService struct {
	core *Core

	mu      sync.Mutex
	running map[string]context.CancelFunc // by call ID
	// checking holds the form check running for each tool: a newer check
	// of the same form ends it.
	checking map[store.ToolKey]*formCheck
	// links are the checked resource_link URLs of recent results: OpenLink
	// opens only these (E31).
	links linkBook
}

// NewToolsService returns the tools pane's service on core.
func NewToolsService(core *Core) *ToolsService {
	return &ToolsService{core: core, running: map[string]context.CancelFunc{}, checking: map[store.ToolKey]*formCheck{}}
}

// List returns the tools of a connected server. Their forms and input
// schemas are not in the list (Form gives those of the tool the person
// opens): building a form compiles the schema, about 0.2 ms each, and the
// schemas were most of the JSON a server of 1,000 tools sent to the window.
func (t *ToolsService) List(serverID string) ([]ToolView, error) {
	tools, err := t.core.Manager.Tools(serverID)
	if err != nil {
		return nil, err
	}
	views := make([]ToolView, 0, len(tools))
	for _, tool := range tools {
		views = append(views, toolView(tool))
	}
	return views, nil
}

// Form returns the form of one of a connected server's tools, made from its
// input schema, with the schema; a schema no form can show gives a form
// with a Reason and no fields.
func (t *ToolsService) Form(serverID, tool string) (ToolFormView, error) {
	def, err := t.core.Manager.Tool(serverID, tool)
	if err != nil {
		return ToolFormView{}, err
	}
	v := ToolFormView{Form: toolSchema(def).Form, SchemaID: schemaID(def)}
	if b, err := json.MarshalIndent(def.InputSchema, "", "  "); err == nil {
		v.InputSchema = string(b)
	}
	return v, nil
}

// Check reads a tool form's values as Call would send them, without
// calling: the tools pane calls it as the person types, to show what is
// wrong beside each field, and sends the Arguments once nothing is. A
// newer Check of the same tool's form ends this one (the pane keeps only
// the latest answer), and every check is bounded (forms, budget.go).
func (t *ToolsService) Check(serverID, tool string, values map[string]any) (ArgumentCheck, error) {
	def, err := t.core.Manager.Tool(serverID, tool)
	if err != nil {
		return ArgumentCheck{}, err
	}
	ctx, done := t.startCheck(serverID, tool)
	defer done()
	schema := toolSchema(def)
	args, errs, err := schema.ValidateContext(ctx, values)
	if err != nil {
		return ArgumentCheck{}, i18n.Err("tools.error.checkReplaced")
	}
	if len(errs) > 0 {
		args = schema.Draft(values)
	}
	return ArgumentCheck{Arguments: args, Errors: errs}, nil
}

// formCheck is a running Check, which a newer one ends.
type formCheck struct{ cancel context.CancelFunc }

// startCheck starts a check of a tool's form and ends the one before it.
// done must be called when the check is over.
func (t *ToolsService) startCheck(serverID, tool string) (ctx context.Context, done func()) {
	key := store.ToolKey{ServerID: serverID, Tool: tool}
	ctx, cancel := context.WithCancel(context.Background())
	run := &formCheck{cancel: cancel}
	t.mu.Lock()
	if prev := t.checking[key]; prev != nil {
		prev.cancel()
	}
	t.checking[key] = run
	t.mu.Unlock()
	return ctx, func() {
		t.mu.Lock()
		if t.checking[key] == run {
			delete(t.checking, key)
		}
		t.mu.Unlock()
		cancel()
	}
}

// Call calls a tool with arguments given as JSON object text. callID is
// chosen by the frontend so that the call can be cancelled with Cancel,
// and names the call's progress (EventProgress). The arguments are checked
// against the tool's input schema first, as they are: when they do not
// pass, nothing is sent and the result's ArgumentErrors says why. Cancel
// ends the call at any point, also while its arguments or its result are
// being checked.
func (t *ToolsService) Call(callID, serverID, tool, argsJSON string) (ToolResultView, error) {
	ctx := context.Background()
	if callID != "" {
		ctx = mcp.WithProgress(ctx, t.core.progressOf(callID))
	}
	return t.call(ctx, store.SourceToolsPane, callID, serverID, tool, argsJSON)
}

// CallTool is ToolsService.Call for the command line, with the window open
// or not: ending ctx cancels the call on the server, its progress goes to
// the report of ctx (mcp.WithProgress), not to the window, and the history
// says it came from the command line. callID may be "" (then Cancel cannot
// name it).
func CallTool(ctx context.Context, t *ToolsService, callID, serverID, tool, argsJSON string) (ToolResultView, error) {
	return t.call(ctx, store.SourceCLI, callID, serverID, tool, argsJSON)
}

// call is Call under ctx, from source (one of the store.Source constants:
// the history says where each call came from).
func (t *ToolsService) call(ctx context.Context, source, callID, serverID, tool, argsJSON string) (ToolResultView, error) {
	run, err := t.run(ctx, source, callID, serverID, tool, argsJSON)
	return run.view, err
}

// toolRun is one call as run made it: the result as the server returned
// it (nil when the call was not made) and as the window shows it.
type toolRun struct {
	res  *sdk.CallToolResult
	view ToolResultView
}

// run is call, with the result as the server returned it: the one road of
// a tool call the person or an app (AppsService.CallTool) makes. A call of
// a tool with an interface from the Tools pane is kept for the app shown
// beside its result (AppsService.Open).
func (t *ToolsService) run(ctx context.Context, source, callID, serverID, tool, argsJSON string) (toolRun, error) {
	// A server waiting to reconnect after a crash reconnects now, for this call (issue 26).
	waitCtx, stop := context.WithTimeout(ctx, t.core.toolCallTimeout())
	err := t.core.Manager.Await(waitCtx, serverID)
	stop()
	if err != nil {
		return toolRun{}, err
	}
	def, err := t.core.Manager.Tool(serverID, tool)
	if err != nil {
		return toolRun{}, err
	}
	args, problem := parseArgs(argsJSON)
	if problem != nil {
		return toolRun{view: refusedArguments(map[string]i18n.Message{"": *problem})}, nil
	}
	// The call's own timeout pauses while the person answers one of this
	// server's requests: a form being filled in must not time the call out.
	// It covers the checks of the arguments and of the result too, and so
	// does Cancel.
	ctx, cancel := t.core.Broker.CallTimeout(ctx, serverID, t.core.toolCallTimeout())
	defer cancel()
	if callID != "" {
		t.mu.Lock()
		t.running[callID] = cancel
		t.mu.Unlock()
		defer func() {
			t.mu.Lock()
			delete(t.running, callID)
			t.mu.Unlock()
		}()
	}
	errs, err := toolSchema(def).CheckContext(ctx, args)
	switch {
	case errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		return toolRun{}, i18n.Err("tools.error.timeout", "duration", i18n.Duration(t.core.toolCallTimeout()))
	case err != nil:
		return toolRun{}, i18n.Err("tools.error.cancelled")
	case len(errs) > 0:
		return toolRun{view: refusedArguments(errs)}, nil
	}
	start := time.Now()
	res, err := t.core.Manager.CallTool(ctx, serverID, tool, args)
	if err != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		err = context.DeadlineExceeded
	}
	run := mcp.ToolRun{ServerID: serverID, ServerName: t.core.serverName(serverID), Tool: tool, Source: source,
		Started: start, Duration: time.Since(start), Outcome: store.OutcomeOK, Arguments: args}
	defer func() { t.core.Broker.RecordToolRun(run) }()
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		err = i18n.Err("tools.error.timeout", "duration", i18n.Duration(t.core.toolCallTimeout()))
		run.Outcome, run.Detail = store.OutcomeTimedOut, i18n.ErrorMessage(err)
		return toolRun{}, err
	case errors.Is(err, context.Canceled):
		err = i18n.Err("tools.error.cancelled")
		run.Outcome, run.Detail = store.OutcomeCancelled, i18n.ErrorMessage(err)
		return toolRun{}, err
	case err != nil:
		run.Outcome, run.Detail = store.OutcomeError, mcp.Describe(err)
		return toolRun{}, err
	}
	run.Result = mcp.ResultText(res)
	if res.IsError {
		run.Outcome = store.OutcomeError
	}
	view := ResultView(ctx, def, res)
	view.DurationMs = run.Duration.Milliseconds()
	t.recordLinks(&view)
	if source == store.SourceToolsPane && uiapp.ReadTool(def.Meta).HasApp() {
		t.core.appCalls.put(keptCall{id: callID, serverID: serverID, tool: def.Name}, args, res)
	}
	return toolRun{res: res, view: view}, nil
}

// recordLinks gives each openable resource link of a result an ID, under
// which OpenLink can open it after the person's consent.
func (t *ToolsService) recordLinks(v *ToolResultView) {
	for i := range v.Content {
		if c := &v.Content[i]; c.Link != nil {
			c.LinkID = t.links.add(c.Link)
		}
	}
}

// OpenLink opens a resource link of a tool result in the system browser,
// after the person consented in the same display as URL requests (E31). It
// takes the link's ID, never a URL: only links Gatehouse checked can open.
func (t *ToolsService) OpenLink(linkID string) error {
	err := t.links.open(linkID)
	if errors.Is(err, errUnknownLink) {
		return i18n.Err("tools.error.unknownLink")
	}
	return err
}

// Cancel cancels a running call; the server is told with notifications/cancelled.
func (t *ToolsService) Cancel(callID string) error {
	t.mu.Lock()
	cancel := t.running[callID]
	t.mu.Unlock()
	if cancel == nil {
		return i18n.Err("tools.error.notRunning")
	}
	cancel()
	return nil
}

// parseArgs reads tool arguments: a JSON object, or nothing.
func parseArgs(argsJSON string) (map[string]any, *i18n.Message) {
	if strings.TrimSpace(argsJSON) == "" {
		return map[string]any{}, nil
	}
	var v any
	if err := json.Unmarshal([]byte(argsJSON), &v); err != nil {
		m := i18n.M("forms.error.json", "detail", err.Error())
		return nil, &m
	}
	args, ok := v.(map[string]any)
	if !ok {
		m := i18n.M("forms.error.arguments")
		return nil, &m
	}
	return args, nil
}

// refusedArguments is the result of a call whose arguments did not pass.
func refusedArguments(errs map[string]i18n.Message) ToolResultView {
	return ToolResultView{Content: []ContentView{}, ArgumentErrors: errs}
}

// toolSchema reads a tool's input schema as a form and its validator.
func toolSchema(tool *sdk.Tool) *forms.Schema {
	return forms.ParseTool(tool.Name, schemaJSON(tool.InputSchema))
}

// schemaJSON is a schema the SDK decoded, as JSON again.
func schemaJSON(schema any) json.RawMessage {
	if raw, ok := schema.(json.RawMessage); ok {
		return raw
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	return b
}

func (c *Core) toolCallTimeout() time.Duration {
	if s, err := c.Store.Settings(); err == nil && s.ToolCallTimeout > 0 {
		return s.ToolCallTimeout
	}
	return DefaultToolCallTimeout
}

func toolView(tool *sdk.Tool) ToolView {
	return ToolView{
		Name:        tool.Name,
		Title:       mcp.ToolTitle(tool),
		Description: tool.Description,
		Annotations: toolHints(tool),
		HasOutput:   tool.OutputSchema != nil,
		NeedsTask:   mcp.NeedsTask(tool),
		SchemaID:    schemaID(tool),
		App:         toolAppView(tool),
	}
}

// toolAppView is what a tool declares of its interface (MCP Apps): its
// resource, and who may call it. A tool only for apps may have no resource
// of its own (system-monitor's poll-system-stats): it is still marked. Nil
// when it declares neither.
func toolAppView(tool *sdk.Tool) *ToolAppView {
	decl := uiapp.ReadTool(tool.Meta)
	if !decl.HasApp() && decl.ForModel && decl.ForApp {
		return nil // neither an interface nor a visibility of its own
	}
	return &ToolAppView{ResourceURI: decl.ResourceURI, ForModel: decl.ForModel, ForApp: decl.ForApp}
}

// schemaID names the version of a tool's input schema (ToolView.SchemaID):
// a hash of the schema as the server sent it.
func schemaID(tool *sdk.Tool) string {
	sum := sha256.Sum256(schemaJSON(tool.InputSchema))
	return hex.EncodeToString(sum[:12])
}

// toolHints are a tool's annotations as plain flags.
func toolHints(tool *sdk.Tool) ToolHints {
	a := tool.Annotations
	if a == nil {
		return ToolHints{}
	}
	return ToolHints{
		ReadOnly:    a.ReadOnlyHint,
		Destructive: a.DestructiveHint != nil && *a.DestructiveHint,
		Idempotent:  a.IdempotentHint,
		OpenWorld:   a.OpenWorldHint != nil && *a.OpenWorldHint,
	}
}

// ResultView turns a tool result into what the UI and the CLI show,
// checking structuredContent against the tool's outputSchema (E31) under
// ctx: when ctx ends first, the result is shown with a warning that it was
// not checked.
func ResultView(ctx context.Context, tool *sdk.Tool, res *sdk.CallToolResult) ToolResultView {
	v := ToolResultView{IsError: res.IsError, Content: make([]ContentView, 0, len(res.Content)), ArgumentErrors: map[string]i18n.Message{}}
	for _, c := range res.Content {
		v.Content = append(v.Content, contentView(c))
	}
	if res.StructuredContent != nil {
		if b, err := json.MarshalIndent(res.StructuredContent, "", "  "); err == nil {
			v.Structured = string(b)
			// Text beyond the tree's bounds is shown as Structured is.
			if view := visible.JSON(b); view.Kind != visible.KindText {
				v.StructuredView = &view
			}
		}
	}
	if tool != nil && !res.IsError {
		v.StructuredWarning = forms.CheckStructured(ctx, tool.Name, tool.OutputSchema, res.StructuredContent)
	}
	return v
}

func contentView(c sdk.Content) ContentView {
	switch c := c.(type) {
	case *sdk.TextContent:
		return ContentView{Type: "text", Text: c.Text}
	case *sdk.ImageContent:
		return ContentView{Type: "image", MimeType: c.MIMEType, Data: base64Of(c.Data)}
	case *sdk.AudioContent:
		return ContentView{Type: "audio", MimeType: c.MIMEType, Data: base64Of(c.Data)}
	case *sdk.ResourceLink:
		v := ContentView{Type: "resource_link", URI: c.URI, Name: c.Name, Title: c.Title, MimeType: c.MIMEType, Text: c.Description, Readable: readable(c.URI)}
		// A link is openable only if the link-safety analysis accepts it.
		if report, err := linkcheck.Check(c.URI); err != nil {
			v.LinkProblem = err.Error()
		} else {
			v.Link = report
		}
		return v
	case *sdk.EmbeddedResource:
		v := ContentView{Type: "resource"}
		if r := c.Resource; r != nil {
			v.URI, v.MimeType, v.Text, v.Readable = r.URI, r.MIMEType, r.Text, readable(r.URI)
			if r.Text == "" && len(r.Blob) > 0 {
				v.Text = fmt.Sprintf("(%d bytes of binary data)", len(r.Blob))
			}
		}
		return v
	}
	b, _ := json.Marshal(c)
	return ContentView{Type: "unknown", Text: string(b)}
}

// readable reports whether a resource URI is read through the server
// (resources/read) rather than opened in the browser: it is not a web
// address.
func readable(uri string) bool {
	scheme, _, ok := strings.Cut(uri, ":")
	scheme = strings.ToLower(scheme)
	return ok && uri != "" && scheme != "http" && scheme != "https"
}

func base64Of(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
