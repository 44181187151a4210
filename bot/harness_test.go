package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"

	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/engine/phantom"
)

// phantomChooser picks a try from a player's view.
type phantomChooser func(v phantom.View) engine.Point

// randomPhantom tries uniformly among the sensible tries that are not
// certain own eyes, and passes when there are none.
func randomPhantom(seed uint64) phantomChooser {
	rng := rand.New(rand.NewPCG(seed, 7))
	return func(v phantom.View) engine.Point {
		geo := geometryOf(v.Size())
		own := func(p engine.Point) engine.Color {
			if v.At(p) == phantom.Own {
				return v.Me()
			}
			return engine.Empty
		}
		var ps []engine.Point
		for _, p := range v.SensibleTries() {
			if !geo.eyeOf(own, p, v.Me()) {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			return engine.Pass
		}
		return ps[rng.IntN(len(ps))]
	}
}

// playPhantom plays a game of Phantom Go between two choosers through the
// referee and both views, checking every try the choosers make against
// the view (never a try SensibleTries excludes). It returns the referee at
// the end and the number of tries.
func playPhantom(t testing.TB, o engine.Options, players [3]phantomChooser, maxTries int) (phantom.Referee, int) {
	t.Helper()
	r, err := phantom.NewReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	var views [3]phantom.View
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if views[c], err = phantom.NewView(o, c); err != nil {
			t.Fatal(err)
		}
	}
	tries := 0
	for !r.PlayEnded() && tries < maxTries {
		c := r.ToMove()
		p := players[c](views[c])
		if p != engine.Pass && !containsPoint(views[c].SensibleTries(), p) {
			t.Fatalf("try %d: %v tried %s, not a sensible try of its view", tries, c, p.Vertex(o.Size))
		}
		next, out, err := r.Try(c, p)
		if err != nil {
			t.Fatalf("try %d: %v", tries, err)
		}
		for _, to := range []engine.Color{engine.Black, engine.White} {
			a := phantom.Announce(r.Rules(), r.Options().Size, out, to)
			if views[to], err = views[to].Apply(a); err != nil {
				t.Fatalf("try %d: view of %v: %v", tries, to, err)
			}
		}
		r = next
		tries++
	}
	return r, tries
}

func containsPoint(ps []engine.Point, p engine.Point) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// gomokuActor does what its player must do now.
type gomokuActor func(v gomoku.View) (gomoku.View, gomoku.Event, error)

// randomGomoku commits to random legal points, announces a random line,
// never reveals in answer, and declares what is due.
func randomGomoku(seed uint64) gomokuActor {
	rng := rand.New(rand.NewPCG(seed, 9))
	return func(v gomoku.View) (gomoku.View, gomoku.Event, error) {
		switch v.Phase() {
		case gomoku.PhaseOpening:
			return v.PlaceOpening(engine.Point(rng.IntN(v.Size() * v.Size())))
		case gomoku.PhaseChooseSide:
			return v.ChooseSide(engine.Color(1 + rng.IntN(2)))
		case gomoku.PhaseCommit:
			ps := v.LegalPoints()
			if len(ps) == 0 {
				return v.DeclareNoLegalPoint()
			}
			return v.Commit(ps[rng.IntN(len(ps))])
		case gomoku.PhaseAnnounce:
			return v.Announce(gomoku.LineKind(1 + rng.IntN(2)))
		case gomoku.PhaseRespond:
			return v.Respond(nil)
		case gomoku.PhaseReveal:
			return v.Reveal()
		}
		d := gomoku.Declaration{Five: v.FiveDue()}
		if lines, ok := v.WinningLines(); ok {
			d.Claim, d.Lines = true, lines
		}
		return v.Declare(d)
	}
}

// playGomoku plays a game between the inviter (seat 0) and the invitee
// (seat 1), each event of one observed by the other, and audits the record
// at the end. It returns both final views.
func playGomoku(t testing.TB, o engine.Options, inviter, invitee gomokuActor) (gomoku.View, gomoku.View) {
	t.Helper()
	a, err := gomoku.NewView(o, gomoku.Inviter)
	if err != nil {
		t.Fatal(err)
	}
	b, err := gomoku.NewView(o, gomoku.Invitee)
	if err != nil {
		t.Fatal(err)
	}
	views := [2]*gomoku.View{&a, &b}
	actors := [2]gomokuActor{inviter, invitee}
	for step := 0; !a.Over() && !b.Over(); step++ {
		if step > 20000 {
			t.Fatal("gomoku game does not end")
		}
		k := 0
		if !a.MyTurn() {
			k = 1
		}
		if !views[k].MyTurn() {
			t.Fatalf("nobody to act in phase %s", a.Phase())
		}
		next, ev, err := actors[k](*views[k])
		if err != nil {
			t.Fatalf("step %d, phase %s, seat %d: %v", step, views[k].Phase(), k, err)
		}
		*views[k] = next
		other, err := views[1-k].Observe(ev)
		if err != nil {
			t.Fatalf("step %d: observe %s: %v", step, ev.Kind, err)
		}
		*views[1-k] = other
	}
	return a, b
}
