package referee

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
)

// mpcD51Form is a form of the input OTs of MPC-D51's tests.
type mpcD51Form struct {
	name   string
	lambda int
	input  InputOT
	auth   bool
	mac    int
}

// mpcD51Forms are the forms whose request can be prepared: the
// extension's input OTs unchecked and checked, the correlated ones
// (MPC-D28), and with the authenticated state (MPC-D29) and MACs of 64
// bits (MPC-D32, kakure's default), at λ = 2 and 4.
var mpcD51Forms = []mpcD51Form{
	{"extension", 1, 0, false, 0},
	{"extension", 2, 0, false, 0},
	{"extension", 4, 0, false, 0},
	{"correlated", 2, InputOTCorrelated, false, 0},
	{"correlated", 4, InputOTCorrelated, false, 0},
	{"authenticated", 2, InputOTCorrelated, true, 0},
	{"authenticated-mac64", 2, InputOTCorrelated, true, ot.KappaMAC},
	{"authenticated-mac64", 4, InputOTCorrelated, true, ot.KappaMAC},
}

func (f mpcD51Form) String() string { return fmt.Sprintf("%s/lambda-%d", f.name, f.lambda) }

// mpcD51Twins returns two games of form f with the same seeds.
func mpcD51Twins(t *testing.T, f mpcD51Form, k int) (a, b *testGame) {
	t.Helper()
	for _, gm := range []**testGame{&a, &b} {
		cfg := Config{Size: 9, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte("mpc-d51 " + f.String()), Komi: 7.5,
			Lambda: f.lambda, Scheme: gc.ThreeHalves, InputOT: f.input, AuthState: f.auth, MACBits: f.mac}
		*gm = newGameOf(t, cfg, testSeed("d51 g", k), testSeed("d51 e", k))
	}
	return a, b
}

// mpcD51Play plays n random tries in both games, the same in each
// (a's beforeRequest set by the caller), and fails the test when their
// messages, records or announcements differ. It returns the movers'
// parties of the tries.
func mpcD51Play(t *testing.T, f mpcD51Form, a, b *testGame, n int) []circuit.Party {
	t.Helper()
	rng := rand.New(rand.NewPCG(51, uint64(f.lambda)))
	last := engine.NoPoint
	var movers []circuit.Party
	for k := range n {
		if a.ref.PlayEnded() {
			break
		}
		p := randomTry(rng, a.ref, last)
		movers = append(movers, a.cfg.PartyOf(a.ref.ToMove()))
		for _, gm := range []*testGame{a, b} {
			if _, d := gm.step(p); d != "" {
				t.Fatalf("%v: %s", f, d)
			}
		}
		if p != engine.Pass {
			last = p
		}
		for party := range 2 {
			ra, rb := a.received[party], b.received[party]
			if len(ra) != len(rb) {
				t.Fatalf("%v, try %d: the %v received %d messages prepared, %d not", f, k, circuit.Party(party), len(ra), len(rb))
			}
			for i := range ra {
				if !bytes.Equal(ra[i], rb[i]) {
					t.Fatalf("%v, try %d: message %d to the %v differs with the request prepared", f, k, i, circuit.Party(party))
				}
			}
		}
		// The records but their seed commitments (salted afresh).
		ra, rb := a.rec, b.rec
		ra.SeedCommitments, rb.SeedCommitments = rb.SeedCommitments, ra.SeedCommitments
		if !reflect.DeepEqual(ra, b.rec) || !reflect.DeepEqual(rb, a.rec) || !reflect.DeepEqual(a.views, b.views) {
			t.Fatalf("%v, try %d: the records or announcements differ with the request prepared", f, k)
		}
	}
	return movers
}

// TestMPCD51PreparedRequestSame checks MPC-D51: the evaluator's request
// made with its preparation (PrepareRequestAhead waited for, or not waited for, on
// its goroutine, after the try's reverse request is taken) is the one it
// makes without, byte for byte, and so is everything after it (both
// parties' messages, the record, the announcements), in every form of
// the input OTs, at λ = 1, 2 and 4 and for tries of both players; and
// the preparation is used.
func TestMPCD51PreparedRequestSame(t *testing.T) {
	for k, f := range mpcD51Forms {
		t.Run(f.String(), func(t *testing.T) {
			a, b := mpcD51Twins(t, f, k)
			tries := 0
			a.beforeRequest = func(gm *testGame) {
				if tries%2 == 0 {
					gm.e.prepareRequest()
				} else {
					gm.e.PrepareRequestAhead()
				}
				tries++
			}
			movers := mpcD51Play(t, f, a, b, 12)
			if a.e.aheadUsed != len(movers) || b.e.aheadUsed != 0 {
				t.Fatalf("%v: %d of %d requests made with their preparation (%d unprepared)", f, a.e.aheadUsed, len(movers), b.e.aheadUsed)
			}
			seen := map[circuit.Party]bool{}
			for _, m := range movers {
				seen[m] = true
			}
			if len(seen) != 2 {
				t.Fatalf("%v: movers %v: not both players tried", f, movers)
			}
		})
	}
}

// TestMPCD51StalePreparationUnused checks MPC-D51's guard: a preparation
// of another try, of the other mover, of another ĵ or (with the
// correlated input OTs) of another reverse request is not used, and the
// request is the one made without it.
func TestMPCD51StalePreparationUnused(t *testing.T) {
	for k, f := range mpcD51Forms {
		t.Run(f.String(), func(t *testing.T) {
			a, b := mpcD51Twins(t, f, k)
			var older *requestAhead
			n := 0
			a.beforeRequest = func(gm *testGame) {
				e := gm.e
				e.prepareRequest()
				cur := e.reqAhead
				switch n % 4 {
				case 0:
					// Another try's: the one of the try before, never
					// used (none at the first try).
					e.reqAhead = older
				case 1:
					stale := *cur
					stale.mover = 1 - stale.mover
					e.reqAhead = &stale
				case 2:
					stale := *cur
					stale.j = (stale.j + 1) % f.lambda
					if f.lambda == 1 {
						stale.try++ // no other ĵ: another try
					}
					e.reqAhead = &stale
				case 3:
					stale := *cur
					if f.input == InputOTCorrelated {
						rev := *stale.rev
						stale.rev = &rev
					} else {
						stale.try--
					}
					e.reqAhead = &stale
				}
				// A fresh one of this try, never used, for the next.
				older = cur
				n++
			}
			mpcD51Play(t, f, a, b, 8)
			if a.e.aheadUsed != 0 {
				t.Fatalf("%v: %d stale preparations used", f, a.e.aheadUsed)
			}
		})
	}
}
