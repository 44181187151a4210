package engine

import (
	"strings"
	"testing"
)

// TestGO4Passes: two consecutive passes end play; a move resumes it.
func TestGO4Passes(t *testing.T) {
	tests := []struct {
		name       string
		moves      []string
		wantEnded  bool
		wantPasses int
		wantToMove Color
	}{
		{"GO-4 no move yet", nil, false, 0, Black},
		{"GO-4 one pass does not end play", []string{"b pass"}, false, 1, White},
		{"GO-4 two consecutive passes end play", []string{"b pass", "w pass"}, true, 2, Black},
		{"GO-4 passes after moves end play", []string{"b D4", "w E5", "b pass", "w pass"}, true, 2, Black},
		{"GO-4 white passes first", []string{"b D4", "w pass", "b pass"}, true, 2, White},
		{"GO-4 pass, move, pass are not consecutive", []string{"b pass", "w D4", "b pass"}, false, 1, White},
		{"GO-4 a move after two passes resumes play", []string{"b pass", "w pass", "b D4"}, false, 0, White},
		{"GO-4 two passes after resuming end play again", []string{"b pass", "w pass", "b D4", "w pass", "b pass"}, true, 2, White},
		{"GO-4 a third pass keeps play ended", []string{"b pass", "w pass", "b pass"}, true, 3, White},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGoGame(Options{Variant: VariantGo})
			if err != nil {
				t.Fatal(err)
			}
			g = goSpecPlayAll(t, g, tt.moves...)
			if g.PlayEnded() != tt.wantEnded || g.Passes() != tt.wantPasses || g.ToMove() != tt.wantToMove {
				t.Errorf("ended %v passes %d to move %v; want %v %d %v",
					g.PlayEnded(), g.Passes(), g.ToMove(), tt.wantEnded, tt.wantPasses, tt.wantToMove)
			}
			if g.MoveNumber() != len(tt.moves) {
				t.Errorf("MoveNumber = %d, want %d", g.MoveNumber(), len(tt.moves))
			}
			if len(tt.moves) > 0 {
				_, last := goSpecMove(t, 9, tt.moves[len(tt.moves)-1])
				if g.LastMove() != last {
					t.Errorf("LastMove = %d, want %d", g.LastMove(), last)
				}
			} else if g.LastMove() != NoPoint {
				t.Errorf("LastMove of a new game = %d, want NoPoint", g.LastMove())
			}
		})
	}
}

// TestGO4DeadMarking: Toggle marks and unmarks whole chains.
func TestGO4DeadMarking(t *testing.T) {
	b := MustParseBoard(
		". X X . O",
		". X . O O",
		"X X . O .",
		". . O . .",
		"O O . . X",
	)
	tests := []struct {
		name    string
		toggles string // points toggled in order
		want    string // the dead stones after
	}{
		{"GO-4 nothing marked", "", ""},
		{"GO-4 one stone marks its whole chain", "B5", "B5 C5 B4 A3 B3"},
		{"GO-4 any stone of the chain marks the same chain", "A3", "B5 C5 B4 A3 B3"},
		{"GO-4 toggling the chain again unmarks it", "B5 B3", ""},
		{"GO-4 two chains of different colours", "E5 A1", "E5 D4 E4 D3 A1 B1"},
		{"GO-4 unmarking one chain keeps the other", "E5 A1 B1", "E5 D4 E4 D3"},
		{"GO-4 a lone stone", "E1", "E1"},
		{"GO-4 an empty point changes nothing", "D5", ""},
		{"GO-4 an empty point between marks changes nothing", "C3 E5 C2 D5", "C2 E5 D4 E4 D3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m Marking
			for _, p := range vertexList(t, 5, tt.toggles) {
				before := m
				m = m.Toggle(b, p)
				if before.IsDead(p) == m.IsDead(p) && b.At(p) != Empty {
					t.Errorf("Toggle(%s) did not change the stone's mark", p.Vertex(5))
				}
			}
			want := sortedVertices(5, vertexList(t, 5, tt.want))
			if got := FormatVertices(5, m.Dead(b)); got != want {
				t.Errorf("Dead = %s, want %s", got, want)
			}
			for i := 0; i < 25; i++ {
				p := Point(i)
				inWant := strings.Contains(","+want+",", ","+p.Vertex(5)+",")
				if m.IsDead(p) != inWant && b.At(p) != Empty {
					t.Errorf("IsDead(%s) = %v", p.Vertex(5), m.IsDead(p))
				}
			}
		})
	}
	var m Marking
	if m.Toggle(b, Pass) != m || m.Toggle(b, 25) != m || m.Toggle(b, NoPoint) != m {
		t.Errorf("Toggle off the board changed the marking")
	}
	if m.IsDead(Pass) || m.IsDead(MaxPoints) {
		t.Errorf("IsDead off the board is true")
	}
	// MarkingOf marks each listed chain once, even when two points of a
	// chain are listed.
	got := MarkingOf(b, vertexList(t, 5, "B5 B3 E1 D5"))
	if want := "E1,A3,B3,B4,B5,C5"; FormatVertices(5, got.Dead(b)) != want {
		t.Errorf("MarkingOf = %s, want %s", FormatVertices(5, got.Dead(b)), want)
	}
}

// goScoreCase is a position to count by area.
type goScoreCase struct {
	name                 string
	rows                 []string
	komi                 float64
	dead                 string
	black, white         float64
	blackTerr, whiteTerr int
	blackStns, whiteStns int
	result               string
	owners               map[string]Color
}

// TestGO5AreaScoring: stones on the board plus empty regions bordered only
// by one colour, plus komi for White.
func TestGO5AreaScoring(t *testing.T) {
	tests := []goScoreCase{
		{
			name: "GO-5 empty board: every point dame, komi only",
			rows: []string{".....", ".....", ".....", ".....", "....."},
			komi: 7.5, black: 0, white: 7.5, result: "W+7.5",
			owners: map[string]Color{"A1": Empty, "C3": Empty},
		},
		{
			name: "GO-5 one stone owns the whole board",
			rows: []string{".....", ".....", "..X..", ".....", "....."},
			komi: 7.5, black: 25, white: 7.5, blackTerr: 24, blackStns: 1, result: "B+17.5",
			owners: map[string]Color{"A1": Black, "C3": Black},
		},
		{
			name: "GO-5 walls and territory, no komi",
			rows: []string{
				". X O . .",
				". X O . .",
				". X O . .",
				". X O . .",
				". X O . .",
			},
			komi: 0, black: 10, white: 15, blackTerr: 5, whiteTerr: 10, blackStns: 5, whiteStns: 5, result: "W+5",
			owners: map[string]Color{"A3": Black, "B3": Black, "C3": White, "E1": White},
		},
		{
			name: "GO-5 dame column between the walls: a draw without komi",
			rows: []string{
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
			},
			komi: 0, black: 10, white: 10, blackTerr: 5, whiteTerr: 5, blackStns: 5, whiteStns: 5, result: "0",
			owners: map[string]Color{"C1": Empty, "C5": Empty, "A1": Black, "E5": White},
		},
		{
			name: "GO-5 dame column, komi 0.5",
			rows: []string{
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
			},
			komi: 0.5, black: 10, white: 10.5, blackTerr: 5, whiteTerr: 5, blackStns: 5, whiteStns: 5, result: "W+0.5",
		},
		{
			name: "GO-5 seki with one eye each: the shared liberty is dame, the eyes count",
			rows: []string{
				". X X O .",
				"X X X O O",
				"X X . O O",
				"X X X O O",
				"X X X O O",
			},
			komi: 7.5, black: 14, white: 17.5, blackTerr: 1, whiteTerr: 1, blackStns: 13, whiteStns: 9, result: "W+3.5",
			owners: map[string]Color{"C3": Empty, "A5": Black, "E5": White},
		},
		{
			name: "GO-5 an unmarked dead stone turns the territory around it into dame",
			rows: []string{
				". X O . .",
				". X O . .",
				". X O X .",
				". X O . .",
				". X O . .",
			},
			komi: 0, black: 11, white: 5, blackTerr: 5, whiteTerr: 0, blackStns: 6, whiteStns: 5, result: "B+6",
			owners: map[string]Color{"E3": Empty, "D3": Black},
		},
		{
			name: "GO-5 a dead stone marked: removed, its point counts for the opponent",
			rows: []string{
				". X O . .",
				". X O . .",
				". X O X .",
				". X O . .",
				". X O . .",
			},
			komi: 0, dead: "D3", black: 10, white: 15, blackTerr: 5, whiteTerr: 10, blackStns: 5, whiteStns: 5, result: "W+5",
			owners: map[string]Color{"E3": White, "D3": White},
		},
		{
			name: "GO-5 dead chains of both colours",
			rows: []string{
				"O X . O X",
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
			},
			komi: 7.5, dead: "A5 E5", black: 10, white: 17.5, blackTerr: 5, whiteTerr: 5, blackStns: 5, whiteStns: 5, result: "W+7.5",
			owners: map[string]Color{"A5": Black, "E5": White, "C3": Empty},
		},
		{
			name: "GO-5 negative komi",
			rows: []string{".....", ".....", ".....", ".....", "....."},
			komi: -2, black: 0, white: -2, result: "B+2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := MustParseBoard(tt.rows...)
			dead := MarkingOf(b, vertexList(t, 5, tt.dead))
			s := AreaScore(b, dead, tt.komi)
			if s.Black != tt.black || s.White != tt.white || s.Komi != tt.komi {
				t.Errorf("score black %v white %v komi %v; want %v %v %v", s.Black, s.White, s.Komi, tt.black, tt.white, tt.komi)
			}
			if s.BlackTerritory != tt.blackTerr || s.WhiteTerritory != tt.whiteTerr ||
				s.BlackStones != tt.blackStns || s.WhiteStones != tt.whiteStns {
				t.Errorf("territory %d/%d stones %d/%d; want %d/%d %d/%d",
					s.BlackTerritory, s.WhiteTerritory, s.BlackStones, s.WhiteStones,
					tt.blackTerr, tt.whiteTerr, tt.blackStns, tt.whiteStns)
			}
			if got := s.Result().String(); got != tt.result {
				t.Errorf("result %s, want %s", got, tt.result)
			}
			for v, want := range tt.owners {
				p := vertexList(t, 5, v)[0]
				if s.Owner[p] != want {
					t.Errorf("Owner[%s] = %v, want %v", v, s.Owner[p], want)
				}
			}
			// Every point is counted once: stones + territory + dame = points.
			dame := 0
			for i := 0; i < b.Points(); i++ {
				if s.Owner[i] == Empty {
					dame++
				}
			}
			if got := s.BlackStones + s.WhiteStones + s.BlackTerritory + s.WhiteTerritory + dame; got != b.Points() {
				t.Errorf("points counted %d, want %d", got, b.Points())
			}
			// The board counted is not changed by removing the dead stones.
			if b != MustParseBoard(tt.rows...) {
				t.Errorf("AreaScore changed the board")
			}
		})
	}
}

// TestGO5DefaultKomi: a plain Go game counts with komi 7.5 unless another
// komi, 0 included, was chosen.
func TestGO5DefaultKomi(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		komi   float64
		result string
	}{
		{"GO-5 default komi 7.5", Options{}, 7.5, "W+7.5"},
		{"GO-5 default komi on 13x13", Options{Variant: VariantGo, Size: 13}, 7.5, "W+7.5"},
		{"GO-5 komi 0 chosen", Options{Variant: VariantGo, KomiSet: true}, 0, "0"},
		{"GO-5 komi 6.5 chosen", Options{Variant: VariantGo, Komi: 6.5}, 6.5, "W+6.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGoGame(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if g.Options().Komi != tt.komi {
				t.Errorf("Options().Komi = %v, want %v", g.Options().Komi, tt.komi)
			}
			s := g.Score(Marking{})
			if s.Komi != tt.komi || s.White != tt.komi || s.Black != 0 {
				t.Errorf("score of the empty board: %v/%v komi %v", s.Black, s.White, s.Komi)
			}
			if got := s.Result().String(); got != tt.result {
				t.Errorf("result %s, want %s", got, tt.result)
			}
		})
	}
	// A game's score uses its own board: one black stone owns everything.
	g, _ := NewGoGame(Options{Variant: VariantGo})
	g = goSpecPlayAll(t, g, "b E5")
	if s := g.Score(Marking{}); s.Black != 81 || s.Result().String() != "B+73.5" {
		t.Errorf("one stone on 9x9: black %v, result %s", s.Black, s.Result())
	}
	dead := MarkingOf(g.Board(), vertexList(t, 9, "E5"))
	if s := g.Score(dead); s.Black != 0 || s.Result().String() != "W+7.5" {
		t.Errorf("the stone marked dead: black %v, result %s", s.Black, s.Result())
	}
}

// TestGO6Resignation: either player may resign at any moment; the
// opponent wins by resignation.
func TestGO6Resignation(t *testing.T) {
	tests := []struct {
		name   string
		loser  Color
		winner Color
		want   string
	}{
		{"GO-6 black resigns", Black, White, "W+R"},
		{"GO-6 white resigns", White, Black, "B+R"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Resignation(tt.loser)
			if r.Winner != tt.winner || r.By != ByResignation || r.Margin != 0 {
				t.Errorf("Resignation(%v) = %+v", tt.loser, r)
			}
			if r.String() != tt.want {
				t.Errorf("Resignation(%v).String() = %q, want %q", tt.loser, r.String(), tt.want)
			}
			back, err := ParseResult(r.String())
			if err != nil || back != r {
				t.Errorf("ParseResult(%q) = %+v, %v; want %+v", r.String(), back, err, r)
			}
		})
	}
}
