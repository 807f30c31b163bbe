package bench

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/applink"
	"github.com/gatehouse-app/gatehouse/store"
)

var (
	flagGwCalls   = flag.Int("gwcalls", 400, "P11: tool calls each way (direct, through the gateway), interleaved")
	flagGwServers = flag.Int("gwservers", 20, "P11: servers behind the gateway for tools/list")
	flagGwLists   = flag.Int("gwlists", 50, "P11: tools/list calls through the gateway")
)

// gwPace spaces the timed requests through the gateway: under its rate
// limit of 20 a second.
const gwPace = 55 * time.Millisecond

// gwServerTools is how many tools each P11 server lists besides the bench
// server's own four (bench/server -tools).
const gwServerTools = 10

// BenchmarkP11Gateway measures P11 (issue 25): what the gateway adds to a
// tool call another app makes through it. The production app runs on Xvfb
// with -gwservers bench servers (each listing 14 tools), every server's
// policy "allow"; a go-sdk client launches `gatehouse --data-dir DIR
// gateway` as another app would (the production binary, which runs the
// gatehouse-gateway beside it), and a second go-sdk client launches the
// first server's own program directly. Both call the same tool
// (lookup_0001, which answers at once) -gwcalls times, taking turns call
// by call; the medians are compared (goal: at most 1 ms and 1.3× added).
// A third client calls the same server through bench/relay, a program that
// only copies bytes: the floor, the least two more processes on the way
// add on this machine; the gateway's median is also given against it.
// The pairs are paced, one every gwPace: the gateway refuses an app more
// than 20 requests a second (gateway.DefaultLimits), and the limit stays.
// Then tools/list through the gateway, over all the servers, -gwlists
// times (goal: median at most 50 ms), and the resident memory of the
// gateway's process, the one the other app launched (goal: at most 20 MB).
func BenchmarkP11Gateway(b *testing.B) {
	sizes()
	if *flagQuick {
		for name, v := range map[string]string{"gwcalls": "20", "gwservers": "3", "gwlists": "3"} {
			if !isSet(name) {
				_ = flag.Set(name, v)
			}
		}
	}
	bin := gatehouseBin(b)
	if _, err := os.Stat(filepath.Join(filepath.Dir(bin), "gatehouse-gateway")); err != nil {
		missing(b, "gatehouse-gateway is not beside "+bin+" (make build makes both)")
	}
	server := benchServer(b)
	d := newDesktop(b)

	data, core := emptyDataDir(b)
	for i := range *flagGwServers {
		srv, err := core.Store.PutServer(store.Server{Name: fmt.Sprintf("Bench %02d", i+1), Enabled: true, Transport: store.TransportStdio,
			Stdio: &store.StdioConfig{Command: server, Args: []string{"-tools", fmt.Sprint(gwServerTools)}}})
		if err == nil {
			err = core.Store.PutToolPolicy(srv.ID, store.ToolPolicy{Mode: store.ToolAllow})
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	core.Close()
	app := d.startApp(b, bin, data)
	waitGatewaySocket(b, d, data, 60*time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	gwCmd := exec.Command(bin, "--data-dir", data, "gateway")
	gwCmd.Env = d.env()
	through, err := sdk.NewClient(&sdk.Implementation{Name: "p11-agent", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: gwCmd}, nil)
	if err != nil {
		b.Fatalf("connecting through the gateway: %v", err)
	}
	defer through.Close()
	direct, err := sdk.NewClient(&sdk.Implementation{Name: "p11-agent", Version: "1"}, nil).Connect(ctx,
		&sdk.CommandTransport{Command: exec.Command(server, "-tools", fmt.Sprint(gwServerTools))}, nil)
	if err != nil {
		b.Fatalf("connecting to the server directly: %v", err)
	}
	defer direct.Close()
	// The floor: the same server behind a program that only copies bytes
	// (bench/relay), two processes more, as through the gateway.
	relayed, err := sdk.NewClient(&sdk.Implementation{Name: "p11-agent", Version: "1"}, nil).Connect(ctx,
		&sdk.CommandTransport{Command: exec.Command(benchRelay(b), server, "-tools", fmt.Sprint(gwServerTools))}, nil)
	if err != nil {
		b.Fatalf("connecting to the server through the relay: %v", err)
	}
	defer relayed.Close()

	// The same app's gateway socket dialled from here, without the pipe
	// process: what the pipe's hop adds (reported, not judged).
	sock, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: gatewaySocket(b, d, data), Net: "unix"})
	if err != nil {
		b.Fatal(err)
	}
	onSocket, err := sdk.NewClient(&sdk.Implementation{Name: "p11-agent", Version: "1"}, nil).Connect(ctx,
		&sdk.IOTransport{Reader: sock, Writer: sock}, nil)
	if err != nil {
		b.Fatalf("connecting on the gateway socket: %v", err)
	}
	defer onSocket.Close()

	// The first listing waits for the servers still connecting: all of
	// them must be there before anything is timed.
	wantTools := *flagGwServers * (4 + gwServerTools)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		res, err := through.ListTools(ctx, nil)
		if err != nil {
			b.Fatalf("tools/list through the gateway: %v", err)
		}
		if len(res.Tools) == wantTools {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("tools/list through the gateway: %d tools, want %d", len(res.Tools), wantTools)
		}
		time.Sleep(200 * time.Millisecond)
	}

	call := func(cs *sdk.ClientSession, name string) int64 {
		start := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: map[string]any{"id": "a1"}})
		took := time.Since(start).Nanoseconds()
		if err != nil || res.IsError {
			b.Fatalf("calling %s: %v %+v", name, err, res)
		}
		return took
	}
	b.ResetTimer()
	for range b.N {
		// Warm both (the first calls load code and fill caches).
		for range 20 {
			call(direct, "lookup_0001")
			call(relayed, "lookup_0001")
			call(through, "Bench_01__lookup_0001")
			call(onSocket, "Bench_01__lookup_0001")
		}
		time.Sleep(3 * time.Second) // the rate limit's bucket fills again
		pace := time.NewTicker(gwPace)
		loopFrom, cpuBefore := time.Now(), treeCPU(app.Process.Pid)["app"]
		var dNs, fNs, gNs, sNs []int64
		for i := range *flagGwCalls {
			<-pace.C
			dNs = append(dNs, call(direct, "lookup_0001"))
			fNs = append(fNs, call(relayed, "lookup_0001"))
			gNs = append(gNs, call(through, "Bench_01__lookup_0001"))
			if i%2 == 0 { // one app's limit is shared by both of its sessions
				sNs = append(sNs, call(onSocket, "Bench_01__lookup_0001"))
			}
		}
		loopCPU, loopTime := treeCPU(app.Process.Pid)["app"]-cpuBefore, time.Since(loopFrom)
		// The app's CPU time while it serves nothing (its window, its
		// timers), as long again, to take off: what is left is the
		// calls' (USER_HZ ticks of 10 ms: a rough figure).
		idleCPU := treeCPU(app.Process.Pid)["app"]
		time.Sleep(loopTime / 2)
		idleCPU = 2 * (treeCPU(app.Process.Pid)["app"] - idleCPU)
		b.ReportMetric((loopCPU-idleCPU).Seconds()*1e6/float64(len(gNs)+len(sNs)), "app-cpu-per-call-µs")
		b.ReportMetric(idleCPU.Seconds()*1e3/loopTime.Seconds(), "app-idle-cpu-ms/s")
		var lists []int64
		for range *flagGwLists {
			<-pace.C
			start := time.Now()
			res, err := through.ListTools(ctx, nil)
			if err != nil || len(res.Tools) != wantTools {
				b.Fatalf("tools/list: %v (%d tools)", err, len(res.Tools))
			}
			lists = append(lists, time.Since(start).Nanoseconds())
		}
		pace.Stop()
		dMed, gMed := median(dNs), median(gNs)
		b.ReportMetric(us(dMed), "direct-median-µs")
		b.ReportMetric(us(gMed), "gateway-median-µs")
		b.ReportMetric(us(gMed-dMed), "added-median-µs")
		b.ReportMetric(gMed/dMed, "ratio-median")
		b.ReportMetric(us(median(sNs)), "socket-median-µs")
		fMed := median(fNs)
		b.ReportMetric(us(fMed), "floor-median-µs")
		b.ReportMetric(us(fMed-dMed), "floor-added-µs")
		b.ReportMetric(fMed/dMed, "floor-ratio")
		b.ReportMetric(gMed/fMed, "vs-floor-ratio")
		b.ReportMetric(us(p99(dNs)), "direct-p99-µs")
		b.ReportMetric(us(p99(gNs)), "gateway-p99-µs")
		b.ReportMetric(float64(*flagGwCalls), "calls")
		b.ReportMetric(median(lists)/1e6, "list-median-ms")
		b.ReportMetric(float64(wantTools), "list-tools")
		b.ReportMetric(float64(*flagGwServers), "servers")
		b.ReportMetric(float64(rssKB(gwCmd.Process.Pid))/1024, "gateway-rss-MB")
		exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", gwCmd.Process.Pid))
		if filepath.Base(exe) != "gatehouse-gateway" {
			b.Errorf("the gateway session is served by %s, not gatehouse-gateway", exe)
		}
	}
}

// waitGatewaySocket waits until the app on data serves the gateway socket
// (in the desktop's XDG_RUNTIME_DIR), so that `gatehouse gateway` finds it
// rather than starting a second app.
func waitGatewaySocket(b *testing.B, d *desktop, data string, timeout time.Duration) {
	b.Helper()
	path := gatewaySocket(b, d, data)
	deadline := time.Now().Add(timeout)
	for {
		if fi, err := os.Stat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("the app did not serve the gateway at %s in %v", path, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// gatewaySocket is the path of the gateway socket of the app on data, on
// the desktop.
func gatewaySocket(b *testing.B, d *desktop, data string) string {
	b.Helper()
	b.Setenv("XDG_RUNTIME_DIR", d.home)
	path, err := applink.GatewaySocketPath(data)
	if err != nil {
		b.Fatal(err)
	}
	return path
}
