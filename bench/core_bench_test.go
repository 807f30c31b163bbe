package bench

import (
	"context"
	"testing"
)

// BenchmarkCoreRoundTrip is P1's Gatehouse side alone, for a CPU profile of
// the core without the other clients in the same process: b.N elicitation
// round trips of bench/server's elicit_loop through the manager, the broker,
// the window's event (as JSON) and autoUI's Submit, in batches of -batch.
//
//	go test -run '^$' -bench CoreRoundTrip -benchtime 20000x ./bench/ -cpuprofile cpu.out
func BenchmarkCoreRoundTrip(b *testing.B) {
	sizes()
	g := newCore(b, protocol)
	g.connect(b, stdioServer(b, "bench"))
	ctx := context.Background()
	call := func(n int) loopResult {
		res, err := g.core.Manager.CallTool(ctx, "bench", "elicit_loop", map[string]any{"n": n})
		var r loopResult
		if err == nil {
			err = parseToolText(res, &r)
		}
		if err != nil || r.Bad > 0 || len(r.NS) != n {
			b.Fatalf("elicit_loop: %v (%d bad, %d of %d round trips)", err, r.Bad, len(r.NS), n)
		}
		return r
	}
	call(min(20, *flagBatch)) // warm-up
	var ns []int64
	b.ResetTimer()
	for left := b.N; left > 0; {
		n := min(left, *flagBatch)
		ns = append(ns, call(n).NS...)
		left -= n
	}
	b.StopTimer()
	b.ReportMetric(us(median(ns)), "median-µs")
}
