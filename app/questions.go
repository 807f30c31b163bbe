package app

import (
	"log"
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// EventQuestions carries a SnapshotView each time the broker's questions
// change: the question on screen, those waiting, the opened pages, notices.
// The UI renders the newest by version and ignores older ones.
const EventQuestions = "questions"

// SnapshotView is mcp.Snapshot as the window renders it. Lists are never nil.
type SnapshotView struct {
	Version uint64        `json:"version"`
	Current *QuestionView `json:"current"`
	Waiting []mcp.Waiting `json:"waiting"`
	Opened  []OpenedView  `json:"opened"`
	Notices []mcp.Notice  `json:"notices"`
}

// QuestionView is the question in the consent dialog. Every string from the
// server (Message, labels, descriptions, option labels, the URL) must be
// shown as text (E16).
type QuestionView struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // mcp.KindForm, KindURL, KindSignIn, KindToolCall, KindSampling, KindSamplingResult, KindAppMessage or KindAppLink
	// Server says who asks (E27): the name the person gave it first.
	Server  mcp.ServerRef `json:"server"`
	Message string        `json:"message"`
	Form    *forms.Form   `json:"form,omitempty"`
	// Link is the checked URL of a web page question (E20, E22).
	Link *linkcheck.Report `json:"link,omitempty"`
	// OpensPage is true when answering means opening Link in the browser
	// (mcp.Question.OpensPage, the one place that decides it).
	OpensPage bool `json:"opensPage"`
	// ToolCall is the call a model wants to make (KindToolCall): the
	// arguments shown are the arguments sent.
	ToolCall *mcp.ToolCall `json:"toolCall,omitempty"`
	// Sampling is a server's request to the person's model, and for
	// KindSamplingResult the model's answer.
	Sampling *mcp.Sampling `json:"sampling,omitempty"`
	// AppMessage is what a server's app wants to give the model
	// (KindAppMessage): exactly the text the model gets if accepted.
	AppMessage *mcp.AppMessage `json:"appMessage,omitempty"`
	// AppLink names the app that wants Link opened (KindAppLink).
	AppLink    *mcp.AppLink `json:"appLink,omitempty"`
	ReceivedAt string       `json:"receivedAt"`
	Deadline   string       `json:"deadline"`
}

// OpenedView is a web page the person opened, waiting for its server.
type OpenedView struct {
	ID         string            `json:"id"`
	ServerID   string            `json:"serverId"`
	ServerName string            `json:"serverName"`
	Message    string            `json:"message"`
	Link       *linkcheck.Report `json:"link"`
	OpenedAt   string            `json:"openedAt"`
}

// SubmitResult is what Submit returns: when Errors is not empty nothing was
// sent and the dialog stays open with the errors shown per field.
type SubmitResult struct {
	Sent   bool                    `json:"sent"`
	Errors map[string]i18n.Message `json:"errors"`
}

// HistoryView is one past question, or one tool call as it was run (Mode
// "tool-run"). Answer, Arguments and Result are there only when Settings →
// Remember my answers was on.
type HistoryView struct {
	ID         uint64 `json:"id"`
	Time       string `json:"time"`
	ServerID   string `json:"serverId"`
	ServerName string `json:"serverName"`
	Mode       string `json:"mode"`
	Tool       string `json:"tool"`
	Source     string `json:"source"` // where a tool run came from: one of the store.Source constants
	// Client and Launcher name the other app of a run or call from the
	// gateway (Source "client"): what it claims and what launched it; text.
	Client   string `json:"client,omitempty"`
	Launcher string `json:"launcher,omitempty"`
	Message  string `json:"message"`
	// Summary says what was asked in Gatehouse's words (a sign-in, a
	// sampling request), for the window to show in its language; nil for
	// older entries and for questions the server worded (Message).
	Summary *i18n.Message `json:"summary,omitempty"`
	Fields  []string      `json:"fields"`
	// Titles are the form's field titles by name, where a field has one.
	Titles     map[string]string `json:"titles"`
	URL        string            `json:"url"` // the address a URL request or sign-in asked to open
	Outcome    string            `json:"outcome"`
	Detail     *i18n.Message     `json:"detail,omitempty"` // why, when there is a reason; an older entry's is its English text
	AnswerMs   int64             `json:"answerMs"`
	DurationMs int64             `json:"durationMs"`
	Answer     map[string]any    `json:"answer,omitempty"`
	Arguments  map[string]any    `json:"arguments,omitempty"`
	Result     string            `json:"result"`
	// Repeats is how many more times the same was refused without the
	// person after this entry, and LastTime (RFC 3339, "" for none) when
	// the last was (store.HistoryEntry.Repeats).
	Repeats  int    `json:"repeats"`
	LastTime string `json:"lastTime"`
}

// HistoryPage is one page of the history, newest first.
type HistoryPage struct {
	Entries []HistoryView `json:"entries"`
	// More is true when older entries match: ask again with before set to
	// the last entry's ID.
	More bool `json:"more"`
}

// HistoryPageSize is how many entries History returns at a time: several
// screens full, and few enough that the pane draws a page at once however
// long the history is (store.MaxHistory entries; issue 12).
const HistoryPageSize = 100

// Desktop is what the question service needs from the window system beyond
// events: an OS notification, taking it back, and a request for the window's
// attention. The GUI implements it with the Wails runtime and the notifier.
type Desktop interface {
	Notify(title, body string) error
	// Withdraw takes the notification off the screen, if one is there.
	Withdraw()
	Attention()
}

// ErrNotOpen is returned when the person answers a question that is no
// longer open; nothing is sent.
var ErrNotOpen = mcp.ErrNotOpen

// QuestionService is bound to the frontend: it shows the broker's questions
// (consent dialog, its queue, opened pages, notices) and passes the person's
// answers to the broker, which owns them; plus policies and history. It
// keeps no state of its own about any question, only which one the desktop
// notification announces.
type QuestionService struct {
	core    *Core
	desktop Desktop

	// notifyMu orders showing and withdrawing the notification; notified
	// is the ID of the question it announces ("" when none).
	notifyMu sync.Mutex
	notified string
}

// NewQuestionService returns the service: from now on the window answers
// the core's questions, and every change of them is sent as EventQuestions.
// desktop may be nil (no notifications).
func NewQuestionService(core *Core, desktop Desktop) *QuestionService {
	s := &QuestionService{core: core, desktop: desktop}
	core.SetAnswerer(nil) // the window answers through the broker's operations
	events := newQuestionEvents(func(snap mcp.Snapshot) { core.emit(EventQuestions, snapshotView(snap)) })
	core.Broker.Subscribe(func(snap mcp.Snapshot) {
		events.post(snap)
		s.withdrawAnswered(snap)
	})
	return s
}

// Snapshot returns everything pending now; a page that (re)loads asks once,
// then follows EventQuestions.
func (s *QuestionService) Snapshot() SnapshotView {
	return snapshotView(s.core.Broker.Snapshot())
}

// Validate checks the form's values as Submit would, without sending, so
// the dialog can show errors as the person types (E15).
func (s *QuestionService) Validate(id string, values map[string]any) (map[string]i18n.Message, error) {
	return s.core.Broker.Validate(id, values)
}

// Submit answers accept with the values, after validating them: when they
// do not pass, nothing is sent and the errors come back per field (E14, E15).
func (s *QuestionService) Submit(id string, values map[string]any) (SubmitResult, error) {
	if values == nil {
		values = map[string]any{}
	}
	errs, err := s.core.Broker.Accept(id, mcp.Reply{Kind: mcp.KindForm, Values: values})
	if err != nil {
		return SubmitResult{}, err
	}
	if len(errs) > 0 {
		return SubmitResult{Errors: errs}, nil
	}
	return SubmitResult{Sent: true, Errors: map[string]i18n.Message{}}, nil
}

// Open is the person's consent to a web page question (E21, E23): a URL
// request, a sign-in or an app's link. The URL Gatehouse checked for it
// opens in the system browser, and only then is accept sent. When the browser cannot be opened nothing is sent and the
// dialog stays, with the error.
func (s *QuestionService) Open(id string) error {
	_, err := s.core.Broker.Accept(id, mcp.Reply{Kind: mcp.KindURL, Open: OpenLink})
	return err
}

// Allow approves the tool call on screen: "once", "conversation" (for the
// rest of the conversation) or "always" (until changed in Settings).
func (s *QuestionService) Allow(id, scope string) error {
	_, err := s.core.Broker.Accept(id, mcp.Reply{Kind: mcp.KindToolCall, Scope: scope})
	return err
}

// ReviewSampling approves the sampling request on screen with the person's
// changes: the model they chose and the prompt as they left it.
func (s *QuestionService) ReviewSampling(id string, edit mcp.SamplingEdit) error {
	_, err := s.core.Broker.Accept(id, mcp.Reply{Kind: mcp.KindSampling, Edit: &edit})
	return err
}

// Accept approves the model's answer to a sampling request on screen, so
// that the server gets it, or an app's message or context (MCP Apps), so
// that the model gets it.
func (s *QuestionService) Accept(id string) error {
	kind := mcp.KindSamplingResult
	if q, ok := s.core.Broker.OnScreen(id); ok && q.Kind == mcp.KindAppMessage {
		kind = mcp.KindAppMessage
	}
	_, err := s.core.Broker.Accept(id, mcp.Reply{Kind: kind})
	return err
}

// Decline answers decline: the person explicitly said no.
func (s *QuestionService) Decline(id string) error { return s.core.Broker.Decline(id) }

// Cancel answers cancel: the person dismissed the dialog (Escape, close).
func (s *QuestionService) Cancel(id string) error { return s.core.Broker.Cancel(id) }

// Refuse declines or cancels a question waiting in the queue (E28).
func (s *QuestionService) Refuse(id, action string) error {
	return s.core.Broker.Refuse(id, action)
}

// DismissNotice removes a notice the person has read.
func (s *QuestionService) DismissNotice(id string) { s.core.Broker.DismissNotice(id) }

// OpenAgain opens an opened request's page once more ("Open again").
func (s *QuestionService) OpenAgain(id string) error {
	link, err := s.core.Broker.OpenedLink(id)
	if err != nil {
		return err
	}
	return OpenLink(link)
}

// Finished is the person saying they are done in the browser: a call
// waiting for that page goes on ("I've finished", "Retry now").
func (s *QuestionService) Finished(id string) error { return s.core.Broker.FinishOpened(id) }

// StopWaiting is the person no longer waiting for a page they opened; a
// call waiting for it fails.
func (s *QuestionService) StopWaiting(id string) error { return s.core.Broker.CancelOpened(id) }

// Mute stops showing a server's questions for the given minutes: they are
// answered cancel unseen, including those already waiting.
func (s *QuestionService) Mute(serverID string, minutes int) error {
	if minutes <= 0 {
		return i18n.Err("questions.error.muteHow")
	}
	p := store.Policy{Mode: store.PolicyMute, MutedUntil: time.Now().Add(time.Duration(minutes) * time.Minute)}
	if err := s.core.Store.PutPolicy(serverID, p); err != nil {
		return err
	}
	s.core.Broker.RefuseAll(serverID, mcp.ActionCancel)
	s.core.Broker.DismissFlood(serverID)
	_, _ = s.core.emitPolicies(serverID)
	return nil
}

// History returns a page of past questions and tool runs, newest first,
// filtered by server and outcome ("" for all), older than the entry with ID
// before (0 for the newest).
func (s *QuestionService) History(serverID, outcome string, before uint64) (HistoryPage, error) {
	s.core.Broker.FlushHistory()
	entries, err := s.core.Store.History(store.HistoryFilter{ServerID: serverID, Outcome: outcome, Before: before, Limit: HistoryPageSize + 1})
	if err != nil {
		return HistoryPage{}, err
	}
	page := HistoryPage{Entries: make([]HistoryView, 0, min(len(entries), HistoryPageSize)), More: len(entries) > HistoryPageSize}
	for _, e := range entries[:min(len(entries), HistoryPageSize)] {
		page.Entries = append(page.Entries, historyView(e))
	}
	return page, nil
}

// historyView is e as the window shows it: lists and maps never null.
func historyView(e store.HistoryEntry) HistoryView {
	fields, titles := e.Fields, e.Titles
	if fields == nil {
		fields = []string{}
	}
	if titles == nil {
		titles = map[string]string{}
	}
	v := HistoryView{ID: e.ID, Time: rfc3339(e.Time), ServerID: e.ServerID, ServerName: e.ServerName,
		Mode: e.Mode, Tool: e.Tool, Source: e.Source, Client: e.Client, Launcher: e.Launcher, Message: e.Message, Summary: said(e.Summary), Fields: fields, Titles: titles,
		URL: e.URL, Outcome: e.Outcome, Detail: said(e.Detail), AnswerMs: e.AnswerMs, DurationMs: e.DurationMs,
		Answer: e.Answer, Arguments: e.Arguments, Result: e.Result, Repeats: e.Repeats}
	if !e.LastTime.IsZero() {
		v.LastTime = rfc3339(e.LastTime)
	}
	return v
}

// said is m for the window, nil when it says nothing.
func said(m i18n.Message) *i18n.Message {
	if m.IsZero() {
		return nil
	}
	return &m
}

// ClearHistory deletes every history entry.
func (s *QuestionService) ClearHistory() error {
	s.core.Broker.FlushHistory()
	return s.core.Store.ClearHistory()
}

// NotifyUnfocused is called by the UI when a question arrives while the
// window is not focused: the OS shows a notification naming the server and
// the window asks for attention. Where no notification service exists it
// logs one line and carries on.
func (s *QuestionService) NotifyUnfocused(id string) error {
	q, ok := s.core.Broker.OnScreen(id)
	if !ok {
		return ErrNotOpen
	}
	if s.desktop == nil {
		return nil
	}
	s.desktop.Attention()
	title := i18n.M("notify.title", "server", q.Server.Name).String()
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	if err := s.desktop.Notify(title, truncate(q.Message, 200)); err != nil {
		log.Printf("gatehouse: no desktop notification (%v); the request waits in the window", err)
		return nil
	}
	s.notified = id
	return nil
}

// withdrawAnswered takes the notification off the screen once the question
// it announces has left the dialog (answered, cancelled or timed out): a
// notification that still asks after the answer was given misleads. The
// desktop is called off the broker's goroutine, under notifyMu, so that a
// withdrawal never removes the notification of a newer question.
func (s *QuestionService) withdrawAnswered(snap mcp.Snapshot) {
	if s.desktop == nil {
		return
	}
	s.notifyMu.Lock()
	announced := s.notified
	s.notifyMu.Unlock()
	if announced == "" || (snap.Current != nil && snap.Current.ID == announced) {
		return
	}
	go func() {
		s.notifyMu.Lock()
		defer s.notifyMu.Unlock()
		if s.notified != announced {
			return // withdrawn already, or a newer question's notification
		}
		s.desktop.Withdraw()
		s.notified = ""
	}()
}

func snapshotView(s mcp.Snapshot) SnapshotView {
	v := SnapshotView{Version: s.Version, Waiting: s.Waiting, Notices: s.Notices, Opened: make([]OpenedView, 0, len(s.Opened))}
	if s.Current != nil {
		v.Current = questionView(s.Current)
	}
	for _, o := range s.Opened {
		v.Opened = append(v.Opened, OpenedView{ID: o.ID, ServerID: o.ServerID, ServerName: o.ServerName, Message: o.Message,
			Link: o.Link, OpenedAt: rfc3339(o.OpenedAt)})
	}
	return v
}

func questionView(q *mcp.Question) *QuestionView {
	return &QuestionView{ID: q.ID, Kind: q.Kind, Server: q.Server, Message: q.Message, Form: q.Form, Link: q.Link,
		OpensPage: q.OpensPage(), ToolCall: q.ToolCall, Sampling: q.Sampling, AppMessage: q.AppMessage, AppLink: q.AppLink, ReceivedAt: rfc3339(q.ReceivedAt), Deadline: rfc3339(q.Deadline)}
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
