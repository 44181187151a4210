package gtp

import (
	"strconv"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
)

// gtpState is the small per-variant part of a GTP handler: a variant's
// game state, a value that undo restores, and how it answers the commands
// every variant shares (docs/gtp.md, "Commands"). The generic [handler]
// does the rest: it reads the colour and the vertex, keeps the undo
// stack, the komi and genmove's level, and writes the answers.
type gtpState[S any] interface {
	// reset returns the state of a new game with options o (called on
	// the zero state).
	reset(o engine.Options) (S, error)
	// size is the board's side.
	size() int
	// parseColor reads a colour argument: the GTP colours, or gomoku's
	// x and o too.
	parseColor(arg string) (engine.Color, error)
	// play returns the state after c's move at p; an error is an illegal
	// move.
	play(c engine.Color, p engine.Point) (S, error)
	// genmove chooses c's move with the bot of the level, plays it, and
	// returns it and the state after it.
	genmove(c engine.Color, level bot.Level, komi float64) (engine.Point, S, error)
	// legal reports whether play would accept c's move at p.
	legal(c engine.Color, p engine.Point) bool
	// legalPoints are the points all_legal lists for c.
	legalPoints(c engine.Color) []engine.Point
	// stones are the points of c's stones (or pieces), for list_stones.
	stones(c engine.Color) []engine.Point
	// captures is the number of stones c captured; false for a variant
	// that has no captures command.
	captures(c engine.Color) (int, bool)
	// showboard draws the board.
	showboard() string
	// komi is the state's komi; withKomi returns the state with komi k
	// where the state keeps its komi (the others read the handler's).
	komi() float64
	withKomi(k float64) S
	// commands are the variant's own commands (final_score, the kakure
	// extensions), over its handler h; they read h.current() when they
	// run, not when they are listed.
	commands(h handlerOf[S]) map[string]Command
}

// handlerOf is what a variant's own commands use of their handler.
type handlerOf[S any] interface {
	// current is the game now.
	current() S
	// commit makes next the game and keeps the old one for undo;
	// replace makes next the game without an undo step.
	commit(next S)
	replace(next S)
	// size is the board's side.
	size() int
	// scoringKomi is the komi of GTP's komi command, or the options'.
	scoringKomi() float64
	// soleColor and colorVertex read a colour, or a colour and a
	// vertex, as the shared commands do.
	soleColor(args []string) (engine.Color, error)
	colorVertex(args []string) (engine.Color, engine.Point, error)
}

// handler is the GTP handler of every variant: the commands every variant
// shares, over the variant's state S, and the variant's own.
type handler[S gtpState[S]] struct {
	state S
	// undo holds the states before each command that changed the game,
	// newest last.
	undo []S
	// komi is the komi of GTP's komi command, or the options' (it only
	// matters for scoring and genmove's bots).
	komi float64
	// level is genmove's bot level (zero: the server's default).
	level bot.Level
}

// Reset implements Handler.
func (h *handler[S]) Reset(o engine.Options) error {
	var zero S
	s, err := zero.reset(o)
	if err != nil {
		return err
	}
	h.state, h.undo, h.komi = s, nil, s.komi()
	return nil
}

// SetKomi implements KomiSetter.
func (h *handler[S]) SetKomi(k float64) { h.komi, h.state = k, h.state.withKomi(k) }

// SetLevel implements LevelSetter.
func (h *handler[S]) SetLevel(l bot.Level) { h.level = l }

func (h *handler[S]) size() int { return h.state.size() }

func (h *handler[S]) current() S { return h.state }

func (h *handler[S]) commit(next S) {
	h.undo = append(h.undo, h.state)
	h.state = next
}

func (h *handler[S]) replace(next S) { h.state = next }

func (h *handler[S]) scoringKomi() float64 { return h.komi }

// Commands implements Handler.
func (h *handler[S]) Commands() map[string]Command {
	cmds := map[string]Command{
		"play":        h.play,
		"genmove":     h.genmove,
		"undo":        func(args []string) (string, error) { return undoLast(args, &h.state, &h.undo) },
		"is_legal":    h.isLegal,
		"all_legal":   h.colorCommand(func(c engine.Color) string { return vertexList(h.size(), h.state.legalPoints(c)) }),
		"list_stones": h.colorCommand(func(c engine.Color) string { return vertexList(h.size(), h.state.stones(c)) }),
		"showboard":   func([]string) (string, error) { return h.state.showboard(), nil },
	}
	if _, ok := h.state.captures(engine.Black); ok {
		cmds["captures"] = h.colorCommand(func(c engine.Color) string { n, _ := h.state.captures(c); return strconv.Itoa(n) })
	}
	for name, cmd := range h.state.commands(h) {
		cmds[name] = cmd
	}
	return cmds
}

// soleColor reads the only argument of a command, a colour.
func (h *handler[S]) soleColor(args []string) (engine.Color, error) {
	if err := wantArgs(args, 1); err != nil {
		return engine.Empty, err
	}
	return h.state.parseColor(args[0])
}

// colorVertex reads the "COLOR VERTEX" pair of play and is_legal.
func (h *handler[S]) colorVertex(args []string) (engine.Color, engine.Point, error) {
	if err := wantArgs(args, 2); err != nil {
		return engine.Empty, engine.NoPoint, err
	}
	c, err := h.state.parseColor(args[0])
	if err != nil {
		return engine.Empty, engine.NoPoint, err
	}
	p, err := vertexArg(h.size(), args[1])
	if err != nil {
		return engine.Empty, engine.NoPoint, err
	}
	return c, p, nil
}

// colorCommand is a command whose only argument is a colour.
func (h *handler[S]) colorCommand(answer func(c engine.Color) string) Command {
	return func(args []string) (string, error) {
		c, err := h.soleColor(args)
		if err != nil {
			return "", err
		}
		return answer(c), nil
	}
}

func (h *handler[S]) play(args []string) (string, error) {
	c, p, err := h.colorVertex(args)
	if err != nil {
		return "", err
	}
	next, err := h.state.play(c, p)
	if err != nil {
		return "", errIllegal
	}
	h.commit(next)
	return "", nil
}

func (h *handler[S]) genmove(args []string) (string, error) {
	c, err := h.soleColor(args)
	if err != nil {
		return "", err
	}
	p, next, err := h.state.genmove(c, h.level, h.komi)
	if err != nil {
		return "", err
	}
	h.commit(next)
	return p.Vertex(h.size()), nil
}

func (h *handler[S]) isLegal(args []string) (string, error) {
	c, p, err := h.colorVertex(args)
	if err != nil {
		return "", err
	}
	return boolToken(h.state.legal(c, p)), nil
}

// goColors is parseColor of the variants that read the GTP colours.
func goColors(arg string) (engine.Color, error) { return colorArg(arg) }
