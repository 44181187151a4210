package referee

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

var allRules = []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel}

// testGame runs a game between a garbler and an evaluator in one process,
// over byte messages only, next to the plaintext referee. It records what
// a signed game record would keep (rec) and every byte each party
// received (received[P]).
type testGame struct {
	t        testing.TB
	cfg      Config
	g        *Garbler
	e        *Evaluator
	seeds    [2]prg.Seed
	openings [2]commit.Opening
	rec      Record
	ref      phantom.Referee
	received [2][][]byte
	// views[P] is what P's player was told, try by try.
	views [2][]phantom.Announcement
	// tamper, when set, may change a message before it is sent: it gets
	// the try, the message name and the bytes, and returns the bytes to
	// send (the record keeps what was sent).
	tamper func(try uint64, what string, b []byte) []byte
	// signedSums, if set, has the evaluator take the digest of the
	// tables from the record (the digest a session's message signs)
	// instead of hashing them (MPC-D49); sumOf, if set, replaces it.
	signedSums bool
	sumOf      func(d Digest) Digest
	// tamperBits may change the event bits the evaluator sends.
	tamperBits func(try uint64, o *Outputs)
	// clock, when set, adds to each party the wall time of its calls in
	// play (benchmarks only).
	clock *sideClock
	// beforeRequest, when set, runs before the evaluator's request of
	// each try, after its reverse request is taken (MPC-D51).
	beforeRequest func(gm *testGame)
	// flipsOf, when set, makes the evaluator's flips of its try in place
	// of Evaluator.Flips (a modified evaluator, MPC-D54).
	flipsOf func(p engine.Point) ([]byte, error)
}

// sideClock is the wall time each party spent in its calls of a try:
// the calls run one after another, so the time since the previous
// call ended is the current call's.
// cpu is the CPU time of the process in the same spans (the check of
// the opened garblings, on goroutines of its own from the evaluator's
// Open on, counts wherever it runs).
type sideClock struct {
	spent   [2]time.Duration
	cpu     [2]time.Duration
	mark    time.Time
	cpuMark time.Duration
}

// start resets the clock at the beginning of a try.
func (c *sideClock) start() {
	if c != nil {
		c.spent, c.cpu, c.mark, c.cpuMark = [2]time.Duration{}, [2]time.Duration{}, time.Now(), processCPU()
	}
}

// charge adds the time since the previous mark to party p.
func (c *sideClock) charge(p circuit.Party) {
	if c != nil {
		now, cpu := time.Now(), processCPU()
		c.spent[p] += now.Sub(c.mark)
		c.cpu[p] += cpu - c.cpuMark
		c.mark, c.cpuMark = now, cpu
	}
}

func testSeed(name string, n int) prg.Seed {
	return prg.Seed{}.Derive("test seed "+name, uint64(n))
}

func newTestGame(t testing.TB, size int, rules engine.PhantomRules, garbler engine.Color, seedG, seedE prg.Seed) *testGame {
	t.Helper()
	return newCheckedGame(t, size, rules, garbler, seedG, seedE, 0)
}

// newCheckedGame is newTestGame with λ garblings per try (T-8(b)).
func newCheckedGame(t testing.TB, size int, rules engine.PhantomRules, garbler engine.Color, seedG, seedE prg.Seed, lambda int) *testGame {
	t.Helper()
	return newSchemeGame(t, size, rules, garbler, seedG, seedE, lambda, gc.HalfGates)
}

// newSchemeGame is newCheckedGame with the garbling scheme s.
func newSchemeGame(t testing.TB, size int, rules engine.PhantomRules, garbler engine.Color, seedG, seedE prg.Seed, lambda int, s gc.Scheme) *testGame {
	t.Helper()
	cfg := Config{Size: size, Rules: rules, GarblerColor: garbler, Game: []byte(fmt.Sprintf("test game %dx%d %s", size, size, rules)), Komi: 7.5, Lambda: lambda, Scheme: s}
	return newGameOf(t, cfg, seedG, seedE)
}

// newCOTGame is newSchemeGame with the correlated input OTs (MPC-D28).
func newCOTGame(t testing.TB, size int, rules engine.PhantomRules, garbler engine.Color, seedG, seedE prg.Seed, lambda int, s gc.Scheme) *testGame {
	t.Helper()
	cfg := Config{Size: size, Rules: rules, GarblerColor: garbler, Game: []byte(fmt.Sprintf("test game %dx%d %s", size, size, rules)), Komi: 7.5, Lambda: lambda, Scheme: s, InputOT: InputOTCorrelated}
	return newGameOf(t, cfg, seedG, seedE)
}

// newGameOf starts a test game of cfg: the seed commitments and the
// setup (with the reverse extension's in a game of the correlated input
// OTs).
func newGameOf(t testing.TB, cfg Config, seedG, seedE prg.Seed) *testGame {
	t.Helper()
	size, rules := cfg.Size, cfg.Rules
	gm := &testGame{t: t, cfg: cfg, seeds: [2]prg.Seed{seedG, seedE}}
	var err error
	if gm.g, err = NewGarbler(cfg, seedG); err != nil {
		t.Fatal(err)
	}
	if gm.e, err = NewEvaluator(cfg, seedE); err != nil {
		t.Fatal(err)
	}
	gm.rec.Config = cfg
	for p, s := range gm.seeds {
		c, o, err := cfg.CommitSeed(circuit.Party(p), s)
		if err != nil {
			t.Fatal(err)
		}
		gm.rec.SeedCommitments[p], gm.openings[p] = c, o
	}
	if gm.ref, err = phantom.NewReferee(engine.Options{Variant: engine.VariantPhantom, Size: size, Rules: rules}); err != nil {
		t.Fatal(err)
	}
	m1, err := gm.e.BaseStart()
	if err != nil {
		t.Fatal(err)
	}
	gm.rec.BaseSent, gm.rec.Base[0] = 1, Sum(m1)
	gm.received[circuit.Garbler] = append(gm.received[circuit.Garbler], m1)
	m2, err := gm.g.BaseRespond(m1)
	if err != nil {
		t.Fatal(err)
	}
	gm.rec.BaseSent, gm.rec.Base[1] = 2, Sum(m2)
	gm.received[circuit.Evaluator] = append(gm.received[circuit.Evaluator], m2)
	if err := gm.e.BaseFinish(m2); err != nil {
		t.Fatal(err)
	}
	if cfg.correlated() {
		r1, err := gm.g.ReverseStart()
		if err != nil {
			t.Fatal(err)
		}
		r1 = gm.send(0, "reverse-start", r1)
		gm.rec.ReverseSent, gm.rec.Reverse[0] = 1, Sum(r1)
		gm.received[circuit.Evaluator] = append(gm.received[circuit.Evaluator], r1)
		r2, err := gm.e.ReverseRespond(r1)
		if err != nil {
			t.Fatal(err)
		}
		gm.rec.ReverseSent, gm.rec.Reverse[1] = 2, Sum(r2)
		gm.received[circuit.Garbler] = append(gm.received[circuit.Garbler], r2)
		if err := gm.g.ReverseFinish(r2); err != nil {
			t.Fatal(err)
		}
	}
	return gm
}

func (gm *testGame) send(try uint64, what string, b []byte) []byte {
	if gm.tamper != nil {
		return gm.tamper(try, what, append([]byte(nil), b...))
	}
	return b
}

// play runs one try of the player to move at p through the secure
// referee and returns what each party's player was told. It returns the
// first error of a machine (a deviation caught at once).
func (gm *testGame) play(p engine.Point) ([2]phantom.Announcement, error) {
	var ann [2]phantom.Announcement
	pub := gm.e.Public()
	try := pub.Try
	var tr TryRecord
	gm.clock.start()
	if gm.cfg.correlated() {
		// The garbler's reverse request first (MPC-D28).
		rev, err := gm.g.ReverseRequest()
		gm.clock.charge(circuit.Garbler)
		if err != nil {
			return ann, err
		}
		rev = gm.send(try, "reverse", rev)
		tr = RecordReverse(rev)
		gm.received[circuit.Evaluator] = append(gm.received[circuit.Evaluator], rev)
		err = gm.e.TakeReverse(rev)
		gm.clock.charge(circuit.Evaluator)
		if err != nil {
			gm.rec.Tries = append(gm.rec.Tries, tr)
			return ann, err
		}
	}
	if gm.beforeRequest != nil {
		gm.beforeRequest(gm)
		gm.clock.charge(circuit.Evaluator)
	}
	req, err := gm.e.Request(p)
	gm.clock.charge(circuit.Evaluator)
	if err != nil {
		return ann, err
	}
	req = gm.send(try, "request", req)
	gm.rec.Tries = append(gm.rec.Tries, tr.WithRequest(req))
	last := &gm.rec.Tries[len(gm.rec.Tries)-1]
	gm.received[circuit.Garbler] = append(gm.received[circuit.Garbler], req)
	err = gm.g.CheckRequest(req)
	gm.clock.charge(circuit.Garbler)
	if err != nil {
		return ann, err
	}
	var gb Garbling
	var errG error
	if gm.cfg.Checked() {
		cm, err := gm.g.Commit(req)
		gm.clock.charge(circuit.Garbler)
		if err != nil {
			return ann, err
		}
		cm.Commitments = gm.send(try, "commitment", cm.Commitments)
		cm.Reply = gm.send(try, "commitment-reply", cm.Reply)
		*last = last.WithCommitment(cm)
		gm.received[circuit.Evaluator] = append(gm.received[circuit.Evaluator], cm.Commitments, cm.Reply)
		choice, err := gm.e.Open(cm)
		gm.clock.charge(circuit.Evaluator)
		if err != nil {
			return ann, err
		}
		choice = gm.send(try, "choice", choice)
		*last = last.WithChoice(choice)
		gm.received[circuit.Garbler] = append(gm.received[circuit.Garbler], choice)
		if gm.cfg.flipped(gm.cfg.PartyOf(pub.ToMove)) {
			// The evaluator's player's try, as flips (MPC-D52).
			flipsOf := gm.e.Flips
			if gm.flipsOf != nil {
				flipsOf = gm.flipsOf
			}
			flips, err := flipsOf(p)
			gm.clock.charge(circuit.Evaluator)
			if err != nil {
				return ann, err
			}
			flips = gm.send(try, "flips", flips)
			*last = last.WithFlips(flips)
			gm.received[circuit.Garbler] = append(gm.received[circuit.Garbler], flips)
			if err := gm.g.TakeFlips(flips); err != nil {
				return ann, err
			}
		}
		gb, errG = gm.g.GarbleChosen(choice, p)
	} else {
		gb, errG = gm.g.Garble(req, p)
	}
	gm.clock.charge(circuit.Garbler)
	if errG != nil {
		return ann, errG
	}
	gb.Tables = gm.send(try, "tables", gb.Tables)
	gb.Labels = gm.send(try, "labels", gb.Labels)
	gb.Reply = gm.send(try, "reply", gb.Reply)
	*last = last.WithGarbling(gb)
	gm.received[circuit.Evaluator] = append(gm.received[circuit.Evaluator], gb.Tables, gb.Labels, gb.Reply)
	if gm.signedSums {
		d := last.Tables
		if gm.sumOf != nil {
			d = gm.sumOf(d)
		}
		gb.TablesSum = &d
	}
	o, annE, err := gm.e.Evaluate(gb)
	gm.clock.charge(circuit.Evaluator)
	if err != nil {
		return ann, err
	}
	o.Labels = gm.send(try, "outputs", o.Labels)
	if gm.tamperBits != nil {
		gm.tamperBits(try, &o)
	}
	*last = last.WithOutputs(o)
	gm.received[circuit.Garbler] = append(gm.received[circuit.Garbler], o.Labels, bitsMsg(o))
	annG, err := gm.g.Finish(o)
	gm.clock.charge(circuit.Garbler)
	if err != nil {
		return ann, err
	}
	ann[circuit.Garbler], ann[circuit.Evaluator] = annG, annE
	for p := range 2 {
		gm.views[p] = append(gm.views[p], ann[p])
	}
	return ann, nil
}

func bitsMsg(o Outputs) []byte { return []byte{b2byte(o.Pass), b2byte(o.Legal)} }

func b2byte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// step plays p for the player to move through the secure referee and the
// plaintext one and returns the engine's outcome and the differences
// ("" when they agree bit for bit: both announcements, the board, the ko
// and the label invariants of the shared state, the public state).
func (gm *testGame) step(p engine.Point) (phantom.TryOutcome, string) {
	gm.t.Helper()
	mover := gm.ref.ToMove()
	ann, err := gm.play(p)
	if err != nil {
		gm.t.Fatalf("try %s by %v: %v", p.Vertex(gm.cfg.Size), mover, err)
	}
	next, out, err := gm.ref.Try(mover, p)
	if err != nil {
		gm.t.Fatalf("engine try %s by %v: %v", p.Vertex(gm.cfg.Size), mover, err)
	}
	gm.ref = next
	var d string
	for _, party := range []circuit.Party{circuit.Garbler, circuit.Evaluator} {
		want := phantom.Announce(gm.cfg.Rules, gm.cfg.Size, out, gm.cfg.ColorOf(party))
		if !reflect.DeepEqual(ann[party], want) {
			d += fmt.Sprintf("to the %v: %q, want %q; ", party, ann[party].KeyValues(), want.KeyValues())
		}
	}
	st, err := gm.g.Share().Xor(gm.e.Share())
	if err != nil {
		gm.t.Fatal(err)
	}
	if b, err := st.Board(); err != nil || b != next.Board() {
		d += fmt.Sprintf("board %v, want\n%v; ", err, next.Board().String())
	}
	if ko, err := st.KoPoint(); err != nil || ko != next.Ko() {
		d += fmt.Sprintf("ko %v (%v), want %v; ", ko, err, next.Ko())
	}
	if err := st.Validate(); err != nil {
		d += err.Error() + "; "
	}
	for _, pub := range []Public{gm.g.Public(), gm.e.Public()} {
		if pub.ToMove != next.ToMove() || pub.Passes != next.Passes() {
			d += fmt.Sprintf("public %+v, the referee has %v to move and %d passes; ", pub, next.ToMove(), next.Passes())
		}
	}
	if d != "" {
		d = fmt.Sprintf("try %d, %s by %v (the %v's player): %s", len(gm.rec.Tries)-1, p.Vertex(gm.cfg.Size), mover, gm.cfg.PartyOf(mover), d)
	}
	return out, d
}

// reveals returns what both parties reveal at the end.
func (gm *testGame) reveals() [2]Reveal {
	return [2]Reveal{
		{Seed: gm.openings[0], Tries: gm.g.Tries()},
		{Seed: gm.openings[1], Tries: gm.e.Tries()},
	}
}

// randomTry picks a try for the player to move: mostly empty points, half
// of them near the last try, some captures found with the engine, some
// occupied points, the ko point half the time there is one, a few
// passes (as in the circuit package's tests).
func randomTry(rng *rand.Rand, ref phantom.Referee, last engine.Point) engine.Point {
	b := ref.Board()
	size, n := b.Size(), b.Points()
	if ko := ref.Ko(); ko != engine.NoPoint && rng.IntN(2) == 0 {
		return ko
	}
	switch r := rng.IntN(100); {
	case r < 2:
		return engine.Pass
	case r < 20:
		return engine.Point(rng.IntN(n))
	case r < 35:
		var takes []engine.Point
		for p := range n {
			if b.At(engine.Point(p)) != engine.Empty {
				continue
			}
			if _, out, err := ref.Try(ref.ToMove(), engine.Point(p)); err == nil && out.Legal && len(out.Captured) > 0 {
				takes = append(takes, engine.Point(p))
			}
		}
		if len(takes) > 0 {
			return takes[rng.IntN(len(takes))]
		}
	}
	near := last >= 0 && rng.IntN(2) == 0
	lx, ly := 0, 0
	if last >= 0 {
		lx, ly = last.XY(size)
	}
	var free []engine.Point
	for p := range n {
		x, y := engine.Point(p).XY(size)
		if b.At(engine.Point(p)) == engine.Empty && (!near || abs(x-lx)+abs(y-ly) <= 2) {
			free = append(free, engine.Point(p))
		}
	}
	if len(free) == 0 {
		return engine.Pass
	}
	return free[rng.IntN(len(free))]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// playRandom plays n random tries (fewer if play ends) and fails the test
// at the first difference with the plaintext referee.
func (gm *testGame) playRandom(rng *rand.Rand, n int, cover map[string]int) int {
	gm.t.Helper()
	last := engine.NoPoint
	played := 0
	for range n {
		if gm.ref.PlayEnded() {
			break
		}
		p := randomTry(rng, gm.ref, last)
		mover := gm.cfg.PartyOf(gm.ref.ToMove())
		out, d := gm.step(p)
		if d != "" {
			gm.t.Fatal(d)
		}
		if p != engine.Pass {
			last = p
		}
		played++
		if cover != nil {
			addCoverage(cover, out, gm.ref, mover)
		}
	}
	return played
}

func addCoverage(c map[string]int, out phantom.TryOutcome, next phantom.Referee, mover circuit.Party) {
	c["mover "+mover.String()]++
	switch {
	case out.Pass:
		c["pass"]++
	case !out.Legal:
		c["illegal "+out.Reason.String()]++
	default:
		c["moved"]++
	}
	if len(out.Captured) == 1 {
		c["captured one"]++
	}
	if len(out.Captured) > 1 {
		c["captured several"]++
	}
	if out.AtariOpponent {
		c["atari opponent"]++
	}
	if out.AtariSelf {
		c["atari self"]++
		// PG-5: a capture can leave a chain of several stones in atari
		// only when every chain it joined was in atari before.
		b := next.Board()
		if stones, _ := b.Chain(out.Point); len(out.Captured) > 0 && len(stones) > 1 {
			c["atari self, capture joining atari"]++
		}
	}
	if out.Legal && !out.Pass && next.Ko() != engine.NoPoint {
		c["sets ko"]++
	}
}

// prepareRequest is PrepareRequestAhead waited for (MPC-D51): the
// preparation made before the call returns.
func (e *Evaluator) prepareRequest() {
	e.PrepareRequestAhead()
	if a := e.reqAhead; a != nil {
		<-a.done
	}
}
