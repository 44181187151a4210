package sgf

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// standardProperties are the identifiers of SGF FF[1]–FF[4], the game
// specific ones of the other games included.
var standardProperties = strings.Fields(`
	AB AE AN AP AR AS AW B BL BM BR BS BT C CA CH CP CR DD DM DO DT EL EV EX
	FF FG GB GC GM GN GW HA HO ID IP IT IY KM KO L LB LN LT M MA MN N OB OM
	ON OP OT OV OW PB PC PL PM PW RE RG RO RU SC SE SI SL SO SQ ST SU SZ TB
	TC TE TM TR TW UC US V VW W WL WR WS WT
	AA BO WO NP NR NS CS MS SS TS IS CO CV DI MI`)

// vertices parses a space-separated list of GTP vertices.
func vertices(t testing.TB, size int, list string) []engine.Point {
	t.Helper()
	var ps []engine.Point
	for _, v := range strings.Fields(list) {
		p, err := engine.ParseVertex(size, v)
		if err != nil {
			t.Fatalf("test data: %v", err)
		}
		ps = append(ps, p)
	}
	return ps
}

// moves parses "B D4 W pass ..." into moves.
func moves(t testing.TB, size int, list string) []Move {
	t.Helper()
	f := strings.Fields(list)
	var ms []Move
	for i := 0; i+1 < len(f); i += 2 {
		c, err := engine.ParseColor(f[i])
		if err != nil {
			t.Fatal(err)
		}
		p, err := engine.ParseVertex(size, f[i+1])
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, Move{Color: c, Point: p})
	}
	return ms
}

// randomGame plays a random legal game of plain Go with engine.GoGame: up
// to n moves, a pass now and then, the setup stones first. It returns the
// record and the final game.
func randomGame(t testing.TB, seed uint64, size, n int, setup Setup) (GoRecord, engine.GoGame) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	g, err := engine.NewGoGame(engine.Options{Variant: engine.VariantGo, Size: size, Komi: 6.5, KomiSet: true})
	if err != nil {
		t.Fatal(err)
	}
	if g, err = g.WithSetup(setup.Black, setup.White); err != nil {
		t.Fatal(err)
	}
	r := GoRecord{Size: size, Komi: 6.5, Black: "Random Black", White: "Random White", Date: "2025-06-01", Version: "test", Setup: setup}
	for range n {
		c := g.ToMove()
		p := engine.Pass
		next, _, _ := g.Play(c, p)
		// One move in twenty is a pass; otherwise random points are tried
		// until one is legal (a pass if none of 30 is).
		if rng.IntN(20) > 0 {
			for range 30 {
				q := engine.Point(rng.IntN(size * size))
				if played, _, err := g.Play(c, q); err == nil {
					p, next = q, played
					break
				}
			}
		}
		g = next
		r.Moves = append(r.Moves, Move{Color: c, Point: p})
	}
	return r, g
}

func TestGoRecordRoundTrip(t *testing.T) {
	for i, size := range []int{5, 9, 13, 19} {
		r, _ := randomGame(t, uint64(i), size, 60, Setup{})
		r.Result = engine.Result{Winner: engine.White, Margin: 3.5, By: engine.ByScore}
		if i%2 == 1 {
			r.Setup = Setup{Black: vertices(t, size, "C3"), White: vertices(t, size, "D4 E5")}
			r.Moves = r.Moves[:0]
			r.Result = engine.Result{Winner: engine.Black, By: engine.ByResignation}
			r.Moves = append(r.Moves, moves(t, size, "W A1 B pass W B2")...)
		}
		data, err := r.SGF()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseGoRecord(data)
		if err != nil {
			t.Fatalf("size %d: %v\n%s", size, err, data)
		}
		if !reflect.DeepEqual(back, r) {
			t.Errorf("size %d: round trip\n got  %+v\n want %+v\n%s", size, back, r, data)
		}
	}
}

// TestGoRecordHasNoCustomProperties checks that a plain Go record holds
// standard FF[4] properties only.
func TestGoRecordHasNoCustomProperties(t *testing.T) {
	r, _ := randomGame(t, 7, 9, 40, Setup{Black: vertices(t, 9, "C3 G7"), White: vertices(t, 9, "E5")})
	r.Result = engine.Result{Winner: engine.Black, By: engine.ByForfeit}
	tree, err := r.Tree()
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range tree.MainLine() {
		for _, p := range n.Properties {
			if !slices.Contains(standardProperties, p.ID) || IsCustomProperty(p.ID) {
				t.Errorf("node %d holds %s, not a standard property", i, p.ID)
			}
		}
	}
	root := tree.Root()
	for _, id := range []string{"GM", "FF", "CA", "AP", "SZ", "KM", "RU", "PB", "PW", "RE", "DT", "AB", "AW"} {
		if !root.Has(id) {
			t.Errorf("root lacks %s", id)
		}
	}
	if got := root.SimpleText("RU") + " " + root.SimpleText("AP") + " " + root.SimpleText("CA"); got != "Chinese kakure:test UTF-8" {
		t.Errorf("RU AP CA = %q", got)
	}
}

func TestGoRecordTreeErrors(t *testing.T) {
	tests := []struct {
		Name   string
		Record GoRecord
	}{
		{"size too small", GoRecord{Size: 3}},
		{"size too large", GoRecord{Size: 20}},
		{"move without colour", GoRecord{Size: 9, Moves: []Move{{Color: engine.Empty, Point: 0}}}},
		{"move off the board", GoRecord{Size: 9, Moves: []Move{{Color: engine.Black, Point: 81}}}},
		{"move at NoPoint", GoRecord{Size: 9, Moves: []Move{{Color: engine.White, Point: engine.NoPoint}}}},
		{"setup off the board", GoRecord{Size: 9, Setup: Setup{White: []engine.Point{-1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			if _, err := tt.Record.SGF(); !errors.Is(err, ErrValue) {
				t.Errorf("error %v, want ErrValue", err)
			}
		})
	}
}

func TestGoRecordFromTree(t *testing.T) {
	tests := []struct {
		Name  string
		Input string
		Want  GoRecord
		Err   error
	}{
		{
			Name:  "defaults: 19x19, komi 0, no result",
			Input: "(;GM[1];B[pd];W[dp])",
			Want:  GoRecord{Size: 19, Moves: moves(t, 19, "B Q16 W D4")},
		},
		{
			Name:  "FF[3] pass tt, FF[4] pass, other programs' properties skipped",
			Input: "(;FF[3]GM[1]SZ[9]KM[5.5]AP[GNU Go:3.8]RE[W+Resign]C[hi];B[tt]C[pass];W[]TR[aa];B[ee])",
			Want:  GoRecord{Size: 9, Komi: 5.5, Result: engine.Result{Winner: engine.White, By: engine.ByResignation}, Moves: moves(t, 9, "B pass W pass B E5")},
		},
		{
			Name:  "compressed setup and a rectangle of one point",
			Input: "(;SZ[5]AB[aa:bb][ee:ee]AW[ce];W[cc])",
			Want:  GoRecord{Size: 5, Setup: Setup{Black: vertices(t, 5, "A5 B5 A4 B4 E1"), White: vertices(t, 5, "C1")}, Moves: moves(t, 5, "W C3")},
		},
		{
			Name:  "main line of a tree with variations",
			Input: "(;SZ[9];B[ee](;W[cc](;B[gg])(;B[aa]))(;W[dd]))",
			Want:  GoRecord{Size: 9, Moves: moves(t, 9, "B E5 W C7 B G3")},
		},
		{
			Name:  "kakure AP, names, date, unknown result",
			Input: "(;SZ[7]AP[kakure:1.2]PB[Al\\]ice]PW[Bob\nSmith]DT[2024-12-31]RE[?])",
			Want:  GoRecord{Size: 7, Version: "1.2", Black: "Al]ice", White: "Bob Smith", Date: "2024-12-31"},
		},
		{Name: "another game", Input: "(;GM[2])", Err: ErrValue},
		{Name: "not a square board", Input: "(;SZ[9:13])", Err: ErrValue},
		{Name: "board too large for kakure", Input: "(;SZ[25])", Err: ErrValue},
		{Name: "bad komi", Input: "(;KM[lots])", Err: ErrValue},
		{Name: "bad result", Input: "(;RE[B+Late])", Err: ErrValue},
		{Name: "point off the board", Input: "(;SZ[9];B[jj])", Err: ErrValue},
		{Name: "two values for a move", Input: "(;SZ[9];B[aa][bb])", Err: ErrValue},
		{Name: "bad setup point", Input: "(;SZ[9]AB[tt])", Err: ErrValue},
		{Name: "variant record", Input: "(;SZ[9]VA[phantom])", Err: ErrNotPlainGo},
		{Name: "custom property", Input: "(;SZ[9];B[aa]XT[bb])", Err: ErrNotPlainGo},
		{Name: "F-Go turn", Input: "(;SZ[9];B[aa]W[bb])", Err: ErrNotPlainGo},
		{Name: "setup after the root", Input: "(;SZ[9];B[aa];AW[bb])", Err: ErrNotPlainGo},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			got, err := ParseGoRecord([]byte(tt.Input))
			if tt.Err != nil {
				if !errors.Is(err, tt.Err) || !strings.HasPrefix(err.Error(), "sgf: ") {
					t.Fatalf("error %v, want %v", err, tt.Err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.Want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.Want)
			}
		})
	}
	if _, err := GoRecordFromTree(GameTree{}); !errors.Is(err, ErrEmptyGameTree) {
		t.Errorf("empty tree: %v", err)
	}
	if _, err := ParseGoRecord([]byte("nothing")); !errors.Is(err, ErrNoGameTree) {
		t.Errorf("no tree: %v", err)
	}
}

func TestGoRecordReplay(t *testing.T) {
	r, want := randomGame(t, 42, 9, 120, Setup{})
	got, err := r.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if got.Board() != want.Board() || got.MoveNumber() != len(r.Moves) {
		t.Errorf("Replay gave\n%v\nwant\n%v", got.Board(), want.Board())
	}
	// The same through SGF.
	data, err := r.SGF()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseGoRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := back.Replay(); err != nil || g.Board() != want.Board() {
		t.Errorf("Replay of the record read back: %v\n%v", err, g.Board())
	}
}

// TestSGFD6Replay checks setup stones and the first illegal move (GO-2,
// GO-3 and the setup decision SGF-D6).
func TestSGFD6Replay(t *testing.T) {
	tests := []struct {
		Name   string
		Record GoRecord
		Err    error
		Number int
		// Black and White are the stones expected when Err is nil.
		Black, White string
	}{
		{
			Name:   "setup stones then a capture",
			Record: GoRecord{Size: 5, Setup: Setup{Black: vertices(t, 5, "A2"), White: vertices(t, 5, "A1")}, Moves: moves(t, 5, "W C3 B B1")},
			Black:  "B1,A2", White: "C3",
		},
		{
			Name:   "GO-2 suicide",
			Record: GoRecord{Size: 5, Setup: Setup{Black: vertices(t, 5, "A2 B1")}, Moves: moves(t, 5, "B C3 W A1")},
			Err:    engine.ErrSuicide, Number: 2,
		},
		{
			Name:   "occupied point",
			Record: GoRecord{Size: 5, Moves: moves(t, 5, "B C3 W D4 B C3")},
			Err:    engine.ErrOccupied, Number: 3,
		},
		{
			Name: "GO-3 ko recapture at once",
			Record: GoRecord{Size: 5,
				Setup: Setup{Black: vertices(t, 5, "B3 C4 C2"), White: vertices(t, 5, "E3 D4 D2")},
				Moves: moves(t, 5, "B D3 W C3 B D3")},
			Err: engine.ErrSuperko, Number: 3,
		},
		{
			Name:   "move off the board",
			Record: GoRecord{Size: 5, Moves: []Move{{Color: engine.Black, Point: 25}}},
			Err:    engine.ErrOffBoard, Number: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			g, err := tt.Record.Replay()
			if tt.Err == nil {
				if err != nil {
					t.Fatal(err)
				}
				b := g.Board()
				black, white := engine.FormatVertices(5, b.Stones(engine.Black)), engine.FormatVertices(5, b.Stones(engine.White))
				if black != tt.Black || white != tt.White {
					t.Errorf("stones black %s white %s, want %s and %s\n%v", black, white, tt.Black, tt.White, b)
				}
				return
			}
			var me *MoveError
			if !errors.As(err, &me) || !errors.Is(err, tt.Err) || me.Number != tt.Number || me.Move != tt.Record.Moves[tt.Number-1] {
				t.Fatalf("error %v (%+v), want move %d refused with %v", err, me, tt.Number, tt.Err)
			}
			if g.MoveNumber() != tt.Number-1 || !strings.HasPrefix(err.Error(), "sgf: move ") {
				t.Errorf("game returned after %d moves, want %d; message %q", g.MoveNumber(), tt.Number-1, err)
			}
		})
	}
	bad := []GoRecord{
		{Size: 4},
		{Size: 5, Setup: Setup{Black: vertices(t, 5, "A1"), White: vertices(t, 5, "A1")}},
		{Size: 5, Setup: Setup{Black: vertices(t, 5, "A1"), White: vertices(t, 5, "A2 B1")}},
	}
	for _, r := range bad {
		if _, err := r.Replay(); err == nil || errors.As(err, new(*MoveError)) {
			t.Errorf("Replay(%+v) error %v, want an error before any move", r, err)
		}
	}
}

func TestGoRecordGolden(t *testing.T) {
	r := GoRecord{
		Size: 9, Komi: 7.5, Black: "Ann [1d]", White: `Bo\b`, Date: "2025-03-14", Version: "0.1.0",
		Result: engine.Result{Winner: engine.Black, Margin: 2.5, By: engine.ByScore},
		Moves:  moves(t, 9, "B E5 W C3 B G7 W G3 B C7 W pass B D4 W pass B pass"),
	}
	data, err := r.SGF()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "go.sgf", data)

	h := GoRecord{
		Size: 13, Komi: 0.5, Black: "Handicap", White: "Teacher", Date: "2025-03-15", Version: "0.1.0",
		Setup: Setup{Black: vertices(t, 13, "D4 K10 K4 D10")},
		Moves: moves(t, 13, "W G7 B G10 W C3"),
	}
	data, err = h.SGF()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "go-handicap.sgf", data)
	back, err := ParseGoRecord(data)
	if err != nil || !reflect.DeepEqual(back, h) {
		t.Errorf("golden handicap record reads back as %+v, %v", back, err)
	}
}
