package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/bench/internal/xgrab"
)

// The window benchmarks run the production binary ($GATEHOUSE_BIN, else
// build/bin/gatehouse) on a private Xvfb with a private D-Bus session bus,
// fresh data directories and a fresh home.

func gatehouseBin(b *testing.B) string {
	b.Helper()
	bin := os.Getenv("GATEHOUSE_BIN")
	if bin == "" {
		bin = filepath.Join(repoRoot(), "build", "bin", "gatehouse")
	}
	if fi, err := os.Stat(bin); err != nil || fi.Mode()&0o111 == 0 {
		missing(b, "no gatehouse binary at "+bin+" (make build)")
	}
	return bin
}

func requireTools(b *testing.B, names ...string) {
	b.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			missing(b, n+" is not installed (scripts/deps.sh test)")
		}
	}
}

// desktop is a private X display and session bus.
type desktop struct {
	display string
	bus     string
	x       *xgrab.Conn
	home    string
}

func newDesktop(b *testing.B) *desktop {
	b.Helper()
	requireTools(b, "Xvfb", "dbus-daemon")
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	x.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := x.Start(); err != nil {
		b.Fatal(err)
	}
	w.Close()
	b.Cleanup(func() { stopGroup(x) })
	line, _ := bufio.NewReader(r).ReadString('\n')
	r.Close()
	d := &desktop{display: ":" + strings.TrimSpace(line), home: b.TempDir()}
	if d.x, err = xgrab.Dial(d.display); err != nil {
		b.Fatalf("Xvfb %s: %v", d.display, err)
	}
	b.Cleanup(func() { d.x.Close() })

	bus := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	bus.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := bus.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := bus.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stopGroup(bus) })
	addr, _ := bufio.NewReader(out).ReadString('\n')
	d.bus = strings.TrimSpace(addr)
	return d
}

// env is the environment of a program on the desktop: nothing of the
// machine's own display, bus or configuration.
func (d *desktop) env(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "DISPLAY", name == "WAYLAND_DISPLAY", name == "XAUTHORITY", name == "DBUS_SESSION_BUS_ADDRESS",
			name == "HOME", strings.HasPrefix(name, "XDG_"), strings.HasPrefix(name, "GATEHOUSE_"):
			continue
		}
		env = append(env, kv)
	}
	return append(env, append([]string{"DISPLAY=" + d.display, "DBUS_SESSION_BUS_ADDRESS=" + d.bus, "HOME=" + d.home,
		"XDG_CONFIG_HOME=" + filepath.Join(d.home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(d.home, ".cache"),
		"XDG_RUNTIME_DIR=" + d.home}, extra...)...)
}

// stopGroup ends a process group: SIGTERM, SIGKILL after 5 s, and reaps the leader.
func stopGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	// Helpers of the group that outlived the leader.
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(-cmd.Process.Pid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// cli runs a gatehouse command line on data.
func cli(b *testing.B, bin, data string, args ...string) {
	b.Helper()
	cmd := exec.Command(bin, append([]string{"--data-dir", data}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("gatehouse %v: %v\n%s", args, err, out)
	}
}

// startApp starts the app's window on data; the process leads its own group.
func (d *desktop) startApp(b *testing.B, bin, data string) *exec.Cmd {
	b.Helper()
	cmd := exec.Command(bin)
	cmd.Env = d.env("GATEHOUSE_DATA_DIR=" + data)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if os.Getenv("GATEHOUSE_BENCH_DEBUG") != "" { // what the app says, in test-output/bench-app.log
		if f, err := os.OpenFile(filepath.Join(outputDir(), "bench-app.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
			cmd.Stdout, cmd.Stderr = f, f
			b.Cleanup(func() { f.Close() })
		}
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stopGroup(cmd) })
	return cmd
}

// The main view, as drawn on the screen. The window (1100×760 by default) is
// centred on the 1280×800 screen; positions below are inside it.
var (
	sidebarProbe = image.Pt(20, 300)             // the sidebar, dimmed under a dialog's backdrop
	headingProbe = image.Rect(185, 22, 275, 50)  // the "Servers" heading: the page has painted
	nameProbe    = image.Rect(200, 80, 320, 104) // the first server card's name: the list is drawn
	windowSize   = image.Pt(1100, 760)
)

func (d *desktop) origin() image.Point {
	return image.Pt((d.x.Width-windowSize.X)/2, (d.x.Height-windowSize.Y)/2)
}

func luma(img *image.RGBA, x, y int) float64 {
	i := img.PixOffset(x, y)
	return (0.299*float64(img.Pix[i]) + 0.587*float64(img.Pix[i+1]) + 0.114*float64(img.Pix[i+2])) / 255
}

// stages are the moments of a start, from exec.
type stages struct{ webkit, mapped, painted, listed time.Duration }

// watchStart watches the screen from start until text is drawn in the
// first server card's place (nameProbe), and says when WebKit's web
// process was started (a child of the app), when the window appeared
// (anything but the black root), when the page painted (heading drawn in
// headingProbe; skipped when heading is false, for the floor app) and when
// the text was drawn. Each is the time of the first capture that shows it;
// captures are about 2 ms apart.
func (d *desktop) watchStart(b *testing.B, cmd *exec.Cmd, start time.Time, timeout time.Duration, heading bool) stages {
	b.Helper()
	o := d.origin()
	var s stages
	for time.Since(start) < timeout {
		now := time.Since(start)
		if s.webkit == 0 && hasWebProcess(cmd.Process.Pid) {
			s.webkit = now
		}
		switch {
		case s.mapped == 0:
			img, err := d.x.Grab(image.Rectangle{Min: o.Add(sidebarProbe), Max: o.Add(sidebarProbe).Add(image.Pt(1, 1))})
			if err != nil {
				b.Fatal(err)
			}
			if luma(img, 0, 0) > 0.05 {
				debugf(b, "mapped: luma %.3f at %s", luma(img, 0, 0), now)
				s.mapped = now
			}
		case s.painted == 0 && heading:
			if d.darkPixels(b, headingProbe.Add(o)) > 30 {
				debugf(b, "painted at %s", now)
				s.painted = now
			}
		default:
			if d.darkPixels(b, nameProbe.Add(o)) > 30 {
				s.listed = now
				if !heading {
					s.painted = now
				}
				return s
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	d.screenshot(b, "bench-start-timeout.png")
	b.Fatalf("the server list was not drawn within %s (mapped %s, painted %s); see test-output/bench-start-timeout.png", timeout, s.mapped, s.painted)
	return s
}

// hasWebProcess reports whether pid has started WebKit's web process: a
// child whose program is WebKitWebProcess.
func hasWebProcess(pid int) bool {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		children, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		for _, c := range strings.Fields(string(children)) {
			exe, _ := os.Readlink("/proc/" + c + "/exe")
			if strings.HasPrefix(filepath.Base(exe), "WebKitWebProcess") {
				return true
			}
		}
	}
	return false
}

// darkPixels counts the pixels of r (on the screen) darker than text's 40 %.
func (d *desktop) darkPixels(b *testing.B, r image.Rectangle) int {
	img, err := d.x.Grab(r)
	if err != nil {
		b.Fatal(err)
	}
	dark := 0
	for y := range r.Dy() {
		for x := range r.Dx() {
			if luma(img, x, y) < 0.4 {
				dark++
			}
		}
	}
	return dark
}

// screenshot saves the whole screen to test-output/name.
func (d *desktop) screenshot(b *testing.B, name string) {
	img, err := d.x.Grab(image.Rect(0, 0, d.x.Width, d.x.Height))
	if err != nil {
		b.Log(err)
		return
	}
	dir := outputDir()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		b.Log(err)
		return
	}
	defer f.Close()
	_ = png.Encode(f, img)
}

func outputDir() string {
	dir := os.Getenv("GATEHOUSE_TEST_OUTPUT")
	if dir == "" {
		dir = filepath.Join(repoRoot(), "test-output")
	}
	_ = os.MkdirAll(dir, 0o755)
	return dir
}

// BenchmarkP4Startup starts the production binary -starts times (after one
// start not counted, which warms the page cache) on a data directory with
// the demo server configured, and measures from exec to the main view being
// ready: the page painted and the server list showing the demo server's
// card. Its floor, started the same way in turns with it: bench/floorapp, a
// Wails app built with the same tags and flags that shows one line of text
// where the card's name is drawn. There is no test-only code in the product:
// the benchmark watches the real windows' pixels on Xvfb over the X11
// protocol (bench/internal/xgrab, a capture every ~2 ms), which is when a
// person would see them, and the app's children in /proc (when WebKit's web
// process starts). Where Gatehouse's time goes beyond the floor's is read
// from the stages side by side, from opening the app's core in this process
// on the same data directory (the store and what the window needs before it
// opens), and from the size of the page's JavaScript.
func BenchmarkP4Startup(b *testing.B) {
	sizes()
	bin := gatehouseBin(b)
	floor := floorBin(b)
	d := newDesktop(b)
	data := b.TempDir()
	cli(b, bin, data, "servers", "list") // first start: the demo server is added
	var gh, fl startTimes
	for i := range *flagStarts + 1 {
		start := time.Now()
		cmd := d.startApp(b, bin, data)
		s := d.watchStart(b, cmd, start, 30*time.Second, true)
		debugf(b, "start %d at %d: %+v", i, start.UnixNano(), s)
		if i == 0 {
			d.screenshot(b, "bench-startup.png")
		}
		stopGroup(cmd)

		start = time.Now()
		cmd = d.startProgram(b, floor)
		f := d.watchStart(b, cmd, start, 30*time.Second, false)
		if i == 0 {
			d.screenshot(b, "bench-startup-floor.png")
		}
		stopGroup(cmd)
		if i == 0 {
			continue // warm-up
		}
		gh.add(s)
		fl.add(f)
	}
	b.ReportMetric(float64(len(gh.listed)), "starts")
	b.ReportMetric(median(gh.webkit)/1e6, "webkit-started-ms")
	b.ReportMetric(median(gh.mapped)/1e6, "window-mapped-ms")
	b.ReportMetric(median(gh.painted)/1e6, "page-painted-ms")
	b.ReportMetric(median(gh.listed)/1e6, "list-rendered-ms")
	b.ReportMetric(float64(slices.Max(gh.listed))/1e6, "list-rendered-max-ms")
	b.ReportMetric(median(fl.webkit)/1e6, "floor-webkit-started-ms")
	b.ReportMetric(median(fl.mapped)/1e6, "floor-window-mapped-ms")
	b.ReportMetric(median(fl.listed)/1e6, "floor-text-drawn-ms")
	b.ReportMetric(median(gh.listed)/median(fl.listed), "P4-ratio")
	b.Logf("list rendered (ms): %v; floor's text drawn (ms): %v", msList(gh.listed), msList(fl.listed))

	// Gatehouse's own work before its window opens, measured in this
	// process: opening the core (store, settings, servers) on the same data.
	var opens []int64
	for range 5 {
		start := time.Now()
		core, err := app.OpenCore(app.CoreOptions{DataDir: data, DemoCommand: "true"})
		if err != nil {
			b.Fatal(err)
		}
		opens = append(opens, time.Since(start).Nanoseconds())
		if err := core.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(median(opens)/1e6, "core-open-ms")
	b.ReportMetric(float64(scriptBytes())/1024, "page-script-KiB")
}

// startTimes collects the stages of several starts, in ns.
type startTimes struct{ webkit, mapped, painted, listed []int64 }

func (t *startTimes) add(s stages) {
	t.webkit = append(t.webkit, s.webkit.Nanoseconds())
	t.mapped = append(t.mapped, s.mapped.Nanoseconds())
	t.painted = append(t.painted, s.painted.Nanoseconds())
	t.listed = append(t.listed, s.listed.Nanoseconds())
}

// prodTags and prodLDFlags are the production binary's (the Makefile's
// PROD_TAGS and PROD_LDFLAGS).
const (
	prodTags    = "desktop,production,webkit2_41"
	prodLDFlags = "-w -s"
)

// floorBin is bench/floorapp built as the production binary is:
// $GATEHOUSE_BENCH_FLOOR, or built on first use.
func floorBin(b *testing.B) string {
	return builtBinary(b, "GATEHOUSE_BENCH_FLOOR", "./bench/floorapp", "-tags", prodTags, "-ldflags", prodLDFlags)
}

// startProgram starts a program on the desktop as startApp starts the app.
func (d *desktop) startProgram(b *testing.B, bin string) *exec.Cmd {
	b.Helper()
	cmd := exec.Command(bin)
	cmd.Env = d.env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stopGroup(cmd) })
	return cmd
}

// scriptBytes is the size of the JavaScript the page loads at start: the
// files frontend/dist/index.html names (its module script and what it
// preloads); the chunks of the panes and catalogues fetched later are not
// counted.
func scriptBytes() int64 {
	dist := filepath.Join(repoRoot(), "frontend", "dist")
	html, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		return 0
	}
	var n int64
	for _, m := range startScript.FindAllSubmatch(html, -1) {
		if fi, err := os.Stat(filepath.Join(dist, filepath.FromSlash(string(m[1])))); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// startScript matches a script file index.html loads: src="/assets/x.js" or href="/assets/x.js".
var startScript = regexp.MustCompile(`(?:src|href)="/?([^"]+\.js)"`)

func msList(ns []int64) []string {
	var out []string
	for _, v := range ns {
		out = append(out, strconv.FormatFloat(float64(v)/1e6, 'f', 0, 64))
	}
	return out
}

// treePSS sums the PSS of root's tree, split into the host (root and
// WebKit's helpers) and the rest (MCP servers it started).
func treePSS(root int) (host, other int64, procs []proc) {
	for _, p := range tree(root) {
		p.pss = pssKB(p.pid)
		procs = append(procs, p)
		if p.pid == root || strings.HasPrefix(p.exe, "WebKit") {
			host += p.pss
		} else {
			other += p.pss
		}
	}
	return host, other, procs
}

// settleTime is how long memory is left to settle before it is sampled.
func settleTime() time.Duration {
	if *flagQuick {
		return 300 * time.Millisecond
	}
	return 3 * time.Second
}

// settledPSS waits for d, then returns the median of three samples d/6 apart.
func settledPSS(root int, d time.Duration) (host, other int64, procs []proc) {
	time.Sleep(d)
	var hs, os []int64
	for range 3 {
		h, o, p := treePSS(root)
		hs, os, procs = append(hs, h), append(os, o), p
		time.Sleep(d / 6)
	}
	return int64(median(hs)), int64(median(os)), procs
}

// BenchmarkP3Memory measures the running app's memory: the summed PSS
// (/proc/PID/smaps_rollup) of the gatehouse process and its WebKit
// processes, with no server configured, then with -memservers stdio servers
// (testdata/peers/ask-on-connect.mjs, TypeScript SDK servers that ask for a
// form as soon as they are connected) and the consent dialog on screen. The
// servers' own processes are reported apart. For comparison, in the same
// run: the MCP Inspector (bench/node's pinned @modelcontextprotocol/inspector,
// on loopback) with its UI open in a Chromium window on the same display —
// its node process plus Chromium's whole process tree.
func BenchmarkP3Memory(b *testing.B) {
	sizes()
	bin := gatehouseBin(b)
	requireTools(b, "node")
	peer := filepath.Join(repoRoot(), "testdata", "peers", "ask-on-connect.mjs")
	if _, err := os.Stat(filepath.Join(repoRoot(), "testdata", "peers", "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		missing(b, "testdata/peers is not installed (make peers)")
	}
	d := newDesktop(b)
	settle := settleTime()

	// No server.
	empty := b.TempDir()
	cli(b, bin, empty, "servers", "remove", "Demo server")
	app := d.startApp(b, bin, empty)
	d.watchPainted(b, app)
	host0, _, procs0 := settledPSS(app.Process.Pid, settle)
	stopGroup(app)

	// n servers asking on connect, the dialog open.
	n := *flagMemSrv
	full := b.TempDir()
	cli(b, bin, full, "servers", "remove", "Demo server")
	node, _ := exec.LookPath("node")
	for i := range n {
		cli(b, bin, full, "servers", "add", fmt.Sprintf("Weekly report %02d", i+1), "--", node, peer, "form")
	}
	app = d.startApp(b, bin, full)
	d.watchPainted(b, app)
	deadline := time.Now().Add(60 * time.Second)
	for {
		nodes := 0
		for _, p := range tree(app.Process.Pid) {
			if p.exe == "node" {
				nodes++
			}
		}
		if nodes == n && d.dimmed(b) {
			break
		}
		if time.Now().After(deadline) {
			d.screenshot(b, "bench-memory-timeout.png")
			b.Fatalf("after 60 s: %d of %d servers running, dialog open: %v", nodes, n, d.dimmed(b))
		}
		time.Sleep(50 * time.Millisecond)
	}
	hostN, serversN, procsN := settledPSS(app.Process.Pid, settle)
	if !d.dimmed(b) {
		d.screenshot(b, "bench-memory-no-dialog.png")
		b.Fatal("the consent dialog closed by itself (see test-output/bench-memory-no-dialog.png)")
	}
	d.screenshot(b, "bench-memory-dialog.png")
	stopGroup(app)

	b.ReportMetric(float64(n), "servers")
	b.ReportMetric(mb(host0), "app-0-servers-MB")
	b.ReportMetric(mb(hostN), "app-n-servers-dialog-MB")
	b.ReportMetric(float64(hostN)/float64(host0), "P3-ratio")
	b.ReportMetric(mb(serversN), "servers-own-MB")
	b.Logf("0 servers: %s", describe(procs0))
	b.Logf("%d servers: %s", n, describe(procsN))

	// The MCP Inspector, same display, same run.
	insp, why := d.inspector(b)
	if insp == nil {
		b.Logf("MCP Inspector not measured: %s", why)
		b.ReportMetric(0, "inspector-MB")
		return
	}
	b.ReportMetric(mb(insp.node), "inspector-node-MB")
	b.ReportMetric(mb(insp.chromium), "inspector-chromium-MB")
	b.ReportMetric(mb(insp.node+insp.chromium), "inspector-MB")
	b.ReportMetric(float64(host0)/float64(insp.node+insp.chromium), "app-vs-inspector")
}

// describe names each process with its PSS now (or as sampled).
func describe(procs []proc) string {
	var parts []string
	for _, p := range procs {
		kb := p.pss
		if kb == 0 {
			kb = pssKB(p.pid)
		}
		parts = append(parts, fmt.Sprintf("%s %.1f MB", p.exe, mb(kb)))
	}
	return strings.Join(parts, ", ")
}

// watchPainted waits until the app's page has painted.
func (d *desktop) watchPainted(b *testing.B, app *exec.Cmd) {
	b.Helper()
	o := d.origin()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if d.sidebar(b) > 0.5 && d.darkPixels(b, headingProbe.Add(o)) > 30 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	d.screenshot(b, "bench-paint-timeout.png")
	b.Fatal("the window did not paint within 30 s")
}

// sidebar returns the brightness of the sidebar's probe: 0 while no window
// is there (the root is black), about 0.94 when drawn, darker under a
// dialog's backdrop.
func (d *desktop) sidebar(b *testing.B) float64 {
	o := d.origin()
	img, err := d.x.Grab(image.Rectangle{Min: o.Add(sidebarProbe), Max: o.Add(sidebarProbe).Add(image.Pt(1, 1))})
	if err != nil {
		b.Fatal(err)
	}
	return luma(img, 0, 0)
}

// dimmed reports whether a modal dialog's backdrop darkens the sidebar.
func (d *desktop) dimmed(b *testing.B) bool {
	l := d.sidebar(b)
	return l > 0.2 && l < 0.8
}

type inspectorMem struct{ node, chromium int64 }

// inspector starts the MCP Inspector on loopback ports and opens its UI in
// Chromium (bench/node/inspector-ui.mjs, playwright-core with the system
// Chromium, a real window on the display), then measures both trees.
func (d *desktop) inspector(b *testing.B) (*inspectorMem, string) {
	b.Helper()
	ins, skip := d.startInspector(b, "bench-inspector.log", nil, "inspector-ui.mjs", filepath.Join(outputDir(), "bench-inspector.png"))
	if ins == nil {
		return nil, skip
	}
	defer ins.stop()
	cmd, ui, out, stdin, logPath := ins.cmd, ins.ui, ins.stdout, ins.stdin, ins.logPath
	var ready struct {
		Ready bool   `json:"ready"`
		Error string `json:"error"`
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if err := json.Unmarshal([]byte(line), &ready); err != nil || !ready.Ready {
		return nil, fmt.Sprintf("its UI did not load in Chromium: %s %s (log: %s)", strings.TrimSpace(line), ready.Error, logPath)
	}
	time.Sleep(settleTime())
	var nodes, chromium []int64
	for range 3 {
		var n, c int64
		for _, p := range tree(cmd.Process.Pid) {
			n += pssKB(p.pid)
		}
		for _, p := range tree(ui.Process.Pid)[1:] { // the playwright driver itself is not the Inspector
			c += pssKB(p.pid)
		}
		nodes, chromium = append(nodes, n), append(chromium, c)
		time.Sleep(settleTime() / 6)
	}
	b.Logf("Inspector: %s; Chromium: %s", describe(tree(cmd.Process.Pid)), describe(tree(ui.Process.Pid)[1:]))
	stdin.Close()
	return &inspectorMem{node: int64(median(nodes)), chromium: int64(median(chromium))}, ""
}

// inspectorRun is the MCP Inspector started on loopback ports with its UI
// driven in Chromium by a script of bench/node.
type inspectorRun struct {
	cmd, ui      *exec.Cmd // the Inspector; the UI's driver (playwright-core)
	url, logPath string
	stdout       io.Reader      // the driver's replies, one JSON line each
	stdin        io.WriteCloser // the driver's orders
	logFile      *os.File
}

// startInspector starts the Inspector (with serverCmd as its server, if
// any), waits until it serves its page, and starts bench/node/script with
// the page's URL and args. Both write to test-output/logName. It returns a
// reason instead when the Inspector or Chromium is missing (-require: fails).
func (d *desktop) startInspector(b *testing.B, logName string, serverCmd []string, script string, args ...string) (*inspectorRun, string) {
	b.Helper()
	launcher := filepath.Join(nodeDir(), "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	if _, err := os.Stat(launcher); err != nil {
		if *flagRequire {
			b.Fatalf("the MCP Inspector is not installed in bench/node: %v", err)
		}
		return nil, "bench/node is not installed"
	}
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		return nil, "no /usr/bin/chromium"
	}
	clientPort, serverPort := freePort(b), freePort(b)
	launch := []string{launcher, "--web"}
	if len(serverCmd) > 0 {
		launch = append(append(launch, "--"), serverCmd...)
	}
	r := &inspectorRun{logPath: filepath.Join(outputDir(), logName), url: fmt.Sprintf("http://127.0.0.1:%d/", clientPort)}
	r.cmd = exec.Command("node", launch...)
	r.cmd.Env = d.env("HOST=127.0.0.1", "CLIENT_PORT="+strconv.Itoa(clientPort), "SERVER_PORT="+strconv.Itoa(serverPort),
		"MCP_AUTO_OPEN_ENABLED=false", "DANGEROUSLY_OMIT_AUTH=true", "MCP_INSPECTOR_SECRET_STORE=memory")
	var err error
	if r.logFile, err = os.Create(r.logPath); err != nil {
		b.Fatal(err)
	}
	r.cmd.Stdout, r.cmd.Stderr = r.logFile, r.logFile
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := r.cmd.Start(); err != nil {
		r.logFile.Close()
		return nil, err.Error()
	}
	if err := waitServing(r.url, 60*time.Second); err != nil {
		r.stop()
		return nil, fmt.Sprintf("%v (log: %s)", err, r.logPath)
	}
	r.ui = exec.Command("node", append([]string{filepath.Join(nodeDir(), script), r.url}, args...)...)
	r.ui.Env = d.env()
	r.ui.Stderr = r.logFile
	r.ui.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if r.stdout, err = r.ui.StdoutPipe(); err != nil {
		b.Fatal(err)
	}
	if r.stdin, err = r.ui.StdinPipe(); err != nil {
		b.Fatal(err)
	}
	if err := r.ui.Start(); err != nil {
		r.ui = nil
		r.stop()
		return nil, err.Error()
	}
	return r, ""
}

// stop ends the UI's driver and the Inspector.
func (r *inspectorRun) stop() {
	if r.ui != nil {
		stopGroup(r.ui)
	}
	stopGroup(r.cmd)
	r.logFile.Close()
}

func freePort(b *testing.B) int {
	b.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	_, port, _ := strings.Cut(l.Addr().String(), ":")
	p, _ := strconv.Atoi(port)
	return p
}

func debugf(b *testing.B, format string, args ...any) {
	if os.Getenv("GATEHOUSE_BENCH_DEBUG") != "" {
		b.Logf(format, args...)
	}
}
