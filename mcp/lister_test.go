package mcp

import (
	"sync"
	"testing"
	"time"
)

// TestLister_OneInFlightOneWaiting: while a listing runs, any number of
// requests make one more listing, which starts after it; listings never
// overlap.
func TestLister_OneInFlightOneWaiting(t *testing.T) {
	for _, tc := range []struct {
		name      string
		requests  int // while the first listing runs
		wantRuns  int
		runBefore bool // a run (connecting) holds the lister when they come
	}{
		{"one request runs once", 0, 1, false},
		{"a thousand requests during a listing make one more", 1000, 2, false},
		{"requests during a connection's listing make one after it", 1000, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var (
				l       lister
				mu      sync.Mutex
				runs    int
				running int
				overlap bool
			)
			release := make(chan struct{})
			started := make(chan struct{}, 2000)
			list := func() {
				mu.Lock()
				runs++
				running++
				overlap = overlap || running > 1
				mu.Unlock()
				started <- struct{}{}
				<-release
				mu.Lock()
				running--
				mu.Unlock()
			}
			connected := make(chan struct{})
			if tc.runBefore {
				go func() { l.run(list); close(connected) }()
			} else {
				l.request(list)
				close(connected)
			}
			<-started // the first listing runs
			for range tc.requests {
				l.request(list)
			}
			close(release)
			<-connected
			deadline := time.After(10 * time.Second)
			for range tc.wantRuns - 1 {
				select {
				case <-started:
				case <-deadline:
					t.Fatal("the waiting listing never ran")
				}
			}
			l.run(func() {}) // waits for the listing in flight
			mu.Lock()
			defer mu.Unlock()
			if runs != tc.wantRuns || overlap {
				t.Errorf("%d listings (overlapping: %v), want %d one after another", runs, overlap, tc.wantRuns)
			}
		})
	}
}
