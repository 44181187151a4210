package phantom

import (
	"errors"
	"math/rand/v2"
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

// announceCase is what both players are told of one try under a rule set.
type announceCase struct {
	toMover, toOpponent string // String()
	kvMover, kvOpponent string // KeyValues()
}

// checkAnnouncements announces o under rules to both players and compares
// the words and the key=value form, and checks that the key=value form
// reads back to the same announcement and that it validates.
func checkAnnouncements(t *testing.T, rules engine.PhantomRules, size int, o TryOutcome, want announceCase) {
	t.Helper()
	for _, side := range []struct {
		to       engine.Color
		text, kv string
	}{{o.Mover, want.toMover, want.kvMover}, {o.Mover.Opponent(), want.toOpponent, want.kvOpponent}} {
		a := Announce(rules, size, o, side.to)
		if err := a.Validate(); err != nil {
			t.Errorf("%s to %v: %v", rules, side.to, err)
		}
		if got := a.String(); got != side.text {
			t.Errorf("%s to %v: String\n got %q\nwant %q", rules, side.to, got, side.text)
		}
		if got := a.KeyValues(); got != side.kv {
			t.Errorf("%s to %v: KeyValues\n got %q\nwant %q", rules, side.to, got, side.kv)
		}
		back, err := ParseAnnouncement(rules, size, side.to, a.KeyValues())
		if err != nil {
			t.Errorf("%s to %v: reading %q back: %v", rules, side.to, a.KeyValues(), err)
		} else if !reflect.DeepEqual(back, a) {
			t.Errorf("%s to %v: read back %+v, want %+v", rules, side.to, back, a)
		}
	}
}

// announcementScenes are tries whose outcomes the rule-set tables below
// announce. Each is played on a 5×5 diagram with Black to move.
var announcementScenes = []struct {
	name   string
	rows   []string
	before []string // legal moves first
	vertex string
}{
	{"moved", []string{".....", ".....", ".....", ".....", "....."}, nil, "C3"},
	{"capture and both ataris", koAtariRows, nil, "C3"},
	{"capture of two", []string{".....", ".....", ".....", "XXXX.", "O.OX."}, nil, "B1"},
	{"self-atari only", []string{".....", ".....", ".....", ".....", ".O..."}, nil, "A1"},
	{"occupied-opponent", []string{".....", ".....", "..O..", ".....", "....."}, nil, "C3"},
	{"occupied-own", []string{".....", ".....", "..X..", ".....", "....."}, nil, "C3"},
	{"suicide", []string{".....", ".....", ".....", "O....", ".O..."}, nil, "A1"},
	{"ko", koRows, nil, "B3"}, // Black takes at C3 first, see sceneOutcome
	{"pass", []string{".....", ".....", ".....", ".....", "....."}, nil, "pass"},
}

// sceneOutcome plays a scene and returns the outcome of its try.
func sceneOutcome(t *testing.T, name string) TryOutcome {
	t.Helper()
	for _, s := range announcementScenes {
		if s.name != name {
			continue
		}
		r := refereeAt(t, engine.RulesCommon, engine.Black, s.rows...)
		if name == "ko" {
			// Black takes the ko, White tries to retake at once.
			r = playLegal(t, r, "C3")
			_, out := tryOK(t, r, engine.White, "B3")
			return out
		}
		r = playLegal(t, r, s.before...)
		_, out := tryOK(t, r, r.ToMove(), s.vertex)
		return out
	}
	t.Fatalf("no scene %q", name)
	return TryOutcome{}
}

func TestPG6CommonAnnouncements(t *testing.T) {
	tests := map[string]announceCase{
		"moved": {
			toMover: "Black has moved (C3)", toOpponent: "Black has moved",
			kvMover:    "event=moved mover=black point=C3 capture-count=0 captured=- atari-opponent=0 atari-self=0",
			kvOpponent: "event=moved mover=black capture-count=0 captured=- atari-opponent=0 atari-self=0",
		},
		"capture and both ataris": {
			toMover:    "Black has moved (C3); Black has captured B3; Black puts White into atari and himself",
			toOpponent: "Black has moved; Black has captured B3; Black puts White into atari and himself",
			kvMover:    "event=moved mover=black point=C3 capture-count=1 captured=B3 atari-opponent=1 atari-self=1",
			kvOpponent: "event=moved mover=black capture-count=1 captured=B3 atari-opponent=1 atari-self=1",
		},
		"capture of two": {
			toMover:    "Black has moved (B1); Black has captured A1,C1",
			toOpponent: "Black has moved; Black has captured A1,C1",
			kvMover:    "event=moved mover=black point=B1 capture-count=2 captured=A1,C1 atari-opponent=0 atari-self=0",
			kvOpponent: "event=moved mover=black capture-count=2 captured=A1,C1 atari-opponent=0 atari-self=0",
		},
		"self-atari only": {
			toMover:    "Black has moved (A1); Black puts himself into atari",
			toOpponent: "Black has moved; Black puts himself into atari",
			kvMover:    "event=moved mover=black point=A1 capture-count=0 captured=- atari-opponent=0 atari-self=1",
			kvOpponent: "event=moved mover=black capture-count=0 captured=- atari-opponent=0 atari-self=1",
		},
		"occupied-opponent": {
			toMover: "Illegal move (C3): already an opponent's stone", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-opponent", kvOpponent: "event=illegal mover=black",
		},
		"occupied-own": {
			toMover: "Illegal move (C3): already your own stone", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-own", kvOpponent: "event=illegal mover=black",
		},
		"suicide": {
			toMover: "Illegal move (A1): suicide", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=A1 reason=suicide", kvOpponent: "event=illegal mover=black",
		},
		"ko": {
			toMover: "Illegal move (B3): ko", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=white point=B3 reason=ko", kvOpponent: "event=illegal mover=white",
		},
		"pass": {
			toMover: "Black passes", toOpponent: "Black passes",
			kvMover: "event=pass mover=black", kvOpponent: "event=pass mover=black",
		},
	}
	for _, s := range announcementScenes {
		t.Run("PG-6 "+s.name, func(t *testing.T) {
			checkAnnouncements(t, engine.RulesCommon, 5, sceneOutcome(t, s.name), tests[s.name])
		})
	}
}

func TestPG7HamburgAnnouncements(t *testing.T) {
	tests := map[string]announceCase{
		"moved": {
			toMover: "Black has moved (C3)", toOpponent: "Black has moved",
			kvMover:    "event=moved mover=black point=C3 capture-count=0 atari-opponent=0 atari-self=0",
			kvOpponent: "event=moved mover=black capture-count=0 atari-opponent=0 atari-self=0",
		},
		"capture and both ataris": {
			toMover:    "Black has moved (C3); Black captures 1 stone; Black puts White into atari and himself",
			toOpponent: "Black has moved; Black captures 1 stone; Black puts White into atari and himself",
			kvMover:    "event=moved mover=black point=C3 capture-count=1 atari-opponent=1 atari-self=1",
			kvOpponent: "event=moved mover=black capture-count=1 atari-opponent=1 atari-self=1",
		},
		"capture of two": {
			toMover:    "Black has moved (B1); Black captures 2 stones",
			toOpponent: "Black has moved; Black captures 2 stones",
			kvMover:    "event=moved mover=black point=B1 capture-count=2 atari-opponent=0 atari-self=0",
			kvOpponent: "event=moved mover=black capture-count=2 atari-opponent=0 atari-self=0",
		},
		"self-atari only": {
			toMover:    "Black has moved (A1); Black puts himself into atari",
			toOpponent: "Black has moved; Black puts himself into atari",
			kvMover:    "event=moved mover=black point=A1 capture-count=0 atari-opponent=0 atari-self=1",
			kvOpponent: "event=moved mover=black capture-count=0 atari-opponent=0 atari-self=1",
		},
		"occupied-opponent": {
			toMover: "Illegal move (C3): already an opponent's stone", toOpponent: "Illegal move: already a White stone",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-opponent", kvOpponent: "event=illegal mover=black reason=occupied-opponent",
		},
		"occupied-own": {
			toMover: "Illegal move (C3): already your own stone", toOpponent: "Illegal move: already a Black stone",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-own", kvOpponent: "event=illegal mover=black reason=occupied-own",
		},
		"suicide": {
			toMover: "Illegal move (A1): suicide", toOpponent: "Illegal move: suicide",
			kvMover: "event=illegal mover=black point=A1 reason=suicide", kvOpponent: "event=illegal mover=black reason=suicide",
		},
		"ko": {
			toMover: "Illegal move (B3): ko", toOpponent: "Illegal move: ko",
			kvMover: "event=illegal mover=white point=B3 reason=ko", kvOpponent: "event=illegal mover=white reason=ko",
		},
		"pass": {
			toMover: "Black passes", toOpponent: "Black passes",
			kvMover: "event=pass mover=black", kvOpponent: "event=pass mover=black",
		},
	}
	for _, s := range announcementScenes {
		t.Run("PG-7 "+s.name, func(t *testing.T) {
			checkAnnouncements(t, engine.RulesHamburg, 5, sceneOutcome(t, s.name), tests[s.name])
		})
	}
}

func TestPG8KriegspielAnnouncements(t *testing.T) {
	tests := map[string]announceCase{
		"moved": {
			toMover: "Black has moved (C3)", toOpponent: "Black has moved",
			kvMover:    "event=moved mover=black point=C3 capture-count=0",
			kvOpponent: "event=moved mover=black capture-count=0 captured=-",
		},
		"capture and both ataris": {
			toMover:    "Black has moved (C3); Black captures 1 stone",
			toOpponent: "Black has moved; Black has captured B3",
			kvMover:    "event=moved mover=black point=C3 capture-count=1",
			kvOpponent: "event=moved mover=black capture-count=1 captured=B3",
		},
		"capture of two": {
			toMover:    "Black has moved (B1); Black captures 2 stones",
			toOpponent: "Black has moved; Black has captured A1,C1",
			kvMover:    "event=moved mover=black point=B1 capture-count=2",
			kvOpponent: "event=moved mover=black capture-count=2 captured=A1,C1",
		},
		"self-atari only": {
			toMover: "Black has moved (A1)", toOpponent: "Black has moved",
			kvMover:    "event=moved mover=black point=A1 capture-count=0",
			kvOpponent: "event=moved mover=black capture-count=0 captured=-",
		},
		"occupied-opponent": {
			toMover: "Illegal move (C3): already an opponent's stone", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-opponent", kvOpponent: "event=illegal mover=black",
		},
		"occupied-own": {
			toMover: "Illegal move (C3): already your own stone", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-own", kvOpponent: "event=illegal mover=black",
		},
		"suicide": {
			toMover: "Illegal move (A1): suicide", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=A1 reason=suicide", kvOpponent: "event=illegal mover=black",
		},
		"ko": {
			toMover: "Illegal move (B3): ko", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=white point=B3 reason=ko", kvOpponent: "event=illegal mover=white",
		},
		"pass": {
			toMover: "Black passes", toOpponent: "Black passes",
			kvMover: "event=pass mover=black", kvOpponent: "event=pass mover=black",
		},
	}
	for _, s := range announcementScenes {
		t.Run("PG-8 "+s.name, func(t *testing.T) {
			checkAnnouncements(t, engine.RulesKriegspiel, 5, sceneOutcome(t, s.name), tests[s.name])
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
