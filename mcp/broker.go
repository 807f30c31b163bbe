package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/visible"
)

// Broker defaults. A server may ask in bursts (a wizard of a few questions)
// but not flood: DefaultBurst questions at once, then one every DefaultEvery;
// at most DefaultQueueSize wait per server (E29).
const (
	DefaultElicitationTimeout = 10 * time.Minute
	DefaultBurst              = 5
	DefaultEvery              = 10 * time.Second
	DefaultQueueSize          = 10
	// noticeEvery bounds how often the flood notice for one server repeats.
	noticeEvery = 30 * time.Second
	// maxNotices bounds the notices kept for the person; the oldest go.
	maxNotices = 5
	// maxCachedSchemas bounds each server's cache of parsed forms.
	maxCachedSchemas = 16
	// maxEndedURLs is how many ended URL requests are remembered for
	// WaitCompleted.
	maxEndedURLs = 100
	// MaxMessageLength caps the characters of a question's message: one
	// over it is refused, never shown cut short.
	MaxMessageLength = 8 * 1024
)

// CodeTooManyRequests answers a request refused by the rate limit or a full
// queue. It is a JSON-RPC error, not "decline": the person did not decline.
const CodeTooManyRequests = -32000

// errRateLimited is ask's refusal by the rate limit or a full queue.
var errRateLimited = errors.New("too many requests from this server are waiting")

// refusedDetail is recorded when a person refuses a request from the queue.
const refusedDetail = "refused while waiting in the queue"

// BrokerStore is what the broker keeps in the store: policies to read,
// settings to read, history to write. *store.Store implements it.
type BrokerStore interface {
	Policy(serverID string) (store.Policy, error)
	Settings() (store.Settings, error)
	AddHistories(entries []store.HistoryEntry) error
}

// BrokerOptions configures a Broker. Zero values mean the defaults above.
type BrokerOptions struct {
	Store BrokerStore // required
	// Answerer, when set, answers the broker's questions one at a time
	// (AnswerWith): the CLI, the conformance client and tests. The window
	// leaves it nil and answers through Answer, Decline and Cancel.
	Answerer Answerer
	// Sampler runs sampling requests once the person approved them; nil
	// refuses every sampling request (SetSampler may set it later).
	Sampler   Sampler
	Burst     int
	Every     time.Duration
	QueueSize int
	// Now is the clock; tests may set it.
	Now func() time.Time
}

// Broker owns every question waiting for a person — form and URL
// elicitations and sign-in consents — from every server. It checks each (E4,
// E6, E18), applies the server's policy and rate limit (E29), queues it, and
// puts one at a time in front of the person, fairly across servers. Answer,
// Decline, Cancel and Refuse end questions; every outcome goes to the
// history. Whoever shows questions follows the broker's Snapshots
// (Subscribe); there is no other copy of this state.
type Broker struct {
	opts    BrokerOptions
	history *historyWriter

	mu       sync.Mutex
	servers  map[string]*serverQueue
	rotation []string // server IDs in the order they first asked
	served   string   // the server whose question was shown last
	current  *pending
	byID     map[string]*pending // the current question and those waiting
	// openedURLs are URL requests the person consented to, waiting for the
	// server's completion notice; endedURLs the latest that ended, oldest
	// first (see urlmode.go).
	openedURLs []*openedURL
	endedURLs  []*openedURL
	notices    []Notice
	noticeSeq  int
	// routes send the questions of a command-line command made through
	// the app to its terminal, newest last (route.go).
	routes  []*route
	subs    map[int]func(Snapshot)
	subSeq  int
	sampler Sampler

	// publishMu orders snapshots: each is taken and delivered under it, so
	// subscribers see versions in order.
	publishMu sync.Mutex
	version   uint64
}

type serverQueue struct {
	// schemas are this server's recently parsed forms, by their JSON text:
	// a server asking the same form again is not compiled again (issue 6,
	// P1). At most maxCachedSchemas, per server, so a server sending endless
	// new schemas only fills its own.
	schemas    map[string]*forms.Schema
	limiter    *rate.Limiter
	waiting    []*pending
	refused    int
	lastNotice time.Time
}

type pending struct {
	q       *Question
	ctx     context.Context
	answer  chan Response // buffered 1; written once, by finish
	shownAt time.Time
	// free questions (a sign-in the person started) spend no rate-limit token.
	free bool
	// completed is set when the server's completion notice for this URL
	// request came before the person's consent was recorded.
	completed bool
	// route is the terminal that answers this question instead of the
	// window; nil for the window.
	route *route
}

// NewBroker returns a broker; opts.Store is required.
func NewBroker(opts BrokerOptions) *Broker {
	if opts.Burst <= 0 {
		opts.Burst = DefaultBurst
	}
	if opts.Every <= 0 {
		opts.Every = DefaultEvery
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	b := &Broker{opts: opts, servers: map[string]*serverQueue{}, byID: map[string]*pending{},
		subs: map[int]func(Snapshot){}, history: newHistoryWriter(opts.Store.AddHistories)}
	b.sampler = opts.Sampler
	if opts.Answerer != nil {
		b.AnswerWith(opts.Answerer)
	}
	return b
}

// invalidParams is the JSON-RPC error for a request the host refuses to show.
func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// Elicit implements Asker: it is called on the session's goroutine for each
// elicitation/create and returns when the person (or policy, or a limit) has
// answered it.
func (b *Broker) Elicit(ctx context.Context, peer Peer, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	now := b.opts.Now()
	p := req.Params
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: p.Mode, Message: p.Message}
	if entry.Mode == "" {
		entry.Mode = KindForm // E3
	}
	refuse := func(msg string) (*sdk.ElicitResult, error) {
		entry.Outcome, entry.Detail = store.OutcomeInvalid, msg
		b.record(entry)
		return nil, invalidParams(msg)
	}
	rateLimited := func() (*sdk.ElicitResult, error) {
		entry.Outcome, entry.Detail = store.OutcomeRateLimited, "refused: the server sent too many requests"
		b.record(entry)
		return nil, &jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many elicitation requests from this server; the user was not asked"}
	}
	if !peer.offers(entry.Mode) {
		return refuse(fmt.Sprintf("elicitation mode %q was not offered to this server", p.Mode)) // E4
	}
	if utf8.RuneCountInString(p.Message) > MaxMessageLength {
		return refuse(fmt.Sprintf("the message is over %d characters", MaxMessageLength))
	}
	if b.overLimit(peer) {
		return rateLimited()
	}
	q := &Question{ID: newQuestionID(), Kind: entry.Mode, Server: serverRef(peer), Message: p.Message,
		ReceivedAt: now, Peer: peer, ElicitationID: p.ElicitationID}
	if q.Kind == KindURL {
		entry.URL = p.URL
		link, err := checkURLRequest(p)
		if err != nil {
			return refuse(err.Error()) // E18, E22: nothing is shown
		}
		q.Link = link
		entry.URL = link.URL // the address as checked and as it would open
	} else {
		raw, carried := rawSchemaOf(p.Meta)
		switch {
		case !carried && p.RequestedSchema == nil:
			return refuse("a form request must have a requestedSchema") // E6: nothing is shown
		case !carried:
			// The schema did not come through the host's own reading of the
			// wire (rawschema.go), so what would be sent could differ from
			// what is shown (E14): refuse rather than guess.
			return refuse("the requestedSchema could not be read exactly as sent")
		}
		fs, err := b.parseSchema(peer.Server.ID, raw)
		if err != nil {
			return refuse(err.Error()) // E6: nothing is shown
		}
		q.schema, q.Form, q.raw = fs, &fs.Form, raw
		for _, f := range fs.Form.Fields {
			entry.Fields = append(entry.Fields, f.Name)
			if f.Label != "" && f.Label != f.Name {
				if entry.Titles == nil {
					entry.Titles = map[string]string{}
				}
				entry.Titles[f.Name] = f.Label
			}
		}
	}

	settings, _ := b.opts.Store.Settings()
	policy, err := b.opts.Store.Policy(peer.Server.ID)
	if err != nil {
		policy = store.Policy{}
	}
	switch policy.Effective(now) {
	case store.PolicyDecline:
		entry.Outcome, entry.Detail = store.OutcomeDeclined, "declined automatically by the server's policy"
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionDecline}, nil
	case store.PolicyMute:
		entry.Outcome, entry.Detail = store.OutcomeCancelled, "not shown: the server is muted until "+policy.MutedUntil.Format(time.RFC3339)
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionCancel}, nil
	}

	timeout := settings.ElicitationTimeout
	if timeout <= 0 {
		timeout = DefaultElicitationTimeout
	}
	q.Deadline = now.Add(timeout)
	resp, shown, err := b.ask(ctx, q, false)
	entry.AnswerMs = shown.Milliseconds()
	switch {
	case errors.Is(err, errRateLimited):
		return rateLimited()
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		entry.Outcome, entry.Detail = store.OutcomeTimedOut, "no answer within "+i18n.Duration(timeout).In(i18n.English)
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionCancel}, nil // E26: a timeout is a cancel
	case err != nil:
		entry.Outcome, entry.Detail = store.OutcomeServerCancelled, "the server withdrew the request or disconnected"
		b.record(entry)
		return nil, ctx.Err()
	}
	entry.Detail = resp.detail
	switch {
	case resp.Action == ActionAccept && q.Kind == KindURL:
		// E23: accept is consent to open, and carries no content. The
		// person's side opened the URL; the broker now waits for the server
		// to say it is done (finish, openLocked).
		entry.Outcome = store.OutcomeAccepted
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionAccept}, nil
	case resp.Action == ActionAccept:
		// E15: the values the person sent are checked by the broker,
		// whatever the UI did: by Answer (every form answer goes through it),
		// else here.
		content, errs := resp.content, map[string]i18n.Message(nil)
		if !resp.validated {
			content, errs = q.schema.Validate(resp.Values)
		}
		if len(errs) > 0 {
			// Send nothing the person did not see validated; treat it as a cancel.
			entry.Outcome, entry.Detail = store.OutcomeCancelled, "the answer did not pass validation and was not sent"
			b.record(entry)
			return &sdk.ElicitResult{Action: ActionCancel}, nil
		}
		entry.Outcome = store.OutcomeAccepted
		if settings.RememberAnswers {
			entry.Answer = maps.Clone(content) // written later, in the background
		}
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionAccept, Content: content}, nil
	case resp.Action == ActionDecline:
		entry.Outcome = store.OutcomeDeclined
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionDecline}, nil
	default:
		entry.Outcome = store.OutcomeCancelled
		b.record(entry)
		return &sdk.ElicitResult{Action: ActionCancel}, nil
	}
}

// SignIn implements Asker: the sign-in consent is asked like a URL request,
// one question at a time, and recorded in the history. The person started
// it, so it spends no rate-limit token. The question names the server's
// own address (peer.Where), where the person signs in; link is the page
// that accepting opens (Gatehouse's start page, see Asker.SignIn).
func (b *Broker) SignIn(ctx context.Context, peer Peer, link *linkcheck.Report) (bool, error) {
	now := b.opts.Now()
	where := peer.Where
	if l, err := linkcheck.Check(peer.Where); err == nil {
		where = l.Domain
		if where == "" {
			where = l.Host
		}
	}
	msg := fmt.Sprintf("%s wants you to sign in at %s.", peer.Server.Name, where)
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: KindSignIn, Message: msg, URL: peer.Where}
	q := &Question{ID: newQuestionID(), Kind: KindSignIn, Server: serverRef(peer), Message: msg, Link: link,
		ReceivedAt: now, Deadline: now.Add(SignInTimeout), Peer: peer}
	resp, shown, err := b.ask(ctx, q, true)
	entry.AnswerMs = shown.Milliseconds()
	switch {
	case errors.Is(err, errRateLimited):
		entry.Outcome = store.OutcomeRateLimited
		b.record(entry)
		return false, i18n.Err("mcp.broker.tooManyWaiting")
	case err != nil:
		entry.Outcome = store.OutcomeCancelled
		b.record(entry)
		return false, i18n.Wrap(err, "mcp.signin.notAnswered", "detail", err)
	}
	switch resp.Action {
	case ActionAccept:
		entry.Outcome = store.OutcomeAccepted
	case ActionDecline:
		entry.Outcome = store.OutcomeDeclined
	default:
		entry.Outcome = store.OutcomeCancelled
	}
	b.record(entry)
	return resp.Action == ActionAccept, nil
}

// CodeSamplingRejected answers a sampling request the person (or a policy)
// rejected, at either step, as the specification asks.
const CodeSamplingRejected = -1

// SetSampler sets who runs approved sampling requests (nil: nobody).
func (b *Broker) SetSampler(s Sampler) {
	b.mu.Lock()
	b.sampler = s
	b.mu.Unlock()
}

// Sample implements Asker for sampling/createMessage (deprecated from
// 2026-07-28, still used by servers on earlier revisions). The person sees
// the request first — who asks, its messages, system prompt, model hints
// and token limit — may edit the prompt and choose the model, then sees the
// model's answer before the server gets it; a rejection at either step is
// error -1. It is a question like any other: the server's policy, the rate
// limit, one on screen at a time, and the history.
func (b *Broker) Sample(ctx context.Context, peer Peer, p *sdk.CreateMessageParams) (*sdk.CreateMessageResult, error) {
	now := b.opts.Now()
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: KindSampling,
		Message: "Asks your model to write a message"}
	rejected := func(outcome, detail string) (*sdk.CreateMessageResult, error) {
		entry.Outcome, entry.Detail = outcome, detail
		b.record(entry)
		return nil, &jsonrpc.Error{Code: CodeSamplingRejected, Message: "User rejected sampling request: " + detail}
	}
	b.mu.Lock()
	sampler := b.sampler
	b.mu.Unlock()
	if sampler == nil || len(sampler.Models()) == 0 {
		return rejected(store.OutcomeInvalid, "no model is set up in Gatehouse")
	}
	if p == nil || len(p.Messages) == 0 {
		entry.Outcome, entry.Detail = store.OutcomeInvalid, "a sampling request must have messages"
		b.record(entry)
		return nil, invalidParams(entry.Detail)
	}
	if b.overLimit(peer) {
		entry.Outcome, entry.Detail = store.OutcomeRateLimited, "refused: the server sent too many requests"
		b.record(entry)
		return nil, &jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many requests from this server; the user was not asked"}
	}
	policy, err := b.opts.Store.Policy(peer.Server.ID)
	if err == nil {
		switch policy.Effective(now) {
		case store.PolicyDecline:
			return rejected(store.OutcomeDeclined, "declined automatically by the server's policy")
		case store.PolicyMute:
			return rejected(store.OutcomeCancelled, "the server is muted")
		}
	}
	req := samplingOf(p, sampler.Models())
	settings, _ := b.opts.Store.Settings()
	timeout := settings.ElicitationTimeout
	if timeout <= 0 {
		timeout = DefaultElicitationTimeout
	}
	ask := func(kind string, sampling *Sampling) (Response, error) {
		at := b.opts.Now()
		q := &Question{ID: newQuestionID(), Kind: kind, Server: serverRef(peer), Sampling: sampling,
			ReceivedAt: at, Deadline: at.Add(timeout), Peer: peer}
		resp, shown, err := b.ask(ctx, q, kind == KindSamplingResult) // the answer step was already admitted
		entry.AnswerMs += shown.Milliseconds()
		return resp, err
	}
	asked := func(err error) (*sdk.CreateMessageResult, error) {
		switch {
		case errors.Is(err, errRateLimited):
			entry.Outcome, entry.Detail = store.OutcomeRateLimited, "refused: the server sent too many requests"
			b.record(entry)
			return nil, &jsonrpc.Error{Code: CodeTooManyRequests, Message: "too many requests from this server; the user was not asked"}
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			return rejected(store.OutcomeTimedOut, "no answer within "+i18n.Duration(timeout).In(i18n.English))
		}
		entry.Outcome, entry.Detail = store.OutcomeServerCancelled, "the server withdrew the request or disconnected"
		b.record(entry)
		return nil, ctx.Err()
	}

	resp, err := ask(KindSampling, req)
	if err != nil {
		return asked(err)
	}
	if resp.Action != ActionAccept {
		return rejected(outcomeOf(resp.Action), "the person rejected the request")
	}
	run, model, err := applySamplingEdit(req, resp.Edit)
	if err != nil {
		return rejected(store.OutcomeInvalid, err.Error())
	}
	result, err := sampler.Sample(ctx, model, run)
	if err != nil {
		entry.Outcome, entry.Detail = store.OutcomeCancelled, "the model failed: "+err.Error()
		b.record(entry)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the host's model could not answer: " + err.Error()}
	}
	review := run
	review.Result = &result
	if resp, err = ask(KindSamplingResult, &review); err != nil {
		return asked(err)
	}
	if resp.Action != ActionAccept {
		return rejected(outcomeOf(resp.Action), "the person rejected the model's answer")
	}
	entry.Outcome, entry.Detail = store.OutcomeAccepted, "answered by "+result.Model
	if settings.RememberAnswers {
		entry.Answer = map[string]any{"text": result.Text}
	}
	b.record(entry)
	return &sdk.CreateMessageResult{Content: &sdk.TextContent{Text: result.Text}, Model: result.Model, Role: "assistant",
		StopReason: result.StopReason}, nil
}

// samplingOf turns a sampling request into what the person reviews.
func samplingOf(p *sdk.CreateMessageParams, models []SamplingModel) *Sampling {
	s := &Sampling{SystemPrompt: p.SystemPrompt, MaxTokens: p.MaxTokens, Messages: []SamplingMessage{}, ModelHints: []string{},
		Models: slices.Clone(models)}
	for _, m := range p.Messages {
		if m == nil {
			continue
		}
		text := "[empty]"
		switch c := m.Content.(type) {
		case *sdk.TextContent:
			text = c.Text
		case *sdk.ImageContent:
			text = fmt.Sprintf("[an image, %s, not sent to the model]", c.MIMEType)
		case *sdk.AudioContent:
			text = fmt.Sprintf("[audio, %s, not sent to the model]", c.MIMEType)
		}
		s.Messages = append(s.Messages, SamplingMessage{Role: string(m.Role), Text: text})
	}
	if p.ModelPreferences != nil {
		for _, h := range p.ModelPreferences.Hints {
			if h != nil && h.Name != "" {
				s.ModelHints = append(s.ModelHints, h.Name)
			}
		}
	}
	return s
}

// applySamplingEdit returns the request as the person left it and the model
// they chose (the first offered when they chose none).
func applySamplingEdit(req *Sampling, edit *SamplingEdit) (Sampling, string, error) {
	run := *req
	run.Messages = slices.Clone(req.Messages)
	model := req.Models[0].ID
	if edit == nil {
		return run, model, nil
	}
	if edit.Model != "" {
		if !slices.ContainsFunc(req.Models, func(m SamplingModel) bool { return m.ID == edit.Model }) {
			return run, "", i18n.Err("mcp.sampling.unknownModel", "model", strconv.Quote(edit.Model))
		}
		model = edit.Model
	}
	run.SystemPrompt = edit.SystemPrompt
	if edit.Messages != nil {
		if len(edit.Messages) != len(req.Messages) {
			return run, "", i18n.Err("mcp.sampling.messageCount")
		}
		for i := range run.Messages {
			run.Messages[i].Text = edit.Messages[i].Text // roles stay the server's
		}
	}
	return run, model, nil
}

// outcomeOf is the history outcome of a declining action.
func outcomeOf(action string) string {
	if action == ActionDecline {
		return store.OutcomeDeclined
	}
	return store.OutcomeCancelled
}

// ApproveToolCall decides whether a model may make call on peer's server.
// policy is what the person's settings say for this tool here, decided by
// the caller (the chat) from their per-tool and per-server choices
// (store.ToolAllow, ToolDeny or ToolAsk), and why is the reason in a
// sentence. Only store.ToolAsk asks the person, as a question like any
// other: one on screen at a time, the server's rate limit, the answer time;
// ending ctx (the person pressed Stop) withdraws it. Every decision goes to
// the history. A call that is not allowed comes back with Reason set, for
// the model and the person.
func (b *Broker) ApproveToolCall(ctx context.Context, peer Peer, call ToolCall, policy store.ToolMode, why i18n.Message) (Approval, error) {
	now := b.opts.Now()
	settings, _ := b.opts.Store.Settings()
	entry := store.HistoryEntry{Time: now, ServerID: peer.Server.ID, ServerName: peer.Server.Name, Mode: KindToolCall,
		Message: fmt.Sprintf("Call %s", call.Tool), Tool: call.Tool}
	if settings.RememberAnswers {
		entry.Answer = map[string]any{"arguments": call.Arguments}
	}
	switch policy {
	case store.ToolAllow:
		entry.Outcome, entry.Detail = store.OutcomeAccepted, "allowed without asking: "+why.In(i18n.English)
		b.record(entry)
		return Approval{Allowed: true, Scope: ScopeOnce}, nil
	case store.ToolDeny:
		entry.Outcome, entry.Detail = store.OutcomeDeclined, "denied without asking: "+why.In(i18n.English)
		b.record(entry)
		return Approval{Reason: i18n.M("mcp.approval.settings", "why", why)}, nil
	}
	timeout := settings.ElicitationTimeout
	if timeout <= 0 {
		timeout = DefaultElicitationTimeout
	}
	call.Arguments = slices.Clone(call.Arguments)
	call.View = visible.JSON(call.Arguments)
	q := &Question{ID: newQuestionID(), Kind: KindToolCall, Server: serverRef(peer), Message: call.Description,
		ToolCall: &call, ReceivedAt: now, Deadline: now.Add(timeout), Peer: peer}
	resp, shown, err := b.ask(ctx, q, false)
	entry.AnswerMs = shown.Milliseconds()
	switch {
	case errors.Is(err, errRateLimited):
		entry.Outcome = store.OutcomeRateLimited
		b.record(entry)
		return Approval{Reason: i18n.M("mcp.approval.flood")}, nil
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		entry.Outcome, entry.Detail = store.OutcomeTimedOut, "no answer within "+i18n.Duration(timeout).In(i18n.English)
		b.record(entry)
		return Approval{Asked: true, Reason: i18n.M("mcp.approval.timedOut")}, nil
	case err != nil:
		entry.Outcome, entry.Detail = store.OutcomeCancelled, "stopped before the person answered"
		b.record(entry)
		return Approval{}, err
	}
	switch resp.Action {
	case ActionAccept:
		entry.Outcome, entry.Detail = store.OutcomeAccepted, "allowed: "+resp.Scope
		b.record(entry)
		return Approval{Allowed: true, Scope: resp.Scope, Asked: true}, nil
	case ActionDecline:
		entry.Outcome = store.OutcomeDeclined
		b.record(entry)
		return Approval{Asked: true, Reason: i18n.M("mcp.approval.denied")}, nil
	default:
		entry.Outcome = store.OutcomeCancelled
		b.record(entry)
		return Approval{Asked: true, Reason: i18n.M("mcp.approval.dismissed")}, nil
	}
}

// ToolRun is one tool call as it was made, for the history: who made it,
// on which server, when, how it ended and how long it took.
type ToolRun struct {
	ServerID   string
	ServerName string
	Tool       string
	Source     string        // store.SourceToolsPane or store.SourceChat
	Started    time.Time     // when the call was sent (or refused)
	Duration   time.Duration // from sent to its end; 0 when it was not sent
	Outcome    string        // store.OutcomeOK, OutcomeError, OutcomeCancelled, OutcomeTimedOut or OutcomeDenied
	Detail     string        // why, in a sentence, when it did not end OK
	Arguments  map[string]any
	Result     string // the result as text; the store keeps at most store.MaxHistoryResult bytes
}

// RecordToolRun adds run to the history, written in the background like the
// answers to questions. Its arguments and result are kept only when
// Settings → Remember my answers is on: a tool's arguments can be as private
// as a form's answers.
func (b *Broker) RecordToolRun(run ToolRun) {
	settings, _ := b.opts.Store.Settings()
	e := store.HistoryEntry{Time: run.Started, ServerID: run.ServerID, ServerName: run.ServerName, Mode: KindToolRun,
		Tool: run.Tool, Source: run.Source, DurationMs: run.Duration.Milliseconds(), Outcome: run.Outcome, Detail: run.Detail}
	if e.Time.IsZero() {
		e.Time = b.opts.Now()
	}
	if settings.RememberAnswers {
		e.Arguments = maps.Clone(run.Arguments)
		e.Result = run.Result
	}
	b.record(e)
}

// ask queues q, shows it when its turn comes and waits for the person's
// answer. It ends early with errRateLimited when the server has too many
// questions pending, or with the context's error when ctx ends (the server
// withdrew it or disconnected) or q's deadline passes. shown is how long q
// was on screen.
func (b *Broker) ask(ctx context.Context, q *Question, free bool) (resp Response, shown time.Duration, err error) {
	pctx, cancel := context.WithDeadline(ctx, q.Deadline)
	defer cancel()
	pd := &pending{q: q, ctx: pctx, answer: make(chan Response, 1), free: free}
	if !b.admit(pd) {
		return Response{}, 0, errRateLimited
	}
	select {
	case resp = <-pd.answer:
	case <-pctx.Done():
		if !b.withdraw(pd, errors.Is(pctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil) {
			resp = <-pd.answer // answered in the same instant: the answer wins
			break
		}
		err = pctx.Err()
	}
	b.mu.Lock()
	if !pd.shownAt.IsZero() {
		shown = b.opts.Now().Sub(pd.shownAt)
	}
	b.mu.Unlock()
	return resp, shown, err
}

// parseSchema is forms.ParseElicitation with a small per-server cache, keyed
// by the schema's bytes as the server sent them. A forms.Schema is not
// changed after parsing, so questions can share one.
func (b *Broker) parseSchema(serverID string, raw json.RawMessage) (*forms.Schema, error) {
	key := string(raw)
	b.mu.Lock()
	q := b.queueLocked(serverID)
	fs := q.schemas[key]
	b.mu.Unlock()
	if fs != nil {
		return fs, nil
	}
	fs, err := forms.ParseElicitation(raw)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	if q.schemas == nil || len(q.schemas) >= maxCachedSchemas {
		q.schemas = map[string]*forms.Schema{}
	}
	q.schemas[key] = fs
	b.mu.Unlock()
	return fs, nil
}

// queueLocked returns the server's queue, creating it. b.mu is held.
func (b *Broker) queueLocked(id string) *serverQueue {
	q := b.servers[id]
	if q == nil {
		q = &serverQueue{limiter: rate.NewLimiter(rate.Every(b.opts.Every), b.opts.Burst)}
		b.servers[id] = q
	}
	return q
}

// idleLocked reports whether nothing of the server is on screen or waiting.
// A question that finds its server idle is always admitted (it still spends
// a token if one is left): a server that asks one question after another,
// each after the person answered the last, cannot bury anyone, and refusing
// its sixth question in a minute would only break a conversation the person
// is having. Questions that pile up are what the token bucket limits (E29).
func (b *Broker) idleLocked(id string, q *serverQueue) bool {
	return len(q.waiting) == 0 && (b.current == nil || b.current.q.Server.ID != id) && !b.routeShowingLocked(id)
}

// refusedLocked counts a refusal and adds the flood notice when one is due
// (at most one per noticeEvery); it reports whether it added one. b.mu is held.
func (b *Broker) refusedLocked(q *serverQueue, server ServerRef) bool {
	q.refused++
	now := b.opts.Now()
	if now.Sub(q.lastNotice) < noticeEvery {
		return false
	}
	q.lastNotice = now
	// One flood notice per server: a new one replaces the old.
	b.notices = slices.DeleteFunc(b.notices, func(n Notice) bool { return n.Kind == NoticeFlood && n.ServerID == server.ID })
	b.addNoticeLocked(Notice{Kind: NoticeFlood, ServerID: server.ID, ServerName: server.Name, Refused: q.refused,
		Message: i18n.M("mcp.notice.flood", "server", server.Name)})
	q.refused = 0
	return true
}

// addNoticeLocked keeps n for the person (the newest maxNotices). b.mu is held.
func (b *Broker) addNoticeLocked(n Notice) {
	b.noticeSeq++
	n.ID = fmt.Sprintf("n%d", b.noticeSeq)
	b.notices = append(b.notices, n)
	if len(b.notices) > maxNotices {
		b.notices = slices.Delete(b.notices, 0, len(b.notices)-maxNotices)
	}
}

// overLimit is admit's check made before the question is parsed, without
// spending anything: a flood is refused for the cost of a lock, not of a
// schema compilation each (issue 6, P5).
func (b *Broker) overLimit(peer Peer) bool {
	id := peer.Server.ID
	b.mu.Lock()
	q := b.servers[id]
	if q == nil {
		b.mu.Unlock()
		return false
	}
	over := len(q.waiting) >= b.opts.QueueSize || (!b.idleLocked(id, q) && q.limiter.TokensAt(b.opts.Now()) < 1)
	noticed := over && b.refusedLocked(q, serverRef(peer))
	b.mu.Unlock()
	if noticed {
		b.publish()
	}
	return over
}

// admit takes a rate-limit token and a queue place for pd, or refuses it.
func (b *Broker) admit(pd *pending) bool {
	id := pd.q.Server.ID
	b.mu.Lock()
	q := b.queueLocked(id)
	allowed := pd.free || q.limiter.AllowN(b.opts.Now(), 1)
	if len(q.waiting) >= b.opts.QueueSize || (!allowed && !b.idleLocked(id, q)) {
		noticed := b.refusedLocked(q, pd.q.Server)
		b.mu.Unlock()
		if noticed {
			b.publish()
		}
		return false
	}
	pd.route = b.routeLocked(pd.q)
	q.waiting = append(q.waiting, pd)
	if !slices.Contains(b.rotation, id) {
		b.rotation = append(b.rotation, id)
	}
	b.byID[pd.q.ID] = pd
	b.dispatchLocked()
	b.mu.Unlock()
	b.publish()
	return true
}

// dispatchLocked puts the next question on screen if none is. Servers take
// turns: after one of a server's questions, every other server with a
// question waiting goes before its next one. b.mu is held.
func (b *Broker) dispatchLocked() {
	b.dispatchRoutesLocked()
	if b.current != nil {
		return
	}
	start := slices.Index(b.rotation, b.served) + 1
	for i := range b.rotation {
		id := b.rotation[(start+i)%len(b.rotation)]
		q := b.servers[id]
		// A question whose server already gave up on it is not shown; its
		// ask call takes it out (withdraw).
		for len(q.waiting) > 0 && q.waiting[0].ctx.Err() != nil {
			q.waiting = q.waiting[1:]
		}
		// Questions routed to a terminal are its to show (route.go).
		if i := slices.IndexFunc(q.waiting, func(pd *pending) bool { return pd.route == nil && pd.ctx.Err() == nil }); i >= 0 {
			b.current = q.waiting[i]
			q.waiting = slices.Delete(q.waiting, i, i+1)
			b.current.shownAt = b.opts.Now()
			b.served = id
			return
		}
	}
}

// takeLocked removes pd from the screen or its queue; it reports false when
// pd was no longer pending (already answered or withdrawn). b.mu is held.
func (b *Broker) takeLocked(pd *pending) bool {
	if b.byID[pd.q.ID] != pd {
		return false
	}
	delete(b.byID, pd.q.ID)
	if b.current == pd {
		b.current = nil
	} else if pd.route != nil && pd.route.current == pd {
		pd.route.current = nil
	} else if q := b.servers[pd.q.Server.ID]; q != nil {
		q.waiting = slices.DeleteFunc(q.waiting, func(w *pending) bool { return w == pd })
	}
	b.dispatchLocked()
	return true
}

// finish ends a pending question with the person's response. The question
// leaves the screen before its asker hears the answer, so that the server's
// next question finds nothing of it on screen (see admit).
func (b *Broker) finish(id string, resp Response, waitingOnly bool) error {
	b.mu.Lock()
	pd := b.byID[id]
	switch {
	case pd == nil:
		b.mu.Unlock()
		return ErrNotOpen
	case waitingOnly && (pd == b.current || pd.route != nil && pd.route.current == pd):
		b.mu.Unlock()
		return i18n.Err("mcp.broker.onScreen")
	}
	b.takeLocked(pd)
	var opened *openedURL
	if resp.Action == ActionAccept && pd.q.Kind == KindURL {
		opened = b.openLocked(pd) // E23: accept is consent to open; wait for the server
	}
	pd.answer <- resp // buffered, and taken only once
	b.mu.Unlock()
	if opened != nil {
		b.watchOpened(opened, pd.completed)
	}
	b.publish()
	return nil
}

// withdraw takes pd off the screen or out of its queue after its context
// ended, and reports whether it did (false: it was answered meanwhile). A
// question the person was looking at leaves a notice saying why it closed.
func (b *Broker) withdraw(pd *pending, timedOut bool) bool {
	b.mu.Lock()
	wasShown := b.current == pd
	if !b.takeLocked(pd) {
		b.mu.Unlock()
		return false
	}
	if wasShown {
		n := Notice{Kind: NoticeWithdrawn, ServerID: pd.q.Server.ID, ServerName: pd.q.Server.Name,
			Message: i18n.M("mcp.notice.withdrawn", "server", pd.q.Server.Name)}
		if timedOut {
			n.Kind = NoticeTimedOut
			n.Message = i18n.M("mcp.notice.timedOut", "server", pd.q.Server.Name,
				"duration", i18n.Duration(pd.q.Deadline.Sub(pd.q.ReceivedAt)))
		}
		b.addNoticeLocked(n)
	}
	b.mu.Unlock()
	b.publish()
	return true
}

// Answer accepts the question on screen. A form's values are validated
// first (E14, E15): when they do not pass, nothing is sent, the question
// stays, and the problems come back per field. A web page question (a URL
// request or a sign-in) takes no values: answering it is the consent, given
// once its page has been opened (E21, E23).
func (b *Broker) Answer(id string, values map[string]any) (map[string]i18n.Message, error) {
	b.mu.Lock()
	pd := b.byID[id]
	b.mu.Unlock()
	if pd == nil {
		return nil, ErrNotOpen
	}
	switch {
	case pd.q.Kind == KindForm:
		content, errs := pd.q.schema.Validate(values)
		if len(errs) > 0 {
			return errs, nil
		}
		// What passed is what Elicit sends: validated here, once (issue 15, P1).
		return nil, b.finish(id, Response{Action: ActionAccept, Values: values, content: content, validated: true}, false)
	case pd.q.Kind == KindToolCall:
		return nil, errors.New("a tool call is allowed with Allow, for once, this conversation or always")
	case pd.q.Kind == KindSampling && values != nil:
		return nil, errors.New("a sampling request is approved with ReviewSampling")
	case values != nil:
		return nil, i18n.Err("mcp.broker.notAForm")
	}
	return nil, b.finish(id, Response{Action: ActionAccept, Values: values}, false)
}

// ReviewSampling approves a sampling request with the person's changes:
// the model they chose and the prompt as they left it.
func (b *Broker) ReviewSampling(id string, edit SamplingEdit) error {
	b.mu.Lock()
	pd := b.byID[id]
	b.mu.Unlock()
	if pd == nil {
		return ErrNotOpen
	}
	if pd.q.Kind != KindSampling {
		return errors.New("this request is not a sampling request")
	}
	return b.finish(id, Response{Action: ActionAccept, Edit: &edit}, false)
}

// Allow approves the tool call on screen, for ScopeOnce, ScopeConversation
// or ScopeAlways. Deny is Decline.
func (b *Broker) Allow(id, scope string) error {
	if scope != ScopeOnce && scope != ScopeConversation && scope != ScopeAlways {
		return fmt.Errorf("unknown approval scope %q: use once, conversation or always", scope)
	}
	b.mu.Lock()
	pd := b.byID[id]
	b.mu.Unlock()
	if pd == nil {
		return ErrNotOpen
	}
	if pd.q.Kind != KindToolCall {
		return errors.New("this request is not a tool call")
	}
	return b.finish(id, Response{Action: ActionAccept, Scope: scope}, false)
}

// Decline answers a question with an explicit no (E26), on screen or waiting.
func (b *Broker) Decline(id string) error {
	return b.finish(id, Response{Action: ActionDecline}, false)
}

// Cancel dismisses a question (E26), on screen or waiting.
func (b *Broker) Cancel(id string) error {
	return b.finish(id, Response{Action: ActionCancel}, false)
}

// Refuse answers a question that is waiting in the queue, without showing
// it (E28): action is ActionDecline or ActionCancel.
func (b *Broker) Refuse(id, action string) error {
	if action != ActionDecline && action != ActionCancel {
		return errors.New("a waiting request can only be declined or cancelled")
	}
	if err := b.finish(id, Response{Action: action, detail: refusedDetail}, true); err != nil {
		if errors.Is(err, ErrNotOpen) {
			return i18n.Err("mcp.broker.notWaiting")
		}
		return err
	}
	return nil
}

// RefuseAll answers every waiting question of a server (for Mute and the
// decline policy).
func (b *Broker) RefuseAll(serverID, action string) {
	b.mu.Lock()
	var ids []string
	if q := b.servers[serverID]; q != nil {
		for _, pd := range q.waiting {
			ids = append(ids, pd.q.ID)
		}
	}
	b.mu.Unlock()
	for _, id := range ids {
		_ = b.Refuse(id, action)
	}
}

// Validate checks form values for a pending question as Answer would,
// without answering, so the person sees problems as they type (E15).
func (b *Broker) Validate(id string, values map[string]any) (map[string]i18n.Message, error) {
	b.mu.Lock()
	pd := b.byID[id]
	b.mu.Unlock()
	if pd == nil {
		return nil, ErrNotOpen
	}
	return pd.q.Validate(values), nil
}

// Question returns a pending question (on screen or waiting) by ID.
func (b *Broker) Question(id string) (*Question, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if pd := b.byID[id]; pd != nil {
		return pd.q, nil
	}
	return nil, ErrNotOpen
}

// DismissNotice removes a notice the person has read.
func (b *Broker) DismissNotice(id string) {
	b.mu.Lock()
	n := len(b.notices)
	b.notices = slices.DeleteFunc(b.notices, func(x Notice) bool { return x.ID == id })
	changed := len(b.notices) != n
	b.mu.Unlock()
	if changed {
		b.publish()
	}
}

// DismissFlood removes a server's flood notice (after the person muted it).
func (b *Broker) DismissFlood(serverID string) {
	b.mu.Lock()
	b.notices = slices.DeleteFunc(b.notices, func(x Notice) bool { return x.Kind == NoticeFlood && x.ServerID == serverID })
	b.mu.Unlock()
	b.publish()
}

// Busy reports whether a request from the server is on screen or waiting,
// or a page it asked for is open, so that a tool call's own time limit can
// pause while the person answers (CallTimeout). It is Snapshot.Asking on
// the state now: one rule for the Tools pane, the chat and the window.
func (b *Broker) Busy(serverID string) bool {
	return b.Snapshot().Asking(serverID) || b.routeBusy(serverID)
}

// Snapshot returns everything pending now, with the version of the latest
// published snapshot. A window that loads asks for it once, then follows
// the published ones (Subscribe).
func (b *Broker) Snapshot() Snapshot {
	b.publishMu.Lock()
	defer b.publishMu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.snapshotLocked()
}

// Subscribe calls f with every snapshot published from now on, in version
// order, until the returned function is called. f runs on the goroutine that
// changed the state and must not call back into the broker synchronously.
func (b *Broker) Subscribe(f func(Snapshot)) (unsubscribe func()) {
	b.mu.Lock()
	b.subSeq++
	id := b.subSeq
	b.subs[id] = f
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		delete(b.subs, id)
		b.mu.Unlock()
	}
}

// publish sends a new snapshot to every subscriber.
func (b *Broker) publish() {
	b.publishMu.Lock()
	defer b.publishMu.Unlock()
	b.mu.Lock()
	b.version++
	s := b.snapshotLocked()
	subs := slices.Collect(maps.Values(b.subs))
	b.mu.Unlock()
	for _, f := range subs {
		f(s)
	}
}

// snapshotLocked copies the state; b.publishMu and b.mu are held.
func (b *Broker) snapshotLocked() Snapshot {
	s := Snapshot{Version: b.version, Waiting: []Waiting{}, Opened: b.openedLocked(), Notices: slices.Clone(b.notices)}
	if s.Notices == nil {
		s.Notices = []Notice{}
	}
	if b.current != nil {
		s.Current = b.current.q
	}
	for _, id := range b.rotation {
		for _, pd := range b.servers[id].waiting {
			if pd.route != nil {
				continue // a terminal answers it (route.go)
			}
			s.Waiting = append(s.Waiting, Waiting{ID: pd.q.ID, Kind: pd.q.Kind, ServerID: id, ServerName: pd.q.Server.Name,
				Message: pd.q.Message, ReceivedAt: pd.q.ReceivedAt})
		}
	}
	slices.SortStableFunc(s.Waiting, func(a, b Waiting) int { return a.ReceivedAt.Compare(b.ReceivedAt) })
	return s
}

// OnScreen returns the question on screen (in the window, not on a
// terminal's route) if it is the one with the given ID: only that one can
// be answered from the dialog. Unlike Snapshot it copies nothing and does
// not wait for a publication in progress, so an answer does not queue
// behind the event that showed its question (issue 15, P1).
func (b *Broker) OnScreen(id string) (*Question, bool) {
	q, _, ok := b.presenting(id)
	return q, ok
}

// presenting returns the question on screen with its context, for an
// Answerer to present, if it is the one with the given ID.
func (b *Broker) presenting(id string) (*Question, context.Context, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.current == nil || b.current.q.ID != id {
		return nil, nil, false
	}
	return b.current.q, b.current.ctx, true
}

// AnswerWith lets a answer the broker's questions, one at a time as they
// come on screen, until stop is called: the blocking adapter of the CLI's
// prompts, the conformance client and tests over the same broker the window
// uses. Its notices and opened pages are passed on as they change.
func (b *Broker) AnswerWith(a Answerer) (stop func()) {
	var mu sync.Mutex
	presented := ""
	seenNotices := map[string]bool{}
	var lastOpened []OpenedPage
	return b.Subscribe(func(s Snapshot) {
		mu.Lock()
		defer mu.Unlock()
		for _, n := range s.Notices {
			if !seenNotices[n.ID] {
				seenNotices[n.ID] = true
				a.Notify(n)
			}
		}
		if !slices.EqualFunc(s.Opened, lastOpened, func(x, y OpenedPage) bool { return x.ID == y.ID }) {
			lastOpened = s.Opened
			a.OpenedChanged(s.Opened)
		}
		if s.Current == nil || s.Current.ID == presented {
			return
		}
		presented = s.Current.ID
		q, ctx, ok := b.presenting(presented)
		if !ok {
			return
		}
		go func() {
			resp, err := a.Present(ctx, q)
			if ctx.Err() != nil {
				return // withdrawn or timed out: the broker already closed it
			}
			b.deliver(q, resp, err)
		}()
	})
}

// deliver passes an Answerer's response to q on to the broker: a form's
// values are validated first and an answer that does not pass is never
// sent (cancel); an error from the display means the person could not
// answer (cancel).
func (b *Broker) deliver(q *Question, resp Response, err error) {
	if err != nil {
		resp = Response{Action: ActionCancel}
	}
	switch {
	case resp.Action == ActionAccept && q.Kind == KindForm:
		if errs, err := b.Answer(q.ID, resp.Values); err == nil && len(errs) == 0 {
			return
		}
		resp = Response{Action: ActionCancel, detail: "the answer did not pass validation and was not sent"}
	case resp.Action == ActionAccept && q.Kind == KindToolCall && resp.Scope == "":
		resp.Scope = ScopeOnce
	}
	_ = b.finish(q.ID, resp, false)
}

// record adds a history entry, written in the background (history.go).
func (b *Broker) record(e store.HistoryEntry) {
	b.history.record(e)
}

// FlushHistory waits until every outcome so far is in the store: call it
// before reading the history, and before closing the store.
func (b *Broker) FlushHistory() {
	b.history.flush()
}

// openLocked records an accepted URL request as opened, in the same step
// that takes it off the screen, so that a completion notice finds it
// whenever it comes. b.mu is held; watchOpened must follow.
func (b *Broker) openLocked(pd *pending) *openedURL {
	o := &openedURL{q: pd.q, openedAt: b.opts.Now(), done: make(chan struct{}), stop: func() {}}
	b.openedURLs = append(b.openedURLs, o)
	return o
}

// watchOpened ends an opened request when the answer time runs out (counted
// again from the consent) or its connection ends, or at once when the
// server said it was done before the consent was recorded.
func (b *Broker) watchOpened(o *openedURL, completedEarly bool) {
	q := o.q
	timeout := q.Deadline.Sub(q.ReceivedAt)
	timer := time.AfterFunc(timeout, func() {
		b.endOpened(o, i18n.Err("mcp.url.noConfirmation", "server", q.Server.Name, "duration", i18n.Duration(timeout)))
	})
	stopWatch := make(chan struct{})
	if q.Peer.connDone != nil {
		go func() {
			select {
			case <-q.Peer.connDone:
				b.endOpened(o, i18n.Err("mcp.url.disconnected", "server", q.Server.Name))
			case <-stopWatch:
			}
		}()
	}
	b.mu.Lock()
	o.stop = func() { timer.Stop(); close(stopWatch) }
	ended := slices.Index(b.openedURLs, o) < 0
	b.mu.Unlock()
	if ended {
		o.stop() // ended before the watchers were set
	}
	if completedEarly {
		b.endOpened(o, nil)
	}
}

// endOpened ends an opened request once; err nil means it is done.
func (b *Broker) endOpened(o *openedURL, err error) bool {
	b.mu.Lock()
	i := slices.Index(b.openedURLs, o)
	if i < 0 {
		b.mu.Unlock()
		return false
	}
	b.openedURLs = slices.Delete(b.openedURLs, i, i+1)
	o.err = err
	close(o.done)
	// Remembered for a while, so a wait that starts just after the server's
	// notice (it may come before the accept reached the server) sees it.
	b.endedURLs = append(b.endedURLs, o)
	if len(b.endedURLs) > maxEndedURLs {
		b.endedURLs = slices.Delete(b.endedURLs, 0, len(b.endedURLs)-maxEndedURLs)
	}
	stop := o.stop
	b.mu.Unlock()
	stop()
	b.publish()
	return true
}

func (b *Broker) openedLocked() []OpenedPage {
	out := make([]OpenedPage, 0, len(b.openedURLs))
	for _, o := range b.openedURLs {
		out = append(out, OpenedPage{ID: o.q.ID, ElicitationID: o.q.ElicitationID, ServerID: o.q.Server.ID,
			ServerName: o.q.Server.Name, Message: o.q.Message, Link: o.q.Link, OpenedAt: o.openedAt})
	}
	return out
}

// Opened returns the web pages the person opened that are not finished yet.
func (b *Broker) Opened() []OpenedPage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.openedLocked()
}

// Complete is called for notifications/elicitation/complete from peer. It is
// honoured only for an opened request of that same server and connection
// (E24); unknown, finished or another server's ids are ignored, and Complete
// reports false.
func (b *Broker) Complete(peer Peer, elicitationID string) bool {
	same := func(q *Question) bool {
		return q.ElicitationID == elicitationID && q.Peer.Server.ID == peer.Server.ID && q.Peer.session == peer.session
	}
	b.mu.Lock()
	var found *openedURL
	for _, o := range b.openedURLs {
		if same(o.q) {
			found = o
			break
		}
	}
	if found == nil {
		// The page may finish before the consent is recorded (the browser
		// opened, the answer is on its way): remember it for finish.
		for _, pd := range b.byID {
			if pd.q.Kind == KindURL && same(pd.q) {
				pd.completed = true
				b.mu.Unlock()
				return true
			}
		}
	}
	b.mu.Unlock()
	return found != nil && b.endOpened(found, nil)
}

// FinishOpened is the person saying they finished the web page (or "Retry
// now"): the request stops waiting as if the server had confirmed.
func (b *Broker) FinishOpened(id string) error { return b.endOpenedByID(id, nil) }

// CancelOpened is the person no longer waiting for the web page.
func (b *Broker) CancelOpened(id string) error { return b.endOpenedByID(id, ErrURLCancelled) }

func (b *Broker) endOpenedByID(id string, err error) error {
	b.mu.Lock()
	var found *openedURL
	for _, o := range b.openedURLs {
		if o.q.ID == id {
			found = o
		}
	}
	b.mu.Unlock()
	if found == nil || !b.endOpened(found, err) {
		return i18n.Err("mcp.url.pageNotWaiting")
	}
	return nil
}

// OpenedLink returns the checked link of an opened request, for "Open again".
func (b *Broker) OpenedLink(id string) (*linkcheck.Report, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, o := range b.openedURLs {
		if o.q.ID == id {
			return o.q.Link, nil
		}
	}
	return nil, i18n.Err("mcp.url.pageNotWaiting")
}

// WaitCompleted waits until the opened request with the elicitation id from
// peer's connection is done: confirmed by the server, or finished or
// cancelled by the person, or expired. It returns nil when the call may go
// on. A request that is not opened (the person declined) is ErrURLCancelled.
func (b *Broker) WaitCompleted(ctx context.Context, peer Peer, elicitationID string) error {
	b.mu.Lock()
	var found *openedURL
	for _, o := range slices.Concat(b.endedURLs, b.openedURLs) { // the newest match wins
		p := o.q.Peer
		if o.q.ElicitationID == elicitationID && p.Server.ID == peer.Server.ID && p.session == peer.session {
			found = o
		}
	}
	b.mu.Unlock()
	if found == nil {
		return ErrURLCancelled
	}
	select {
	case <-found.done:
		return found.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func newQuestionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
