package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm/llmtest"
)

// TestCLI_Chat: one turn from the command line with the real demo server
// and a scripted stand-in for the model (no model can run on these
// machines): the model's text is printed, its tool call is answered from
// the answers file, a denied call never runs, and a provider failure exits 1
// with a sentence.
func TestCLI_Chat(t *testing.T) {
	callEcho := llmtest.Turn{Text: []string{"Let me echo."}, ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "echo", Arguments: []string{`{"message":`, `"来自聊天"}`}}}}
	cases := []struct {
		name     string
		turns    []llmtest.Turn
		answers  string
		wantCode int
		wantOut  []string
		wantErr  string
	}{
		{"an allowed call runs and the model answers", []llmtest.Turn{callEcho, {Text: []string{"The server said ", "来自聊天", "."}}}, `["allow"]`, 0,
			[]string{"Let me echo.", "[done echo on Demo server: 来自聊天]", "The server said 来自聊天."}, "would be called by the model"},
		{"a denied call never runs", []llmtest.Turn{callEcho, {Text: []string{"OK, I won't."}}}, `["deny"]`, 0,
			[]string{"[denied echo on Demo server: The person denied this call.]", "OK, I won't."}, "Answer 1: denied."},
		{"a missing answer cancels the call and exits 1", []llmtest.Turn{callEcho, {Text: []string{"Hm."}}}, `[]`, 1,
			[]string{"[denied echo on Demo server:"}, "no entry for request 1"},
		{"the arguments shown before a call mark hidden characters, line separators included", []llmtest.Turn{
			{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "echo", Arguments: []string{"{\"message\":\"a\u2028b\u202Ec\u200Bd\"}"}}}},
			{Text: []string{"Done."}}}, `["deny"]`, 0,
			[]string{"Done."}, "a<U+2028>b<U+202E>c<U+200B>d"},
		{"a provider error exits 1 with a sentence", []llmtest.Turn{{Status: 401, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`}}, `[]`, 1,
			nil, "needs an API key, and none is set"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: tc.turns})
			if code, _, errOut := gh(t, dir, "providers", "add", "Stand-in", "--base-url", stand.URL, "--model", "m"); code != 0 {
				t.Fatalf("providers add: %s", errOut)
			}
			answers := filepath.Join(dir, "answers.json")
			if err := os.WriteFile(answers, []byte(tc.answers), 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := gh(t, dir, "chat", "--answers", answers, "Please", "echo", "something")
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out, errOut)
			}
			for _, want := range tc.wantOut {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			if !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantErr, errOut)
			}
		})
	}
}

// TestCLI_ChatListAndExport: after a turn from the command line (a
// scripted stand-in for the model; no model can run on these machines),
// chat list shows the conversation with its ID, and chat export writes it
// as Markdown to stdout or to a file only its owner can read.
func TestCLI_ChatListAndExport(t *testing.T) {
	dir := t.TempDir()
	if code, out, _ := gh(t, dir, "chat", "list"); code != 0 || !strings.Contains(out, "No conversations yet") {
		t.Fatalf("chat list with none: exit %d\n%s", code, out)
	}
	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: []string{"里斯本五月", "很暖和。"}},
		{Text: []string{"You said list."}},
	}})
	if code, _, errOut := gh(t, dir, "providers", "add", "Stand-in", "--base-url", stand.URL, "--model", "m"); code != 0 {
		t.Fatalf("providers add: %s", errOut)
	}
	if code, _, errOut := gh(t, dir, "chat", "五月的里斯本怎么样？"); code != 0 {
		t.Fatalf("chat: %s", errOut)
	}
	// A message that is the word "list" is sent after --.
	if code, out, errOut := gh(t, dir, "chat", "--", "list"); code != 0 || !strings.Contains(out, "You said list.") {
		t.Fatalf("chat -- list: exit %d\n%s\n%s", code, out, errOut)
	}

	code, out, errOut := gh(t, dir, "chat", "list")
	if code != 0 {
		t.Fatalf("chat list: %s", errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[2], "五月的里斯本怎么样？") {
		t.Fatalf("chat list:\n%s", out)
	}
	id := strings.Fields(lines[2])[0]

	file := filepath.Join(dir, "lisbon.md")
	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string // in stdout, or in the file with --out
		wantErr  string
	}{
		{"to stdout", []string{"chat", "export", id}, 0, "里斯本五月很暖和。", ""},
		{"to a file with --out", []string{"chat", "export", id, "--out", file}, 0, "### You\n\n五月的里斯本怎么样？", "Exported to"},
		{"an unknown ID says so", []string{"chat", "export", "0123456789abcdef"}, 1, "", `no conversation with ID "0123456789abcdef"`},
		{"no ID is a usage error", []string{"chat", "export"}, 2, "", "needs a conversation ID"},
		{"two IDs are a usage error", []string{"chat", "export", id, id}, 2, "", "takes one conversation ID"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := gh(t, dir, tc.args...)
			if code != tc.wantCode || !strings.Contains(errOut, tc.wantErr) {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out, errOut)
			}
			if tc.wantOut == "" {
				return
			}
			got := out
			if slices.Contains(tc.args, "--out") {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				got = string(data)
				if info, _ := os.Stat(file); info.Mode().Perm() != 0o600 {
					t.Errorf("the file's mode is %v, want 0600", info.Mode().Perm())
				}
			}
			if !strings.Contains(got, tc.wantOut) || !strings.Contains(got, "- Provider: Stand-in") {
				t.Errorf("the export lacks %q:\n%s", tc.wantOut, got)
			}
		})
	}
}
