package session_test

import (
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/hmgrules"
	"github.com/kakure/kakure/protocol/phantomrules"
	"github.com/kakure/kakure/protocol/session"
)

// TestCLKD33HeldTryNotChargedTheOthersWait (CLK-D33): a player may try as
// soon as the try before has its outcome; its program holds the try
// until the other program's steps it goes after are in, and its claimed
// think time ends with the player's try. A cheater that holds back those
// steps (the evaluator its request of the garbler's try, the garbler its
// commitment of the evaluator's try by flips) does not get the honest
// player to sign the wait as its own time.
func TestCLKD33HeldTryNotChargedTheOthersWait(t *testing.T) {
	t.Parallel()
	// The stall, stretched on a slow machine: there its own program's
	// work before its player can try (which its player's time rightly
	// holds) grows, and must stay well under it.
	stall := testenv.Duration(1500 * time.Millisecond)
	cases := []struct {
		name string
		form phantomForm
		// cheater is the stalling program (0: the inviter, who
		// garbles, PN-D1); stalled the kind it holds back; honestTry
		// the kind of the honest player's try.
		cheater   int
		stalled   protocol.Kind
		honestTry protocol.Kind
	}{
		{"garbler's try, unchecked", phantomForm{0, "", false}, 1, phantomrules.KindRequest, phantomrules.KindTryGarbling},
		{"garbler's try, lambda=4", phantomForm{4, engine.InputOTCorrelated, false}, 1, phantomrules.KindRequest, phantomrules.KindTryGarbling},
		{"garbler's try, lambda=4, choice", phantomForm{4, engine.InputOTCorrelated, false}, 1, phantomrules.KindChoice, phantomrules.KindTryGarbling},
		{"evaluator's try by flips", phantomForm{4, engine.InputOTCorrelated, true}, 0, phantomrules.KindCommitment, phantomrules.KindFlips},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stallsMu sync.Mutex
			var stallEnds []time.Time // when each of the cheater's stalls ended
			p := newPair(t, func(i int, c *session.Config) {
				if i != tc.cheater {
					return
				}
				session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
					if kind == tc.stalled {
						time.Sleep(stall)
						stallsMu.Lock()
						stallEnds = append(stallEnds, time.Now())
						stallsMu.Unlock()
					}
					return kind, body, false
				})
			})
			games := startGame(t, p, withLag(timedPhantomChecked("10m", tc.form), 200*time.Millisecond))
			honest, cheater := games[1-tc.cheater], games[tc.cheater]
			// Black tries first: each player tries once, the honest one
			// at once when it may.
			// The honest try's clock starts about when the test sees the
			// game start or the try before end (from); its player tries
			// at once when it may (played).
			from := time.Now()
			var played time.Time
			if honest.View().Color == engine.White {
				// The cheater's try, and the honest player's as soon as
				// its view shows it may (not after the cheater's view
				// shows the outcome, which a slow machine delays).
				waitClockView(t, cheater, "its try", func(v protocol.View) bool { return phantomOf(v).MyTry })
				from = time.Now()
				if err := cheater.Do(protocol.Play{Point: vertexOn(t, 5, "C3")}); err != nil {
					t.Fatal(err)
				}
				played = phantomTry(t, honest, 0, "B2")
			} else {
				played = phantomTry(t, honest, 0, "C3")
				phantomTry(t, cheater, 0, "B2")
			}
			claims := clockParts(t, honest, honest.Role(), tc.honestTry)
			if len(claims) == 0 {
				t.Fatalf("no %s of the honest player's in the record", tc.honestTry)
			}
			// The player must be able to try before the cheater's step
			// comes (its program holds the try), and its claim ends when
			// it tried: at most its reaction (long on a slow machine, its
			// own program's work before the view shows the try), never
			// the cheater's wait.
			stallsMu.Lock()
			var stallEnd time.Time
			for _, e := range stallEnds {
				if e.After(from) {
					stallEnd = e
					break
				}
			}
			stallsMu.Unlock()
			slack := testenv.Duration(500 * time.Millisecond) // the hop and the polls between its clock's start and from
			reaction := played.Sub(from)
			think := thinkOf(t, claims[0], "think_ms")
			switch {
			case !stallEnd.IsZero() && played.After(stallEnd) && think >= stall.Milliseconds()/2:
				t.Errorf("the honest player could try only %v after its turn began, once the cheater's %v wait for its %s ended, and claims %d ms", reaction, stall, tc.stalled, think)
			case think >= (reaction + slack).Milliseconds():
				t.Errorf("the honest player's try claims %d ms, its player tried %v after its turn began: the cheater's %v wait for its %s is signed as its time", think, reaction, stall, tc.stalled)
			}
		})
	}
}

// TestCLKD33EarlyActionBeforeTheTurn (CLK-D33, CLK-D10): a held action
// ends its think time only within its own turn. White chooses its Hidden
// Move Go cards while Black still chooses (before White's turn); its
// program holds them, and they go when White's turn comes with a think
// time of about nothing, never one from before the turn (a negative
// claim the machine would refuse from the honest program, T-10).
func TestCLKD33EarlyActionBeforeTheTurn(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timedHMG("10m"))
	black, white := byColor(games)
	if err := white.Do(hmgrules.SetCards{Points: []engine.Point{vertex(t, "E5"), vertex(t, "C3")}}); err != nil {
		t.Fatalf("White's cards before its turn: %v", err)
	}
	const think = 300 * time.Millisecond
	time.Sleep(think)
	if err := black.Do(hmgrules.SetCards{Points: []engine.Point{vertex(t, "D4"), vertex(t, "F6")}}); err != nil {
		t.Fatalf("Black's cards: %v", err)
	}
	waitView(t, black, "its first turn", func(v protocol.View) bool {
		return v.MyTurn && v.Variant.(hmgrules.View).Stage == hmgrules.StagePlay
	})
	parts := clockParts(t, white, white.Role(), hmgrules.KindCards)
	if len(parts) != 1 {
		t.Fatalf("White's cards: %d messages, want 1", len(parts))
	}
	if ms := thinkOf(t, parts[0], "think_ms"); ms < 0 || ms >= think.Milliseconds() {
		t.Errorf("White's cards, chosen before its turn, claim %d ms; want from its turn on (0 ≤ claim < %v)", ms, think)
	}
}
