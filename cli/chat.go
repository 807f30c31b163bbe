package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// chat runs `gatehouse chat [--provider NAME] [--answers FILE] [--json]
// MESSAGE`: one turn of a new conversation with every enabled server's tools
// offered. The model's text streams to stdout; approvals and elicitations
// are asked on the terminal (stderr), or taken from the answers file in the
// order they come ("allow"/"deny" for a tool call). It exits 1 when the
// provider fails or an answer was missing.
//
// `gatehouse chat list` and `gatehouse chat export` are chatList and
// chatExport; a message that starts with one of those words follows "--".
func (e *env) chat(ctx context.Context, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "list":
			return e.exit(e.chatList(ctx, args[1:]))
		case "export":
			return e.exit(e.chatExport(ctx, args[1:]))
		}
	}
	var providerName, answersFile string
	asJSON := false
	var words []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			words = append(words, args[i+1:]...)
			i = len(args)
		case a == "--json":
			asJSON = true
		case a == "--provider" || a == "--answers":
			if i+1 >= len(args) {
				return e.exit(usageErr(i18n.M("cli.needsValue", "option", a)))
			}
			i++
			if a == "--provider" {
				providerName = args[i]
			} else {
				answersFile = args[i]
			}
		case strings.HasPrefix(a, "--provider="):
			providerName = strings.TrimPrefix(a, "--provider=")
		case strings.HasPrefix(a, "--answers="):
			answersFile = strings.TrimPrefix(a, "--answers=")
		default:
			words = append(words, a)
		}
	}
	message := strings.TrimSpace(strings.Join(words, " "))
	if message == "" {
		return e.exit(usageErr(i18n.M("cli.chat.needsMessage")))
	}
	answerer, err := newTerminalAnswerer(e.stderr, e.stdin, answersFile)
	if err != nil {
		return e.exit(err)
	}
	defer answerer.close()
	e = &env{stdin: e.stdin, stdout: e.stdout, stderr: answerer.out.shared(), dataDir: e.dataDir}
	events := &chatPrinter{out: e.stdout, asJSON: asJSON}
	if err := e.chatTurn(ctx, providerName, message, answerer, events); err != nil {
		return e.exit(err)
	}
	events.finish()
	if failed := events.failure(); failed != "" {
		fmt.Fprintln(e.stderr, "gatehouse:", failed)
		return exitError
	}
	if err := answerer.Failure(); err != nil {
		fmt.Fprintln(e.stderr, "gatehouse:", err)
		return exitError
	}
	return exitOK
}

// chatList runs `gatehouse chat list`: the conversations, the most
// recently active first, with the IDs chat export takes.
func (e *env) chatList(ctx context.Context, args []string) error {
	if len(args) > 0 {
		return usageErr(i18n.M("cli.chat.listArgs"))
	}
	var conversations applink.Items[store.Conversation]
	if err := e.do(ctx, app.ToolConversations, struct{}{}, &conversations); err != nil {
		return err
	}
	list := conversations.Items
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, i18n.M("cli.chat.none"))
		return nil
	}
	tw := newTable(e.stdout)
	fmt.Fprintln(tw, i18n.M("cli.chat.header"))
	for _, c := range list {
		title := c.Title
		if title == "" {
			title = i18n.M("cli.chat.untitled").String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.ID, c.UpdatedAt.Local().Format("2006-01-02 15:04"), oneLine(title))
	}
	return tw.Flush()
}

// chatExport runs `gatehouse chat export CONVERSATION-ID [--out FILE]`: the
// conversation as Markdown on stdout, or in FILE (written 0600).
func (e *env) chatExport(ctx context.Context, args []string) error {
	var id, out string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--out":
			if i+1 >= len(args) {
				return usageErr(i18n.M("cli.chat.outFile"))
			}
			i++
			out = args[i]
		case strings.HasPrefix(a, "--out="):
			out = strings.TrimPrefix(a, "--out=")
		case strings.HasPrefix(a, "-") || id != "":
			return usageErr(i18n.M("cli.chat.exportArgs", "arg", strconv.Quote(a)))
		default:
			id = a
		}
	}
	if id == "" {
		return usageErr(i18n.M("cli.chat.exportID"))
	}
	var md app.CLIText
	if err := e.do(ctx, app.ToolExportChat, app.CLIName{Name: id}, &md); err != nil {
		return err
	}
	if out == "" {
		_, err := io.WriteString(e.stdout, md.Text)
		return err
	}
	if err := app.WriteExport(out, md.Text); err != nil {
		return err
	}
	fmt.Fprintln(e.stderr, i18n.M("cli.chat.exported", "path", out))
	return nil
}

// chatTurn runs the turn in the core, with its providers, servers and
// conversations: the turn is told as it goes (the chat_turn tool's
// notifications/progress, printed by events) and its questions are asked
// here, through answerer. Ctrl-C (ctx) stops the turn, which still ends as
// it does by itself.
func (e *env) chatTurn(ctx context.Context, provider, message string, answerer *terminalAnswerer, events *chatPrinter) error {
	var mu sync.Mutex
	heard := 0
	changed := make(chan struct{}, 1)
	notices := func(p *sdk.ProgressNotificationParams) {
		if text, ok := p.Meta[app.ChatEventMeta].(string); ok {
			var ev app.ChatEvent
			if json.Unmarshal([]byte(text), &ev) == nil {
				events.print(ev)
			}
		}
		if text, ok := p.Meta[app.ChatNotConnectedMeta].(string); ok {
			var nc app.CLINotConnected
			if json.Unmarshal([]byte(text), &nc) == nil {
				fmt.Fprintln(e.stderr, i18n.M("cli.chat.notConnected", "server", nc.Server, "detail", &i18n.Error{Message: nc.Why}))
			}
		}
		mu.Lock()
		heard++
		mu.Unlock()
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	cs, closeLink, err := e.connect(ctx, answerer, notices)
	if err != nil {
		return err
	}
	defer closeLink()
	var ended app.CLIChatTurnEnded
	if err := run(ctx, cs, app.ToolChatTurn, app.CLIChatTurn{Provider: provider, Message: message}, &ended); err != nil {
		return err
	}
	// The result can overtake the last notifications: wait for them.
	deadline := time.After(chatNoticeWait)
	for {
		mu.Lock()
		all := heard >= ended.Notices
		mu.Unlock()
		if all {
			return nil
		}
		select {
		case <-changed:
		case <-deadline:
			return nil
		}
	}
}

// chatNoticeWait bounds the wait for a chat turn's last notifications
// after its result: they were sent before it, on the same connection.
const chatNoticeWait = 5 * time.Second

// chatPrinter prints a turn's events: the model's text as it streams, a
// line per tool call; with --json, the events as JSON lines.
type chatPrinter struct {
	out    interface{ Write([]byte) (int, error) }
	asJSON bool

	mu      sync.Mutex
	failed  string
	midLine bool
}

// print prints one event of the turn.
func (p *chatPrinter) print(ev app.ChatEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ev.Kind == app.ChatFailed {
		p.failed = ev.Error
	}
	if p.asJSON {
		b, _ := json.Marshal(ev)
		fmt.Fprintf(p.out, "%s\n", b)
		return
	}
	switch ev.Kind {
	case chat.EventText:
		fmt.Fprint(p.out, visible(ev.Text))
		p.midLine = !strings.HasSuffix(ev.Text, "\n")
	case chat.EventCall:
		if ev.Call.State == chat.CallRunning || ev.Call.State == chat.CallAsking || ev.Call.State == chat.CallWaiting {
			return
		}
		if p.midLine {
			fmt.Fprintln(p.out)
			p.midLine = false
		}
		fmt.Fprintf(p.out, "[%s %s on %s: %s]\n", ev.Call.State, oneLine(ev.Call.Tool), oneLine(ev.Call.ServerName), oneLine(truncateRunes(ev.Call.Result, 200)))
	}
}

func (p *chatPrinter) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.midLine && !p.asJSON {
		fmt.Fprintln(p.out)
	}
}

func (p *chatPrinter) failure() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failed
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
