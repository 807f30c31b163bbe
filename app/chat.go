package app

import (
	"context"
	"encoding/json"
	"errors"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/store"
	"github.com/gatehouse-app/gatehouse/visible"
)

// EventChat carries a ChatEvent: something that happened in a running turn
// of a conversation, as it happens (streamed text, a tool call's card, the
// end of the turn).
const EventChat = "chat"

// Chat event kinds beyond chat's own (text, reasoning, call, usage, round).
const (
	// ChatDone ends a turn; its messages are stored (read them again).
	ChatDone = "done"
	// ChatFailed ends a turn that failed; Error says why in a sentence and
	// ContextTooLong says whether dropping old tool results may help.
	ChatFailed = "failed"
)

// ChatEvent is one event of a running turn.
type ChatEvent struct {
	ConversationID string     `json:"conversationId"`
	Kind           string     `json:"kind"`
	Text           string     `json:"text,omitempty"`
	Call           *chat.Call `json:"call,omitempty"`
	Usage          *llm.Usage `json:"usage,omitempty"`
	Error          string     `json:"error,omitempty"`
	ContextTooLong bool       `json:"contextTooLong,omitempty"`
}

// ProviderResolver returns the model provider a conversation uses, ready to
// stream, with its record (for its default model).
type ProviderResolver func(providerID string) (llm.Provider, store.Provider, error)

// ChatService is bound to the frontend: conversations, their messages, and
// turns that run in the background and stream ChatEvents.
type ChatService struct {
	core    *Core
	runner  *chat.Runner
	resolve ProviderResolver

	// files asks where to save an export; the GUI sets it (Export refuses
	// without one).
	files FileChooser

	mu      sync.Mutex
	running map[string]context.CancelFunc // by conversation ID
	// stopped is set by StopAll (the app quits): no turn starts after it.
	stopped bool
	// before is, by conversation ID, the Seq of the last message stored
	// before its running turn: MessagePage leaves out the later ones.
	before map[string]uint64
	// streamed is the model's text of each running turn so far, by
	// conversation ID: links in it may be opened before it is stored.
	streamed map[string]*strings.Builder
	// watchers hear the events of a conversation's turns besides the
	// window, by conversation ID (watch).
	watchers map[string]func(ChatEvent)
	wg       sync.WaitGroup
	// links are the checked addresses of the model's text: OpenLink opens
	// only these (E31).
	links linkBook
}

// NewChatService returns the service; resolve finds a conversation's
// provider (Core.ProviderFor in the app).
func NewChatService(core *Core, resolve ProviderResolver) *ChatService {
	return &ChatService{core: core, resolve: resolve, running: map[string]context.CancelFunc{}, before: map[string]uint64{},
		streamed: map[string]*strings.Builder{},
		watchers: map[string]func(ChatEvent){},
		runner: &chat.Runner{Manager: core.Manager, Broker: core.Broker, Settings: storeToolSettings{core},
			Ran: core.keepChatCall}}
}

// Conversations lists conversations, the most recently active first; a
// query finds those whose title or messages contain it.
func (s *ChatService) Conversations(query string) ([]store.Conversation, error) {
	if q := strings.TrimSpace(query); q != "" {
		hits, err := s.core.Store.SearchConversations(q, 0)
		if err != nil {
			return nil, err
		}
		out := make([]store.Conversation, 0, len(hits))
		for _, h := range hits {
			out = append(out, h.Conversation)
		}
		return out, nil
	}
	list, err := s.core.Store.Conversations(store.ConversationFilter{})
	if list == nil {
		list = []store.Conversation{}
	}
	return list, err
}

// NewConversation starts a conversation with a provider (empty: the
// default one), a model (empty: the provider's), a system prompt and the
// servers whose tools it offers (none: every enabled server).
func (s *ChatService) NewConversation(providerID, model, systemPrompt string, servers []string) (store.Conversation, error) {
	if providerID == "" {
		settings, err := s.core.Store.Settings()
		if err != nil {
			return store.Conversation{}, err
		}
		providerID = settings.DefaultProviderID
	}
	if providerID == "" {
		return store.Conversation{}, i18n.Err("chat.error.noProvider")
	}
	return s.core.Store.PutConversation(store.Conversation{ProviderID: providerID, Model: model, SystemPrompt: systemPrompt, Servers: servers})
}

// UpdateConversation changes a conversation's provider, model (empty: the
// provider's), system prompt and the servers whose tools it offers (none:
// every enabled server), for its next turns; the history goes on with the
// new provider (see toLLM). It is refused while a turn runs in the
// conversation, for a provider or a server that does not exist.
func (s *ChatService) UpdateConversation(id, providerID, model, systemPrompt string, servers []string) (store.Conversation, error) {
	s.mu.Lock()
	defer s.mu.Unlock() // a turn starts before or after, never during
	if s.running[id] != nil {
		return store.Conversation{}, ErrTurnRunning
	}
	conv, err := s.core.Store.Conversation(id)
	if err != nil {
		return store.Conversation{}, err
	}
	if providerID == "" {
		return store.Conversation{}, i18n.Err("chat.error.chooseProvider")
	}
	if _, err := s.core.Store.Provider(providerID); errors.Is(err, store.ErrNotFound) {
		return store.Conversation{}, i18n.Err("chat.error.providerGone")
	} else if err != nil {
		return store.Conversation{}, err
	}
	if err := s.knownServers(servers); err != nil {
		return store.Conversation{}, err
	}
	conv.ProviderID, conv.Model, conv.SystemPrompt, conv.Servers = providerID, strings.TrimSpace(model), systemPrompt, servers
	return s.core.Store.PutConversation(conv)
}

// knownServers refuses server IDs that no configured server has.
func (s *ChatService) knownServers(ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	servers, err := s.core.Store.Servers()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if !slices.ContainsFunc(servers, func(srv store.Server) bool { return srv.ID == id }) {
			return i18n.Err("chat.error.noServer", "id", strconv.Quote(id))
		}
	}
	return nil
}

// DropOldToolResults makes room in the model's context: the tool results
// before the person's last message are marked dropped, and the model gets
// a short placeholder for each from now on (denials are kept). They stay
// stored, readable in the window and in an export. It returns how many
// were dropped, and a sentence when there are none. Refused while a turn
// runs. Retry then answers the last message again.
func (s *ChatService) DropOldToolResults(id string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running[id] != nil {
		return 0, ErrTurnRunning
	}
	msgs, err := s.core.Store.Messages(id)
	if err != nil {
		return 0, err
	}
	var lastUser uint64
	for _, m := range msgs {
		if m.Role == store.RoleUser {
			lastUser = m.Seq
		}
	}
	n, err := s.core.Store.DropToolResults(id, lastUser)
	if err == nil && n == 0 {
		err = i18n.Err("chat.error.nothingToDrop")
	}
	return n, err
}

// MessagePage returns part of a conversation's messages, oldest first
// (store.Store.MessagePage: the newest limit of those with from <= Seq <
// before), each tool call with the view of its arguments the window draws.
// The window reads the newest page when a conversation opens, older pages
// as the person scrolls up, and from its oldest message on after a turn.
// While a turn runs in the conversation, the messages it has stored so far
// (each is stored as it completes) are left out: the window shows that turn
// from its events until ChatDone or ChatFailed, and reads the messages
// again then, so nothing shows twice.
func (s *ChatService) MessagePage(conversationID string, from, before uint64, limit int) (store.MessagePage, error) {
	turn := func() (uint64, bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.before[conversationID], s.running[conversationID] != nil
	}
	// The page ends before the running turn, so that it is not empty.
	if turnFrom, running := turn(); running && (before == 0 || before > turnFrom+1) {
		before = turnFrom + 1
	}
	page, err := s.core.Store.MessagePage(conversationID, from, before, limit)
	if page.Messages == nil {
		page.Messages = []store.Message{}
	}
	// Checked again after the read: a turn that stored something the read
	// saw was running before the read ended (start sets running first).
	if turnFrom, running := turn(); running {
		page.Messages = slices.DeleteFunc(page.Messages, func(m store.Message) bool { return m.Seq > turnFrom })
	}
	for i := range page.Messages {
		for j, c := range page.Messages[i].ToolCalls {
			if c.Arguments != nil {
				view := visible.JSON(c.Arguments)
				page.Messages[i].ToolCalls[j].View = &view
			}
		}
	}
	return page, err
}

// Rename gives a conversation a title.
func (s *ChatService) Rename(conversationID, title string) error {
	_, err := s.core.Store.RenameConversation(conversationID, title)
	return err
}

// Delete stops a conversation's turn and deletes it with its messages.
func (s *ChatService) Delete(conversationID string) error {
	s.Stop(conversationID)
	return s.core.Store.DeleteConversation(conversationID)
}

// Markdown returns the conversation written as Markdown (see
// ConversationMarkdown), with the names its providers and servers have now.
func (s *ChatService) Markdown(conversationID string) (string, error) {
	conv, err := s.core.Store.Conversation(conversationID)
	if err != nil {
		return "", err
	}
	msgs, err := s.core.Store.Messages(conversationID)
	if err != nil {
		return "", err
	}
	t := Transcript{Conversation: conv, Messages: msgs, ProviderNames: map[string]string{}, ServerNames: map[string]string{}}
	providers, err := s.core.Store.Providers()
	if err != nil {
		return "", err
	}
	for _, p := range providers {
		t.ProviderNames[p.ID] = p.Name
	}
	servers, err := s.core.Store.Servers()
	if err != nil {
		return "", err
	}
	for _, srv := range servers {
		t.ServerNames[srv.ID] = srv.Name
	}
	return ConversationMarkdown(t), nil
}

// Export asks the person where to save the conversation as Markdown, with
// a file name made from its title, and writes it there, readable only by
// them. It returns the file's path, or "" when the person cancelled.
func (s *ChatService) Export(conversationID string) (string, error) {
	if s.files == nil {
		return "", i18n.Err("chat.error.noWindow")
	}
	conv, err := s.core.Store.Conversation(conversationID)
	if err != nil {
		return "", err
	}
	md, err := s.Markdown(conversationID)
	if err != nil {
		return "", err
	}
	path, err := s.files.SaveFile(i18n.M("chat.exportTitle").String(), ExportFileName(conv.Title))
	if err != nil || path == "" {
		return "", err
	}
	if err := WriteExport(path, md); err != nil {
		return "", err
	}
	return path, nil
}

// ErrTurnRunning refuses a second turn, or a change of the conversation,
// while one runs in the conversation.
var ErrTurnRunning = i18n.Err("chat.error.turnRunning")

// Send adds the person's message to a conversation and starts the model's
// turn in the background; its events follow as EventChat, ending with
// ChatDone or ChatFailed once everything is stored. Each message of the
// turn is stored as it completes (chat.Turn.Save), so that a crash loses at
// most the text being streamed.
func (s *ChatService) Send(conversationID, text string) error {
	return s.SendWithAttachments(conversationID, text, nil)
}

// SendWithAttachments is Send with resources the person attached: they are
// read on their servers first (chat.Runner.ReadAttachments says the
// bounds), then go to the model with the text and are stored with the
// message, so that it shows them again. A read that fails is said in a
// sentence and nothing is sent. With attachments the text may be empty.
func (s *ChatService) SendWithAttachments(conversationID, text string, attachments []chat.AttachmentRequest) error {
	text = strings.TrimSpace(text)
	if text == "" && len(attachments) == 0 {
		return i18n.Err("chat.error.empty")
	}
	if s.isRunning(conversationID) {
		return ErrTurnRunning // before reading anything
	}
	atts, err := s.runner.ReadAttachments(context.Background(), attachments)
	if err != nil {
		return err
	}
	return s.start(conversationID, text, atts)
}

// whileIdle runs f while no turn runs in the conversation (and none can
// start), or refuses with ErrTurnRunning.
func (s *ChatService) whileIdle(conversationID string, f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running[conversationID] != nil {
		return ErrTurnRunning
	}
	return f()
}

func (s *ChatService) isRunning(conversationID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running[conversationID] != nil
}

// Retry answers the person's last message again after a turn failed (the
// conversation was too long, the provider did not answer, Stop) or was
// interrupted (Gatehouse was closed or killed while it ran): the model gets
// the conversation as stored, with what the failed turn did (tool results
// included), and goes on from there. The person's message is not stored
// again. Events follow as for Send.
func (s *ChatService) Retry(conversationID string) error {
	msgs, err := s.core.Store.Messages(conversationID)
	if err != nil {
		return err
	}
	if len(msgs) == 0 || msgs[len(msgs)-1].Error == "" && !unfinished(msgs) {
		return i18n.Err("chat.error.nothingToRetry")
	}
	return s.start(conversationID, "", nil)
}

// start runs a turn of the conversation: with the person's text and
// attachments, or, when both are empty, again on the stored conversation
// (Retry).
func (s *ChatService) start(conversationID, text string, attachments []store.Attachment) error {
	// Under the lock, so that the turn reads the settings UpdateConversation
	// saved last, and DropOldToolResults does not drop under its feet.
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return i18n.Err("mcp.error.closing")
	}
	if s.running[conversationID] != nil {
		return ErrTurnRunning
	}
	conv, err := s.core.Store.Conversation(conversationID)
	if err != nil {
		return err
	}
	provider, record, err := s.resolve(conv.ProviderID)
	if err != nil {
		return err
	}
	stored, err := s.core.Store.Messages(conversationID)
	if err != nil {
		return err
	}
	// A turn that never ended (Gatehouse was killed while it ran) is
	// closed first, so that the history is one a provider accepts.
	if closing := closeInterrupted(stored); len(closing) > 0 {
		added, err := s.core.Store.AppendMessages(conversationID, closing...)
		if err != nil {
			return err
		}
		stored = append(stored, added...)
	}
	turn := chat.Turn{ConversationID: conv.ID, ConversationTitle: conv.Title, Provider: provider,
		Model: conv.Model, System: conv.SystemPrompt, Servers: s.offeredServers(conv), History: toLLM(stored, conv.ProviderID),
		Text: text, Attachments: attachments, AllowedHere: map[store.ToolKey]*store.ToolSeen{}, CallTimeout: s.core.toolCallTimeout()}
	if turn.Model == "" {
		turn.Model = record.Model
	}
	for _, g := range conv.AllowedTools {
		turn.AllowedHere[g.Key()] = g.Seen
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.running[conv.ID] = cancel
	s.before[conv.ID] = 0
	if len(stored) > 0 {
		s.before[conv.ID] = stored[len(stored)-1].Seq
	}
	s.streamed[conv.ID] = &strings.Builder{}
	s.wg.Add(1)
	if conv.Title == "" && text != "" {
		_, _ = s.core.Store.RenameConversation(conv.ID, titleFrom(text))
	} else if conv.Title == "" && len(attachments) > 0 {
		_, _ = s.core.Store.RenameConversation(conv.ID, titleFrom(attachments[0].Name))
	}
	// What apps gave the conversation, as the person accepted it, goes
	// with this turn, once.
	turn.System = withAppContext(turn.System, s.core.appContext.take(conv.ID))
	go s.run(ctx, cancel, turn, conv.ProviderID)
	return nil
}

func (s *ChatService) run(ctx context.Context, cancel context.CancelFunc, turn chat.Turn, providerID string) {
	defer s.wg.Done()
	defer cancel()
	events := &chatEvents{send: func(ev ChatEvent) {
		ev.ConversationID = turn.ConversationID
		s.core.emit(EventChat, ev)
		s.mu.Lock()
		watcher := s.watchers[turn.ConversationID]
		s.mu.Unlock()
		if watcher != nil {
			watcher(ev)
		}
	}}
	emit := events.emit
	saver := &turnSaver{store: s.core.Store, conversationID: turn.ConversationID}
	turn.Save = func(saved chat.Saved) error {
		m := storedMessage(saved, providerID, turn.Model)
		if m.Role == store.RoleUser {
			m.Attachments = turn.Attachments
		}
		return saver.save(m)
	}
	res, err := s.runner.Run(ctx, turn, func(ev chat.Event) {
		if ev.Kind == chat.EventText || ev.Kind == chat.EventReasoning {
			s.mu.Lock()
			s.streamed[turn.ConversationID].WriteString(ev.Text)
			s.mu.Unlock()
		}
		emit(ChatEvent{Kind: ev.Kind, Text: ev.Text, Call: ev.Call, Usage: ev.Usage})
	})
	storeErr := saver.wait()
	if err != nil {
		// The marker of the failed turn, after what it stored.
		why := turnError(err)
		if storeErr != nil {
			why = i18n.M("chat.error.notSaved", "detail", storeErr).String()
		}
		_, markErr := s.core.Store.AppendMessages(turn.ConversationID, store.Message{Role: store.RoleAssistant, Error: why,
			ContextTooLong: errors.Is(err, llm.ErrContextTooLong), ProviderID: providerID, Model: turn.Model})
		if storeErr == nil {
			storeErr = markErr
		}
	}
	for _, grant := range res.AllowedHere {
		_, _ = s.core.Store.AllowToolInConversation(turn.ConversationID, grant)
	}
	s.mu.Lock()
	delete(s.running, turn.ConversationID)
	delete(s.before, turn.ConversationID)
	delete(s.streamed, turn.ConversationID)
	s.mu.Unlock()
	switch {
	case storeErr != nil:
		emit(ChatEvent{Kind: ChatFailed, Error: i18n.M("chat.error.notSaved", "detail", storeErr).String()})
	case err != nil:
		emit(ChatEvent{Kind: ChatFailed, Error: turnError(err), ContextTooLong: errors.Is(err, llm.ErrContextTooLong)})
	default:
		emit(ChatEvent{Kind: ChatDone})
	}
}

// watch has f hear every event of the conversation's turns, as the window
// does, until stop is called: the command line's turn (Commands.ChatTurn).
// f is called in order, never twice at once; one watcher per conversation.
func (s *ChatService) watch(conversationID string, f func(ChatEvent)) (stop func()) {
	s.mu.Lock()
	s.watchers[conversationID] = f
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.watchers, conversationID)
		s.mu.Unlock()
	}
}

// Stop ends the running turn of a conversation: the model's stream, a
// question on screen and a running tool call.
func (s *ChatService) Stop(conversationID string) {
	s.mu.Lock()
	cancel := s.running[conversationID]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// CancelCall cancels one running tool call of a conversation, by its call
// ID, from its card: the server is told, and the model reads that the
// person cancelled it and carries on.
func (s *ChatService) CancelCall(conversationID, callID string) error {
	if !s.runner.CancelCall(conversationID, callID) {
		return i18n.Err("tools.error.notRunning")
	}
	return nil
}

// StopAll stops every running turn and waits until each has stored what it
// had (the app's exit); no turn starts after it.
func (s *ChatService) StopAll() {
	s.mu.Lock()
	s.stopped = true
	for _, cancel := range s.running {
		cancel()
	}
	s.mu.Unlock()
	s.Wait()
}

// Wait waits until no turn runs (for the app's exit and tests).
func (s *ChatService) Wait() { s.wg.Wait() }

// CheckedLink is a web address Gatehouse checked, as the consent display
// shows it, with the ID under which OpenLink opens it.
type CheckedLink struct {
	ID   string            `json:"id"`
	Link *linkcheck.Report `json:"link"`
}

// CheckLink checks a web address in the model's text of a conversation (a
// Markdown link or a bare URL the person clicked) for the consent display
// (E20–E22). Only an address the model wrote in that conversation is
// checked; anything else, and anything the link check refuses, is refused
// with a sentence.
func (s *ChatService) CheckLink(conversationID, url string) (CheckedLink, error) {
	wrote, err := s.modelWrote(conversationID, url)
	if err != nil {
		return CheckedLink{}, err
	}
	if !wrote {
		return CheckedLink{}, i18n.Err("chat.error.foreignLink")
	}
	report, err := linkcheck.Check(url)
	if err != nil {
		return CheckedLink{}, i18n.Wrap(err, "links.error.refused", "detail", err)
	}
	return CheckedLink{ID: s.links.add(report), Link: report}, nil
}

// OpenLink opens an address CheckLink checked, by its ID, in the system
// browser; the window calls it only after the person consented.
func (s *ChatService) OpenLink(linkID string) error {
	return s.links.open(linkID)
}

// modelWrote reports whether the model's text in a conversation, stored or
// still streaming, contains url as a Markdown link or bare URL gives it.
func (s *ChatService) modelWrote(conversationID, url string) (bool, error) {
	if url == "" {
		return false, nil
	}
	s.mu.Lock()
	live := ""
	if b := s.streamed[conversationID]; b != nil {
		live = b.String()
	}
	s.mu.Unlock()
	if containsAddress(live, url) {
		return true, nil
	}
	msgs, err := s.core.Store.Messages(conversationID)
	if err != nil {
		return false, err
	}
	for _, m := range msgs {
		if m.Role == store.RoleAssistant && (containsAddress(m.Text, url) || containsAddress(m.Reasoning, url)) {
			return true, nil
		}
	}
	return false, nil
}

// containsAddress reports whether Markdown text contains url as the
// Markdown reader gives it: with backslash escapes and character references
// resolved, and "www." links with the http:// the reader adds.
func containsAddress(text, url string) bool {
	if text == "" {
		return false
	}
	plain := html.UnescapeString(markdownEscape.ReplaceAllString(text, "$1"))
	if strings.Contains(plain, url) || strings.Contains(text, url) {
		return true
	}
	bare, ok := strings.CutPrefix(url, "http://")
	return ok && strings.HasPrefix(bare, "www.") && strings.Contains(plain, bare)
}

// markdownEscape is a backslash escape of ASCII punctuation (CommonMark).
var markdownEscape = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)

// offeredServers are the servers whose tools a conversation offers: its
// chosen ones, or every enabled server.
func (s *ChatService) offeredServers(conv store.Conversation) []string {
	if len(conv.Servers) > 0 {
		return conv.Servers
	}
	servers, _ := s.core.Store.Servers()
	var ids []string
	for _, srv := range servers {
		if srv.Enabled {
			ids = append(ids, srv.ID)
		}
	}
	return ids
}

// turnError is a failed turn in a sentence, in the language Go speaks now
// (it is stored with the conversation as it was said).
func turnError(err error) string {
	var le *llm.Error
	switch {
	case errors.As(err, &le):
		if errors.Is(err, llm.ErrContextTooLong) {
			return i18n.Sentences(le.Message, i18n.M("chat.error.tooLongHint")).String()
		}
		return le.Message.String()
	case errors.Is(err, context.Canceled):
		return i18n.M("chat.error.stopped").String()
	}
	return err.Error()
}

// titleFrom makes a conversation's first title from its first message.
func titleFrom(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	line = strings.TrimSpace(line)
	if utf8.RuneCountInString(line) > 60 {
		line = string([]rune(line)[:60]) + "…"
	}
	return line
}

// droppedResult is what the model receives in place of a tool result the
// person dropped to make room: providers refuse a tool call without a
// result, so the call keeps one.
const droppedResult = "[This tool result was dropped to save room in the context. Call the tool again if you need it.]"

// notRunResult answers a stored tool call that has no result (a turn
// stopped between the calls of one answer), so that the history stays one
// a provider accepts.
const notRunResult = "Not run: the turn ended before this call."

// toLLM turns stored messages into the model's history for the provider
// with ID providerID: it leaves out the markers of failed turns and dropped
// messages, sends a placeholder for a dropped tool result, gives every tool
// call a result, and sends an assistant message's provider data (Anthropic's
// signed thinking) only back to the provider that wrote it, since another
// would refuse the request over it.
func toLLM(msgs []store.Message, providerID string) []llm.Message {
	var out []llm.Message
	var open []string // calls of the last assistant message still without a result
	answerOpen := func() {
		for _, id := range open {
			out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: id, IsError: true, Text: notRunResult})
		}
		open = nil
	}
	for _, m := range msgs {
		if m.Error != "" && m.Text == "" && len(m.ToolCalls) == 0 {
			continue
		}
		if m.Role == store.RoleTool {
			i := slices.Index(open, m.ToolCallID)
			if i < 0 {
				continue // its call was dropped, or never stored
			}
			open = slices.Delete(open, i, i+1)
			out = append(out, toolMessage(m))
			continue
		}
		answerOpen()
		if m.Dropped {
			continue
		}
		lm := llm.Message{Role: llm.Role(m.Role), Text: m.Text, Reasoning: m.Reasoning}
		if m.Role == store.RoleUser {
			lm.Parts = chat.AttachmentParts(m.Attachments)
		}
		if len(m.ProviderData) > 0 && (m.ProviderID == "" || m.ProviderID == providerID) {
			_ = json.Unmarshal(m.ProviderData, &lm.Thinking)
		}
		for _, c := range m.ToolCalls {
			lm.ToolCalls = append(lm.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
			open = append(open, c.ID)
		}
		out = append(out, lm)
	}
	answerOpen()
	return out
}

// toolMessage is a stored tool result as the model receives it.
func toolMessage(m store.Message) llm.Message {
	lm := llm.Message{Role: llm.RoleTool, ToolCallID: m.ToolCallID}
	if m.Dropped {
		lm.Text = droppedResult
		return lm
	}
	if r := m.ToolResult; r != nil {
		lm.IsError = r.IsError || r.Denied
		var text string
		if json.Unmarshal(r.Content, &text) == nil {
			lm.Text = text
		}
	}
	return lm
}

// storeToolSettings is chat.ToolSettings over the store's tool policies.
type storeToolSettings struct{ core *Core }

// ToolPolicy reads the server's tool policy from the store.
func (t storeToolSettings) ToolPolicy(serverID string) (store.ToolPolicy, error) {
	return t.core.Store.ToolPolicy(serverID)
}

// AllowAlways saves "Always allow this tool", bound to what the person
// saw of it, and shows it in Settings.
func (t storeToolSettings) AllowAlways(serverID, tool string, seen store.ToolSeen) error {
	if err := t.core.Store.AllowToolAlways(serverID, tool, seen); err != nil {
		return err
	}
	_, _ = t.core.emitPolicies(serverID)
	return nil
}
