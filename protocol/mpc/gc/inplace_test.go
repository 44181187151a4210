package gc_test

import (
	"bytes"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// TestMarshalInPlace (issue 38, buffer reuse): MarshalInPlace gives
// MarshalBinary's bytes without copying the tables (the message shares
// memory with them), falls back to a copy for a garbling whose tables do
// not sit in their message buffer, and a buffer given back by Release,
// scribbled over, makes the next garbling neither differ nor share
// memory with a garbling still held.
func TestMarshalInPlace(t *testing.T) {
	for _, s := range schemes {
		t.Run(s.String(), func(t *testing.T) { marshalInPlace(t, s) })
	}
}

func marshalInPlace(t *testing.T, s gc.Scheme) {
	var seed prg.Seed
	c := randomCircuit(seed.Stream("circuit"), 10, 10, 500, [3]int{2, 2, 1}, 21)
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	garble := func() *gc.Garbled {
		g, _, err := s.Garble(c, delta, seed.Stream("labels", 3), 3)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g := garble()
	want, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.MarshalInPlace()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("MarshalInPlace differs from MarshalBinary")
	}
	// The message shares the tables' memory (no copy).
	g.Tables[0] ^= 1
	if got[18] == want[18] {
		t.Fatal("MarshalInPlace copied the tables")
	}
	g.Tables[0] ^= 1

	// A parsed garbling, and one whose decoding bits were replaced: a
	// copy, equal to MarshalBinary's.
	p, err := gc.ParseGarbled(want)
	if err != nil {
		t.Fatal(err)
	}
	pm, _ := p.MarshalInPlace()
	p.Tables[0] ^= 1
	if !bytes.Equal(pm, want) {
		t.Fatal("MarshalInPlace of a parsed garbling shares memory with its tables")
	}
	short := garble()
	short.Decoding = short.Decoding[:len(short.Decoding)-1]
	sm, _ := short.MarshalInPlace()
	sb, _ := short.MarshalBinary()
	if !bytes.Equal(sm, sb) {
		t.Fatal("MarshalInPlace with fewer decoding bits differs from MarshalBinary")
	}

	// Released buffers, scribbled over, change nothing in later
	// garblings, and a garbling still held keeps its bytes.
	for range 4 {
		h := garble()
		hm, _ := h.MarshalInPlace()
		for i := range hm {
			hm[i] = 0xa5
		}
		h.Release()
		if h.Tables != nil || h.Decoding != nil {
			t.Fatal("Release left the tables")
		}
	}
	for range 4 {
		h := garble()
		hm, err := h.MarshalInPlace()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(hm, want) {
			t.Fatal("a garbling into a released buffer differs")
		}
		h.Release()
	}
	if got, _ := g.MarshalInPlace(); !bytes.Equal(got, want) {
		t.Fatal("a later garbling changed a garbling still held")
	}
	// Release of a garbling not made by the package only drops it.
	p.Release()
	if p.Tables != nil {
		t.Fatal("Release left the tables of a parsed garbling")
	}
}
