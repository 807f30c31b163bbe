package app

import (
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/chat"
)

// textInterval is the least time between two events of streamed text (or
// reasoning) of a turn: text that arrives sooner is gathered and sent as
// one event when the interval is up. A model (or a local server) may
// stream thousands of small deltas a second, and every event costs the
// window a render; unthrottled, the window fell seconds behind a stream of
// 2,000 deltas a second (P8b in bench/). The first delta after a pause goes
// at once, so the first token is not delayed.
const textInterval = 30 * time.Millisecond

// chatEvents sends a turn's events in order, streamed text throttled to
// one event per textInterval.
type chatEvents struct {
	send func(ChatEvent)

	mu      sync.Mutex
	pending ChatEvent // gathered text or reasoning not sent yet
	last    time.Time // when text was last sent
	timer   *time.Timer
}

// emit sends ev, or gathers it when it is text that came too soon. Any
// other event sends the gathered text first.
func (c *chatEvents) emit(ev ChatEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	streamed := ev.Kind == chat.EventText || ev.Kind == chat.EventReasoning
	if !streamed || (c.pending.Kind != "" && c.pending.Kind != ev.Kind) {
		c.flushLocked()
	}
	if !streamed {
		c.send(ev)
		return
	}
	c.pending.Kind = ev.Kind
	c.pending.Text += ev.Text
	if c.timer != nil {
		return // the gathered text goes when the timer fires
	}
	if wait := textInterval - time.Since(c.last); wait > 0 {
		c.timer = time.AfterFunc(wait, c.flush)
		return
	}
	c.flushLocked()
}

func (c *chatEvents) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
}

func (c *chatEvents) flushLocked() {
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if c.pending.Kind == "" {
		return
	}
	c.send(c.pending)
	c.pending = ChatEvent{}
	c.last = time.Now()
}
