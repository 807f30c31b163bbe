package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/store"
)

// A Transcript is a conversation as ConversationMarkdown writes it.
type Transcript struct {
	Conversation store.Conversation
	// Messages are the conversation's stored messages, oldest first.
	Messages []store.Message
	// ProviderNames and ServerNames name providers and servers by ID; an
	// ID without a name (a provider or server removed since) is shown as
	// it is.
	ProviderNames map[string]string
	ServerNames   map[string]string
}

// ConversationMarkdown writes a conversation as Markdown for the person to
// keep or read elsewhere: its title, provider and model, date and system
// prompt, then each turn: the person's text, the model's reasoning (folded),
// its text, each tool call with its server, tool, arguments, outcome and
// result, the tokens used, and why a turn failed.
//
// The text of the model, of servers and of the person is untrusted: none of
// it can break out of its place. Arguments, results and the system prompt
// are fenced with more backticks than they contain; reasoning, put inside
// HTML (<details>), is HTML-escaped; the model's and the person's Markdown
// has its raw HTML and images made text (a viewer must not run a script,
// fetch an image that carries the conversation away, or hide the rest of
// the file in a comment), and a code block it leaves open is closed; names
// and titles are escaped to plain text; control characters (terminal escape
// sequences) become U+FFFD.
func ConversationMarkdown(t Transcript) string {
	var b strings.Builder
	conv := t.Conversation
	title := conv.Title
	if strings.TrimSpace(title) == "" {
		title = "Untitled conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n", plainText(title))
	model := "the provider's default model"
	if conv.Model != "" {
		model = inlineCode(conv.Model)
	}
	fmt.Fprintf(&b, "- Provider: %s · model: %s\n", plainText(t.providerName(conv.ProviderID)), model)
	fmt.Fprintf(&b, "- Started: %s\n", exportTime(conv.CreatedAt))
	fmt.Fprintf(&b, "- Last active: %s\n", exportTime(conv.UpdatedAt))
	if conv.SystemPrompt != "" {
		fmt.Fprintf(&b, "\n## System prompt\n\n%s", fenced(conv.SystemPrompt, "text"))
	}

	results := map[string]store.Message{}
	called := map[string]bool{}
	for _, m := range t.Messages {
		if m.Role == store.RoleTool {
			results[m.ToolCallID] = m
		}
		for _, c := range m.ToolCalls {
			called[c.ID] = true
		}
	}
	b.WriteString("\n## Messages\n")
	modelSpeaking := false // a turn's rounds share one heading
	for _, m := range t.Messages {
		switch m.Role {
		case store.RoleUser:
			modelSpeaking = false
			fmt.Fprintf(&b, "\n### You\n\n%s\n", safeMarkdown(m.Text))
			for _, a := range m.Attachments {
				fmt.Fprintf(&b, "\n- **Attached:** %s from %s, %s", plainText(a.Name), plainText(a.ServerName), inlineCode(a.URI))
			}
			if len(m.Attachments) > 0 {
				b.WriteString("\n")
			}
		case store.RoleSystem:
			modelSpeaking = false
			fmt.Fprintf(&b, "\n### System\n\n%s", fenced(m.Text, "text"))
		case store.RoleAssistant:
			if !modelSpeaking {
				modelSpeaking = true
				b.WriteString("\n### Model")
				if m.ProviderID != "" || m.Model != "" {
					fmt.Fprintf(&b, " · %s", plainText(t.providerName(m.ProviderID)))
				}
				if m.Model != "" {
					fmt.Fprintf(&b, " · %s", inlineCode(m.Model))
				}
				b.WriteString("\n")
			}
			t.writeAnswer(&b, m, results)
		case store.RoleTool:
			if !called[m.ToolCallID] { // a result whose call is not stored
				fmt.Fprintf(&b, "\n**Result of tool call %s**\n\n", inlineCode(m.ToolCallID))
				writeResult(&b, m)
			}
		}
		if m.Truncated != "" {
			fmt.Fprintf(&b, "\n*%s*\n", plainText(m.Truncated))
		}
	}
	return noControls(b.String())
}

// noControls replaces control characters other than newline and tab with
// U+FFFD: printed to a terminal (gatehouse chat export, cat), an escape
// sequence from a model or a server must not drive it.
func noControls(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return '\uFFFD'
		}
		return r
	}, s)
}

// writeAnswer writes one assistant message: reasoning, text, tool calls,
// usage, failure.
func (t Transcript) writeAnswer(b *strings.Builder, m store.Message, results map[string]store.Message) {
	if strings.TrimSpace(m.Reasoning) != "" {
		fmt.Fprintf(b, "\n<details>\n<summary>Reasoning</summary>\n\n<p>%s</p>\n\n</details>\n", htmlLines(m.Reasoning))
	}
	if m.Text != "" {
		fmt.Fprintf(b, "\n%s\n", safeMarkdown(m.Text))
	}
	for _, c := range m.ToolCalls {
		tool := c.Tool
		if tool == "" {
			tool = c.Name
		}
		r, ok := results[c.ID]
		outcome := "not run"
		switch {
		case !ok || r.ToolResult == nil:
		case r.ToolResult.Denied:
			outcome = "denied"
		case r.ToolResult.Interrupted:
			outcome = "interrupted"
		case r.ToolResult.IsError:
			outcome = "failed"
		default:
			outcome = "done"
		}
		fmt.Fprintf(b, "\n**Tool call:** %s on %s — %s\n\nArguments:\n\n%s", inlineCode(tool),
			plainText(t.serverName(c.ServerID)), outcome, fencedJSON(c.Arguments))
		if ok {
			writeResult(b, r)
		}
	}
	if m.Usage != nil {
		fmt.Fprintf(b, "\n*Tokens: %d in · %d out*\n", m.Usage.Input, m.Usage.Output)
	}
	if m.Error != "" {
		fmt.Fprintf(b, "\n**The turn failed:** %s\n", plainText(m.Error))
	}
}

// writeResult writes a tool result, saying when it was dropped.
func writeResult(b *strings.Builder, m store.Message) {
	if m.Dropped {
		b.WriteString("\nResult (dropped to save room in the model's context; the model no longer sees it):\n\n")
	} else {
		b.WriteString("\nResult:\n\n")
	}
	if m.ToolResult == nil {
		b.WriteString("(none)\n")
		return
	}
	b.WriteString(fencedJSON(m.ToolResult.Content))
}

func (t Transcript) providerName(id string) string {
	if name := t.ProviderNames[id]; name != "" {
		return name
	}
	if id == "" {
		return "none"
	}
	return id
}

func (t Transcript) serverName(id string) string {
	if name := t.ServerNames[id]; name != "" {
		return name
	}
	return id
}

// exportTime writes a time to the minute, with its offset from UTC.
func exportTime(at time.Time) string { return at.Format("2006-01-02 15:04 -07:00") }

// fencedJSON fences a JSON value: a string as its text, anything else
// indented.
func fencedJSON(raw json.RawMessage) string {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return fenced(text, "text")
	}
	var out bytes.Buffer
	if json.Indent(&out, raw, "", "  ") != nil {
		return fenced(string(raw), "text")
	}
	return fenced(out.String(), "json")
}

// fenced puts text in a code block whose fence has more backticks than any
// run in text, so nothing in it can close the block early.
func fenced(text, info string) string {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	text = strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	return fence + info + "\n" + text + "\n" + fence + "\n"
}

// inlineCode writes s on one line as inline code, with more backticks
// around it than it contains.
func inlineCode(s string) string {
	s = oneLine(s)
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// inlineMarkup are the characters that can start markup within a line:
// emphasis, code, links and images, HTML and entities, strikethrough,
// tables, a heading's closing #s.
const inlineMarkup = "\\`*_[]<>!&~|#"

// plainText writes s on one line with the characters of inlineMarkup
// backslash-escaped: Markdown shows it as the text it is, with no markup,
// link or HTML. It is for text within a line that we begin.
func plainText(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		if strings.ContainsRune(inlineMarkup, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// htmlLines writes text as HTML-escaped lines joined by <br>, none of them
// blank, so that it stays within the HTML block it is put in.
func htmlLines(text string) string {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n")), "\n")
	for i, line := range lines {
		lines[i] = html.EscapeString(line)
	}
	return strings.Join(lines, "<br>\n")
}

// fenceLine matches a line that opens a fenced code block at the start of
// the line: three or more backticks (with no backtick after them) or
// tildes.
var fenceLine = regexp.MustCompile("^(`{3,}[^`]*|~{3,}.*)$")

// rawHTML matches what starts raw HTML in Markdown (a tag, a closing tag, a
// comment, a declaration, a processing instruction, an autolink) and image
// syntax.
var rawHTML = regexp.MustCompile(`<([A-Za-z/!?])|!\[`)

// safeMarkdown keeps the model's or the person's Markdown, except that
// outside fenced code blocks raw HTML becomes text (< as &lt;) and images
// become text (![ as !\[), and a fenced block left open is closed. Only
// fences at the very start of a line count: one indented in a list may end
// with its list, and text this function took for code would then be
// Markdown. Inside inline code and indented blocks, a < before a letter
// shows as &lt;: the price of never letting HTML through.
func safeMarkdown(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var fence string // the open fence's character run, or ""
	for i, line := range lines {
		if fence != "" {
			if closesFence(line, fence) {
				fence = ""
			}
			continue
		}
		if fenceLine.MatchString(line) {
			c := line[0]
			fence = line[:longestPrefix(line, c)]
			continue
		}
		lines[i] = rawHTML.ReplaceAllStringFunc(line, func(m string) string {
			if m == "![" {
				return `!\[`
			}
			return "&lt;" + m[1:]
		})
	}
	out := strings.Join(lines, "\n")
	if fence != "" {
		out += "\n" + fence
	}
	return out
}

// closesFence says whether line closes a block opened by fence: up to three
// spaces, a run of the same character at least as long, then only spaces.
func closesFence(line, fence string) bool {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return false
	}
	n := longestPrefix(trimmed, fence[0])
	return n >= len(fence) && strings.TrimRight(trimmed[n:], " \t") == ""
}

func longestPrefix(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// A FileChooser asks the person where to save a file: the GUI's save
// dialog. SaveFile returns the chosen path, or "" when the person
// cancelled.
type FileChooser interface {
	SaveFile(title, defaultName string) (string, error)
}

// ExportFileName makes a file name from a conversation's title: the
// characters file systems refuse become spaces, it is at most 80
// characters, and it ends in .md.
func ExportFileName(title string) string {
	name := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || strings.ContainsRune(`/\:*?"<>|`, r) {
			return ' '
		}
		return r
	}, title)
	name = strings.Trim(oneLine(name), ". ")
	if r := []rune(name); len(r) > 80 {
		name = strings.TrimSpace(string(r[:80]))
	}
	if name == "" {
		name = "Conversation"
	}
	return name + ".md"
}

// WriteExport writes an export to path, readable and writable only by the
// person (0600), replacing any file there at once: it is written next to
// it first, so a failure leaves the old file whole.
func WriteExport(path, markdown string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gatehouse-export-*")
	if err != nil {
		return i18n.Wrap(err, "export.error.write", "detail", err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up after a failure
	if _, err := tmp.WriteString(markdown); err != nil {
		tmp.Close()
		return i18n.Wrap(err, "export.error.write", "detail", err)
	}
	if err := tmp.Close(); err != nil {
		return i18n.Wrap(err, "export.error.write", "detail", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return i18n.Wrap(err, "export.error.write", "detail", err)
	}
	return nil
}
