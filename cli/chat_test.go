package cli

import (
	"os"
	"path/filepath"
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
