package tournament

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// Pairing is one game of a round: the participants (indices in the seed
// order) who play black and white, on the board numbered from 1.
type Pairing struct {
	Board        int
	Black, White int
}

// Round is the pairings of one round, and the participant who sits out
// (-1 for none).
type Round struct {
	Number int
	Games  []Pairing
	Bye    int
}

// BergerTable returns round r (from 1) of the Berger table of n players
// (n even): the pairs of player numbers (from 1), first-named first, in
// board order, as FIDE's Handbook prints them (C.05 Annex 1). Player n
// meets player i where 2i ≡ r+1 (mod n-1), first-named in odd rounds
// the other; the other boards pair i+k and i-k (mod n-1, in 1..n-1), the
// lower first-named when their sum is odd (TRN-D4).
func BergerTable(n, r int) ([][2]int, error) {
	if n < 2 || n%2 == 1 || r < 1 || r > n-1 {
		return nil, fmt.Errorf("tournament: no round %d in a Berger table of %d players", r, n)
	}
	m := n - 1
	norm := func(x int) int { // into 1..m
		x %= m
		if x <= 0 {
			x += m
		}
		return x
	}
	// The i with 2i ≡ r+1 (mod m): m is odd, so 2 has an inverse.
	i := 0
	for c := 1; c <= m; c++ {
		if (2*c)%m == (r+1)%m {
			i = c
			break
		}
	}
	pairs := [][2]int{{i, n}}
	if r%2 == 0 {
		pairs[0] = [2]int{n, i}
	}
	for k := 1; k < n/2; k++ {
		a, b := norm(i+k), norm(i-k)
		lo, hi := min(a, b), max(a, b)
		if (a+b)%2 == 1 {
			pairs = append(pairs, [2]int{lo, hi})
		} else {
			pairs = append(pairs, [2]int{hi, lo})
		}
	}
	return pairs, nil
}

// roundRobin returns round r of the tournament's round robin: the
// participants numbered in seed order from 1, the first-named of the
// Berger table plays black (black moves first, as white does in chess);
// with an odd number of players, a last number is the bye (TRN-D4).
func (t *Tournament) roundRobin(r int) (Round, error) {
	n := len(t.Participants)
	table := n + n%2
	pairs, err := BergerTable(table, r)
	if err != nil {
		return Round{}, err
	}
	round := Round{Number: r, Bye: -1}
	for _, p := range pairs {
		a, b := p[0]-1, p[1]-1
		if a >= n || b >= n {
			round.Bye = min(a, b)
			continue
		}
		round.Games = append(round.Games, Pairing{Board: len(round.Games) + 1, Black: a, White: b})
	}
	return round, nil
}

// Pairings returns round r (from 1) of the tournament, given the rounds
// before it (as this function returned them) and the points each
// participant has from them, in half points (Score's table: TRN-D7..).
// A round robin's pairings do not depend on results; a Swiss system's
// follow from the points (TRN-D5).
func (t *Tournament) Pairings(r int, previous []Round, halfPoints []int) (Round, error) {
	if r < 1 || r > t.Body.Rounds {
		return Round{}, fmt.Errorf("tournament: round %d of %d", r, t.Body.Rounds)
	}
	if t.Body.System == SystemRoundRobin {
		return t.roundRobin(r)
	}
	if len(previous) != r-1 || len(halfPoints) != len(t.Participants) {
		return Round{}, fmt.Errorf("tournament: Swiss round %d needs the %d rounds before it and every participant's points", r, r-1)
	}
	return swissRound(len(t.Participants), r, previous, halfPoints), nil
}

// swissHistory is what a Swiss round needs of the rounds before it.
type swissHistory struct {
	met     map[[2]int]bool
	balance []int  // games as black minus games as white
	last    []int8 // the colour of the last game: +1 black, -1 white, 0 none
	hadBye  []bool
}

func newSwissHistory(n int, previous []Round) swissHistory {
	h := swissHistory{met: map[[2]int]bool{}, balance: make([]int, n), last: make([]int8, n), hadBye: make([]bool, n)}
	for _, round := range previous {
		for _, g := range round.Games {
			h.met[[2]int{g.Black, g.White}], h.met[[2]int{g.White, g.Black}] = true, true
			h.balance[g.Black]++
			h.balance[g.White]--
			h.last[g.Black], h.last[g.White] = 1, -1
		}
		if round.Bye >= 0 {
			h.hadBye[round.Bye] = true
		}
	}
	return h
}

// swissRound pairs round r of a Swiss system (TRN-D5): the players in
// rank order (points, then seed order); with an odd number, the bye to
// the lowest-ranked player without one whose absence leaves the others
// pairable with no repeat; then, from the top, each unpaired player
// with the first below it it has not met, backtracking to the
// lexicographically first pairing without repeats (or, when none
// exists, the same rule allowing repeats); colours by TRN-D5's balance
// rule; boards in rank order of their higher-ranked player.
func swissRound(n, r int, previous []Round, halfPoints []int) Round {
	h := newSwissHistory(n, previous)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if halfPoints[a] != halfPoints[b] {
			return halfPoints[b] - halfPoints[a]
		}
		return a - b
	})
	round := Round{Number: r, Bye: -1}
	players := order
	if n%2 == 1 {
		bye := -1
		for _, strict := range []bool{true, false} {
			for k := n - 1; k >= 0 && bye < 0; k-- {
				p := order[k]
				if h.hadBye[p] {
					continue
				}
				rest := slices.Delete(slices.Clone(order), k, k+1)
				if !strict || pairUp(rest, h.met) != nil {
					bye = p
				}
			}
		}
		if bye < 0 {
			bye = order[n-1] // everyone had a bye: the lowest-ranked
		}
		round.Bye = bye
		players = slices.DeleteFunc(slices.Clone(order), func(p int) bool { return p == bye })
	}
	pairs := pairUp(players, h.met)
	if pairs == nil {
		pairs = pairUp(players, nil)
	}
	for i, pr := range pairs {
		hi, lo := pr[0], pr[1]
		black := hi
		switch {
		case h.balance[hi] < h.balance[lo]:
		case h.balance[hi] > h.balance[lo]:
			black = lo
		case h.last[hi] < h.last[lo]:
		case h.last[hi] > h.last[lo]:
			black = lo
		case r%2 == 0:
			black = lo
		}
		white := hi + lo - black
		round.Games = append(round.Games, Pairing{Board: i + 1, Black: black, White: white})
	}
	return round
}

// pairUp pairs the players (in rank order): the first with the first
// after it not met (met nil: repeats allowed), and so on, backtracking;
// nil when no pairing exists. Each pair is (higher-ranked, lower).
func pairUp(players []int, met map[[2]int]bool) [][2]int {
	if len(players) == 0 {
		return [][2]int{}
	}
	p := players[0]
	for k := 1; k < len(players); k++ {
		q := players[k]
		if met[[2]int{p, q}] {
			continue
		}
		rest := make([]int, 0, len(players)-2)
		rest = append(rest, players[1:k]...)
		rest = append(rest, players[k+1:]...)
		if tail := pairUp(rest, met); tail != nil {
			return append([][2]int{{p, q}}, tail...)
		}
	}
	return nil
}

// Board returns the game of round on which participant p (a peer ID)
// plays, or false when p sits out or is not a participant.
func (t *Tournament) Board(round Round, p string) (Pairing, bool) {
	seat := t.Seat(p)
	for _, g := range round.Games {
		if g.Black == seat || g.White == seat {
			return g, true
		}
	}
	return Pairing{}, false
}

// Ref is the tournament reference of a game of round (TRN-D6).
func (t *Tournament) Ref(round Round, g Pairing) *protocol.TournamentRef {
	return &protocol.TournamentRef{ID: t.ID, Round: round.Number, Board: g.Board}
}

// CheckInvitation decides on an invitation that participant me receives
// from peer from while it plays round (TRN-D6): it must name this
// tournament, this round and me's board, come from the black player of
// that board to me as white, with the tournament's options. A
// participant's program declines anything else, so that it plays no game
// but its computed one.
func (t *Tournament) CheckInvitation(round Round, me, from string, ref *protocol.TournamentRef, o engine.Options) error {
	if ref == nil {
		return errors.New("a tournament player plays only its tournament game (TRN-D6): this invitation names no tournament")
	}
	if ref.ID != t.ID || ref.Round != round.Number {
		return fmt.Errorf("this player plays round %d of tournament %s (TRN-D6), not round %d of %s", round.Number, t.ID, ref.Round, ref.ID)
	}
	g, ok := t.Board(round, me)
	if !ok {
		return fmt.Errorf("this player has no game in round %d (TRN-D6)", round.Number)
	}
	if g.Board != ref.Board || t.Participants[g.Black].Peer != from || t.Participants[g.White].Peer != me {
		return fmt.Errorf("round %d's computed pairing is board %d, %s black and %s white; the invitation names board %d from %s (TRN-D6)",
			round.Number, g.Board, t.Participants[g.Black].Peer, t.Participants[g.White].Peer, ref.Board, from)
	}
	if protocol.OptionsToBody(o) != protocol.OptionsToBody(t.GameOptions) {
		return errors.New("the invitation's options are not the tournament's (TRN-D6)")
	}
	return nil
}
