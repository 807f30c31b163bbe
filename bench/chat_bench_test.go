package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// P8 measures the chat (issue 11) against llmtest's stand-in for an
// OpenAI-compatible provider: no model can run on the machines Gatehouse is
// benchmarked on, so every model here is the stand-in, on loopback.

// standInModel is the model every P8 provider names.
const standInModel = "stand-in-model"

// BenchmarkP8FirstToken measures the host's added latency to the first
// streamed token. Each of -turns rounds asks the same stand-in three ways,
// in rotating order so that all three see the same machine:
//
//   - host: ChatService.Send, as the window calls it, on a real data file,
//     with a real MCP server connected (the bench server, whose tools make
//     up the turn's catalogue), until the ChatService emits the turn's first
//     text event (JSON-encoded, as Wails sends it to the window);
//   - provider: Gatehouse's llm.Provider alone, kept between turns;
//   - sdk: the openai-go client alone, kept between turns: the floor, what
//     any host calling the SDK directly pays.
//
// Each host turn runs in a conversation of its own holding the same earlier
// exchange, so every request carries the same history; the direct calls
// send that history too (without the tools, which only the host offers).
// The figure is the host's median (and p95) minus the SDK's. Every turn
// streams to its end before the next starts.
func BenchmarkP8FirstToken(b *testing.B) {
	sizes()
	answer := llmtest.Chunks("北京今天晴，最高 12 °C。The forecast says **sunny** all day; 明天多云。", 4)
	s := llmtest.NewOpenAI(b, llmtest.Script{Turns: []llmtest.Turn{{Text: answer, Usage: &llmtest.Usage{Input: 40, Output: 30}}}, Repeat: true})

	g := newCore(b, "")
	servers, err := g.core.Store.Servers()
	if err != nil {
		b.Fatal(err)
	}
	for _, srv := range servers { // the demo server, not connected: not part of this host
		if err := g.core.Store.DeleteServer(srv.ID); err != nil {
			b.Fatal(err)
		}
	}
	srv := stdioServer(b, "Bench tools")
	srv.ID = "" // a new one
	srv, err = g.core.Store.PutServer(srv)
	if err != nil {
		b.Fatal(err)
	}
	g.connect(b, srv)
	prov, err := app.NewProvidersService(g.core).Add(app.ProviderInput{Name: "Stand-in", Kind: string(llm.KindOpenAI), BaseURL: s.URL, Model: standInModel})
	if err != nil {
		b.Fatal(err)
	}
	svc := app.NewChatService(g.core, g.core.ProviderFor)
	watch := &firstText{}
	g.core.SetEmitter(watch)
	b.Cleanup(svc.StopAll)

	earlier := []store.Message{
		{Role: store.RoleUser, Text: "北京今天天气怎么样？"},
		{Role: store.RoleAssistant, Text: "北京今天**晴**，最高 12 °C。", Usage: &store.Usage{Input: 30, Output: 12}},
	}
	question := "那明天呢？"
	turns := *flagTurns
	conversations := make([]string, turns)
	for i := range conversations {
		c, err := g.core.Store.PutConversation(store.Conversation{Title: "Weather", ProviderID: prov.ID})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.core.Store.AppendMessages(c.ID, earlier...); err != nil {
			b.Fatal(err)
		}
		conversations[i] = c.ID
	}
	g.core.Broker.FlushHistory()

	history := []llm.Message{{Role: llm.RoleUser, Text: earlier[0].Text}, {Role: llm.RoleAssistant, Text: earlier[1].Text},
		{Role: llm.RoleUser, Text: question}}
	provider, err := llm.New(llm.Config{Kind: llm.KindOpenAI, BaseURL: s.URL, Model: standInModel})
	if err != nil {
		b.Fatal(err)
	}
	sdk := openai.NewChatCompletionService(option.WithBaseURL(s.URL), option.WithMaxRetries(0))
	sdkParams := openai.ChatCompletionNewParams{Model: standInModel, Messages: []openai.ChatCompletionMessageParamUnion{
		openai.UserMessage(earlier[0].Text), openai.AssistantMessage(earlier[1].Text), openai.UserMessage(question)}}

	ways := []func(i int) time.Duration{
		func(i int) time.Duration { // host
			start := time.Now()
			first, done := watch.expect(conversations[i])
			if err := svc.Send(conversations[i], question); err != nil {
				b.Fatal(err)
			}
			at := <-first
			if ev := <-done; ev.Kind != app.ChatDone {
				b.Fatalf("the host's turn failed: %s", ev.Error)
			}
			return at.Sub(start)
		},
		func(int) time.Duration { // provider
			start := time.Now()
			var took time.Duration
			for ev, err := range provider.Stream(context.Background(), llm.Request{Messages: history}) {
				if err != nil {
					b.Fatal(err)
				}
				if ev.Type == llm.EventText && took == 0 {
					took = time.Since(start)
				}
			}
			return took
		},
		func(int) time.Duration { // sdk
			start := time.Now()
			var took time.Duration
			stream := sdk.NewStreaming(context.Background(), sdkParams)
			for stream.Next() {
				if c := stream.Current(); took == 0 && len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
					took = time.Since(start)
				}
			}
			if err := stream.Err(); err != nil {
				b.Fatal(err)
			}
			stream.Close()
			return took
		},
	}
	took := make([][]int64, len(ways))
	// One round of each, not counted: connections and caches warm up.
	for w := range ways {
		ways[w](0)
	}
	for i := range turns {
		for k := range ways {
			w := (i + k) % len(ways)
			d := ways[w](i)
			if d <= 0 {
				b.Fatalf("way %d: no text arrived", w)
			}
			took[w] = append(took[w], d.Nanoseconds())
		}
	}
	// The host's requests offered the connected server's tools: the
	// catalogue step was part of every host turn.
	withTools := 0
	for _, r := range s.ChatRequests() {
		var body struct {
			Tools []json.RawMessage `json:"tools"`
		}
		r.Decode(b, &body)
		if len(body.Tools) == 4 { // bench/server's tools
			withTools++
		}
	}
	if withTools != turns+1 {
		b.Fatalf("%d requests offered the bench server's 4 tools, want one per host turn (%d)", withTools, turns+1)
	}
	host, prov2, sdkNS := took[0], took[1], took[2]
	// Every connection to the stand-in from this process, open or closed
	// within the last minute (TIME_WAIT): the provider and the SDK keep one
	// each; the rest are the host's, for its turns+1 turns.
	b.ReportMetric(float64(connectionsTo(b, s.URL)-2), "host-connections")
	b.ReportMetric(float64(turns), "turns")
	b.ReportMetric(us(median(host)), "host-median-µs")
	b.ReportMetric(us(quantile(host, 0.95)), "host-p95-µs")
	b.ReportMetric(us(median(prov2)), "provider-median-µs")
	b.ReportMetric(us(quantile(prov2, 0.95)), "provider-p95-µs")
	b.ReportMetric(us(median(sdkNS)), "sdk-median-µs")
	b.ReportMetric(us(quantile(sdkNS, 0.95)), "sdk-p95-µs")
	b.ReportMetric(us(median(host)-median(sdkNS)), "added-median-µs")
	b.ReportMetric(us(quantile(host, 0.95)-quantile(sdkNS, 0.95)), "added-p95-µs")
}

// connectionsTo counts the TCP connections to baseURL's port that
// /proc/net/tcp lists (open, or closed in the last minute), from the
// client's side. The kernel may skip a socket when others open and close
// while the table is read, so it is read a few times and the most taken.
func connectionsTo(b *testing.B, baseURL string) int {
	u, err := url.Parse(baseURL)
	if err != nil {
		b.Fatal(err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		b.Fatal(err)
	}
	most := 0
	for range 5 {
		table, err := os.ReadFile("/proc/net/tcp")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, line := range strings.Split(string(table), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 4 {
				continue
			}
			_, remote, _ := strings.Cut(f[2], ":")
			if p, err := strconv.ParseInt(remote, 16, 32); err == nil && int(p) == port {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// firstText stands where the window does for P8a: it receives the core's
// events as Wails would send them (JSON), and tells the waiting turn when
// its first text arrived and how it ended.
type firstText struct {
	mu      sync.Mutex
	conv    string
	first   chan time.Time
	done    chan app.ChatEvent
	gotText bool
}

// expect arms the watcher for one turn in conversation conv.
func (f *firstText) expect(conv string) (first <-chan time.Time, done <-chan app.ChatEvent) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.conv, f.gotText = conv, false
	f.first, f.done = make(chan time.Time, 1), make(chan app.ChatEvent, 1)
	return f.first, f.done
}

func (f *firstText) Emit(name string, data any) {
	if name != app.EventChat {
		return
	}
	raw, err := json.Marshal(data) // what Wails sends to the webview
	if err != nil {
		panic(err)
	}
	at := time.Now()
	var ev app.ChatEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		panic(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if ev.ConversationID != f.conv {
		return
	}
	switch ev.Kind {
	case chat.EventText:
		if !f.gotText {
			f.gotText = true
			f.first <- at
		}
	case app.ChatDone, app.ChatFailed:
		if !f.gotText {
			f.first <- at // a failure: the waiting side reads done next
		}
		f.done <- ev
	}
}

// The window's chat, as drawn on the screen (window coordinates; see
// origin). Positions were read off screenshots of the 1100×760 window.
var (
	chatNav          = image.Pt(60, 74)   // the sidebar's "Chat"
	firstListedConv  = image.Pt(221, 111) // the first conversation in the list
	secondListedConv = image.Pt(221, 148) // the second
	composer         = image.Pt(750, 660) // the message box, a conversation chosen
	pointerRest      = image.Pt(60, 600)  // the sidebar below its sections
	// transcriptColumn is a strip down the left padding of the model's
	// messages: a code block's fill shows there, prose never does.
	transcriptColumn = image.Rect(452, 90, 462, 640)
	// transcriptArea is the messages' column, for whether anything is drawn.
	transcriptArea = image.Rect(435, 90, 1075, 630)
	// transcriptStrip is a band across the transcript, captured while it scrolls; transcriptPointer is where the wheel turns.
	transcriptStrip   = image.Rect(435, 300, 1075, 360)
	transcriptPointer = image.Pt(755, 400)
)

// codeBackground is --code-bg (frontend/src/app.css), a code block's fill.
var codeBackground = [3]uint8{0xf3, 0xf4, 0xf6}

// lowestCode returns the window row where the lowest code block on screen
// ends (its fill's last row in transcriptColumn), or false when no code
// block shows. A row is fill when most of its pixels are exactly the code
// background: prose never is (white, and anti-aliased text mixes a grey
// that is not this blue-grey). The lowest block is the newest one: while
// the transcript follows the stream it sits at the bottom, wherever the
// layout puts the bottom.
func (d *desktop) lowestCode(b *testing.B) (int, bool) {
	r := transcriptColumn.Add(d.origin())
	img, err := d.x.Grab(r)
	if err != nil {
		b.Fatal(err)
	}
	for y := r.Dy() - 1; y >= 0; y-- {
		match := 0
		for x := range r.Dx() {
			if isCodeBackground(img, x, y) {
				match++
			}
		}
		if match*2 > r.Dx() {
			return transcriptColumn.Min.Y + y, true
		}
	}
	return 0, false
}

func isCodeBackground(img *image.RGBA, x, y int) bool {
	i := img.PixOffset(x, y)
	return img.Pix[i] == codeBackground[0] && img.Pix[i+1] == codeBackground[1] && img.Pix[i+2] == codeBackground[2]
}

// click clicks the window at p (window coordinates), then moves the
// pointer to an empty part of the sidebar, so that no tooltip opens and
// the window keeps the keyboard (there is no window manager on Xvfb).
func (d *desktop) click(b *testing.B, p image.Point) {
	b.Helper()
	p, rest := p.Add(d.origin()), pointerRest.Add(d.origin())
	d.xdotool(b, "mousemove", "--sync", strconv.Itoa(p.X), strconv.Itoa(p.Y), "click", "1",
		"mousemove", strconv.Itoa(rest.X), strconv.Itoa(rest.Y))
}

// xdotool runs xdotool on the desktop: real pointer and key events (XTEST),
// as a person's would be.
func (d *desktop) xdotool(b *testing.B, args ...string) {
	b.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = d.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("xdotool %v: %v\n%s", args, err, out)
	}
}

// waitStill waits until r (window coordinates) has stopped changing for
// quiet, and returns how long after start it last changed.
func (d *desktop) waitStill(b *testing.B, r image.Rectangle, start time.Time, quiet, timeout time.Duration) time.Duration {
	b.Helper()
	r = r.Add(d.origin())
	var last []byte
	changed := time.Since(start)
	for time.Since(start) < timeout {
		img, err := d.x.Grab(r)
		if err != nil {
			b.Fatal(err)
		}
		if string(img.Pix) != string(last) {
			last = img.Pix
			changed = time.Since(start)
		} else if time.Since(start)-changed >= quiet {
			return changed
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatalf("the window kept changing for %s", timeout)
	return 0
}

// emptyDataDir is a new data directory with no server (not even the demo),
// its core open for the caller to seed and close.
func emptyDataDir(b *testing.B) (string, *app.Core) {
	b.Helper()
	dir := b.TempDir()
	core, err := app.OpenCore(app.CoreOptions{DataDir: dir, DemoCommand: "true"})
	if err != nil {
		b.Fatal(err)
	}
	servers, err := core.Store.Servers()
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range servers {
		if err := core.Store.DeleteServer(s.ID); err != nil {
			b.Fatal(err)
		}
	}
	return dir, core
}

// chatData seeds a data directory for the window's chat benchmarks: the
// stand-in at providerURL as the only (so the default) model provider, a
// disabled server for the seeded tool calls to name, no running server, and
// the conversations given (the last one given is listed first).
func chatData(b *testing.B, providerURL string, convs ...seededConversation) string {
	b.Helper()
	dir, core := emptyDataDir(b)
	defer core.Close()
	docs, err := core.Store.PutServer(store.Server{Name: "Docs", Transport: store.TransportStdio, Stdio: &store.StdioConfig{Command: "true"}})
	if err != nil {
		b.Fatal(err)
	}
	p, err := app.NewProvidersService(core).Add(app.ProviderInput{Name: "Stand-in", Kind: string(llm.KindOpenAI), BaseURL: providerURL, Model: standInModel})
	if err != nil {
		b.Fatal(err)
	}
	for _, sc := range convs {
		c, err := core.Store.PutConversation(store.Conversation{Title: sc.title, ProviderID: p.ID})
		if err != nil {
			b.Fatal(err)
		}
		msgs := sc.messages(docs.ID)
		for len(msgs) > 0 { // in transactions of 100, as turns would add them
			n := min(100, len(msgs))
			if _, err := core.Store.AppendMessages(c.ID, msgs[:n]...); err != nil {
				b.Fatal(err)
			}
			msgs = msgs[n:]
		}
	}
	return dir
}

// seededConversation is a conversation chatData stores: its title and its
// messages, given the ID of the server their tool calls name.
type seededConversation struct {
	title    string
	messages func(serverID string) []store.Message
}

// openChat shows the Chat pane and opens the listed conversation at row.
func (d *desktop) openChat(b *testing.B, row image.Point) {
	b.Helper()
	d.click(b, chatNav)
	time.Sleep(300 * time.Millisecond) // the pane and its list are read
	d.click(b, row)
}

// BenchmarkP8StreamRender measures whether the window keeps up with a fast
// stream. The production window shows a conversation (an earlier answer
// fills the view); a person types a message and presses Enter (xdotool);
// the stand-in answers with -chunkrate chunks a second for -streamsecs
// seconds, one text delta per SSE event on a fixed schedule (llmtest's
// Turn.Interval). The answer comes in segments of a quarter of a second:
// segment k opens a code block whose lines are indented by 2k spaces, then
// closes it and goes on in prose (English and Chinese, emphasis,
// paragraphs); the answer's last chunk opens a last code block. The floor,
// in the same window before it: the same answer at a model's pace,
// floorChunkRate chunks a second, in another conversation.
//
// How the lag is read: from the screen, not from the page (the production
// binary has no test hooks). While the transcript follows the stream, the
// bottom of the model's message stays in one place on the screen. The
// benchmark captures a strip there over the X11 protocol every ~2 ms
// (bench/internal/xgrab): when it shows a code block's fill, the left edge
// of the text on the block's last line says which segment's block it is.
// The lag of segment k is the time from the stand-in flushing its first
// chunk (Turn.Sent) to the first capture showing its block; the final lag is
// that of the last chunk. A window that keeps up has a lag that stays
// small; one that falls behind shows a lag that grows from segment to
// segment. A segment's code block is at the bottom for an eighth of a
// second only, so a slow frame can hide it: it is counted as unseen.
func BenchmarkP8StreamRender(b *testing.B) {
	sizes()
	bin := gatehouseBin(b)
	requireTools(b, "xdotool")
	floor := newStreamRun(floorChunkRate, *flagStreamSecs)
	fast := newStreamRun(*flagStreamRate, *flagStreamSecs)
	s := llmtest.NewOpenAI(b, llmtest.Script{Turns: []llmtest.Turn{floor.turn(), fast.turn()}})
	filled := func(string) []store.Message {
		return []store.Message{{Role: store.RoleUser, Text: "Write something long."},
			{Role: store.RoleAssistant, Text: proseFill(3000) + "```\n" + codeLine(0) + "\n" + codeLine(0) + "\n```"}}
	}
	data := chatData(b, s.URL, seededConversation{title: "At a model's pace", messages: filled},
		seededConversation{title: "Fast", messages: filled})

	d := newDesktop(b)
	win := d.startApp(b, bin, data)
	d.watchPainted(b, win)
	d.openChat(b, secondListedConv)
	slow := d.watchStream(b, win, floor)
	d.click(b, secondListedConv) // the conversation just answered is now listed first
	res := d.watchStream(b, win, fast)

	for _, run := range []struct {
		r   *streamRun
		res streamResult
	}{{floor, slow}, {fast, res}} {
		b.Logf("at %d chunks/s, lag of each segment shown (ms): %v; %d of %d never shown; the answer off the screen for %s at its end; CPU time: %v",
			run.r.rate, msList(run.res.lags), run.res.skipped, run.r.marks, run.res.vanished.Round(time.Millisecond), run.res.cpu)
	}
	b.ReportMetric(float64(len(fast.chunks)), "chunks")
	b.ReportMetric(res.rate, "chunks/s")
	b.ReportMetric(float64(fast.marks), "segments")
	b.ReportMetric(float64(res.skipped), "segments-skipped")
	b.ReportMetric(median(res.lags)/1e6, "lag-median-ms")
	b.ReportMetric(float64(slices.Max(res.lags))/1e6, "lag-max-ms")
	b.ReportMetric(res.final.Seconds()*1000, "final-lag-ms")
	b.ReportMetric(res.growth.Seconds()*1000, "lag-growth-ms")
	b.ReportMetric(res.vanished.Seconds()*1000, "answer-vanished-ms")
	b.ReportMetric(res.cpu["WebKitWebProcess"].Seconds(), "webview-cpu-s")
	b.ReportMetric(res.cpu["app"].Seconds(), "app-cpu-s")
	b.ReportMetric(slow.rate, "floor-chunks/s")
	b.ReportMetric(median(slow.lags)/1e6, "floor-lag-median-ms")
	b.ReportMetric(float64(slices.Max(slow.lags))/1e6, "floor-lag-max-ms")
	b.ReportMetric(slow.final.Seconds()*1000, "floor-final-lag-ms")
}

// floorChunkRate is P8b's floor: a model's own pace, a few tens of tokens a
// second.
const floorChunkRate = 50

// streamRun is one answer P8b streams: its chunks and when each left.
type streamRun struct {
	rate, seg, marks int
	chunks           []string

	mu   sync.Mutex
	sent []time.Time
}

func newStreamRun(rate int, secs float64) *streamRun {
	r := &streamRun{rate: rate, seg: max(rate/4, 4), marks: max(int(secs*4), 1)}
	r.chunks = streamChunks(r.marks, r.seg)
	r.sent = make([]time.Time, len(r.chunks))
	return r
}

// turn is the stand-in's turn that streams the answer at its rate.
func (r *streamRun) turn() llmtest.Turn {
	return llmtest.Turn{Text: r.chunks, Usage: &llmtest.Usage{Input: 900, Output: len(r.chunks)},
		Interval: time.Second / time.Duration(r.rate),
		Sent: func(i int, at time.Time) {
			r.mu.Lock()
			r.sent[i] = at
			r.mu.Unlock()
		}}
}

// streamResult is what the screen showed of one answer.
type streamResult struct {
	rate    float64       // chunks a second the stand-in achieved
	lags    []int64       // of the segments shown, in order
	skipped int           // segments never shown
	final   time.Duration // the last chunk's lag
	growth  time.Duration // the last third's median lag less the first third's
	// vanished is how long the answer was off the screen after it had
	// begun to show (the earlier answer's end showing in its place).
	vanished time.Duration
	cpu      map[string]time.Duration // CPU time while it streamed and was shown
}

// watchStream waits until the conversation on screen is drawn and still,
// sends a message as a person does, and watches the probe until the
// answer's last segment is shown.
func (d *desktop) watchStream(b *testing.B, win *exec.Cmd, r *streamRun) streamResult {
	b.Helper()
	// The earlier answer ends in a code block indented by nothing: the
	// probe must read segment 0 there once the conversation is drawn, which
	// on a loaded machine can come after a still moment of more than half a
	// second (the click's conversation still being read).
	for start := time.Now(); ; {
		d.waitStill(b, transcriptArea, time.Now(), 500*time.Millisecond, 30*time.Second)
		k, ok := d.codeSegment(b)
		if ok && k == 0 {
			break
		}
		if time.Since(start) > 30*time.Second {
			d.screenshot(b, "bench-p8-stream-probe.png")
			b.Fatalf("the probe reads code %v, segment %d at the end of the earlier answer, not segment 0 (see test-output/bench-p8-stream-probe.png)", ok, k)
		}
	}
	d.click(b, composer)
	d.xdotool(b, "type", "--delay", "0", "Stream")
	var res streamResult
	cpu0 := treeCPU(win.Process.Pid)
	d.xdotool(b, "key", "Return")

	// Watch until the last segment is shown, and a second more: when the
	// turn ends, the window reads the stored answer again.
	shown := make([]time.Time, r.marks+1) // by segment
	latest := 0
	var gone time.Time // since when the answer is not on screen
	var finalAt time.Time
	deadline := time.Now().Add(time.Duration(*flagStreamSecs*float64(time.Second)) + 60*time.Second)
	for time.Now().Before(deadline) && (finalAt.IsZero() || time.Since(finalAt) < time.Second) {
		k, ok := d.codeSegment(b)
		now := time.Now()
		switch {
		case latest > 0 && ok && k == 0:
			// The earlier answer's end again: the streamed answer has
			// left the screen.
			if gone.IsZero() {
				gone = now
				if os.Getenv("GATEHOUSE_BENCH_DEBUG") != "" {
					d.screenshot(b, fmt.Sprintf("bench-p8-gone-%d-%d.png", r.rate, latest))
				}
			}
		case !gone.IsZero() && ok && k > 0:
			res.vanished += now.Sub(gone)
			gone = time.Time{}
		}
		switch {
		case !ok || k <= latest:
		case k > r.marks:
			d.screenshot(b, "bench-p8-stream-probe.png")
			b.Fatalf("the probe reads segment %d of %d (see test-output/bench-p8-stream-probe.png)", k, r.marks)
		default:
			shown[k], latest = now, k
			if k == r.marks {
				finalAt = now
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	if !gone.IsZero() {
		res.vanished += time.Since(gone)
	}
	res.cpu = treeCPU(win.Process.Pid)
	for name, t := range res.cpu {
		res.cpu[name] = t - cpu0[name]
	}
	d.screenshot(b, fmt.Sprintf("bench-p8-stream-%d.png", r.rate))
	r.mu.Lock()
	defer r.mu.Unlock()
	last := r.sent[len(r.sent)-1]
	if last.IsZero() {
		b.Fatalf("the stand-in did not send the whole answer (the window showed segment %d of %d)", latest, r.marks)
	}
	if latest < r.marks {
		b.Fatalf("at %d chunks/s, the window showed segment %d of %d %s after the last chunk (see test-output/bench-p8-stream-%d.png)",
			r.rate, latest, r.marks, time.Since(last).Round(time.Millisecond), r.rate)
	}
	// The answer is stored when the turn ends; the next one starts after.
	d.waitStill(b, transcriptArea, time.Now(), 500*time.Millisecond, 60*time.Second)
	res.rate = float64(len(r.sent)-1) / last.Sub(r.sent[0]).Seconds()
	for k := 1; k <= r.marks; k++ {
		if shown[k].IsZero() {
			res.skipped++
			continue
		}
		res.lags = append(res.lags, shown[k].Sub(r.sent[k*r.seg]).Nanoseconds())
	}
	third := max(len(res.lags)/3, 1)
	res.final = time.Duration(res.lags[len(res.lags)-1])
	res.growth = time.Duration(median(res.lags[len(res.lags)-third:]) - median(res.lags[:third]))
	return res
}

// Where P8b reads which segment's code block ends the transcript (window
// coordinates; read off screenshots of the 1100×760 window). A code line's
// text starts at codeTextLeft when not indented; each segment indents it by
// two more characters of codeCharWidth.
// The text of a code block's last line: left of it the block's padding, and
// its glyphs start codeTextLeft + 2k·codeCharWidth for segment k. The line
// ends codeLastLineAbove rows or fewer above the block's fill ends.
const (
	codeTextLeft       = 461.0
	codeCharWidth      = 7.0
	codeLastLineAbove  = 30
	codeLastLineStartX = 456
	codeLastLineEndX   = 800
)

// codeSegment reads the lowest code block on screen: whether there is one
// and, if so, the segment whose block it is (its last line's indentation).
func (d *desktop) codeSegment(b *testing.B) (int, bool) {
	bottom, ok := d.lowestCode(b)
	if !ok {
		return 0, false
	}
	lastLine := image.Rect(codeLastLineStartX, bottom-codeLastLineAbove, codeLastLineEndX, bottom+1)
	r := lastLine.Add(d.origin())
	img, err := d.x.Grab(r)
	if err != nil {
		b.Fatal(err)
	}
	for x := range r.Dx() {
		for y := range r.Dy() {
			// Text on a row that starts in the block's fill is code; a row
			// of prose under the block may be in the strip too.
			if luma(img, x, y) < 0.5 && isCodeBackground(img, 0, y) {
				left := float64(lastLine.Min.X + x)
				return int(math.Round((left - codeTextLeft) / (2 * codeCharWidth))), true
			}
		}
	}
	return 0, false // a block with no text on its last line yet
}

// streamChunks is the answer P8b streams: segments of seg chunks. Segment 0
// is prose; segment k > 0 starts a code block indented by 2k spaces, its
// first chunk carrying the fence and its first line's start, and goes on in
// prose halfway. The answer's last chunk starts code block number marks,
// three lines long.
func streamChunks(marks, seg int) []string {
	prose := []string{"The", " window", " keeps", " up", " with", " a", " **fast**", " stream", ";", " 模型", "正在", "回答",
		"，", "窗口", "跟上", "了", "。", " *Markdown*", " and", " 中文", " mixed", " in", " one", " answer", "."}
	line := []string{"", " :=", " render", "(w", ",", " \"窗口\"", ",", " 42", ")"}
	chunks := make([]string, 0, marks*seg+1)
	for i := range marks * seg {
		k, at := i/seg, i%seg
		switch {
		case k > 0 && at == 0:
			chunks = append(chunks, "\n\n```\n"+codeStart(k))
		case k > 0 && at < seg/2:
			if t := line[at%len(line)]; t != "" {
				chunks = append(chunks, t)
			} else {
				chunks = append(chunks, "\n"+codeStart(k))
			}
		case k > 0 && at == seg/2:
			chunks = append(chunks, "\n```\n\n"+prose[0])
		default:
			t := prose[at%len(prose)]
			if at%50 == 49 {
				t += "\n\n" // a paragraph of about 300 characters
			}
			chunks = append(chunks, t)
		}
	}
	return append(chunks, "\n\n```\n"+codeLine(marks)+" // the last chunk\n"+codeLine(marks)+" // 最后一块\n"+codeLine(marks))
}

// codeStart is the start of a code line of segment k: its indentation and
// the character whose left edge the probe finds.
func codeStart(k int) string { return strings.Repeat(" ", 2*k) + "x" }

// codeLine is a whole code line of segment k.
func codeLine(k int) string { return codeStart(k) + " := render(w, 42)" }

// proseFill is about n characters of prose Markdown: paragraphs of English
// and Chinese.
func proseFill(n int) string {
	var s strings.Builder
	for s.Len() < n {
		s.WriteString("An earlier answer fills the view, as a conversation would. 这是之前的回答，填满了窗口。 It has **bold** and *emphasis*.\n\n")
	}
	return s.String()
}
