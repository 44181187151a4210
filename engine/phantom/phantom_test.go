package phantom

import (
	"errors"
	"reflect"
	"testing"

	"github.com/kakure/kakure/engine"
)

// refereeAt returns a referee on the diagram (rows from the top) with
// toMove to play.
func refereeAt(t testing.TB, rules engine.PhantomRules, toMove engine.Color, rows ...string) Referee {
	t.Helper()
	b := engine.MustParseBoard(rows...)
	r, err := NewRefereeAt(engine.Options{Variant: engine.VariantPhantom, Size: b.Size(), Rules: rules}, b, toMove)
	if err != nil {
		t.Fatalf("NewPhantomRefereeAt: %v", err)
	}
	return r
}

// vx parses a vertex or fails the test.
func vx(t testing.TB, size int, s string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(size, s)
	if err != nil {
		t.Fatalf("ParseVertex(%q): %v", s, err)
	}
	return p
}

// vxs parses a list of vertices ("-" or "" for none).
func vxs(t testing.TB, size int, list ...string) []engine.Point {
	t.Helper()
	var ps []engine.Point
	for _, s := range list {
		ps = append(ps, vx(t, size, s))
	}
	return ps
}

// tryOK plays a try that must not be an error and returns the next referee
// and the outcome.
func tryOK(t testing.TB, r Referee, c engine.Color, vertex string) (Referee, TryOutcome) {
	t.Helper()
	next, out, err := r.Try(c, vx(t, r.board.Size(), vertex))
	if err != nil {
		t.Fatalf("Try(%v, %s): %v", c, vertex, err)
	}
	return next, out
}

// playLegal plays a list of tries that must all be legal moves or passes,
// alternating from the player to move.
func playLegal(t testing.TB, r Referee, vertices ...string) Referee {
	t.Helper()
	for _, v := range vertices {
		var out TryOutcome
		r, out = tryOK(t, r, r.ToMove(), v)
		if !out.Legal {
			t.Fatalf("try %s by %v: illegal (%v), want legal\n%v", v, out.Mover, out.Reason, r.Board())
		}
	}
	return r
}

func TestPG1Pass(t *testing.T) {
	tests := []struct {
		name  string
		rows  []string
		moves []string // legal moves before the pass
	}{
		{"PG-1 pass on an empty board", []string{".....", ".....", ".....", ".....", "....."}, nil},
		{"PG-1 pass after moves", []string{".....", ".....", ".....", ".....", "....."}, []string{"C3", "D4"}},
		{"PG-1 pass on a nearly full board", []string{"XXXXX", "XXXXX", "XX.XX", "XXXXX", "XXXX."}, nil},
		{"PG-1 pass clears the ko", []string{".....", ".XO..", "XO.O.", ".XO..", "....."}, []string{"C3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := playLegal(t, refereeAt(t, engine.RulesCommon, engine.Black, tt.rows...), tt.moves...)
			mover := r.ToMove()
			next, out, err := r.Try(mover, engine.Pass)
			if err != nil {
				t.Fatal(err)
			}
			want := TryOutcome{Mover: mover, Point: engine.Pass, Legal: true, Pass: true}
			if !reflect.DeepEqual(out, want) {
				t.Errorf("outcome %+v, want %+v", out, want)
			}
			if next.ToMove() != mover.Opponent() || next.Passes() != r.Passes()+1 || next.Board() != r.Board() || next.Ko() != engine.NoPoint {
				t.Errorf("after pass: to move %v passes %d ko %v board changed %v", next.ToMove(), next.Passes(), next.Ko(), next.Board() != r.Board())
			}
		})
	}
	// In the last position the pass had something to clear.
	r := playLegal(t, refereeAt(t, engine.RulesCommon, engine.Black, ".....", ".XO..", "XO.O.", ".XO..", "....."), "C3")
	if r.Ko() == engine.NoPoint {
		t.Fatal("PG-1 pass clears the ko: the position has no ko to clear")
	}
}

func TestPG2IllegalTries(t *testing.T) {
	tests := []struct {
		name   string
		rows   []string
		moves  []string // legal moves from Black first
		vertex string
		want   TryReason
	}{
		{"PG-2 own stone", []string{".....", ".....", "..X..", ".....", "....."}, nil, "C3", TryOccupiedOwn},
		{"PG-2 opponent stone", []string{".....", ".....", "..O..", ".....", "....."}, nil, "C3", TryOccupiedOpponent},
		{"PG-2 single-stone suicide in the corner", []string{".....", ".....", ".....", "O....", ".O..."}, nil, "A1", TrySuicide},
		{"PG-2 suicide of a chain", []string{".....", ".....", "OOO..", "XXO..", ".XO.."}, nil, "A1", TrySuicide},
		{"PG-2 suicide inside a white eye", []string{".....", ".OOO.", ".O.O.", ".OOO.", "....."}, nil, "C3", TrySuicide},
		{"PG-2 ko recapture", koRows, []string{"C3"}, "B3", TryKo},
		{"PG-2 capture is no suicide", []string{".....", ".....", ".....", "XO...", "O.O.."}, nil, "B1", TryNoReason},
		{"PG-2 filling own eye is legal", []string{".....", ".XXX.", ".X.X.", ".XXX.", "....."}, nil, "C3", TryNoReason},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := playLegal(t, refereeAt(t, engine.RulesCommon, engine.Black, tt.rows...), tt.moves...)
			p := vx(t, 5, tt.vertex)
			c := r.ToMove()
			next, out, err := r.Try(c, p)
			if err != nil {
				t.Fatal(err)
			}
			if out.Reason != tt.want || out.Legal != (tt.want == TryNoReason) {
				t.Fatalf("reason %v legal %v, want %v", out.Reason, out.Legal, tt.want)
			}
			if tt.want == TryNoReason {
				return
			}
			want := TryOutcome{Mover: c, Point: p, Reason: tt.want}
			if !reflect.DeepEqual(out, want) {
				t.Errorf("outcome %+v, want %+v", out, want)
			}
			if next != r {
				t.Errorf("illegal try changed the referee")
			}
			if next.ToMove() != c {
				t.Errorf("after an illegal try %v is to move, want %v", next.ToMove(), c)
			}
		})
	}
}

func TestPG2NoLimitOnTries(t *testing.T) {
	r := refereeAt(t, engine.RulesCommon, engine.Black, "XXXXX", "XOOOX", "XO.OX", "XOOOX", "XXXX.")
	start := r
	for i := 0; i < 100; i++ {
		for _, v := range []string{"A1", "B2", "C4", "E5"} {
			var out TryOutcome
			r, out = tryOK(t, r, engine.Black, v)
			if out.Legal {
				t.Fatalf("PG-2 try %s: legal, want illegal", v)
			}
		}
	}
	if r != start {
		t.Fatal("PG-2 400 illegal tries changed the referee")
	}
	// C3 captures the white chain: still Black's turn, and it is legal.
	r, out := tryOK(t, r, engine.Black, "C3")
	if !out.Legal || len(out.Captured) != 8 || r.ToMove() != engine.White {
		t.Fatalf("PG-2 after illegal tries, C3: %+v, to move %v", out, r.ToMove())
	}
}

func TestPG2Errors(t *testing.T) {
	r := refereeAt(t, engine.RulesCommon, engine.Black, ".....", ".....", ".....", ".....", ".....")
	ended := playLegal(t, r, "pass", "pass")
	tests := []struct {
		name string
		r    Referee
		c    engine.Color
		p    engine.Point
		want error
	}{
		{"PG-2 out of turn", r, engine.White, 0, engine.ErrNotYourTurn},
		{"PG-2 empty colour", r, engine.Empty, 0, engine.ErrNotYourTurn},
		{"PG-2 off the board", r, engine.Black, 25, engine.ErrOffBoard},
		{"PG-2 negative point", r, engine.Black, engine.NoPoint, engine.ErrOffBoard},
		{"PG-9 try after the end", ended, engine.Black, 0, engine.ErrGameOver},
		{"PG-9 pass after the end", ended, engine.Black, engine.Pass, engine.ErrGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, _, err := tt.r.Try(tt.c, tt.p)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if next != tt.r {
				t.Fatal("a refused try changed the referee")
			}
		})
	}
}

func TestPG3Captures(t *testing.T) {
	tests := []struct {
		name     string
		rows     []string
		vertex   string
		captured []string
		after    []string
	}{
		{
			"PG-3 no capture",
			[]string{".....", ".....", ".....", ".....", "....."}, "C3", nil,
			[]string{".....", ".....", "..X..", ".....", "....."},
		},
		{
			"PG-3 one stone in the corner",
			[]string{".....", ".....", ".....", "X....", "O...."}, "B1", []string{"A1"},
			[]string{".....", ".....", ".....", "X....", ".X..."},
		},
		{
			"PG-3 two chains at once, listed in increasing order",
			[]string{".....", ".....", ".....", "XXXX.", "O.OOX"}, "B1", []string{"A1", "C1", "D1"},
			[]string{".....", ".....", ".....", "XXXX.", ".X..X"},
		},
		{
			"PG-3 a chain of five taken at its last liberty",
			[]string{"XXXX.", "OOOX.", "XXOX.", ".XOX.", "....."}, "C1", []string{"C2", "C3", "A4", "B4", "C4"},
			[]string{"XXXX.", "...X.", "XX.X.", ".X.X.", "..X.."},
		},
		{
			"PG-3 capture before the mover's own chain is examined",
			[]string{".....", ".....", "OO...", "XXO..", ".OX.."}, "A1", []string{"B1"},
			[]string{".....", ".....", "OO...", "XXO..", "X.X.."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := refereeAt(t, engine.RulesCommon, engine.Black, tt.rows...)
			next, out := tryOK(t, r, engine.Black, tt.vertex)
			if !out.Legal || out.Pass || out.Reason != TryNoReason {
				t.Fatalf("outcome %+v, want a legal move", out)
			}
			if want := vxs(t, 5, tt.captured...); !reflect.DeepEqual(out.Captured, want) {
				t.Errorf("captured %s, want %s", engine.FormatVertices(5, out.Captured), engine.FormatVertices(5, want))
			}
			if want := engine.MustParseBoard(tt.after...); next.Board() != want {
				t.Errorf("board after:\n%vwant:\n%v", next.Board(), want)
			}
			if next.ToMove() != engine.White || next.Passes() != 0 {
				t.Errorf("to move %v passes %d, want white 0", next.ToMove(), next.Passes())
			}
		})
	}
}

// koRows is a ko: Black C3 takes the white stone at B3 with a single stone
// that is then left with one liberty.
var koRows = []string{
	".....",
	".XO..",
	"XO.O.",
	".XO..",
	".....",
}

// koAtariRows is koRows with a black stone at C5: the ko capture also puts
// the white stone C4 into atari.
var koAtariRows = []string{
	"..X..",
	".XO..",
	"XO.O.",
	".XO..",
	".....",
}

func TestPG4Ko(t *testing.T) {
	type step struct {
		vertex string
		reason TryReason // the expected reason; TryNoReason for legal
	}
	tests := []struct {
		name   string
		rows   []string
		steps  []step
		wantKo string // the ko point after the last step, "" for none
	}{
		{"PG-4 immediate recapture is illegal", koRows,
			[]step{{"C3", 0}, {"B3", TryKo}}, "B3"},
		{"PG-4 the ko capture sets the ko point", koRows,
			[]step{{"C3", 0}}, "B3"},
		{"PG-4 illegal tries keep the ko", koRows,
			[]step{{"C3", 0}, {"B3", TryKo}, {"A3", TryOccupiedOpponent}, {"B3", TryKo}}, "B3"},
		{"PG-4 after moves elsewhere the recapture is legal and a new ko", koRows,
			[]step{{"C3", 0}, {"B3", TryKo}, {"E5", 0}, {"E1", 0}, {"B3", 0}}, "C3"},
		{"PG-4 after the opponent passes the recapture is legal", koRows,
			[]step{{"C3", 0}, {"E5", 0}, {"pass", 0}, {"B3", 0}}, "C3"},
		{"PG-4 ko does not hold across one more move of the taker", koRows,
			[]step{{"C3", 0}, {"pass", 0}, {"E1", 0}, {"B3", 0}}, "C3"},
		{"PG-4 the taker may fill the ko", koRows,
			[]step{{"C3", 0}, {"E5", 0}, {"B3", 0}}, ""},
		{"PG-4 capture of one stone by a chain of two: recapture legal",
			[]string{".....", ".....", ".....", ".XOO.", "XO.XO"},
			[]step{{"C1", 0}, {"B1", 0}}, ""},
		{"PG-4 capture of one stone by a stone with two liberties: no ko",
			[]string{".....", ".XO..", "XO.O.", ".X...", "....."},
			[]step{{"C3", 0}, {"B3", TrySuicide}, {"C2", 0}, {"E5", 0}, {"B3", 0}}, "C3"},
		{"PG-4 capture of two stones by a single stone: no ko",
			[]string{".....", ".....", ".....", "OX...", "OX..."},
			[]step{{"A3", 0}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := refereeAt(t, engine.RulesCommon, engine.Black, tt.rows...)
			for i, s := range tt.steps {
				before := r
				var out TryOutcome
				r, out = tryOK(t, r, r.ToMove(), s.vertex)
				if out.Reason != s.reason || out.Legal != (s.reason == TryNoReason) {
					t.Fatalf("step %d %s: reason %v legal %v, want %v\n%v", i, s.vertex, out.Reason, out.Legal, s.reason, before.Board())
				}
				if !out.Legal && r != before {
					t.Fatalf("step %d: illegal try changed the referee", i)
				}
			}
			want := engine.NoPoint
			if tt.wantKo != "" {
				want = vx(t, 5, tt.wantKo)
			}
			if r.Ko() != want {
				t.Errorf("ko %s, want %s", r.Ko().Vertex(5), want.Vertex(5))
			}
		})
	}
}

func TestPG5AtariFacts(t *testing.T) {
	tests := []struct {
		name         string
		rows         []string
		vertex       string
		opp, self    bool
		wantCaptured int
	}{
		{"PG-5 opponent from two liberties to one", []string{".....", ".....", ".....", ".....", "O...."}, "A2", true, false, 0},
		{"PG-5 opponent from three liberties to two", []string{".....", ".....", ".....", ".....", ".O..."}, "C1", false, false, 0},
		{"PG-5 self-atari alone is announced (Decision)", []string{".....", ".....", ".....", ".....", ".O..."}, "A1", false, true, 0},
		{"PG-5 both facts", []string{".....", ".....", ".....", ".....", "O.O.."}, "B1", true, true, 0},
		{"PG-5 no capture, joining a chain already in atari: not himself", []string{".....", ".....", ".....", ".OO..", "OX..."}, "C1", false, false, 0},
		{"PG-5 capture that joins a chain in atari: and himself", []string{".....", ".....", "OOOO.", "OXXO.", "O.OX."}, "B1", false, true, 1},
		{"PG-5 capture that joins a chain in atari, both facts (the snapback)", []string{".....", ".....", ".OOO.", "OXXO.", "O.OX."}, "B1", true, true, 1},
		{"PG-5 capture that joins a chain in atari and leaves two liberties", []string{".....", ".....", "OOOO.", "OXXO.", "..OX."}, "B1", false, false, 1},
		{"PG-5 capture of two stones by a single stone left in atari", []string{".....", "O....", ".O...", "OX...", "OX..."}, "A3", false, true, 2},
		{"PG-5 self-atari next to two opponent chains, neither put into atari", []string{".....", ".....", ".....", "..O..", ".O..."}, "C1", false, true, 0},
		{"PG-5 joining a chain with two liberties", []string{".....", ".....", ".....", ".OO..", ".X.O."}, "C1", false, true, 0},
		{"PG-5 joining two chains, one already in atari", []string{".....", ".....", ".....", "OOO..", "X.X.."}, "B1", false, false, 0},
		{"PG-5 joining two chains, neither in atari", []string{".....", "..O..", "..XO.", "OX.O.", ".OO.."}, "C2", false, true, 0},
		{"PG-5 a chain touched on two sides loses one liberty", []string{".....", ".....", "XXXX.", "XOOX.", ".O.X."}, "C1", true, false, 0},
		{"PG-5 two opponent chains, one put into atari", []string{".....", ".....", ".....", ".X...", "O.O.."}, "B1", true, false, 0},
		{"PG-5 capture of two chains, no atari", []string{".....", ".....", "X....", "OX...", ".OX.."}, "A1", false, false, 2},
		{"PG-5 capture, atari of another chain and self-atari", koAtariRows, "C3", true, true, 1},
		{"PG-5 ko capture puts the capturer into atari", koRows, "C3", false, true, 1},
		{"PG-5 a chain not next to the move never counts", []string{".....", ".....", ".....", "X....", "O...X"}, "D1", false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := refereeAt(t, engine.RulesCommon, engine.Black, tt.rows...)
			_, out := tryOK(t, r, engine.Black, tt.vertex)
			if !out.Legal {
				t.Fatalf("illegal: %v", out.Reason)
			}
			if out.AtariOpponent != tt.opp || out.AtariSelf != tt.self || len(out.Captured) != tt.wantCaptured {
				t.Errorf("atari-opponent %v atari-self %v captured %d, want %v %v %d",
					out.AtariOpponent, out.AtariSelf, len(out.Captured), tt.opp, tt.self, tt.wantCaptured)
			}
			ref := referenceTry(r.Board(), r.Ko(), engine.Black, vx(t, 5, tt.vertex))
			if ref.out.AtariOpponent != out.AtariOpponent || ref.out.AtariSelf != out.AtariSelf {
				t.Errorf("reference referee says %v %v", ref.out.AtariOpponent, ref.out.AtariSelf)
			}
		})
	}
}

// snapbackRows is the position of the Sensei's Library snapback sequence
// (see TestPG5PG6PG7PG8Snapback). The black chain B2-C2 is in atari at B1.
var snapbackRows = []string{
	".........",
	".........",
	".........",
	".........",
	".........",
	".........",
	".OOO.....",
	"OXXOX....",
	"O.O.X....",
}

// TestPG5PG6PG7PG8Snapback plays the Sensei's Library snapback, "B puts W
// into atari; W has moved; B captures and puts W and himself into atari; W
// captures three", and checks what each player is told under each rule set.
//
// Black's capture at B1 joins the chain B2-C2, which was already in atari,
// and leaves B1-B2-C2 with the single liberty C1. By PG-5 the move captured,
// so "and himself" is said (PG-D2), as in the seed's own example.
func TestPG5PG6PG7PG8Snapback(t *testing.T) {
	type told struct{ black, white string }
	steps := []struct {
		vertex    string
		captured  []string
		opp, self bool
		common    told
		hamburg   told
		kriegs    told
	}{
		{"D1", nil, true, false,
			told{"Black has moved (D1); Black puts White into atari", "Black has moved; Black puts White into atari"},
			told{"Black has moved (D1); Black puts White into atari", "Black has moved; Black puts White into atari"},
			told{"Black has moved (D1)", "Black has moved"}},
		{"G7", nil, false, false,
			told{"White has moved", "White has moved (G7)"},
			told{"White has moved", "White has moved (G7)"},
			told{"White has moved", "White has moved (G7)"}},
		{"B1", []string{"C1"}, true, true,
			told{"Black has moved (B1); Black has captured C1; Black puts White into atari and himself", "Black has moved; Black has captured C1; Black puts White into atari and himself"},
			told{"Black has moved (B1); Black captures 1 stone; Black puts White into atari and himself", "Black has moved; Black captures 1 stone; Black puts White into atari and himself"},
			told{"Black has moved (B1); Black captures 1 stone", "Black has moved; Black has captured C1"}},
		{"C1", []string{"B1", "B2", "C2"}, false, false,
			told{"White has moved; White has captured B1,B2,C2", "White has moved (C1); White has captured B1,B2,C2"},
			told{"White has moved; White captures 3 stones", "White has moved (C1); White captures 3 stones"},
			told{"White has moved; White has captured B1,B2,C2", "White has moved (C1); White captures 3 stones"}},
	}
	for _, rules := range []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel} {
		t.Run(string(rules), func(t *testing.T) {
			r := refereeAt(t, rules, engine.Black, snapbackRows...)
			for i, s := range steps {
				var out TryOutcome
				mover := r.ToMove()
				r, out = tryOK(t, r, mover, s.vertex)
				if !out.Legal || !reflect.DeepEqual(out.Captured, vxs(t, 9, s.captured...)) || out.AtariOpponent != s.opp || out.AtariSelf != s.self {
					t.Fatalf("step %d %s: %+v", i, s.vertex, out)
				}
				want := map[engine.PhantomRules]told{engine.RulesCommon: s.common, engine.RulesHamburg: s.hamburg, engine.RulesKriegspiel: s.kriegs}[rules]
				if got := Announce(rules, 9, out, engine.Black).String(); got != want.black {
					t.Errorf("step %d %s to black:\n got %q\nwant %q", i, s.vertex, got, want.black)
				}
				if got := Announce(rules, 9, out, engine.White).String(); got != want.white {
					t.Errorf("step %d %s to white:\n got %q\nwant %q", i, s.vertex, got, want.white)
				}
			}
			if r.Ko() != engine.NoPoint {
				t.Errorf("a snapback of three stones is no ko, got ko at %s", r.Ko().Vertex(9))
			}
		})
	}
}

func TestPG9End(t *testing.T) {
	empty := []string{".....", ".....", ".....", ".....", "....."}
	tests := []struct {
		name  string
		tries []string // alternating from Black; an illegal try keeps the turn
		ended bool
	}{
		{"PG-9 two passes end play", []string{"pass", "pass"}, true},
		{"PG-9 one pass does not", []string{"C3", "pass"}, false},
		{"PG-9 a move between passes resets the count", []string{"pass", "C3", "pass"}, false},
		{"PG-9 illegal tries between passes do not break them", []string{"C3", "pass", "C3", "C3", "pass"}, true},
		{"PG-9 passes after moves", []string{"C3", "D4", "pass", "pass"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := refereeAt(t, engine.RulesCommon, engine.Black, empty...)
			for _, v := range tt.tries {
				r, _ = tryOK(t, r, r.ToMove(), v)
			}
			if r.PlayEnded() != tt.ended {
				t.Fatalf("PlayEnded %v, want %v (passes %d)", r.PlayEnded(), tt.ended, r.Passes())
			}
		})
	}
}

func TestPG9Score(t *testing.T) {
	r := refereeAt(t, engine.RulesCommon, engine.Black,
		"..X.O",
		"..X.O",
		"XXXOO",
		"..XO.",
		"..XO.")
	r = playLegal(t, r, "pass", "pass")
	if !r.PlayEnded() {
		t.Fatal("play has not ended")
	}
	s := r.Score(engine.Marking{})
	// Black: 7 stones + 8 territory; White: 6 stones + 2 territory + 7.5.
	if s.Black != 15 || s.White != 15.5 {
		t.Errorf("PG-9 score %v–%v, want 15–15.5", s.Black, s.White)
	}
	if got := s.Result().String(); got != "W+0.5" {
		t.Errorf("PG-9 result %s, want W+0.5", got)
	}
	dead := engine.MarkingOf(r.Board(), vxs(t, 5, "E5"))
	if got := r.Score(dead).Result().String(); got != "B+17.5" {
		t.Errorf("PG-9 result with the white chain dead %s, want B+17.5", got)
	}
	// GO-4: play may resume.
	if _, err := r.Resume(engine.White); err != nil {
		t.Fatal(err)
	}
	resumed, _ := r.Resume(engine.White)
	if resumed.PlayEnded() || resumed.ToMove() != engine.White {
		t.Errorf("PG-D5 resume: ended %v to move %v", resumed.PlayEnded(), resumed.ToMove())
	}
	if _, err := resumed.Resume(engine.Black); !errors.Is(err, engine.ErrWrongPhase) {
		t.Errorf("PG-D5 resume while playing: %v, want ErrWrongPhase", err)
	}
}

func TestPG9Options(t *testing.T) {
	r, err := NewReferee(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o := r.Options(); o.Variant != engine.VariantPhantom || o.Size != 9 || o.Komi != 7.5 || o.Rules != engine.RulesCommon {
		t.Errorf("PG-9 defaults %+v, want phantom 9×9 komi 7.5 common", o)
	}
	if b0 := r.Board(); r.ToMove() != engine.Black || r.Ko() != engine.NoPoint || r.Passes() != 0 || b0.Count(engine.Black)+b0.Count(engine.White) != 0 {
		t.Errorf("a new referee is not an empty board with Black to move")
	}
	for _, o := range []engine.Options{
		{Variant: engine.VariantGo},
		{Variant: engine.VariantPhantom, Size: 4},
		{Variant: engine.VariantPhantom, Rules: "chinese"},
	} {
		if _, err := NewReferee(o); !errors.Is(err, engine.ErrBadOptions) {
			t.Errorf("NewPhantomReferee(%+v): %v, want ErrBadOptions", o, err)
		}
	}
	b := engine.MustParseBoard(".....", ".....", ".....", "X....", "OX...")
	if _, err := NewRefereeAt(engine.Options{Size: 5}, b, engine.Black); !errors.Is(err, engine.ErrBadOptions) {
		t.Errorf("a position with a dead chain: %v, want ErrBadOptions", err)
	}
	if _, err := NewRefereeAt(engine.Options{Size: 7}, engine.MustParseBoard(".....", ".....", ".....", ".....", "....."), engine.Black); !errors.Is(err, engine.ErrBadOptions) {
		t.Errorf("a position of the wrong size: %v, want ErrBadOptions", err)
	}
}

func TestPG2TryReasonWords(t *testing.T) {
	want := map[TryReason]string{TryNoReason: "none", TryOccupiedOwn: "occupied-own", TryOccupiedOpponent: "occupied-opponent", TrySuicide: "suicide", TryKo: "ko"}
	for r, w := range want {
		if r.String() != w {
			t.Errorf("%d: %q, want %q", r, r.String(), w)
		}
		if back, err := ParseTryReason(w); err != nil || back != r {
			t.Errorf("ParseTryReason(%q) = %v, %v", w, back, err)
		}
	}
	if _, err := ParseTryReason("occupied"); err == nil {
		t.Error("ParseTryReason accepted a wrong word")
	}
}
