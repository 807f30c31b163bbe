package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/visible"
)

// DefaultMaxRounds bounds the tool rounds of one turn: a model that keeps
// calling tools cannot keep the person answering questions forever.
const DefaultMaxRounds = 10

// maxResultText bounds a tool result as the model receives it; the rest is
// cut with a note saying so, never silently.
const maxResultText = 64 * 1024

// MaxCallsPerAnswer bounds the tool calls of one answer of the model that
// are run (and asked about): the rest get a result saying they were not
// run, so that a model asking for a thousand calls at once does not put a
// thousand questions to the person.
const MaxCallsPerAnswer = 32

// Bounds of what the model sent that is named back to it and shown on the
// call's card when the call cannot run: a tool name, arguments that are not
// JSON. The rest is cut with a note.
const (
	maxNamedTool      = 200
	maxNamedArguments = 1024
)

// ErrTooManyRounds ends a turn whose model kept calling tools past MaxRounds.
var ErrTooManyRounds = errors.New("the model kept calling tools, so Gatehouse stopped this turn")

// Runner runs turns of conversations.
type Runner struct {
	Manager  *mcp.Manager
	Broker   *mcp.Broker
	Settings ToolSettings
	// MaxRounds bounds the tool rounds of a turn; 0 means DefaultMaxRounds.
	MaxRounds int
	// Ran, when set, hears each call of a tool with an interface (Call.App)
	// that returned a result, with the arguments sent and the result as the
	// server returned it, so that the app shown in the call's card gets
	// exactly those. It is called on Run's goroutine.
	Ran func(conversationID string, call Call, args map[string]any, res *sdk.CallToolResult)

	// running are the cancel functions of the calls running now, by
	// conversation and the model's call ID.
	running sync.Map
}

// CancelCall cancels one running tool call of a conversation, by the
// model's call ID, and reports whether one ran: the server is told
// (notifications/cancelled), the model reads that the person cancelled it,
// and the turn goes on.
func (r *Runner) CancelCall(conversationID, callID string) bool {
	cancel, ok := r.running.Load([2]string{conversationID, callID})
	if ok {
		cancel.(context.CancelFunc)()
	}
	return ok
}

// Turn is one message of the person and what it takes to answer it.
type Turn struct {
	ConversationID    string
	ConversationTitle string
	Provider          llm.Provider
	Model             string
	System            string
	// Servers are the servers whose tools are offered, by ID.
	Servers []string
	// History is the conversation before this turn, oldest first.
	History []llm.Message
	// Text is the person's message. Empty means the History ends with it
	// already (or with the tool results of a turn that failed after
	// them): the model answers again, for a retry, and no message of the
	// person is added.
	Text string
	// Attachments are the resources the person attached to Text (read with
	// ReadAttachments); they go to the model after it, as AttachmentParts.
	// With attachments, Text may be empty.
	Attachments []store.Attachment
	// AllowedHere are the tools allowed for the rest of this conversation,
	// each with what the person saw of it when they allowed it (nil when
	// that was not recorded): an allowance holds only while its tool is the
	// same.
	AllowedHere map[store.ToolKey]*store.ToolSeen
	// CallTimeout bounds each tool call; its clock stops while the person
	// answers the server's requests (mcp.Broker.CallTimeout). 0: no limit.
	CallTimeout time.Duration
	// Save, when set, stores each message of the turn as soon as it is
	// complete, so that a crash loses at most the text being streamed: the
	// person's message before the model is asked, each answer of the model
	// when its stream ends (before any of its calls is asked about), each
	// tool result when its call ends. It is called on Run's goroutine, in
	// the order of Result.Messages. An error from Save ends the turn: Run
	// returns it.
	Save func(Saved) error
}

// Saved is one complete message of a turn, as Turn.Save receives it.
type Saved struct {
	Message llm.Message
	// Calls describe the tool calls of an answer of the model (which
	// server and tool each names), or the call a tool result answers (and
	// how it ended), by the model's call ID.
	Calls map[string]Call
	// Usage is the turn's token use, on the model's last answer of a turn
	// that ended without an error; nil otherwise.
	Usage *llm.Usage
}

// Result is what a turn added to its conversation.
type Result struct {
	// Messages are the turn's messages: the person's (unless Turn.Text
	// was empty), then the model's and the tool results, in order. They are returned also when the turn
	// failed part way, so that nothing that happened is lost.
	Messages []llm.Message
	// Calls describe the tool calls, by the model's call ID.
	Calls map[string]Call
	// AllowedHere are the tools the person allowed for the rest of the
	// conversation during the turn, or allowed again as they are now after
	// they changed, each at most once.
	AllowedHere []store.ToolGrant
	Usage       llm.Usage
}

// Call is one tool call of a turn, as its card shows it.
type Call struct {
	ID         string          `json:"id"`
	ServerID   string          `json:"serverId"`
	ServerName string          `json:"serverName"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments" ts_type:"any"`
	// View is Arguments as the window shows them (visible.JSON), built once.
	View *visible.Node `json:"view,omitempty"`
	// State is CallAsking, CallRunning, CallWaiting, CallDone, CallFailed
	// or CallDenied.
	State string `json:"state"`
	// Result is the result's text as the model receives it.
	Result string `json:"result"`
	// Note says, in a sentence, why a call did not run or how it was allowed.
	Note i18n.Message `json:"note"`
	// Progress is how far a running call got, as its server said (nil
	// before it said anything).
	Progress *mcp.Progress `json:"progress,omitempty"`
	// App is true when the tool has an interface (MCP Apps) the window
	// shows in the call's card once it is done (app.AppsService.Open).
	App bool `json:"app,omitempty"`
}

// Call states.
const (
	CallAsking  = "asking"
	CallRunning = "running"
	// CallWaiting is a running call whose server asked the person something
	// (a form, a page to open, a sampling review): the call waits for the
	// answer and its time limit pauses.
	CallWaiting = "waiting"
	CallDone    = "done"
	CallFailed  = "failed"
	CallDenied  = "denied"
)

// Event kinds: what a running turn tells the window as it happens.
const (
	EventText      = "text"
	EventReasoning = "reasoning"
	EventCall      = "call"
	EventUsage     = "usage"
	// EventRound starts another model request after tool results.
	EventRound = "round"
)

// Event is one thing that happened in a running turn.
type Event struct {
	Kind  string     `json:"kind"`
	Text  string     `json:"text,omitempty"`
	Call  *Call      `json:"call,omitempty"`
	Usage *llm.Usage `json:"usage,omitempty"`
}

// Run answers turn: it streams the model, asks the person about each tool
// call through the broker, runs the allowed ones with exactly the approved
// arguments, and gives the model the results, round after round until the
// model answers without a tool call or MaxRounds is reached. emit is called
// as things happen, never twice at once: on Run's goroutine, except that a
// running call turning CallWaiting and back is told from the broker's. Ending ctx (Stop) cancels the
// stream, a question on screen and a running call. The error is a sentence:
// the provider's (llm.Error), ErrTooManyRounds, or ctx's.
func (r *Runner) Run(ctx context.Context, turn Turn, emit func(Event)) (Result, error) {
	res := Result{Calls: map[string]Call{}}
	// add appends a complete message to the turn and saves it (Turn.Save).
	add := func(m llm.Message, calls map[string]Call, usage *llm.Usage) error {
		res.Messages = append(res.Messages, m)
		if turn.Save == nil {
			return nil
		}
		return turn.Save(Saved{Message: m, Calls: calls, Usage: usage})
	}
	if turn.Text != "" || len(turn.Attachments) > 0 {
		if err := add(llm.Message{Role: llm.RoleUser, Text: turn.Text, Parts: AttachmentParts(turn.Attachments)}, nil, nil); err != nil {
			return res, err
		}
	}
	catalog := NewCatalog(r.serverTools(turn.Servers))
	allowedHere := maps.Clone(turn.AllowedHere)
	if allowedHere == nil {
		allowedHere = map[store.ToolKey]*store.ToolSeen{}
	}
	maxRounds := r.MaxRounds
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRounds
	}
	for round := 1; ; round++ {
		if round > 1 {
			emit(Event{Kind: EventRound})
		}
		req := llm.Request{Model: turn.Model, System: turn.System, Tools: catalog.Tools(),
			Messages: append(append([]llm.Message{}, turn.History...), res.Messages...)}
		answer, err := r.stream(ctx, turn.Provider, req, &res, emit)
		if err != nil {
			return res, err
		}
		if len(answer.ToolCalls) == 0 {
			var usage *llm.Usage
			if res.Usage != (llm.Usage{}) {
				u := res.Usage
				usage = &u
			}
			return res, add(answer, nil, usage)
		}
		if err := add(answer, callsOf(catalog, answer), nil); err != nil {
			return res, err
		}
		if round > maxRounds {
			// The calls of this answer are not made: each gets a result
			// saying so, so the conversation stays well formed.
			for _, tc := range answer.ToolCalls {
				if err := add(llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, IsError: true,
					Text: "Not run: Gatehouse stopped this turn after too many tool rounds."}, nil, nil); err != nil {
					return res, err
				}
			}
			return res, fmt.Errorf("%w (after %d rounds)", ErrTooManyRounds, maxRounds)
		}
		for i, tc := range answer.ToolCalls {
			if i >= MaxCallsPerAnswer {
				c := Call{ID: tc.ID, Tool: shownName(tc.Name), State: CallFailed,
					Result: fmt.Sprintf("Not run: Gatehouse runs at most %d tool calls of one answer.", MaxCallsPerAnswer),
					Note:   i18n.M("chat.call.tooMany", "max", MaxCallsPerAnswer)}
				res.Calls[tc.ID] = c
				emit(Event{Kind: EventCall, Call: &c})
				if err := add(llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, IsError: true, Text: c.Result}, map[string]Call{tc.ID: c}, nil); err != nil {
					return res, err
				}
				continue
			}
			msg, err := r.runCall(ctx, turn, catalog, tc, allowedHere, &res, emit)
			saveErr := add(msg, map[string]Call{tc.ID: res.Calls[tc.ID]}, nil)
			if err != nil {
				return res, err
			}
			if saveErr != nil {
				return res, saveErr
			}
		}
	}
}

// callsOf describes the tool calls of the model's answer as far as they are
// known before they are asked about: the server and tool each names.
func callsOf(catalog *Catalog, answer llm.Message) map[string]Call {
	calls := make(map[string]Call, len(answer.ToolCalls))
	for _, tc := range answer.ToolCalls {
		c := Call{ID: tc.ID, Tool: shownName(tc.Name), Arguments: tc.Arguments}
		if o, ok := catalog.Lookup(tc.Name); ok {
			c.ServerID, c.ServerName, c.Tool, c.App = o.ServerID, o.ServerName, o.Tool.Name, HasApp(o.Tool)
		}
		calls[tc.ID] = c
	}
	return calls
}

// stream runs one model request and returns the assistant's message.
func (r *Runner) stream(ctx context.Context, p llm.Provider, req llm.Request, res *Result, emit func(Event)) (llm.Message, error) {
	for ev, err := range p.Stream(ctx, req) {
		if err != nil {
			return llm.Message{}, err
		}
		switch ev.Type {
		case llm.EventText:
			emit(Event{Kind: EventText, Text: ev.Text})
		case llm.EventReasoning:
			emit(Event{Kind: EventReasoning, Text: ev.Text})
		case llm.EventUsage:
			res.Usage.InputTokens += ev.Usage.InputTokens
			res.Usage.OutputTokens += ev.Usage.OutputTokens
			u := ev.Usage
			emit(Event{Kind: EventUsage, Usage: &u})
		case llm.EventEnd:
			return ev.Message, nil
		}
	}
	return llm.Message{}, errors.New("the model's answer ended without its end")
}

// runCall decides on one tool call, runs it when allowed, and returns the
// tool message for the model. An error ends the turn (Stop).
func (r *Runner) runCall(ctx context.Context, turn Turn, catalog *Catalog, tc llm.ToolCall, allowedHere map[store.ToolKey]*store.ToolSeen,
	res *Result, emit func(Event)) (llm.Message, error) {
	call := Call{ID: tc.ID, Tool: shownName(tc.Name), Arguments: tc.Arguments}
	if tc.Arguments != nil {
		view := visible.JSON(tc.Arguments)
		call.View = &view
	}
	asked := time.Now()
	var args map[string]any
	var sent time.Time // when the call went to the server
	// record adds the call to the history once its server is known; why is
	// in Gatehouse's words, shown in the reader's language.
	record := func(outcome string, why i18n.Message, text string) {
		if call.ServerID == "" {
			return
		}
		run := mcp.ToolRun{ServerID: call.ServerID, ServerName: call.ServerName, Tool: call.Tool, Source: store.SourceChat,
			Started: asked, Outcome: outcome, Detail: why, Arguments: args, Result: text}
		if !sent.IsZero() {
			run.Started, run.Duration = sent, time.Since(sent)
		}
		r.Broker.RecordToolRun(run)
	}
	result := func(state, text string, note i18n.Message, isError bool) llm.Message {
		call.State, call.Result, call.Note = state, text, note
		res.Calls[call.ID] = call
		c := call
		emit(Event{Kind: EventCall, Call: &c})
		return llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Text: text, IsError: isError}
	}
	offered, ok := catalog.Lookup(tc.Name)
	if !ok {
		return result(CallFailed, fmt.Sprintf("There is no tool named %q.", cut(tc.Name, maxNamedTool)), i18n.Message{}, true), nil
	}
	call.ServerID, call.ServerName, call.Tool = offered.ServerID, offered.ServerName, offered.Tool.Name
	// failed answers the model with text (English: the model reads it) and
	// records why in the history.
	failed := func(text string, why i18n.Message) llm.Message {
		record(store.OutcomeError, why, "")
		return result(CallFailed, text, i18n.Message{}, true)
	}
	notJSON := i18n.M("chat.history.notJSON")
	if tc.Arguments == nil {
		return failed("The arguments were not a JSON object, so the tool was not called: "+cut(tc.MalformedArguments, maxNamedArguments), notJSON), nil
	}
	args, err := mcp.DecodeArguments(tc.Arguments)
	if err != nil {
		return failed("The arguments were not a JSON object, so the tool was not called.", notJSON), nil
	}

	// A server waiting to reconnect after a crash reconnects now, for this call (issue 26).
	err = r.Manager.Await(ctx, offered.ServerID)
	peer, perr := r.Manager.Peer(offered.ServerID)
	if err != nil || perr != nil {
		return failed(fmt.Sprintf("%s is not connected, so the tool was not called.", offered.ServerName),
			i18n.M("chat.history.notConnected", "server", offered.ServerName)), nil
	}
	// The tool as its server lists it now, which may have changed since the
	// turn began: what the person is asked about, and what a grant must
	// still match.
	tool, err := r.Manager.Tool(offered.ServerID, offered.Tool.Name)
	if err != nil {
		return failed(fmt.Sprintf("%s no longer offers this tool, so it was not called.", offered.ServerName),
			i18n.M("chat.history.toolGone", "server", offered.ServerName)), nil
	}
	call.App = HasApp(tool)
	call.State = CallAsking
	c := call
	emit(Event{Kind: EventCall, Call: &c})
	consented, err := Consent{Broker: r.Broker, Settings: r.Settings}.Approve(ctx, ConsentRequest{Peer: peer, Tool: tool,
		Call:        mcp.ToolCall{Arguments: tc.Arguments, ConversationID: turn.ConversationID, Conversation: turn.ConversationTitle},
		AllowedHere: func(k store.ToolKey) (*store.ToolSeen, bool) { s, ok := allowedHere[k]; return s, ok }})
	approval := consented.Approval
	if err != nil {
		record(store.OutcomeCancelled, i18n.M("mcp.history.stopped"), "")
		result(CallDenied, "The person stopped the turn before answering.", i18n.Message{}, true)
		return llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, IsError: true, Text: "Not run: the turn was stopped."}, err
	}
	if !approval.Allowed {
		// The model reads Gatehouse's words in English; the card and the history show them in the person's language.
		reason := approval.Reason.In(i18n.English)
		record(store.OutcomeDenied, approval.Reason, "")
		return result(CallDenied, reason, approval.Reason, true), nil
	}
	note := consented.Note
	if approval.Scope == mcp.ScopeConversation {
		seen := consented.Seen
		grant := store.ToolGrant{ServerID: offered.ServerID, Tool: tool.Name, Seen: &seen}
		if !allowedHere[grant.Key()].Same(seen) {
			allowedHere[grant.Key()] = &seen
			res.AllowedHere = slices.DeleteFunc(res.AllowedHere, func(g store.ToolGrant) bool { return g.Key() == grant.Key() })
			res.AllowedHere = append(res.AllowedHere, grant)
		}
	}

	call.State, call.Note = CallRunning, note
	c = call
	emit(Event{Kind: EventCall, Call: &c})
	sent = time.Now()
	out, err := r.callTool(ctx, turn, call, args, emit)
	switch {
	case ctx.Err() != nil:
		record(store.OutcomeCancelled, i18n.M("chat.history.stoppedWhileRunning"), "")
		result(CallFailed, "The turn was stopped while the tool ran.", note, true)
		return llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, IsError: true, Text: "The turn was stopped while the tool ran."}, ctx.Err()
	case errors.Is(err, errCallCancelled):
		text := "The person cancelled this call while it ran."
		record(store.OutcomeCancelled, i18n.M("chat.note.callCancelled"), "")
		return result(CallFailed, text, i18n.M("chat.note.callCancelled"), true), nil
	case errors.Is(err, errCallTimedOut):
		text := fmt.Sprintf("The tool took longer than %s, so Gatehouse stopped it.", i18n.Duration(turn.CallTimeout).In(i18n.English))
		record(store.OutcomeTimedOut, i18n.M("chat.history.timedOut", "duration", i18n.Duration(turn.CallTimeout)), "")
		return result(CallFailed, text, note, true), nil
	case err != nil:
		why := mcp.Describe(err)
		text := "The tool call failed: " + why.In(i18n.English)
		record(store.OutcomeError, why, "")
		return result(CallFailed, text, note, true), nil
	}
	if call.App && r.Ran != nil {
		r.Ran(turn.ConversationID, call, args, out)
	}
	text := resultText(out)
	if out.IsError {
		record(store.OutcomeError, i18n.Message{}, text)
		return result(CallFailed, text, note, true), nil
	}
	record(store.OutcomeOK, i18n.Message{}, text)
	return result(CallDone, text, note, false), nil
}

// errCallTimedOut is a call that reached Turn.CallTimeout.
var errCallTimedOut = errors.New("the tool call reached its time limit")

// errCallCancelled is a call the person cancelled on its card (CancelCall).
var errCallCancelled = errors.New("the person cancelled the tool call")

// callTool runs an approved call under the turn's call time limit. While the
// server asks the person something, the card says the call waits for an
// answer (CallWaiting) and the limit pauses.
func (r *Runner) callTool(ctx context.Context, turn Turn, call Call, args map[string]any, emit func(Event)) (*sdk.CallToolResult, error) {
	callCtx, cancel := r.Broker.CallTimeout(ctx, call.ServerID, turn.CallTimeout)
	defer cancel()
	personCtx, cancelByPerson := context.WithCancel(callCtx)
	defer cancelByPerson()
	key := [2]string{turn.ConversationID, call.ID}
	r.running.Store(key, cancelByPerson)
	defer r.running.Delete(key)
	var mu sync.Mutex
	waiting, over := false, false
	var progress *mcp.Progress
	// tell sends the card's state; mu is held.
	tell := func() {
		c := call
		if waiting {
			c.State = CallWaiting
		}
		c.Progress = progress
		emit(Event{Kind: EventCall, Call: &c})
	}
	unsubscribe := r.Broker.Subscribe(func(s mcp.Snapshot) {
		asking := s.Asking(call.ServerID)
		mu.Lock()
		defer mu.Unlock()
		if over || asking == waiting {
			return
		}
		waiting = asking
		tell()
	})
	personCtx = mcp.WithProgress(personCtx, func(p mcp.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if !over {
			progress = &p
			tell()
		}
	})
	out, err := r.Manager.CallTool(personCtx, call.ServerID, call.Tool, args)
	unsubscribe()
	mu.Lock()
	over = true // no waiting event after the result's
	mu.Unlock()
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(callCtx), context.DeadlineExceeded) {
		return nil, errCallTimedOut
	}
	if err != nil && callCtx.Err() == nil && personCtx.Err() != nil {
		return nil, errCallCancelled
	}
	return out, err
}

// serverTools lists the tools of the servers offered (those not connected
// offer none).
func (r *Runner) serverTools(ids []string) []ServerTools {
	var out []ServerTools
	for _, id := range ids {
		tools, err := r.Manager.Tools(id)
		if err != nil {
			continue
		}
		peer, err := r.Manager.Peer(id)
		if err != nil {
			continue
		}
		out = append(out, ServerTools{ServerID: id, ServerName: peer.Server.Name, Tools: tools})
	}
	return out
}

// resultText is a tool result as the model reads it (mcp.ResultText), cut
// at maxResultText with a note saying so.
func resultText(res *sdk.CallToolResult) string {
	return cut(mcp.ResultText(res), maxResultText)
}

// shownName is a tool name the model sent as its call's card shows it: at
// most maxNamedTool bytes, no broken character at the cut.
func shownName(name string) string {
	return strings.ToValidUTF8(truncateName(name, maxNamedTool), "")
}

// cut is text within max bytes, cut at a character with a note saying so
// (English: the model reads it) when it is longer.
func cut(text string, max int) string {
	if len(text) <= max {
		return text
	}
	at := max
	for at > 0 && !utf8.RuneStart(text[at]) {
		at--
	}
	return text[:at] + fmt.Sprintf("\n[Gatehouse cut this here: it was %d bytes, more than %d.]", len(text), max)
}

func readOnly(t *sdk.Tool) bool { return t.Annotations != nil && t.Annotations.ReadOnlyHint }

func destructive(t *sdk.Tool) bool {
	return t.Annotations != nil && t.Annotations.DestructiveHint != nil && *t.Annotations.DestructiveHint
}
