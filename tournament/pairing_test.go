package tournament

import (
	"crypto/rand"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/protocol"
)

// TestTRND4BergerTables: BergerTable gives FIDE's published Berger
// tables (Handbook C.05, Annex 1) for 4 and 6 players, round by round,
// board by board, first-named first (TRN-D4).
func TestTRND4BergerTables(t *testing.T) {
	published := map[int][]string{
		4: {"1-4 2-3", "4-3 1-2", "2-4 3-1"},
		6: {"1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"},
	}
	for n, rounds := range published {
		for r, want := range rounds {
			pairs, err := BergerTable(n, r+1)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range pairs {
				got = append(got, fmt.Sprintf("%d-%d", p[0], p[1]))
			}
			if strings.Join(got, " ") != want {
				t.Errorf("Berger table of %d, round %d: %s, want %s", n, r+1, strings.Join(got, " "), want)
			}
		}
	}
	// Every table of up to 16 players: each pair meets once.
	for n := 2; n <= 16; n += 2 {
		met := map[[2]int]int{}
		for r := 1; r < n; r++ {
			pairs, _ := BergerTable(n, r)
			seen := map[int]bool{}
			for _, p := range pairs {
				met[[2]int{min(p[0], p[1]), max(p[0], p[1])}]++
				seen[p[0]], seen[p[1]] = true, true
			}
			if len(seen) != n {
				t.Errorf("Berger table of %d, round %d: %d players play", n, r, len(seen))
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Errorf("Berger table of %d: %d pairs meet, want %d", n, len(met), n*(n-1)/2)
		}
		for p, k := range met {
			if k != 1 {
				t.Errorf("Berger table of %d: %v meet %d times", n, p, k)
			}
		}
	}
	if _, err := BergerTable(5, 1); err == nil {
		t.Error("a Berger table of 5 players")
	}
}

// games writes a round's games as "b-w" seats, board order, and the bye.
func games(r Round) string {
	var s []string
	for _, g := range r.Games {
		s = append(s, fmt.Sprintf("%d-%d", g.Black, g.White))
	}
	if r.Bye >= 0 {
		s = append(s, fmt.Sprintf("bye %d", r.Bye))
	}
	return strings.Join(s, " ")
}

// TestTRND5SwissRule: the Swiss rule pairs by rank (points, then seed
// order), the first partner not met, backtracking; the bye to the
// lowest-ranked without one; colours by balance, then the last colour,
// then the round's parity (TRN-D5). Each case is worked out by hand.
func TestTRND5SwissRule(t *testing.T) {
	for _, tt := range []struct {
		name     string
		n, r     int
		previous []Round
		half     []int
		want     string
	}{
		{name: "round 1 of 4: 0 with 1, 2 with 3, the higher-ranked black", n: 4, r: 1,
			half: []int{0, 0, 0, 0}, want: "0-1 2-3"},
		{name: "round 2 of 4: winners 0 and 2 meet, colours balanced", n: 4, r: 2,
			previous: []Round{{Number: 1, Games: []Pairing{{1, 0, 1}, {2, 2, 3}}, Bye: -1}},
			half:     []int{2, 0, 2, 0},
			// 0 and 2 both had black once, both last black: round 2
			// is even, so the lower-ranked (2) has black.
			want: "2-0 3-1"},
		{name: "no repeat: the first partner not met", n: 4, r: 2,
			previous: []Round{{Number: 1, Games: []Pairing{{1, 0, 1}, {2, 2, 3}}, Bye: -1}},
			half:     []int{2, 2, 0, 0},
			// rank 0 1 2 3; 0 met 1, so 0-2; then 1-3. 0 black once, 2
			// black once, even round: 2 black; 1 white once, 3 white
			// once: 3 black.
			want: "2-0 3-1"},
		{name: "backtracking: the first partner would leave a repeat", n: 4, r: 3,
			previous: []Round{
				{Number: 1, Games: []Pairing{{1, 0, 1}, {2, 2, 3}}, Bye: -1},
				{Number: 2, Games: []Pairing{{1, 0, 2}, {2, 1, 3}}, Bye: -1},
			},
			half: []int{4, 2, 0, 2},
			// rank 0 1 3 2: 0 met 1 and 2, so 0-3; then 1-2. Colours:
			// 0 (+2) vs 3 (-2): 3 black; 1 (0, last black) vs 2 (0,
			// last white): 2 black.
			want: "3-0 2-1"},
		{name: "odd: the bye to the lowest-ranked without one", n: 5, r: 2,
			previous: []Round{{Number: 1, Games: []Pairing{{1, 0, 1}, {2, 2, 3}}, Bye: 4}},
			half:     []int{2, 0, 2, 0, 2},
			// rank 0 2 4 1 3; 4 had the bye; 3 is lowest without one.
			// 0-2: both black once, last black, even round: 2 black. 4
			// (none) vs 1 (white once): 1 black.
			want: "2-0 1-4 bye 3"},
		{name: "repeats only when nothing else pairs", n: 2, r: 1,
			half: []int{0, 0}, want: "0-1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := swissRound(tt.n, tt.r, tt.previous, tt.half)
			if games(got) != tt.want {
				t.Errorf("swissRound = %s, want %s", games(got), tt.want)
			}
		})
	}
}

// anyMatching tells whether the players can all be paired with no pair
// in met: every perfect matching is tried (the check of
// TestTRND5SwissNoRepeats, written apart from pairUp).
func anyMatching(players []int, met map[[2]int]bool) bool {
	if len(players) == 0 {
		return true
	}
	for k := 1; k < len(players); k++ {
		a, b := players[0], players[k]
		if met[[2]int{min(a, b), max(a, b)}] {
			continue
		}
		rest := slices.Delete(slices.Clone(players), k, k+1)[1:]
		if anyMatching(rest, met) {
			return true
		}
	}
	return false
}

// TestTRND5SwissNoRepeats: six and seven players, every round, results
// from a seed: a pair meets twice only when no pairing without a repeat
// exists (for any bye), and each player has at most one bye (TRN-D5).
func TestTRND5SwissNoRepeats(t *testing.T) {
	for _, n := range []int{6, 7} {
		for seed := range 20 {
			half := make([]int, n)
			var previous []Round
			met := map[[2]int]bool{}
			byes := map[int]int{}
			for r := 1; r <= n-1; r++ {
				round := swissRound(n, r, previous, half)
				repeats := false
				for _, g := range round.Games {
					repeats = repeats || met[[2]int{min(g.Black, g.White), max(g.Black, g.White)}]
				}
				if repeats {
					for bye := range n {
						if n%2 == 0 && bye > 0 || n%2 == 1 && byes[bye] > 0 {
							continue
						}
						var players []int
						for p := range n {
							if n%2 == 0 || p != bye {
								players = append(players, p)
							}
						}
						if anyMatching(players, met) {
							t.Fatalf("n=%d seed %d round %d: a repeat (%s), but a pairing without one exists", n, seed, r, games(round))
						}
					}
				}
				for _, g := range round.Games {
					met[[2]int{min(g.Black, g.White), max(g.Black, g.White)}] = true
					// A result from the seed: black wins when the bit is set.
					if (seed>>(g.Board%5))&1 == 1 {
						half[g.Black] += 2
					} else {
						half[g.White] += 2
					}
				}
				if round.Bye >= 0 {
					byes[round.Bye]++
					half[round.Bye] += 2
					if byes[round.Bye] > 1 {
						t.Fatalf("n=%d seed %d round %d: a second bye for %d", n, seed, r, round.Bye)
					}
				}
				previous = append(previous, round)
			}
		}
	}
}

// testTournament makes a tournament of n participants (their keys in
// seed order) by an organizer, with the system given.
func testTournament(t *testing.T, n int, system string, rounds int) (*Tournament, []crypto.PrivKey) {
	t.Helper()
	org, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]crypto.PrivKey{}
	var entries []SignedEntry
	for i := range n {
		k, _, _ := crypto.GenerateEd25519Key(rand.Reader)
		e, err := SignEntry(k, "test call", fmt.Sprintf("player %d", i))
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
		var body Entry
		decodeExact(e.Entry, &body)
		keys[body.Peer] = k
	}
	sa, err := Announce(org, Announcement{Call: "test call", Name: "test", System: system, Rounds: rounds,
		Options: protocol.OptionsBody{Variant: "go", Size: 5, Komi: 7.5}, Entries: entries})
	if err != nil {
		t.Fatal(err)
	}
	tt, err := sa.Open()
	if err != nil {
		t.Fatal(err)
	}
	var ordered []crypto.PrivKey
	for _, p := range tt.Participants {
		ordered = append(ordered, keys[p.Peer])
	}
	return tt, ordered
}

// TestTRND16TieBreaks: points, SOS and SODOS (Swiss) and
// Sonneborn–Berger (round robin) on results worked out by hand (TRN-D16).
func TestTRND16TieBreaks(t *testing.T) {
	// Round robin of 4: 0 beats 1 and 2, loses to 3; 1 beats 2 and 3; 2
	// draws 3; so 0: 2, 1: 2, 2: 0.5, 3: 1.5.
	rr, _ := testTournament(t, 4, SystemRoundRobin, 3)
	res := func(b, w, bp, wp int) BoardResult {
		return BoardResult{Pairing: Pairing{Black: b, White: w}, Counted: true, BlackPoints: bp, WhitePoints: wp}
	}
	s := &Standings{Tournament: rr, Rounds: []RoundResult{{Round: Round{Bye: -1}, Boards: []BoardResult{
		res(0, 1, win, 0), res(2, 0, 0, win), res(3, 0, win, 0),
		res(1, 2, win, 0), res(3, 1, 0, win), res(2, 3, draw, draw),
	}}}}
	s.table([]int{8, 8, 2, 6})
	// SB: 0 beat 1 (2) and 2 (0.5): 2.5. 1 beat 2 (0.5) and 3 (1.5): 2.
	// 3 beat 0 (2), drew 2 (0.5/2): 2.25. 2 drew 3 (1.5/2): 0.75.
	var got []string
	for _, r := range s.Table {
		got = append(got, fmt.Sprintf("%d:%d:%s:%s", r.Rank, r.Seat, Quarters(r.Points), Quarters(r.SB)))
	}
	if want := "1:0:2:2.5 2:1:2:2 3:3:1.5:2.25 4:2:0.5:0.75"; strings.Join(got, " ") != want {
		t.Errorf("round robin table %s, want %s", strings.Join(got, " "), want)
	}
	// Swiss of 4, two rounds: 0 beats 1, 2 beats 3; 0 beats 2, 3
	// beats 1. Points 0: 2, 1: 0, 2: 1, 3: 1. SOS 0: 0+1 = 1, 1: 2+1 =
	// 3, 2: 1+2 = 3, 3: 1+0 = 1. SODOS 0: 0+1 = 1, 2: 1, 3: 0, 1: 0.
	sw, _ := testTournament(t, 4, SystemSwiss, 3)
	s = &Standings{Tournament: sw, Rounds: []RoundResult{{Round: Round{Bye: -1}, Boards: []BoardResult{
		res(0, 1, win, 0), res(2, 3, win, 0), res(0, 2, win, 0), res(1, 3, 0, win),
	}}}}
	s.table([]int{8, 0, 4, 4})
	got = nil
	for _, r := range s.Table {
		got = append(got, fmt.Sprintf("%d:%d:%s:%s:%s", r.Rank, r.Seat, Quarters(r.Points), Quarters(r.SOS), Quarters(r.SODOS)))
	}
	if want := "1:0:2:1:1 2:2:1:3:1 3:3:1:1:0 4:1:0:3:0"; strings.Join(got, " ") != want {
		t.Errorf("Swiss table %s, want %s", strings.Join(got, " "), want)
	}
	// A tie in every number shares the rank, listed in seed order.
	s = &Standings{Tournament: sw, Rounds: []RoundResult{{Round: Round{Bye: -1}, Boards: []BoardResult{
		res(0, 1, draw, draw), res(2, 3, draw, draw)}}}}
	s.table([]int{2, 2, 2, 2})
	text := string(s.Text())
	if strings.Count(text, "\n1=    0.5 ") != 4 {
		t.Errorf("a four-way tie:\n%s", text)
	}
}

// TestQuarters: the table's numbers.
func TestQuarters(t *testing.T) {
	for q, want := range map[int]string{0: "0", 1: "0.25", 2: "0.5", 3: "0.75", 4: "1", 10: "2.5", -3: "-0.75"} {
		if got := Quarters(q); got != want {
			t.Errorf("Quarters(%d) = %q, want %q", q, got, want)
		}
	}
}

// TestTRND1OneMeaning: an entry signed by its peer but whose body is not
// in the one canonical form (a key twice, so that two readers could read
// two calls; spaces) is refused, though its signature verifies (TRN-D1).
func TestTRND1OneMeaning(t *testing.T) {
	k, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	good, err := SignEntry(k, "call", "n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := good.Verify(); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		strings.Replace(string(good.Entry), `"call":"call"`, `"call":"call","call":"other"`, 1),
		strings.Replace(string(good.Entry), `"call":"call"`, `"call": "call"`, 1),
		strings.Replace(string(good.Entry), `"name":"n"`, `"name":"n","extra":1`, 1),
	} {
		sig, _ := k.Sign(signingBytes(entryDomain, []byte(body)))
		if _, err := (SignedEntry{Entry: []byte(body), Signature: sig}).Verify(); err == nil {
			t.Errorf("entry %s accepted", body)
		}
	}
	// Signed under another domain (a game message's): refused.
	sig, _ := k.Sign(signingBytes("kakure/message/v1", good.Entry))
	if _, err := (SignedEntry{Entry: good.Entry, Signature: sig}).Verify(); err == nil {
		t.Error("an entry signed under another domain accepted")
	}
}

// TestTRND2EntriesChecked: an announcement holding an entry of another
// call, or whose organizer's signature fails, is refused: the entry's
// participant has no valid entry, the announcement does not open
// (TRN-D2).
func TestTRND2EntriesChecked(t *testing.T) {
	tt, _ := testTournament(t, 3, SystemSwiss, 2)
	org, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	k, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	stray, err := SignEntry(k, "another call", "stray")
	if err != nil {
		t.Fatal(err)
	}
	a := tt.Body
	a.Entries = append(append([]SignedEntry(nil), a.Entries...), stray)
	sa, err := Announce(org, a)
	if err == nil || !strings.Contains(err.Error(), "another call") {
		t.Errorf("Announce with an entry of another call: %v", err)
	}
	opened, err := sa.Open()
	if err != nil {
		t.Fatal(err)
	}
	if opened.Complete() == nil {
		t.Error("an entry of another call is taken")
	}
	// The organizer's signature over other bytes.
	good, err := Announce(org, tt.Body)
	if err != nil {
		t.Fatal(err)
	}
	forged := good
	forged.Announcement = []byte(strings.Replace(string(good.Announcement), `"name":"test"`, `"name":"tost"`, 1))
	if _, err := forged.Open(); err == nil || !strings.Contains(err.Error(), "signature") {
		t.Errorf("an announcement altered after its signature: %v", err)
	}
}
