package mcp

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// TestCoalescer: values are passed on at most once per Every, the newest of
// those that came meanwhile, in order; nothing gathered is lost unless it
// came after Close.
func TestCoalescer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		every time.Duration
		do    func(c *Coalescer[int])
		want  []int
	}{
		{"the first value goes at once", time.Hour, func(c *Coalescer[int]) { c.Put(1) }, []int{1}},
		{"values that come too soon wait, and only the newest goes", time.Hour, func(c *Coalescer[int]) {
			for i := 1; i <= 1000; i++ {
				c.Put(i)
			}
			c.Flush()
		}, []int{1, 1000}},
		{"a flush with nothing gathered sends nothing", time.Hour, func(c *Coalescer[int]) {
			c.Put(1)
			c.Flush()
			c.Flush()
		}, []int{1}},
		{"close sends what was gathered and drops what comes after", time.Hour, func(c *Coalescer[int]) {
			c.Put(1)
			c.Put(2)
			c.Close()
			c.Put(3)
			c.Flush()
		}, []int{1, 2}},
		{"the gathered value goes by itself when the time has passed", 10 * time.Millisecond, func(c *Coalescer[int]) {
			c.Put(1)
			c.Put(2)
			c.Put(3)
		}, []int{1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var (
				mu   sync.Mutex
				sent []int
			)
			c := &Coalescer[int]{Every: tc.every, Send: func(v int) {
				mu.Lock()
				sent = append(sent, v)
				mu.Unlock()
			}}
			tc.do(c)
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				mu.Lock()
				n := len(sent)
				mu.Unlock()
				if n >= len(tc.want) {
					break
				}
			}
			if tc.every < time.Second {
				time.Sleep(3 * tc.every) // a value sent that should not be would show by now
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(sent, tc.want) {
				t.Errorf("sent %v, want %v", sent, tc.want)
			}
		})
	}
}
