package mcp

import (
	"sync"
	"time"
)

// A Coalescer passes a stream of values on at most once per Every, the
// newest first: a value that comes when Every has passed since the last
// one sent goes at once; values that come sooner are gathered, and the
// newest of them goes when Every has passed. Nothing gathered is lost:
// Flush sends it at once. Send is never called twice at the same time, and
// values are sent in the order they came. A server that floods its client
// with notifications (progress, list changes) must not flood the window
// with events (issue 22, item 7).
//
// Set Every and Send before the first Put; the zero Coalescer is not usable.
type Coalescer[T any] struct {
	// Every is the least time between two sends.
	Every time.Duration
	// Send passes a value on; it is called with the Coalescer's lock held
	// (which keeps the order), so it must not call Put or Flush.
	Send func(T)

	mu      sync.Mutex
	pending T
	has     bool      // pending holds a value not sent yet
	last    time.Time // when a value was last sent
	timer   *time.Timer
	closed  bool
}

// Put sends v, or gathers it to be sent when Every has passed. After
// Close it does nothing.
func (c *Coalescer[T]) Put(v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.pending, c.has = v, true
	if c.timer != nil {
		return // the timer sends the newest
	}
	if wait := c.Every - time.Since(c.last); wait > 0 {
		c.timer = time.AfterFunc(wait, c.Flush)
		return
	}
	c.sendLocked()
}

// Flush sends the gathered value, if any, at once.
func (c *Coalescer[T]) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if c.has {
		c.sendLocked()
	}
}

// Close sends the gathered value, if any, at once, and makes later Puts do
// nothing: for the end of what the values were about (a request's
// progress after its result is of no use).
func (c *Coalescer[T]) Close() {
	c.Flush()
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
}

func (c *Coalescer[T]) sendLocked() {
	v := c.pending
	var zero T
	c.pending, c.has = zero, false
	c.last = time.Now()
	c.Send(v)
}
