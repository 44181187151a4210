package hmg

import (
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
)

// MaxCards is the largest number of hidden moves a player may commit to
// in Hidden Move Go (HMG-1).
const MaxCards = 9

// Reasons a Hidden Move Go card or reveal is refused, besides engine's
// shared ones (engine.ErrOccupied for a reveal onto the revealer's own
// stone, engine.ErrSuicide, engine.ErrSuperko, engine.ErrOffBoard,
// engine.ErrNotYourTurn, engine.ErrWrongPhase).
var (
	// ErrNoSuchCard reports a card index outside the player's cards.
	ErrNoSuchCard = errors.New("engine: no such card")
	// ErrCardRevealed reports a card that was already revealed (HMG-3).
	ErrCardRevealed = errors.New("engine: card already revealed")
	// ErrCardMismatch reports a point that is not the one the card holds.
	ErrCardMismatch = errors.New("engine: point differs from the card's commitment")
	// ErrRevealNotLastStone reports a reveal onto an opponent stone that is
	// not the opponent's last stone (HMG-3 case 1).
	ErrRevealNotLastStone = errors.New("engine: the opponent's stone there is not their last stone")
	// ErrRevealAfterReveal reports a reveal onto the opponent's last stone
	// after an earlier reveal in the same turn (HMG-3 case 2).
	ErrRevealAfterReveal = errors.New("engine: a reveal onto the opponent's last stone must come before any other reveal of the turn")
)

// Card is one hidden move (HMG-1) as the holder of a [Game] knows
// it. Point is the committed point, or NoPoint while it is unknown (an
// opponent's card in a peer's game, until it is revealed or opened).
// Revealed tells whether the card has been played onto the board; a
// revealed card always has its Point.
type Card struct {
	Point    engine.Point
	Revealed bool
}

// Action is one action of a Hidden Move Go turn (HMG-2): a reveal of
// Color's card number Card (0-based) at Point, or, when Reveal is false, a
// regular move at Point (a point or Pass).
type Action struct {
	Color  engine.Color
	Reveal bool
	Card   int
	Point  engine.Point
}

// Format writes the action for logs and test messages, with GTP vertices
// for a board of side size and the card as its 0-based index:
// "black play D4", "white pass", "black reveal 2 C3".
func (a Action) Format(size int) string {
	switch {
	case a.Reveal:
		return fmt.Sprintf("%s reveal %d %s", a.Color, a.Card, a.Point.Vertex(size))
	case a.Point == engine.Pass:
		return a.Color.String() + " pass"
	}
	return fmt.Sprintf("%s play %s", a.Color, a.Point.Vertex(size))
}

// ActionResult is what an action did to the board.
type ActionResult struct {
	// Captured lists the opponent stones the new stone captured.
	Captured []engine.Point
	// Undo is true when a reveal was onto the opponent's last stone and
	// undid that move (HMG-5).
	Undo bool
	// Restored lists the revealer's stones that the undone move had
	// captured and that came back (HMG-5).
	Restored []engine.Point
	// TurnEnded is true when the action ended the turn: a regular move, or
	// a reveal that undid a move.
	TurnEnded bool
}

// hand holds the cards of one player. A fixed array keeps Game a
// plain value: copying the game copies the cards.
type hand struct {
	n     int
	cards [MaxCards]Card
}

// lastMove remembers the regular move that ended the previous turn with
// a stone, enough to undo it by HMG-5. color is Empty when the previous
// turn left no last stone (HMG-4).
type lastMove struct {
	color engine.Color
	point engine.Point
	// before is the board just before the move (after that turn's reveals).
	before engine.Board
	// captured lists the stones the move captured. It is never written
	// after the move, so game values may share it.
	captured []engine.Point
	// history is the superko history before the move's turn was added.
	history *engine.PositionHistory
}

// Game is a game of Hidden Move Go under Clifford's rules (HMG-1..HMG-8)
// as one participant knows it: the public board, the player to move, both
// players' cards (points known or not) and the end-of-turn positions for
// superko. The same value serves a full-information referee (GTP, records)
// and a peer that knows only its own card points. It is a value; every
// action returns the next game and leaves the receiver as it was.
type Game struct {
	opts    engine.Options
	board   engine.Board
	toMove  engine.Color
	started bool
	hands   [3]hand
	// reveals counts the reveals made so far in the current turn.
	reveals     int
	turns       int
	plainPasses int
	captured    [3]int
	history     *engine.PositionHistory
	last        lastMove
}

// NewGame starts a game of Hidden Move Go. An empty variant means hmg;
// any other variant is refused. Each player starts with Options.Cards
// cards whose points are unknown (HMG-D1); [Game.SetCards] makes a
// player's points known before the first action.
func NewGame(o engine.Options) (Game, error) {
	if o.Variant == "" {
		o.Variant = engine.VariantHMG
	}
	if o.Variant != engine.VariantHMG {
		return Game{}, fmt.Errorf("%w: variant %q is not hmg", engine.ErrBadOptions, o.Variant)
	}
	o, err := o.Normalize()
	if err != nil {
		return Game{}, err
	}
	b := engine.MustNewBoard(o.Size)
	g := Game{opts: o, board: b, toMove: engine.Black, history: (*engine.PositionHistory)(nil).Push(b)}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		g.hands[c].n = o.Cards
		for i := range g.hands[c].cards {
			g.hands[c].cards[i] = Card{Point: engine.NoPoint}
		}
	}
	return g, nil
}

// Options returns the game's options, defaults filled in.
func (g Game) Options() engine.Options { return g.opts }

// WithKomi returns the game with another komi (GTP's komi command may
// change it between moves; it only matters when counting).
func (g Game) WithKomi(k float64) Game {
	g.opts.Komi, g.opts.KomiSet = k, true
	return g
}

// Board returns the public position.
func (g Game) Board() engine.Board { return g.board }

// ToMove returns the player whose turn it is.
func (g Game) ToMove() engine.Color { return g.toMove }

// Turns returns the number of completed turns.
func (g Game) Turns() int { return g.turns }

// RevealsThisTurn returns how many cards the player to move has revealed
// in the current turn.
func (g Game) RevealsThisTurn() int { return g.reveals }

// Passes returns the number of consecutive turns, up to now, that were
// plain passes (a pass with no reveal).
func (g Game) Passes() int { return g.plainPasses }

// PlayEnded reports whether two consecutive plain passes ended play
// (HMG-7). Play may still resume (GO-4, HMG-D8).
func (g Game) PlayEnded() bool { return g.plainPasses >= 2 }

// Captures returns how many stones c has captured and still holds: an
// undo (HMG-5) gives back the stones of the undone move.
func (g Game) Captures(c engine.Color) int {
	if c != engine.Black && c != engine.White {
		return 0
	}
	return g.captured[c]
}

// LastStone returns c's last stone in the sense of HMG-4 — the stone c's
// regular move placed in the turn just before the current one — or NoPoint
// when there is none: it is not c's opponent's turn, c's turn ended in a
// pass or an undo, or the stone has since been captured. A stone that came
// from a card is never a last stone.
func (g Game) LastStone(c engine.Color) engine.Point {
	if c == engine.Empty || g.last.color != c || g.board.At(g.last.point) != c {
		return engine.NoPoint
	}
	return g.last.point
}

// Cards returns c's cards, as known to this game, in commitment order.
func (g Game) Cards(c engine.Color) []Card {
	if c != engine.Black && c != engine.White {
		return nil
	}
	h := g.hands[c]
	return append([]Card(nil), h.cards[:h.n]...)
}

// CardsKnown reports whether every card point of c is known.
func (g Game) CardsKnown(c engine.Color) bool {
	for _, card := range g.Cards(c) {
		if card.Point == engine.NoPoint {
			return false
		}
	}
	return true
}

// UnusedCards returns how many of c's cards are not revealed; at the end
// each gives c's opponent one point (HMG-7).
func (g Game) UnusedCards(c engine.Color) int {
	n := 0
	for _, card := range g.Cards(c) {
		if !card.Revealed {
			n++
		}
	}
	return n
}

// checkCardList checks that points are c's commitment: one point of the
// board per card of the game (HMG-1; repeats are allowed).
func (g Game) checkCardList(what string, c engine.Color, points []engine.Point) error {
	if c != engine.Black && c != engine.White {
		return fmt.Errorf("engine: %s: %v is not a player", what, c)
	}
	if len(points) != g.opts.Cards {
		return fmt.Errorf("%s %s: %d cards given, the game has %d per player: %w", what, c, len(points), g.opts.Cards, engine.ErrBadOptions)
	}
	for i, p := range points {
		if !g.board.OnBoard(p) {
			return fmt.Errorf("%s %s: card index %d: %w", what, c, i, engine.ErrOffBoard)
		}
	}
	return nil
}

// SetCards makes c's committed points known: one point of the board per
// card, repeats allowed (HMG-1). It is allowed only before the first action
// of the game (ErrWrongPhase after); it may be called again before then to
// replace the points. A peer calls it for its own cards only.
func (g Game) SetCards(c engine.Color, points []engine.Point) (Game, error) {
	if g.started {
		return g, fmt.Errorf("set cards %s: the game has started (HMG-1): %w", c, engine.ErrWrongPhase)
	}
	if err := g.checkCardList("set cards", c, points); err != nil {
		return g, err
	}
	for i, p := range points {
		g.hands[c].cards[i] = Card{Point: p}
	}
	return g, nil
}

// OpenCards records the points of all of c's cards as they are opened,
// typically the opponent's unused cards at the end (HMG-7), after the
// caller has checked them against their commitments. Every point already
// known (set or revealed) must agree, or ErrCardMismatch is returned and
// nothing changes. It is allowed at any moment and changes no rule state.
func (g Game) OpenCards(c engine.Color, points []engine.Point) (Game, error) {
	if err := g.checkCardList("open cards", c, points); err != nil {
		return g, err
	}
	for i, p := range points {
		if known := g.hands[c].cards[i].Point; known != engine.NoPoint && known != p {
			return g, fmt.Errorf("open cards %s: card index %d at %s, known at %s: %w",
				c, i, p.Vertex(g.board.Size()), known.Vertex(g.board.Size()), ErrCardMismatch)
		}
	}
	for i, p := range points {
		g.hands[c].cards[i].Point = p
	}
	return g, nil
}

// CheckCardPoint reports whether c's card number index (0-based) may be
// revealed at p as far as the card itself goes: the card exists, is not
// revealed yet, p is on the board, and p is the card's point when that is
// known. A peer that has checked the commitment of an opponent's card
// whose point it did not know learns nothing more from it; a
// full-information caller learns whether p is the card's point. The board
// rules of a reveal are checked by [Game.Reveal].
func (g Game) CheckCardPoint(c engine.Color, index int, p engine.Point) error {
	if c != engine.Black && c != engine.White {
		return fmt.Errorf("engine: reveal: %v is not a player", c)
	}
	h := &g.hands[c]
	if index < 0 || index >= h.n {
		return fmt.Errorf("reveal %s card index %d (has %d cards): %w", c, index, h.n, ErrNoSuchCard)
	}
	card := h.cards[index]
	if card.Revealed {
		return fmt.Errorf("reveal %s card index %d: %w", c, index, ErrCardRevealed)
	}
	if !g.board.OnBoard(p) {
		if p == engine.NoPoint && card.Point == engine.NoPoint {
			return fmt.Errorf("reveal %s card index %d: no point given, and the card's point is unknown: %w", c, index, engine.ErrOffBoard)
		}
		return fmt.Errorf("reveal %s card index %d: %w: %d", c, index, engine.ErrOffBoard, p)
	}
	if card.Point != engine.NoPoint && card.Point != p {
		return fmt.Errorf("reveal %s card index %d at %s, committed to %s: %w",
			c, index, p.Vertex(g.board.Size()), card.Point.Vertex(g.board.Size()), ErrCardMismatch)
	}
	return nil
}

// checkToMove refuses an action by a non-player or out of turn (HMG-D3).
func (g Game) checkToMove(c engine.Color, what string) error {
	if c != engine.Black && c != engine.White {
		return fmt.Errorf("engine: %s: %v is not a player", what, c)
	}
	if c != g.toMove {
		return fmt.Errorf("%s %s: %s to move: %w", what, c, g.toMove, engine.ErrNotYourTurn)
	}
	return nil
}

// endTurn passes the turn to the opponent of the player to move, with the
// given last move (its color Empty for none).
func (g Game) endTurn(last lastMove) Game {
	g.started = true
	g.toMove = g.toMove.Opponent()
	g.reveals = 0
	g.turns++
	g.last = last
	return g
}

// Reveal plays c's card number index (0-based) at p (HMG-2, HMG-3). p is
// the card's point: a full-information caller passes the card's known
// point, a peer the point the opponent opened (after checking the
// commitment). A reveal onto an empty point places the stone with its
// captures and the turn goes on; a reveal onto the opponent's last stone
// undoes that move and ends the turn (HMG-5). An illegal reveal returns the
// receiver unchanged and an error wrapping ErrNotYourTurn, ErrNoSuchCard,
// ErrCardRevealed, ErrCardMismatch, ErrOffBoard, ErrOccupied (own stone),
// ErrRevealNotLastStone, ErrRevealAfterReveal, ErrSuicide or ErrSuperko.
func (g Game) Reveal(c engine.Color, index int, p engine.Point) (Game, ActionResult, error) {
	if err := g.checkToMove(c, "reveal"); err != nil {
		return g, ActionResult{}, err
	}
	if err := g.CheckCardPoint(c, index, p); err != nil {
		return g, ActionResult{}, err
	}
	v := p.Vertex(g.board.Size())
	opp := c.Opponent()
	switch g.board.At(p) {
	case c:
		return g, ActionResult{}, fmt.Errorf("reveal %s card index %d at %s: own stone there: %w", c, index, v, engine.ErrOccupied)
	case opp:
		if g.LastStone(opp) != p {
			return g, ActionResult{}, fmt.Errorf("reveal %s card index %d at %s: %w", c, index, v, ErrRevealNotLastStone)
		}
		if g.reveals > 0 {
			return g, ActionResult{}, fmt.Errorf("reveal %s card index %d at %s: %w", c, index, v, ErrRevealAfterReveal)
		}
		return g.revealUndo(c, index, p)
	}
	next, res := g.board.Place(p, c)
	if res.Suicide {
		return g, ActionResult{}, fmt.Errorf("reveal %s card index %d at %s: %w", c, index, v, engine.ErrSuicide)
	}
	// HMG-6 lets a reveal pass through an earlier position, but the turn
	// must still be able to end on a new one (HMG-D5).
	if g.history.Contains(next) && !g.hasFreshPlay(next, c) {
		return g, ActionResult{}, fmt.Errorf("reveal %s card index %d at %s: the position repeats and no move would end the turn on a new one: %w",
			c, index, v, engine.ErrSuperko)
	}
	g.board = next
	g.hands[c].cards[index] = Card{Point: p, Revealed: true}
	g.captured[c] += len(res.Captured)
	g.reveals++
	g.started = true
	return g, ActionResult{Captured: res.Captured}, nil
}

// revealUndo is the reveal of c's card at p onto the opponent's last stone
// (HMG-5): the board goes back to just before that move, the stones it
// captured come back, c's stone is placed with its own captures and c's
// turn ends. The undone turn's end position leaves the superko history and
// the position before the move takes its place (HMG-D6).
func (g Game) revealUndo(c engine.Color, index int, p engine.Point) (Game, ActionResult, error) {
	v := p.Vertex(g.board.Size())
	undone := g.last
	next, res := undone.before.Place(p, c)
	if res.Suicide {
		return g, ActionResult{}, fmt.Errorf("reveal %s card index %d at %s (undo): %w", c, index, v, engine.ErrSuicide)
	}
	history := undone.history.Push(undone.before)
	if history.Contains(next) {
		return g, ActionResult{}, fmt.Errorf("reveal %s card index %d at %s (undo): %w", c, index, v, engine.ErrSuperko)
	}
	g.board = next
	g.history = history.Push(next)
	g.hands[c].cards[index] = Card{Point: p, Revealed: true}
	g.captured[undone.color] -= len(undone.captured)
	g.captured[c] += len(res.Captured)
	g.plainPasses = 0
	g = g.endTurn(lastMove{})
	restored := append([]engine.Point(nil), undone.captured...)
	return g, ActionResult{Captured: res.Captured, Undo: true, Restored: restored, TurnEnded: true}, nil
}

// hasFreshPlay reports whether c has a play on b whose position is not in
// the superko history.
func (g Game) hasFreshPlay(b engine.Board, c engine.Color) bool {
	found := false
	g.eachFreshPlay(b, c, func(engine.Point) bool {
		found = true
		return false
	})
	return found
}

// eachFreshPlay calls yield with every point, in increasing order, where c
// may play on b: empty, no suicide, and a position not in the superko
// history. It stops when yield returns false. The hashes of the positions
// are updated from b's rather than recomputed, as bots call this often.
func (g Game) eachFreshPlay(b engine.Board, c engine.Color, yield func(engine.Point) bool) {
	base := b.Hash()
	opp := c.Opponent()
	for i := 0; i < b.Points(); i++ {
		p := engine.Point(i)
		if b.At(p) != engine.Empty {
			continue
		}
		next, res := b.Place(p, c)
		if res.Suicide {
			continue
		}
		h := base ^ engine.StoneKey(p, c)
		for _, q := range res.Captured {
			h ^= engine.StoneKey(q, opp)
		}
		if g.history.ContainsHashed(next, h) {
			continue
		}
		if !yield(p) {
			return
		}
	}
}

// Play makes c's regular move, a point or Pass, and ends c's turn (HMG-2).
// A pass after reveals in the same turn is refused with ErrSuperko when the
// position repeats an earlier end of turn (HMG-6, HMG-D5); a pass with no
// reveal is always legal. An illegal move returns the receiver unchanged
// and an error wrapping ErrNotYourTurn, ErrOffBoard, ErrOccupied,
// ErrSuicide or ErrSuperko. The result lists the stones captured.
func (g Game) Play(c engine.Color, p engine.Point) (Game, []engine.Point, error) {
	if err := g.checkToMove(c, "play"); err != nil {
		return g, nil, err
	}
	if p == engine.Pass {
		if g.reveals == 0 {
			g.plainPasses++
			return g.endTurn(lastMove{}), nil, nil
		}
		if g.history.Contains(g.board) {
			return g, nil, fmt.Errorf("play %s pass after %d reveals: the position repeats an earlier one, play a stone: %w", c, g.reveals, engine.ErrSuperko)
		}
		g.history = g.history.Push(g.board)
		g.plainPasses = 0
		return g.endTurn(lastMove{}), nil, nil
	}
	if !g.board.OnBoard(p) {
		return g, nil, fmt.Errorf("play %s: %w: %d", c, engine.ErrOffBoard, p)
	}
	v := p.Vertex(g.board.Size())
	next, res := g.board.Place(p, c)
	switch {
	case res.Occupied:
		return g, nil, fmt.Errorf("play %s %s: %w", c, v, engine.ErrOccupied)
	case res.Suicide:
		return g, nil, fmt.Errorf("play %s %s: %w", c, v, engine.ErrSuicide)
	}
	if g.history.Contains(next) {
		return g, nil, fmt.Errorf("play %s %s: %w", c, v, engine.ErrSuperko)
	}
	// The undo data keeps its own copy: the caller owns res.Captured.
	last := lastMove{color: c, point: p, before: g.board, captured: append([]engine.Point(nil), res.Captured...), history: g.history}
	g.board = next
	g.history = g.history.Push(next)
	g.captured[c] += len(res.Captured)
	g.plainPasses = 0
	return g.endTurn(last), res.Captured, nil
}

// Apply performs a: a reveal by [Game.Reveal] or a regular move by
// [Game.Play]. It is the form records and bots use.
func (g Game) Apply(a Action) (Game, ActionResult, error) {
	if a.Reveal {
		return g.Reveal(a.Color, a.Card, a.Point)
	}
	next, captured, err := g.Play(a.Color, a.Point)
	if err != nil {
		return g, ActionResult{}, err
	}
	return next, ActionResult{Captured: captured, TurnEnded: true}, nil
}

// CheckReveal returns nil if c may reveal card index at p now, or the
// reason it may not.
func (g Game) CheckReveal(c engine.Color, index int, p engine.Point) error {
	_, _, err := g.Reveal(c, index, p)
	return err
}

// CheckPlay returns nil if c may make the regular move p (a point or Pass)
// now, or the reason it may not.
func (g Game) CheckPlay(c engine.Color, p engine.Point) error {
	_, _, err := g.Play(c, p)
	return err
}

// LegalPoints returns every point c may play now as its regular move, in
// increasing order; nil when it is not c's turn. Pass is not listed (see
// [Game.CanPass]).
func (g Game) LegalPoints(c engine.Color) []engine.Point {
	if c != g.toMove || c == engine.Empty {
		return nil
	}
	var ps []engine.Point
	g.eachFreshPlay(g.board, c, func(p engine.Point) bool {
		ps = append(ps, p)
		return true
	})
	return ps
}

// CanPass reports whether c may pass now: always on c's turn before any
// reveal, and after reveals when the position is new (HMG-6).
func (g Game) CanPass(c engine.Color) bool {
	return c == g.toMove && c != engine.Empty && (g.reveals == 0 || !g.history.Contains(g.board))
}

// RevealableCards returns the indexes of c's cards that c may reveal now,
// among those whose points this game knows, in increasing order. Cards
// holding the same point are interchangeable; only the first unrevealed
// one of each point is listed.
func (g Game) RevealableCards(c engine.Color) []int {
	if c != g.toMove || c == engine.Empty {
		return nil
	}
	var idx []int
	var seen [engine.MaxPoints]bool
	for i, card := range g.Cards(c) {
		if card.Revealed || card.Point == engine.NoPoint || seen[card.Point] {
			continue
		}
		seen[card.Point] = true
		if g.CheckReveal(c, i, card.Point) == nil {
			idx = append(idx, i)
		}
	}
	return idx
}

// LegalActions returns every action c may take now, as far as this game
// knows c's cards: the reveals of [Game.RevealableCards], then the plays
// of [Game.LegalPoints], then the pass if [Game.CanPass]. It is empty
// when it is not c's turn; on c's turn it is never empty (HMG-D5).
func (g Game) LegalActions(c engine.Color) []Action {
	var as []Action
	for _, i := range g.RevealableCards(c) {
		as = append(as, Action{Color: c, Reveal: true, Card: i, Point: g.hands[c].cards[i].Point})
	}
	for _, p := range g.LegalPoints(c) {
		as = append(as, Action{Color: c, Point: p})
	}
	if g.CanPass(c) {
		as = append(as, Action{Color: c, Point: engine.Pass})
	}
	return as
}

// Score counts the game by area with the given dead stones (GO-5) and adds
// Clifford's passing stones (HMG-7): each unused card of a player gives the
// opponent one point. The stones and territory fields are the board's
// alone; Black and White include the passing stones, and so does the
// [engine.Score.Result].
func (g Game) Score(dead engine.Marking) engine.Score {
	s := engine.AreaScore(g.board, dead, g.opts.Komi)
	s.Black += float64(g.UnusedCards(engine.White))
	s.White += float64(g.UnusedCards(engine.Black))
	return s
}
