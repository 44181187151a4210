package session

import (
	"fmt"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

// TestLIMD11VictimFor checks which stream a new stream evicts from a full
// pool of handshake slots (LIM-D11): the oldest stream still being read
// of the peer that holds the most slots, when that peer holds two more
// than the newcomer, or any more when the newcomer holds none; never a
// stream of the newcomer itself, never one whose invitation is being
// answered.
func TestLIMD11VictimFor(t *testing.T) {
	// A stream is written "A" (being read) or "A!" (its invitation read,
	// not evictable); the pool lists them oldest first. want is the index
	// of the victim, -1 for none.
	cases := []struct {
		name     string
		streams  []string
		newcomer string
		want     int
	}{
		{"a newcomer evicts from the richest, not the oldest", []string{"A", "B", "B", "B"}, "N", 1},
		{"a newcomer, all equal: the oldest", []string{"A", "B", "C", "D"}, "N", 0},
		{"ties between the richest: the oldest stream", []string{"A", "B", "B", "A"}, "N", 0},
		{"one slot short of the richest: refused", []string{"N", "N", "B", "B", "B"}, "N", -1},
		{"two short of the richest: evicts", []string{"N", "B", "B", "B"}, "N", 1},
		{"as many as the richest: refused", []string{"N", "N", "B", "B"}, "N", -1},
		{"never the newcomer's own", []string{"N", "N", "N", "B"}, "N", -1},
		{"never a stream being answered", []string{"B!", "B!", "B!", "A"}, "N", 3},
		{"the richest's streams are all answered: the next one", []string{"B!", "B!", "B!", "A", "A", "C"}, "N", 3},
		{"nothing being read: refused", []string{"A!", "B!"}, "N", -1},
		{"a peer with one slot keeps it against a newcomer with one", []string{"A", "N", "B", "C"}, "N", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pool := &handshakePool{limit: len(c.streams)}
			ids := map[string]peer.ID{}
			id := func(name string) peer.ID {
				if _, ok := ids[name]; !ok {
					ids[name] = peer.ID(fmt.Sprintf("peer-%s", name))
				}
				return ids[name]
			}
			var hs []*handshake
			for _, s := range c.streams {
				name, reading := s, true
				if s[len(s)-1] == '!' {
					name, reading = s[:len(s)-1], false
				}
				h := &handshake{peer: id(name), reading: reading}
				pool.add(h)
				hs = append(hs, h)
			}
			got := pool.victimFor(id(c.newcomer))
			want := (*handshake)(nil)
			if c.want >= 0 {
				want = hs[c.want]
			}
			if got != want {
				t.Errorf("victim %s, want %s", describe(hs, got), describe(hs, want))
			}
		})
	}
}

// describe names a stream of hs by its place and peer.
func describe(hs []*handshake, h *handshake) string {
	for i, o := range hs {
		if o == h {
			return fmt.Sprintf("stream %d of %s", i, string(h.peer))
		}
	}
	return "none"
}
