package phantom

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/engine"
)

// Knowledge is what a player knows for certain about one point.
type Knowledge uint8

// What a player can know about a point.
const (
	// Unknown: nothing certain; empty or an opponent stone.
	Unknown Knowledge = iota
	// Own: certainly one of the player's stones.
	Own
	// OwnUncertain: one of the player's stones that may have been
	// captured (hamburg, PG-7): an own stone, or empty, or an opponent stone
	// played after the capture.
	OwnUncertain
	// Opponent: certainly an opponent stone.
	Opponent
	// OpponentUncertain: an opponent stone the player learnt of,
	// which one of its own captures told by their count only (hamburg,
	// kriegspiel's capturer) may have taken: an opponent stone or empty.
	// PG-7 asks to show this uncertainty rather than hide it.
	OpponentUncertain
)

// String returns "unknown", "own", "own-uncertain", "opponent" or
// "opponent-uncertain".
func (k Knowledge) String() string {
	switch k {
	case Unknown:
		return "unknown"
	case Own:
		return "own"
	case OwnUncertain:
		return "own-uncertain"
	case Opponent:
		return "opponent"
	case OpponentUncertain:
		return "opponent-uncertain"
	}
	return fmt.Sprintf("PhantomKnowledge(%d)", uint8(k))
}

// ErrContradiction reports an announcement that cannot be true given
// what the player already knows: a referee bug or a cheating peer.
var ErrContradiction = errors.New("engine: phantom announcement contradicts the player's knowledge")

// View is what one player of Phantom Go knows: its own stones, the
// opponent stones it can be sure of, the announcements it received, whose
// turn it is. It is a value built only from that player's announcements, so
// a program can hold it during play (trust.md T-7). Apply returns the next
// view.
//
// Every fact it claims is sound: an own stone (Own) and a known
// opponent stone (Opponent) are on the referee's board. Under common
// and kriegspiel the own stones are exactly the player's stones on the
// referee's board; under hamburg the player's stones are the Own
// points plus some of the OwnUncertain ones. What is inferred is
// listed in docs/rules/phantom.md (PG-D3).
type View struct {
	rules  engine.PhantomRules
	size   uint8
	me     engine.Color
	toMove engine.Color
	passes int
	know   [engine.MaxPoints]Knowledge
	// failed marks the points already tried without success in the
	// current turn of the player; the same try would fail again.
	failed [engine.MaxPoints]bool
	// suspect marks the stones that the opponent's last move, a hamburg
	// capture told by its count only, turned from certain to uncertain. A
	// ko reason in the turn that follows says which one was taken.
	suspect [engine.MaxPoints]bool
	log     *logEntry
}

// logEntry is a persistent list of received announcements, newest
// first, so that views sharing a history stay independent.
type logEntry struct {
	a    Announcement
	prev *logEntry
	n    int
}

// NewView returns the view of player me at the start of a game with
// options o: an empty board, Black to move.
func NewView(o engine.Options, me engine.Color) (View, error) {
	o, err := normalizeOptions(o)
	if err != nil {
		return View{}, err
	}
	if me != engine.Black && me != engine.White {
		return View{}, fmt.Errorf("%w: phantom view for %v", engine.ErrBadOptions, me)
	}
	return View{rules: o.Rules, size: uint8(o.Size), me: me, toMove: engine.Black}, nil
}

// Me returns the player whose view this is.
func (v View) Me() engine.Color { return v.me }

// Rules returns the announcement rule set.
func (v View) Rules() engine.PhantomRules { return v.rules }

// Size returns the board side.
func (v View) Size() int { return int(v.size) }

// ToMove returns the player whose turn it is.
func (v View) ToMove() engine.Color { return v.toMove }

// Passes returns the number of consecutive passes that ended the last turns.
func (v View) Passes() int { return v.passes }

// PlayEnded reports whether two consecutive passes ended play (PG-9).
func (v View) PlayEnded() bool { return v.passes >= 2 }

// At returns what the player knows about p (Unknown off the board).
func (v View) At(p engine.Point) Knowledge {
	if p < 0 || int(p) >= v.Size()*v.Size() {
		return Unknown
	}
	return v.know[p]
}

// points returns the points known as k, in increasing order.
func (v View) points(k Knowledge) []engine.Point {
	var ps []engine.Point
	for i := 0; i < v.Size()*v.Size(); i++ {
		if v.know[i] == k {
			ps = append(ps, engine.Point(i))
		}
	}
	return ps
}

// OwnStones returns the player's stones that are certainly on the board.
func (v View) OwnStones() []engine.Point { return v.points(Own) }

// UncertainStones returns the player's stones that may have been captured
// (hamburg only; nil under common and kriegspiel).
func (v View) UncertainStones() []engine.Point { return v.points(OwnUncertain) }

// OpponentStones returns the opponent stones the player knows for certain.
func (v View) OpponentStones() []engine.Point { return v.points(Opponent) }

// UncertainOpponentStones returns the opponent stones the player learnt of
// that its own count-only captures may have taken (hamburg and
// kriegspiel; nil under common).
func (v View) UncertainOpponentStones() []engine.Point {
	return v.points(OpponentUncertain)
}

// Log returns the announcements received, oldest first.
func (v View) Log() []Announcement {
	if v.log == nil {
		return nil
	}
	out := make([]Announcement, v.log.n)
	for e := v.log; e != nil; e = e.prev {
		a := e.a
		a.Captured = slices.Clone(a.Captured)
		out[e.n-1] = a
	}
	return out
}

// LogMark marks a view's log as it stands (View.LogMark), so that a
// later view of the same game can give only what was announced since
// (View.LogSince). The zero LogMark marks an empty log.
type LogMark struct{ e *logEntry }

// LogMark returns the mark of v's log as it stands.
func (v View) LogMark() LogMark { return LogMark{v.log} }

// LogSince returns the announcements v's log holds after those marked
// by m, oldest first, when v's log is the marked log with announcements
// added (a view that Apply made from the marked one, or from one made
// from it); ok is false otherwise (another game's or player's view, one
// built again, an earlier one), and the caller then takes Log.
func (v View) LogSince(m LogMark) (added []Announcement, ok bool) {
	n := 0
	if m.e != nil {
		n = m.e.n
	}
	e := v.log
	for e != nil && e.n > n {
		e = e.prev
	}
	if e != m.e {
		return nil, false
	}
	if v.log == nil || v.log.n == n {
		return nil, true
	}
	added = make([]Announcement, v.log.n-n)
	for e := v.log; e != m.e; e = e.prev {
		a := e.a
		a.Captured = slices.Clone(a.Captured)
		added[e.n-n-1] = a
	}
	return added, true
}

// SensibleTries returns, in increasing order, the points where a try by the
// player could be legal as far as the player knows: not an own stone, not a
// known opponent stone (an opponent stone that may have been captured is
// listed), and not already tried without success in this turn.
// A pass, always legal, is not listed. It is nil when it is not the player's
// turn.
func (v View) SensibleTries() []engine.Point {
	if v.toMove != v.me || v.PlayEnded() {
		return nil
	}
	var ps []engine.Point
	for i := 0; i < v.Size()*v.Size(); i++ {
		if k := v.know[i]; (k == Unknown || k == OwnUncertain || k == OpponentUncertain) && !v.failed[i] {
			ps = append(ps, engine.Point(i))
		}
	}
	return ps
}

// Apply returns the view after the player received announcement a: the
// result of its own try or the news of the opponent's. An announcement for
// another player, another rule set or board, out of turn, malformed
// (ErrBadAnnouncement) or contradicting what the player knows
// (ErrContradiction) is an error, and the receiver is returned.
func (v View) Apply(a Announcement) (View, error) {
	if err := a.Validate(); err != nil {
		return v, err
	}
	switch {
	case a.To != v.me:
		return v, fmt.Errorf("%w: announcement for %v in the view of %v", ErrBadAnnouncement, a.To, v.me)
	case a.Rules != v.rules || a.Size != v.Size():
		return v, fmt.Errorf("%w: announcement for %s on %d×%d in a %s game on %d×%d", ErrBadAnnouncement, a.Rules, a.Size, a.Size, v.rules, v.size, v.size)
	case v.PlayEnded():
		return v, fmt.Errorf("phantom view: %w", engine.ErrGameOver)
	case a.Mover != v.toMove:
		return v, fmt.Errorf("phantom view: announcement of a try by %v while %v is to move: %w", a.Mover, v.toMove, engine.ErrNotYourTurn)
	}
	next := v
	var err error
	switch {
	case a.Event == Passed:
		next.endTurn(true)
	case a.Event == Illegal && a.Mover == v.me:
		err = next.applyOwnIllegal(a)
	case a.Event == Illegal:
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
	next.log = &logEntry{a: stored, prev: v.log, n: n}
	return next, nil
}

// endTurn passes the turn and forgets the failed tries.
func (v *View) endTurn(pass bool) {
	if pass {
		v.passes++
	} else {
		v.passes = 0
	}
	v.toMove = v.toMove.Opponent()
	v.failed = [engine.MaxPoints]bool{}
	if v.toMove != v.me {
		v.suspect = [engine.MaxPoints]bool{}
	}
}

func (v *View) contradiction(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrContradiction, fmt.Sprintf(format, args...))
}

// applyOwnIllegal learns from the reason of the player's own illegal try at
// a.Point (PG-D1, PG-D3).
func (v *View) applyOwnIllegal(a Announcement) error {
	p, size := a.Point, v.Size()
	v.failed[p] = true
	switch a.Reason {
	case TryOccupiedOwn:
		if v.know[p] != Own && v.know[p] != OwnUncertain {
			return v.contradiction("%s is no stone of %v", p.Vertex(size), v.me)
		}
		v.know[p] = Own
	case TryOccupiedOpponent:
		if v.know[p] == Own {
			return v.contradiction("%s holds a stone of %v", p.Vertex(size), v.me)
		}
		v.know[p] = Opponent
	case TrySuicide:
		// p is empty and every neighbour is occupied: a neighbour that is
		// no stone of the player is an opponent stone.
		if v.know[p] == Own || v.know[p] == Opponent {
			return v.contradiction("suicide on the occupied point %s", p.Vertex(size))
		}
		v.know[p] = Unknown
		ns, n := v.neighbors(p)
		for _, q := range ns[:n] {
			if k := v.know[q]; k == Unknown || k == OpponentUncertain {
				v.know[q] = Opponent
			}
		}
	case TryKo:
		// The opponent's last move captured exactly one of the player's
		// stones, at p, with a single stone: p is empty and all its
		// neighbours are opponent stones.
		if v.know[p] == Own || v.know[p] == Opponent {
			return v.contradiction("ko on the occupied point %s", p.Vertex(size))
		}
		ns, n := v.neighbors(p)
		for _, q := range ns[:n] {
			if v.know[q] == Own {
				return v.contradiction("ko at %s next to the stone %s of %v", p.Vertex(size), q.Vertex(size), v.me)
			}
		}
		v.know[p] = Unknown
		for _, q := range ns[:n] {
			v.know[q] = Opponent
		}
		// The stone at p was the only one that move took: the others it
		// made uncertain are certain again.
		for i := range v.suspect {
			if v.suspect[i] && engine.Point(i) != p && v.know[i] == OwnUncertain {
				v.know[i] = Own
			}
		}
		v.suspect = [engine.MaxPoints]bool{}
	}
	return nil
}

// applyOwnMove records the player's stone at a.Point and what it captured.
func (v *View) applyOwnMove(a Announcement) error {
	p, size := a.Point, v.Size()
	if k := v.know[p]; k == Own || k == Opponent {
		return v.contradiction("a move on %s, known as %v", p.Vertex(size), k)
	}
	v.know[p] = Own
	if a.Captures == 0 {
		return nil
	}
	if a.Captured != nil {
		for _, q := range a.Captured {
			if v.know[q] == Own {
				return v.contradiction("%v captured its own stone %s", v.me, q.Vertex(size))
			}
			if k := v.know[q]; k == Opponent || k == OpponentUncertain {
				v.know[q] = Unknown
			}
		}
		return nil
	}
	// Only the count is known: any known opponent stone that the captured
	// chains could have reached, through points that are not certainly the
	// player's, may be gone. It stays on the player's board as uncertain
	// (PG-7: show the uncertainty, do not hide it).
	var seen [engine.MaxPoints]bool
	var stack [engine.MaxPoints]engine.Point
	top := 0
	seen[p] = true
	ns, n := v.neighbors(p)
	for _, q := range ns[:n] {
		if v.know[q] != Own && !seen[q] {
			seen[q] = true
			stack[top] = q
			top++
		}
	}
	for top > 0 {
		top--
		q := stack[top]
		if v.know[q] == Opponent {
			v.know[q] = OpponentUncertain
		}
		ms, m := v.neighbors(q)
		for _, r := range ms[:m] {
			if v.know[r] != Own && !seen[r] {
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
func (v *View) applyOpponentMove(a Announcement) error {
	v.suspect = [engine.MaxPoints]bool{}
	if a.Captures == 0 {
		return nil
	}
	size := v.Size()
	if a.Captured != nil {
		var gone [engine.MaxPoints]bool
		for _, q := range a.Captured {
			if k := v.know[q]; k != Own && k != OwnUncertain {
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
	var comp [engine.MaxPoints]int16 // 1 + index of x's certain component
	var compSize []int
	for i := 0; i < size*size; i++ {
		if v.know[i] != Own || comp[i] != 0 {
			continue
		}
		id := int16(len(compSize) + 1)
		count := 0
		stack := []engine.Point{engine.Point(i)}
		comp[i] = id
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			count++
			ms, m := v.neighbors(q)
			for _, r := range ms[:m] {
				if v.know[r] == Own && comp[r] == 0 {
					comp[r] = id
					stack = append(stack, r)
				}
			}
		}
		compSize = append(compSize, count)
	}
	var candidates []engine.Point
	for i := 0; i < size*size; i++ {
		x := engine.Point(i)
		smallest := 0
		switch v.know[x] {
		case Own:
			smallest = compSize[comp[x]-1]
		case OwnUncertain:
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
		var gone [engine.MaxPoints]bool
		for _, x := range candidates {
			gone[x] = true
		}
		return v.removeCaptured(candidates, &gone)
	}
	for _, x := range candidates {
		if v.know[x] == Own {
			v.suspect[x] = true
		}
		v.know[x] = OwnUncertain
	}
	return nil
}

// removeCaptured empties the captured stones and marks their other
// neighbours as opponent stones: a captured chain had no liberty, and a
// stone of the player next to it would have been in it.
func (v *View) removeCaptured(captured []engine.Point, gone *[engine.MaxPoints]bool) error {
	for _, q := range captured {
		v.know[q] = Unknown
	}
	for _, q := range captured {
		ns, n := v.neighbors(q)
		for _, r := range ns[:n] {
			if gone[r] {
				continue
			}
			if v.know[r] == Own {
				return v.contradiction("captured %s touches %s, a stone of %v that was not captured", q.Vertex(v.Size()), r.Vertex(v.Size()), v.me)
			}
			v.know[r] = Opponent
		}
	}
	return nil
}

// neighbors returns the orthogonal neighbours of p, as Board.Neighbors.
func (v *View) neighbors(p engine.Point) (ns [4]engine.Point, n int) {
	size := int(v.size)
	x, y := int(p)%size, int(p)/size
	if y > 0 {
		ns[n] = p - engine.Point(size)
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
		ns[n] = p + engine.Point(size)
		n++
	}
	return ns, n
}
