package engine

import (
	"errors"
	"fmt"
	"slices"
)

// PhantomKnowledge is what a player knows for certain about one point.
type PhantomKnowledge uint8

// What a player can know about a point.
const (
	// PhantomUnknown: nothing certain; empty or an opponent stone.
	PhantomUnknown PhantomKnowledge = iota
	// PhantomOwn: certainly one of the player's stones.
	PhantomOwn
	// PhantomOwnUncertain: one of the player's stones that may have been
	// captured (hamburg, PG-7): an own stone, or empty, or an opponent stone
	// played after the capture.
	PhantomOwnUncertain
	// PhantomOpponent: certainly an opponent stone.
	PhantomOpponent
	// PhantomOpponentUncertain: an opponent stone the player learnt of,
	// which one of its own captures told by their count only (hamburg,
	// kriegspiel's capturer) may have taken: an opponent stone or empty.
	// PG-7 asks to show this uncertainty rather than hide it.
	PhantomOpponentUncertain
)

// String returns "unknown", "own", "own-uncertain", "opponent" or
// "opponent-uncertain".
func (k PhantomKnowledge) String() string {
	switch k {
	case PhantomUnknown:
		return "unknown"
	case PhantomOwn:
		return "own"
	case PhantomOwnUncertain:
		return "own-uncertain"
	case PhantomOpponent:
		return "opponent"
	case PhantomOpponentUncertain:
		return "opponent-uncertain"
	}
	return fmt.Sprintf("PhantomKnowledge(%d)", uint8(k))
}

// ErrPhantomContradiction reports an announcement that cannot be true given
// what the player already knows: a referee bug or a cheating peer.
var ErrPhantomContradiction = errors.New("engine: phantom announcement contradicts the player's knowledge")

// PhantomView is what one player of Phantom Go knows: its own stones, the
// opponent stones it can be sure of, the announcements it received, whose
// turn it is. It is a value built only from that player's announcements, so
// a program can hold it during play (trust.md T-7). Apply returns the next
// view.
//
// Every fact it claims is sound: an own stone (PhantomOwn) and a known
// opponent stone (PhantomOpponent) are on the referee's board. Under common
// and kriegspiel the own stones are exactly the player's stones on the
// referee's board; under hamburg the player's stones are the PhantomOwn
// points plus some of the PhantomOwnUncertain ones. What is inferred is
// listed in docs/rules/phantom.md (PG-D3).
type PhantomView struct {
	rules  PhantomRules
	size   uint8
	me     Color
	toMove Color
	passes int
	know   [MaxPoints]PhantomKnowledge
	// failed marks the points already tried without success in the
	// current turn of the player; the same try would fail again.
	failed [MaxPoints]bool
	// suspect marks the stones that the opponent's last move, a hamburg
	// capture told by its count only, turned from certain to uncertain. A
	// ko reason in the turn that follows says which one was taken.
	suspect [MaxPoints]bool
	log     *phantomLogEntry
}

// phantomLogEntry is a persistent list of received announcements, newest
// first, so that views sharing a history stay independent.
type phantomLogEntry struct {
	a    PhantomAnnouncement
	prev *phantomLogEntry
	n    int
}

// NewPhantomView returns the view of player me at the start of a game with
// options o: an empty board, Black to move.
func NewPhantomView(o Options, me Color) (PhantomView, error) {
	o, err := normalizePhantomOptions(o)
	if err != nil {
		return PhantomView{}, err
	}
	if me != Black && me != White {
		return PhantomView{}, fmt.Errorf("%w: phantom view for %v", ErrBadOptions, me)
	}
	return PhantomView{rules: o.Rules, size: uint8(o.Size), me: me, toMove: Black}, nil
}

// Me returns the player whose view this is.
func (v PhantomView) Me() Color { return v.me }

// Rules returns the announcement rule set.
func (v PhantomView) Rules() PhantomRules { return v.rules }

// Size returns the board side.
func (v PhantomView) Size() int { return int(v.size) }

// ToMove returns the player whose turn it is.
func (v PhantomView) ToMove() Color { return v.toMove }

// Passes returns the number of consecutive passes that ended the last turns.
func (v PhantomView) Passes() int { return v.passes }

// PlayEnded reports whether two consecutive passes ended play (PG-9).
func (v PhantomView) PlayEnded() bool { return v.passes >= 2 }

// At returns what the player knows about p (PhantomUnknown off the board).
func (v PhantomView) At(p Point) PhantomKnowledge {
	if p < 0 || int(p) >= v.Size()*v.Size() {
		return PhantomUnknown
	}
	return v.know[p]
}

// points returns the points known as k, in increasing order.
func (v PhantomView) points(k PhantomKnowledge) []Point {
	var ps []Point
	for i := 0; i < v.Size()*v.Size(); i++ {
		if v.know[i] == k {
			ps = append(ps, Point(i))
		}
	}
	return ps
}

// OwnStones returns the player's stones that are certainly on the board.
func (v PhantomView) OwnStones() []Point { return v.points(PhantomOwn) }

// UncertainStones returns the player's stones that may have been captured
// (hamburg only; nil under common and kriegspiel).
func (v PhantomView) UncertainStones() []Point { return v.points(PhantomOwnUncertain) }

// OpponentStones returns the opponent stones the player knows for certain.
func (v PhantomView) OpponentStones() []Point { return v.points(PhantomOpponent) }

// UncertainOpponentStones returns the opponent stones the player learnt of
// that its own count-only captures may have taken (hamburg and
// kriegspiel; nil under common).
func (v PhantomView) UncertainOpponentStones() []Point {
	return v.points(PhantomOpponentUncertain)
}

// Log returns the announcements received, oldest first.
func (v PhantomView) Log() []PhantomAnnouncement {
	if v.log == nil {
		return nil
	}
	out := make([]PhantomAnnouncement, v.log.n)
	for e := v.log; e != nil; e = e.prev {
		a := e.a
		a.Captured = slices.Clone(a.Captured)
		out[e.n-1] = a
	}
	return out
}

// SensibleTries returns, in increasing order, the points where a try by the
// player could be legal as far as the player knows: not an own stone, not a
// known opponent stone (an opponent stone that may have been captured is
// listed), and not already tried without success in this turn.
// A pass, always legal, is not listed. It is nil when it is not the player's
// turn.
func (v PhantomView) SensibleTries() []Point {
	if v.toMove != v.me || v.PlayEnded() {
		return nil
	}
	var ps []Point
	for i := 0; i < v.Size()*v.Size(); i++ {
		if k := v.know[i]; (k == PhantomUnknown || k == PhantomOwnUncertain || k == PhantomOpponentUncertain) && !v.failed[i] {
			ps = append(ps, Point(i))
		}
	}
	return ps
}

// Apply returns the view after the player received announcement a: the
// result of its own try or the news of the opponent's. An announcement for
// another player, another rule set or board, out of turn, malformed
// (ErrBadAnnouncement) or contradicting what the player knows
// (ErrPhantomContradiction) is an error, and the receiver is returned.
func (v PhantomView) Apply(a PhantomAnnouncement) (PhantomView, error) {
	if err := a.Validate(); err != nil {
		return v, err
	}
	switch {
	case a.To != v.me:
		return v, fmt.Errorf("%w: announcement for %v in the view of %v", ErrBadAnnouncement, a.To, v.me)
	case a.Rules != v.rules || a.Size != v.Size():
		return v, fmt.Errorf("%w: announcement for %s on %d×%d in a %s game on %d×%d", ErrBadAnnouncement, a.Rules, a.Size, a.Size, v.rules, v.size, v.size)
	case v.PlayEnded():
		return v, fmt.Errorf("phantom view: %w", ErrGameOver)
	case a.Mover != v.toMove:
		return v, fmt.Errorf("phantom view: announcement of a try by %v while %v is to move: %w", a.Mover, v.toMove, ErrNotYourTurn)
	}
	next := v
	var err error
	switch {
	case a.Event == PhantomPassed:
		next.endTurn(true)
	case a.Event == PhantomIllegal && a.Mover == v.me:
		err = next.applyOwnIllegal(a)
	case a.Event == PhantomIllegal:
		// The opponent's illegal tries say nothing certain about a point:
		// the point is never told (PG-D3).
	case a.Mover == v.me:
		err = next.applyOwnMove(a)
		next.endTurn(false)
	default:
		err = next.applyOpponentMove(a)
		next.endTurn(false)
	}
	if err != nil {
		return v, err
	}
	stored := a
	stored.Captured = slices.Clone(a.Captured)
	n := 1
	if v.log != nil {
		n = v.log.n + 1
	}
	next.log = &phantomLogEntry{a: stored, prev: v.log, n: n}
	return next, nil
}

// endTurn passes the turn and forgets the failed tries.
func (v *PhantomView) endTurn(pass bool) {
	if pass {
		v.passes++
	} else {
		v.passes = 0
	}
	v.toMove = v.toMove.Opponent()
	v.failed = [MaxPoints]bool{}
	if v.toMove != v.me {
		v.suspect = [MaxPoints]bool{}
	}
}

func (v *PhantomView) contradiction(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrPhantomContradiction, fmt.Sprintf(format, args...))
}

// applyOwnIllegal learns from the reason of the player's own illegal try at
// a.Point (PG-D1, PG-D3).
func (v *PhantomView) applyOwnIllegal(a PhantomAnnouncement) error {
	p, size := a.Point, v.Size()
	v.failed[p] = true
	switch a.Reason {
	case TryOccupiedOwn:
		if v.know[p] != PhantomOwn && v.know[p] != PhantomOwnUncertain {
			return v.contradiction("%s is no stone of %v", p.Vertex(size), v.me)
		}
		v.know[p] = PhantomOwn
	case TryOccupiedOpponent:
		if v.know[p] == PhantomOwn {
			return v.contradiction("%s holds a stone of %v", p.Vertex(size), v.me)
		}
		v.know[p] = PhantomOpponent
	case TrySuicide:
		// p is empty and every neighbour is occupied: a neighbour that is
		// no stone of the player is an opponent stone.
		if v.know[p] == PhantomOwn || v.know[p] == PhantomOpponent {
			return v.contradiction("suicide on the occupied point %s", p.Vertex(size))
		}
		v.know[p] = PhantomUnknown
		ns, n := v.neighbors(p)
		for _, q := range ns[:n] {
			if k := v.know[q]; k == PhantomUnknown || k == PhantomOpponentUncertain {
				v.know[q] = PhantomOpponent
			}
		}
	case TryKo:
		// The opponent's last move captured exactly one of the player's
		// stones, at p, with a single stone: p is empty and all its
		// neighbours are opponent stones.
		if v.know[p] == PhantomOwn || v.know[p] == PhantomOpponent {
			return v.contradiction("ko on the occupied point %s", p.Vertex(size))
		}
		ns, n := v.neighbors(p)
		for _, q := range ns[:n] {
			if v.know[q] == PhantomOwn {
				return v.contradiction("ko at %s next to the stone %s of %v", p.Vertex(size), q.Vertex(size), v.me)
			}
		}
		v.know[p] = PhantomUnknown
		for _, q := range ns[:n] {
			v.know[q] = PhantomOpponent
		}
		// The stone at p was the only one that move took: the others it
		// made uncertain are certain again.
		for i := range v.suspect {
			if v.suspect[i] && Point(i) != p && v.know[i] == PhantomOwnUncertain {
				v.know[i] = PhantomOwn
			}
		}
		v.suspect = [MaxPoints]bool{}
	}
	return nil
}

// applyOwnMove records the player's stone at a.Point and what it captured.
func (v *PhantomView) applyOwnMove(a PhantomAnnouncement) error {
	p, size := a.Point, v.Size()
	if k := v.know[p]; k == PhantomOwn || k == PhantomOpponent {
		return v.contradiction("a move on %s, known as %v", p.Vertex(size), k)
	}
	v.know[p] = PhantomOwn
	if a.Captures == 0 {
		return nil
	}
	if a.Captured != nil {
		for _, q := range a.Captured {
			if v.know[q] == PhantomOwn {
				return v.contradiction("%v captured its own stone %s", v.me, q.Vertex(size))
			}
			if k := v.know[q]; k == PhantomOpponent || k == PhantomOpponentUncertain {
				v.know[q] = PhantomUnknown
			}
		}
		return nil
	}
	// Only the count is known: any known opponent stone that the captured
	// chains could have reached, through points that are not certainly the
	// player's, may be gone. It stays on the player's board as uncertain
	// (PG-7: show the uncertainty, do not hide it).
	var seen [MaxPoints]bool
	var stack [MaxPoints]Point
	top := 0
	seen[p] = true
	ns, n := v.neighbors(p)
	for _, q := range ns[:n] {
		if v.know[q] != PhantomOwn && !seen[q] {
			seen[q] = true
			stack[top] = q
			top++
		}
	}
	for top > 0 {
		top--
		q := stack[top]
		if v.know[q] == PhantomOpponent {
			v.know[q] = PhantomOpponentUncertain
		}
		ms, m := v.neighbors(q)
		for _, r := range ms[:m] {
			if v.know[r] != PhantomOwn && !seen[r] {
				seen[r] = true
				stack[top] = r
				top++
			}
		}
	}
	return nil
}

// applyOpponentMove removes the player's captured stones and learns the
// opponent stones that surrounded them.
func (v *PhantomView) applyOpponentMove(a PhantomAnnouncement) error {
	v.suspect = [MaxPoints]bool{}
	if a.Captures == 0 {
		return nil
	}
	size := v.Size()
	if a.Captured != nil {
		var gone [MaxPoints]bool
		for _, q := range a.Captured {
			if k := v.know[q]; k != PhantomOwn && k != PhantomOwnUncertain {
				return v.contradiction("captured %s is no stone of %v", q.Vertex(size), v.me)
			}
			gone[q] = true
		}
		return v.removeCaptured(a.Captured, &gone)
	}
	// hamburg: only the count n. A stone x can have been in a captured
	// chain only if its smallest possible chain — x with the certain stones
	// connected to it through certain stones — has at most n stones.
	captured := a.Captures
	var comp [MaxPoints]int16 // 1 + index of x's certain component
	var compSize []int
	for i := 0; i < size*size; i++ {
		if v.know[i] != PhantomOwn || comp[i] != 0 {
			continue
		}
		id := int16(len(compSize) + 1)
		count := 0
		stack := []Point{Point(i)}
		comp[i] = id
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			count++
			ms, m := v.neighbors(q)
			for _, r := range ms[:m] {
				if v.know[r] == PhantomOwn && comp[r] == 0 {
					comp[r] = id
					stack = append(stack, r)
				}
			}
		}
		compSize = append(compSize, count)
	}
	var candidates []Point
	for i := 0; i < size*size; i++ {
		x := Point(i)
		smallest := 0
		switch v.know[x] {
		case PhantomOwn:
			smallest = compSize[comp[x]-1]
		case PhantomOwnUncertain:
			smallest = 1
			var counted [4]int16
			ms, m := v.neighbors(x)
			for j, r := range ms[:m] {
				if id := comp[r]; id != 0 && !slices.Contains(counted[:j], id) {
					counted[j] = id
					smallest += compSize[id-1]
				}
			}
		default:
			continue
		}
		if smallest <= captured {
			candidates = append(candidates, x)
		}
	}
	switch {
	case len(candidates) < captured:
		return v.contradiction("%d stones of %v captured, but at most %d could be", captured, v.me, len(candidates))
	case len(candidates) == captured:
		// Every candidate was captured, so they were all there.
		var gone [MaxPoints]bool
		for _, x := range candidates {
			gone[x] = true
		}
		return v.removeCaptured(candidates, &gone)
	}
	for _, x := range candidates {
		if v.know[x] == PhantomOwn {
			v.suspect[x] = true
		}
		v.know[x] = PhantomOwnUncertain
	}
	return nil
}

// removeCaptured empties the captured stones and marks their other
// neighbours as opponent stones: a captured chain had no liberty, and a
// stone of the player next to it would have been in it.
func (v *PhantomView) removeCaptured(captured []Point, gone *[MaxPoints]bool) error {
	for _, q := range captured {
		v.know[q] = PhantomUnknown
	}
	for _, q := range captured {
		ns, n := v.neighbors(q)
		for _, r := range ns[:n] {
			if gone[r] {
				continue
			}
			if v.know[r] == PhantomOwn {
				return v.contradiction("captured %s touches %s, a stone of %v that was not captured", q.Vertex(v.Size()), r.Vertex(v.Size()), v.me)
			}
			v.know[r] = PhantomOpponent
		}
	}
	return nil
}

// neighbors returns the orthogonal neighbours of p, as Board.Neighbors.
func (v *PhantomView) neighbors(p Point) (ns [4]Point, n int) {
	size := int(v.size)
	x, y := int(p)%size, int(p)/size
	if y > 0 {
		ns[n] = p - Point(size)
		n++
	}
	if x > 0 {
		ns[n] = p - 1
		n++
	}
	if x < size-1 {
		ns[n] = p + 1
		n++
	}
	if y < size-1 {
		ns[n] = p + Point(size)
		n++
	}
	return ns, n
}
