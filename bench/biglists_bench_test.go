package bench

import (
	"encoding/json"
	"fmt"
	"image"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/store"
)

// The Tools and History panes, as drawn on the screen (window coordinates;
// see origin). Positions were read off screenshots of the 1100×760 window.
var (
	toolsNav   = image.Pt(60, 142) // the sidebar's "Tools"
	historyNav = image.Pt(60, 178) // the sidebar's "History"
	// paneArea is everything right of the sidebar: a pane is drawn when it
	// stops changing.
	paneArea = image.Rect(180, 0, 1100, 760)
	// toolListStrip is a band across the Tools pane's list, below its
	// filter; scrollPointer is where the wheel turns over the list.
	toolListStrip     = image.Rect(200, 330, 470, 450)
	firstToolProbe    = image.Rect(200, 190, 470, 215)
	toolListPointer   = image.Pt(330, 500)
	historyStrip      = image.Rect(200, 330, 1080, 400)
	historyPointer    = image.Pt(640, 500)
	wheelClicks       = 100
	wheelClickSpacing = 20 * time.Millisecond
)

// BenchmarkP9BigLists measures the window with big lists: a server that
// lists -listtools tools (bench/server -tools) and a data file holding
// -listhistory history entries. The production window, on Xvfb, in a fresh
// start: a click on "Tools" in the sidebar opens the Tools pane, then one
// on "History" the History pane (real clicks, xdotool). A pane's render
// time is from the click to the last
// change of the pane on the screen (read over X11 as P4 does, no marker in
// the page; the pane must then stay still for 700 ms). Scrolling: the mouse
// wheel turns 100 times, once every 20 ms, over the tool list and then over
// the history; a band of each is captured every ~2 ms and the gaps between
// the captures that changed are the frame times a person sees. Their floor:
// the same scrolling over the floor's history (100 rows, the same page). Memory: RSS and PSS of the app and its WebKit processes after
// both panes were shown and scrolled. The floor, in the same run: the same
// steps on 8 tools (the bench server's own 4 and 4 of the big list's kind,
// with a title, a name in monospace and a description, so that both draw
// the same fonts) and 100 history entries (one
// page: the History pane draws 100 rows either way, so its ratio is the
// store's share and the page's).
func BenchmarkP9BigLists(b *testing.B) {
	sizes()
	bin := gatehouseBin(b)
	requireTools(b, "xdotool")
	d := newDesktop(b)
	big := d.bigListsRun(b, bin, "big", *flagListTools, *flagListHist)
	small := d.bigListsRun(b, bin, "small", 4, min(100, *flagListHist))

	b.ReportMetric(float64(*flagListTools), "tools")
	b.ReportMetric(float64(*flagListHist), "history-entries")
	for _, r := range []struct {
		name string
		run  bigListsResult
	}{{"big", big}, {"floor", small}} {
		b.ReportMetric(ms(r.run.toolsDrawn), r.name+"-tools-drawn-ms")
		b.ReportMetric(ms(r.run.toolsListed), r.name+"-first-tool-ms")
		b.ReportMetric(ms(r.run.historyDrawn), r.name+"-history-drawn-ms")
		b.ReportMetric(mb(r.run.rss), r.name+"-rss-MB")
		b.ReportMetric(mb(r.run.pss), r.name+"-pss-MB")
	}
	b.ReportMetric(float64(big.toolsDrawn)/float64(small.toolsDrawn), "tools-drawn-ratio")
	b.ReportMetric(float64(big.historyDrawn)/float64(small.historyDrawn), "history-drawn-ratio")
	b.ReportMetric(float64(big.pss)/float64(small.pss), "pss-ratio")
	for _, s := range []struct {
		name string
		gaps []int64
	}{{"tools", big.toolScroll}, {"history", big.historyScroll}, {"floor-history", small.historyScroll}} {
		b.ReportMetric(float64(len(s.gaps)+1), s.name+"-scroll-frames")
		b.ReportMetric(median(s.gaps)/1e6, s.name+"-scroll-gap-median-ms")
		b.ReportMetric(quantile(s.gaps, 0.95)/1e6, s.name+"-scroll-gap-p95-ms")
		b.ReportMetric(quantile(s.gaps, 1)/1e6, s.name+"-scroll-gap-max-ms")
	}
	b.ReportMetric(ms(wheelClickSpacing), "scroll-input-every-ms")
	b.Logf("tool list scroll gaps (ms): %v", msList(big.toolScroll))
	b.Logf("history scroll gaps (ms): %v", msList(big.historyScroll))
	b.Logf("floor: history scroll gaps (ms): %v", msList(small.historyScroll))
	b.Logf("big: %s", describe(big.procs))
	b.Logf("floor: %s", describe(small.procs))
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

type bigListsResult struct {
	toolsDrawn, historyDrawn  time.Duration
	toolsListed               time.Duration // the first tool drawn
	toolScroll, historyScroll []int64       // gaps between changed captures, ns
	rss, pss                  int64         // kB, app + WebKit
	procs                     []proc
}

// bigListsRun seeds a data file with the bench server listing extra more
// tools and with history entries, starts the window on it and measures.
func (d *desktop) bigListsRun(b *testing.B, bin, name string, extra, history int) bigListsResult {
	b.Helper()
	data := bigListsData(b, extra, history)
	win := d.startApp(b, bin, data)
	defer stopGroup(win)
	d.watchPainted(b, win)
	// The server connects and its card settles.
	d.waitStill(b, paneArea, time.Now(), 700*time.Millisecond, 60*time.Second)
	var r bigListsResult
	start := time.Now()
	d.click(b, toolsNav)
	// The list is loaded (the first tool's title drawn where "Loading
	// tools…" was not), then drawn to its end.
	for d.darkPixelsIn(b, firstToolProbe) < 100 {
		if time.Since(start) > 120*time.Second {
			d.screenshot(b, "bench-p9-tools-"+name+".png")
			b.Fatalf("the tool list was not drawn within 120 s (see test-output/bench-p9-tools-%s.png)", name)
		}
		time.Sleep(2 * time.Millisecond)
	}
	r.toolsListed = time.Since(start)
	r.toolsDrawn = d.waitStill(b, paneArea, start, 700*time.Millisecond, 120*time.Second)
	d.screenshot(b, "bench-p9-tools-"+name+".png")
	if extra > 4 {
		r.toolScroll = d.scrollFrames(b, toolListStrip, toolListPointer)
	}
	start = time.Now()
	d.click(b, historyNav)
	r.historyDrawn = d.waitStill(b, paneArea, start, 700*time.Millisecond, 120*time.Second)
	d.screenshot(b, "bench-p9-history-"+name+".png")
	r.historyScroll = d.scrollFrames(b, historyStrip, historyPointer) // 100 rows either way
	time.Sleep(settleTime())
	var rs, ps []int64
	for range 3 {
		var rss, pss int64
		r.procs = nil
		for _, p := range tree(win.Process.Pid) {
			if p.pid == win.Process.Pid || strings.HasPrefix(p.exe, "WebKit") {
				rss += rssKB(p.pid)
				p.pss = pssKB(p.pid)
				pss += p.pss
				r.procs = append(r.procs, p)
			}
		}
		rs, ps = append(rs, rss), append(ps, pss)
		time.Sleep(settleTime() / 6)
	}
	r.rss, r.pss = int64(median(rs)), int64(median(ps))
	return r
}

// scrollFrames turns the mouse wheel down over at (window coordinates)
// wheelClicks times, wheelClickSpacing apart, while capturing strip every
// ~2 ms, and returns the gaps between the captures that changed.
func (d *desktop) scrollFrames(b *testing.B, strip image.Rectangle, at image.Point) []int64 {
	b.Helper()
	return d.scrollFramesWheel(b, strip, at, wheelDown)
}

// The X buttons of the mouse wheel.
const (
	wheelUp   = "4"
	wheelDown = "5"
)

// scrollFramesWheel is scrollFrames turning the wheel button given (wheelUp or wheelDown).
func (d *desktop) scrollFramesWheel(b *testing.B, strip image.Rectangle, at image.Point, button string) []int64 {
	b.Helper()
	p := at.Add(d.origin())
	d.xdotool(b, "mousemove", "--sync", strconv.Itoa(p.X), strconv.Itoa(p.Y))
	time.Sleep(200 * time.Millisecond) // a hover highlight settles
	clicks := wheelClicks
	if *flagQuick {
		clicks = 20
	}
	wheel := exec.Command("xdotool", "click", "--repeat", strconv.Itoa(clicks),
		"--delay", strconv.Itoa(int(wheelClickSpacing.Milliseconds())), button)
	wheel.Env = d.env()
	r := strip.Add(d.origin())
	var last []byte
	var changes []time.Time
	if err := wheel.Start(); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- wheel.Wait() }()
	var quietUntil time.Time
	for {
		img, err := d.x.Grab(r)
		if err != nil {
			b.Fatal(err)
		}
		now := time.Now()
		if last != nil && string(img.Pix) != string(last) {
			changes = append(changes, now)
		}
		last = img.Pix
		select {
		case err := <-done:
			if err != nil {
				b.Fatalf("xdotool click: %v", err)
			}
			quietUntil = now.Add(300 * time.Millisecond) // the last wheel turn is drawn
			done = nil
		default:
		}
		if !quietUntil.IsZero() && now.After(quietUntil) {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	if len(changes) < 2 {
		d.screenshot(b, "bench-p9-scroll.png")
		b.Fatalf("the list did not scroll (%d changes; see test-output/bench-p9-scroll.png)", len(changes))
	}
	gaps := make([]int64, 0, len(changes)-1)
	for i := 1; i < len(changes); i++ {
		gaps = append(gaps, changes[i].Sub(changes[i-1]).Nanoseconds())
	}
	return gaps
}

// bigListsData is a data directory with one server, the bench server
// listing extra more tools, and history entries of that server.
func bigListsData(b *testing.B, extra, history int) string {
	b.Helper()
	dir, core := emptyDataDir(b)
	defer core.Close()
	srv, err := core.Store.PutServer(store.Server{Name: "Archive", Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: benchServer(b), Args: []string{"-tools", strconv.Itoa(extra)}}})
	if err != nil {
		b.Fatal(err)
	}
	outcomes := []string{store.OutcomeAccepted, store.OutcomeAccepted, store.OutcomeDeclined, store.OutcomeCancelled, store.OutcomeOK}
	start := time.Now().Add(-time.Duration(history) * time.Minute)
	var batch []store.HistoryEntry
	for i := range history {
		e := store.HistoryEntry{Time: start.Add(time.Duration(i) * time.Minute), ServerID: srv.ID, ServerName: srv.Name,
			Outcome: outcomes[i%len(outcomes)], AnswerMs: int64(800 + i%5000)}
		if e.Outcome == store.OutcomeOK {
			e.Mode, e.Tool, e.Source, e.Message, e.DurationMs = "tool-run", fmt.Sprintf("lookup_%04d", i%1000+1), "tools", "", int64(20+i%300)
		} else {
			e.Mode = "form"
			e.Message = fmt.Sprintf("Register for workshop %d.\nWe need a few details for your badge.", i)
			e.Fields = []string{"name", "email", "guests", "newsletter", "track"}
			e.Titles = map[string]string{"name": "Full name", "email": "Email", "guests": "Guests", "newsletter": "Send me the newsletter", "track": "Track"}
		}
		batch = append(batch, e)
		if len(batch) == 500 || i == history-1 {
			if err := core.Store.AddHistories(batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	return dir
}

// BenchmarkP9GoShare is the Go side of P9's panes, without the window: the
// Tools pane's list call (app.ToolsService.List) for a server of
// -listtools tools and the History pane's first page
// (app.QuestionService.History) over -listhistory entries, each the median
// of 5 calls, with the size of the JSON the window receives.
func BenchmarkP9GoShare(b *testing.B) {
	sizes()
	data := bigListsData(b, *flagListTools, *flagListHist)
	core, err := app.OpenCore(app.CoreOptions{DataDir: data, DemoCommand: "true"})
	if err != nil {
		b.Fatal(err)
	}
	defer core.Close()
	servers, err := core.Store.Servers()
	if err != nil || len(servers) != 1 {
		b.Fatalf("servers: %v %v", servers, err)
	}
	g := &ghCore{core: core}
	g.connect(b, servers[0])
	toolsSvc, questions := app.NewToolsService(core), app.NewQuestionService(core, nil)
	var list, page []int64
	var listBytes, pageBytes int
	for range 5 {
		start := time.Now()
		views, err := toolsSvc.List(servers[0].ID)
		list = append(list, time.Since(start).Nanoseconds())
		if err != nil || len(views) != *flagListTools+4 {
			b.Fatalf("%d tools listed, want %d: %v", len(views), *flagListTools+4, err)
		}
		raw, _ := json.Marshal(views)
		listBytes = len(raw)
		start = time.Now()
		p, err := questions.History("", "", 0)
		page = append(page, time.Since(start).Nanoseconds())
		if err != nil || len(p.Entries) == 0 {
			b.Fatalf("history: %d entries: %v", len(p.Entries), err)
		}
		raw, _ = json.Marshal(p)
		pageBytes = len(raw)
	}
	b.ReportMetric(median(list)/1e6, "tools-list-ms")
	b.ReportMetric(float64(listBytes)/1024, "tools-list-KB")
	b.ReportMetric(median(page)/1e6, "history-page-ms")
	b.ReportMetric(float64(pageBytes)/1024, "history-page-KB")
}
