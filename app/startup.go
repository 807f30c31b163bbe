package app

import (
	"sync"
	"time"
)

// laterStartWait is how long the window's start waits for the page's word
// that its first frame is on the screen (StartService.Drawn) before it does
// the rest of its work anyway: a page that failed to load, or a window that
// draws no frame (WebKit holds a hidden page's animation frames), still gets
// its servers connected and the sockets served.
const laterStartWait = 3 * time.Second

// laterStart is the part of the window's start that its first frame does not
// need: connecting the servers (a stdio server is a process to start), serving
// the command line and other apps on their sockets (their tools' schemas),
// opening the notifications and following the desktop's theme. Done while
// the window loads, it took the two cores WebKit needed to start its page
// (P4): it runs once, when the page says its first frame is drawn or after
// laterStartWait, whichever comes first.
type laterStart struct {
	mu    sync.Mutex
	run   func() // set by arm
	asked bool   // the page asked before arm
	done  bool   // run has run, or the window closed
	timer *time.Timer
}

// arm sets what the later start runs, and runs it after wait unless the
// page says first (do); at once if it already has.
func (l *laterStart) arm(run func(), wait time.Duration) {
	l.mu.Lock()
	l.run = run
	if l.asked {
		l.mu.Unlock()
		l.do()
		return
	}
	l.timer = time.AfterFunc(wait, l.do)
	l.mu.Unlock()
}

// do runs the later start, once; before arm it only remembers the ask.
func (l *laterStart) do() {
	l.mu.Lock()
	if l.done || l.run == nil {
		l.asked = true
		l.mu.Unlock()
		return
	}
	l.done = true
	if l.timer != nil {
		l.timer.Stop()
	}
	run := l.run
	l.mu.Unlock()
	run()
}

// stop keeps the later start from running: the window is closing.
func (l *laterStart) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done = true
	if l.timer != nil {
		l.timer.Stop()
	}
}

// StartService is the window's side of its start.
type StartService struct {
	later *laterStart
}

// Drawn is the page's word that its first frame is on the screen: the
// servers connect and the sockets open now (see laterStart). Calls after the
// first do nothing.
func (s *StartService) Drawn() {
	if s.later != nil {
		s.later.do()
	}
}
