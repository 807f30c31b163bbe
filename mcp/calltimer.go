package mcp

import (
	"context"
	"sync"
	"time"
)

// pauseCheckEvery is how often a call's time limit looks whether the person
// is answering one of its server's requests.
const pauseCheckEvery = 100 * time.Millisecond

// CallTimeout is context.WithTimeout for a tool call to serverID whose clock
// stops while the person answers one of that server's requests (Busy): a
// form being filled in, or a page open in the browser, must not time the
// call out. The context ends with the cause context.DeadlineExceeded when
// the limit is reached; d <= 0 means no limit.
//
// The clock is a timer that looks every pauseCheckEvery, not a goroutine
// waiting on the call: a call that ends sooner (most do) only stops the
// timer, and wakes nothing that the answer would have to wait behind.
func (b *Broker) CallTimeout(parent context.Context, serverID string, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	if d <= 0 {
		return ctx, func() { cancel(context.Canceled) }
	}
	var (
		mu         sync.Mutex // one look at a time; the timer's own
		left, last = d, time.Now()
		timer      *time.Timer
	)
	look := func() {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		now := time.Now()
		if !b.Busy(serverID) {
			left -= now.Sub(last)
		}
		last = now
		if left <= 0 {
			cancel(context.DeadlineExceeded)
			return
		}
		timer.Reset(pauseCheckEvery)
	}
	mu.Lock()
	timer = time.AfterFunc(pauseCheckEvery, look)
	mu.Unlock()
	return ctx, func() {
		cancel(context.Canceled)
		timer.Stop()
	}
}

// Asking reports whether the snapshot holds a request of serverID that the
// person is answering or will answer: a question on screen or waiting, or a
// page it asked for still open. Gatehouse's own questions about a model's
// tool calls are not the server's requests and do not count.
func (s Snapshot) Asking(serverID string) bool {
	if s.Current != nil && s.Current.Server.ID == serverID && s.Current.Kind != KindToolCall {
		return true
	}
	for _, w := range s.Waiting {
		if w.ServerID == serverID && w.Kind != KindToolCall {
			return true
		}
	}
	for _, o := range s.Opened {
		if o.ServerID == serverID {
			return true
		}
	}
	return false
}
