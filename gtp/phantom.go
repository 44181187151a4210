package gtp

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantHandlers[engine.VariantPhantom] = func() Handler { return &phantomHandler{} }
	viewReaders[engine.VariantPhantom] = readsView(
		func(k *knownPosition, v protocol.View, vv phantomrules.View) {
			if vv.Revealed {
				// Play in the open (PN-D7): the referee judges a move,
				// and one it finds illegal (a suicide, a ko) is no move
				// at all.
				k.addBoard(vv.Referee.Board())
				k.resuming = vv.Scoring
				k.legal = func(q engine.Point) error { return openMoveError(vv, v.Color, q) }
				return
			}
			me := vv.Own.Me()
			k.add(me, vv.Own.OwnStones()...)
			k.add(me, vv.Own.UncertainStones()...)
			k.add(me.Opponent(), vv.Own.OpponentStones()...)
			// A try that failed in this turn most likely hit a hidden
			// stone: the engine sees one there (GTP-D3).
			if sensible := vv.Own.SensibleTries(); sensible != nil {
				for q := engine.Point(0); int(q) < k.size*k.size; q++ {
					if vv.Own.At(q) == phantom.Unknown && !slices.Contains(sensible, q) {
						k.add(me.Opponent(), q)
					}
				}
			}
		},
		noMoveHistory[phantomrules.View])
}

// phantomHandler is Phantom Go seen by the referee: the whole board, every
// try and what each player is told of it (docs/gtp.md, "Phantom Go"). Undo
// takes back each command that made a try (GTP-PG-D4). The komi is the
// handler's, because the referee's options are fixed; it matters for
// final_score and genmove's bot.
type phantomHandler = handler[phantomState]

// phantomState is everything undo restores. It is a value: the outcome's
// Captured slice is never written after the try that made it.
type phantomState struct {
	ref phantom.Referee
	// captured counts the stones each colour has captured.
	captured [3]int
	// tries counts the tries that ended a turn (moves and passes); genmove
	// seeds its generator with it.
	tries int
	// last is the outcome of the last try, for kakure-announce; hasLast is
	// false before the first try.
	last    phantom.TryOutcome
	hasLast bool
	// views are what each player knows, built from the announcements of
	// every try, for genmove's bot (GTP-PG-D6); viewsLost is set when a
	// view cannot follow the game any more (after play resumed, PG-D5).
	views     [3]phantom.View
	viewsLost bool
}

func (phantomState) reset(o engine.Options) (phantomState, error) {
	r, err := phantom.NewReferee(o)
	if err != nil {
		return phantomState{}, err
	}
	s := phantomState{ref: r}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if s.views[c], err = phantom.NewView(r.Options(), c); err != nil {
			return phantomState{}, err
		}
	}
	return s, nil
}

func (s phantomState) size() int { return s.ref.Options().Size }

func (phantomState) parseColor(arg string) (engine.Color, error) { return goColors(arg) }

// play is c's try at p; an illegal try is an illegal move (use
// kakure-try to make it anyway).
func (s phantomState) play(c engine.Color, p engine.Point) (phantomState, error) {
	next, out, err := s.turnOf(c).try(c, p)
	if err == nil && !out.Legal {
		err = errIllegal
	}
	return next, err
}

func (s phantomState) legal(c engine.Color, p engine.Point) bool {
	_, out, err := s.turnOf(c).try(c, p)
	return err == nil && out.Legal
}

func (s phantomState) legalPoints(c engine.Color) []engine.Point {
	return phantomLegalPoints(s.turnOf(c), c)
}

func (s phantomState) stones(c engine.Color) []engine.Point { b := s.ref.Board(); return b.Stones(c) }

func (s phantomState) captures(c engine.Color) (int, bool) { return s.captured[c], true }

func (s phantomState) showboard() string { return showBoard(s.ref.Board()) }

func (s phantomState) komi() float64 { return s.ref.Options().Komi }

// withKomi: the handler keeps Phantom Go's komi.
func (s phantomState) withKomi(float64) phantomState { return s }

func (phantomState) commands(h handlerOf[phantomState]) map[string]Command {
	return map[string]Command{
		"final_score": func(args []string) (string, error) {
			if err := wantArgs(args, 0); err != nil {
				return "", err
			}
			return scoreText(engine.AreaScore(h.current().ref.Board(), engine.Marking{}, h.scoringKomi())), nil
		},
		"kakure-try":      func(args []string) (string, error) { return phantomTry(h, args) },
		"kakure-announce": func(args []string) (string, error) { return phantomAnnouncement(h, args) },
	}
}

// try returns the state after c's try at p, and its outcome. An error is
// for what is no try at all (a point off the board).
func (s phantomState) try(c engine.Color, p engine.Point) (phantomState, phantom.TryOutcome, error) {
	next, out, err := s.ref.Try(c, p)
	if err != nil {
		return s, out, err
	}
	s.ref, s.last, s.hasLast = next, out, true
	if !s.viewsLost {
		o := next.Options()
		for _, to := range []engine.Color{engine.Black, engine.White} {
			v, err := s.views[to].Apply(phantom.Announce(o.Rules, o.Size, out, to))
			if err != nil {
				s.viewsLost = true
				break
			}
			s.views[to] = v
		}
	}
	if out.Legal {
		s.tries++
		s.captured[c] += len(out.Captured)
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

// try is kakure-try: the try is made and reported whether it is legal or
// not; an illegal one leaves c to move (PG-2).
func phantomTry(h handlerOf[phantomState], args []string) (string, error) {
	c, p, err := h.colorVertex(args)
	if err != nil {
		return "", err
	}
	next, out, err := h.current().turnOf(c).try(c, p)
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

// phantomAnnouncement is kakure-announce COLOR: what COLOR is told of the
// last try.
func phantomAnnouncement(h handlerOf[phantomState], args []string) (string, error) {
	c, err := h.soleColor(args)
	if err != nil {
		return "", err
	}
	if !h.current().hasLast {
		return "", errors.New("no try yet")
	}
	a := phantom.Announce(h.current().ref.Rules(), h.size(), h.current().last, c)
	return a.KeyValues(), nil
}

func (s phantomState) genmove(c engine.Color, level bot.Level, komi float64) (engine.Point, phantomState, error) {
	s = s.turnOf(c)
	if s.viewsLost || s.views[c].ToMove() != c {
		p := phantomChooseMove(s, c)
		next, _, err := s.try(c, p)
		return p, next, err
	}
	// GTP-PG-D6: the bot tries from c's view until a try is legal; each
	// failed try is announced and seen by its view before the next.
	b := bot.NewPhantomBot(botLevel(level), komi, phantomViewSeed(s.views[c]))
	for n := 0; ; n++ {
		p := b.ChooseTry(s.views[c])
		if n > s.ref.Options().Size*s.ref.Options().Size || s.viewsLost {
			p = engine.Pass
		}
		next, out, err := s.try(c, p)
		if err != nil {
			return p, s, err
		}
		s = next
		if out.Legal {
			return p, s, nil
		}
	}
}

// phantomViewSeed is the seed of genmove's bot, from c's view only (its
// own stones and the number of announcements it received), so that not
// even the bot's chance depends on the opponent's hidden stones.
func phantomViewSeed(v phantom.View) uint64 {
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

// openMoveError tells why c may not play q in the open in Phantom Go
// after the boards were revealed (PN-D7), resuming play first in the count
// (GO-4): nil when the referee takes it.
func openMoveError(vv phantomrules.View, c engine.Color, q engine.Point) error {
	ref := vv.Referee
	if vv.Scoring {
		resumed, err := ref.Resume(c)
		if err != nil {
			return err
		}
		ref = resumed
	}
	_, out, err := ref.Try(c, q)
	if err != nil {
		return err
	}
	if !out.Legal {
		return fmt.Errorf("illegal in the open: %v (PG-2)", out.Reason)
	}
	return nil
}
