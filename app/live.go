package app

import (
	"sync"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
)

// Events of a server's live state: its log and the progress of its calls.
const (
	// EventLog carries the ID of a server whose log gained lines; sent at
	// most every logEventEvery per server, the last change always.
	EventLog = "log:changed"
	// EventProgress carries a ToolProgress: how far a running call of the
	// Tools pane got, as its server said.
	EventProgress = "tools:progress"
)

// logEventEvery bounds how often EventLog is sent for one server: a server
// writing thousands of lines a second must not flood the window, which
// reads the log again on each event.
const logEventEvery = 250 * time.Millisecond

// ToolProgress is one progress notification of a running call, for the
// window's progress bar: Total 0 means the server does not know how much
// there is. Message is server text.
type ToolProgress struct {
	CallID   string  `json:"callId"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total"`
	Message  string  `json:"message"`
}

// logEvents sends EventLog for each server at most every logEventEvery,
// and once more after a quiet spell, so the last lines are never missed.
type logEvents struct {
	emit func(serverID string)

	mu      sync.Mutex
	pending map[string]bool // a send is scheduled for the server
}

// changed notes that serverID's log gained lines.
func (l *logEvents) changed(serverID string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending == nil {
		l.pending = map[string]bool{}
	}
	if l.pending[serverID] {
		return
	}
	l.pending[serverID] = true
	time.AfterFunc(logEventEvery, func() {
		l.mu.Lock()
		delete(l.pending, serverID)
		l.mu.Unlock()
		l.emit(serverID)
	})
}

// eventEvery is the least time between two events of one kind about one
// thing (a server's lists, a subscribed resource): as often as the window
// can show a change. A server that sends thousands of notifications a
// second must not make the window read its lists thousands of times
// (issue 22, item 7).
const eventEvery = mcp.ProgressEvery

// keyedEvents passes each value on at most every eventEvery (mcp.Coalescer):
// the value is its own key (a server's ID, a server's resource), so a value
// that comes again within eventEvery is sent once, when the time is up.
type keyedEvents[T comparable] struct {
	send func(T)

	mu    sync.Mutex
	byKey map[T]*mcp.Coalescer[T]
}

// put sends v, or holds it until eventEvery has passed since v was last
// sent.
func (k *keyedEvents[T]) put(v T) {
	k.mu.Lock()
	c := k.byKey[v]
	if c == nil {
		if k.byKey == nil {
			k.byKey = map[T]*mcp.Coalescer[T]{}
		}
		c = &mcp.Coalescer[T]{Every: eventEvery, Send: k.send}
		k.byKey[v] = c
	}
	k.mu.Unlock()
	c.Put(v)
}

// progressOf turns a call's progress notifications into EventProgress
// (which the manager already sends at most every mcp.ProgressEvery).
func (c *Core) progressOf(callID string) func(mcp.Progress) {
	return func(p mcp.Progress) {
		c.emit(EventProgress, ToolProgress{CallID: callID, Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}
