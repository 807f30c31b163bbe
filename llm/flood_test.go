package llm_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/llm"
)

// floodChildEnv makes this test binary a child that asks one provider once
// (see floodChild) instead of running the tests.
const floodChildEnv = "GATEHOUSE_LLM_FLOOD_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(floodChildEnv) != "" {
		os.Exit(floodChild())
	}
	os.Exit(m.Run())
}

// floodChild runs one Stream or Models call on the provider the
// environment names and prints its error in English and in Chinese.
func floodChild() int {
	kind, op, base := llm.Kind(os.Getenv(floodChildEnv)), os.Getenv("FLOOD_OP"), os.Getenv("FLOOD_URL")
	p, err := llm.New(llm.Config{Kind: kind, BaseURL: base, Model: "m"})
	if err != nil {
		fmt.Println("New:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if op == "models" {
		_, err = p.Models(ctx)
	} else {
		for _, e := range p.Stream(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}) {
			if e != nil {
				err = e
			}
		}
	}
	var le *llm.Error
	if errors.As(err, &le) {
		fmt.Println(le.Message.In(i18n.English))
		fmt.Println(le.Message.In(i18n.Chinese))
		return 0
	}
	fmt.Println("not an llm.Error:", err)
	return 1
}

// floodLimitKB is the most memory (peak resident set, in KB) one call may
// cost on a provider that floods it (issue 22, item 2); more under the race
// detector (raceMemory).
const floodLimitKB = raceMemory * 200 << 10

// floodProvider is a model provider that answers a chat request with an
// event stream and a models request with JSON, each a gigabyte that never
// ends a message (from a generator: the test never holds it). head is
// written first, then unit again and again.
func floodProvider(t *testing.T, contentType, head, unit string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusOK)
		if _, err := w.Write([]byte(head)); err != nil {
			return
		}
		chunk := []byte(strings.Repeat(unit, (64<<10)/len(unit)))
		for n := 0; n < 1<<30; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client hung up
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// TestProvider_FloodStaysSmall asks a provider whose answer is a gigabyte
// without an end, in a child process, and measures the child's peak memory
// as the kernel counted it. The call must fail saying why, and the peak
// must stay under 200 MB.
func TestProvider_FloodStaysSmall(t *testing.T) {
	const (
		want   = "sent a message larger than 16 MB"
		wantZh = "发送的消息超过 16 MB"
	)
	for _, kind := range kinds {
		for _, tc := range []struct {
			name, op, contentType, head, unit string
		}{
			{"a stream's data line that never ends", "stream", "text/event-stream", `data: {"x":"`, "a"},
			{"a stream's event whose data lines never end", "stream", "text/event-stream", "", "data: " + strings.Repeat("a", 1000) + "\n"},
			{"a models list that never ends", "models", "application/json", `{"object":"list","data":[`, `{"id":"m","object":"model","type":"model"},`},
		} {
			t.Run(string(kind)+": "+tc.name, func(t *testing.T) {
				url := floodProvider(t, tc.contentType, tc.head, tc.unit)
				out, peakKB := runMeasured(t, floodChildEnv+"="+string(kind), "FLOOD_OP="+tc.op, "FLOOD_URL="+url)
				t.Logf("peak %d MB; said:\n%s", peakKB>>10, out)
				if peakKB >= floodLimitKB {
					t.Errorf("the call reached %d MB of memory, want under %d MB", peakKB>>10, floodLimitKB>>10)
				}
				if !strings.Contains(out, want) || !strings.Contains(out, wantZh) {
					t.Errorf("the call said:\n%s\nwant %q and %q", out, want, wantZh)
				}
			})
		}
	}
}

// TestProvider_EndlessAnswerStaysSmall: a provider whose answer is well
// formed events without end (text, or a tool call's arguments, in pieces
// of 4 KB) makes the call fail saying why once the answer passes
// MaxAnswerSize, with the child's peak memory under 200 MB: before, only
// one event was bounded, and the answer grew as long as the provider sent.
func TestProvider_EndlessAnswerStaysSmall(t *testing.T) {
	const (
		want   = "answer grew larger than 8 MB"
		wantZh = "的回答超过 8 MB"
	)
	piece := strings.Repeat("a", 4000)
	openAIChunk := func(delta string) string {
		return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
	}
	anthropicStart := `event: message_start` + "\n" + `data: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"m","stop_reason":null,"usage":{"input_tokens":1,"output_tokens":0}}}` + "\n\n"
	for _, tc := range []struct {
		name       string
		kind       llm.Kind
		head, unit string
	}{
		{"text", llm.KindOpenAI, "", openAIChunk(`{"content":"` + piece + `"}`)},
		{"a tool call's arguments", llm.KindOpenAI, openAIChunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"echo","arguments":""}}]}`),
			openAIChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"` + piece + `"}}]}`)},
		{"text", llm.KindAnthropic, anthropicStart + "event: content_block_start\n" + `data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n",
			"event: content_block_delta\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + piece + `"}}` + "\n\n"},
		{"a tool call's arguments", llm.KindAnthropic, anthropicStart + "event: content_block_start\n" + `data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"echo","input":{}}}` + "\n\n",
			"event: content_block_delta\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"` + piece + `"}}` + "\n\n"},
	} {
		t.Run(string(tc.kind)+": "+tc.name, func(t *testing.T) {
			url := floodProvider(t, "text/event-stream", tc.head, tc.unit)
			out, peakKB := runMeasured(t, floodChildEnv+"="+string(tc.kind), "FLOOD_OP=stream", "FLOOD_URL="+url)
			t.Logf("peak %d MB; said:\n%s", peakKB>>10, out)
			if peakKB >= floodLimitKB {
				t.Errorf("the call reached %d MB of memory, want under %d MB", peakKB>>10, floodLimitKB>>10)
			}
			if !strings.Contains(out, want) || !strings.Contains(out, wantZh) {
				t.Errorf("the call said:\n%s\nwant %q and %q", out, want, wantZh)
			}
		})
	}
}

// runMeasured runs this test binary again with env added and returns its
// output and its peak resident memory in KB. A child that passes twice
// floodLimitKB is killed at once (the test has failed by then, and the
// machine is shared).
func runMeasured(t *testing.T, env ...string) (out string, peakKB int64) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(90 * time.Second)
	for waiting, killed := true, false; waiting; {
		select {
		case <-done:
			waiting = false
		case <-deadline:
			t.Log("still running after 90 s: killed")
			_ = cmd.Process.Kill()
		case <-tick.C:
			if rss := residentKB(cmd.Process.Pid); rss > 2*floodLimitKB && !killed {
				t.Logf("killed at %d MB resident", rss>>10)
				_ = cmd.Process.Kill()
				killed = true
			}
		}
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peakKB = ru.Maxrss
	}
	return b.String(), peakKB
}

// residentKB is a process's resident memory now (VmRSS), 0 when it cannot
// be read.
func residentKB(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// TestProvider_EndlessModelListEnds: an Anthropic-style models list that
// says it has more, page after page, for ever, is read up to a bound and
// the models read are listed: before, Test in the provider editor paged
// until its time limit and then failed. Names no real model has (over 200
// bytes) are left out.
func TestProvider_EndlessModelListEnds(t *testing.T) {
	var pages atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := pages.Add(1)
		w.Header().Set("Content-Type", "application/json")
		id := fmt.Sprintf("model-%d", n)
		if n%2 == 0 {
			id = strings.Repeat("x", 300) // no model is named so
		}
		fmt.Fprintf(w, `{"data":[{"type":"model","id":%q,"display_name":"M","created_at":"2025-01-01T00:00:00Z"}],"has_more":true,"first_id":"a","last_id":%q}`, id, id)
	}))
	t.Cleanup(srv.Close)
	p, err := llm.New(llm.Config{Kind: llm.KindAnthropic, BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	models, err := p.Models(ctx)
	if err != nil {
		t.Fatalf("the list ended with %v after %d pages", err, pages.Load())
	}
	if len(models) == 0 || len(models) > llm.MaxModels {
		t.Errorf("%d models listed, want some and at most %d", len(models), llm.MaxModels)
	}
	for _, m := range models {
		if len(m.ID) > 200 {
			t.Errorf("a model named with %d bytes is listed", len(m.ID))
		}
	}
}
