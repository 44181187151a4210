package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/gtp"
	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/engine/gomoku"
)

// playerUsage is the syntax of a PLAYER in `kakure match`.
const playerUsage = "bot[:LEVEL] (the built-in bot; LEVEL as --level takes it), random (a uniformly random legal player), human (a scripted human, for measuring how a bot ends its games: MATCH-D3) or gtp:COMMAND (a GTP engine, e.g. \"gtp:/usr/games/gnugo --mode gtp --level 1\")"

// matchPlayer is one side of a match, as --black or --white names it: it
// makes a fresh player for each game and keeps the side's numbers.
type matchPlayer struct {
	spec   string
	kind   string // "bot", "random" or "gtp"
	level  bot.Level
	engine *gtp.Client

	mu        sync.Mutex
	decisions []time.Duration
	engines   []*gtp.EnginePlayer
	// passes counts the side's passes in the current game.
	passes int
}

// parseMatchPlayer reads a PLAYER; a gtp player's engine starts here and
// answers protocol_version before the match begins. engineStderr, when
// not nil, receives the engine's standard error (kakure bot's log),
// which then stays out of the errors.
func parseMatchPlayer(spec string, engineStderr io.Writer) (*matchPlayer, error) {
	kind, arg, hasArg := strings.Cut(spec, ":")
	p := &matchPlayer{spec: spec, kind: strings.ToLower(strings.TrimSpace(kind)), level: bot.DefaultLevel}
	switch p.kind {
	case "random", "human":
		if hasArg {
			return nil, usageError("player %q: %s takes no argument", spec, p.kind)
		}
	case "bot":
		if hasArg {
			l, err := bot.ParseLevel(arg)
			if err != nil {
				return nil, usageError("player %q: %v", spec, err)
			}
			p.level = l
		}
	case "gtp":
		if strings.TrimSpace(arg) == "" {
			return nil, usageError("player %q: gtp: needs the engine's command, e.g. gtp:/usr/games/gnugo --mode gtp", spec)
		}
		c, err := gtp.StartClientLogged(arg, engineStderr)
		if err != nil {
			return nil, fmt.Errorf("player %q: %w", spec, err)
		}
		if _, err := c.Send("protocol_version"); err != nil {
			c.Close()
			return nil, fmt.Errorf("player %q: the engine does not answer GTP: %w", spec, err)
		}
		p.engine = c
	default:
		return nil, usageError("player %q: want %s", spec, playerUsage)
	}
	return p, nil
}

// close stops a gtp player's engine.
func (p *matchPlayer) close() {
	if p.engine != nil {
		p.engine.Close()
	}
}

// forGame returns the player of one game. A gtp player leaves every
// decision but its moves to the built-in bot at level 1 (GTP-D2), which
// never resigns for it: resigning is the engine's.
func (p *matchPlayer) forGame(seed uint64) bot.Player {
	p.mu.Lock()
	p.passes = 0
	p.mu.Unlock()
	switch p.kind {
	case "random":
		return bot.NewRandom(seed)
	case "human":
		l := bot.Levels[1]
		l.NoResign = true
		return scriptedHuman{bot.New(l, seed)}
	case "gtp":
		fallback := bot.Levels[1]
		fallback.NoResign = true
		e := gtp.NewEnginePlayer(p.engine, bot.New(fallback, seed))
		p.mu.Lock()
		p.engines = append(p.engines, e)
		p.mu.Unlock()
		return e
	}
	return bot.New(p.level, seed)
}

// timed records the time of each decision that is an action.
func (p *matchPlayer) timed(inner bot.Player) bot.Player {
	return choiceFunc(func(v protocol.View) protocol.Action {
		start := time.Now()
		a := inner.Choose(v)
		if a != nil {
			p.mu.Lock()
			p.decisions = append(p.decisions, time.Since(start))
			if pl, ok := a.(protocol.Play); ok && pl.Point == engine.Pass {
				p.passes++
			}
			p.mu.Unlock()
		}
		return a
	})
}

// summary is the side's time per decision (p50, p95, max) and, for a gtp
// player, how often the engine was asked, how many of its moves were
// played and refused, and the fallback's moves in its place by reason
// (GTP-D2).
func (p *matchPlayer) summary() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := fmt.Sprintf("decisions=%d", len(p.decisions))
	if len(p.decisions) > 0 {
		d := slices.Clone(p.decisions)
		slices.Sort(d)
		pct := func(q float64) time.Duration { return d[int(q*float64(len(d)-1)+0.5)] }
		s += fmt.Sprintf(" p50=%v p95=%v max=%v", round(pct(0.5)), round(pct(0.95)), round(d[len(d)-1]))
	}
	if p.kind == "gtp" {
		var asked, moves, refused, fallbacks int
		reasons := map[string]int{}
		var lastErr error
		for _, e := range p.engines {
			asked += e.Asked
			moves += e.Moves
			for _, n := range e.Refused {
				refused += n
			}
			for r, n := range e.Fallbacks {
				reasons[r] += n
				fallbacks += n
			}
			if e.Err != nil {
				lastErr = e.Err
			}
		}
		s += fmt.Sprintf(" engine-asked=%d engine-moves=%d refused=%d fallback-moves=%d", asked, moves, refused, fallbacks)
		if fallbacks > 0 {
			var parts []string
			for _, r := range slices.Sorted(maps.Keys(reasons)) {
				parts = append(parts, fmt.Sprintf("%s %d", r, reasons[r]))
			}
			s += " (" + strings.Join(parts, ", ") + ")"
		}
		if lastErr != nil {
			s += fmt.Sprintf(" last-engine-error=%q", lastErr.Error())
		}
	}
	return s
}

// round shortens a duration for output.
func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// choiceFunc is a bot.Player made of a function.
type choiceFunc func(protocol.View) protocol.Action

// Choose implements bot.Player.
func (f choiceFunc) Choose(v protocol.View) protocol.Action { return f(v) }

// byColor plays each colour with its own player: a match fixes the
// players' colours, while the game's coin toss gives each peer its colour.
// In gomoku the sides are chosen in the game (GM-2, the pie rule); until
// then the inviter's decision (the opening X) is the X player's and the
// invitee's (which side to take) the O player's. Since the players keep
// their pieces whichever peer ends up with them, that choice changes
// only which peer plays X (MATCH-D1, docs/bots.md).
type byColor map[engine.Color]bot.Player

// colorOf returns the colour whose player makes v's decisions.
func (b byColor) colorOf(v protocol.View) engine.Color {
	c := v.Color
	if gv, ok := v.Variant.(gomokurules.View); ok {
		c = gv.Game.Me()
		if c == engine.Empty {
			c = gomoku.O
			if gv.Game.Seat() == gomoku.Inviter {
				c = gomoku.X
			}
		}
	}
	return c
}

// Choose implements bot.Player.
func (b byColor) Choose(v protocol.View) protocol.Action {
	if p, ok := b[b.colorOf(v)]; ok {
		return p.Choose(v)
	}
	return nil
}

// gamePasses returns the side's passes in the current game.
func (p *matchPlayer) gamePasses() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.passes
}

// scriptedHuman is the player "human" of `kakure match` (MATCH-D3): a
// human who wants the game over, as a measure of how a bot ends its
// games. It passes as soon as the other side has just passed (it agrees
// to stop) and when it judges the board settled as the built-in bot at
// level 1 does (BOT-D6); otherwise it plays that bot's move. It never
// resigns.
type scriptedHuman struct{ bot *bot.Bots }

// Choose implements bot.Player.
func (h scriptedHuman) Choose(v protocol.View) protocol.Action {
	a := h.bot.Choose(v)
	if _, isPlay := a.(protocol.Play); isPlay && opponentJustPassed(v) {
		return protocol.Play{Point: engine.Pass}
	}
	return a
}

// opponentJustPassed reports whether the other side's last move, as v
// shows it, was a pass; false before the game has a view.
func opponentJustPassed(v protocol.View) bool {
	return v.Variant != nil && v.Variant.OpponentJustPassed(v.Color)
}
