package mcp

import "sync"

// The kinds of list a server offers, each read by a listing of its own.
type listKind int

const (
	listTools listKind = iota
	listResources
	listPrompts
	listKinds // how many kinds there are
)

// A lister runs the listings of one kind of list of one session, one at a
// time (issue 22, item 7): at most one in flight and one waiting to start.
// A list-changed notification that comes while one waits adds nothing, since
// the waiting listing starts after it and so reads the newest list; and as
// listings never overlap, the one that started last is the one that ends
// last, so an older answer can never replace a newer list. Before, every
// notification started a goroutine with all three listings, without bound,
// and their answers landed in any order. The zero value is ready to use.
type lister struct {
	running sync.Mutex // held while a listing runs

	mu      sync.Mutex
	waiting bool // a listing waits to start
}

// request runs list after the listing in flight, if any, unless one is
// waiting already. It does not wait for the listing.
func (l *lister) request(list func()) {
	l.mu.Lock()
	if l.waiting {
		l.mu.Unlock()
		return
	}
	l.waiting = true
	l.mu.Unlock()
	go func() {
		l.running.Lock()
		defer l.running.Unlock()
		l.mu.Lock()
		l.waiting = false // from here, a notification needs a listing after this one
		l.mu.Unlock()
		list()
	}()
}

// run runs list after the listing in flight, if any, and waits for it.
func (l *lister) run(list func()) {
	l.running.Lock()
	defer l.running.Unlock()
	list()
}
