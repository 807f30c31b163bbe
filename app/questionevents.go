package app

import (
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// questionEvents sends the broker's snapshots to the window, in the order
// they were published, from one goroutine that stays while they keep coming
// (issue 15, P2). The broker publishes on the goroutine that changed its
// state: for a new question, the go-sdk's goroutine for that one request,
// which starts with a small stack and grew (copied) it on every request to
// encode the snapshot as the event's JSON. Here the encoding runs on a stack
// already grown for it, and the request's goroutine goes back to waiting
// for the answer at once. The window renders the newest version, so the
// order is all that matters; nothing is dropped.
type questionEvents struct {
	send func(mcp.Snapshot)
	wake chan struct{} // buffered 1: there is something in queue

	mu      sync.Mutex
	queue   []mcp.Snapshot
	running bool
}

// questionEventsLinger is how long the sending goroutine waits for the next
// snapshot before it ends: longer than a person's or a server's pause
// between questions in a quick exchange, short enough that an idle app
// keeps no goroutine for it.
const questionEventsLinger = 2 * time.Second

func newQuestionEvents(send func(mcp.Snapshot)) *questionEvents {
	return &questionEvents{send: send, wake: make(chan struct{}, 1)}
}

// post queues snap for the window; it does not wait for the sending.
func (e *questionEvents) post(snap mcp.Snapshot) {
	e.mu.Lock()
	e.queue = append(e.queue, snap)
	start := !e.running
	e.running = true
	e.mu.Unlock()
	if start {
		go e.run()
		return
	}
	select {
	case e.wake <- struct{}{}:
	default: // already woken
	}
}

func (e *questionEvents) run() {
	linger := time.NewTimer(questionEventsLinger)
	defer linger.Stop()
	for {
		e.mu.Lock()
		next := e.queue
		e.queue = nil
		e.mu.Unlock()
		for _, snap := range next {
			e.send(snap)
		}
		if len(next) > 0 {
			linger.Reset(questionEventsLinger)
			continue
		}
		select {
		case <-e.wake:
		case <-linger.C:
			e.mu.Lock()
			if len(e.queue) == 0 {
				e.running = false
				e.mu.Unlock()
				return
			}
			e.mu.Unlock()
		}
	}
}
