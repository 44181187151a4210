package circuit

import (
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

// The pitfalls of the design notes (phantom-2pc.md), each a scenario that
// the circuit must get right and that the circuit built with the matching
// deliberate flaw must get wrong, which proves the scenario exercises it.

// koRows is a ko: Black C3 takes the white stone at B3 with a single stone
// that is then left with one liberty (as in the engine's tests).
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

type pitfallCase struct {
	name string
	// rows is the start position with Black to move; nil for an empty 5×5
	// board.
	rows  []string
	tries []string
	// flaw is the circuit bug the scenario must catch.
	flaw refereeFlaws
	// before checks the whole state before the last try (nil: nothing).
	before func(t *testing.T, st RefereeState)
	// last is what the engine must say of the last try.
	last func(t *testing.T, out phantom.TryOutcome)
}

func (pc pitfallCase) run(t *testing.T, rules engine.PhantomRules, mover Party, flaws refereeFlaws) (diff string) {
	t.Helper()
	ref := newPhantom(t, 5, rules)
	if pc.rows != nil {
		var err error
		ref, err = phantom.NewRefereeAt(engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: rules}, engine.MustParseBoard(pc.rows...), engine.Black)
		if err != nil {
			t.Fatal(err)
		}
	}
	g := newRefereeGame(t, ref, rand.New(rand.NewPCG(1, 2)))
	g.flaws = flaws
	for i, v := range pc.tries {
		p, err := engine.ParseVertex(5, v)
		if err != nil {
			t.Fatal(err)
		}
		last := i == len(pc.tries)-1
		if last && pc.before != nil && flaws == (refereeFlaws{}) {
			st, err := g.shares[0].Xor(g.shares[1])
			if err != nil {
				t.Fatal(err)
			}
			pc.before(t, st)
		}
		out, d := g.step(t, mover, p)
		if d != "" {
			return d
		}
		if last && pc.last != nil && flaws == (refereeFlaws{}) {
			pc.last(t, out)
		}
	}
	return ""
}

func runPitfalls(t *testing.T, cases []pitfallCase) {
	t.Helper()
	for _, pc := range cases {
		t.Run(pc.name, func(t *testing.T) {
			for _, rules := range allRules {
				for _, mover := range []Party{Garbler, Evaluator} {
					if d := pc.run(t, rules, mover, refereeFlaws{}); d != "" {
						t.Errorf("%s, mover %v: %s", rules, mover, d)
					}
				}
			}
			if pc.flaw != (refereeFlaws{}) {
				if d := pc.run(t, engine.RulesCommon, Evaluator, pc.flaw); d == "" {
					t.Errorf("the circuit with the flaw %+v passes the scenario", pc.flaw)
				} else {
					t.Logf("with the flaw: %s", d)
				}
			}
		})
	}
}

func vertexIndex(t *testing.T, v string) int {
	t.Helper()
	p, err := engine.ParseVertex(5, v)
	if err != nil {
		t.Fatal(err)
	}
	return int(p)
}

// TestPG3StaleLabels: captured points keep their labels, which can equal the
// label of a live chain; every label comparison is gated on the stone.
func TestPG3StaleLabels(t *testing.T) {
	runPitfalls(t, []pitfallCase{{
		// White C1-C2-C3 (label C3, the last stone played) is captured by
		// C4; White replays C3, which takes the label C3 again while C1 and
		// C2 are empty with the stale label C3. Black C2 then captures C3:
		// a comparison that forgot the stone would see C1 as a liberty.
		name: "PG-3 stale labels equal to a live chain's",
		tries: []string{"B1", "C1", "B2", "C2", "B3", "C3", "D1", "A5", "D2", "E5", "D3", "A4", "C4",
			"C3", "C2"},
		flaw: refereeFlaws{noStoneGate: true},
		before: func(t *testing.T, st RefereeState) {
			c1, c2, c3 := vertexIndex(t, "C1"), vertexIndex(t, "C2"), vertexIndex(t, "C3")
			if !st.White[c3] || st.Black[c1] || st.White[c1] || st.Black[c2] || st.White[c2] {
				t.Fatalf("the position is not the one the scenario needs")
			}
			if st.Label[c3] != uint16(c3) || st.Label[c1] != uint16(c3) || st.Label[c2] != uint16(c3) {
				t.Fatalf("labels C1 %d, C2 %d, C3 %d; the scenario needs all %d", st.Label[c1], st.Label[c2], st.Label[c3], c3)
			}
		},
		last: func(t *testing.T, out phantom.TryOutcome) {
			if !out.Legal || len(out.Captured) != 1 {
				t.Fatalf("C2: %+v, want a capture of C3", out)
			}
		},
	}})
}

// TestPG3ChainSeenTwice: a chain that touches the try on two sides is one
// chain: its stones are captured and counted once.
func TestPG3ChainSeenTwice(t *testing.T) {
	runPitfalls(t, []pitfallCase{
		{
			name:  "PG-3 capture of a chain touching the try west and south",
			rows:  []string{".....", ".....", "X....", "O....", "OOX.."},
			tries: []string{"B2"},
			flaw:  refereeFlaws{noDedupe: true},
			last: func(t *testing.T, out phantom.TryOutcome) {
				if !out.Legal || len(out.Captured) != 3 {
					t.Fatalf("B2: %+v, want a capture of 3 stones", out)
				}
			},
		},
		{
			name:  "PG-5 atari of a chain touching the try west and south",
			rows:  []string{".....", ".....", "X....", "O....", "OO..."},
			tries: []string{"B2"},
			last: func(t *testing.T, out phantom.TryOutcome) {
				if !out.Legal || !out.AtariOpponent || len(out.Captured) != 0 {
					t.Fatalf("B2: %+v, want atari", out)
				}
			},
		},
		{
			name:  "PG-3 capture of a chain touching the try on three sides",
			rows:  []string{".....", ".XXX.", "XOOOX", "XO.OX", ".XXX."},
			tries: []string{"C2"},
			last: func(t *testing.T, out phantom.TryOutcome) {
				if !out.Legal || len(out.Captured) != 5 {
					t.Fatalf("C2: %+v, want a capture of 5 stones", out)
				}
			},
		},
	})
}

// TestPG2SuicideAfterCaptures: suicide is judged after the captures.
func TestPG2SuicideAfterCaptures(t *testing.T) {
	runPitfalls(t, []pitfallCase{
		{
			name:  "PG-2 a capture makes a move with no empty neighbour legal",
			rows:  koRows,
			tries: []string{"C3"},
			flaw:  refereeFlaws{suicideBeforeCaptures: true},
			last: func(t *testing.T, out phantom.TryOutcome) {
				if !out.Legal || len(out.Captured) != 1 {
					t.Fatalf("C3: %+v, want a capture", out)
				}
			},
		},
		{
			name:  "PG-2 a suicide without capture",
			rows:  []string{".....", ".....", ".....", ".O...", "O.O.."},
			tries: []string{"B1"},
			last: func(t *testing.T, out phantom.TryOutcome) {
				if out.Legal || out.Reason != phantom.TrySuicide {
					t.Fatalf("B1: %+v, want suicide", out)
				}
			},
		},
	})
}

// TestPG2IllegalTryKeepsState: an illegal try leaves the board, the labels
// and the ko as they were (checked on every step: see refereeGame.step).
func TestPG2IllegalTryKeepsState(t *testing.T) {
	runPitfalls(t, []pitfallCase{
		{
			name:  "PG-2 suicide",
			rows:  []string{".....", ".....", ".....", ".O...", "O.O.."},
			tries: []string{"B1"},
			flaw:  refereeFlaws{ungatedUpdate: true},
		},
		{
			name:  "PG-4 ko",
			rows:  koRows,
			tries: []string{"C3", "B3"},
			flaw:  refereeFlaws{ungatedUpdate: true},
			last: func(t *testing.T, out phantom.TryOutcome) {
				if out.Legal || out.Reason != phantom.TryKo {
					t.Fatalf("B3: %+v, want ko", out)
				}
			},
		},
		{
			name:  "PG-2 occupied, then ko again",
			rows:  koRows,
			tries: []string{"C3", "B3", "A3", "B3", "C3", "E5"},
		},
	})
}

// TestPG5AtariFactsCircuit: PG-5 on the cases of the engine's tests. For
// chains next to the move, captures never add liberties, so exactly one
// liberty after the move implies two or more before (the try was one).
func TestPG5AtariFactsCircuit(t *testing.T) {
	tests := []struct {
		name      string
		rows      []string
		vertex    string
		opp, self bool
		captured  int
	}{
		{"PG-5 opponent from two liberties to one", []string{".....", ".....", ".....", ".....", "O...."}, "A2", true, false, 0},
		{"PG-5 opponent from three liberties to two", []string{".....", ".....", ".....", ".....", ".O..."}, "C1", false, false, 0},
		{"PG-5 opponent from one liberty to none is a capture, not atari", []string{".....", ".....", ".....", "X....", "O...."}, "B1", false, false, 1},
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
		pc := pitfallCase{
			name:  tt.name,
			rows:  tt.rows,
			tries: []string{tt.vertex},
			last: func(t *testing.T, out phantom.TryOutcome) {
				if !out.Legal || out.AtariOpponent != tt.opp || out.AtariSelf != tt.self || len(out.Captured) != tt.captured {
					t.Fatalf("%s: %+v, want atari-opponent %v atari-self %v captured %d", tt.vertex, out, tt.opp, tt.self, tt.captured)
				}
			},
		}
		runPitfalls(t, []pitfallCase{pc})
	}
}

// TestPG5CaptureJoiningAtariCircuit: a capture that joins one of the
// mover's chains that was in atari and leaves the new chain with one
// liberty is "and himself" (PG-5, the seed's snapback). The circuit built
// with the PG-5 of old, where such a join is never "and himself", fails.
func TestPG5CaptureJoiningAtariCircuit(t *testing.T) {
	selfAndCaptured := func(opp bool) func(t *testing.T, out phantom.TryOutcome) {
		return func(t *testing.T, out phantom.TryOutcome) {
			if !out.Legal || !out.AtariSelf || out.AtariOpponent != opp || len(out.Captured) != 1 {
				t.Fatalf("%+v, want a capture of one stone, atari-opponent %v, atari-self", out, opp)
			}
		}
	}
	flaw := refereeFlaws{selfAtariWithoutCaptureClause: true}
	runPitfalls(t, []pitfallCase{
		{
			name:  "PG-5 capture that joins a chain in atari: and himself",
			rows:  []string{".....", ".....", "OOOO.", "OXXO.", "O.OX."},
			tries: []string{"B1"},
			flaw:  flaw,
			last:  selfAndCaptured(false),
		},
		{
			name:  "PG-5 the snapback: White and himself into atari",
			rows:  []string{".....", ".....", ".OOO.", "OXXO.", "O.OX."},
			tries: []string{"B1"},
			flaw:  flaw,
			last:  selfAndCaptured(true),
		},
	})
}
