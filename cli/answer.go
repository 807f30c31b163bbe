package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/forms"
	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// terminalAnswerer answers elicitations for `gatehouse call`: from an
// --answers script when given, otherwise by prompting on the terminal. Every
// answer goes through the same validation as the GUI's.
type terminalAnswerer struct {
	out    *termOut
	in     *input // standard input; nil with --answers, which never reads it
	styled bool   // out is a terminal: highlight with ANSI, not brackets

	mu      sync.Mutex
	script  []json.RawMessage // nil: ask interactively
	next    int
	scripts bool
	failure error // the first scripted answer that could not be used

	// keeper hears how the web pages the person opened end, which the
	// core's broker keeps, and tells it when the person is done (see
	// urlmode.go).
	keeper   *applink.Pages
	ctx      context.Context // ends when the command is over (close)
	stop     context.CancelFunc
	accepted map[string]time.Duration // URL requests this answerer opened, with their time limit, by ID
	pages    map[string]*openedPage   // opened pages not ended yet, by ID
	order    []*openedPage            // pages in the order they were opened
	// ending are pages taken off the list whose end is being said
	// (ended): the command waits for them before it exits.
	ending      map[*openedPage]bool
	reading     bool  // a goroutine reads stdin for the pages
	inputEOF    bool  // standard input ended
	unconfirmed error // the first page that ended without confirmation
}

// newTerminalAnswerer reads answers from answersFile when it is not "",
// else from in. Everything it shows goes to out.
func newTerminalAnswerer(out io.Writer, in io.Reader, answersFile string) (*terminalAnswerer, error) {
	ctx, stop := context.WithCancel(context.Background())
	a := &terminalAnswerer{out: &termOut{w: out}, styled: isTerminal(out), ctx: ctx, stop: stop,
		accepted: map[string]time.Duration{}, pages: map[string]*openedPage{}, ending: map[*openedPage]bool{}}
	if answersFile != "" {
		b, err := os.ReadFile(answersFile)
		if err != nil {
			stop()
			return nil, i18n.Wrap(err, "cli.script.read", "detail", err)
		}
		if err := json.Unmarshal(b, &a.script); err != nil || a.script == nil {
			stop()
			return nil, i18n.Err("cli.script.notArray", "file", answersFile)
		}
		a.scripts = true
		return a, nil
	}
	a.in = newInput(in)
	return a, nil
}

// usePages gives the answerer the Pages of its connection to the core
// (connect calls it before any request can arrive).
func (a *terminalAnswerer) usePages(k *applink.Pages) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.keeper = k
}

// close ends the answerer's background work and silences it: after the
// command is over nothing more is written.
func (a *terminalAnswerer) close() {
	a.stop()
	a.out.close()
}

// Failure returns the first scripted answer that could not be sent.
func (a *terminalAnswerer) Failure() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.failure
}

func (a *terminalAnswerer) fail(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.failure == nil {
		a.failure = err
	}
}

// Present shows one question the core asks of this command and returns
// the person's answer (applink.ClientOptions.Answer).
func (a *terminalAnswerer) Present(ctx context.Context, req *mcp.Question) (mcp.Response, error) {
	a.header(req)
	if req.OpensPage() {
		a.showLink(req)
	}
	if req.Kind == mcp.KindToolCall {
		a.showCall(req)
	}
	if a.scripts {
		return a.scripted(req)
	}
	a.in.prompting(true)
	defer a.in.prompting(false)
	var resp mcp.Response
	var err error
	switch {
	case req.Kind == mcp.KindToolCall:
		resp, err = a.interactiveCall(ctx, req)
	case req.OpensPage():
		resp, err = a.interactiveURL(ctx, req)
	default:
		resp, err = a.interactive(ctx, req)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(a.out, i18n.M("cli.ask.withdrawn"))
	}
	return resp, err
}

// header prints who asks and why (E27), as text that cannot drive the terminal.
func (a *terminalAnswerer) header(req *mcp.Question) {
	p := req.Peer
	name := oneLine(p.Server.Name)
	asks := i18n.M("cli.ask.form", "server", name)
	switch req.Kind {
	case "url":
		asks = i18n.M("cli.ask.url", "server", name)
	case mcp.KindSignIn:
		asks = i18n.M("cli.ask.signin", "server", name)
	case mcp.KindToolCall:
		asks = i18n.M("cli.ask.toolCall", "server", name)
		if req.ToolCall != nil && req.ToolCall.App != "" { // a server's app asks, not the model
			asks = i18n.M("cli.ask.appToolCall", "app", oneLine(req.ToolCall.App), "server", name)
		}
	}
	fmt.Fprintf(a.out, "\n── %s ──\n", asks)
	who := i18n.M("cli.ask.runs", "where", oneLine(p.Where))
	if p.SelfName != "" {
		who = i18n.M("cli.ask.runsCalls", "where", oneLine(p.Where), "self", oneLine(p.SelfName))
	}
	fmt.Fprintln(a.out, who)
	fmt.Fprintln(a.out, visible(req.Message))
	if req.Form != nil && len(req.Form.SecretFields) > 0 {
		var labels []string
		for _, f := range req.Form.Fields {
			if slices.Contains(req.Form.SecretFields, f.Name) {
				labels = append(labels, "\""+oneLine(f.Label)+"\"")
			}
		}
		warning := i18n.M("cli.ask.secret.one", "fields", i18n.Text(strings.Join(labels, ", ")))
		if len(labels) > 1 {
			warning = i18n.M("cli.ask.secret.other", "fields", i18n.Text(strings.Join(labels, ", ")))
		}
		fmt.Fprintln(a.out, warning)
	}
}

func (a *terminalAnswerer) scripted(req *mcp.Question) (mcp.Response, error) {
	a.mu.Lock()
	if a.next >= len(a.script) {
		a.mu.Unlock()
		a.fail(i18n.Err("cli.script.noEntry", "n", a.next+1, "server", req.Peer.Server.Name))
		fmt.Fprintln(a.out, i18n.M("cli.ask.noScriptAnswer"))
		return mcp.Response{Action: mcp.ActionCancel}, nil
	}
	entry := a.script[a.next]
	a.next++
	n := a.next
	a.mu.Unlock()

	var word string
	if json.Unmarshal(entry, &word) == nil {
		switch {
		case req.Kind == mcp.KindToolCall && word == "allow":
			fmt.Fprintln(a.out, i18n.M("cli.script.allowed", "n", n))
			return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeOnce}, nil
		case req.Kind == mcp.KindToolCall && word == "deny":
			fmt.Fprintln(a.out, i18n.M("cli.script.denied", "n", n))
			return mcp.Response{Action: mcp.ActionDecline}, nil
		case req.Kind == mcp.KindToolCall:
			return a.scriptFailure(i18n.Err("cli.script.toolCallWord", "n", n, "word", strconv.Quote(word))), nil
		case word == "allow" || word == "deny":
			return a.scriptFailure(i18n.Err("cli.script.notToolCall", "n", n, "word", strconv.Quote(word))), nil
		case word == mcp.ActionDecline || word == mcp.ActionCancel:
			fmt.Fprintln(a.out, i18n.M("cli.script.action", "n", n, "action", word))
			return mcp.Response{Action: word}, nil
		case word == "open" && req.OpensPage():
			return a.scriptedOpen(req, n), nil
		case word == "open":
			return a.scriptFailure(i18n.Err("cli.script.openForm", "n", n)), nil
		}
		return a.scriptFailure(i18n.Err("cli.script.badWord", "n", n, "word", strconv.Quote(word))), nil
	}
	if req.OpensPage() {
		return a.scriptFailure(i18n.Err("cli.script.objectForPage", "n", n)), nil
	}
	if req.Form == nil {
		return a.scriptFailure(i18n.Err("cli.script.objectNotForm", "n", n)), nil
	}
	var values map[string]any
	if err := json.Unmarshal(entry, &values); err != nil || values == nil {
		return a.scriptFailure(i18n.Err("cli.script.notObject", "n", n)), nil
	}
	for _, f := range req.Form.Fields { // defaults fill fields the script leaves out
		if _, given := values[f.Name]; !given && f.Default != nil {
			values[f.Name] = f.Default
		}
	}
	if errs := req.Validate(values); len(errs) > 0 {
		fmt.Fprintln(a.out, i18n.M("cli.script.invalid", "n", n))
		a.printErrors(req, errs)
		a.fail(i18n.Err("cli.script.notSent", "n", n))
		return mcp.Response{Action: mcp.ActionCancel}, nil
	}
	fmt.Fprintln(a.out, i18n.M("cli.script.submitted", "n", n))
	return mcp.Response{Action: mcp.ActionAccept, Values: values}, nil
}

// scriptFailure records a scripted answer that cannot be used, says why, and
// cancels the request; the command then exits 1.
func (a *terminalAnswerer) scriptFailure(err error) mcp.Response {
	a.fail(err)
	fmt.Fprintln(a.out, i18n.M("cli.script.cannot", "detail", err))
	return mcp.Response{Action: mcp.ActionCancel}
}

func (a *terminalAnswerer) printErrors(req *mcp.Question, errs map[string]i18n.Message) {
	for _, f := range req.Form.Fields {
		if msg, ok := errs[f.Name]; ok {
			fmt.Fprintf(a.out, "  %s: %s\n", oneLine(f.Label), msg)
			delete(errs, f.Name)
		}
	}
	for name, msg := range errs {
		fmt.Fprintf(a.out, "  %s: %s\n", oneLine(name), msg)
	}
}

// errWithdrawn ends an interactive prompt when the request's context ends.
var errWithdrawn = errors.New("withdrawn")

// readLine waits for a line of input, the end of input, or ctx. Prompts take
// lines before the wait for opened web pages does (see input).
func (a *terminalAnswerer) readLine(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(a.out, prompt)
	line, err := a.in.take(ctx, true)
	if errors.Is(err, errWithdrawn) {
		fmt.Fprintln(a.out)
	}
	return strings.TrimSpace(line), err
}

func (a *terminalAnswerer) interactive(ctx context.Context, req *mcp.Question) (mcp.Response, error) {
	values := map[string]any{}
	fields := req.Form.Fields
	for {
		for _, f := range fields {
			v, err := a.askField(ctx, f)
			if err != nil {
				return mcp.Response{Action: mcp.ActionCancel}, nil
			}
			if v == nil {
				delete(values, f.Name)
			} else {
				values[f.Name] = v
			}
		}
		errs := req.Validate(values)
		if len(errs) == 0 {
			break
		}
		fmt.Fprintln(a.out, i18n.M("cli.ask.correct"))
		a.printErrors(req, maps.Clone(errs))
		fields = slices.DeleteFunc(slices.Clone(req.Form.Fields), func(f forms.Field) bool { _, bad := errs[f.Name]; return !bad })
	}
	for {
		choice, err := a.readLine(ctx, i18n.M("cli.ask.submitPrompt").String())
		if err != nil {
			return mcp.Response{Action: mcp.ActionCancel}, nil
		}
		switch strings.ToLower(choice) {
		case "s", "submit":
			return mcp.Response{Action: mcp.ActionAccept, Values: values}, nil
		case "d", "decline":
			return mcp.Response{Action: mcp.ActionDecline}, nil
		case "c", "cancel":
			return mcp.Response{Action: mcp.ActionCancel}, nil
		}
	}
}

// askField prompts for one field; nil means left empty. What is typed is
// read as the field's kind where it can be and kept as typed where it
// cannot: the form's own checks then say what is wrong, in the same words
// as the window's.
func (a *terminalAnswerer) askField(ctx context.Context, f forms.Field) (any, error) {
	fmt.Fprintln(a.out)
	label := oneLine(f.Label)
	if f.Required {
		label += " (required)"
	}
	fmt.Fprintln(a.out, label)
	if f.Description != "" {
		fmt.Fprintln(a.out, "  "+visible(f.Description))
	}
	if hint := hints(f); hint != "" {
		fmt.Fprintln(a.out, "  "+hint)
	}
	for i, o := range f.Options {
		fmt.Fprintf(a.out, "  %d) %s\n", i+1, oneLine(o.Label))
	}
	prompt := "> "
	if f.Default != nil {
		prompt = fmt.Sprintf("[%s] > ", oneLine(defaultText(f)))
	}
	line, err := a.readLine(ctx, prompt)
	if err != nil {
		return nil, err
	}
	if line == "" {
		return f.Default, nil
	}
	return parseInput(f, line), nil
}

// hints is what a field accepts (the form's hints) and how to type it here.
func hints(f forms.Field) string {
	var parts []string
	for _, h := range f.Hints {
		parts = append(parts, oneLine(h.String()))
	}
	switch f.Kind {
	case forms.KindDate:
		parts = append(parts, i18n.M("cli.type.date").String())
	case forms.KindDateTime:
		parts = append(parts, i18n.M("cli.type.dateTime").String())
	case forms.KindBoolean:
		parts = append(parts, i18n.M("cli.type.boolean").String())
	case forms.KindSingleSelect:
		parts = append(parts, i18n.M("cli.type.choice").String())
	case forms.KindMultiSelect:
		parts = append(parts, i18n.M("cli.type.choices").String())
	case forms.KindJSON:
		parts = append(parts, i18n.M("cli.type.json").String())
	}
	msgs := make([]i18n.Message, len(parts))
	for i, p := range parts {
		msgs[i] = i18n.Text(p)
	}
	return i18n.Sentences(msgs...).String()
}

func defaultText(f forms.Field) string {
	switch d := f.Default.(type) {
	case bool:
		if d {
			return "yes"
		}
		return "no"
	case []any:
		var s []string
		for _, v := range d {
			s = append(s, fmt.Sprint(v))
		}
		return strings.Join(s, ", ")
	}
	return fmt.Sprint(f.Default)
}

// parseInput reads a typed line as the field's kind; what does not read
// as that kind stays text, for the form's checks to judge.
func parseInput(f forms.Field, line string) any {
	switch f.Kind {
	case forms.KindInteger, forms.KindNumber:
		if n, err := strconv.ParseFloat(line, 64); err == nil {
			return n
		}
	case forms.KindBoolean:
		switch strings.ToLower(line) {
		case "y", "yes", "true":
			return true
		case "n", "no", "false":
			return false
		}
	case forms.KindSingleSelect:
		return pickOption(f, line)
	case forms.KindMultiSelect:
		var picked []any
		for _, part := range strings.Split(line, ",") {
			if part = strings.TrimSpace(part); part != "" {
				picked = append(picked, pickOption(f, part))
			}
		}
		return picked
	}
	return line
}

// pickOption reads a choice by its number, value or label.
func pickOption(f forms.Field, s string) any {
	if i, err := strconv.Atoi(s); err == nil && i >= 1 && i <= len(f.Options) {
		return f.Options[i-1].Value
	}
	for _, o := range f.Options {
		if o.Value == s || strings.EqualFold(o.Label, s) {
			return o.Value
		}
	}
	return s
}

// showCall prints the tool a model wants to call and its exact arguments.
func (a *terminalAnswerer) showCall(req *mcp.Question) {
	c := req.ToolCall
	fmt.Fprintf(a.out, "Tool: %s", oneLine(c.Tool))
	if c.Title != "" && c.Title != c.Tool {
		fmt.Fprintf(a.out, " (%s)", oneLine(c.Title))
	}
	fmt.Fprintln(a.out)
	var pretty bytes.Buffer
	if json.Indent(&pretty, c.Arguments, "  ", "  ") == nil {
		fmt.Fprintf(a.out, "Arguments:\n  %s\n", visible(pretty.String()))
	} else {
		fmt.Fprintf(a.out, "Arguments: %s\n", visible(string(c.Arguments)))
	}
	if c.ReadOnly {
		fmt.Fprintln(a.out, i18n.M("cli.ask.readOnly"))
	}
	if c.Destructive {
		fmt.Fprintln(a.out, i18n.M("consent.toolCall.destructive"))
	}
	if c.Held != "" {
		held := i18n.M("consent.held.conversation")
		if c.Held == mcp.ScopeAlways {
			held = i18n.M("consent.held.always")
		}
		fmt.Fprintln(a.out, held)
		for _, ch := range c.Changes {
			fmt.Fprintf(a.out, "  - %s\n", changeSentence(ch))
		}
		fmt.Fprintln(a.out, i18n.M("consent.held.rebind"))
	}
}

// changeSentence says how a tool changed since the person allowed it, the
// server's text made visible.
func changeSentence(ch mcp.ToolChange) i18n.Message {
	switch ch.Part {
	case mcp.ChangeServer:
		return i18n.M("consent.change.server")
	case mcp.ChangeTitle:
		return i18n.M("consent.change.title")
	case mcp.ChangeDescription:
		return i18n.M("consent.change.description", "was", i18n.Text("“"+oneLine(ch.Was)+"”"), "now", i18n.Text("“"+oneLine(ch.Now)+"”"))
	case mcp.ChangeSchema:
		return i18n.M("consent.change.schema")
	case mcp.ChangeAnnotations:
		return i18n.M("consent.change.annotations")
	}
	return i18n.M("consent.change.unrecorded")
}

// interactiveCall asks whether to allow a tool call: once, for the
// conversation, always, or not.
func (a *terminalAnswerer) interactiveCall(ctx context.Context, req *mcp.Question) (mcp.Response, error) {
	for {
		line, err := a.readLine(ctx, i18n.M("cli.ask.allowPrompt").String())
		if err != nil {
			return mcp.Response{Action: mcp.ActionCancel}, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "o", "once", "y", "yes":
			return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeOnce}, nil
		case "c", "conversation":
			return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeConversation}, nil
		case "a", "always":
			return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeAlways}, nil
		case "d", "deny", "n", "no":
			return mcp.Response{Action: mcp.ActionDecline}, nil
		}
		fmt.Fprintln(a.out, i18n.M("cli.ask.allowKeys"))
	}
}
