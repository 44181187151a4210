package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/fgorules"

	"errors"
	"slices"
	"testing"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
)

// fbDriver feeds messages straight to a machine in its play phase, as the
// transcript would after checking signatures and chains (F-Go and Bridge
// Go machine tests).
type fbDriver struct {
	t   *testing.T
	m   *protocol.Machine
	seq [2]uint64
	// players are the local sides of both roles, for the variants that
	// have secrets.
	players [2]variantPlayer
}

// newFBDriver starts a machine of the variant in o at the start of play;
// the inviter plays inviterColor.
func newFBDriver(t *testing.T, o engine.Options, inviterColor engine.Color) *fbDriver {
	t.Helper()
	o, err := o.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	m := protocol.NewMachine(protocol.GameID{0x6b, 0x61, 0x6b})
	m.Options = o
	m.Colors = [2]engine.Color{inviterColor, inviterColor.Opponent()}
	v, err := protocol.NewRules(m)
	if err != nil {
		t.Fatal(err)
	}
	m.Rules, m.Phase = v, protocol.PhasePlay
	d := &fbDriver{t: t, m: m}
	for r := protocol.Inviter; r <= protocol.Invitee; r++ {
		d.players[r] = newVariantPlayer[o.Variant](m.Game, o, r)
	}
	return d
}

// send applies a message of role from with the given body.
func (d *fbDriver) send(from protocol.Role, kind protocol.Kind, body any) ([]protocol.Event, error) {
	raw, err := protocol.EncodeBody(body)
	if err != nil {
		d.t.Fatal(err)
	}
	msg := &protocol.Message{Game: d.m.Game, From: from, Seq: d.seq[from], Kind: kind, Body: raw}
	events, err := d.m.Apply(msg)
	if err == nil {
		d.seq[from]++
	}
	return events, err
}

// must applies a message that must be accepted.
func (d *fbDriver) must(from protocol.Role, kind protocol.Kind, body any) []protocol.Event {
	d.t.Helper()
	events, err := d.send(from, kind, body)
	if err != nil {
		d.t.Fatalf("%s %s %+v: %v", from, kind, body, err)
	}
	return events
}

// act turns an action of role r into its message through r's player and
// applies it.
func (d *fbDriver) act(r protocol.Role, a protocol.Action) []protocol.Event {
	d.t.Helper()
	kind, body, err := d.players[r].message(d.m, r, a)
	if err != nil {
		d.t.Fatalf("%s %T%+v: %v", r, a, a, err)
	}
	return d.must(r, kind, body)
}

// auto sends role r's automatic message, which must exist.
func (d *fbDriver) auto(r protocol.Role) []protocol.Event {
	d.t.Helper()
	kind, body, ok, err := d.players[r].auto(d.m, r)
	if err != nil || !ok {
		d.t.Fatalf("%s has no automatic message: ok %v err %v", r, ok, err)
	}
	return d.must(r, kind, body)
}

// expect checks who is expected to send what.
func (d *fbDriver) expect(r protocol.Role, kinds ...protocol.Kind) {
	d.t.Helper()
	from, got := d.m.Expected()
	if from != r || !slices.Equal(got, kinds) {
		d.t.Fatalf("expected %s %v, want %s %v", from, got, r, kinds)
	}
}

// violates checks that a message is refused as a violation of rule by
// from, leaving the machine as it was.
func (d *fbDriver) violates(rule string, from protocol.Role, kind protocol.Kind, body any) {
	d.t.Helper()
	before, kinds := d.m.Expected()
	_, err := d.send(from, kind, body)
	var v *protocol.Violation
	if !errors.As(err, &v) || v.Rule != rule || v.Accused != from {
		d.t.Fatalf("%s %s %+v: err %v, want a violation of %s by the %s", from, kind, body, err, rule, from)
	}
	if after, kinds2 := d.m.Expected(); after != before || !slices.Equal(kinds, kinds2) || d.m.Outcome != nil {
		d.t.Fatalf("a refused message changed the machine: expected %s %v, then %s %v", before, kinds, after, kinds2)
	}
}

// fgo returns the F-Go rules of the machine.
func (d *fbDriver) fgo() *fgorules.Rules { return d.m.Rules.(*fgorules.Rules) }

// pt parses a vertex of the driver's board.
func (d *fbDriver) pt(v string) engine.Point {
	d.t.Helper()
	p, err := engine.ParseVertex(d.m.Options.Size, v)
	if err != nil {
		d.t.Fatal(err)
	}
	return p
}

// roles returns the roles of the first and second player of this turn.
func (d *fbDriver) roles() (first, second protocol.Role) {
	f := d.fgo().FirstRole()
	return f, f.Other()
}

// turn plays an F-Go turn by commitments: black and white are vertices or
// "pass".
func (d *fbDriver) turn(black, white string) []protocol.Event {
	d.t.Helper()
	first, second := d.roles()
	choice := map[engine.Color]string{engine.Black: black, engine.White: white}
	d.act(first, protocol.Play{Point: d.pt(choice[d.m.Colors[first]])})
	d.act(second, protocol.Play{Point: d.pt(choice[d.m.Colors[second]])})
	d.auto(first)
	return d.auto(second)
}

// view returns role r's F-Go view, its own choice included.
func (d *fbDriver) view(r protocol.Role) fgorules.View {
	return d.players[r].(protocol.PrivateViewer).PrivateView(d.m, r, d.m.Rules.View(r)).(fgorules.View)
}

var fgo5 = engine.Options{Variant: engine.VariantFGo, Size: 5}

// TestFG1FGoCommitThenReveal checks the order of a turn (FG-1 over the
// network): both commit, then both open, one role at a time, and the
// first player alternates between Black and White (FG-N1).
func TestFG1FGoCommitThenReveal(t *testing.T) {
	for _, inviter := range []engine.Color{engine.Black, engine.White} {
		d := newFBDriver(t, fgo5, inviter)
		black, white := d.m.RoleOf(engine.Black), d.m.RoleOf(engine.White)
		d.expect(black, fgorules.KindCommit, fgorules.KindOffer)
		d.act(black, protocol.Play{Point: d.pt("C3")})
		d.expect(white, fgorules.KindCommit)
		if _, _, ok, _ := d.players[black].auto(d.m, black); ok {
			t.Fatal("FG-1 Black opens before White committed")
		}
		d.act(white, protocol.Play{Point: d.pt("D4")})
		d.expect(black, fgorules.KindOpen)
		if _, _, ok, _ := d.players[white].auto(d.m, white); ok {
			t.Fatal("White opens out of order")
		}
		d.auto(black)
		if b := d.fgo().Game.Board(); b.Count(engine.Black) != 0 {
			t.Fatal("FG-1 a stone was played before both choices were open")
		}
		d.expect(white, fgorules.KindOpen)
		events := d.auto(white)
		var turn *fgorules.EventTurn
		for _, e := range events {
			if e, ok := e.(fgorules.EventTurn); ok {
				turn = &e
			}
		}
		if turn == nil || turn.Result.Kind != fgo.Played || turn.Result.Black != d.pt("C3") || turn.Result.White != d.pt("D4") {
			t.Fatalf("FG-1 turn events %+v, want C3 and D4 played", events)
		}
		// FG-N1: White commits first on turn 1.
		d.expect(white, fgorules.KindCommit, fgorules.KindOffer)
		d.turn("B2", "pass")
		d.expect(black, fgorules.KindCommit, fgorules.KindOffer)
		if got := d.fgo().Game.Board(); got.At(d.pt("B2")) != engine.Black || got.At(d.pt("D4")) != engine.White {
			t.Fatalf("board after two turns:\n%v", got)
		}
	}
}

// TestFG1FGoViewHidesTheOpponentsChoice checks that each player's view
// holds its own choice and never the opponent's unopened one.
func TestFG1FGoViewHidesTheOpponentsChoice(t *testing.T) {
	d := newFBDriver(t, fgo5, engine.Black)
	d.act(protocol.Inviter, protocol.Play{Point: d.pt("C3")})
	vb, vw := d.view(protocol.Inviter), d.view(protocol.Invitee)
	if vb.MyChoice != d.pt("C3") || !vb.Committed || vb.OpponentCommitted || !vb.Waiting {
		t.Errorf("Black's view after committing: %+v", vb)
	}
	if vw.MyChoice != engine.NoPoint || vw.Committed || !vw.OpponentCommitted || vw.Waiting {
		t.Errorf("White's view after Black committed: choice %v committed %v opponent %v waiting %v",
			vw.MyChoice, vw.Committed, vw.OpponentCommitted, vw.Waiting)
	}
	d.act(protocol.Invitee, protocol.Play{Point: d.pt("D4")})
	d.auto(protocol.Inviter)
	vb, vw = d.view(protocol.Inviter), d.view(protocol.Invitee)
	if vb.MyChoice != d.pt("C3") || vw.MyChoice != d.pt("D4") || vb.LastTurn != nil || vw.LastTurn != nil {
		t.Errorf("views before White opened: Black %v / %v, White %v / %v", vb.MyChoice, vb.LastTurn, vw.MyChoice, vw.LastTurn)
	}
	d.auto(protocol.Invitee)
	vb = d.view(protocol.Inviter)
	if vb.MyChoice != engine.NoPoint || vb.LastTurn == nil || vb.LastTurn.Black != d.pt("C3") || vb.LastTurn.White != d.pt("D4") {
		t.Errorf("Black's view after the turn: choice %v, last %+v", vb.MyChoice, vb.LastTurn)
	}
}

// TestT5FGoOpening checks that an opening must open the sender's own
// commitment of this turn (T-5), and that a refused opening changes
// nothing.
func TestT5FGoOpening(t *testing.T) {
	d := newFBDriver(t, fgo5, engine.Black)
	d.act(protocol.Inviter, protocol.Play{Point: d.pt("C3")})
	d.act(protocol.Invitee, protocol.Play{Point: d.pt("D4")})
	game := d.m.Game[:]
	_, other, _ := commit.New(fgorules.ChoiceDomain, game, uint8(protocol.Inviter), 0, []byte("E5"))
	_, otherTurn, _ := commit.New(fgorules.ChoiceDomain, game, uint8(protocol.Inviter), 1, []byte("C3"))
	_, otherRole, _ := commit.New(fgorules.ChoiceDomain, game, uint8(protocol.Invitee), 0, []byte("C3"))
	_, otherDomain, _ := commit.New("kakure/hmg/card", game, uint8(protocol.Inviter), 0, []byte("C3"))
	kind, body, _, _ := d.players[protocol.Inviter].auto(d.m, protocol.Inviter)
	good := body.(fgorules.OpenBody).Opening
	changed := good
	changed.Value = []byte("E5")
	tests := []struct {
		name    string
		opening commit.Opening
	}{
		{"T-5 another value with the same salt", changed},
		{"T-5 a fresh commitment's opening", other},
		{"T-5 an opening for another turn", otherTurn},
		{"T-5 an opening for the other player", otherRole},
		{"T-5 an opening of another domain", otherDomain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d.t = t
			d.violates("T-5", protocol.Inviter, kind, protocol.OpenBody{Opening: tt.opening})
		})
	}
	d.t = t
	d.must(protocol.Inviter, kind, protocol.OpenBody{Opening: good})
	d.expect(protocol.Invitee, fgorules.KindOpen)
}

// TestFG1FGoIllegalOpenings checks that an opened choice is checked at
// once against FG-1 and FG-5 (T-6).
func TestFG1FGoIllegalOpenings(t *testing.T) {
	tests := []struct {
		name    string
		opts    engine.Options
		turns   [][2]string // black, white
		black   string      // Black's committed and opened choice
		rule    string
		illegal bool // the engine itself refuses the choice
	}{
		{name: "FG-1 an occupied point", opts: fgo5, turns: [][2]string{{"C3", "D4"}}, black: "D4", rule: "FG-1", illegal: true},
		{name: "FG-1 Black's own stone", opts: fgo5, turns: [][2]string{{"C3", "D4"}}, black: "C3", rule: "FG-1", illegal: true},
		{name: "FG-1 a point marked unavailable", opts: fgo5, turns: [][2]string{{"C3", "C3"}}, black: "C3", rule: "FG-1", illegal: true},
		{name: "FG-1 not a vertex", opts: fgo5, black: "Z9", rule: "FG-1"},
		{name: "FG-1 a vertex not in canonical form", opts: fgo5, black: "c3", rule: "FG-1"},
		{name: "FG-1 a vertex off the board", opts: fgo5, black: "F6", rule: "FG-1"},
		{
			name: "FG-5 a suicide under forbid", opts: engine.Options{Variant: engine.VariantFGo, Size: 5, Suicide: engine.SuicideForbid},
			turns: [][2]string{{"E5", "B1"}, {"E4", "A2"}}, black: "A1", rule: "FG-5", illegal: true,
		},
		{
			name: "FG-5 the same point is legal under nz", opts: fgo5,
			turns: [][2]string{{"E5", "B1"}, {"E4", "A2"}}, black: "A1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newFBDriver(t, tt.opts, engine.Black)
			for _, tu := range tt.turns {
				d.turn(tu[0], tu[1])
			}
			g := d.fgo().Game
			if p, err := engine.ParseVertex(5, tt.black); err == nil && (g.CheckChoice(engine.Black, p) != nil) != tt.illegal {
				t.Fatalf("the engine's CheckChoice(%s) = %v: the case does not test what it says", tt.black, g.CheckChoice(engine.Black, p))
			}
			if tt.illegal {
				if _, _, err := d.players[protocol.Inviter].message(d.m, protocol.Inviter, protocol.Play{Point: d.pt(tt.black)}); err == nil {
					t.Errorf("the local player commits to the illegal choice %s", tt.black)
				}
			}
			// A cheating Black commits to the choice without the local check.
			turn := uint32(g.TurnNumber())
			c, o, err := commit.New(fgorules.ChoiceDomain, d.m.Game[:], uint8(protocol.Inviter), turn, []byte(tt.black))
			if err != nil {
				t.Fatal(err)
			}
			black, white := protocol.Inviter, protocol.Invitee
			first, _ := d.roles()
			if first == black {
				d.must(black, fgorules.KindCommit, protocol.CommitBody{Commitment: c})
				d.act(white, protocol.Play{Point: engine.Pass})
			} else {
				d.act(white, protocol.Play{Point: engine.Pass})
				d.must(black, fgorules.KindCommit, protocol.CommitBody{Commitment: c})
				d.auto(first)
			}
			if tt.rule == "" {
				d.must(black, fgorules.KindOpen, protocol.OpenBody{Opening: o})
				return
			}
			d.violates(tt.rule, black, fgorules.KindOpen, protocol.OpenBody{Opening: o})
		})
	}
}

// TestFG7FGoOffers checks bargaining over the network: one offer a turn,
// by the first player before committing, answered by the other.
func TestFG7FGoOffers(t *testing.T) {
	type step struct {
		first bool // sent by the first player, else by the second
		kind  protocol.Kind
		body  any
		rule  string // the violation expected, "" for none
	}
	offer := func(yours, mine string) fgorules.OfferBody {
		return fgorules.OfferBody{IfYouPlay: yours, IPlay: mine}
	}
	tests := []struct {
		name   string
		steps  []step
		expect []protocol.Kind // kinds expected next
		// board: vertices that must hold the first player's (mine) and
		// the second's (yours) stones at the end.
		mine, yours string
	}{
		{
			name:  "FG-7 an accepted offer is played as the turn",
			steps: []step{{true, fgorules.KindOffer, offer("E5", "C3"), ""}, {false, fgorules.KindAccept, struct{}{}, ""}},
			mine:  "C3", yours: "E5",
		},
		{
			name:   "FG-7 a declined offer falls back to FG-1",
			steps:  []step{{true, fgorules.KindOffer, offer("E5", "C3"), ""}, {false, fgorules.KindDecline, struct{}{}, ""}},
			expect: []protocol.Kind{fgorules.KindCommit},
		},
		{
			name:   "FG-7 a commitment declines the offer",
			steps:  []step{{true, fgorules.KindOffer, offer("E5", "C3"), ""}, {false, fgorules.KindCommit, protocol.CommitBody{}, ""}},
			expect: []protocol.Kind{fgorules.KindCommit},
		},
		{
			name: "FG-7 one offer a turn",
			steps: []step{
				{true, fgorules.KindOffer, offer("E5", "C3"), ""}, {false, fgorules.KindDecline, struct{}{}, ""},
				{true, fgorules.KindOffer, offer("E4", "C3"), "T-3"},
			},
		},
		{name: "FG-7 the second player may not offer", steps: []step{{false, fgorules.KindOffer, offer("E5", "C3"), "T-3"}}},
		{name: "FG-7 no acceptance without an offer", steps: []step{{false, fgorules.KindAccept, struct{}{}, "T-3"}}},
		{name: "FG-7 an offer of one point for both is refused", steps: []step{{true, fgorules.KindOffer, offer("C3", "C3"), "FG-7"}}},
		{name: "FG-7 an offer of a bad vertex is refused", steps: []step{{true, fgorules.KindOffer, offer("Z1", "C3"), "FG-7"}}},
		{name: "FG-7 an offer may not follow a commitment", steps: []step{{true, fgorules.KindCommit, protocol.CommitBody{}, ""}, {true, fgorules.KindOffer, offer("E5", "C3"), "T-3"}}},
		{
			name:   "FG-7 two passes may be agreed and end play",
			steps:  []step{{true, fgorules.KindOffer, offer("pass", "pass"), ""}, {false, fgorules.KindAccept, struct{}{}, ""}},
			expect: []protocol.Kind{protocol.KindMark, fgorules.KindCommit},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newFBDriver(t, fgo5, engine.White)
			first, second := d.roles()
			for _, s := range tt.steps {
				from := second
				if s.first {
					from = first
				}
				if s.rule != "" {
					d.violates(s.rule, from, s.kind, s.body)
					return
				}
				d.must(from, s.kind, s.body)
			}
			if tt.expect != nil {
				if _, kinds := d.m.Expected(); !slices.Equal(kinds, tt.expect) {
					t.Errorf("expected kinds %v, want %v", kinds, tt.expect)
				}
			}
			if tt.mine != "" {
				b := d.fgo().Game.Board()
				if b.At(d.pt(tt.mine)) != d.m.Colors[first] || b.At(d.pt(tt.yours)) != d.m.Colors[second] {
					t.Errorf("board after the accepted offer:\n%v", b)
				}
				if d.fgo().Game.TurnNumber() != 1 || d.fgo().Last == nil {
					t.Errorf("the accepted offer was not a turn")
				}
			}
		})
	}
}

// TestFG6FGoEnd checks the end of play (FG-6): a turn of two passes opens
// GO-4 scoring, the count uses komi 0 so a draw is possible, and a new
// commitment resumes play, never with a pass.
func TestFG6FGoEnd(t *testing.T) {
	t.Run("FG-6 two passes on an empty board are a draw", func(t *testing.T) {
		d := newFBDriver(t, fgo5, engine.Black)
		d.turn("pass", "pass")
		// Turn 1: White is first and proposes.
		d.expect(protocol.Invitee, protocol.KindMark, fgorules.KindCommit)
		d.act(protocol.Invitee, protocol.MarkDead{})
		d.act(protocol.Inviter, protocol.AgreeScore{})
		if d.m.Outcome == nil || d.m.Outcome.Result != (engine.Result{By: engine.ByScore}) || d.m.Outcome.Result.String() != "0" {
			t.Fatalf("outcome %+v, want a draw", d.m.Outcome)
		}
	})
	t.Run("FG-6 a count with dead stones and komi 0", func(t *testing.T) {
		d := newFBDriver(t, fgo5, engine.Black)
		d.turn("C3", "A1")
		d.turn("pass", "pass")
		// Turn 2: Black is first and proposes White's stone dead.
		d.act(protocol.Inviter, protocol.MarkDead{Dead: []engine.Point{d.pt("A1")}})
		d.act(protocol.Invitee, protocol.AgreeScore{})
		if d.m.Outcome == nil || d.m.Outcome.Result.String() != "B+25" {
			t.Fatalf("outcome %+v, want B+25", d.m.Outcome)
		}
	})
	t.Run("GO-4 a commitment resumes play", func(t *testing.T) {
		d := newFBDriver(t, fgo5, engine.Black)
		d.turn("pass", "pass")
		d.act(protocol.Invitee, protocol.MarkDead{})
		d.expect(protocol.Inviter, protocol.KindAgree, protocol.KindMark, fgorules.KindCommit)
		if _, _, err := d.players[protocol.Inviter].message(d.m, protocol.Inviter, protocol.Play{Point: engine.Pass}); err == nil {
			t.Error("the local player resumes play with a pass")
		}
		events := d.act(protocol.Inviter, protocol.Play{Point: d.pt("C3")})
		if _, ok := events[0].(protocol.EventResumed); !ok || d.fgo().Score.Active {
			t.Fatalf("events %+v, scoring %v: play did not resume", events, d.fgo().Score.Active)
		}
		d.expect(protocol.Invitee, fgorules.KindCommit) // White is first this turn and commits second
		d.act(protocol.Invitee, protocol.Play{Point: engine.Pass})
		d.auto(protocol.Invitee)
		d.auto(protocol.Inviter)
		if b := d.fgo().Game.Board(); b.At(d.pt("C3")) != engine.Black {
			t.Fatal("the resumed turn was not played")
		}
	})
	t.Run("GO-4 resuming with a pass is a violation", func(t *testing.T) {
		d := newFBDriver(t, fgo5, engine.Black)
		d.turn("pass", "pass")
		c, o, _ := commit.New(fgorules.ChoiceDomain, d.m.Game[:], uint8(protocol.Invitee), 1, []byte("pass"))
		d.must(protocol.Invitee, fgorules.KindCommit, protocol.CommitBody{Commitment: c})
		d.act(protocol.Inviter, protocol.Play{Point: d.pt("C3")})
		d.violates("GO-4", protocol.Invitee, fgorules.KindOpen, protocol.OpenBody{Opening: o})
	})
}

// TestT11FGoOpeningSurvivesRestart checks that the opening of a sent
// commitment is in the player's saved secrets, so that a program that
// restarts can still open it (T-3, T-11).
func TestT11FGoOpeningSurvivesRestart(t *testing.T) {
	d := newFBDriver(t, fgo5, engine.Black)
	d.act(protocol.Inviter, protocol.Play{Point: d.pt("C3")})
	d.act(protocol.Invitee, protocol.Play{Point: d.pt("D4")})
	saved, err := d.players[protocol.Inviter].secrets()
	if err != nil {
		t.Fatal(err)
	}
	restarted := newVariantPlayer[engine.VariantFGo](d.m.Game, d.m.Options, protocol.Inviter)
	if _, _, ok, _ := restarted.auto(d.m, protocol.Inviter); ok {
		t.Fatal("a player without secrets opens a commitment")
	}
	if err := restarted.restore(saved); err != nil {
		t.Fatal(err)
	}
	d.players[protocol.Inviter] = restarted
	d.auto(protocol.Inviter)
	d.auto(protocol.Invitee)
	if b := d.fgo().Game.Board(); b.At(d.pt("C3")) != engine.Black {
		t.Fatalf("the turn opened after the restart was not played:\n%v", b)
	}
	if err := restarted.restore([]byte(`{"turn":`)); err == nil {
		t.Error("restore accepts broken secrets")
	}
}
