package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestCLI_ChatKilledMidTurnKeepsEveryFinishedMessage kills (SIGKILL, as a
// crash or kill -9 does) a real `gatehouse chat` process part way through a
// turn with two tool calls on the real demo server, with a scripted
// stand-in for the model (no model can run on these machines). The data
// file must then hold every message that was complete: the person's, the
// model's tool calls and the results that came back; only the text being
// streamed is lost. The conversation must then go on: the next turn's
// request pairs every tool call with a result (the stand-in refuses one that
// does not, as OpenAI does), a call whose result never came saying it was
// interrupted.
func TestCLI_ChatKilledMidTurnKeepsEveryFinishedMessage(t *testing.T) {
	twoCalls := llmtest.Turn{Text: []string{"I'll echo twice."}, ToolCalls: []llmtest.ToolCall{
		{ID: "c1", Name: "echo", Arguments: []string{`{"message":"一"}`}},
		{ID: "c2", Name: "echo", Arguments: []string{`{"message":"二"}`}},
	}}
	cases := []struct {
		name string
		// turns are the stand-in's answers: the killed turn's, then the
		// next turn's.
		turns []llmtest.Turn
		// interactive answers the approvals on standard input (the first
		// call is allowed, the second is left on screen) instead of from
		// an answers file that allows both.
		interactive bool
		// killWhen says the moment to kill the process has come.
		killWhen func(stand *llmtest.Server, stdout, stderr string) bool
		// want are the stored messages after the kill, as describe writes them.
		want []string
		// wantClosed are the messages the next turn stores before the
		// person's, to close the killed turn.
		wantClosed []string
		// wantSent are substrings of the next turn's request to the model.
		wantSent []string
	}{
		{
			name: "killed while the model streams its final text: only that text is lost",
			turns: []llmtest.Turn{twoCalls,
				{Text: []string{"Both came back: ", "一 and "}, Hold: true},
				{Text: []string{"Carrying on."}}},
			killWhen: func(stand *llmtest.Server, stdout, _ string) bool {
				return len(stand.ChatRequests()) == 2 && strings.Contains(stdout, "一 and ")
			},
			want: []string{
				"user: Echo twice",
				"assistant: I'll echo twice. [c1 echo on Demo server] [c2 echo on Demo server]",
				"tool c1: 一",
				"tool c2: 二",
			},
			wantClosed: []string{"assistant:  error: " + interruptedTurn},
			wantSent:   []string{`{"content":"一","tool_call_id":"c1","role":"tool"},{"content":"二","tool_call_id":"c2","role":"tool"},{"content":"Go on","role":"user"}`},
		},
		{
			name: "killed while the person is asked about the second call: that call is interrupted",
			turns: []llmtest.Turn{twoCalls,
				{Text: []string{"Carrying on."}}},
			interactive: true,
			killWhen: func(_ *llmtest.Server, _, stderr string) bool {
				return strings.Count(stderr, "Allow?") == 2
			},
			want: []string{
				"user: Echo twice",
				"assistant: I'll echo twice. [c1 echo on Demo server] [c2 echo on Demo server]",
				"tool c1: 一",
			},
			wantClosed: []string{"tool c2: " + interruptedCall, "assistant:  error: " + interruptedTurn},
			wantSent: []string{`{"content":"一","tool_call_id":"c1","role":"tool"},` +
				`{"content":"` + interruptedCall + `","tool_call_id":"c2","role":"tool"},{"content":"Go on","role":"user"}`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: tc.turns})
			if code, _, errOut := gh(t, dir, "providers", "add", "Stand-in", "--base-url", stand.URL, "--model", "m"); code != 0 {
				t.Fatalf("providers add: %s", errOut)
			}
			args := []string{"--data-dir", dir, "chat", "Echo", "twice"}
			if !tc.interactive {
				answers := filepath.Join(dir, "answers.json")
				if err := os.WriteFile(answers, []byte(`["allow", "allow"]`), 0o600); err != nil {
					t.Fatal(err)
				}
				args = []string{"--data-dir", dir, "chat", "--answers", answers, "Echo", "twice"}
			}
			p := startMain(t, args...)
			if tc.interactive {
				p.waitFor(t, "the first question", func(_, stderr string) bool { return strings.Contains(stderr, "Allow?") })
				if _, err := io.WriteString(p.stdin, "once\n"); err != nil {
					t.Fatal(err)
				}
			}
			p.waitFor(t, "the moment to kill", func(stdout, stderr string) bool { return tc.killWhen(stand, stdout, stderr) })
			shown, _ := p.output()
			p.kill(t)

			st, err := store.Open(dir, nil)
			if err != nil {
				t.Fatalf("open the data file after the kill: %v", err)
			}
			convs, err := st.Conversations(store.ConversationFilter{})
			if err != nil || len(convs) != 1 {
				st.Close()
				t.Fatalf("conversations after the kill: %d, %v; want 1", len(convs), err)
			}
			conv := convs[0]
			msgs, err := st.Messages(conv.ID)
			st.Close()
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(msgs); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("stored after the kill:\n  %s\nwant:\n  %s\n(the killed process had shown:\n%s)",
					strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "), shown)
			}

			// The next turn, in a Gatehouse started again on the same file.
			core, err := app.OpenCore(app.CoreOptions{DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer core.Close()
			chat := core.Chat()
			if err := chat.Send(conv.ID, "Go on"); err != nil {
				t.Fatal(err)
			}
			chat.Wait()
			page, err := chat.MessagePage(conv.ID, 0, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			after := page.Messages
			want := append(append(append([]string{}, tc.want...), tc.wantClosed...), "user: Go on", "assistant: Carrying on.")
			if got := describe(after); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("stored after the next turn:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			reqs := stand.ChatRequests()
			sent := string(reqs[len(reqs)-1].Body)
			for _, want := range tc.wantSent {
				if !strings.Contains(sent, want) {
					t.Errorf("the next turn's request lacks %s:\n%s", want, sent)
				}
			}
			if strings.Contains(sent, "一 and") {
				t.Errorf("the next turn's request has the text that was streaming when the process died:\n%s", sent)
			}
		})
	}
}

// What the model and the person read of a turn that a kill interrupted.
const (
	interruptedCall = "Interrupted: Gatehouse closed before this call's result was saved; the tool may or may not have run."
	interruptedTurn = "This turn did not finish: Gatehouse closed while it ran. What it had finished is kept above."
)

// describe writes stored messages one a line, for comparing.
func describe(msgs []store.Message) []string {
	if len(msgs) == 0 {
		return []string{"(nothing)"}
	}
	var out []string
	for _, m := range msgs {
		switch m.Role {
		case store.RoleTool:
			var text string
			if m.ToolResult != nil {
				_ = json.Unmarshal(m.ToolResult.Content, &text)
			}
			out = append(out, fmt.Sprintf("tool %s: %s", m.ToolCallID, text))
		case store.RoleAssistant:
			line := "assistant: " + m.Text
			for _, c := range m.ToolCalls {
				server := "no server"
				if c.ServerID != "" {
					server = app.DemoServerName
				}
				line += fmt.Sprintf(" [%s %s on %s]", c.ID, c.Tool, server)
			}
			if m.Error != "" {
				line += " error: " + m.Error
			}
			out = append(out, line)
		default:
			out = append(out, m.Role+": "+m.Text)
		}
	}
	return out
}

// mainProcess is Main running in a child process (this test binary again;
// see TestMain), with its standard streams at hand.
type mainProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan error

	mu             sync.Mutex
	stdout, stderr bytes.Buffer
}

// lockedWriter writes to a buffer under the process's lock.
type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (w lockedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(b)
}

// startMain starts Main with args in a child process with no display; it
// is killed when the test ends, if it still runs.
func startMain(t *testing.T, args ...string) *mainProcess {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &mainProcess{cmd: exec.Command(self, args...), done: make(chan error, 1)}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "DISPLAY", "WAYLAND_DISPLAY", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG":
			continue
		}
		p.cmd.Env = append(p.cmd.Env, kv)
	}
	p.cmd.Env = append(p.cmd.Env, "GATEHOUSE_CLI_MAIN=1")
	p.cmd.Stdout = lockedWriter{&p.mu, &p.stdout}
	p.cmd.Stderr = lockedWriter{&p.mu, &p.stderr}
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
	})
	return p
}

// output returns what the process wrote so far.
func (p *mainProcess) output() (stdout, stderr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stdout.String(), p.stderr.String()
}

// waitFor waits until ready says yes to the output so far; the test fails
// if the process ends first or a minute passes.
func (p *mainProcess) waitFor(t *testing.T, what string, ready func(stdout, stderr string) bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		stdout, stderr := p.output()
		if ready(stdout, stderr) {
			return
		}
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("gatehouse ended (%v) before %s\nstdout:\n%s\nstderr:\n%s", err, what, stdout, stderr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after a minute\nstdout:\n%s\nstderr:\n%s", what, stdout, stderr)
		}
	}
}

// kill sends SIGKILL, as a crash or kill -9 does, and waits for the end.
func (p *mainProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	err := <-p.done
	p.done <- err
	if p.cmd.ProcessState == nil || p.cmd.ProcessState.ExitCode() != -1 {
		t.Fatalf("gatehouse ended by itself (%v) before it was killed", err)
	}
}
