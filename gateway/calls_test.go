package gateway

import (
	"context"
	"sync"
	"testing"
	"time"
)

// watchedContext stands for a client's connection: a context of its own
// kind, so the standard library registers each context made from it
// through its AfterFunc, and lets go (the stop function) when the child is
// cancelled. It counts those still listening for its end.
type watchedContext struct {
	context.Context
	done      chan struct{}
	mu        sync.Mutex
	listening int
}

func newWatchedContext() *watchedContext {
	return &watchedContext{Context: context.Background(), done: make(chan struct{})}
}

// Done is a channel of its own, never closed here: not a cancelCtx's.
func (w *watchedContext) Done() <-chan struct{} { return w.done }

// AfterFunc is what context.WithCancel and WithTimeout call to listen.
func (w *watchedContext) AfterFunc(func()) func() bool {
	w.mu.Lock()
	w.listening++
	w.mu.Unlock()
	var once sync.Once
	return func() bool {
		stopped := false
		once.Do(func() {
			w.mu.Lock()
			w.listening--
			w.mu.Unlock()
			stopped = true
		})
		return stopped
	}
}

func (w *watchedContext) stillListening() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.listening
}

// A call's wait for its server (admit) lets go of the client's context
// when the wait is over, with or without a time limit: a client that
// makes many calls on one connection must not pile up contexts that live
// until it leaves.
func TestWithinLimit_LetsGoOfTheClientsContext(t *testing.T) {
	for _, limit := range []time.Duration{0, time.Minute} {
		parent := newWatchedContext()
		for range 100 {
			ctx, stop := withinLimit(parent, limit)
			if _, has := ctx.Deadline(); has != (limit > 0) {
				t.Fatalf("limit %v: deadline set = %v", limit, has)
			}
			stop()
		}
		if n := parent.stillListening(); n != 0 {
			t.Errorf("limit %v: after 100 waits, %d contexts still hang on the client's", limit, n)
		}
	}
}

// The limit ends the wait.
func TestWithinLimit_EndsTheWait(t *testing.T) {
	ctx, stop := withinLimit(context.Background(), 10*time.Millisecond)
	defer stop()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a 10 ms limit did not end the wait in 10 s")
	}
}
