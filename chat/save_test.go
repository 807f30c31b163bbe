package chat

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/mcp"
)

// TestRun_SavesEachMessageAsItCompletes: Turn.Save gets each message of the
// turn when it is complete, in order, with what it was when it was saved: an
// answer's calls before any is asked about, a result after its call ran. A
// failed save ends the turn at once. (A scripted stand-in for the model: no
// model can run on these machines; the MCP server is real.)
func TestRun_SavesEachMessageAsItCompletes(t *testing.T) {
	errDisk := errors.New("the disk is full")
	twoCalls := llmtest.Turn{Text: []string{"Twice."}, ToolCalls: []llmtest.ToolCall{
		{ID: "c1", Name: "echo", Arguments: []string{`{"n":1}`}},
		{ID: "c2", Name: "echo", Arguments: []string{`{"n":2}`}},
	}}
	cases := []struct {
		name      string
		turns     []llmtest.Turn
		failOn    int // the save that fails, counted from 1; 0: none
		want      []string
		wantErr   error
		wantCalls int // calls that reached the server
	}{
		{"each message when it completes, the turn's usage on the last",
			[]llmtest.Turn{twoCalls, {Text: []string{"Both ", "came back."}, Usage: &llmtest.Usage{Input: 30, Output: 7}}}, 0,
			[]string{
				"user: Echo twice (asked 0, ran 0)",
				"assistant: Twice. [c1 echo on Toolbox] [c2 echo on Toolbox] (asked 0, ran 0)",
				`tool c1: echo: {"n":1} done (asked 1, ran 1)`,
				`tool c2: echo: {"n":2} done (asked 2, ran 2)`,
				"assistant: Both came back. usage 30/7 (asked 2, ran 2)",
			}, nil, 2},
		{"the answer not saved: its calls are never asked about",
			[]llmtest.Turn{twoCalls}, 2,
			[]string{
				"user: Echo twice (asked 0, ran 0)",
				"assistant: Twice. [c1 echo on Toolbox] [c2 echo on Toolbox] (asked 0, ran 0)",
			}, errDisk, 0},
		{"a result not saved: the next call is not made",
			[]llmtest.Turn{twoCalls}, 3,
			[]string{
				"user: Echo twice (asked 0, ran 0)",
				"assistant: Twice. [c1 echo on Toolbox] [c2 echo on Toolbox] (asked 0, ran 0)",
				`tool c1: echo: {"n":1} done (asked 1, ran 1)`,
			}, errDisk, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, func(*mcp.Question) mcp.Response { return mcp.Response{Action: mcp.ActionAccept, Scope: mcp.ScopeOnce} })
			var saved []string
			turn := Turn{Text: "Echo twice", Save: func(s Saved) error {
				saved = append(saved, describeSaved(s)+fmt.Sprintf(" (asked %d, ran %d)", len(f.person.questions()), len(f.tools.received())))
				if len(saved) == tc.failOn {
					return errDisk
				}
				return nil
			}}
			res, err, _ := f.turnWith(t, llmtest.Script{Turns: tc.turns}, turn, func(Event) {})
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("Run = %v, want %v", err, tc.wantErr)
			}
			if got := strings.Join(saved, "\n"); got != strings.Join(tc.want, "\n") {
				t.Errorf("saved:\n%s\nwant:\n%s", got, strings.Join(tc.want, "\n"))
			}
			if len(res.Messages) != len(tc.want) {
				t.Errorf("the result has %d messages, %d were saved", len(res.Messages), len(tc.want))
			}
			if n := len(f.tools.received()); n != tc.wantCalls {
				t.Errorf("%d calls reached the server, want %d", n, tc.wantCalls)
			}
		})
	}
}

// describeSaved writes a saved message in a line.
func describeSaved(s Saved) string {
	m := s.Message
	line := string(m.Role) + ":"
	if m.Role == "tool" {
		line = fmt.Sprintf("tool %s:", m.ToolCallID)
	}
	if m.Text != "" {
		line += " " + m.Text
	}
	for _, tc := range m.ToolCalls {
		c := s.Calls[tc.ID]
		line += fmt.Sprintf(" [%s %s on %s]", tc.ID, c.Tool, c.ServerName)
	}
	if m.ToolCallID != "" {
		line += " " + s.Calls[m.ToolCallID].State
	}
	if s.Usage != nil {
		line += fmt.Sprintf(" usage %d/%d", s.Usage.InputTokens, s.Usage.OutputTokens)
	}
	return line
}
