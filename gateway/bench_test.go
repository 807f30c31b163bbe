package gateway

import (
	"context"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gatehouse-app/gatehouse/store"
)

// BenchmarkGatewayCallOverhead (issue 25, P11): the median time of one
// tools/call of server-everything's echo from a go-sdk client, directly on
// the server (stdio) and through the gateway (policy: allow), in the same
// run. Reported as direct-ms, gateway-ms and added-ms.
func BenchmarkGatewayCallOverhead(b *testing.B) {
	f := newFixture(b, allowOnce, Limits{PerSecond: 1e6, Burst: 1e6, InFlight: 16})
	entry := filepath.Join(f.peers, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	srv, err := f.st.PutServer(store.Server{Name: "Everything", Enabled: true, Transport: store.TransportStdio,
		Stdio: &store.StdioConfig{Command: "node", Args: []string{entry, "stdio"}}})
	if err != nil {
		b.Fatal(err)
	}
	f.m.Set(srv)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := f.m.WaitConnected(ctx, srv.ID); err != nil {
		b.Fatal(err)
	}
	if err := f.st.PutToolPolicy(srv.ID, store.ToolPolicy{Mode: store.ToolAllow}); err != nil {
		b.Fatal(err)
	}
	direct, err := sdk.NewClient(&sdk.Implementation{Name: "direct"}, nil).Connect(ctx,
		&sdk.CommandTransport{Command: exec.Command("node", entry, "stdio")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer direct.Close()
	through, err := sdk.NewClient(&sdk.Implementation{Name: "through"}, nil).Connect(ctx, f.serve(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer through.Close()
	median := func(cs *sdk.ClientSession, name string) time.Duration {
		var times []time.Duration
		for range 200 {
			start := time.Now()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: map[string]any{"message": "hi"}})
			if err != nil || res.IsError {
				b.Fatalf("%s: %+v, %v", name, res, err)
			}
			times = append(times, time.Since(start))
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		return times[len(times)/2]
	}
	b.ResetTimer()
	for range b.N {
		d := median(direct, "echo")
		g := median(through, "Everything__echo")
		b.ReportMetric(float64(d.Microseconds())/1000, "direct-ms")
		b.ReportMetric(float64(g.Microseconds())/1000, "gateway-ms")
		b.ReportMetric(float64((g-d).Microseconds())/1000, "added-ms")
	}
}
