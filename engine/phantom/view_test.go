package phantom

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
)

// table is a referee with the two players' views, fed each try's
// announcements.
type table struct {
	t     *testing.T
	ref   Referee
	views [3]View
}

func newTable(t *testing.T, rules engine.PhantomRules) *table {
	t.Helper()
	o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: rules}
	tb := &table{t: t}
	var err error
	if tb.ref, err = NewReferee(o); err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if tb.views[c], err = NewView(o, c); err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

// try plays the tries of the player to move, in order, and feeds both
// views; it returns the last outcome.
func (tb *table) try(vertices ...string) TryOutcome {
	tb.t.Helper()
	var out TryOutcome
	for _, v := range vertices {
		var err error
		tb.ref, out = tryOK(tb.t, tb.ref, tb.ref.ToMove(), v)
		for _, c := range []engine.Color{engine.Black, engine.White} {
			a := Announce(tb.ref.Rules(), 5, out, c)
			if tb.views[c], err = tb.views[c].Apply(a); err != nil {
				tb.t.Fatalf("view of %v, %q: %v", c, a.KeyValues(), err)
			}
		}
		checkViews(tb.t, tb.ref, tb.views[engine.Black], tb.views[engine.White])
	}
	return out
}

// knows checks the knowledge of player c at the given vertices.
func (tb *table) knows(c engine.Color, k Knowledge, vertices ...string) {
	tb.t.Helper()
	for _, v := range vertices {
		if got := tb.views[c].At(vx(tb.t, 5, v)); got != k {
			tb.t.Errorf("view of %v at %s: %v, want %v\n%v", c, v, got, k, tb.ref.Board())
		}
	}
}

func TestPGD3OwnTryInference(t *testing.T) {
	for _, rules := range []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel} {
		t.Run("PG-D3 occupied-opponent "+string(rules), func(t *testing.T) {
			tb := newTable(t, rules)
			tb.try("C3", "D4")
			tb.knows(engine.Black, Unknown, "D4")
			out := tb.try("D4")
			if out.Reason != TryOccupiedOpponent {
				t.Fatalf("reason %v", out.Reason)
			}
			tb.knows(engine.Black, Opponent, "D4")
			tb.knows(engine.White, Unknown, "C3")
		})
		t.Run("PG-D3 suicide "+string(rules), func(t *testing.T) {
			tb := newTable(t, rules)
			tb.try("C3", "A2", "D4", "B1")
			if out := tb.try("A1"); out.Reason != TrySuicide {
				t.Fatalf("reason %v", out.Reason)
			}
			tb.knows(engine.Black, Opponent, "A2", "B1")
			tb.knows(engine.Black, Unknown, "A1")
		})
		t.Run("PG-D3 suicide next to own stones "+string(rules), func(t *testing.T) {
			tb := newTable(t, rules)
			// Black A2 is in atari at A1 after White B2 and A3; Black A1
			// would then be suicide: only B1 is learnt.
			tb.try("A2", "A3", "E5", "B2", "E4", "B1")
			if out := tb.try("A1"); out.Reason != TrySuicide {
				t.Fatalf("reason %v\n%v", out.Reason, tb.ref.Board())
			}
			tb.knows(engine.Black, Opponent, "B1")
			tb.knows(engine.Black, Own, "A2")
			tb.knows(engine.Black, Unknown, "A3", "B2")
		})
		t.Run("PG-D3 ko "+string(rules), func(t *testing.T) {
			tb := newTable(t, rules)
			tb.try("B4", "C4", "A3", "D3", "B2", "C2", "E5", "B3", "C3")
			if out := tb.try("B3"); out.Reason != TryKo {
				t.Fatalf("reason %v\n%v", out.Reason, tb.ref.Board())
			}
			tb.knows(engine.White, Opponent, "A3", "B4", "B2", "C3")
			tb.knows(engine.White, Unknown, "B3")
			// The other white stones are certain again, even under hamburg.
			tb.knows(engine.White, Own, "C4", "D3", "C2")
		})
		t.Run("PG-D3 failed tries are not sensible again this turn "+string(rules), func(t *testing.T) {
			tb := newTable(t, rules)
			tb.try("C3", "D4")
			before := tb.views[engine.Black].SensibleTries()
			tb.try("C3", "D4") // own stone, then opponent stone: still Black's turn
			after := tb.views[engine.Black].SensibleTries()
			for _, p := range after {
				if p == vx(t, 5, "C3") || p == vx(t, 5, "D4") {
					t.Errorf("%s is still a sensible try", p.Vertex(5))
				}
			}
			if len(after) != len(before)-1 {
				t.Errorf("%d sensible tries after learning D4, want %d", len(after), len(before)-1)
			}
			if tb.views[engine.White].SensibleTries() != nil {
				t.Error("White has sensible tries on Black's turn")
			}
		})
	}
}

func TestPGD3CaptureInference(t *testing.T) {
	t.Run("PG-D3 common: the owner learns the surrounding stones", func(t *testing.T) {
		tb := newTable(t, engine.RulesCommon)
		tb.try("A2", "A1", "B1")
		tb.knows(engine.White, Opponent, "A2", "B1")
		tb.knows(engine.White, Unknown, "A1")
		tb.knows(engine.Black, Unknown, "A1")
	})
	t.Run("PG-7 hamburg: learnt stones a count-only capture may have taken stay, uncertain", func(t *testing.T) {
		tb := newTable(t, engine.RulesHamburg)
		tb.try("E5", "A1")
		if out := tb.try("A1"); out.Reason != TryOccupiedOpponent {
			t.Fatalf("reason %v", out.Reason)
		}
		tb.try("A2", "C3")
		if out := tb.try("C3"); out.Reason != TryOccupiedOpponent {
			t.Fatalf("reason %v", out.Reason)
		}
		tb.knows(engine.Black, Opponent, "A1", "C3")
		if out := tb.try("B1"); len(out.Captured) != 1 {
			t.Fatalf("B1 captured %v, want one stone", out.Captured)
		}
		// Black is told "captures 1 stone": either A1 or C3 may be gone,
		// as far as Black can tell; neither is forgotten.
		tb.knows(engine.Black, OpponentUncertain, "A1", "C3")
		if got := len(tb.views[engine.Black].OpponentStones()) + len(tb.views[engine.Black].UncertainOpponentStones()); got != 2 {
			t.Errorf("Black's board holds %d learnt stones after the capture, want the 2 it learnt", got)
		}
		tb.try("D1") // White
		sensible := tb.views[engine.Black].SensibleTries()
		for _, p := range vxs(t, 5, "A1", "C3") {
			if !slices.Contains(sensible, p) {
				t.Errorf("SensibleTries %v lacks %s, which may be empty now", sensible, p.Vertex(5))
			}
		}
		if out := tb.try("C3"); out.Reason != TryOccupiedOpponent {
			t.Fatalf("reason %v", out.Reason)
		}
		tb.knows(engine.Black, Opponent, "C3") // certain again
		tb.knows(engine.Black, OpponentUncertain, "A1")
	})
	t.Run("PG-D3 kriegspiel: the owner learns which, the capturer how many", func(t *testing.T) {
		tb := newTable(t, engine.RulesKriegspiel)
		tb.try("D5", "D4", "E4", "A1", "C4", "A2")
		if out := tb.try("D4"); out.Reason != TryOccupiedOpponent {
			t.Fatalf("reason %v", out.Reason)
		}
		tb.knows(engine.Black, Opponent, "D4")
		out := tb.try("D3")
		if !reflect.DeepEqual(out.Captured, vxs(t, 5, "D4")) {
			t.Fatalf("captured %v", out.Captured)
		}
		// Black knows only that one stone was taken: D4 may be gone, and
		// stays on Black's board as uncertain (PG-7).
		tb.knows(engine.Black, OpponentUncertain, "D4")
		if !slices.Contains(tb.views[engine.Black].UncertainOpponentStones(), vx(t, 5, "D4")) {
			t.Errorf("UncertainOpponentStones() = %v, want D4", tb.views[engine.Black].UncertainOpponentStones())
		}
		tb.knows(engine.White, Opponent, "C4", "E4", "D5", "D3")
		tb.knows(engine.White, Own, "A1", "A2")
	})
	t.Run("PG-D3 hamburg: one candidate is certainly captured", func(t *testing.T) {
		tb := newTable(t, engine.RulesHamburg)
		tb.try("A2", "A1", "C3", "pass", "B1")
		tb.knows(engine.White, Unknown, "A1")
		tb.knows(engine.White, Opponent, "A2", "B1")
		if len(tb.views[engine.White].UncertainStones()) != 0 {
			t.Errorf("uncertain stones %v", tb.views[engine.White].UncertainStones())
		}
	})
	t.Run("PG-D3 hamburg: chains too big to be captured stay certain", func(t *testing.T) {
		tb := newTable(t, engine.RulesHamburg)
		tb.try("A2", "A1", "C3", "D4", "E4", "D5", "B1")
		// White lost one stone: A1, D4 or D5 could not (D4-D5 is two).
		tb.knows(engine.White, Own, "D4", "D5")
		tb.knows(engine.White, Unknown, "A1")
		tb.try("E5") // a lone stone, not captured
		tb.try("C5", "E3")
		tb.knows(engine.White, Own, "D4", "D5")
	})
	t.Run("PG-D3 hamburg: the loser does not know which", func(t *testing.T) {
		tb := newTable(t, engine.RulesHamburg)
		tb.try("A2", "A1", "D2", "E5", "B1")
		tb.knows(engine.White, OwnUncertain, "A1", "E5")
		// A try on E5 tells White it is still there.
		if out := tb.try("E5"); out.Reason != TryOccupiedOwn {
			t.Fatalf("reason %v", out.Reason)
		}
		tb.knows(engine.White, Own, "E5")
		tb.knows(engine.White, OwnUncertain, "A1")
		// A suicide on A1 tells White it is empty and surrounded.
		if out := tb.try("A1"); out.Reason != TrySuicide {
			t.Fatalf("reason %v", out.Reason)
		}
		tb.knows(engine.White, Unknown, "A1")
		tb.knows(engine.White, Opponent, "A2", "B1")
	})
}

func TestPGD3ApplyErrors(t *testing.T) {
	tb := newTable(t, engine.RulesCommon)
	tb.try("C3")
	white := tb.views[engine.White]
	good := Announcement{Rules: engine.RulesCommon, Size: 5, Mover: engine.White, To: engine.White, Event: Moved, Point: vx(t, 5, "D4")}
	if _, err := white.Apply(good); err != nil {
		t.Fatalf("a good announcement: %v", err)
	}
	tests := []struct {
		name   string
		change func(a *Announcement)
		want   error
	}{
		{"PG-D3 another recipient", func(a *Announcement) { a.To = engine.Black; a.Point = engine.NoPoint }, ErrBadAnnouncement},
		{"PG-D3 another rule set", func(a *Announcement) { a.Rules = engine.RulesHamburg; a.Captured = nil }, ErrBadAnnouncement},
		{"PG-D3 another board", func(a *Announcement) { a.Size = 7 }, ErrBadAnnouncement},
		{"PG-D3 out of turn", func(a *Announcement) { a.Mover, a.Point = engine.Black, engine.NoPoint }, engine.ErrNotYourTurn},
		{"PG-D3 a point told to the opponent", func(a *Announcement) { a.Mover = engine.Black }, ErrBadAnnouncement},
		{"PG-D3 capture list and count differ", func(a *Announcement) { a.Captures = 2; a.Captured = vxs(t, 5, "C3") }, ErrBadAnnouncement},
		{"PG-D3 a reason on a move", func(a *Announcement) { a.Reason = TryKo }, ErrBadAnnouncement},
		{"PG-D3 atari under kriegspiel", func(a *Announcement) { a.Rules = engine.RulesKriegspiel; a.AtariSelf = true }, ErrBadAnnouncement},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := good
			tt.change(&a)
			next, err := white.Apply(a)
			if err == nil {
				t.Fatal("accepted")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if !reflect.DeepEqual(next, white) {
				t.Fatal("a refused announcement changed the view")
			}
		})
	}
	// White's own stone D4, then Black says it captured a white stone at
	// C3: that is Black's own stone, a contradiction.
	w, _ := white.Apply(good)
	capture := Announcement{Rules: engine.RulesCommon, Size: 5, Mover: engine.Black, To: engine.White, Event: Moved, Point: engine.NoPoint, Captures: 1, Captured: vxs(t, 5, "C3")}
	if _, err := w.Apply(capture); !errors.Is(err, ErrContradiction) {
		t.Errorf("PG-D3 capture of a point that is no own stone: %v, want ErrPhantomContradiction", err)
	}
	moveOnOwn := good
	moveOnOwn.Point = vx(t, 5, "D4")
	moveOnOwn.Mover, moveOnOwn.To = engine.White, engine.White
	bl, _ := w.Apply(Announcement{Rules: engine.RulesCommon, Size: 5, Mover: engine.Black, To: engine.White, Event: Moved, Point: engine.NoPoint})
	if _, err := bl.Apply(moveOnOwn); !errors.Is(err, ErrContradiction) {
		t.Errorf("PG-D3 a move on an own stone: %v, want ErrPhantomContradiction", err)
	}
	// Play over.
	tb = newTable(t, engine.RulesCommon)
	tb.try("pass", "pass")
	if !tb.views[engine.Black].PlayEnded() {
		t.Fatal("PG-9 the view did not see the end")
	}
	pass := Announcement{Rules: engine.RulesCommon, Size: 5, Mover: engine.Black, To: engine.Black, Event: Passed, Point: engine.NoPoint}
	if _, err := tb.views[engine.Black].Apply(pass); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("PG-9 an announcement after the end: %v, want ErrGameOver", err)
	}
}

func TestPGD3Log(t *testing.T) {
	tb := newTable(t, engine.RulesCommon)
	tb.try("A2", "A1", "A1", "B1")
	log := tb.views[engine.White].Log()
	want := []string{"Black has moved", "White has moved (A1); White puts himself into atari", "Illegal move", "Black has moved; Black has captured A1"}
	if len(log) != len(want) {
		t.Fatalf("log of %d announcements, want %d", len(log), len(want))
	}
	for i, a := range log {
		if a.String() != want[i] {
			t.Errorf("log[%d] %q, want %q", i, a.String(), want[i])
		}
	}
	log[3].Captured[0] = 7
	if tb.views[engine.White].Log()[3].Captured[0] != vx(t, 5, "A1") {
		t.Error("the log shares its captured lists with the caller")
	}
	if tb.views[engine.Black].Log()[2].String() != "Illegal move (A1): already an opponent's stone" {
		t.Errorf("Black's log: %q", tb.views[engine.Black].Log()[2])
	}
}

func TestPG6PG7PG8ParseAnnouncementErrors(t *testing.T) {
	tests := []struct {
		name  string
		rules engine.PhantomRules
		to    engine.Color
		s     string
	}{
		{"PG-6 no event", engine.RulesCommon, engine.Black, "mover=black"},
		{"PG-6 unknown field", engine.RulesCommon, engine.Black, "event=pass mover=black colour=red"},
		{"PG-6 repeated field", engine.RulesCommon, engine.Black, "event=pass mover=black mover=black"},
		{"PG-6 not key=value", engine.RulesCommon, engine.Black, "event=pass mover"},
		{"PG-6 reason told to the opponent", engine.RulesCommon, engine.White, "event=illegal mover=black reason=ko"},
		{"PG-6 point told to the opponent", engine.RulesCommon, engine.White, "event=illegal mover=black point=C3"},
		{"PG-6 captured list missing", engine.RulesCommon, engine.White, "event=moved mover=black capture-count=0 atari-opponent=0 atari-self=0"},
		{"PG-6 count and list differ", engine.RulesCommon, engine.White, "event=moved mover=black capture-count=2 captured=C3 atari-opponent=0 atari-self=0"},
		{"PG-6 list out of order", engine.RulesCommon, engine.White, "event=moved mover=black capture-count=2 captured=D4,C3 atari-opponent=0 atari-self=0"},
		{"PG-7 a list under hamburg", engine.RulesHamburg, engine.White, "event=moved mover=black capture-count=1 captured=C3 atari-opponent=0 atari-self=0"},
		{"PG-7 reason missing under hamburg", engine.RulesHamburg, engine.White, "event=illegal mover=black"},
		{"PG-8 atari under kriegspiel", engine.RulesKriegspiel, engine.White, "event=moved mover=black capture-count=0 captured=- atari-opponent=0 atari-self=0"},
		{"PG-8 a list for the capturer", engine.RulesKriegspiel, engine.Black, "event=moved mover=black point=A1 capture-count=1 captured=C3"},
		{"PG-8 a bad bit", engine.RulesCommon, engine.Black, "event=moved mover=black point=A1 capture-count=0 captured=- atari-opponent=2 atari-self=0"},
		{"PG-8 a bad vertex", engine.RulesCommon, engine.Black, "event=moved mover=black point=Z9 capture-count=0 captured=- atari-opponent=0 atari-self=0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if a, err := ParseAnnouncement(tt.rules, 5, tt.to, tt.s); !errors.Is(err, ErrBadAnnouncement) {
				t.Errorf("got %+v, %v; want ErrBadAnnouncement", a, err)
			}
		})
	}
}

// FuzzPhantomAnnouncement reads arbitrary key=value lines: a line that is
// accepted must validate and be written back as the same announcement.
func FuzzPhantomAnnouncement(f *testing.F) {
	f.Add(uint8(0), uint8(0), "event=moved mover=black point=C3 capture-count=1 captured=B3 atari-opponent=1 atari-self=1")
	f.Add(uint8(1), uint8(1), "event=illegal mover=black reason=occupied-opponent")
	f.Add(uint8(2), uint8(1), "event=moved mover=black capture-count=2 captured=A1,C1")
	f.Add(uint8(2), uint8(0), "event=pass mover=white")
	f.Fuzz(func(t *testing.T, rulesIndex, toIndex uint8, s string) {
		rules := []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel}[int(rulesIndex)%3]
		to := []engine.Color{engine.Black, engine.White}[int(toIndex)%2]
		a, err := ParseAnnouncement(rules, 5, to, s)
		if err != nil {
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("accepted %q but it does not validate: %v", s, err)
		}
		back, err := ParseAnnouncement(rules, 5, to, a.KeyValues())
		if err != nil || !reflect.DeepEqual(back, a) {
			t.Fatalf("%q → %q → %+v, %v", s, a.KeyValues(), back, err)
		}
	})
}

// FuzzPhantomView plays random games and checks, after every try, that
// every fact each player's view claims is true on the referee's board and
// that no own stone is missing (checkViews).
func FuzzPhantomView(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		randomGame(t, data, func(before, after Referee, out TryOutcome, views *[3]View) {
			for _, c := range []engine.Color{engine.Black, engine.White} {
				for _, p := range views[c].SensibleTries() {
					if k := views[c].At(p); k == Own || k == Opponent {
						t.Fatalf("%s, known as %v, is a sensible try", p.Vertex(views[c].Size()), k)
					}
				}
			}
		})
	})
}

// TestPGD3LogSince: a view's log given since a mark is the announcements
// added after it, for a mark of the same view (none), of an earlier view
// of the same game (each step back), and of the empty log; it is not
// given for a mark of a later view, of the other player's view, or of a
// view built again from the same announcements; and it shares nothing
// with the caller.
func TestPGD3LogSince(t *testing.T) {
	tb := newTable(t, engine.RulesCommon)
	var marks []LogMark
	var views []View
	marks = append(marks, tb.views[engine.White].LogMark())
	views = append(views, tb.views[engine.White])
	for _, p := range []string{"A2", "A1", "A1", "B1", "C3"} {
		tb.try(p)
		marks = append(marks, tb.views[engine.White].LogMark())
		views = append(views, tb.views[engine.White])
	}
	last := views[len(views)-1]
	all := last.Log()
	if len(all) < 5 {
		t.Fatalf("a log of %d announcements", len(all))
	}
	for i, m := range marks {
		added, ok := last.LogSince(m)
		if !ok {
			t.Fatalf("step %d: the log since an earlier mark not given", i)
		}
		from := len(views[i].Log())
		if len(added) != len(all)-from {
			t.Fatalf("step %d: %d added, want %d", i, len(added), len(all)-from)
		}
		for k, a := range added {
			if a.String() != all[from+k].String() {
				t.Errorf("step %d: added[%d] %q, want %q", i, k, a, all[from+k])
			}
		}
	}
	if added, ok := last.LogSince(LogMark{}); !ok || len(added) != len(all) {
		t.Errorf("since the empty log: %d, %v; want %d, true", len(added), ok, len(all))
	}
	if _, ok := views[2].LogSince(marks[4]); ok {
		t.Error("an earlier view's log since a later mark was given")
	}
	if _, ok := last.LogSince(tb.views[engine.Black].LogMark()); ok {
		t.Error("the log since the other player's mark was given")
	}
	again := newTable(t, engine.RulesCommon)
	again.try("A2", "A1", "A1", "B1", "C3")
	if _, ok := last.LogSince(again.views[engine.White].LogMark()); ok {
		t.Error("the log since a mark of a view built again was given")
	}
	if added, ok := last.LogSince(last.LogMark()); !ok || len(added) != 0 {
		t.Errorf("since its own mark: %d, %v; want 0, true", len(added), ok)
	}
	added, _ := last.LogSince(LogMark{})
	k := slices.IndexFunc(added, func(a Announcement) bool { return len(a.Captured) > 0 })
	if k < 0 {
		t.Fatal("no capture in the log")
	}
	added[k].Captured[0]++
	if a, _ := last.LogSince(LogMark{}); a[k].Captured[0] == added[k].Captured[0] {
		t.Error("the log since a mark shares its captured lists with the caller")
	}
}
