package ot_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/ot"
)

// TestKATBaseOTMemo: base OTs answered from the memo of earlier results
// (a game's audit replaying its setup) give what computing them again
// gives, byte for byte; a run that differs in anything (the other side's
// message, the choices, the session, the scalars' seed) is computed
// afresh, and what a caller does to the results it got does not reach the
// memo.
func TestKATBaseOTMemo(t *testing.T) {
	const n = 24
	type run struct {
		m2    []byte
		got   []ot.Key
		pairs [][2]ot.Key
	}
	play := func(session string, sSeed, rSeed byte, flip int) run {
		t.Helper()
		choices := seedOf(9).Stream("choices").Bools(n)
		if flip >= 0 {
			choices[flip] = !choices[flip]
		}
		s, err := ot.NewBaseSender(seedOf(sSeed).Stream("s"), []byte(session), n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ot.NewBaseReceiver(seedOf(rSeed).Stream("r"), []byte(session), choices)
		if err != nil {
			t.Fatal(err)
		}
		m1, err := s.Start()
		if err != nil {
			t.Fatal(err)
		}
		m2, got, err := r.Respond(m1)
		if err != nil {
			t.Fatal(err)
		}
		pairs, err := s.Finish(m2)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range choices {
			if got[i] != pairs[i][b2i(c)] {
				t.Fatalf("%s: OT %d: the receiver's key is not the sender's key %d", session, i, b2i(c))
			}
		}
		return run{m2, got, pairs}
	}
	same := func(a, b run) bool {
		return bytes.Equal(a.m2, b.m2) && slices.Equal(a.got, b.got) && slices.Equal(a.pairs, b.pairs)
	}
	ot.ForgetBaseOTs()
	fresh := play("memo game", 1, 2, -1)
	// Spoil what the caller got: the memo keeps its own copy.
	fresh.m2 = bytes.Clone(fresh.m2)
	fresh.got = slices.Clone(fresh.got)
	fresh.pairs = slices.Clone(fresh.pairs)
	remembered := play("memo game", 1, 2, -1)
	if !same(fresh, remembered) {
		t.Fatal("the remembered base OTs differ from the computed ones")
	}
	remembered.m2[7] ^= 1
	remembered.got[0][0] ^= 1
	remembered.pairs[0][0][0] ^= 1
	if again := play("memo game", 1, 2, -1); !same(fresh, again) {
		t.Fatal("a caller's change to its results reached the memo")
	}
	ot.ForgetBaseOTs()
	if again := play("memo game", 1, 2, -1); !same(fresh, again) {
		t.Fatal("the base OTs computed again differ from the first ones")
	}
	for _, o := range []struct {
		name         string
		session      string
		sSeed, rSeed byte
		flip         int
	}{
		{"another session", "other game", 1, 2, -1},
		{"another sender scalar", "memo game", 3, 2, -1},
		{"another receiver scalar", "memo game", 1, 4, -1},
		{"another choice", "memo game", 1, 2, 5},
	} {
		other := play(o.session, o.sSeed, o.rSeed, o.flip)
		if slices.Equal(other.got, fresh.got) || slices.Equal(other.pairs, fresh.pairs) {
			t.Errorf("%s: the base OTs of another run were answered from the memo", o.name)
		}
	}
}
