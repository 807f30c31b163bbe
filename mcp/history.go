package mcp

import (
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/store"
)

// historyWriter writes history entries off the answer's path: the server
// gets its answer without waiting for the disk, and a flood's thousands of
// refusals are written a few transactions at a time instead of one disk
// sync each (issue 6, P1 and P5). Its goroutine runs only while entries
// wait. Flush waits until everything recorded so far is written.
type historyWriter struct {
	add func([]store.HistoryEntry) error

	mu      sync.Mutex
	done    *sync.Cond
	pending []store.HistoryEntry
	running bool
}

func newHistoryWriter(add func([]store.HistoryEntry) error) *historyWriter {
	w := &historyWriter{add: add}
	w.done = sync.NewCond(&w.mu)
	return w
}

// record queues e. Beyond store.MaxHistory waiting entries the oldest are
// dropped: the history keeps no more than that anyway.
func (w *historyWriter) record(e store.HistoryEntry) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = append(w.pending, e)
	if n := len(w.pending) - store.MaxHistory; n > 0 {
		w.pending = w.pending[n:]
	}
	if !w.running {
		w.running = true
		go w.run()
	}
}

// historyGather is how long the writer lets entries gather before a write:
// a conversation of quick answers costs one disk sync, not one each. At
// 25 ms a server asking back to back still paid a sync (about 0.75 ms of
// CPU on 2 cores) every 25 answers, beside the answers themselves (issue
// 15, P2); a tenth of a second is still far below anything a person sees,
// and the history is flushed before it is read and before the store closes.
const historyGather = 100 * time.Millisecond

func (w *historyWriter) run() {
	time.Sleep(historyGather)
	w.mu.Lock()
	for len(w.pending) > 0 {
		batch := w.pending
		w.pending = nil
		w.mu.Unlock()
		// History is a record for the person; failing to write it must not
		// fail a request, so the error is dropped.
		_ = w.add(batch)
		w.mu.Lock()
	}
	w.running = false
	w.done.Broadcast()
	w.mu.Unlock()
}

// flush waits until every entry recorded before it is written.
func (w *historyWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.running {
		w.done.Wait()
	}
}
