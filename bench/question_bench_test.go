package bench

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	flagQuestions   = flag.Int("questions", 60, "P7: questions asked of each window (5 with -quick)")
	flagP7Inspector = flag.Bool("p7inspector", true, "P7: ask the MCP Inspector the same questions (false: Gatehouse's figures only, for comparing two builds quickly)")
)

// BenchmarkP7QuestionReachesPerson measures the figure a person feels: from
// the moment a server writes elicitation/create to its stdout to the moment
// the question is painted on the screen. The server is bench/asker, which
// sends the request when the benchmark tells it to and reports the time
// just before its write(2); the screen is read on Xvfb (bench/internal/
// xgrab, one row of it about every millisecond). Clocks are one machine's.
//
// Gatehouse: the production binary, the asker its only server; the first
// question after start (cold: the window has painted and the server has
// just connected), then -questions more, each dismissed with Escape (the
// dialog's Cancel) before the next.
//
// MCP Inspector: the same asker, started by the Inspector (bench/node's
// pinned version) and connected from its web UI in Chromium, a real window
// in the same place on the same screen; each question answered Cancel and
// the Inspector's logs cleared before the next (bench/node/inspector-ask.mjs),
// its best case.
//
// A question is read from the screen the same way in both, in one row
// across the middle of the window. A dialog is up once its backdrop has
// darkened the page beside it (both apps dim the page behind a question;
// Gatehouse a frame after the dialog itself). The times are read from the
// dialog's own pixels, in the band of the row inside it (500 px about the
// centre), where no backdrop reaches: "painted" is the first capture in
// which the band is nine tenths of the way from the row before the
// question to the row once the dialog has settled, "begin" the first in
// the run of captures up to it that are a tenth of the way there. So
// "painted" is when the person can read the question, whether or not the
// page behind has dimmed yet. Gatehouse's dialog has no transition, so
// begin and painted are one frame; the Inspector fades and zooms its
// dialog in over 200 ms, and its "begin" is its first faded frame. The
// ratio is Gatehouse's painted to the Inspector's begin.
func BenchmarkP7QuestionReachesPerson(b *testing.B) {
	sizes()
	n := *flagQuestions
	if *flagQuick && !isSet("questions") {
		n = 5
	}
	bin := gatehouseBin(b)
	asker := askerBin(b)
	requireTools(b, "xdotool")
	d := newDesktop(b)

	data := b.TempDir()
	cli(b, bin, data, "servers", "remove", "Demo server")
	sock := socketPath(b)
	cli(b, bin, data, "servers", "add", "Workshop", "--", asker, "-control", sock)
	app := d.startApp(b, bin, data)
	d.watchPainted(b, app)
	ctl := dialAsker(b, sock, 60*time.Second)
	// The window takes the keyboard (no window manager on Xvfb): a click on
	// the "Servers" heading, which does nothing.
	d.click(b, image.Pt(230, 36))

	escape := func(id string) {
		d.xdotool(b, "key", "Escape")
		if _, err := ctl.waitAnswered(id, 3*time.Second); err != nil {
			b.Logf("Escape did not answer %s (%v); the server withdraws it", id, err)
			ctl.send(b, "cancel "+id)
		}
	}
	gh := d.askRepeatedly(b, ctl, n, "gatehouse", escape)
	stopGroup(app)

	b.ReportMetric(float64(n), "questions")
	gh.report(b, "gatehouse")
	if !*flagP7Inspector {
		return
	}

	insp, why := d.inspectorQuestions(b, asker, n)
	if insp == nil {
		if *flagRequire {
			b.Fatalf("MCP Inspector not measured: %s", why)
		}
		b.Logf("MCP Inspector not measured: %s", why)
		return
	}
	insp.report(b, "inspector")
	b.ReportMetric(median(gh.painted)/median(insp.begin), "P7-ratio-median")
	b.ReportMetric(float64(gh.cold.painted)/float64(insp.cold.begin), "P7-ratio-first")
}

// questionTimes are one window's times from the server's write, in ns.
type questionTimes struct {
	cold           questionTime // the first question after start
	begin, painted []int64      // the questions after it
}

type questionTime struct{ begin, painted time.Duration }

func (q questionTimes) report(b *testing.B, who string) {
	b.ReportMetric(median(q.painted)/1e6, who+"-median-ms")
	b.ReportMetric(quantile(q.painted, 0.95)/1e6, who+"-p95-ms")
	b.ReportMetric(median(q.begin)/1e6, who+"-begin-median-ms")
	b.ReportMetric(quantile(q.begin, 0.95)/1e6, who+"-begin-p95-ms")
	b.ReportMetric(float64(q.cold.painted)/1e6, who+"-first-ms")
	b.ReportMetric(float64(q.cold.begin)/1e6, who+"-first-begin-ms")
	b.Logf("%s: painted (ms) %v", who, msList(q.painted))
	b.Logf("%s: begin (ms) %v", who, msList(q.begin))
}

// askRepeatedly asks n+1 questions one after another, the first the cold
// one, and dismisses each with answer(id) once it is painted.
func (d *desktop) askRepeatedly(b *testing.B, ctl *askerConn, n int, who string, answer func(id string)) questionTimes {
	b.Helper()
	var q questionTimes
	for i := range n + 1 {
		base := d.quietRow(b, 5*time.Second)
		// A pause of up to a frame, so that the requests fall on every
		// phase of the window's frame clock.
		time.Sleep(time.Duration(rand.IntN(17_000)) * time.Microsecond)
		id, sent := ctl.ask(b)
		t := d.watchQuestion(b, base, sent, 10*time.Second, fmt.Sprintf("bench-question-%s-timeout.png", who))
		if i == 0 {
			d.screenshot(b, fmt.Sprintf("bench-question-%s.png", who))
			q.cold = t
		} else {
			q.begin = append(q.begin, t.begin.Nanoseconds())
			q.painted = append(q.painted, t.painted.Nanoseconds())
		}
		debugf(b, "%s question %d: sent %d, begin %s, painted %s", who, i, sent.UnixNano(), t.begin, t.painted)
		answer(id)
		d.waitGone(b, base, 10*time.Second, fmt.Sprintf("bench-question-%s-stays.png", who))
	}
	return q
}

// waitGone waits until the backdrop has left the row: the background
// pixels that darkened under it (probes) are on average nearly back to
// base. The rest of the page may have changed meanwhile (the Inspector's
// log cleared, its page scrolled sideways to the button pressed).
func (d *desktop) waitGone(b *testing.B, base []float64, timeout time.Duration, failShot string) {
	b.Helper()
	probes := d.backgroundProbes(base)
	deadline := time.Now().Add(timeout)
	for {
		cur := d.rowLuma(b)
		drop := 0.0
		for _, x := range probes {
			drop += base[x] - cur[x]
		}
		if drop/float64(len(probes)) < 0.05 {
			return
		}
		if time.Now().After(deadline) {
			d.screenshot(b, failShot)
			b.Fatalf("the answered question stayed on the screen for %s (test-output/%s)", timeout, failShot)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// backgroundProbes are the pixels of the row read for a dialog's backdrop:
// background (not text) in base, away from the centre.
func (d *desktop) backgroundProbes(base []float64) []int {
	var probes []int
	cx := d.x.Width / 2
	for x, l := range base {
		if l > 0.6 && (x < cx-dialogHalfWidth || x >= cx+dialogHalfWidth) {
			probes = append(probes, x)
		}
	}
	return probes
}

// The row of the screen read for a question: the middle of the window.
// Dialogs stand at the centre, at most dialogHalfWidth either side of it,
// and at least dialogBandHalf: in that band the row shows the dialog's own
// pixels (Gatehouse's dialog is 540 px wide in the bench's window, the
// Inspector's 620 px).
const (
	dialogHalfWidth = 320
	dialogBandHalf  = 250
)

// dialogBand is the columns [lo, hi) of the row that lie inside a dialog.
func (d *desktop) dialogBand() (lo, hi int) {
	cx := d.x.Width / 2
	return cx - dialogBandHalf, cx + dialogBandHalf
}

func (d *desktop) questionRow() image.Rectangle {
	y := d.origin().Y + windowSize.Y/2
	return image.Rect(0, y, d.x.Width, y+1)
}

// rowLuma captures the row.
func (d *desktop) rowLuma(b *testing.B) []float64 {
	r := d.questionRow()
	img, err := d.x.Grab(r)
	if err != nil {
		b.Fatal(err)
	}
	l := make([]float64, r.Dx())
	for x := range l {
		l[x] = luma(img, x, 0)
	}
	return l
}

// quietRow waits until the row has not changed for 100 ms (a dialog that
// was closing has gone) and returns it.
func (d *desktop) quietRow(b *testing.B, timeout time.Duration) []float64 {
	b.Helper()
	deadline := time.Now().Add(timeout)
	last, since := d.rowLuma(b), time.Now()
	for time.Since(since) < 100*time.Millisecond {
		if time.Now().After(deadline) {
			d.screenshot(b, "bench-question-unquiet.png")
			b.Fatalf("the window did not settle within %s (test-output/bench-question-unquiet.png)", timeout)
		}
		time.Sleep(5 * time.Millisecond)
		if cur := d.rowLuma(b); meanAbsDiff(cur, last) > 0.001 {
			last, since = cur, time.Now()
		}
	}
	return last
}

// watchQuestion reads the row about every millisecond from now until a
// dialog is up and the row has settled, and returns when the dialog began
// to show and when it was painted, from sent.
//
// A dialog is up once its backdrop has reached the page beside it: nearly
// all the background pixels away from the centre (probes) have darkened.
// That only says that a dialog is there; the times are read from the
// dialog itself, in the band of the row that lies inside it, where a
// backdrop does not reach: "painted" is the first capture in which the band
// is nine tenths of the way to how it settles, "begin" the first of the
// captures leading up to it that are a tenth of the way there. A page
// that changes before its dialog (the Inspector's message log growing)
// does not count, as it does not bring the band nearer the dialog.
func (d *desktop) watchQuestion(b *testing.B, base []float64, sent time.Time, timeout time.Duration, failShot string) questionTime {
	b.Helper()
	probes := d.backgroundProbes(base)
	if len(probes) < 50 {
		d.screenshot(b, failShot)
		b.Fatalf("only %d background pixels to read in the row (test-output/%s)", len(probes), failShot)
	}
	type capture struct {
		at  time.Time
		row []float64
	}
	var caps []capture
	var up, still time.Time // when the backdrop was first seen; since when the row has not changed
	deadline := time.Now().Add(timeout)
	for {
		cur := d.rowLuma(b)
		at := time.Now()
		started := 0
		for _, x := range probes {
			if base[x]-cur[x] >= 0.015 {
				started++
			}
		}
		if up.IsZero() && started*10 >= len(probes)*8 {
			up = at
		}
		if len(caps) == 0 || meanAbsDiff(cur, caps[len(caps)-1].row) > 0.001 {
			still = at
		}
		caps = append(caps, capture{at, cur})
		// Settled: the row has not changed for 150 ms, and the Inspector's
		// 200 ms fade is over.
		if !up.IsZero() && (at.Sub(still) > 150*time.Millisecond && at.Sub(up) > 250*time.Millisecond || at.Sub(up) > 2*time.Second) {
			break
		}
		if at.After(deadline) {
			d.screenshot(b, failShot)
			b.Fatalf("no question on the screen %s after the server sent it: %d of %d background pixels darkened (test-output/%s)",
				timeout, started, len(probes), failShot)
		}
		time.Sleep(time.Millisecond)
	}
	lo, hi := d.dialogBand()
	final := caps[len(caps)-1].row
	far := meanAbsDiff(base[lo:hi], final[lo:hi])
	if far < 0.01 {
		d.screenshot(b, failShot)
		b.Fatalf("the row inside the dialog hardly differs from the page before it (%.4f on average): the row does not cross the dialog (test-output/%s)", far, failShot)
	}
	// progress is how far a capture's band has come from base to final: 0 to 1.
	progress := func(row []float64) float64 { return 1 - meanAbsDiff(row[lo:hi], final[lo:hi])/far }
	painted := 0
	for painted < len(caps)-1 && progress(caps[painted].row) < 0.9 {
		painted++
	}
	begin := painted
	for begin > 0 && progress(caps[begin-1].row) >= 0.1 {
		begin--
	}
	return questionTime{begin: caps[begin].at.Sub(sent), painted: caps[painted].at.Sub(sent)}
}

func meanAbsDiff(a, c []float64) float64 {
	sum := 0.0
	for x := range a {
		d := a[x] - c[x]
		if d < 0 {
			d = -d
		}
		sum += d
	}
	return sum / float64(len(a))
}

// askerConn is the benchmark's control connection to bench/asker.
type askerConn struct {
	c     net.Conn
	lines chan string
}

// socketPath is a path for a Unix socket: short, as such paths must be.
func socketPath(b *testing.B) string {
	dir, err := os.MkdirTemp("", "gh-p7-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "ask.sock")
}

// dialAsker connects to the asker once it listens and waits for its ready
// (the client has initialized the session).
func dialAsker(b *testing.B, sock string, timeout time.Duration) *askerConn {
	b.Helper()
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.Dial("unix", sock)
		if err == nil {
			a := &askerConn{c: c, lines: make(chan string, 16)}
			go func() {
				sc := bufio.NewScanner(c)
				for sc.Scan() {
					a.lines <- sc.Text()
				}
				close(a.lines)
			}()
			b.Cleanup(func() { c.Close() })
			if line, err := a.next(time.Until(deadline)); err != nil || line != "ready" {
				b.Fatalf("the asker did not say ready: %q %v", line, err)
			}
			return a
		}
		if time.Now().After(deadline) {
			b.Fatalf("the asker did not listen on %s within %s: %v", sock, timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (a *askerConn) next(timeout time.Duration) (string, error) {
	select {
	case line, ok := <-a.lines:
		if !ok {
			return "", fmt.Errorf("the asker closed the connection")
		}
		return line, nil
	case <-time.After(timeout):
		return "", fmt.Errorf("nothing from the asker within %s", timeout)
	}
}

func (a *askerConn) send(b *testing.B, line string) {
	if _, err := fmt.Fprintln(a.c, line); err != nil {
		b.Fatal(err)
	}
}

// ask has the asker send one question; it returns its ID and when the
// asker wrote it.
func (a *askerConn) ask(b *testing.B) (string, time.Time) {
	b.Helper()
	a.send(b, "ask")
	for {
		line, err := a.next(5 * time.Second)
		if err != nil {
			b.Fatal(err)
		}
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "sent" {
			ns, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				b.Fatalf("the asker said %q", line)
			}
			return f[1], time.Unix(0, ns)
		}
		if len(f) == 0 || f[0] != "answered" { // a late answer to an earlier question is skipped
			b.Fatalf("the asker said %q", line)
		}
	}
}

// waitAnswered waits for the client's answer to id and returns its action.
func (a *askerConn) waitAnswered(id string, timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for {
		line, err := a.next(time.Until(deadline))
		if err != nil {
			return "", err
		}
		if f := strings.Fields(line); len(f) == 3 && f[0] == "answered" && f[1] == id {
			return f[2], nil
		}
	}
}

// inspectorQuestions runs the same questions through the MCP Inspector:
// it starts the asker, and its UI in Chromium on the desktop.
func (d *desktop) inspectorQuestions(b *testing.B, asker string, n int) (*questionTimes, string) {
	b.Helper()
	sock := socketPath(b)
	ins, skip := d.startInspector(b, "bench-inspector-questions.log", []string{asker, "-control", sock}, "inspector-ask.mjs",
		filepath.Base(asker), filepath.Join(outputDir(), "bench-inspector-connected.png"))
	if ins == nil {
		return nil, skip
	}
	defer ins.stop()
	stdout, stdin, logPath := ins.stdout, ins.stdin, ins.logPath
	var once sync.Once
	defer once.Do(func() { stdin.Close() })
	replies := bufio.NewReader(stdout)
	var reply struct {
		Ready bool   `json:"ready"`
		Done  bool   `json:"done"`
		Error string `json:"error"`
	}
	read := func() error {
		line, err := replies.ReadString('\n')
		if err != nil {
			return fmt.Errorf("inspector-ask.mjs ended: %w", err)
		}
		reply.Ready, reply.Done, reply.Error = false, false, ""
		return json.Unmarshal([]byte(line), &reply)
	}
	if err := read(); err != nil || !reply.Ready {
		return nil, fmt.Sprintf("its UI did not connect the server: %v %s (log: %s)", err, reply.Error, logPath)
	}
	ctl := dialAsker(b, sock, 30*time.Second)
	answer := func(id string) {
		if _, err := fmt.Fprintln(stdin, "answer"); err != nil {
			b.Fatal(err)
		}
		if err := read(); err != nil || !reply.Done {
			d.screenshot(b, "bench-question-inspector-answer.png")
			b.Fatalf("the Inspector's dialog was not answered: %v %s (log: %s)", err, reply.Error, logPath)
		}
		if _, err := ctl.waitAnswered(id, 5*time.Second); err != nil {
			b.Fatalf("the Inspector's answer did not reach the server: %v", err)
		}
	}
	q := d.askRepeatedly(b, ctl, n, "inspector", answer)
	return &q, ""
}

// waitServing waits until url answers 200.
func waitServing(url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nothing served at %s within %s", url, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// askerBin is bench/asker: $GATEHOUSE_BENCH_ASKER, or built on first use.
func askerBin(b *testing.B) string {
	return builtBinary(b, "GATEHOUSE_BENCH_ASKER", "./bench/asker")
}
