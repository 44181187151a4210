package ui

import (
	"maps"
	"sync/atomic"
)

// Petnames is the player's petname book (UI-D33): the names the player
// gave to peers, by peer ID. Unlike a display name, which the peer chose
// and sends, a petname is the player's own: the screens show it instead
// of the short peer ID, marked with PetnameMark. A nil book has none.
type Petnames map[string]string

// PetnameMark starts every petname on the screens; SafeName drops it from
// the start of a display name, so that no peer's own name can pass for a
// name the player gave.
const PetnameMark = "@"

// Petname returns the petname the player gave to peer id, made safe as a
// display name is (it is shown the same ways), or "".
func (b Petnames) Petname(id string) string {
	return SafeName(b[id])
}

// PeerShort writes a peer where the screens give it a short column: its
// petname with PetnameMark when the player gave it one, else its short
// peer ID.
func (b Petnames) PeerShort(id string) string {
	if pet := b.Petname(id); pet != "" {
		return PetnameMark + pet
	}
	return ShortPeer(id)
}

// petnameBook holds the petname book the screens of one App show
// (AppConfig.Petnames, replaced by App.SetPetnames when the player's file
// changes); the screens read it as they draw, from any goroutine. A nil
// *petnameBook holds no petnames (a screen made outside an App).
type petnameBook struct {
	book atomic.Pointer[Petnames]
}

// newPetnameBook returns a holder of a copy of book.
func newPetnameBook(book Petnames) *petnameBook {
	p := &petnameBook{}
	p.set(book)
	return p
}

// set replaces the book with a copy of book.
func (p *petnameBook) set(book Petnames) {
	c := Petnames(maps.Clone(book))
	p.book.Store(&c)
}

// get returns the book (nil: none); callers do not change it.
func (p *petnameBook) get() Petnames {
	if p == nil {
		return nil
	}
	if b := p.book.Load(); b != nil {
		return *b
	}
	return nil
}
