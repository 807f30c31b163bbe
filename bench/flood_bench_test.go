package bench

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

var flagFloodHeap = flag.String("floodheap", "", "P5: write a heap profile (and goroutine dump) 1.5 s into the flood to this file")

// floodResult is the bench server's flood result.
type floodResult struct {
	Sent       int            `json:"sent"`
	Accepted   int            `json:"accepted"`
	Declined   int            `json:"declined"`
	Cancelled  int            `json:"cancelled"`
	Refused    int            `json:"refused"`
	OtherError int            `json:"otherError"`
	Errors     map[string]int `json:"errors"`
	SendMs     float64        `json:"sendMs"`
	AllDoneMs  float64        `json:"allDoneMs"`
}

// BenchmarkP5Flood: server "flooder" sends -flood elicitation/create
// requests, started evenly within 1 s, while server "normal" sends one
// ordinary request 0.5 s into the flood. Both are bench/server processes on
// Gatehouse's whole core (default broker options: burst 5, then 1 per 10 s,
// 10 queued). The person (autoUI) leaves the first request on screen until
// the flood is decided (every request of it is either on screen, waiting,
// or answered by the host), then answers everything at once. Reported: how
// many of the flood were shown, queued and refused with an error (as the
// server saw them), and how long until the flood was decided;
// the growth of this process's RSS (the host; the servers are other
// processes) over its level before the flood; how long the normal request
// took from the server's send to the answerer (its arrival in the waiting
// list the UI shows, and in the dialog); and the goroutines left once the
// flood is over.
func BenchmarkP5Flood(b *testing.B) {
	sizes()
	// The floor first: the same flood on a bare go-sdk client that refuses
	// every request at once. What any go-sdk host pays to receive it.
	floorGrowth, floorRefused := floodFloor(b)
	runtime.GC()
	debug.FreeOSMemory()

	g := newCore(b, protocol)
	g.connect(b, stdioServer(b, "flooder"), stdioServer(b, "normal"))
	ctx := context.Background()

	var (
		mu                        sync.Mutex
		shown                     = map[string]int{}
		queued                    = map[string]bool{}
		maxWaiting                int
		normalSent                time.Time
		normalQueued, normalShown time.Time
	)
	sentOf := func(msg string) time.Time {
		_, v, ok := strings.Cut(msg, "sent=")
		if !ok {
			return time.Time{}
		}
		ns, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		return time.Unix(0, ns)
	}
	g.ui.mu.Lock()
	g.ui.hold = true
	g.ui.onShow = func(v shownView, at time.Time) {
		mu.Lock()
		defer mu.Unlock()
		shown[v.Server.ID]++
		if v.Server.ID == "normal" && normalShown.IsZero() {
			normalShown, normalSent = at, sentOf(v.Message)
		}
	}
	g.ui.onQueue = func(q []queuedView, at time.Time) {
		mu.Lock()
		defer mu.Unlock()
		maxWaiting = max(maxWaiting, len(q))
		for _, e := range q {
			switch e.ServerID {
			case "flooder":
				queued[e.ID] = true
			case "normal":
				if normalQueued.IsZero() {
					normalQueued, normalSent = at, sentOf(e.Message)
				}
			}
		}
	}
	g.ui.mu.Unlock()

	runtime.GC()
	time.Sleep(200 * time.Millisecond)
	baseGoroutines := runtime.NumGoroutine()
	pid := os.Getpid()
	baseRSS := rssKB(pid)
	peakRSS := baseRSS
	peakGoroutines := baseGoroutines
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stopSampling:
				return
			case <-t.C:
				peakRSS = max(peakRSS, rssKB(pid))
				peakGoroutines = max(peakGoroutines, runtime.NumGoroutine())
			}
		}
	}()

	status := b.TempDir() + "/flood-status.json"
	b.ResetTimer()
	start := time.Now()
	var fr floodResult
	var floodErr error
	floodDone := make(chan struct{})
	go func() {
		defer close(floodDone)
		res, err := g.core.Manager.CallTool(ctx, "flooder", "flood", map[string]any{"count": *flagFlood, "spread_ms": 1000, "status": status})
		if err == nil {
			err = parseToolText(res, &fr)
		}
		floodErr = err
	}()
	if *flagFloodHeap != "" {
		go func() {
			time.Sleep(1500 * time.Millisecond)
			f, err := os.Create(*flagFloodHeap)
			if err == nil {
				runtime.GC()
				_ = pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
			if g, err := os.Create(*flagFloodHeap + ".goroutines.txt"); err == nil {
				_ = pprof.Lookup("goroutine").WriteTo(g, 1)
				g.Close()
			}
		}()
	}
	time.Sleep(500 * time.Millisecond)
	var normalAction string
	normalDone := make(chan error, 1)
	go func() {
		res, err := g.core.Manager.CallTool(ctx, "normal", "ask_once", nil)
		if err == nil {
			var r struct {
				Action string `json:"action"`
			}
			err = parseToolText(res, &r)
			normalAction = r.Action
		}
		normalDone <- err
	}()
	// Decided: every flood request the server sent has been answered by the
	// host except those on screen or waiting for the person.
	decided := time.Duration(0)
	for deadline := time.Now().Add(5 * time.Minute); ; {
		var st struct{ Sent, Done int }
		if raw, err := os.ReadFile(status); err == nil {
			_ = json.Unmarshal(raw, &st)
		}
		waiting := 0
		for _, w := range g.core.Broker.Snapshot().Waiting {
			if w.ServerID == "flooder" {
				waiting++
			}
		}
		mu.Lock()
		onScreen := shown["flooder"]
		reached := !normalQueued.IsZero() || !normalShown.IsZero()
		mu.Unlock()
		if st.Sent == *flagFlood && st.Sent-st.Done <= waiting+onScreen && reached {
			decided = time.Since(start)
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the flood was not decided within 5 minutes: %+v, %d waiting, %d shown", st, waiting, onScreen)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The person answers: the one on screen, then the rest as they come.
	g.ui.mu.Lock()
	g.ui.hold = false
	g.ui.mu.Unlock()
	if cur := g.svc.Snapshot().Current; cur != nil {
		var values map[string]any
		_ = json.Unmarshal([]byte(answerJSON), &values)
		_, _ = g.svc.Submit(cur.ID, values)
	}
	if err := <-normalDone; err != nil {
		b.Fatalf("normal request: %v", err)
	}
	<-floodDone
	b.StopTimer()
	close(stopSampling)
	<-sampled
	if floodErr != nil {
		b.Fatalf("flood: %v", floodErr)
	}
	if normalAction != "accept" {
		b.Fatalf("the normal request was answered %q, want accept", normalAction)
	}
	if fr.Sent != *flagFlood {
		b.Fatalf("the flood sent %d, want %d", fr.Sent, *flagFlood)
	}
	left := goroutines(baseGoroutines, 10*time.Second) - baseGoroutines

	mu.Lock()
	defer mu.Unlock()
	reachQueue := normalQueued.Sub(normalSent)
	reachDialog := normalShown.Sub(normalSent)
	reach := reachDialog
	if !normalQueued.IsZero() && reachQueue < reach {
		reach = reachQueue
	}
	b.ReportMetric(float64(fr.Sent), "flood-sent")
	b.ReportMetric(float64(shown["flooder"]), "flood-shown")
	b.ReportMetric(float64(len(queued)), "flood-queued")
	b.ReportMetric(float64(maxWaiting), "max-waiting")
	b.ReportMetric(float64(fr.Refused), "flood-refused")
	b.ReportMetric(float64(fr.Accepted), "flood-accepted")
	b.ReportMetric(float64(fr.Declined+fr.Cancelled), "flood-declined-or-cancelled")
	b.ReportMetric(float64(fr.OtherError), "flood-other-errors")
	b.ReportMetric(fr.SendMs, "flood-send-ms")
	b.ReportMetric(float64(decided.Milliseconds()), "flood-decided-ms")
	b.ReportMetric(mb(baseRSS), "host-rss-before-MB")
	b.ReportMetric(mb(peakRSS-baseRSS), "host-rss-growth-MB")
	b.ReportMetric(float64(reach.Microseconds())/1000, "normal-reach-ms")
	if !normalQueued.IsZero() {
		b.ReportMetric(float64(reachQueue.Microseconds())/1000, "normal-to-queue-ms")
	}
	b.ReportMetric(float64(reachDialog.Microseconds())/1000, "normal-to-dialog-ms")
	b.ReportMetric(float64(peakGoroutines-baseGoroutines), "peak-extra-goroutines")
	b.ReportMetric(floorGrowth, "gosdk-refusing-rss-growth-MB")
	b.ReportMetric(float64(floorRefused), "gosdk-refusing-refused")
	b.ReportMetric(float64(left), "goroutines-left")
	if len(fr.Errors) > 0 {
		b.Logf("other errors: %v", fr.Errors)
	}
}

// floodFloor runs the flood against a bare go-sdk client whose handler
// refuses every request at once (-32000), and returns its RSS growth in MB
// and how many the server saw refused.
func floodFloor(b *testing.B) (float64, int) {
	c := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-bench", Version: "1.0.0"}, &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}}},
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return nil, &jsonrpc.Error{Code: -32000, Message: "too many requests"}
		},
	})
	ctx := context.Background()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(benchServer(b))}, &sdk.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	runtime.GC()
	debug.FreeOSMemory()
	time.Sleep(100 * time.Millisecond)
	pid := os.Getpid()
	base := rssKB(pid)
	peak := base
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				peak = max(peak, rssKB(pid))
			}
		}
	}()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "flood", Arguments: map[string]any{"count": *flagFlood, "spread_ms": 1000}})
	close(stop)
	<-stopped
	var fr floodResult
	if err == nil {
		err = parseToolText(res, &fr)
	}
	if err != nil {
		b.Fatalf("flood on the bare go-sdk client: %v", err)
	}
	return mb(peak - base), fr.Refused
}
