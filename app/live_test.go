package app

import (
	"slices"
	"sync"
	"testing"
)

// TestKeyedEvents_EachKeyOnItsOwn: a flood about one thing (a server's
// lists) does not hold back the first event about another, and each key's
// first event goes at once.
func TestKeyedEvents_EachKeyOnItsOwn(t *testing.T) {
	var (
		mu   sync.Mutex
		sent []string
	)
	k := keyedEvents[string]{send: func(v string) {
		mu.Lock()
		sent = append(sent, v)
		mu.Unlock()
	}}
	for range 1000 {
		k.put("a")
	}
	k.put("b")
	mu.Lock()
	defer mu.Unlock()
	as := 0
	for _, v := range sent {
		if v == "a" {
			as++
		}
	}
	// a's 999 later events wait for eventEvery (one of them may have gone).
	if len(sent) == 0 || sent[0] != "a" || !slices.Contains(sent, "b") || as > 2 {
		t.Errorf("sent %v, want a and b at once and a's flood held back", sent)
	}
}
