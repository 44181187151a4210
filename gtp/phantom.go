package gtp

import (
	"errors"
	"strconv"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
)

func init() {
	variantHandlers[engine.VariantPhantom] = func() Handler { return &phantomHandler{} }
}

// phantomHandler is Phantom Go seen by the referee: the whole board, every
// try and what each player is told of it (docs/gtp.md, "Phantom Go").
type phantomHandler struct {
	state phantomState
	// undo holds the states before each command that made a try, newest
	// last (GTP-PG-D4).
	undo []phantomState
	// komi is kept here because the referee's options are fixed; it
	// matters for final_score and genmove's bot.
	komi float64
	// level is genmove's bot level (zero: the server's default).
	level bot.Level
}

func (h *phantomHandler) SetLevel(l bot.Level) { h.level = l }

// phantomState is everything undo restores. It is a value: the outcome's
// Captured slice is never written after the try that made it.
type phantomState struct {
	ref engine.PhantomReferee
	// captures counts the stones each colour has captured.
	captures [3]int
	// tries counts the tries that ended a turn (moves and passes); genmove
	// seeds its generator with it.
	tries int
	// last is the outcome of the last try, for kakure-announce; hasLast is
	// false before the first try.
	last    engine.TryOutcome
	hasLast bool
	// views are what each player knows, built from the announcements of
	// every try, for genmove's bot (GTP-PG-D6); viewsLost is set when a
	// view cannot follow the game any more (after play resumed, PG-D5).
	views     [3]engine.PhantomView
	viewsLost bool
}

func (h *phantomHandler) Reset(o engine.Options) error {
	r, err := engine.NewPhantomReferee(o)
	if err != nil {
		return err
	}
	s := phantomState{ref: r}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if s.views[c], err = engine.NewPhantomView(r.Options(), c); err != nil {
			return err
		}
	}
	h.state, h.undo, h.komi = s, nil, r.Options().Komi
	return nil
}

func (h *phantomHandler) SetKomi(k float64) { h.komi = k }

func (h *phantomHandler) size() int { return h.state.ref.Options().Size }

func (h *phantomHandler) Commands() map[string]Command {
	return map[string]Command{
		"play":            h.play,
		"genmove":         h.genmove,
		"undo":            h.undoTry,
		"is_legal":        h.isLegal,
		"all_legal":       h.allLegal,
		"list_stones":     h.listStones,
		"captures":        h.captures,
		"showboard":       func([]string) (string, error) { return showBoard(h.state.ref.Board()), nil },
		"final_score":     h.finalScore,
		"kakure-try":      h.try,
		"kakure-announce": h.announce,
	}
}

// try returns the state after c's try at p, and its outcome. An error is
// for what is no try at all (a point off the board).
func (s phantomState) try(c engine.Color, p engine.Point) (phantomState, engine.TryOutcome, error) {
	next, out, err := s.ref.Try(c, p)
	if err != nil {
		return s, out, err
	}
	s.ref, s.last, s.hasLast = next, out, true
	if !s.viewsLost {
		o := next.Options()
		for _, to := range []engine.Color{engine.Black, engine.White} {
			v, err := s.views[to].Apply(engine.PhantomAnnounce(o.Rules, o.Size, out, to))
			if err != nil {
				s.viewsLost = true
				break
			}
			s.views[to] = v
		}
	}
	if out.Legal {
		s.tries++
		s.captures[c] += len(out.Captured)
	}
	return s, out, nil
}

// turnOf returns the state in which c is to move, as a command by c sees
// it (GTP-PG-D1, GTP-PG-D2): after the end of play, play resumes with c to
// move; otherwise, when the other colour is to move, it passes first.
func (s phantomState) turnOf(c engine.Color) phantomState {
	if !s.ref.PlayEnded() && s.ref.ToMove() != c {
		s, _, _ = s.try(c.Opponent(), engine.Pass) // a pass is always a legal try
	}
	if s.ref.PlayEnded() {
		s.ref, _ = s.ref.Resume(c) // only refused before the end of play
	}
	return s
}

// commit makes next the current state and keeps the old one for undo.
func (h *phantomHandler) commit(next phantomState) {
	h.undo = append(h.undo, h.state)
	h.state = next
}

func (h *phantomHandler) play(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	next, out, err := h.state.turnOf(c).try(c, p)
	if err != nil || !out.Legal {
		return "", errIllegal
	}
	h.commit(next)
	return "", nil
}

// try is kakure-try: the try is made and reported whether it is legal or
// not; an illegal one leaves c to move (PG-2).
func (h *phantomHandler) try(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	next, out, err := h.state.turnOf(c).try(c, p)
	if err != nil {
		return "", err
	}
	h.commit(next)
	if !out.Legal {
		return "illegal reason=" + out.Reason.String(), nil
	}
	return "legal captured=" + engine.FormatVertices(h.size(), out.Captured) +
		" atari-opponent=" + boolToken(out.AtariOpponent) +
		" atari-self=" + boolToken(out.AtariSelf), nil
}

func (h *phantomHandler) announce(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	if !h.state.hasLast {
		return "", errors.New("no try yet")
	}
	a := engine.PhantomAnnounce(h.state.ref.Rules(), h.size(), h.state.last, c)
	return a.KeyValues(), nil
}

func (h *phantomHandler) genmove(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	s := h.state.turnOf(c)
	if s.viewsLost || s.views[c].ToMove() != c {
		p := phantomChooseMove(s, c)
		next, _, err := s.try(c, p)
		if err != nil {
			return "", err
		}
		h.commit(next)
		return p.Vertex(h.size()), nil
	}
	// GTP-PG-D6: the bot tries from c's view until a try is legal; each
	// failed try is announced and seen by its view before the next.
	b := bot.NewPhantomBot(botLevel(h.level), h.komi, phantomViewSeed(s.views[c]))
	for n := 0; ; n++ {
		p := b.ChooseTry(s.views[c])
		if n > s.ref.Options().Size*s.ref.Options().Size || s.viewsLost {
			p = engine.Pass
		}
		next, out, err := s.try(c, p)
		if err != nil {
			return "", err
		}
		s = next
		if out.Legal {
			h.commit(s)
			return p.Vertex(h.size()), nil
		}
	}
}

// phantomViewSeed is the seed of genmove's bot, from c's view only (its
// own stones and the number of announcements it received), so that not
// even the bot's chance depends on the opponent's hidden stones.
func phantomViewSeed(v engine.PhantomView) uint64 {
	b, _ := engine.NewBoard(v.Size())
	for _, p := range v.OwnStones() {
		b.Set(p, v.Me())
	}
	return botSeed(b, len(v.Log()))
}

// phantomLegalPoints returns the points where c's try would be legal in s,
// c being to move there, in increasing order.
func phantomLegalPoints(s phantomState, c engine.Color) []engine.Point {
	b := s.ref.Board()
	var ps []engine.Point
	for i := 0; i < b.Points(); i++ {
		p := engine.Point(i)
		if b.At(p) != engine.Empty {
			continue
		}
		if _, out, err := s.ref.Try(c, p); err == nil && out.Legal {
			ps = append(ps, p)
		}
	}
	return ps
}

// phantomChooseMove picks, with the referee's full information, a uniformly
// random legal point that does not fill one of c's own eyes, or passes:
// genmove's choice once the views are lost (GTP-PG-D6).
func phantomChooseMove(s phantomState, c engine.Color) engine.Point {
	b := s.ref.Board()
	var candidates []engine.Point
	for _, p := range phantomLegalPoints(s, c) {
		if !isOwnEye(b, p, c) {
			candidates = append(candidates, p)
		}
	}
	if len(candidates) == 0 {
		return engine.Pass
	}
	return candidates[moveRNG(b, s.tries).IntN(len(candidates))]
}

func (h *phantomHandler) undoTry(args []string) (string, error) {
	return undoLast(args, &h.state, &h.undo)
}

func (h *phantomHandler) isLegal(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	_, out, err := h.state.turnOf(c).try(c, p)
	return boolToken(err == nil && out.Legal), nil
}

func (h *phantomHandler) allLegal(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	return vertexList(h.size(), phantomLegalPoints(h.state.turnOf(c), c)), nil
}

func (h *phantomHandler) listStones(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	b := h.state.ref.Board()
	return vertexList(h.size(), b.Stones(c)), nil
}

func (h *phantomHandler) captures(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(h.state.captures[c]), nil
}

func (h *phantomHandler) finalScore(args []string) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	return scoreText(engine.AreaScore(h.state.ref.Board(), engine.Marking{}, h.komi)), nil
}

// soleColorArg reads the only argument of a command, a colour.
func soleColorArg(args []string) (engine.Color, error) {
	if err := wantArgs(args, 1); err != nil {
		return engine.Empty, err
	}
	return colorArg(args[0])
}
