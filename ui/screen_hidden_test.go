package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/engine/gomoku"

	"github.com/kakure/kakure/engine/fgo"

	"github.com/kakure/kakure/engine/hmg"
	"github.com/kakure/kakure/engine/phantom"
)

// TestHMG1ChooseCards checks the card choice before move 1: Enter adds a
// point, ^U takes the last back, no more than the game's cards, ^D sends
// them only once all are chosen; the chosen points show in brackets.
func TestHMG1ChooseCards(t *testing.T) {
	o, err := engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 2, CardsSet: true}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	game, err := hmg.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	v := protocol.View{Role: protocol.Invitee, Color: engine.Black, Options: o, Phase: protocol.PhasePlay,
		MyTurn: true, Kinds: []protocol.Kind{hmgrules.KindCards},
		Variant: hmgrules.View{Stage: hmgrules.StageCards, Game: game, OpponentCards: game.Cards(engine.White)}}
	g := &fakeGame{view: v}
	s := g.screen(t)
	press(s, "a1\n\x04")
	if len(g.actions) != 0 || !strings.Contains(s.Model().Message, "choose 1 more first") {
		t.Errorf("^D with one card of two: actions %q, message %q", g.played(5), s.Model().Message)
	}
	press(s, "b2\nc3\n")
	if !strings.Contains(s.Model().Message, "all 2 hidden moves are chosen") {
		t.Errorf("a third card: message %q", s.Model().Message)
	}
	press(s, "\x15c3\n")
	bm := s.Board().Model()
	for _, p := range []string{"A1", "C3"} {
		if !bm.At(vtx(t, 5, p)).Has(MarkPending) {
			t.Errorf("chosen %s not shown", p)
		}
	}
	if bm.At(vtx(t, 5, "B2")).Has(MarkPending) {
		t.Error("B2 taken back but still shown")
	}
	if text := drawScreen(t, s, 80, 24); !strings.Contains(text, "Chosen: A1 C3 (2 of 2)") {
		t.Errorf("panel does not list the cards:\n%s", text)
	}
	press(s, "\x04")
	if got := g.played(5); got != "cards A1,C3" {
		t.Errorf("^D sent %q", got)
	}
}

// TestHMG2RevealKey reveals a card of the recorded game with the reveal
// key: ^V lists the cards that may be revealed, a digit reveals one.
func TestHMG2RevealKey(t *testing.T) {
	s, g := newRecordScreen(t, "hmg", protocol.Inviter)
	g.until(t, s, func() bool {
		r := s.variant.(revealer)
		return len(r.revealable(s.Model())) > 0
	})
	cards := s.variant.(revealer).revealable(s.Model())
	press(s, "\x16")
	if s.dialog == nil {
		t.Fatal("^V opened no list")
	}
	text := drawScreen(t, s, 80, 24)
	for _, c := range cards {
		if want := fmt.Sprintf("%d  %s", c.Card+1, c.Point.Vertex(5)); !strings.Contains(text, want) {
			t.Errorf("the list lacks %q:\n%s", want, text)
		}
	}
	// A bare Enter reveals nothing (a reveal cannot be taken back); a
	// number chooses, Enter confirms.
	press(s, "\n")
	if len(g.actions) != 0 || s.dialog == nil {
		t.Fatalf("a bare Enter sent %q (dialog open: %v)", actionsText(5, g.actions), s.dialog != nil)
	}
	press(s, fmt.Sprint(cards[len(cards)-1].Card+1))
	if len(g.actions) != 0 {
		t.Fatalf("a number alone sent %q", actionsText(5, g.actions))
	}
	press(s, "\n")
	if got, want := actionsText(5, g.actions), fmt.Sprintf("reveal %d", cards[len(cards)-1].Card); got != want {
		t.Errorf("sent %q, want %q", got, want)
	}
}

// TestHMG5UndoShown checks that an undo is told so that both players
// understand it: whose move was undone, and that the revealer's turn ended.
func TestHMG5UndoShown(t *testing.T) {
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		s, g := newRecordScreen(t, "hmg", r)
		var undo hmgrules.EventRevealed
		g.until(t, s, func() bool {
			for _, e := range g.steps[g.at-1].events {
				if rv, ok := e.(hmgrules.EventRevealed); ok && rv.Undo {
					undo = rv
					return true
				}
			}
			return false
		})
		victim := Name(undo.Color.Opponent())
		want := fmt.Sprintf("on %s's last stone: %s's move %s is undone (HMG-5)", victim, victim, undo.Point.Vertex(5))
		log := strings.Join(s.Model().Log, "\n")
		if !strings.Contains(log, want) || !strings.Contains(log, Name(undo.Color)+"'s turn ends") {
			t.Errorf("role %d: log does not tell the undo %q:\n%s", r, want, log)
		}
		if !s.Board().Model().At(undo.Point).Has(MarkHighlight) {
			t.Errorf("role %d: the revealed stone is not highlighted", r)
		}
	}
}

// TestHMGNothingHiddenOnScreen plays the recorded Hidden Move Go game on
// both sides and checks after every message, until the cards are opened
// at the end, that neither screen shows an opponent card not revealed yet:
// not on the board (no opponent stone where the public board has none, no
// bracket), not in the panel, not in the log.
func TestHMGNothingHiddenOnScreen(t *testing.T) {
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		s, g := newRecordScreen(t, "hmg", r)
		final := g.steps[len(g.steps)-1].view.Variant.(hmgrules.View)
		checked := 0
		for g.next(s) {
			v := s.Model().View
			hv, ok := v.Variant.(hmgrules.View)
			if !ok || v.Color == engine.Empty || hv.Stage == hmgrules.StageDone || v.Outcome != nil {
				continue
			}
			opp := v.Color.Opponent()
			public := hv.Game.Board()
			bm := s.Board().Model()
			now := hv.Game.Cards(opp)
			text := drawScreen(t, s, 100, 40)
			for i, c := range final.Game.Cards(opp) {
				if now[i].Revealed {
					continue
				}
				p := c.Point
				if public.At(p) == engine.Empty && (bm.At(p).Stone != engine.Empty || bm.At(p).Has(MarkPending) && !ownCardAt(hv, p)) {
					t.Fatalf("role %d, message %d: hidden opponent card %s shows on the board", r, g.at, p.Vertex(5))
				}
				for _, line := range strings.Split(text, "\n") {
					if strings.Contains(line, Name(opp)+"'s:") && strings.Contains(line, fmt.Sprintf("%d %s", i+1, p.Vertex(5))) {
						t.Fatalf("role %d, message %d: hidden opponent card %s in the panel: %s", r, g.at, p.Vertex(5), line)
					}
				}
				checked++
			}
		}
		if checked == 0 {
			t.Errorf("role %d: no hidden card was ever checked", r)
		}
		// At the end the unused cards are opened: the full view shows them
		// on the board where the point is empty, and the panel lists them.
		text := drawScreen(t, s, 100, 40)
		board := final.Game.Board()
		for i, c := range final.Game.Cards(s.Model().Me().Opponent()) {
			if c.Revealed {
				continue
			}
			if board.At(c.Point) == engine.Empty && !s.Board().Model().At(c.Point).Has(MarkPending) {
				t.Errorf("role %d: unused opponent card %d at %s not on the board after the game", r, i+1, c.Point.Vertex(5))
			}
			if want := fmt.Sprintf("%d %s unused", i+1, c.Point.Vertex(5)); !strings.Contains(text, want) {
				t.Errorf("role %d: the panel lacks %q after the game", r, want)
			}
		}
	}
}

// ownCardAt reports whether the player has an unrevealed card at p.
func ownCardAt(v hmgrules.View, p engine.Point) bool {
	return slices.ContainsFunc(v.MyCards, func(c hmg.Card) bool { return !c.Revealed && c.Point == p })
}

// fgoView returns a view of F-Go for Black.
func fgoView(t *testing.T, g fgo.Game, myTurn bool, committed, oppCommitted bool, choice engine.Point) protocol.View {
	t.Helper()
	v := protocol.View{Role: protocol.Inviter, Color: engine.Black, Options: g.Options(), Phase: protocol.PhasePlay,
		MyTurn: myTurn, Kinds: []protocol.Kind{fgorules.KindCommit},
		Variant: fgorules.View{Game: g, Unavailable: g.Unavailable(), MyChoice: choice, Committed: committed,
			OpponentCommitted: oppCommitted, Waiting: !myTurn}}
	return v
}

// TestFG1ChooseConfirmTakeBack checks the F-Go choice: Enter chooses (shown
// in brackets, nothing sent), ^U takes it back, Enter on the choice again
// confirms and sends it; a choice confirmed before the protocol lets it go
// waits and goes as soon as it may, with "waiting for the opponent".
func TestFG1ChooseConfirmTakeBack(t *testing.T) {
	game, err := fgo.NewGame(options(t, engine.VariantFGo, 5))
	if err != nil {
		t.Fatal(err)
	}
	g := &fakeGame{view: fgoView(t, game, true, false, false, engine.NoPoint)}
	s := g.screen(t)
	c3 := vtx(t, 5, "C3")
	press(s, "c3\n")
	if len(g.actions) != 0 || !s.Board().Model().At(c3).Has(MarkPending) {
		t.Fatalf("Enter chose nothing or sent %q", g.played(5))
	}
	if text := drawScreen(t, s, 100, 30); !strings.Contains(text, "Your choice: C3 (not sent)") {
		t.Errorf("panel does not show the choice:\n%s", text)
	}
	press(s, "\x15")
	if s.Board().Model().At(c3).Has(MarkPending) {
		t.Error("^U did not take the choice back")
	}
	press(s, "b2\nb2\n")
	if got := g.played(5); got != "play B2" {
		t.Errorf("Enter twice sent %q", got)
	}

	// The opponent commits first: the confirmed choice waits for it.
	g.clear()
	g.set(s, fgoView(t, game, false, false, false, engine.NoPoint))
	press(s, "d4\n\x04")
	if len(g.actions) != 0 {
		t.Fatalf("a choice went out of turn: %q", g.played(5))
	}
	if text := drawScreen(t, s, 100, 30); !strings.Contains(text, "You chose D4 · waiting for White") {
		t.Errorf("panel does not say it waits:\n%s", text)
	}
	press(s, "\x15")
	if !strings.Contains(s.Model().Message, "cannot be taken back") {
		t.Errorf("^U after confirming: message %q", s.Model().Message)
	}
	v := fgoView(t, game, true, false, true, engine.NoPoint)
	g.view = v
	s.Apply(fgorules.EventCommitted{By: protocol.Invitee}, v)
	if got := g.played(5); got != "play D4" {
		t.Errorf("once the opponent committed, sent %q, want the confirmed D4", got)
	}
}

// TestFG2BothChoicesAndUnavailable checks that after a turn both choices
// show together as last moves, and that a collision's point is marked
// unavailable and refused.
func TestFG2BothChoicesAndUnavailable(t *testing.T) {
	game, err := fgo.NewGame(options(t, engine.VariantFGo, 5))
	if err != nil {
		t.Fatal(err)
	}
	b2, d4, c3 := vtx(t, 5, "B2"), vtx(t, 5, "D4"), vtx(t, 5, "C3")
	game, res, err := game.Turn(b2, d4)
	if err != nil {
		t.Fatal(err)
	}
	v := fgoView(t, game, true, false, false, engine.NoPoint)
	fv := v.Variant.(fgorules.View)
	fv.LastTurn = &res
	v.Variant = fv
	g := &fakeGame{view: v}
	s := g.screen(t)
	s.Apply(fgorules.EventTurn{Result: res}, v)
	bm := s.Board().Model()
	if !bm.IsLast(b2) || !bm.IsLast(d4) {
		t.Errorf("both choices are not shown as last moves: B2 %v D4 %v", bm.IsLast(b2), bm.IsLast(d4))
	}
	if !strings.Contains(strings.Join(s.Model().Log, "\n"), "Black B2, White D4.") {
		t.Errorf("log does not show both choices: %q", s.Model().Log)
	}

	game, res, err = game.Turn(c3, c3)
	if err != nil || res.Kind != fgo.Collision {
		t.Fatalf("collision: %v %v", res.Kind, err)
	}
	v = fgoView(t, game, true, false, false, engine.NoPoint)
	g.set(s, v)
	if !s.Board().Model().At(c3).Has(MarkUnavailable) {
		t.Error("C3 is not marked unavailable")
	}
	press(s, "c3\n")
	if s.Model().Message != "C3 is unavailable this turn" || s.Board().Model().At(c3).Has(MarkPending) {
		t.Errorf("choosing C3: message %q", s.Model().Message)
	}
}

// TestFG1NothingHiddenOnScreen plays the recorded F-Go game on both sides:
// before each turn is played the board shows exactly the public stones
// (the opponent's choice is never on it).
func TestFG1NothingHiddenOnScreen(t *testing.T) {
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		s, g := newRecordScreen(t, "fgo", r)
		for g.next(s) {
			fv, ok := s.Model().View.Variant.(fgorules.View)
			if !ok || s.Model().Over() {
				continue
			}
			b, bm := fv.Game.Board(), s.Board().Model()
			for p := engine.Point(0); int(p) < 25; p++ {
				if bm.At(p).Stone != b.At(p) || bm.At(p).Has(MarkPending) {
					t.Fatalf("role %d, message %d: %s shows %v, the board has %v", r, g.at, p.Vertex(5), bm.At(p), b.At(p))
				}
			}
		}
	}
}

// TestGM3NothingHiddenOnScreen plays the recorded gomoku game on both
// sides: until the opponent opens its pieces at the end, each opponent
// piece the board shows is one that was revealed, and the opponent's
// hidden pieces are only counted.
func TestGM3NothingHiddenOnScreen(t *testing.T) {
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		s, g := newRecordScreen(t, "gomoku", r)
		hiddenSeen, opened := 0, false
		for g.next(s) {
			for _, e := range g.steps[g.at-1].events {
				if o, ok := e.(gomokurules.EventOpened); ok && o.From != r {
					opened = true // the opponent opened its pieces to the player
				}
			}
			gv, ok := s.Model().View.Variant.(gomokurules.View)
			v := gv.Game
			if !ok || v.Size() == 0 || v.Me() == engine.Empty || gv.Record != nil || opened {
				continue
			}
			bm := s.Board().Model()
			for p := engine.Point(0); bm.OnBoard(p); p++ {
				if bm.At(p).Stone == v.Me().Opponent() && !v.OpponentPiece(p) {
					t.Fatalf("role %d, message %d: an opponent piece shows at %s, not revealed", r, g.at, p.Vertex(7))
				}
			}
			hiddenSeen += v.OpponentHidden()
		}
		if hiddenSeen == 0 {
			t.Errorf("role %d: the opponent never had a hidden piece", r)
		}
	}
}

// gomokuPhase returns a condition that holds when the player of s must act
// in phase ph (and more, when extra holds).
func gomokuPhase(s *GameScreen, ph gomoku.Phase, extra func(gomoku.View) bool) func() bool {
	return func() bool {
		gv, ok := s.Model().View.Variant.(gomokurules.View)
		v := gv.Game
		return ok && v.Size() > 0 && v.MyTurn() && v.Phase() == ph && s.Model().View.Phase == protocol.PhasePlay &&
			(extra == nil || extra(v))
	}
}

// TestGM2GM3GomokuKeys checks each step of a gomoku turn on the recorded
// game: the opening piece by Enter, the side and the line in dialogs, the
// commitment by Enter, the answer by selecting hidden pieces and ^D, and
// the empty answer sent by itself.
func TestGM2GM3GomokuKeys(t *testing.T) {
	s, g := newRecordScreen(t, "gomoku", protocol.Inviter)
	g.until(t, s, gomokuPhase(s, gomoku.PhaseOpening, nil))
	press(s, "d4\n")
	if got := actionsText(7, g.actions); got != "gomokuopening" {
		t.Errorf("Enter in the opening sent %q", got)
	}

	s, g = newRecordScreen(t, "gomoku", protocol.Invitee)
	g.until(t, s, gomokuPhase(s, gomoku.PhaseChooseSide, nil))
	if s.dialog == nil || !strings.Contains(drawScreen(t, s, 80, 24), "x  X: the opening piece is yours") {
		t.Fatalf("no side dialog:\n%s", drawScreen(t, s, 80, 24))
	}
	press(s, "\x1b")
	if s.dialog != nil {
		t.Error("Esc did not hide the question")
	}
	press(s, "\x04o")
	if got := g.actions; len(got) != 1 || got[0] != (gomokurules.ChooseSide{Side: gomoku.O}) {
		t.Errorf("^D o sent %v", got)
	}

	g.actions = nil
	g.until(t, s, gomokuPhase(s, gomoku.PhaseCommit, nil))
	v := s.Model().View.Variant.(gomokurules.View).Game
	legal := v.LegalPoints()[0]
	press(s, legal.Vertex(7)+"\n")
	if got := g.actions; len(got) != 1 || got[0] != (gomokurules.Place{Point: legal}) {
		t.Errorf("Enter at %s sent %v", legal.Vertex(7), got)
	}

	g.actions = nil
	g.until(t, s, gomokuPhase(s, gomoku.PhaseAnnounce, nil))
	press(s, "c")
	if got := g.actions; len(got) != 1 || got[0] != (gomokurules.Announce{Column: true}) {
		t.Errorf("c sent %v", got)
	}

	g.actions = nil
	var cands []engine.Point
	g.until(t, s, gomokuPhase(s, gomoku.PhaseRespond, func(v gomoku.View) bool {
		cands = v.HiddenInLine(v.Announced())
		return len(cands) > 0
	}))
	press(s, cands[0].Vertex(7)+"\n")
	if !s.Board().Model().At(cands[0]).Has(MarkHighlight) {
		t.Errorf("selected %s not highlighted", cands[0].Vertex(7))
	}
	press(s, "\x04")
	if got := actionsText(7, g.actions); len(g.actions) != 1 || !strings.HasPrefix(got, "gomokurespond") ||
		!slices.Equal(g.actions[0].(gomokurules.Respond).Reveal, cands[:1]) {
		t.Errorf("^D sent %v, want a response revealing %s", g.actions, cands[0].Vertex(7))
	}

	s, g = newRecordScreen(t, "gomoku", protocol.Inviter)
	g.until(t, s, gomokuPhase(s, gomoku.PhaseRespond, func(v gomoku.View) bool {
		return len(v.HiddenInLine(v.Announced())) == 0
	}))
	if got := g.actions; len(got) != 1 || len(got[0].(gomokurules.Respond).Reveal) != 0 {
		t.Errorf("with nothing to reveal the screen sent %v, want an empty response", got)
	}
}

// TestPG7PhantomScreen plays the recorded Phantom Go game (hamburg rules)
// on both sides: until the audit reveals the board, the board shows only
// the player's own stones (those perhaps captured dim, MarkUncertain) and
// the opponent stones it learnt; the log holds the announcements in the
// rule set's words; after the audit the whole board shows.
func TestPG7PhantomScreen(t *testing.T) {
	uncertain := 0
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		s, g := newRecordScreen(t, "phantom", r)
		checked := 0
		for g.next(s) {
			pv, ok := s.Model().View.Variant.(phantomrules.View)
			if !ok || pv.Own.Size() == 0 || pv.Revealed {
				continue
			}
			me := s.Model().Me()
			bm := s.Board().Model()
			for p := engine.Point(0); bm.OnBoard(p); p++ {
				pm, k := bm.At(p), pv.Own.At(p)
				switch {
				case pm.Stone == me.Opponent() && k != phantom.Opponent && k != phantom.OpponentUncertain:
					t.Fatalf("role %d, message %d: an opponent stone shows at %s, not learnt", r, g.at, p.Vertex(5))
				case k == phantom.OpponentUncertain && (pm.Stone != me.Opponent() || !pm.Has(MarkUncertain)):
					t.Fatalf("role %d, message %d: the learnt stone at %s perhaps captured is not shown so (PG-7)", r, g.at, p.Vertex(5))
				case k == phantom.OpponentUncertain:
					uncertain++
				case pm.Stone == me && k != phantom.Own && k != phantom.OwnUncertain:
					t.Fatalf("role %d, message %d: an own stone shows at %s, not in the view", r, g.at, p.Vertex(5))
				case k == phantom.OwnUncertain && !pm.Has(MarkUncertain):
					t.Fatalf("role %d, message %d: the stone at %s perhaps captured is not shown so", r, g.at, p.Vertex(5))
				case k == phantom.OwnUncertain:
					uncertain++
				}
			}
			checked++
		}
		if checked == 0 {
			t.Fatalf("role %d: nothing checked", r)
		}
		log := strings.Join(s.Model().Log, "\n")
		for _, want := range []string{"has moved", "tries: Illegal move", "passes", "The audit passed: the whole board is revealed."} {
			if !strings.Contains(log, want) {
				t.Errorf("role %d: the log lacks %q", r, want)
			}
		}
		pv := s.Model().View.Variant.(phantomrules.View)
		b, bm := pv.Referee.Board(), s.Board().Model()
		for p := engine.Point(0); bm.OnBoard(p); p++ {
			if bm.At(p).Stone != b.At(p) {
				t.Fatalf("role %d: after the audit %s shows %v, the board has %v", r, p.Vertex(5), bm.At(p).Stone, b.At(p))
			}
		}
	}
	if uncertain == 0 {
		t.Error("the hamburg record never showed a stone perhaps captured")
	}
}

// TestPG2PhantomTriesAndNotes checks the keys of Phantom Go: a try on a
// point is sent, a try on the player's own stone is refused, and a private
// note (m) stays on the board through the game's events and is never sent.
func TestPG2PhantomTriesAndNotes(t *testing.T) {
	s, g := newRecordScreen(t, "phantom", protocol.Inviter)
	g.until(t, s, func() bool {
		pv, ok := s.Model().View.Variant.(phantomrules.View)
		return ok && pv.MyTry && len(pv.Own.OwnStones()) > 0 && len(pv.Own.SensibleTries()) > 0
	})
	pv := s.Model().View.Variant.(phantomrules.View)
	own := pv.Own.OwnStones()[0]
	press(s, own.Vertex(5)+"\n")
	if len(g.actions) != 0 || !strings.Contains(s.Model().Message, "your stone is at "+own.Vertex(5)) {
		t.Errorf("a try on the own stone %s: actions %v, message %q", own.Vertex(5), g.actions, s.Model().Message)
	}
	try := pv.Own.SensibleTries()[0]
	press(s, try.Vertex(5)+"\n")
	if got := actionsText(5, g.actions); got != "play "+try.Vertex(5) {
		t.Errorf("a try at %s sent %q", try.Vertex(5), got)
	}
	// A note on a point where the player has nothing.
	g.actions = nil
	var note engine.Point
	for p := engine.Point(0); int(p) < 25; p++ {
		if pv.Own.At(p) == phantom.Unknown {
			note = p
			break
		}
	}
	s.Board().SetCursor(note)
	press(s, "m")
	for i := 0; i < 10 && g.next(s); i++ {
	}
	if !s.Board().Model().At(note).Has(MarkNote) || len(g.actions) != 0 {
		t.Errorf("the note at %s did not stay, or something was sent: %v", note.Vertex(5), g.actions)
	}
}
