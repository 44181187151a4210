package ui

import (
	"maps"
	"sync/atomic"
)

// Petnames is the player's petname book (UI-D33): the names the player
// gave to peers, by peer ID. Unlike a display name, which the peer chose
// and sends, a petname is the player's own: the screens show it instead
// of the short peer ID, marked with PetnameMark.
type Petnames map[string]string

// PetnameMark starts every petname on the screens; SafeName drops it from
// the start of a display name, so that no peer's own name can pass for a
// name the player gave.
const PetnameMark = "@"

// petnames is the book the screens use; one per process (one home).
var petnames atomic.Pointer[Petnames]

// SetPetnames gives the screens the player's petname book (nil: none).
// The screens keep a copy.
func SetPetnames(book Petnames) {
	c := Petnames(maps.Clone(book))
	petnames.Store(&c)
}

// Petname returns the petname the player gave to peer id, made safe as a
// display name is (it is shown the same ways), or "".
func Petname(id string) string {
	book := petnames.Load()
	if book == nil {
		return ""
	}
	return SafeName((*book)[id])
}

// PeerShort writes a peer where the screens give it a short column: its
// petname with PetnameMark when the player gave it one, else its short
// peer ID.
func PeerShort(id string) string {
	if pet := Petname(id); pet != "" {
		return PetnameMark + pet
	}
	return ShortPeer(id)
}
