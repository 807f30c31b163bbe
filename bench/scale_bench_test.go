package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/store"
)

// BenchmarkP6Scale configures -servers stdio servers (bench/server
// processes) in a fresh data file and starts them as the GUI does
// (app.OpenCore, then ConnectAll, with the server list sent to the UI as
// events on every status change). Reported: the time from ConnectAll until
// the UI's server list (the last EventServers) shows every server
// connected, and this process's (the host's) RSS and PSS before and after,
// beside the servers' own PSS. The floor, first, in the same process: the
// same n servers connected by n bare go-sdk clients at once (the time until
// the last Connect returns, and the RSS it added), then closed again.
func BenchmarkP6Scale(b *testing.B) {
	sizes()
	n := *flagServers
	floorTook, floorGrowth := connectFloor(b, n)
	runtime.GC()
	debug.FreeOSMemory()
	dir := b.TempDir()
	st, err := store.Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.MarkInitialized(); err != nil { // no demo server
		b.Fatal(err)
	}
	for i := range n {
		s := stdioServer(b, "")
		s.Name = fmt.Sprintf("Server %02d", i+1)
		if _, err := st.PutServer(s); err != nil {
			b.Fatal(err)
		}
	}
	st.Close()

	core, err := app.OpenCore(app.CoreOptions{DataDir: dir, DemoCommand: "true"})
	if err != nil {
		b.Fatal(err)
	}
	defer core.Close()
	ui := &listUI{all: make(chan time.Time, 1), want: n}
	core.SetEmitter(ui)
	runtime.GC()
	time.Sleep(200 * time.Millisecond)
	pid := os.Getpid()
	rssBefore, pssBefore := rssKB(pid), pssKB(pid)

	b.ResetTimer()
	start := time.Now()
	if err := core.ConnectAll(); err != nil {
		b.Fatal(err)
	}
	var took time.Duration
	select {
	case at := <-ui.all:
		took = at.Sub(start)
	case <-time.After(2 * time.Minute):
		b.Fatalf("not all %d servers connected within 2 minutes (%d events)", n, ui.events)
	}
	b.StopTimer()
	time.Sleep(time.Second) // let the lists settle
	rssAfter, pssAfter := rssKB(pid), pssKB(pid)
	var serversPSS int64
	var count int
	for _, p := range tree(pid)[1:] {
		if p.exe == "bench-server" {
			serversPSS += pssKB(p.pid)
			count++
		}
	}
	if count != n {
		b.Fatalf("%d server processes, want %d", count, n)
	}
	b.ReportMetric(float64(n), "servers")
	b.ReportMetric(float64(took.Microseconds())/1000, "all-connected-ms")
	b.ReportMetric(mb(rssBefore), "host-rss-before-MB")
	b.ReportMetric(mb(rssAfter), "host-rss-after-MB")
	b.ReportMetric(mb(pssBefore), "host-pss-before-MB")
	b.ReportMetric(mb(pssAfter), "host-pss-after-MB")
	b.ReportMetric(mb(rssAfter-rssBefore), "host-rss-growth-MB")
	b.ReportMetric(mb(serversPSS)/float64(n), "server-pss-each-MB")
	b.ReportMetric(float64(ui.events), "server-list-events")
	b.ReportMetric(float64(floorTook.Microseconds())/1000, "floor-all-connected-ms")
	b.ReportMetric(mb(floorGrowth), "floor-rss-growth-MB")
	b.ReportMetric(float64(took)/float64(floorTook), "connect-ratio")
}

// connectFloor connects n bench servers with n bare go-sdk clients at once
// and returns how long until every one was connected and the RSS (kB) this
// process grew by; the sessions are closed before it returns.
func connectFloor(b *testing.B, n int) (time.Duration, int64) {
	b.Helper()
	bin := benchServer(b)
	runtime.GC()
	time.Sleep(200 * time.Millisecond)
	pid := os.Getpid()
	before := rssKB(pid)
	sessions := make([]*sdk.ClientSession, n)
	errs := make([]error, n)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			c := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-floor", Version: "1.0.0"}, nil)
			sessions[i], errs[i] = c.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(bin)}, nil)
		})
	}
	wg.Wait()
	took := time.Since(start)
	time.Sleep(time.Second) // as Gatehouse's lists settle
	growth := rssKB(pid) - before
	for i, cs := range sessions {
		if cs != nil {
			_ = cs.Close()
		}
		if errs[i] != nil {
			b.Fatalf("floor client %d: %v", i, errs[i])
		}
	}
	return took, growth
}

// listUI stands where the frontend's server list does: it decodes every
// EventServers and notes when all servers show connected.
type listUI struct {
	mu     sync.Mutex
	want   int
	events int
	done   bool
	all    chan time.Time
}

func (u *listUI) Emit(name string, data any) {
	if name != app.EventServers {
		return
	}
	at := time.Now()
	raw, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	var sent struct {
		Servers []struct {
			Status struct {
				State string `json:"state"`
			} `json:"status"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(raw, &sent); err != nil {
		panic(err)
	}
	list := sent.Servers
	u.mu.Lock()
	defer u.mu.Unlock()
	u.events++
	connected := 0
	for _, s := range list {
		if s.Status.State == "connected" {
			connected++
		}
	}
	if connected == u.want && len(list) == u.want && !u.done {
		u.done = true
		u.all <- at
	}
}
