package circuit

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

var allRules = []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel}

type refereeKey struct {
	size  int
	rules engine.PhantomRules
	mover Party
	flaws refereeFlaws
}

type builtReferee struct {
	layout  *RefereeLayout
	circuit *Circuit
}

// refereeCache keeps built circuits across tests (tests in this package do
// not run in parallel).
var refereeCache = map[refereeKey]builtReferee{}

func refereeFor(t testing.TB, size int, rules engine.PhantomRules, mover Party, flaws refereeFlaws) (*RefereeLayout, *Circuit) {
	t.Helper()
	k := refereeKey{size, rules, mover, flaws}
	if r, ok := refereeCache[k]; ok {
		return r.layout, r.circuit
	}
	l, c, err := buildReferee(size, rules, mover, RefereeForm{}, flaws)
	if err != nil {
		t.Fatalf("buildReferee(%d, %s, %v): %v", size, rules, mover, err)
	}
	refereeCache[k] = builtReferee{l, c}
	return l, c
}

// refereeGame runs a game through the engine referee and through the
// circuit side by side. The circuit's state lives only as two shares.
type refereeGame struct {
	ref    phantom.Referee
	shares [2]RefereeState
	flaws  refereeFlaws
	rng    *rand.Rand
	// last is the last point tried, or engine.NoPoint.
	last engine.Point
}

func newRefereeGame(t testing.TB, ref phantom.Referee, rng *rand.Rand) *refereeGame {
	t.Helper()
	st, err := NewRefereeState(ref.Board(), ref.Ko())
	if err != nil {
		t.Fatalf("NewRefereeState: %v", err)
	}
	g := &refereeGame{ref: ref, rng: rng, last: engine.NoPoint}
	// Split the state into two random shares.
	other := randomState(rng, st.Size)
	g.shares[0] = other
	g.shares[1], err = st.Xor(other)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func randomState(rng *rand.Rand, size int) RefereeState {
	s := EmptyRefereeState(size)
	lb := RefereeLabelBits(size)
	for p := range s.Black {
		s.Black[p] = rng.IntN(2) == 1
		s.White[p] = rng.IntN(2) == 1
		s.Ko[p] = rng.IntN(2) == 1
		s.Label[p] = uint16(rng.IntN(1 << uint(lb)))
	}
	return s
}

func randomBits(rng *rand.Rand, n int) []bool {
	bs := make([]bool, n)
	var r uint64
	for i := range bs {
		if i%64 == 0 {
			r = rng.Uint64()
		}
		bs[i] = r&1 == 1
		r >>= 1
	}
	return bs
}

// circuitTry is what one try through the circuit gave.
type circuitTry struct {
	outputs []bool
	mask    []bool
	// next is the state after the try, the two next shares XORed.
	next RefereeState
	// announce[P] is what the player of party P is told.
	announce [2]phantom.Announcement
}

// runCircuitTry evaluates one try of the player to move at p with the
// mover as party mover, from g's shares, without changing g. The
// garbler's view of the outputs is only what VisibleOutputs lets it see:
// the other outputs are replaced with noise.
func (g *refereeGame) runCircuitTry(t testing.TB, mover Party, p engine.Point) circuitTry {
	t.Helper()
	size, rules, c := g.ref.Options().Size, g.ref.Rules(), g.ref.ToMove()
	l, circ := refereeFor(t, size, rules, mover, g.flaws)
	var r circuitTry
	r.mask = randomBits(g.rng, l.MaskBits())
	in0, err := l.Inputs(Garbler, c, g.shares[Garbler], p, r.mask)
	if err != nil {
		t.Fatalf("Inputs(garbler): %v", err)
	}
	in1, err := l.Inputs(Evaluator, c, g.shares[Evaluator], p, nil)
	if err != nil {
		t.Fatalf("Inputs(evaluator): %v", err)
	}
	r.outputs, err = circ.Eval(in0, in1)
	if err != nil {
		t.Fatalf("Eval: %v", err)
	}
	garblerView := randomBits(g.rng, len(r.outputs))
	for _, i := range l.VisibleOutputs(Garbler) {
		garblerView[i] = r.outputs[i]
	}
	views := [2][]bool{garblerView, r.outputs}
	masks := [2][]bool{r.mask, nil}
	var next [2]RefereeState
	for party := range 2 {
		next[party], err = l.NextShare(Party(party), c, views[party], masks[party])
		if err != nil {
			t.Fatalf("NextShare(%v): %v", Party(party), err)
		}
		tryKnown := engine.NoPoint
		if Party(party) == mover {
			tryKnown = p
		}
		r.announce[party], err = l.Announcement(Party(party), c, tryKnown, views[party], masks[party])
		if err != nil {
			t.Fatalf("Announcement(%v) of %v at %s: %v", Party(party), c, p.Vertex(size), err)
		}
	}
	r.next, err = next[0].Xor(next[1])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// compare returns the differences between the circuit's try and the
// engine's (next referee and outcome), or "" when they agree bit for bit.
func (g *refereeGame) compare(mover Party, r circuitTry, next phantom.Referee, out phantom.TryOutcome) string {
	size, rules := next.Options().Size, next.Rules()
	var diffs string
	b, err := r.next.Board()
	if err != nil {
		return err.Error()
	}
	if b != next.Board() {
		diffs += fmt.Sprintf("board:\n%vwant\n%v", b.String(), next.Board().String())
	}
	ko, err := r.next.KoPoint()
	if err != nil {
		return err.Error()
	}
	if ko != next.Ko() {
		diffs += fmt.Sprintf("ko %s, want %s; ", koVertex(ko, size), koVertex(next.Ko(), size))
	}
	if err := r.next.Validate(); err != nil {
		diffs += fmt.Sprintf("state: %v; ", err)
	}
	for party := range 2 {
		to := out.Mover
		if Party(party) != mover {
			to = to.Opponent()
		}
		want := phantom.Announce(rules, size, out, to)
		if !reflect.DeepEqual(r.announce[party], want) {
			diffs += fmt.Sprintf("to %v (%v): %q, want %q; ", to, Party(party), r.announce[party].KeyValues(), want.KeyValues())
		}
	}
	return diffs
}

// step plays p for the player to move through both referees and moves g
// on. It returns the engine's outcome and the differences between the two
// ("" when they agree bit for bit); after an illegal try the whole state,
// labels included, must be what it was.
func (g *refereeGame) step(t testing.TB, mover Party, p engine.Point) (phantom.TryOutcome, string) {
	t.Helper()
	size := g.ref.Options().Size
	before, err := g.shares[0].Xor(g.shares[1])
	if err != nil {
		t.Fatal(err)
	}
	r := g.runCircuitTry(t, mover, p)
	next, out, err := g.ref.Try(g.ref.ToMove(), p)
	if err != nil {
		t.Fatalf("engine Try(%v, %s): %v", g.ref.ToMove(), p.Vertex(size), err)
	}
	d := g.compare(mover, r, next, out)
	if !out.Legal && !reflect.DeepEqual(r.next, before) {
		d += "the illegal try changed the state; "
	}
	if d != "" {
		d = fmt.Sprintf("try %s by %v (mover is the %v) on\n%v(ko %s): %s", p.Vertex(size), out.Mover, mover,
			g.ref.Board().String(), koVertex(g.ref.Ko(), size), d)
	}
	l, _ := refereeFor(t, size, next.Rules(), mover, g.flaws)
	g.shares[Garbler], _ = l.NextShare(Garbler, out.Mover, nil, r.mask)
	g.shares[Evaluator], _ = l.NextShare(Evaluator, out.Mover, r.outputs, nil)
	g.ref = next
	if p != engine.Pass {
		g.last = p
	}
	return out, d
}

// try is step that fails the test on any difference.
func (g *refereeGame) try(t testing.TB, mover Party, p engine.Point) phantom.TryOutcome {
	t.Helper()
	out, d := g.step(t, mover, p)
	if d != "" {
		t.Fatal(d)
	}
	return out
}

// koVertex writes a ko point, "none" for engine.NoPoint.
func koVertex(p engine.Point, size int) string {
	if p == engine.NoPoint {
		return "none"
	}
	return p.Vertex(size)
}
