package gomoku

import (
	"testing"

	"github.com/kakure/kakure/engine"
)

// chooser turns fuzz input into choices: two bytes per choice while
// they last, then a splitmix64 stream seeded from the input, so that short
// inputs still give whole games.
type chooser struct {
	data  []byte
	state uint64
}

func newChooser(data []byte) *chooser {
	c := &chooser{data: data, state: 0x676f6d6f6b75}
	for _, b := range data {
		c.state = c.state*31 + uint64(b)
	}
	return c
}

func (c *chooser) intn(n int) int {
	if n <= 1 {
		return 0
	}
	var x uint64
	if len(c.data) >= 2 {
		x = uint64(c.data[0])<<8 | uint64(c.data[1])
		c.data = c.data[2:]
	} else {
		c.state += 0x9e3779b97f4a7c15
		z := c.state
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		x = z ^ (z >> 31)
	}
	return int(x % uint64(n))
}

// playRandom plays a whole random game through a duel; every turn is
// checked by the duel (views and game agree).
func playRandom(t testing.TB, c *chooser) *duel {
	sizes := []int{7, 7, 7, 8, 9, 9, 11, 19}
	size := sizes[c.intn(len(sizes))]
	choice := X
	if c.intn(2) == 1 {
		choice = O
	}
	d := newDuel(t, size, engine.Point(c.intn(size*size)), choice)
	for turns := 0; !d.game.Over(); turns++ {
		if turns > 4*size*size*2+10 {
			t.Fatalf("game of %d turns on %dx%d: the turn bound does not hold", turns, size, size)
		}
		mover := d.game.ToMove()
		m, r := d.of(mover), d.of(mover.Opponent())
		legal := m.LegalPoints()
		if c.intn(25) == 0 {
			d.pass()
			continue
		}
		// Prefer points next to the mover's own pieces, so that fives
		// and double fives happen.
		var near []engine.Point
		own := m.OwnPieces()
		for _, p := range legal {
			x, y := p.XY(size)
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if nx, ny := x+dx, y+dy; nx >= 0 && nx < size && ny >= 0 && ny < size && own.At(engine.PointAt(size, nx, ny)) == mover {
						near = append(near, p)
						dx, dy = 2, 2
					}
				}
			}
		}
		p := legal[c.intn(len(legal))]
		if len(near) > 0 && c.intn(3) > 0 {
			p = near[c.intn(len(near))]
		}
		kind := Row
		if c.intn(2) == 1 {
			kind = Column
		}
		all := c.intn(4) == 0
		var reveals []engine.Point
		for _, q := range r.HiddenInLine(LineOf(size, p, kind)) {
			if all || c.intn(3) == 0 {
				reveals = append(reveals, q)
			}
		}
		d.turn(p, kind, reveals)
	}
	return d
}

// checkFinished checks the end of a game: the record both players
// build audits clean and replays to the same result, and a lie put into it
// is found, at the right turn, against the right player.
func checkFinished(t testing.TB, d *duel, c *chooser) {
	rec := d.record(X)
	g, err := Replay(rec)
	if err != nil {
		t.Fatalf("honest game fails the audit: %v", err)
	}
	if g.Result() != d.game.Result() || g.String() != d.game.String() {
		t.Fatalf("replay ends %v\n%s\ngame ended %v\n%s", g.Result(), g, d.game.Result(), d.game)
	}
	var moves []int
	for k, tr := range rec.Turns {
		if !tr.Pass && !tr.NoLegalPoint {
			moves = append(moves, k+1)
		}
	}
	if len(moves) == 0 {
		return
	}
	k := moves[c.intn(len(moves))]
	mover := O
	if k%2 == 0 {
		mover = X
	}
	bad := cloneRecord(rec)
	tr := &bad.Turns[k-1]
	rule := "GM-3"
	switch c.intn(2) {
	case 0: // a line that does not hold the committed point
		x, y := tr.Point.XY(d.size)
		if tr.Line.Kind == Row {
			tr.Line.Index = (y + 1) % d.size
		} else {
			tr.Line.Index = (x + 1) % d.size
		}
	default: // a false or missing "five"
		tr.Five = !tr.Five
		rule = "GM-5"
	}
	v, ok := asViolation(Audit(bad))
	if !ok || v.Rule != rule || v.Move != k || v.Player != mover {
		t.Fatalf("lie (%s) at move %d by %s: audit says %v", rule, k, PieceName(mover), Audit(bad))
	}
}

// FuzzGomokuGame plays random games with two per-player views and the
// full-information game in step. Invariants: the views and the game agree
// after every turn (pieces, revealed points, hidden counts, legal points,
// fives, phase, result); the game ends within the turn bound; both
// players' records are equal, audit clean and replay to the same end; a lie
// put into the record is found by the audit at its turn.
func FuzzGomokuGame(f *testing.F) {
	for _, seed := range []string{"", "a", "xo", "gomoku", "double five", "hidden move", "pie rule", "kakure", "\x00\x01\x02\x03", "\xff\xfe\xfd\xfc\xfb\xfa"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newChooser(data)
		d := playRandom(t, c)
		checkFinished(t, d, c)
	})
}

// FuzzGomokuFiveLines checks the geometry on random boards against a plain
// count: FiveLines finds exactly the filled windows, HasFive agrees, and
// DoubleFive finds two lines exactly when some pair of windows shares at
// most one point.
func FuzzGomokuFiveLines(f *testing.F) {
	for _, seed := range []string{"", "\x00\xff", "\x02\xc0xxxxxxxx", "\x0c\xe0five in a row", "\x05\xf0\xff\xff\xff\xff\xff\xff"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newChooser(data)
		size := 7 + c.intn(13)
		density := 1 + c.intn(9) // in tenths
		b := engine.MustNewBoard(size)
		for p := engine.Point(0); int(p) < size*size; p++ {
			switch r := c.intn(10); {
			case r < density:
				b.Set(p, engine.Black)
			case r == 9:
				b.Set(p, engine.White)
			}
		}
		fives := FiveLines(b, engine.Black)
		// Plain count: every start and every direction, by coordinates.
		want := 0
		steps := [][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}}
		for y := range size {
			for x := range size {
				for _, s := range steps {
					ok := true
					for i := range 5 {
						nx, ny := x+i*s[0], y+i*s[1]
						if nx < 0 || nx >= size || ny >= size || b.At(engine.PointAt(size, nx, ny)) != engine.Black {
							ok = false
							break
						}
					}
					if ok {
						want++
					}
				}
			}
		}
		if len(fives) != want {
			t.Fatalf("FiveLines found %d windows, want %d\n%s", len(fives), want, b)
		}
		if HasFive(b, engine.Black) != (want > 0) {
			t.Fatalf("HasFive = %t with %d windows\n%s", HasFive(b, engine.Black), want, b)
		}
		pair := false
		for i := range fives {
			if err := CheckDoubleFive(b, engine.Black, [2]Five{fives[i], fives[i]}); err == nil {
				t.Fatalf("a window paired with itself passes CheckDoubleFive")
			}
			for j := i + 1; j < len(fives); j++ {
				if fives[i].Shared(size, fives[j]) <= 1 {
					pair = true
				}
			}
		}
		lines, ok := DoubleFive(b, engine.Black)
		if ok != pair {
			t.Fatalf("DoubleFive = %t, a pair sharing at most one point exists = %t\n%s", ok, pair, b)
		}
		if ok {
			if err := CheckDoubleFive(b, engine.Black, lines); err != nil {
				t.Fatalf("DoubleFive's lines fail CheckDoubleFive: %v\n%s", err, b)
			}
		}
	})
}

// BenchmarkGomokuDoubleFive measures the win check on a crowded 19x19
// board.
func BenchmarkGomokuDoubleFive(b *testing.B) {
	bd := engine.MustNewBoard(19)
	c := newChooser([]byte("bench"))
	for p := engine.Point(0); p < 361; p++ {
		if c.intn(2) == 0 {
			bd.Set(p, engine.Black)
		}
	}
	for b.Loop() {
		DoubleFive(bd, engine.Black)
	}
}

// BenchmarkGomokuRandomGame measures a whole random game through two views
// and the full-information game, with the harness's checks.
func BenchmarkGomokuRandomGame(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		playRandom(b, newChooser([]byte{byte(i), byte(i >> 8)}))
	}
}
