package hmg

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// empty5 is an empty 5×5 diagram.
var empty5 = []string{".....", ".....", ".....", ".....", "....."}

// vertex reads a GTP vertex on a board of side size, failing the test
// on a bad one.
func vertex(t testing.TB, size int, s string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(size, s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// vertices reads a list of vertices.
func vertices(t testing.TB, size int, ss []string) []engine.Point {
	t.Helper()
	ps := make([]engine.Point, 0, len(ss))
	for _, s := range ss {
		ps = append(ps, vertex(t, size, s))
	}
	return ps
}

// gameSetup is a test game: a diagram (nil: empty 5×5) with the player to
// move and each player's card points, known to the game. Both card lists
// have the game's number of cards.
type gameSetup struct {
	rows         []string
	toMove       engine.Color
	black, white []string
}

// game builds the setup's game. The diagram position is the start of the
// game: the only position in the superko history, with no last stone.
func (s gameSetup) game(t testing.TB) Game {
	t.Helper()
	rows := s.rows
	if rows == nil {
		rows = empty5
	}
	if len(s.black) != len(s.white) {
		t.Fatalf("setup: %d black cards, %d white", len(s.black), len(s.white))
	}
	g, err := NewGame(engine.Options{Size: len(rows), Cards: len(s.black), CardsSet: true})
	if err != nil {
		t.Fatal(err)
	}
	for c, cards := range [][]string{engine.Black: s.black, engine.White: s.white} {
		if c == int(engine.Empty) {
			continue
		}
		if g, err = g.SetCards(engine.Color(c), vertices(t, len(rows), cards)); err != nil {
			t.Fatal(err)
		}
	}
	g.board = engine.MustParseBoard(rows...)
	g.history = (*engine.PositionHistory)(nil).Push(g.board)
	g.toMove = engine.Black
	if s.toMove != engine.Empty {
		g.toMove = s.toMove
	}
	return g
}

// playStep performs one scripted action: "b play C3", "w pass",
// "b reveal 0 C3" or "b reveal 0" (the card's known point).
func playStep(t testing.TB, g Game, step string) (Game, ActionResult, error) {
	t.Helper()
	f := strings.Fields(step)
	if len(f) < 2 {
		t.Fatalf("bad step %q", step)
	}
	c, err := engine.ParseColor(f[0])
	if err != nil {
		t.Fatal(err)
	}
	size := g.board.Size()
	switch {
	case f[1] == "pass" && len(f) == 2:
		return g.Apply(Action{Color: c, Point: engine.Pass})
	case f[1] == "play" && len(f) == 3:
		return g.Apply(Action{Color: c, Point: vertex(t, size, f[2])})
	case f[1] == "reveal" && (len(f) == 3 || len(f) == 4):
		i, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("bad step %q", step)
		}
		p := engine.NoPoint
		if len(f) == 4 {
			p = vertex(t, size, f[3])
		} else if i >= 0 && i < g.hands[c].n {
			p = g.hands[c].cards[i].Point
		}
		return g.Apply(Action{Color: c, Reveal: true, Card: i, Point: p})
	}
	t.Fatalf("bad step %q", step)
	return g, ActionResult{}, nil
}

// run performs every step of script, failing the test on an error.
// It writes over the slices of each result, which the caller owns: a game
// that kept them would go wrong later in the test.
func run(t testing.TB, g Game, script ...string) Game {
	t.Helper()
	for _, step := range script {
		next, res, err := playStep(t, g, step)
		if err != nil {
			t.Fatalf("step %q: %v", step, err)
		}
		for _, ps := range [][]engine.Point{res.Captured, res.Restored} {
			for i := range ps {
				ps[i] = engine.NoPoint
			}
		}
		g = next
	}
	return g
}

// sameVertices compares points with a list of vertices, in any order.
func sameVertices(size int, got []engine.Point, want []string) bool {
	gs := make([]string, 0, len(got))
	for _, p := range got {
		gs = append(gs, p.Vertex(size))
	}
	ws := slices.Clone(want)
	slices.Sort(gs)
	slices.Sort(ws)
	return slices.Equal(gs, ws)
}

// withHistory adds positions to the superko history of g, as if they
// had ended earlier turns. It lets a test reach a superko case without
// playing the long game that would lead to it.
func withHistory(g Game, boards ...engine.Board) Game {
	for _, b := range boards {
		g.history = g.history.Push(b)
	}
	return g
}

func TestHMG1(t *testing.T) {
	// Options: the number of cards.
	for _, tt := range []struct {
		name    string
		opts    engine.Options
		want    int
		wantErr error
	}{
		{"HMG-1 default three cards", engine.Options{}, 3, nil},
		{"HMG-1 zero cards chosen", engine.Options{Cards: 0, CardsSet: true}, 0, nil},
		{"HMG-1 nine cards", engine.Options{Cards: 9}, 9, nil},
		{"HMG-1 ten cards refused", engine.Options{Cards: 10}, 0, engine.ErrBadOptions},
		{"HMG-1 negative refused", engine.Options{Cards: -1, CardsSet: true}, 0, engine.ErrBadOptions},
		{"HMG-1 another variant refused", engine.Options{Variant: engine.VariantGo}, 0, engine.ErrBadOptions},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(tt.opts)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("NewHMGGame: error %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if b := g.Board(); g.Options().Variant != engine.VariantHMG || b.Size() != 19 {
				t.Errorf("options %+v, want hmg on 19×19", g.Options())
			}
			for _, c := range []engine.Color{engine.Black, engine.White} {
				cards := g.Cards(c)
				if len(cards) != tt.want {
					t.Fatalf("%s has %d cards, want %d", c, len(cards), tt.want)
				}
				for i, card := range cards {
					if card != (Card{Point: engine.NoPoint}) {
						t.Errorf("%s card %d = %+v, want unknown and hidden", c, i, card)
					}
				}
			}
		})
	}

	// Committing the points.
	for _, tt := range []struct {
		name     string
		before   []string
		color    engine.Color
		points   []string
		offBoard bool // add a point off the board
		wantErr  error
	}{
		{"HMG-1 three points", nil, engine.Black, []string{"A1", "C3", "E5"}, false, nil},
		{"HMG-1 the same point on several cards", nil, engine.White, []string{"C3", "C3", "C3"}, false, nil},
		{"HMG-1 too few points", nil, engine.Black, []string{"A1", "C3"}, false, engine.ErrBadOptions},
		{"HMG-1 too many points", nil, engine.Black, []string{"A1", "C3", "D4", "E5"}, false, engine.ErrBadOptions},
		{"HMG-1 a point off the board", nil, engine.Black, []string{"A1", "C3"}, true, engine.ErrOffBoard},
		{"HMG-1 not after the first move", []string{"b pass"}, engine.White, []string{"A1", "C3", "E5"}, false, engine.ErrWrongPhase},
		{"HMG-1 not after the first reveal", []string{"b reveal 0 A2"}, engine.White, []string{"A1", "C3", "E5"}, false, engine.ErrWrongPhase},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(engine.Options{Size: 5})
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.before) > 0 {
				if g, err = g.SetCards(engine.Black, vertices(t, 5, []string{"A2", "B2", "C2"})); err != nil {
					t.Fatal(err)
				}
				g = run(t, g, tt.before...)
			}
			points := vertices(t, 5, tt.points)
			if tt.offBoard {
				points = append(points, 25)
			}
			next, err := g.SetCards(tt.color, points)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("SetCards: error %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				if !slices.Equal(next.Cards(tt.color), g.Cards(tt.color)) {
					t.Errorf("refused SetCards changed the cards to %v", next.Cards(tt.color))
				}
				return
			}
			cards := next.Cards(tt.color)
			for i, p := range points {
				if cards[i] != (Card{Point: p}) {
					t.Errorf("card %d = %+v, want %s hidden", i, cards[i], p.Vertex(5))
				}
			}
			if !next.CardsKnown(tt.color) || next.CardsKnown(tt.color.Opponent()) {
				t.Errorf("CardsKnown: %s %v, %s %v", tt.color, next.CardsKnown(tt.color), tt.color.Opponent(), next.CardsKnown(tt.color.Opponent()))
			}
			if g.CardsKnown(tt.color) {
				t.Errorf("SetCards changed the receiver")
			}
		})
	}
}

func TestHMG2(t *testing.T) {
	setup := gameSetup{black: []string{"C3", "D4", "B2"}, white: []string{"E1", "D4", "A5"}}
	for _, tt := range []struct {
		name       string
		script     []string
		action     string
		wantErr    error
		wantToMove engine.Color
		wantTurns  int
		reveals    int
	}{
		{"HMG-2 a reveal does not end the turn", nil, "b reveal 0", nil, engine.Black, 0, 1},
		{"HMG-2 several reveals", []string{"b reveal 0"}, "b reveal 1", nil, engine.Black, 0, 2},
		{"HMG-2 reveals then a play end the turn", []string{"b reveal 0", "b reveal 1"}, "b play E5", nil, engine.White, 1, 0},
		{"HMG-2 reveals then a pass end the turn", []string{"b reveal 0"}, "b pass", nil, engine.White, 1, 0},
		{"HMG-2 a play with no reveal", nil, "b play A1", nil, engine.White, 1, 0},
		{"HMG-2 a reveal onto the last stone ends the turn", []string{"b play A1", "w play C3"}, "b reveal 0", nil, engine.White, 3, 0},
		{"HMG-2 white may not reveal in black's turn", nil, "w reveal 0", engine.ErrNotYourTurn, engine.Black, 0, 0},
		{"HMG-2 white may not play in black's turn", []string{"b reveal 0"}, "w play A1", engine.ErrNotYourTurn, engine.Black, 0, 1},
		{"HMG-2 black may not pass in white's turn", []string{"b play A1"}, "b pass", engine.ErrNotYourTurn, engine.White, 1, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, setup.game(t), tt.script...)
			next, _, err := playStep(t, g, tt.action)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("%s: error %v, want %v", tt.action, err, tt.wantErr)
			}
			if next.ToMove() != tt.wantToMove || next.Turns() != tt.wantTurns || next.RevealsThisTurn() != tt.reveals {
				t.Errorf("to move %s, %d turns, %d reveals; want %s, %d, %d",
					next.ToMove(), next.Turns(), next.RevealsThisTurn(), tt.wantToMove, tt.wantTurns, tt.reveals)
			}
		})
	}
}

func TestHMG3(t *testing.T) {
	cards := gameSetup{black: []string{"C3", "E5", "C3"}, white: []string{"C3", "A5", "E1"}}
	for _, tt := range []struct {
		name         string
		setup        gameSetup
		script       []string
		action       string
		wantErr      error
		wantCaptured []string
	}{
		{"HMG-3 a reveal onto an empty point", cards, nil, "b reveal 0", nil, nil},
		{"HMG-3 (1) an opponent stone that was never a last stone", gameSetup{
			rows: []string{".....", ".....", "..O..", ".....", "....."}, black: []string{"C3"}, white: []string{"A1"}},
			nil, "b reveal 0", ErrRevealNotLastStone, nil},
		{"HMG-3 (1) an opponent stone that is no longer the last stone", cards,
			[]string{"b play A1", "w play C3", "b play A2", "w play D4"}, "b reveal 0", ErrRevealNotLastStone, nil},
		{"HMG-3 (1) an opponent stone from a card", cards,
			[]string{"b play A1", "w reveal 0", "w play D4"}, "b reveal 0", ErrRevealNotLastStone, nil},
		{"HMG-3 (2) the last stone as the first reveal", cards,
			[]string{"b play A1", "w play C3"}, "b reveal 0", nil, nil},
		{"HMG-3 (2) the last stone after an earlier reveal, refused", cards,
			[]string{"b play A1", "w play C3", "b reveal 1"}, "b reveal 0", ErrRevealAfterReveal, nil},
		{"HMG-3 (3) own played stone", cards, []string{"b play C3", "w pass"}, "b reveal 0", engine.ErrOccupied, nil},
		{"HMG-3 (3) own revealed stone, the same point on two cards", cards, []string{"b reveal 0"}, "b reveal 2", engine.ErrOccupied, nil},
		{"HMG-3 (4) suicide", gameSetup{
			rows: []string{".....", "..O..", ".O.O.", "..O..", "....."}, black: []string{"C3"}, white: []string{"A1"}},
			nil, "b reveal 0", engine.ErrSuicide, nil},
		{"HMG-3 (4) suicide after undoing the last stone", gameSetup{
			rows: []string{".....", ".....", "O....", "XO...", ".XO.."}, toMove: engine.White, black: []string{"A1"}, white: []string{"E5"}},
			[]string{"w play A1"}, "b reveal 0", engine.ErrSuicide, nil},
		{"HMG-3 a reveal that captures", gameSetup{
			rows: []string{".....", "..X..", ".XOX.", ".XOX.", "....."}, black: []string{"C1"}, white: []string{"A1"}},
			nil, "b reveal 0", nil, []string{"C3", "C2"}},
		{"HMG-3 a reveal that captures is no suicide", gameSetup{
			rows: []string{".....", ".....", "O....", "XO...", ".XO.."}, toMove: engine.White, black: []string{"E5"}, white: []string{"A1"}},
			nil, "w reveal 0", nil, []string{"A2", "B1"}},
		{"HMG-3 a card is revealed once", cards, []string{"b reveal 1", "b play A1", "w play E4"}, "b reveal 1", ErrCardRevealed, nil},
		{"HMG-3 the point must be the card's", cards, nil, "b reveal 1 D4", ErrCardMismatch, nil},
		{"HMG-3 no such card", cards, nil, "b reveal 3 C3", ErrNoSuchCard, nil},
		{"HMG-3 no negative card", cards, nil, "b reveal -1 C3", ErrNoSuchCard, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, tt.setup.game(t), tt.script...)
			next, res, err := playStep(t, g, tt.action)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("%s: error %v, want %v", tt.action, err, tt.wantErr)
			}
			if err != nil {
				if next.Board() != g.Board() || !slices.Equal(next.Cards(engine.Black), g.Cards(engine.Black)) || next.RevealsThisTurn() != g.RevealsThisTurn() {
					t.Errorf("an illegal reveal changed the game")
				}
				return
			}
			if !sameVertices(5, res.Captured, tt.wantCaptured) {
				t.Errorf("captured %s, want %v", engine.FormatVertices(5, res.Captured), tt.wantCaptured)
			}
		})
	}
}

// TestHMG3PeerView checks reveals in a game that does not know the
// opponent's points, as a network peer holds it.
func TestHMG3PeerView(t *testing.T) {
	g, err := NewGame(engine.Options{Size: 5, Cards: 2})
	if err != nil {
		t.Fatal(err)
	}
	if g, err = g.SetCards(engine.Black, vertices(t, 5, []string{"C3", "D4"})); err != nil {
		t.Fatal(err)
	}
	g = run(t, g, "b play A1", "w pass", "b play E1")
	for _, tt := range []struct {
		name        string
		index       int
		point       string
		wantCardErr error
		wantErr     error
	}{
		{"HMG-3 an unknown card may be revealed at any free point", 1, "E5", nil, nil},
		{"HMG-3 an unknown card may undo the last stone", 0, "E1", nil, nil},
		{"HMG-3 an unknown card still obeys the board rules", 0, "A1", nil, ErrRevealNotLastStone},
		{"HMG-3 no such card", 2, "E5", ErrNoSuchCard, ErrNoSuchCard},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := vertex(t, 5, tt.point)
			if err := g.CheckCardPoint(engine.White, tt.index, p); !errors.Is(err, tt.wantCardErr) {
				t.Errorf("CheckCardPoint: error %v, want %v", err, tt.wantCardErr)
			}
			next, _, err := g.Reveal(engine.White, tt.index, p)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Reveal: error %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if card := next.Cards(engine.White)[tt.index]; card != (Card{Point: p, Revealed: true}) {
				t.Errorf("card after reveal %+v", card)
			}
			if err := next.CheckCardPoint(engine.White, tt.index, p); !errors.Is(err, ErrCardRevealed) {
				t.Errorf("revealed card checks %v, want %v", err, ErrCardRevealed)
			}
			if got := g.RevealableCards(engine.White); got != nil {
				t.Errorf("unknown cards listed as revealable: %v", got)
			}
		})
	}
}

func TestHMG4(t *testing.T) {
	setup := gameSetup{black: []string{"C3", "D4"}, white: []string{"C3", "A2"}}
	captureSetup := gameSetup{rows: []string{".....", ".....", ".....", ".....", ".O..."}, black: []string{"C3", "D4"}, white: []string{"C3", "A2"}}
	for _, tt := range []struct {
		name         string
		setup        gameSetup
		script       []string
		black, white string // LastStone(Black), LastStone(White); "" for none
	}{
		{"HMG-4 a played stone is the last stone", setup, []string{"b play B2"}, "B2", ""},
		{"HMG-4 the last stone is kept through the opponent's reveals", setup, []string{"b play B2", "w reveal 1"}, "B2", ""},
		{"HMG-4 only the immediately preceding turn counts", setup, []string{"b play B2", "w pass"}, "", ""},
		{"HMG-4 a pass leaves no last stone", setup, []string{"b play B2", "w play E5", "b pass"}, "", ""},
		{"HMG-4 a revealed stone is never a last stone", setup, []string{"b reveal 0", "b pass"}, "", ""},
		{"HMG-4 the played stone after reveals is", setup, []string{"b reveal 0", "b play E1"}, "E1", ""},
		{"HMG-4 an undo leaves no last stone", setup, []string{"b play B2", "w play C3", "b reveal 0"}, "", ""},
		{"HMG-4 a captured last stone is gone", captureSetup, []string{"b play A1", "w reveal 1"}, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, tt.setup.game(t), tt.script...)
			for _, c := range []struct {
				color engine.Color
				want  string
			}{{engine.Black, tt.black}, {engine.White, tt.white}} {
				want := engine.NoPoint
				if c.want != "" {
					want = vertex(t, 5, c.want)
				}
				if got := g.LastStone(c.color); got != want {
					t.Errorf("LastStone(%s) = %s, want %s", c.color, got.Vertex(5), want.Vertex(5))
				}
			}
		})
	}
}

func TestHMG5(t *testing.T) {
	for _, tt := range []struct {
		name                         string
		setup                        gameSetup
		script                       []string
		action                       string
		wantCaptured, wantRestored   []string
		wantBoard                    []string
		wantBlackCapt, wantWhiteCapt int
	}{
		{"HMG-5 the move's captures come back, the opponent's reveals stay", gameSetup{
			rows:   []string{"...OX", ".....", ".....", ".....", "XO..."},
			toMove: engine.White, black: []string{"A2"}, white: []string{"E4"}},
			[]string{"w reveal 0", "w play A2"}, "b reveal 0", nil, []string{"A1"},
			[]string{"...O.", "....O", ".....", "X....", "XO..."}, 0, 1},
		{"HMG-5 the revealed stone captures on the restored board", gameSetup{
			rows:   []string{".....", ".....", ".....", "X.O..", "O.XO."},
			toMove: engine.White, black: []string{"B1"}, white: []string{"E5"}},
			[]string{"w play B1"}, "b reveal 0", []string{"A1"}, []string{"C1"},
			[]string{".....", ".....", ".....", "X.O..", ".XXO."}, 1, 0},
		{"HMG-5 a move that captured nothing, after a reveal", gameSetup{
			black: []string{"C3"}, white: []string{"A1"}},
			[]string{"b play A5", "w reveal 0", "w play C3"}, "b reveal 0", nil, nil,
			[]string{"X....", ".....", "..X..", ".....", "O...."}, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, tt.setup.game(t), tt.script...)
			next, res, err := playStep(t, g, tt.action)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Undo || !res.TurnEnded {
				t.Errorf("result %+v, want an undo that ends the turn", res)
			}
			if !sameVertices(5, res.Captured, tt.wantCaptured) || !sameVertices(5, res.Restored, tt.wantRestored) {
				t.Errorf("captured %s restored %s, want %v and %v",
					engine.FormatVertices(5, res.Captured), engine.FormatVertices(5, res.Restored), tt.wantCaptured, tt.wantRestored)
			}
			if want := engine.MustParseBoard(tt.wantBoard...); next.Board() != want {
				t.Errorf("board\n%v\nwant\n%v", next.Board(), want)
			}
			if next.Captures(engine.Black) != tt.wantBlackCapt || next.Captures(engine.White) != tt.wantWhiteCapt {
				t.Errorf("captures black %d white %d, want %d and %d", next.Captures(engine.Black), next.Captures(engine.White), tt.wantBlackCapt, tt.wantWhiteCapt)
			}
			if next.ToMove() != engine.White || next.RevealsThisTurn() != 0 || next.Turns() != g.Turns()+1 {
				t.Errorf("to move %s with %d reveals, want a fresh white turn", next.ToMove(), next.RevealsThisTurn())
			}
			if !slices.Equal(next.Cards(engine.White), g.Cards(engine.White)) {
				t.Errorf("the opponent's cards changed: %v, were %v", next.Cards(engine.White), g.Cards(engine.White))
			}
			// The undone move never happened: its position leaves the
			// superko history; the position before it, the end of the
			// opponent's turn as it now stands, is in (HMG-D6).
			if next.history.Contains(g.Board()) {
				t.Errorf("the undone move's position still counts for superko")
			}
			if !next.history.Contains(g.last.before) || !next.history.Contains(next.Board()) {
				t.Errorf("the position before the undone move or after the undo is not in the history")
			}
			// The fresh turn is a full turn, and Black's undo leaves no
			// last stone to undo in turn.
			if len(next.LegalPoints(engine.White)) == 0 || next.LastStone(engine.Black) != engine.NoPoint || next.LastStone(engine.White) != engine.NoPoint {
				t.Errorf("no fresh turn for White")
			}
		})
	}
}

func TestHMG6(t *testing.T) {
	ko := []string{".....", ".....", ".XO..", "XO.O.", ".XO.."}
	koSetup := gameSetup{rows: ko, black: []string{"E5"}, white: []string{"B2"}}
	for _, tt := range []struct {
		name    string
		setup   gameSetup
		script  []string
		action  string
		wantErr error
	}{
		{"HMG-6 a ko recapture by play is superko", koSetup, []string{"b play C2"}, "w play B2", engine.ErrSuperko},
		{"HMG-6 a reveal may pass through an earlier position", koSetup, []string{"b play C2"}, "w reveal 0", nil},
		{"HMG-6 then a play ends the turn on a new position", koSetup, []string{"b play C2", "w reveal 0"}, "w play E5", nil},
		{"HMG-6 then a pass would end it on an earlier one", koSetup, []string{"b play C2", "w reveal 0"}, "w pass", engine.ErrSuperko},
		{"HMG-6 a pass with no reveal is always legal", koSetup, []string{"b play C2"}, "w pass", nil},
		{"HMG-6 a pass after a reveal on a new position", koSetup, []string{"b play C2", "w play A5", "b reveal 0"}, "b pass", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, tt.setup.game(t), tt.script...)
			next, _, err := playStep(t, g, tt.action)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("%s: error %v, want %v", tt.action, err, tt.wantErr)
			}
			if err != nil && next.Board() != g.Board() {
				t.Errorf("a refused action changed the board")
			}
			if tt.action == "w pass" && g.CanPass(engine.White) != (err == nil) {
				t.Errorf("CanPass = %v, but the pass gave %v", g.CanPass(engine.White), err)
			}
			// The end of a turn with a reveal or a play counts for later
			// turns.
			if err == nil && next.ToMove() != g.ToMove() && (g.RevealsThisTurn() > 0 || !strings.HasSuffix(tt.action, "pass")) &&
				!next.history.Contains(next.Board()) {
				t.Errorf("the end of the turn is not in the superko history")
			}
		})
	}

	t.Run("HMG-6 a play after reveals that repeats a position", func(t *testing.T) {
		g := gameSetup{black: []string{"C3"}, white: []string{"A1"}}.game(t)
		g = run(t, g, "b reveal 0")
		repeat, _ := g.Board().Place(vertex(t, 5, "D4"), engine.Black)
		g = withHistory(g, repeat)
		if _, _, err := playStep(t, g, "b play D4"); !errors.Is(err, engine.ErrSuperko) {
			t.Errorf("error %v, want %v", err, engine.ErrSuperko)
		}
		if slices.Contains(g.LegalPoints(engine.Black), vertex(t, 5, "D4")) {
			t.Errorf("LegalPoints lists the repeating play")
		}
	})

	t.Run("HMG-6 an undo whose end position repeats", func(t *testing.T) {
		setup := gameSetup{rows: []string{".....", ".....", ".....", "X.O..", "O.XO."}, toMove: engine.White, black: []string{"B1"}, white: []string{"E5"}}
		g := setup.game(t)
		undoEnd := engine.MustParseBoard(".....", ".....", ".....", "X.O..", ".XXO.")
		g = run(t, withHistory(g, undoEnd), "w play B1")
		if _, _, err := playStep(t, g, "b reveal 0"); !errors.Is(err, engine.ErrSuperko) {
			t.Errorf("error %v, want %v", err, engine.ErrSuperko)
		}
	})

	// HMG-D5: a reveal must leave a way to end the turn on a new position.
	for _, tt := range []struct {
		name     string
		leaveOut bool // leave one play's position out of the history
		wantErr  error
	}{
		{"HMG-6 a reveal that leaves no new end of turn is refused", false, engine.ErrSuperko},
		{"HMG-6 a reveal that leaves one new end of turn is allowed", true, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := gameSetup{black: []string{"C3"}, white: []string{"A1"}}.game(t)
			afterReveal, _ := g.Board().Place(vertex(t, 5, "C3"), engine.Black)
			blocked := []engine.Board{afterReveal}
			free := vertex(t, 5, "E5")
			for i := 0; i < 25; i++ {
				p := engine.Point(i)
				if afterReveal.At(p) != engine.Empty || (tt.leaveOut && p == free) {
					continue
				}
				b, _ := afterReveal.Place(p, engine.Black)
				blocked = append(blocked, b)
			}
			g = withHistory(g, blocked...)
			next, _, err := playStep(t, g, "b reveal 0")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if slices.Contains(g.RevealableCards(engine.Black), 0) != (err == nil) {
				t.Errorf("RevealableCards disagrees with Reveal")
			}
			if err == nil {
				if next.CanPass(engine.Black) || !slices.Equal(next.LegalPoints(engine.Black), []engine.Point{free}) {
					t.Errorf("after the reveal: CanPass %v, plays %s; want only E5", next.CanPass(engine.Black), engine.FormatVertices(5, next.LegalPoints(engine.Black)))
				}
			}
		})
	}
}

func TestHMG7(t *testing.T) {
	setup := gameSetup{black: []string{"C3", "D4"}, white: []string{"B2", "E5"}}
	for _, tt := range []struct {
		name   string
		script []string
		want   bool
	}{
		{"HMG-7 two plain passes end play", []string{"b pass", "w pass"}, true},
		{"HMG-7 a play then two passes", []string{"b play A1", "w pass", "b pass"}, true},
		{"HMG-7 a pass after a reveal is no plain pass", []string{"b pass", "w reveal 0", "w pass"}, false},
		{"HMG-7 the passes must be consecutive", []string{"b pass", "w play A1", "b pass"}, false},
		{"HMG-7 one pass", []string{"b play A1", "w pass"}, false},
		{"HMG-7 play resumes after the end", []string{"b pass", "w pass", "b play A1"}, false},
		{"HMG-7 and may end again", []string{"b pass", "w pass", "b play A1", "w pass", "b pass"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, setup.game(t), tt.script...)
			if g.PlayEnded() != tt.want {
				t.Errorf("PlayEnded = %v after %d plain passes, want %v", g.PlayEnded(), g.Passes(), tt.want)
			}
		})
	}

	board := []string{"OX.O.", ".X.O.", ".X.O.", ".X.O.", ".X.O."}
	for _, tt := range []struct {
		name       string
		black      []string // black's cards; White holds three on E5
		script     []string
		wantBlack  float64
		wantWhite  float64
		wantResult string
	}{
		// Black: B1–B5 and A1–A5 (A5 dead); White: D1–D5, E1–E5, komi 0.5.
		{"HMG-7 unused cards give the opponent a point each", []string{"B1", "B1", "B1"},
			[]string{"b pass", "w pass"}, 10 + 3, 10.5 + 3, "W+0.5"},
		{"HMG-7 revealed cards give nothing", []string{"C1", "C2", "B1"},
			[]string{"b reveal 0", "b reveal 1", "b pass", "w pass", "b pass"}, 12 + 3, 10.5 + 1, "B+3.5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := gameSetup{rows: board, black: tt.black, white: []string{"E5", "E5", "E5"}}.game(t).WithKomi(0.5)
			g = run(t, g, tt.script...)
			if !g.PlayEnded() {
				t.Fatalf("play has not ended")
			}
			s := g.Score(engine.MarkingOf(g.Board(), vertices(t, 5, []string{"A5"})))
			if s.Black != tt.wantBlack || s.White != tt.wantWhite || s.Result().String() != tt.wantResult {
				t.Errorf("score black %v white %v (%v), want %v %v (%s)", s.Black, s.White, s.Result(), tt.wantBlack, tt.wantWhite, tt.wantResult)
			}
		})
	}

	t.Run("HMG-7 a card that undid a move is used", func(t *testing.T) {
		g := gameSetup{black: []string{"C3", "C3", "D4"}, white: []string{"E5", "E5", "E5"}}.game(t)
		g = run(t, g, "b play A1", "w play C3", "b reveal 0", "w pass", "b pass")
		area := engine.AreaScore(g.Board(), engine.Marking{}, g.Options().Komi)
		if s := g.Score(engine.Marking{}); !g.PlayEnded() || s.White-area.White != 2 || s.Black-area.Black != 3 {
			t.Errorf("ended %v; passing stones black %v white %v, want 3 and 2", g.PlayEnded(), s.Black-area.Black, s.White-area.White)
		}
	})

	// The audit at the end: a peer learns the opponent's unused cards.
	t.Run("HMG-7 opening the unused cards", func(t *testing.T) {
		g, err := NewGame(engine.Options{Size: 5, Cards: 2})
		if err != nil {
			t.Fatal(err)
		}
		g = run(t, g, "b pass")
		if g, _, err = g.Reveal(engine.White, 1, vertex(t, 5, "C3")); err != nil {
			t.Fatal(err)
		}
		g = run(t, g, "w pass", "b pass", "w pass")
		if _, err := g.OpenCards(engine.White, vertices(t, 5, []string{"A1", "D4"})); !errors.Is(err, ErrCardMismatch) {
			t.Errorf("opening a revealed card at another point: error %v, want %v", err, ErrCardMismatch)
		}
		if _, err := g.OpenCards(engine.White, vertices(t, 5, []string{"A1"})); !errors.Is(err, engine.ErrBadOptions) {
			t.Errorf("opening too few cards: error %v, want %v", err, engine.ErrBadOptions)
		}
		opened, err := g.OpenCards(engine.White, vertices(t, 5, []string{"A1", "C3"}))
		if err != nil {
			t.Fatal(err)
		}
		if !opened.CardsKnown(engine.White) || opened.CardsKnown(engine.Black) || opened.UnusedCards(engine.White) != 1 {
			t.Errorf("after opening: known %v/%v, unused %d", opened.CardsKnown(engine.White), opened.CardsKnown(engine.Black), opened.UnusedCards(engine.White))
		}
	})
}

func TestHMG8(t *testing.T) {
	for _, tt := range []struct {
		name    string
		setup   gameSetup
		script  []string
		action  string
		wantErr error
		check   func(t *testing.T, g Game)
	}{
		{"HMG-8 a hidden stone takes no liberty", gameSetup{
			rows: []string{".....", ".....", ".....", ".XOX.", "..X.."}, toMove: engine.White, black: []string{"C3"}, white: []string{"A1"}},
			nil, "w pass", nil, func(t *testing.T, g Game) {
				// C2 lives with C3 as its only liberty, though Black holds a card there.
				if g.board.At(vertex(t, 5, "C2")) != engine.White {
					t.Errorf("C2 captured by a hidden stone")
				}
				_, res, err := playStep(t, g, "b reveal 0")
				if err != nil || !sameVertices(5, res.Captured, []string{"C2"}) {
					t.Errorf("reveal: %v, captured %s; want C2", err, engine.FormatVertices(5, res.Captured))
				}
			}},
		{"HMG-8 a hidden stone is never captured", gameSetup{
			rows: []string{".....", "..O..", ".O.O.", ".....", "....."}, black: []string{"C3"}, white: []string{"A1"}},
			[]string{"b play E1"}, "w play C2", nil, func(t *testing.T, g Game) {
				// The point is surrounded; the card is still there and still
				// hidden, and revealing it is suicide, not a capture.
				if c := g.Cards(engine.Black)[0]; c.Revealed || g.UnusedCards(engine.Black) != 1 {
					t.Errorf("card %+v", c)
				}
				if _, _, err := playStep(t, g, "b reveal 0"); !errors.Is(err, engine.ErrSuicide) {
					t.Errorf("reveal: error %v, want %v", err, engine.ErrSuicide)
				}
			}},
		{"HMG-8 the first to reveal gets the point", gameSetup{
			rows: []string{".....", ".....", ".O.O.", "..O..", "....."}, black: []string{"C3"}, white: []string{"C3"}},
			[]string{"b reveal 0", "b play E1"}, "w reveal 0", ErrRevealNotLastStone, nil},
		{"HMG-8 the other may reveal after that stone is captured", gameSetup{
			rows: []string{".....", ".....", ".O.O.", "..O..", "....."}, black: []string{"C3"}, white: []string{"C3"}},
			[]string{"b reveal 0", "b play E1", "w play C4", "b play E2"}, "w reveal 0", nil, func(t *testing.T, g Game) {
				if g.board.At(vertex(t, 5, "C3")) != engine.White {
					t.Errorf("C3 is not White's")
				}
			}},
		{"HMG-8 a card on the opponent's last stone undoes it", gameSetup{
			black: []string{"C3"}, white: []string{"A1"}},
			[]string{"b play A5", "w play C3"}, "b reveal 0", nil, func(t *testing.T, g Game) {
				if g.board.At(vertex(t, 5, "C3")) != engine.Black {
					t.Errorf("C3 is not Black's")
				}
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, tt.setup.game(t), tt.script...)
			next, _, err := playStep(t, g, tt.action)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("%s: error %v, want %v", tt.action, err, tt.wantErr)
			}
			if tt.check != nil {
				tt.check(t, next)
			}
		})
	}
}
