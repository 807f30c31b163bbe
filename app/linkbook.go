package app

import (
	"crypto/rand"
	"encoding/hex"
	"sync"

	"github.com/gatehouse-app/gatehouse/i18n"
	"github.com/gatehouse-app/gatehouse/linkcheck"
)

// maxBookedLinks bounds the links a linkBook remembers.
const maxBookedLinks = 500

// linkBook remembers links Gatehouse checked itself, each under a random ID,
// so that the window can ask for one to be opened by its ID and never by a
// URL of its own (E31). The oldest are forgotten past maxBookedLinks.
type linkBook struct {
	mu    sync.Mutex
	links []bookedLink // oldest first
}

type bookedLink struct {
	id   string
	link *linkcheck.Report
}

// add remembers a checked link and returns its ID.
func (b *linkBook) add(link *linkcheck.Report) string {
	var raw [12]byte
	_, _ = rand.Read(raw[:])
	id := hex.EncodeToString(raw[:])
	b.mu.Lock()
	defer b.mu.Unlock()
	b.links = append(b.links, bookedLink{id: id, link: link})
	if n := len(b.links) - maxBookedLinks; n > 0 {
		b.links = b.links[n:]
	}
	return id
}

// open opens the link booked under id in the system browser (OpenLink); the
// person consented in the window before it is called.
func (b *linkBook) open(id string) error {
	b.mu.Lock()
	var link *linkcheck.Report
	for _, l := range b.links {
		if l.id == id {
			link = l.link
		}
	}
	b.mu.Unlock()
	if link == nil {
		return errUnknownLink
	}
	return OpenLink(link)
}

// errUnknownLink is an ID the book does not hold (forgotten, or never given).
var errUnknownLink = i18n.Err("links.error.unknown")
