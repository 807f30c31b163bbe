package app

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLaterStart checks that the window's later start runs exactly once:
// when the page says it has drawn, or after the wait without a word, and
// never after the window closed.
func TestLaterStart(t *testing.T) {
	cases := []struct {
		name  string
		steps func(l *laterStart, run func())
		wait  time.Duration // how long the case waits before counting
		want  int32
	}{
		{"the page says it drew", func(l *laterStart, run func()) {
			l.arm(run, time.Hour)
			(&StartService{later: l}).Drawn()
		}, 0, 1},
		{"the page says so before the window's start arms it", func(l *laterStart, run func()) {
			(&StartService{later: l}).Drawn()
			l.arm(run, time.Hour)
		}, 0, 1},
		{"the page says so many times", func(l *laterStart, run func()) {
			l.arm(run, time.Hour)
			s := &StartService{later: l}
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(s.Drawn)
			}
			wg.Wait()
		}, 0, 1},
		{"no word from the page: after the wait", func(l *laterStart, run func()) {
			l.arm(run, 10*time.Millisecond)
		}, 200 * time.Millisecond, 1},
		{"the word and the wait: once", func(l *laterStart, run func()) {
			l.arm(run, 5*time.Millisecond)
			time.Sleep(20 * time.Millisecond)
			(&StartService{later: l}).Drawn()
		}, 50 * time.Millisecond, 1},
		{"the window closed first", func(l *laterStart, run func()) {
			l.arm(run, 10*time.Millisecond)
			l.stop()
			(&StartService{later: l}).Drawn()
		}, 100 * time.Millisecond, 0},
		{"not armed: nothing runs", func(l *laterStart, run func()) {
			(&StartService{later: l}).Drawn()
		}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var runs atomic.Int32
			c.steps(&laterStart{}, func() { runs.Add(1) })
			time.Sleep(c.wait)
			if got := runs.Load(); got != c.want {
				t.Errorf("ran %d times, want %d", got, c.want)
			}
		})
	}
}

// TestStartService_Drawn_withoutWindow checks that the page's word is
// harmless where no window start exists (the Wails CLI reading bindings).
func TestStartService_Drawn_withoutWindow(t *testing.T) {
	(&StartService{}).Drawn()
}
