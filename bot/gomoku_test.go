package bot

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

// auditGomoku builds the record of a finished game from both views and
// audits it (GM-8): the bot must never break a rule.
func auditGomoku(t testing.TB, a, b gomoku.View) {
	t.Helper()
	var opened []gomoku.Opening
	for i, n := range b.History() {
		if n.Mover == b.Me() && n.Outcome == gomoku.PlacedHidden {
			opened = append(opened, gomoku.Opening{Move: i + 1, Point: n.Turn.Point})
		}
	}
	rec, err := a.Record(opened)
	if err != nil {
		t.Fatalf("record: %v", err)
	}
	if err := gomoku.Audit(rec); err != nil {
		t.Fatalf("audit: %v", err)
	}
}

// TestGM3GM8GomokuBotGames plays bot against bot and bot against the
// random player on several sizes: every action is accepted by the views,
// every game ends, and the audit of GM-8 finds no fault.
func TestGM3GM8GomokuBotGames(t *testing.T) {
	for i := 0; i < 6; i++ {
		o := engine.Options{Variant: engine.VariantGomoku, Size: []int{7, 9, 11}[i%3]}
		x, y := gomokuActor(NewGomokuBot(Levels[2], uint64(i)).Act), gomokuActor(NewGomokuBot(Levels[1], uint64(i+1)).Act)
		if i%4 == 1 {
			y = randomGomoku(uint64(i))
		}
		if i%4 == 2 {
			x, y = randomGomoku(uint64(i)), x
		}
		a, b := playGomoku(t, o, x, y)
		auditGomoku(t, a, b)
	}
}

// TestGomokuBotBeatsRandom: the bot wins nearly every game against the
// random player.
func TestGomokuBotBeatsRandom(t *testing.T) {
	wins := 0
	const games = 6
	o := engine.Options{Variant: engine.VariantGomoku, Size: 9}
	for i := 0; i < games; i++ {
		bot := gomokuActor(NewGomokuBot(Levels[2], uint64(i)).Act)
		var views [2]gomoku.View
		seat := i % 2
		if seat == 0 {
			views[0], views[1] = playGomoku(t, o, bot, randomGomoku(uint64(i)))
		} else {
			views[0], views[1] = playGomoku(t, o, randomGomoku(uint64(i)), bot)
		}
		if views[0].Result().Winner == views[seat].Me() {
			wins++
		}
	}
	if wins < games-1 {
		t.Errorf("the bot won %d of %d games", wins, games)
	}
}

// gomokuPosition sets up two views by playing turns in which nothing is
// revealed in answer: pieces[i] is the point of turn i+1 (O first) and
// lines[i] its announced line kind. It returns the views of O and X.
func gomokuPosition(t testing.TB, size int, opening string, pieces []string, lines []gomoku.LineKind) (o, x gomoku.View) {
	t.Helper()
	opts := engine.Options{Variant: engine.VariantGomoku, Size: size}
	inv, _ := gomoku.NewView(opts, gomoku.Inviter)
	guest, _ := gomoku.NewView(opts, gomoku.Invitee)
	step := func(actor *gomoku.View, other *gomoku.View, act func(gomoku.View) (gomoku.View, gomoku.Event, error)) {
		next, ev, err := act(*actor)
		if err != nil {
			t.Fatal(err)
		}
		*actor = next
		if *other, err = other.Observe(ev); err != nil {
			t.Fatal(err)
		}
	}
	p0, _ := engine.ParseVertex(size, opening)
	step(&inv, &guest, func(v gomoku.View) (gomoku.View, gomoku.Event, error) { return v.PlaceOpening(p0) })
	step(&guest, &inv, func(v gomoku.View) (gomoku.View, gomoku.Event, error) {
		return v.ChooseSide(gomoku.O)
	})
	views := map[engine.Color]*gomoku.View{guest.Me(): &guest, inv.Me(): &inv}
	for i, s := range pieces {
		p, _ := engine.ParseVertex(size, s)
		mover := views[gomoku.O]
		other := views[gomoku.X]
		if i%2 == 1 {
			mover, other = other, mover
		}
		step(mover, other, func(v gomoku.View) (gomoku.View, gomoku.Event, error) { return v.Commit(p) })
		step(mover, other, func(v gomoku.View) (gomoku.View, gomoku.Event, error) { return v.Announce(lines[i]) })
		step(other, mover, func(v gomoku.View) (gomoku.View, gomoku.Event, error) { return v.Respond(nil) })
		step(mover, other, func(v gomoku.View) (gomoku.View, gomoku.Event, error) {
			return v.Declare(gomoku.Declaration{Five: v.FiveDue()})
		})
	}
	return *views[gomoku.O], *views[gomoku.X]
}

// TestGM3GomokuBotBlocksByReveal: O has built four in a row hidden,
// announcing columns B..E; the bot (X) holds a hidden piece at F5, the
// fifth point. When O announces column F, X reveals F5, which blocks the
// five (and makes O's move fail if O committed there).
func TestGM3GomokuBotBlocksByReveal(t *testing.T) {
	col, row := gomoku.Column, gomoku.Row
	// respond has O commit to F5 and announce column F, and returns X's
	// answer.
	respond := func(o, x gomoku.View) []engine.Point {
		f5, _ := engine.ParseVertex(9, "F5")
		next, _, err := o.Commit(f5)
		if err != nil {
			t.Fatal(err)
		}
		_, ev, err := next.Announce(col)
		if err != nil {
			t.Fatal(err)
		}
		if x, err = x.Observe(gomoku.Event{Kind: gomoku.EventCommit}); err != nil {
			t.Fatal(err)
		}
		if x, err = x.Observe(ev); err != nil {
			t.Fatal(err)
		}
		return NewGomokuBot(DefaultLevel, 1).ChooseResponse(x)
	}
	o, x := gomokuPosition(t, 9, "J9",
		[]string{"B5", "F5", "C5", "A1", "D5", "J1", "E5", "H8"},
		[]gomoku.LineKind{col, row, col, row, col, row, col, row})
	if got := respond(o, x); !slices.Contains(got, engine.PointAt(9, 5, 4)) {
		t.Errorf("O threatens a five in column F: X reveals %s, want F5 among them", engine.FormatVertices(9, got))
	}
	// Where O threatens nothing, X keeps its pieces hidden.
	o, x = gomokuPosition(t, 9, "J9",
		[]string{"A9", "F5", "J2", "A1"},
		[]gomoku.LineKind{row, row, col, row})
	if got := respond(o, x); len(got) != 0 {
		t.Errorf("O threatens nothing: X reveals %s, want nothing", engine.FormatVertices(9, got))
	}
}

// TestGM5GM6GomokuBotDeclares: "five" exactly when due, and the claim with
// two lines.
func TestGM5GM6GomokuBotDeclares(t *testing.T) {
	row := gomoku.Row
	// X builds row 2 and row 8 while O plays far away; X's ninth piece makes
	// its second five.
	pieces := []string{}
	lines := []gomoku.LineKind{}
	xs := []string{"A2", "B2", "C2", "D2", "E2", "A8", "B8", "C8", "D8", "E8"}
	os := []string{"G4", "G5", "G6", "G7", "H4", "H5", "H6", "H7", "J4", "J5"}
	for i := range xs {
		pieces = append(pieces, os[i], xs[i])
		lines = append(lines, row, row)
	}
	bot := NewGomokuBot(DefaultLevel, 1)
	// Play all but the last X piece, then let the bot declare after it.
	_, x := gomokuPosition(t, 9, "E5", pieces[:len(pieces)-1], lines[:len(lines)-1])
	e8, _ := engine.ParseVertex(9, "E8")
	x, _, err := x.Commit(e8)
	if err != nil {
		t.Fatal(err)
	}
	x, _, _ = x.Announce(row)
	x, err = x.Observe(gomoku.Event{Kind: gomoku.EventResponse})
	if err != nil {
		t.Fatal(err)
	}
	d := bot.ChooseDeclaration(x)
	if d.Five || !d.Claim {
		t.Errorf("declaration %+v, want a claim without five (the first five came at E2)", d)
	}
	if _, _, err := x.Declare(d); err != nil {
		t.Errorf("the declaration is refused: %v", err)
	}
}

// TestGomokuBotHiddenInformation: two games that differ only in where O's
// hidden pieces stand on their announced lines give X the same view and
// the bot the same choices for the same seed.
func TestGomokuBotHiddenInformation(t *testing.T) {
	col, row := gomoku.Column, gomoku.Row
	lines := []gomoku.LineKind{col, row, col, row, col, row}
	_, a := gomokuPosition(t, 9, "E5", []string{"B5", "F6", "C4", "A1", "D7", "J2"}, lines)
	_, b := gomokuPosition(t, 9, "E5", []string{"B2", "F6", "C8", "A1", "D1", "J2"}, lines)
	pa := NewGomokuBot(DefaultLevel, 4).ChooseCommit(a)
	pb := NewGomokuBot(DefaultLevel, 4).ChooseCommit(b)
	if pa != pb {
		t.Errorf("same view, commitments %s and %s", pa.Vertex(9), pb.Vertex(9))
	}
}

// gomokuRefereeGame plays a referee's game (GM-D2's whole turns, nothing
// revealed): X's opening, then pieces alternately from O.
func gomokuRefereeGame(t *testing.T, size int, opening string, pieces []string) gomoku.Game {
	t.Helper()
	g, err := gomoku.NewGame(engine.Options{Variant: engine.VariantGomoku, Size: size})
	if err != nil {
		t.Fatal(err)
	}
	moves := append([]string{opening}, pieces...)
	for i, s := range moves {
		p, err := engine.ParseVertex(size, s)
		if err != nil {
			t.Fatal(err)
		}
		c := gomoku.X
		if i%2 == 1 {
			c = gomoku.O
		}
		if g, err = g.Play(c, p); err != nil {
			t.Fatalf("play %v %s: %v", c, s, err)
		}
	}
	return g
}

// TestGM4GomokuBotHiddenInformationEveryEntryPoint (GM-4, BOT-GM-D1, BOT-GM-D8): the
// bot's every decision depends only on its side's view. Two games differ
// only in where O's hidden pieces stand (on their announced lines for the
// network views; anywhere for the referee's games of GTP's genmove):
// every entry point — ChooseCommit, ChooseLine, ChooseResponse,
// ChooseDeclaration, Act, and ChoosePlacement on a referee's game — gives
// X the same answer for the same seed.
func TestGM4GomokuBotHiddenInformationEveryEntryPoint(t *testing.T) {
	col, row := gomoku.Column, gomoku.Row
	lines := []gomoku.LineKind{col, row, col, row, col, row}
	_, a := gomokuPosition(t, 9, "E5", []string{"B5", "F6", "C4", "A1", "D7", "J2"}, lines)
	_, b := gomokuPosition(t, 9, "E5", []string{"B2", "F6", "C8", "A1", "D1", "J2"}, lines)
	for seed := uint64(1); seed <= 4; seed++ {
		same := func(name string, f func(*GomokuBot, gomoku.View) string) {
			t.Helper()
			if ra, rb := f(NewGomokuBot(DefaultLevel, seed), a), f(NewGomokuBot(DefaultLevel, seed), b); ra != rb {
				t.Errorf("seed %d: %s answers %s and %s on the same view", seed, name, ra, rb)
			}
		}
		same("ChooseCommit", func(g *GomokuBot, v gomoku.View) string { return g.ChooseCommit(v).Vertex(9) })
		same("Act", func(g *GomokuBot, v gomoku.View) string {
			next, ev, err := g.Act(v)
			return fmt.Sprint(ev, err, next.Committed())
		})
		same("ChooseLine after Act", func(g *GomokuBot, v gomoku.View) string {
			next, _, err := g.Act(v)
			if err != nil {
				return err.Error()
			}
			return fmt.Sprint(g.ChooseLine(next))
		})
	}

	// X answers O's announcements: O's hidden pieces differ, X's view not.
	_, ra := gomokuPosition(t, 9, "E5", []string{"B5", "F6", "C4", "A1", "D7"}, lines)
	_, rb := gomokuPosition(t, 9, "E5", []string{"B2", "F6", "C8", "A1", "D1"}, lines)
	if fmt.Sprint(NewGomokuBot(DefaultLevel, 7).ChooseDeclaration(ra)) != fmt.Sprint(NewGomokuBot(DefaultLevel, 7).ChooseDeclaration(rb)) {
		t.Errorf("ChooseDeclaration differs on the same view")
	}

	// The referee's games of GTP's genmove: O's hidden pieces anywhere.
	ga := gomokuRefereeGame(t, 9, "E5", []string{"B5", "F6", "C4", "A1", "D7", "J2"})
	gb := gomokuRefereeGame(t, 9, "E5", []string{"H8", "F6", "A9", "A1", "J9", "J2"})
	for seed := uint64(1); seed <= 8; seed++ {
		xa := NewGomokuBot(DefaultLevel, seed).ChoosePlacement(GomokuKnowledgeOf(ga, gomoku.X))
		xb := NewGomokuBot(DefaultLevel, seed).ChoosePlacement(GomokuKnowledgeOf(gb, gomoku.X))
		if xa != xb {
			t.Errorf("seed %d: ChoosePlacement for X answers %s and %s: it reads O's hidden pieces", seed, xa.Vertex(9), xb.Vertex(9))
		}
	}
}
