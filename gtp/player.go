package gtp

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/protocol"
)

// EnginePlayer is a [bot.Player] that asks a GTP engine (GNU Go, say) for
// its moves, on what its side knows (GTP-D1, docs/gtp.md). In the
// public-board variants (plain Go, Bridge Go, F-Go) it gives the engine
// the game's moves, one play each, so that the engine knows the ko and
// superko state, as long as Go's rules replay the game (moveHistory);
// otherwise, and in the hidden variants, it sets up the engine's board
// with one play per known stone. In Phantom Go the known stones are its
// own and the opponent stones its announcements revealed; in Hidden Move
// Go the public board and its own unrevealed card stones; in gomoku its
// own pieces and the opponent's revealed ones. It sends only what changed
// since the engine's last answer when the engine's board is a prefix of
// the new one, and starts afresh (boardsize, clear_board, komi) otherwise.
//
// Every decision that is not a move (cards, reveals, the dead-stone
// agreement, gomoku's lines and answers) is the fallback player's; so is
// a move when the engine fails or answers a move kakure refuses: a point
// that is not empty on the known board, a move the variant's rules do not
// allow (a ko or superko recapture, say), or again the move that just
// failed (GTP-D2). With ResignOnError an engine that fails resigns
// instead (GTP-D6).
type EnginePlayer struct {
	client   *Client
	fallback bot.Player

	// noHistory, for tests only (export_test.go), sets the engine's
	// board up from the known stones in every variant, as if it had no
	// history.
	noHistory bool

	// ResignOnError makes an engine error resign the game instead of
	// letting the fallback move (GTP-D6): an engine that exits, answers a
	// failure to a command that sets up its board or to genmove, answers
	// genmove with something that is not a vertex, or does not answer in
	// time. Err says why.
	ResignOnError bool

	// MoveTimeout bounds the engine's genmove in a game without a clock
	// (0: the client's Timeout). In a game with a clock the engine has
	// its player's time left and MoveTimeout more (GTP-D7): the clock ends
	// the game first.
	MoveTimeout time.Duration

	// Context, when not nil, stops the engine's command under way when
	// it ends (the game has ended), killing the engine.
	Context context.Context

	// Asked counts the moves asked of the engine (genmove), Moves the
	// engine's moves played; Refused counts the engine's answers kakure
	// refused, by reason ("occupied", "illegal", "failed before", "no
	// pass here"), and Fallbacks the moves the fallback made in the
	// engine's place, by reason (the refusals, "engine error", and "not
	// asked" after the bound of two moves per point). Err is the engine's
	// last error.
	Asked     int
	Moves     int
	Refused   map[string]int
	Fallbacks map[string]int
	Err       error

	lastKey  string
	lastMove engine.Point
	history  moveHistory
	// sent are the commands that made the engine's board, since its last
	// boardsize (nil: unknown).
	sent []string
	// clock are the clock commands for the next genmove (GTP-D4), and
	// timeLeft the time until the player's flag falls then (timed false:
	// no clock).
	clock    []string
	timeLeft time.Duration
	timed    bool
}

// NewEnginePlayer returns a player that asks the engine behind c, with
// fallback for everything else.
func NewEnginePlayer(c *Client, fallback bot.Player) *EnginePlayer {
	return &EnginePlayer{client: c, fallback: fallback, lastMove: engine.NoPoint, Refused: map[string]int{}, Fallbacks: map[string]int{}}
}

// knownPosition is what a player knows of the board: the stones of each
// colour on it.
type knownPosition struct {
	size   int
	komi   float64
	me     engine.Color
	stones [2][]engine.Point // by colour: Black, White
	// legal checks a move against the variant's rules where the view
	// can (nil in Phantom Go, where an illegal try is a move too).
	legal func(engine.Point) error
	// public tells a public-board variant, whose history the engine may
	// be given.
	public bool
	// resuming tells a move in the dead-stone agreement: it resumes play,
	// which a pass may not (GO-4, GTP-D9).
	resuming bool
}

func (k *knownPosition) add(c engine.Color, ps ...engine.Point) {
	if c == engine.Black || c == engine.White {
		k.stones[c-engine.Black] = append(k.stones[c-engine.Black], ps...)
	}
}

func (k *knownPosition) addBoard(b engine.Board) {
	k.add(engine.Black, b.Stones(engine.Black)...)
	k.add(engine.White, b.Stones(engine.White)...)
}

// occupied reports whether p holds a known stone.
func (k *knownPosition) occupied(p engine.Point) bool {
	for _, ps := range k.stones {
		for _, q := range ps {
			if q == p {
				return true
			}
		}
	}
	return false
}

// key identifies the position, to tell a move that failed (the position
// did not change) from a new one.
func (k *knownPosition) key() string {
	return fmt.Sprint(k.stones)
}

// viewReader is how the engine player reads one variant's protocol view:
// known fills in what the player knows of the board (GTP-D3), history
// brings the move history up to the view (GTP-D1). Each variant's file
// registers its reader in [viewReaders] beside its handler;
// TestEveryVariantHasAHandler names a variant without one.
type viewReader struct {
	known   func(k *knownPosition, v protocol.View)
	history func(h *moveHistory, v protocol.View) (board engine.Board, held bool)
}

// viewReaders holds every variant's viewReader.
var viewReaders = map[engine.Variant]viewReader{}

// readsView makes the viewReader of a variant whose protocol view is a
// V: known fills in k from the view, history brings h up to it and
// returns the view's board, or held false when the history cannot hold
// the game ([noMoveHistory]).
func readsView[V protocol.VariantView](known func(k *knownPosition, v protocol.View, vv V), history func(h *moveHistory, me engine.Color, vv V) (board engine.Board, held bool)) viewReader {
	view := func(v protocol.View) V {
		vv, ok := v.Variant.(V)
		if !ok {
			panic(fmt.Sprintf("gtp: variant %q shows a view of type %T", v.Options.Variant, v.Variant))
		}
		return vv
	}
	return viewReader{
		known:   func(k *knownPosition, v protocol.View) { known(k, v, view(v)) },
		history: func(h *moveHistory, v protocol.View) (engine.Board, bool) { return history(h, v.Color, view(v)) },
	}
}

// viewReaderOf returns the viewReader of v's variant. It panics, naming
// the variant, for a variant that has none: a new variant must register
// one.
func viewReaderOf(v protocol.View) viewReader {
	r, ok := viewReaders[v.Options.Variant]
	if !ok {
		panic(fmt.Sprintf("gtp: the engine player cannot read the view of variant %q", v.Options.Variant))
	}
	return r
}

// knownPositionOf reads the known stones from a view; ok is false before
// the game has a view.
func knownPositionOf(v protocol.View) (knownPosition, bool) {
	if v.Variant == nil {
		return knownPosition{}, false // no game view yet
	}
	k := knownPosition{size: v.Options.Size, komi: v.Options.Komi, me: v.Color}
	viewReaderOf(v).known(&k, v)
	return k, true
}

// Choose implements bot.Player.
func (p *EnginePlayer) Choose(v protocol.View) protocol.Action {
	a := p.fallback.Choose(v)
	var move func(engine.Point) protocol.Action
	passAllowed := true
	switch a.(type) {
	case protocol.Play:
		move = func(q engine.Point) protocol.Action { return protocol.Play{Point: q} }
	case gomokurules.Place:
		move = func(q engine.Point) protocol.Action { return gomokurules.Place{Point: q} }
		passAllowed = false
	default:
		return a
	}
	k, ok := knownPositionOf(v)
	if !ok {
		return a
	}
	if k.resuming {
		// A move in the count resumes play: with a stone, never a pass
		// (GO-4); the fallback gave one (BOT-D4), which an engine's pass
		// leaves in place (GTP-D9).
		passAllowed = false
	}
	var plays []string
	if k.public && !p.noHistory && p.history.observe(v) {
		for _, m := range p.history.moves {
			plays = append(plays, "play "+m.color.String()+" "+m.point.Vertex(k.size))
		}
	} else {
		for i, c := range []engine.Color{engine.Black, engine.White} {
			for _, q := range k.stones[i] {
				plays = append(plays, "play "+c.String()+" "+q.Vertex(k.size))
			}
		}
	}
	p.clock, p.timeLeft, p.timed = p.clockCommands(v)
	chosen := p.choose(k, plays, passAllowed, a)
	if chosen == nil {
		return protocol.Resign{}
	}
	p.history.pending = *chosen
	return move(*chosen)
}

// choose asks the engine for k.me's move on the board that plays make
// and returns it, or the fallback's move a (a Play or a gomokurules.Place) with
// the reason counted; nil means the engine resigned (or, with
// ResignOnError, failed).
func (p *EnginePlayer) choose(k knownPosition, plays []string, passAllowed bool, a protocol.Action) *engine.Point {
	fallbackPoint := engine.Pass
	switch fa := a.(type) {
	case protocol.Play:
		fallbackPoint = fa.Point
	case gomokurules.Place:
		fallbackPoint = fa.Point
	}
	fallback := func(reason string) *engine.Point {
		p.Fallbacks[reason]++
		return &fallbackPoint
	}
	// A bound on the engine's moves, so that a game ends even if the
	// engine never passes: two per point, then the fallback's choices.
	if p.Asked >= 2*k.size*k.size {
		return fallback("not asked")
	}
	p.Asked++
	q, resign, err := p.genmove(k, plays)
	refused := ""
	switch {
	case err != nil:
		p.Err = err
		if p.ResignOnError {
			return nil
		}
		return fallback("engine error")
	case resign:
		p.Moves++
		return nil
	case q == engine.Pass && !passAllowed:
		refused = "no pass here" // gomoku, the count: the fallback's point
	case q != engine.Pass && k.occupied(q):
		refused = "occupied"
	case k.legal != nil && k.legal(q) != nil:
		refused = "illegal" // a ko or superko recapture, say
	case q != engine.Pass && q == p.lastMove && k.key() == p.lastKey:
		// The same move in the same position: it failed (an illegal
		// move the view cannot explain), so it must not be asked
		// again. A pass never fails, and the position a pass leaves
		// may well be the same at the next turn.
		refused = "failed before"
	default:
		p.lastKey, p.lastMove = k.key(), q
		p.Moves++
		return &q
	}
	p.Refused[refused]++
	// The engine played its move on its board: the next position is set
	// up afresh.
	p.sent = nil
	return fallback(refused)
}

// genmove brings the engine's board to k's size and komi and the plays,
// and asks for a move of k.me. It returns resign true when the engine
// resigns.
func (p *EnginePlayer) genmove(k knownPosition, plays []string) (engine.Point, bool, error) {
	want := append([]string{"boardsize " + strconv.Itoa(k.size), "clear_board", "komi " + strconv.FormatFloat(k.komi, 'f', -1, 64)}, plays...)
	from := 0
	if p.sent != nil && len(p.sent) <= len(want) && slices.Equal(p.sent, want[:len(p.sent)]) {
		from = len(p.sent)
	}
	p.sent = nil
	ctx := p.Context
	if ctx == nil {
		ctx = context.Background()
	}
	for i, cmd := range want[from:] {
		if _, err := p.client.SendContext(ctx, cmd); err != nil {
			// A stone the engine refuses (it would not fit its rules) is
			// left out: the engine still answers for the rest.
			if _, refused := err.(*CommandError); !refused || from+i < 3 {
				return engine.NoPoint, false, err
			}
		}
	}
	for _, cmd := range p.clock {
		// An engine without clock commands plays without them.
		if _, err := p.client.SendContext(ctx, cmd); err != nil {
			if _, refused := err.(*CommandError); !refused {
				return engine.NoPoint, false, err
			}
		}
	}
	// The bound of the engine's thinking (GTP-D7).
	bound := p.MoveTimeout
	if p.timed {
		bound = max(p.timeLeft, 0) + p.MoveTimeout
	}
	if bound > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, bound)
		defer cancel()
	}
	answer, err := p.client.SendContext(ctx, "genmove "+k.me.String())
	if err != nil {
		return engine.NoPoint, false, err
	}
	answer = strings.TrimSpace(answer)
	if strings.EqualFold(answer, "resign") {
		return engine.NoPoint, true, nil
	}
	q, err := engine.ParseVertex(k.size, answer)
	if err != nil {
		return engine.NoPoint, false, fmt.Errorf("%w: genmove answered %q: %v", ErrEngine, answer, err)
	}
	// The engine's board now has its move played.
	p.sent = append(want, "play "+k.me.String()+" "+q.Vertex(k.size))
	return q, false, nil
}

// clockCommands returns the clock commands an engine gets before its
// genmove in a game with a time control (GTP-D4): the time settings
// (kgs-time_settings, which names byo-yomi; time_settings for absolute
// and Canadian time, which every GTP engine knows), then time_left with
// the seconds the engine's player has now, the running clock counted.
// It returns the time until the player's flag falls too (the periods or
// the block after the main time counted); timed is false without a clock.
func (p *EnginePlayer) clockCommands(v protocol.View) (cmds []string, untilFlag time.Duration, timed bool) {
	c := v.Clock
	if c == nil || (v.Color != engine.Black && v.Color != engine.White) {
		return nil, 0, false
	}
	ctl := c.Control
	secs := func(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }
	var settings string
	switch ctl.Kind {
	case clock.Absolute:
		settings = "time_settings " + secs(ctl.Main) + " 0 0"
	case clock.Canadian:
		settings = "time_settings " + secs(ctl.Main) + " " + secs(ctl.Period) + " " + strconv.Itoa(ctl.Stones)
	case clock.Japanese:
		settings = "kgs-time_settings byoyomi " + secs(ctl.Main) + " " + secs(ctl.Period) + " " + strconv.Itoa(ctl.Periods)
	case clock.Fischer:
		// GTP has no increment: the engine is told the main time as
		// absolute time, the increment given back with each time_left.
		settings = "time_settings " + secs(ctl.Main) + " 0 0"
	default:
		return nil, 0, false
	}
	// The settings go before every time_left: a clear_board may have
	// reset them in some engines.
	cmds = []string{settings}
	st := c.Clocks[v.Role]
	elapsed := time.Duration(0)
	if !c.Stopped && c.Runs[v.Role] && !c.Since.IsZero() {
		elapsed = time.Since(c.Since)
	}
	elapsed += c.Used[v.Role] // Phantom Go: the move's illegal tries (CLK-D16)
	left, stones := st.Main-elapsed, 0
	switch {
	case ctl.Kind == clock.Japanese && st.Main-elapsed <= 0:
		left, stones = ctl.Period, st.Periods
	case ctl.Kind == clock.Canadian && st.Overtime:
		left, stones = st.Block-elapsed, st.Stones
	case ctl.Kind == clock.Canadian && left <= 0:
		left, stones = ctl.Period, ctl.Stones
	}
	cmds = append(cmds, "time_left "+v.Color.String()+" "+secs(max(left, 0))+" "+strconv.Itoa(stones))
	return cmds, ctl.Left(st) - elapsed, true
}
