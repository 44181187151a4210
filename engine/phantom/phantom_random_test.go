package phantom

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kakure/kakure/engine"
)

// reference is the outcome of the reference referee below.
type reference struct {
	next engine.Board
	out  TryOutcome
	ko   engine.Point
}

// referenceTry is PG-2..PG-5 written as directly as possible from
// the text of the rules, with Board.Chain and no shortcuts: the fuzz tests
// hold the referee to it on every try.
func referenceTry(b engine.Board, ko engine.Point, c engine.Color, p engine.Point) reference {
	res := reference{next: b, out: TryOutcome{Mover: c, Point: p}, ko: ko}
	opp := c.Opponent()
	switch b.At(p) {
	case c:
		res.out.Reason = TryOccupiedOwn
		return res
	case opp:
		res.out.Reason = TryOccupiedOpponent
		return res
	}
	next := b
	next.Set(p, c)
	placed := chainLiberties(next)
	var captured []engine.Point
	for i := 0; i < next.Points(); i++ {
		if q := engine.Point(i); next.At(q) == opp && placed[q] == 0 {
			captured = append(captured, q)
		}
	}
	for _, q := range captured {
		next.Set(q, engine.Empty)
	}
	stones, libs := next.Chain(p)
	switch {
	case p == ko && len(captured) == 1:
		res.out.Reason = TryKo
		return res
	case len(libs) == 0:
		res.out.Reason = TrySuicide
		return res
	}
	res.out.Legal = true
	if len(captured) > 0 {
		res.out.Captured = captured
	}
	// "at least one opponent chain has exactly one liberty after the move
	// and had two or more before it"
	before, after := chainLiberties(b), chainLiberties(next)
	for i := 0; i < next.Points(); i++ {
		if q := engine.Point(i); next.At(q) == opp && after[q] == 1 && before[q] >= 2 {
			res.out.AtariOpponent = true
		}
	}
	// "the chain that contains the new stone has exactly one liberty after
	// the move, and either the move captured at least one stone or none of
	// the mover's chains that it joined was in atari before the move"
	joinedInAtari := false
	for _, q := range stones {
		if q != p && before[q] == 1 {
			joinedInAtari = true
		}
	}
	res.out.AtariSelf = len(libs) == 1 && (len(captured) > 0 || !joinedInAtari)
	res.ko = engine.NoPoint
	if len(captured) == 1 && len(stones) == 1 && len(libs) == 1 {
		res.ko = captured[0]
	}
	res.next = next
	return res
}

// chainLiberties returns, for every stone of b, the number of
// liberties of its chain, from Board.Chain.
func chainLiberties(b engine.Board) (libs [engine.MaxPoints]int) {
	var done [engine.MaxPoints]bool
	for i := 0; i < b.Points(); i++ {
		if p := engine.Point(i); b.At(p) != engine.Empty && !done[p] {
			stones, l := b.Chain(p)
			for _, q := range stones {
				done[q] = true
				libs[q] = len(l)
			}
		}
	}
	return libs
}

// randomGame plays a random game from the bytes of data (as a fuzz
// input) and calls visit after every try. Tries are drawn mostly among the
// mover's sensible tries of a view that is fed its announcements, sometimes
// among all points, and sometimes a pass.
func randomGame(t testing.TB, data []byte, visit func(before, after Referee, out TryOutcome, views *[3]View)) {
	t.Helper()
	size := engine.MinSize
	rules := engine.RulesCommon
	if len(data) >= 2 {
		size = engine.MinSize + int(data[0])%5
		rules = []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel}[int(data[1])%3]
		data = data[2:]
	}
	var seed uint64
	for i, x := range data {
		seed ^= uint64(x) << (8 * (i % 8))
		seed = seed*0x9e3779b97f4a7c15 + uint64(i)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(data))))
	o := engine.Options{Variant: engine.VariantPhantom, Size: size, Rules: rules}
	r, err := NewReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	views := [3]View{}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if views[c], err = NewView(o, c); err != nil {
			t.Fatal(err)
		}
	}
	for try := 0; try < 40*size && !r.PlayEnded(); try++ {
		c := r.ToMove()
		p := engine.Pass
		switch k := rng.IntN(100); {
		case k < 2:
		case r.Ko() != engine.NoPoint && k < 50:
			p = r.Ko() // the ko recapture, rare in random play otherwise
		case k < 12:
			p = engine.Point(rng.IntN(size * size))
		default:
			if tries := views[c].SensibleTries(); len(tries) > 0 {
				p = tries[rng.IntN(len(tries))]
			}
		}
		next, out, err := r.Try(c, p)
		if err != nil {
			t.Fatalf("try %d %v %s: %v", try, c, p.Vertex(size), err)
		}
		for _, to := range []engine.Color{engine.Black, engine.White} {
			a := Announce(rules, size, out, to)
			if views[to], err = views[to].Apply(a); err != nil {
				t.Fatalf("try %d: view of %v applying %q: %v\n%v", try, to, a.KeyValues(), err, r.Board())
			}
		}
		visit(r, next, out, &views)
		checkViews(t, next, views[engine.Black], views[engine.White])
		r = next
	}
}

// checkViews checks every fact the views claim against the referee.
func checkViews(t testing.TB, r Referee, views ...View) {
	t.Helper()
	b := r.Board()
	for _, v := range views {
		me := v.Me()
		if v.ToMove() != r.ToMove() || v.Passes() != r.Passes() {
			t.Fatalf("view of %v: to move %v passes %d, referee %v %d", me, v.ToMove(), v.Passes(), r.ToMove(), r.Passes())
		}
		for i := 0; i < b.Points(); i++ {
			p := engine.Point(i)
			k := v.At(p)
			switch {
			case k == Own && b.At(p) != me:
				t.Fatalf("view of %v claims an own stone at %s\n%v", me, p.Vertex(b.Size()), b)
			case k == Opponent && b.At(p) != me.Opponent():
				t.Fatalf("view of %v claims an opponent stone at %s\n%v", me, p.Vertex(b.Size()), b)
			case b.At(p) == me && k != Own && k != OwnUncertain:
				t.Fatalf("view of %v misses its stone at %s (%v)\n%v", me, p.Vertex(b.Size()), k, b)
			case k == OwnUncertain && v.Rules() != engine.RulesHamburg:
				t.Fatalf("view of %v has an uncertain stone under %s", me, v.Rules())
			}
		}
	}
}

func seedCorpus(f *testing.F) {
	for i := 0; i < 15; i++ {
		f.Add([]byte{byte(i), byte(i), byte(i * 7), byte(i * 13), 1, 2, 3})
	}
}

// FuzzPhantomReferee plays random games and checks the invariants of the
// referee: every outcome equals the reference referee's, stones on the
// board are those placed minus those captured, an illegal try changes
// nothing, and replaying the tries reproduces every position (T-8, T-9).
func FuzzPhantomReferee(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		type played struct {
			c engine.Color
			p engine.Point
		}
		var log []played
		var states []Referee
		var outcomes []TryOutcome
		var placed, lost [3]int
		var start Referee
		randomGame(t, data, func(before, after Referee, out TryOutcome, _ *[3]View) {
			if len(states) == 0 {
				start = before
			}
			ref := referenceTry(before.Board(), before.Ko(), out.Mover, out.Point)
			if !out.Pass {
				if !reflect.DeepEqual(out, ref.out) {
					t.Fatalf("outcome %+v, reference %+v\n%v", out, ref.out, before.Board())
				}
				if after.Board() != ref.next || (out.Legal && after.Ko() != ref.ko) {
					t.Fatalf("position or ko differs from the reference\n%v", before.Board())
				}
			}
			if !out.Legal && after != before {
				t.Fatal("an illegal try changed the referee")
			}
			if out.Legal && !out.Pass {
				placed[out.Mover]++
				lost[out.Mover.Opponent()] += len(out.Captured)
				if after.ToMove() != out.Mover.Opponent() {
					t.Fatal("a move did not pass the turn")
				}
			}
			b := after.Board()
			for _, c := range []engine.Color{engine.Black, engine.White} {
				if b.Count(c) != placed[c]-lost[c] {
					t.Fatalf("%v has %d stones, placed %d lost %d", c, b.Count(c), placed[c], lost[c])
				}
			}
			log = append(log, played{out.Mover, out.Point})
			states = append(states, after)
			outcomes = append(outcomes, out)
		})
		r := start
		for i, pl := range log {
			var out TryOutcome
			var err error
			r, out, err = r.Try(pl.c, pl.p)
			if err != nil || r != states[i] || !reflect.DeepEqual(out, outcomes[i]) {
				t.Fatalf("replay of try %d differs (%v)", i, err)
			}
		}
	})
}

// TestPGD3RandomGames plays more random games than the seed corpus in the
// normal test run: every outcome is held to the reference referee, every
// view fact to the referee's board (checkViews), and the games must
// reach the cases the checks are about.
func TestPGD3RandomGames(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 15
	}
	var count struct {
		captures, kos, selfAlone, uncertain, opponentKnown, hamburgResolved int
		captureJoinsAtari                                                   int
	}
	for g := 0; g < games; g++ {
		data := []byte{byte(g), byte(g / 5), byte(g >> 8), byte(g * 31), byte(g * 17)}
		randomGame(t, data, func(before, after Referee, out TryOutcome, views *[3]View) {
			if !out.Pass {
				ref := referenceTry(before.Board(), before.Ko(), out.Mover, out.Point)
				if !reflect.DeepEqual(out, ref.out) {
					t.Fatalf("game %d: outcome %+v, reference %+v\n%v", g, out, ref.out, before.Board())
				}
			}
			if !out.Legal && after != before {
				t.Fatalf("game %d: an illegal try changed the referee", g)
			}
			// PG-D2: a capture that leaves a chain of several stones in
			// atari ("and himself") joined only chains that were in atari
			// before; one that joined a chain with two liberties keeps two.
			if out.Legal && len(out.Captured) > 0 && out.AtariSelf {
				b := after.Board()
				if stones, _ := b.Chain(out.Point); len(stones) > 1 {
					count.captureJoinsAtari++
					prev := before.Board()
					ns, n := prev.Neighbors(out.Point)
					for _, q := range ns[:n] {
						if _, libs := prev.Chain(q); prev.At(q) == out.Mover && len(libs) != 1 {
							t.Fatalf("game %d: a capture joined %s with %d liberties and left the chain in atari\n%v",
								g, q.Vertex(prev.Size()), len(libs), prev)
						}
					}
				}
			}
			count.captures += len(out.Captured)
			if out.Reason == TryKo {
				count.kos++
			}
			if out.AtariSelf && !out.AtariOpponent {
				count.selfAlone++
			}
			for _, c := range []engine.Color{engine.Black, engine.White} {
				v := views[c]
				uncertain := 0
				for i := 0; i < v.Size()*v.Size(); i++ {
					switch v.At(engine.Point(i)) {
					case OwnUncertain:
						uncertain++
					case Opponent:
						count.opponentKnown++
					}
				}
				count.uncertain += uncertain
				if v.Rules() == engine.RulesHamburg && out.Mover != c && len(out.Captured) > 0 && uncertain == 0 {
					count.hamburgResolved++
				}
			}
		})
	}
	t.Logf("%+v", count)
	if count.captures == 0 || count.kos == 0 || count.selfAlone == 0 || count.uncertain == 0 || count.opponentKnown == 0 || count.hamburgResolved == 0 ||
		count.captureJoinsAtari == 0 {
		t.Errorf("the random games missed a case: %+v", count)
	}
}

// BenchmarkPhantomTry measures plaintext referee tries per second: random
// points (legal or not) and a few passes, on 9×9 and 19×19, starting again
// from the empty board when play ends or the board fills up.
func BenchmarkPhantomTry(b *testing.B) {
	for _, size := range []int{9, 19} {
		b.Run(map[int]string{9: "9x9", 19: "19x19"}[size], func(b *testing.B) {
			start, err := NewReferee(engine.Options{Size: size})
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			r := start
			moves := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p := engine.Point(rng.IntN(size * size))
				if rng.IntN(64) == 0 {
					p = engine.Pass
				}
				next, out, err := r.Try(r.ToMove(), p)
				if err != nil {
					b.Fatal(err)
				}
				r = next
				if out.Legal {
					moves++
				}
				if r.PlayEnded() || moves > size*size*2 {
					r, moves = start, 0
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tries/s")
		})
	}
}
