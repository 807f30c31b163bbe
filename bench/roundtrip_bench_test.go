package bench

import (
	"context"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkP1P2RoundTrip measures one elicitation round trip, from the
// server's side: bench/server's elicit_loop sends elicitation/create (a
// 5-field form) and times until the answer arrives, then sends the next.
// The same server binary runs under three clients, each with its own
// process, taking turns batch by batch (the order rotates each round):
//
//   - gatehouse: the whole core: manager → broker (rate limit with the default
//     options, queue, history written to a real data file) → form parsing and
//     validation → app.ElicitationService → autoUI, which receives the event as
//     JSON and answers through Submit, as the dialog does → back;
//   - gosdk: a bare go-sdk client whose handler accepts at once;
//   - ts: a TypeScript SDK client (bench/node/tsclient.mjs) whose handler
//     accepts at once;
//   - floor: no MCP client at all, hand-written JSON-RPC answering with a
//     canned result (rawClient): the server's own share plus the pipes.
//
// One tool call loops over a batch of elicitations, so a round trip is one
// elicitation/create and its answer and nothing else (no tool call in it).
// Protocol 2025-11-25 is pinned: from 2026-07-28 a server cannot send a
// nested elicitation/create during a tool call.
func BenchmarkP1P2RoundTrip(b *testing.B) {
	sizes()
	g := newCore(b, protocol)
	g.connect(b, stdioServer(b, "bench"))
	cs := sdkClient(b, protocol)
	ts := startTSClient(b)
	raw := startRawClient(b, protocol)
	ctx := context.Background()

	type client struct {
		name string
		run  func(n int) (loopResult, error)
		ns   []int64
		bad  int
		wall time.Duration // time in the tool calls, for the log
	}
	clients := []*client{
		{name: "gatehouse", run: func(n int) (loopResult, error) {
			res, err := g.core.Manager.CallTool(ctx, "bench", "elicit_loop", map[string]any{"n": n})
			var r loopResult
			if err == nil {
				err = parseToolText(res, &r)
			}
			return r, err
		}},
		{name: "gosdk", run: func(n int) (loopResult, error) {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "elicit_loop", Arguments: map[string]any{"n": n}})
			var r loopResult
			if err == nil {
				err = parseToolText(res, &r)
			}
			return r, err
		}},
		{name: "ts", run: ts.run},
		{name: "floor", run: raw.run},
	}
	// Warm-up: one small batch each, not counted.
	for _, c := range clients {
		if _, err := c.run(min(20, *flagN)); err != nil {
			b.Fatalf("%s warm-up: %v", c.name, err)
		}
	}
	b.ResetTimer()
	start := time.Now()
	for round := 0; len(clients[0].ns) < *flagN; round++ {
		n := min(*flagBatch, *flagN-len(clients[0].ns))
		for i := range clients {
			c := clients[(round+i)%len(clients)]
			t0 := time.Now()
			r, err := c.run(n)
			c.wall += time.Since(t0)
			if err != nil {
				b.Fatalf("%s: %v", c.name, err)
			}
			c.ns = append(c.ns, r.NS...)
			c.bad += r.Bad
		}
	}
	b.StopTimer()
	for _, c := range clients {
		if c.bad > 0 {
			b.Fatalf("%s: %d answers arrived wrong at the server", c.name, c.bad)
		}
		if len(c.ns) != *flagN {
			b.Fatalf("%s: %d round trips, want %d", c.name, len(c.ns), *flagN)
		}
	}
	for _, c := range clients {
		var sum int64
		for _, v := range c.ns {
			sum += v
		}
		b.Logf("%s: %s in tool calls, %s in round trips", c.name, c.wall.Round(time.Millisecond), time.Duration(sum).Round(time.Millisecond))
	}
	gh, gs, tc, fl := clients[0], clients[1], clients[2], clients[3]
	b.ReportMetric(float64(*flagN), "round-trips/client")
	b.ReportMetric(us(median(gh.ns)), "gatehouse-median-µs")
	b.ReportMetric(us(p99(gh.ns)), "gatehouse-p99-µs")
	b.ReportMetric(us(median(gs.ns)), "gosdk-median-µs")
	b.ReportMetric(us(p99(gs.ns)), "gosdk-p99-µs")
	b.ReportMetric(us(median(tc.ns)), "ts-median-µs")
	b.ReportMetric(us(p99(tc.ns)), "ts-p99-µs")
	b.ReportMetric(us(median(fl.ns)), "floor-median-µs")
	b.ReportMetric(us(p99(fl.ns)), "floor-p99-µs")
	b.ReportMetric(median(gh.ns)/median(gs.ns), "P1-ratio-median")
	b.ReportMetric(p99(gh.ns)/p99(gs.ns), "P1-ratio-p99")
	b.ReportMetric(median(gh.ns)/median(tc.ns), "P2-ratio-median")
	b.ReportMetric(p99(gh.ns)/p99(tc.ns), "P2-ratio-p99")
	b.Logf("%d round trips per client in %s, interleaved in batches of %d", *flagN, time.Since(start).Round(time.Millisecond), *flagBatch)
}

// BenchmarkP1InputRequests is the optional 2026-07-28 path: the server
// returns the form as an input request, the client fulfils it and calls the
// tool again with the answer. One round trip here is a whole tool call
// (call → input request → answer → retried call → result), timed by the
// client, Gatehouse's core vs a bare go-sdk client, interleaved.
func BenchmarkP1InputRequests(b *testing.B) {
	sizes()
	g := newCore(b, "")
	g.connect(b, stdioServer(b, "bench"))
	cs := sdkClient(b, "")
	ctx := context.Background()
	n := max(*flagN/4, 10)
	var gh, gs []int64
	call := func(f func() (*sdk.CallToolResult, error)) int64 {
		start := time.Now()
		res, err := f()
		d := time.Since(start).Nanoseconds()
		var r struct {
			Good bool `json:"good"`
		}
		if err == nil {
			err = parseToolText(res, &r)
		}
		if err != nil || !r.Good {
			b.Fatalf("input_loop: %v (good=%v)", err, r.Good)
		}
		return d
	}
	args := map[string]any{}
	for i := range n {
		ghCall := func() {
			gh = append(gh, call(func() (*sdk.CallToolResult, error) { return g.core.Manager.CallTool(ctx, "bench", "input_loop", args) }))
		}
		gsCall := func() {
			gs = append(gs, call(func() (*sdk.CallToolResult, error) {
				return cs.CallTool(ctx, &sdk.CallToolParams{Name: "input_loop", Arguments: args})
			}))
		}
		if i%2 == 0 {
			ghCall()
			gsCall()
		} else {
			gsCall()
			ghCall()
		}
	}
	if st, _ := g.core.Manager.Status("bench"); st.ProtocolVersion < "2026-07-28" {
		b.Fatalf("negotiated %s, want 2026-07-28 or later", st.ProtocolVersion)
	}
	b.ReportMetric(float64(n), "calls/client")
	b.ReportMetric(us(median(gh)), "gatehouse-median-µs")
	b.ReportMetric(us(p99(gh)), "gatehouse-p99-µs")
	b.ReportMetric(us(median(gs)), "gosdk-median-µs")
	b.ReportMetric(us(p99(gs)), "gosdk-p99-µs")
	b.ReportMetric(median(gh)/median(gs), "ratio-median")
}
