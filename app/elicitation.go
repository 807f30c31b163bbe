package app

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Elicitation events sent to the frontend.
const (
	// EventElicitation carries an ElicitationView to show in the consent dialog.
	EventElicitation = "elicitation:show"
	// EventElicitationClosed carries an ElicitationClosed: the dialog must close.
	EventElicitationClosed = "elicitation:closed"
	// EventElicitationQueue carries []QueueEntryView: what waits behind the dialog.
	EventElicitationQueue = "elicitation:queue"
	// EventNotice carries a NoticeView, e.g. a server flooding the user.
	EventNotice = "notice"
	// EventOpened carries []OpenedView: web pages the person opened whose
	// server has not confirmed yet ("Finish in your browser").
	EventOpened = "elicitation:opened"
)

// ElicitationView is one request in the consent dialog. Every string from
// the server (Message, labels, descriptions, option labels) must be shown as
// text (E16).
type ElicitationView struct {
	ID string `json:"id"`
	// ServerName is the name the person gave the server (E27), shown first.
	ServerName string `json:"serverName"`
	ServerID   string `json:"serverId"`
	// Where says where the server runs: command line or URL.
	Where string `json:"where"`
	// SelfName is what the server calls itself: shown second, as a claim.
	SelfName    string      `json:"selfName"`
	SelfVersion string      `json:"selfVersion"`
	Mode        string      `json:"mode"`
	Message     string      `json:"message"`
	Fields      []FieldView `json:"fields"`
	// Link is the checked URL of a URL-mode request (E20, E22).
	Link *linkcheck.Report `json:"link,omitempty"`
	// Sensitive is true when a field looks like it asks for a secret (E17).
	Sensitive  bool   `json:"sensitive"`
	ReceivedAt string `json:"receivedAt"`
	Deadline   string `json:"deadline"`
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

// ElicitationClosed tells the UI that a request ended without the person's
// answer, and why, in words.
type ElicitationClosed struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// QueueEntryView is a request waiting behind the dialog.
type QueueEntryView struct {
	ID         string `json:"id"`
	ServerID   string `json:"serverId"`
	ServerName string `json:"serverName"`
	Message    string `json:"message"`
	ReceivedAt string `json:"receivedAt"`
}

// NoticeView is a notice about a server.
type NoticeView struct {
	ServerID   string `json:"serverId"`
	ServerName string `json:"serverName"`
	Kind       string `json:"kind"` // "flood"
	Text       string `json:"text"`
}

// SubmitResult is what Submit returns: when Errors is not empty nothing was
// sent and the dialog stays open with the errors shown per field.
type SubmitResult struct {
	Sent   bool              `json:"sent"`
	Errors map[string]string `json:"errors"`
}

// HistoryView is one past elicitation.
type HistoryView struct {
	ID         uint64         `json:"id"`
	Time       string         `json:"time"`
	ServerID   string         `json:"serverId"`
	ServerName string         `json:"serverName"`
	Mode       string         `json:"mode"`
	Message    string         `json:"message"`
	Fields     []string       `json:"fields"`
	Outcome    string         `json:"outcome"`
	Detail     string         `json:"detail"`
	AnswerMs   int64          `json:"answerMs"`
	Answer     map[string]any `json:"answer,omitempty"`
}

// PolicyView is a server's elicitation policy.
type PolicyView struct {
	// Mode is "ask", "decline" or "mute".
	Mode       string `json:"mode"`
	MutedUntil string `json:"mutedUntil"`
}

// Desktop is what the elicitation service needs from the window system
// beyond events: an OS notification and a request for the window's
// attention. The GUI implements it with the Wails runtime.
type Desktop interface {
	Notify(title, body string) error
	Attention()
}

// ErrNotOpen is returned when the person answers a request that is no longer
// on screen: the server withdrew it, it timed out, or it was answered. The
// late answer is dropped; nothing is sent.
var ErrNotOpen = errors.New("this request is no longer open: the server withdrew it or it timed out, so nothing was sent")

// ElicitationService is bound to the frontend: the consent dialog, its
// queue, policies and history. It is also the broker's Answerer for the GUI.
type ElicitationService struct {
	core    *Core
	desktop Desktop

	mu   sync.Mutex
	open *openRequest // the request on screen, if any
}

type openRequest struct {
	req    *mcp.Request
	answer chan mcp.Response // buffered 1
}

// NewElicitationService returns the service and makes its dialog the core's
// answerer. desktop may be nil (no notifications).
func NewElicitationService(core *Core, desktop Desktop) *ElicitationService {
	s := &ElicitationService{core: core, desktop: desktop}
	core.SetAnswerer((*dialog)(s))
	return s
}

// dialog is the service's mcp.Answerer side. It is a separate type because
// Wails binds every exported method of a bound struct to JavaScript, and
// these must only be called by the broker.
type dialog ElicitationService

// Present implements mcp.Answerer: it shows the request and waits for
// Submit, Decline or Cancel, or for ctx to end.
func (s *dialog) Present(ctx context.Context, req *mcp.Request) (mcp.Response, error) {
	o := &openRequest{req: req, answer: make(chan mcp.Response, 1)}
	s.mu.Lock()
	s.open = o
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.open == o {
			s.open = nil
		}
		s.mu.Unlock()
	}()
	s.core.emit(EventElicitation, elicitationView(req))
	select {
	case resp := <-o.answer:
		return resp, nil
	case <-ctx.Done():
		reason := fmt.Sprintf("%s withdrew its request or disconnected; nothing was sent.", req.Peer.Server.Name)
		if !time.Now().Before(req.Deadline) {
			reason = fmt.Sprintf("The request from %s was cancelled: it had no answer after %s.", req.Peer.Server.Name, req.Deadline.Sub(req.ReceivedAt).Round(time.Second))
		}
		s.core.emit(EventElicitationClosed, ElicitationClosed{ID: req.ID, Reason: reason})
		return mcp.Response{}, ctx.Err()
	}
}

// QueueChanged implements mcp.Answerer.
func (s *dialog) QueueChanged(waiting []mcp.QueueEntry) {
	views := make([]QueueEntryView, 0, len(waiting))
	for _, w := range waiting {
		views = append(views, QueueEntryView{ID: w.ID, ServerID: w.ServerID, ServerName: w.ServerName, Message: w.Message, ReceivedAt: rfc3339(w.ReceivedAt)})
	}
	s.core.emit(EventElicitationQueue, views)
}

// Notify implements mcp.Answerer.
func (s *dialog) Notify(n mcp.Notice) {
	s.core.emit(EventNotice, NoticeView{ServerID: n.ServerID, ServerName: n.ServerName, Kind: n.Kind,
		Text: fmt.Sprintf("%s is sending too many requests. Some were refused without being shown.", n.ServerName)})
}

// OpenedChanged implements mcp.Answerer.
func (s *dialog) OpenedChanged(opened []mcp.OpenedURL) {
	s.core.emit(EventOpened, openedViews(opened))
}

func openedViews(opened []mcp.OpenedURL) []OpenedView {
	views := make([]OpenedView, 0, len(opened))
	for _, o := range opened {
		views = append(views, OpenedView{ID: o.ID, ServerID: o.ServerID, ServerName: o.ServerName, Message: o.Message,
			Link: o.Link, OpenedAt: rfc3339(o.OpenedAt)})
	}
	return views
}

// Open is the person's consent to a URL-mode request (E21, E23): the URL
// Gatehouse recorded for that request opens in the system browser, and only
// then is accept sent. When the browser cannot be opened nothing is sent and
// the dialog stays, with the error.
func (s *ElicitationService) Open(id string) error {
	o, err := s.lookup(id)
	if err != nil {
		return err
	}
	if (o.req.Mode != "url" && o.req.Mode != mcp.ModeSignIn) || o.req.Link == nil {
		return errors.New("this request has no web page to open")
	}
	if err := OpenLink(o.req.Link); err != nil {
		return err
	}
	if !s.answer(o, mcp.Response{Action: mcp.ActionAccept}) {
		return ErrNotOpen
	}
	return nil
}

// Opened returns the web pages the person opened that their servers have not
// confirmed yet.
func (s *ElicitationService) Opened() []OpenedView {
	return openedViews(s.core.Broker.Opened())
}

// OpenAgain opens an opened request's page once more ("Open again").
func (s *ElicitationService) OpenAgain(id string) error {
	link, err := s.core.Broker.OpenedLink(id)
	if err != nil {
		return err
	}
	return OpenLink(link)
}

// Finished is the person saying they are done in the browser: a call
// waiting for that page goes on ("I've finished", "Retry now").
func (s *ElicitationService) Finished(id string) error { return s.core.Broker.FinishOpened(id) }

// StopWaiting is the person no longer waiting for a page they opened; a
// call waiting for it fails.
func (s *ElicitationService) StopWaiting(id string) error { return s.core.Broker.CancelOpened(id) }

// Current returns the request on screen, if any (for a reloaded page).
func (s *ElicitationService) Current() (*ElicitationView, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open == nil {
		return nil, nil
	}
	v := elicitationView(s.open.req)
	return &v, nil
}

// Waiting returns the requests queued behind the dialog.
func (s *ElicitationService) Waiting() []QueueEntryView {
	var views []QueueEntryView
	for _, w := range s.core.Broker.Waiting() {
		views = append(views, QueueEntryView{ID: w.ID, ServerID: w.ServerID, ServerName: w.ServerName, Message: w.Message, ReceivedAt: rfc3339(w.ReceivedAt)})
	}
	return views
}

// Validate checks the form's values as Submit would, without sending, so
// the dialog can show errors as the person types (E15).
func (s *ElicitationService) Validate(id string, values map[string]any) (map[string]string, error) {
	o, err := s.lookup(id)
	if err != nil {
		return nil, err
	}
	return o.req.Validate(values), nil
}

// Submit answers accept with the values, after validating them: when they
// do not pass, nothing is sent and the errors come back per field (E14, E15).
func (s *ElicitationService) Submit(id string, values map[string]any) (SubmitResult, error) {
	o, err := s.lookup(id)
	if err != nil {
		return SubmitResult{}, err
	}
	if o.req.Mode != "form" {
		return SubmitResult{}, errors.New("this request asks to open a web page, not to fill in a form")
	}
	if errs := o.req.Validate(values); len(errs) > 0 {
		return SubmitResult{Errors: errs}, nil
	}
	return SubmitResult{Sent: s.answer(o, mcp.Response{Action: mcp.ActionAccept, Values: values})}, nil
}

// Decline answers decline: the person explicitly said no.
func (s *ElicitationService) Decline(id string) error { return s.finish(id, mcp.ActionDecline) }

// Cancel answers cancel: the person dismissed the dialog (Escape, close).
func (s *ElicitationService) Cancel(id string) error { return s.finish(id, mcp.ActionCancel) }

// Refuse declines or cancels a request waiting in the queue (E28).
func (s *ElicitationService) Refuse(id, action string) error {
	return s.core.Broker.Refuse(id, action)
}

// Mute stops showing a server's requests for the given minutes: they are
// answered cancel unseen, including those already waiting.
func (s *ElicitationService) Mute(serverID string, minutes int) error {
	if minutes <= 0 {
		return errors.New("choose how long to mute the server")
	}
	p := store.Policy{Mode: store.PolicyMute, MutedUntil: time.Now().Add(time.Duration(minutes) * time.Minute)}
	if err := s.core.Store.PutPolicy(serverID, p); err != nil {
		return err
	}
	s.core.Broker.RefuseAll(serverID, mcp.ActionCancel)
	return nil
}

// Policy returns a server's elicitation policy.
func (s *ElicitationService) Policy(serverID string) (PolicyView, error) {
	p, err := s.core.Store.Policy(serverID)
	if err != nil {
		return PolicyView{}, err
	}
	v := PolicyView{Mode: p.Effective(time.Now())}
	if v.Mode == store.PolicyAsk {
		v.Mode = "ask"
	}
	if v.Mode == store.PolicyMute {
		v.MutedUntil = rfc3339(p.MutedUntil)
	}
	return v, nil
}

// SetPolicy sets a server's policy to "ask" or "decline" (use Mute to mute).
func (s *ElicitationService) SetPolicy(serverID, mode string) error {
	switch mode {
	case "ask":
		return s.core.Store.PutPolicy(serverID, store.Policy{})
	case "decline":
		if err := s.core.Store.PutPolicy(serverID, store.Policy{Mode: store.PolicyDecline}); err != nil {
			return err
		}
		s.core.Broker.RefuseAll(serverID, mcp.ActionDecline)
		return nil
	}
	return fmt.Errorf("unknown policy %q: use ask or decline", mode)
}

// History returns past elicitations, newest first, filtered by server and
// outcome ("" for all).
func (s *ElicitationService) History(serverID, outcome string) ([]HistoryView, error) {
	s.core.Broker.FlushHistory()
	entries, err := s.core.Store.History(store.HistoryFilter{ServerID: serverID, Outcome: outcome, Limit: 500})
	if err != nil {
		return nil, err
	}
	views := make([]HistoryView, 0, len(entries))
	for _, e := range entries {
		views = append(views, HistoryView{ID: e.ID, Time: rfc3339(e.Time), ServerID: e.ServerID, ServerName: e.ServerName,
			Mode: e.Mode, Message: e.Message, Fields: e.Fields, Outcome: e.Outcome, Detail: e.Detail, AnswerMs: e.AnswerMs, Answer: e.Answer})
	}
	return views, nil
}

// ClearHistory deletes every history entry.
func (s *ElicitationService) ClearHistory() error {
	s.core.Broker.FlushHistory()
	return s.core.Store.ClearHistory()
}

// NotifyUnfocused is called by the UI when a request arrives while the
// window is not focused: the OS shows a notification naming the server and
// the window asks for attention. Where no notification service exists it
// logs one line and carries on.
func (s *ElicitationService) NotifyUnfocused(id string) error {
	o, err := s.lookup(id)
	if err != nil {
		return err
	}
	if s.desktop == nil {
		return nil
	}
	s.desktop.Attention()
	title := o.req.Peer.Server.Name + " is asking for your input"
	if err := s.desktop.Notify(title, truncate(o.req.Message, 200)); err != nil {
		log.Printf("gatehouse: no desktop notification (%v); the request waits in the window", err)
	}
	return nil
}

func (s *ElicitationService) lookup(id string) (*openRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open == nil || s.open.req.ID != id {
		return nil, ErrNotOpen
	}
	return s.open, nil
}

func (s *ElicitationService) finish(id, action string) error {
	o, err := s.lookup(id)
	if err != nil {
		return err
	}
	if !s.answer(o, mcp.Response{Action: action}) {
		return ErrNotOpen
	}
	return nil
}

// answer delivers the response once; a second answer is dropped.
func (s *ElicitationService) answer(o *openRequest, r mcp.Response) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open != o {
		return false
	}
	select {
	case o.answer <- r:
		s.open = nil
		return true
	default:
		return false
	}
}

func elicitationView(r *mcp.Request) ElicitationView {
	v := ElicitationView{
		ID: r.ID, ServerName: r.Peer.Server.Name, ServerID: r.Peer.Server.ID, Where: r.Peer.Where,
		SelfName: r.Peer.SelfName, SelfVersion: r.Peer.SelfVersion, Mode: r.Mode, Message: r.Message,
		ReceivedAt: rfc3339(r.ReceivedAt), Deadline: rfc3339(r.Deadline), Link: r.Link,
	}
	if r.Form != nil {
		v.Fields = formView(*r.Form).Fields
		for _, f := range r.Form.Fields {
			v.Sensitive = v.Sensitive || f.Sensitive
		}
	}
	return v
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
