package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// Sizes. `make bench` uses the defaults; `make test-bench` passes -quick.
var (
	flagN          = flag.Int("n", 2000, "P1/P2: elicitation round trips per client")
	flagBatch      = flag.Int("batch", 100, "P1/P2: round trips per batch; the clients take turns batch by batch")
	flagFlood      = flag.Int("flood", 10000, "P5: requests in the flood")
	flagServers    = flag.Int("servers", 50, "P6: stdio servers")
	flagMemSrv     = flag.Int("memservers", 10, "P3: stdio servers with the app open")
	flagStarts     = flag.Int("starts", 9, "P4: app starts")
	flagTurns      = flag.Int("turns", 300, "P8a: turns each way")
	flagStreamRate = flag.Int("chunkrate", 2000, "P8b: chunks per second the stand-in streams")
	flagStreamSecs = flag.Float64("streamsecs", 5, "P8b: seconds the stand-in streams")
	flagMessages   = flag.Int("messages", 1000, "P8c: messages of the long conversation")
	flagListTools  = flag.Int("listtools", 1000, "P9: tools of the big server")
	flagListHist   = flag.Int("listhistory", 10000, "P9: history entries of the big data file")
	flagQuick      = flag.Bool("quick", false, "tiny sizes: only check that the benchmarks still run (make test-bench)")
)

// quick applies -quick's sizes once flags are parsed.
var quickOnce sync.Once

func sizes() {
	quickOnce.Do(func() {
		if !*flagQuick {
			return
		}
		set := func(name, v string) {
			f := flag.Lookup(name)
			if f != nil && !isSet(name) {
				_ = f.Value.Set(v)
			}
		}
		set("n", "20")
		set("batch", "10")
		set("flood", "1000")
		set("servers", "5")
		set("memservers", "2")
		set("starts", "1")
		set("turns", "10")
		set("streamsecs", "0.75")
		set("messages", "100")
		set("listtools", "50")
		set("listhistory", "300")
	})
}

func isSet(name string) bool {
	found := false
	flag.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// protocol is pinned for the nested elicitation/create path: from
// 2026-07-28 on, a server cannot send it during a tool call.
const protocol = "2025-11-25"

// answerJSON is what the answerers submit, as the frontend would send it.
const answerJSON = `{"name":"Ada Lovelace","email":"ada@example.com","guests":2,"newsletter":true,"track":"go"}`

// repoRoot is the module's root directory.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// benchServer returns the bench server binary: $GATEHOUSE_BENCH_SERVER, or
// one built from ./bench/server on first use.
func benchServer(b *testing.B) string {
	return builtBinary(b, "GATEHOUSE_BENCH_SERVER", "./bench/server")
}

// benchRelay returns P11's floor, the relay program (./bench/relay), built
// on first use.
func benchRelay(b *testing.B) string {
	return builtBinary(b, "", "./bench/relay")
}

var (
	builtMu sync.Mutex
	built   = map[string]string{}
)

// builtBinary returns the program in $env (none for env ""), or
// builds the package pkg (a path from the module's root) once, with args
// for go build, into a folder of its own that TestMain removes.
func builtBinary(b *testing.B, env, pkg string, args ...string) string {
	b.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	builtMu.Lock()
	defer builtMu.Unlock()
	if p, ok := built[pkg]; ok {
		return p
	}
	dir, err := os.MkdirTemp("", "gatehouse-bench-")
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", append(append([]string{"build"}, args...), "-o", out, pkg)...)
	cmd.Dir = repoRoot()
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building %s: %v\n%s", pkg, err, msg)
	}
	built[pkg] = out
	return out
}

// TestMain runs the benchmarks, then removes the programs they built.
func TestMain(m *testing.M) {
	code := m.Run()
	builtMu.Lock()
	for _, p := range built {
		_ = os.RemoveAll(filepath.Dir(p))
	}
	builtMu.Unlock()
	os.Exit(code)
}

// stdioServer is a store entry that runs the bench server.
func stdioServer(b *testing.B, id string) store.Server {
	return store.Server{ID: id, Name: id, Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: benchServer(b)}}
}

// ghCore is Gatehouse's whole core as the GUI runs it: the store (a real
// data file with history), the broker, the manager and the QuestionService
// the frontend talks to, with autoUI in the frontend's place.
type ghCore struct {
	core *app.Core
	svc  *app.QuestionService
	ui   *autoUI
}

// newCore opens a core on a fresh data directory. protocol pins the revision
// offered to servers ("" = the newest).
func newCore(b *testing.B, protocol string) *ghCore {
	b.Helper()
	dir := b.TempDir()
	core, err := app.OpenCore(app.CoreOptions{DataDir: dir, DemoCommand: "true"})
	if err != nil {
		b.Fatal(err)
	}
	g := &ghCore{core: core}
	if protocol != "" {
		// app.OpenCore offers the newest revision; the GUI's manager is
		// replaced (before any server is set) by the same one pinned to an
		// older revision, asking the same broker.
		core.Manager.Close()
		core.Manager = mcp.NewManager(mcp.Options{ClientName: "gatehouse", ClientVersion: app.Version,
			Asker: core.Broker, ProtocolVersion: protocol})
	}
	g.svc = app.NewQuestionService(core, nil)
	g.ui = &autoUI{svc: g.svc}
	core.SetEmitter(g.ui)
	b.Cleanup(func() { _ = core.Close() })
	return g
}

// connect adds servers to the manager and waits until they are connected.
func (g *ghCore) connect(b *testing.B, servers ...store.Server) {
	b.Helper()
	for _, s := range servers {
		g.core.Manager.Set(s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, s := range servers {
		if err := g.core.Manager.WaitConnected(ctx, s.ID); err != nil {
			log, _ := g.core.Manager.Log(s.ID)
			b.Fatalf("%s: %v\n%s", s.ID, err, log)
		}
	}
}

// autoUI stands where the frontend does: it receives the core's events as
// the webview would (JSON, as Wails sends them), and answers each form the
// way the dialog's Submit button does, through QuestionService.Submit,
// which validates before anything is sent. Hooks let P5 watch arrivals.
type autoUI struct {
	svc *app.QuestionService

	mu      sync.Mutex
	onShow  func(v shownView, at time.Time)
	onQueue func(q []queuedView, at time.Time)
	hold    bool // when set, requests stay on screen unanswered
	shown   int
	events  int
	version uint64 // of the newest snapshot seen
	current string // the question on screen
}

type shownView struct {
	ID     string `json:"id"`
	Server struct {
		ID string `json:"id"`
	} `json:"server"`
	Message string `json:"message"`
	Form    struct {
		Fields []struct {
			Name string `json:"name"`
		} `json:"fields"`
	} `json:"form"`
}

type queuedView struct {
	ID       string `json:"id"`
	ServerID string `json:"serverId"`
	Message  string `json:"message"`
}

// snapshotView is app.SnapshotView as the webview receives it.
type snapshotView struct {
	Version uint64       `json:"version"`
	Current *shownView   `json:"current"`
	Waiting []queuedView `json:"waiting"`
}

func (u *autoUI) Emit(name string, data any) {
	if name != app.EventQuestions {
		return
	}
	at := time.Now()
	raw, err := json.Marshal(data) // what Wails sends to the webview
	if err != nil {
		panic(err)
	}
	var snap snapshotView
	if err := json.Unmarshal(raw, &snap); err != nil {
		panic(err)
	}
	u.mu.Lock()
	u.events++
	if snap.Version <= u.version { // stale, as the window would ignore it
		u.mu.Unlock()
		return
	}
	u.version = snap.Version
	onShow, onQueue := u.onShow, u.onQueue
	isNew := snap.Current != nil && snap.Current.ID != u.current
	if snap.Current != nil {
		u.current = snap.Current.ID
	}
	if isNew {
		u.shown++
	}
	hold := u.hold
	u.mu.Unlock()
	if onQueue != nil {
		onQueue(snap.Waiting, at)
	}
	if !isNew {
		return
	}
	v := *snap.Current
	if onShow != nil {
		onShow(v, at)
	}
	if hold {
		return
	}
	// The frontend answers over Wails' IPC, on another goroutine.
	go func() {
		var values map[string]any
		_ = json.Unmarshal([]byte(answerJSON), &values)
		if res, err := u.svc.Submit(v.ID, values); err == nil && !res.Sent && len(res.Errors) > 0 {
			panic(fmt.Sprintf("the answer did not validate: %v", res.Errors))
		}
	}()
}

// loopResult is the bench server's elicit_loop result.
type loopResult struct {
	NS    []int64 `json:"ns"`
	Bad   int     `json:"bad"`
	Error string  `json:"error"`
}

func parseToolText(res *sdk.CallToolResult, v any) error {
	if res.IsError {
		return fmt.Errorf("tool error: %s", toolText(res))
	}
	return json.Unmarshal([]byte(toolText(res)), v)
}

func toolText(res *sdk.CallToolResult) string {
	var s strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			s.WriteString(t.Text)
		}
	}
	return s.String()
}

// sdkClient connects a bare go-sdk client with an auto-accept handler to the
// bench server binary.
func sdkClient(b *testing.B, protocol string) *sdk.ClientSession {
	b.Helper()
	var answer map[string]any
	_ = json.Unmarshal([]byte(answerJSON), &answer)
	c := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-bench", Version: "1.0.0"}, &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}}},
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: answer}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(benchServer(b))}, &sdk.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// tsClient is bench/node/tsclient.mjs: a TypeScript SDK client driven batch
// by batch over its stdin.
type tsClient struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	out *bufio.Scanner
}

func nodeDir() string { return filepath.Join(repoRoot(), "bench", "node") }

// requireNode fails (with -require, as make bench sets) or skips when the
// Node side is missing.
func requireNodeModules(b *testing.B) {
	b.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		missing(b, "node is not installed")
	}
	if _, err := os.Stat(filepath.Join(nodeDir(), "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		missing(b, "bench/node is not installed (run: make bench, or npm ci in bench/node)")
	}
}

var flagRequire = flag.Bool("require", false, "fail instead of skipping when a tool, binary or package is missing")

func missing(b *testing.B, why string) {
	b.Helper()
	if *flagRequire {
		b.Fatal(why)
	}
	b.Skip(why)
}

func startTSClient(b *testing.B) *tsClient {
	b.Helper()
	requireNodeModules(b)
	cmd := exec.Command("node", filepath.Join(nodeDir(), "tsclient.mjs"), benchServer(b))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	t := &tsClient{cmd: cmd, in: bufio.NewWriter(stdin), out: bufio.NewScanner(stdout)}
	t.out.Buffer(make([]byte, 1<<20), 64<<20)
	b.Cleanup(func() {
		_, _ = t.in.WriteString("quit\n")
		_ = t.in.Flush()
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	var ready struct {
		Ready bool   `json:"ready"`
		Error string `json:"error"`
	}
	if err := t.read(&ready); err != nil || !ready.Ready {
		b.Fatalf("the TypeScript client did not start: %v %s", err, ready.Error)
	}
	return t
}

func (t *tsClient) read(v any) error {
	if !t.out.Scan() {
		if err := t.out.Err(); err != nil {
			return err
		}
		return fmt.Errorf("the TypeScript client exited")
	}
	return json.Unmarshal(t.out.Bytes(), v)
}

func (t *tsClient) run(n int) (loopResult, error) {
	var r loopResult
	if _, err := fmt.Fprintf(t.in, "run %d\n", n); err != nil {
		return r, err
	}
	if err := t.in.Flush(); err != nil {
		return r, err
	}
	if err := t.read(&r); err != nil {
		return r, err
	}
	if r.Error != "" {
		return r, fmt.Errorf("%s", r.Error)
	}
	return r, nil
}

// Statistics over durations in nanoseconds.

func median(ns []int64) float64 { return quantile(ns, 0.5) }
func p99(ns []int64) float64    { return quantile(ns, 0.99) }

// quantile is the nearest-rank quantile.
func quantile(ns []int64, q float64) float64 {
	if len(ns) == 0 {
		return math.NaN()
	}
	s := slices.Clone(ns)
	slices.Sort(s)
	if q == 0.5 && len(s)%2 == 0 {
		return float64(s[len(s)/2-1]+s[len(s)/2]) / 2
	}
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return float64(s[max(i, 0)])
}

func us(ns float64) float64 { return ns / 1e3 }

// Memory.

// rssKB returns a process's resident set size in kB (/proc/PID/status VmRSS).
func rssKB(pid int) int64 { return procStatusKB(pid, "VmRSS:") }

func procStatusKB(pid int, field string) int64 {
	f, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(f), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			v, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return v
		}
	}
	return 0
}

// pssKB returns a process's proportional set size in kB (smaps_rollup).
func pssKB(pid int) int64 {
	f, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(f), "\n") {
		if rest, ok := strings.CutPrefix(line, "Pss:"); ok {
			v, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return v
		}
	}
	return 0
}

// proc is a process in a tree.
type proc struct {
	pid  int
	ppid int
	exe  string // base name of /proc/PID/exe, or comm
	cmd  string
	pss  int64 // kB, when sampled
}

// tree lists root and every live process below it.
func tree(root int) []proc {
	entries, _ := os.ReadDir("/proc")
	children := map[int][]proc{}
	var self *proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(st), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(st[i+1:]))
		if len(f) < 2 || f[0] == "Z" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		if err != nil {
			comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
			exe = strings.TrimSpace(string(comm))
		}
		p := proc{pid: pid, ppid: ppid, exe: filepath.Base(exe), cmd: strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " "))}
		children[ppid] = append(children[ppid], p)
		if pid == root {
			self = &p
		}
	}
	if self == nil {
		return nil
	}
	all := []proc{*self}
	for i := 0; i < len(all); i++ {
		all = append(all, children[all[i].pid]...)
	}
	return all
}

func mb(kb int64) float64 { return float64(kb) / 1024 }

// goroutines waits up to d for the goroutine count to fall to want or
// below and returns the last count.
func goroutines(want int, d time.Duration) int {
	deadline := time.Now().Add(d)
	for {
		n := runtime.NumGoroutine()
		if n <= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// rawClient is the floor under every client: hand-written JSON-RPC on the
// bench server's stdio that answers each elicitation/create with a canned
// result, decoding only what it must. Its round trip is the server's own
// share plus the pipes; no MCP client can go below it.
type rawClient struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	next int
}

func startRawClient(b *testing.B, protocol string) *rawClient {
	b.Helper()
	cmd := exec.Command(benchServer(b))
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	r := &rawClient{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), next: 1}
	b.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"raw","version":"1"}}}`+"\n", protocol)
	if _, err := io.WriteString(in, init); err != nil {
		b.Fatal(err)
	}
	if _, err := r.out.ReadBytes('\n'); err != nil {
		b.Fatal(err)
	}
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	return r
}

func (r *rawClient) run(n int) (loopResult, error) {
	id := r.next
	r.next++
	var res loopResult
	call := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"elicit_loop","arguments":{"n":%d}}}`+"\n", id, n)
	if _, err := io.WriteString(r.in, call); err != nil {
		return res, err
	}
	for {
		line, err := r.out.ReadBytes('\n')
		if err != nil {
			return res, err
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result *struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				IsError bool `json:"isError"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return res, err
		}
		switch {
		case msg.Method == "elicitation/create":
			reply := append(append([]byte(`{"jsonrpc":"2.0","id":`), msg.ID...), `,"result":{"action":"accept","content":`+answerJSON+"}}\n"...)
			if _, err := r.in.Write(reply); err != nil {
				return res, err
			}
		case msg.Method != "":
			// a notification or another request: not expected, ignored
		case string(msg.ID) == strconv.Itoa(id):
			if msg.Error != nil {
				return res, fmt.Errorf("%s", msg.Error.Message)
			}
			if msg.Result == nil || msg.Result.IsError || len(msg.Result.Content) == 0 {
				return res, fmt.Errorf("elicit_loop failed: %s", line)
			}
			err := json.Unmarshal([]byte(msg.Result.Content[0].Text), &res)
			return res, err
		}
	}
}
