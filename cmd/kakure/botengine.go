package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"strings"
	"sync"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/gtp"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// botEngine is the GTP engine of `kakure bot --engine gtp:COMMAND`
// (GTP-D5..D8, docs/gtp.md): each game gets an engine process of its
// own, started as `kakure match` starts one (parseMatchPlayer), whose
// standard error goes to the home's log.
type botEngine struct {
	// spec is the --engine value, gtp:COMMAND.
	spec string
	// timeout bounds each of the engine's answers in a game without a
	// clock (--engine-timeout); in a game with a clock, its genmove has
	// the player's time left and timeout more.
	timeout time.Duration
	// logPath names the log file that gets the engine's standard error.
	logPath string
}

// engineDefaultTimeout is --engine-timeout's default.
const engineDefaultTimeout = 2 * time.Minute

// engineFlags are --engine and --engine-timeout, as kakure bot and kakure
// play take them.
type engineFlags struct {
	spec    *string
	timeout *time.Duration
}

// registerEngineFlags adds --engine and --engine-timeout to fs; what and
// not say what the engine does and what it excludes, in --engine's help.
func registerEngineFlags(fs *flag.FlagSet, what, not string) engineFlags {
	return engineFlags{
		spec:    fs.String("engine", "", what+", one engine process per game, e.g. \"gtp:/usr/games/gnugo --mode gtp --level 1\" (a program and its arguments, no shell quoting): it makes the moves from what its side knows, with the clock's time; the built-in bot at level 1 makes the other decisions; an engine that fails resigns its game; its standard error goes to kakure.log (docs/gtp.md, GTP-D5); "+not),
		timeout: fs.Duration("engine-timeout", engineDefaultTimeout, "with --engine: how long the engine may take to answer, a move included in a game without a clock, before its side resigns (with a clock, a move may take the time left and this more)"),
	}
}

// parse returns the engine the flags name, nil without --engine. --engine
// excludes --level, and --engine-timeout needs --engine.
func (f engineFlags) parse(fs *flag.FlagSet) (*botEngine, error) {
	if *f.spec == "" {
		if isSet(fs, "engine-timeout") {
			return nil, usageError("--engine-timeout is the time of --engine's engine: give --engine")
		}
		return nil, nil
	}
	if isSet(fs, "level") {
		return nil, usageError("--engine and --level exclude each other: the engine plays instead of the built-in bot")
	}
	return parseBotEngine(*f.spec, *f.timeout)
}

// parseBotEngine reads --engine: only a gtp player, as `kakure match`
// reads it (playerUsage).
func parseBotEngine(spec string, timeout time.Duration) (*botEngine, error) {
	kind, _, _ := strings.Cut(spec, ":")
	if strings.ToLower(strings.TrimSpace(kind)) != "gtp" {
		return nil, usageError("--engine %q: want gtp:COMMAND, e.g. \"gtp:/usr/games/gnugo --mode gtp --level 1\"", spec)
	}
	if timeout <= 0 {
		return nil, usageError("--engine-timeout must be positive, not %v", timeout)
	}
	return &botEngine{spec: spec, timeout: timeout}, nil
}

// check starts the engine once, before any game, and returns its name
// and version as it gives them: an engine that does not start or does not
// answer GTP is an error before the bot accepts or sends an invitation.
func (e *botEngine) check() (string, error) {
	side, err := parseMatchPlayer(e.spec, e.stderrLog("check"))
	if err != nil {
		return "", fmt.Errorf("--engine: %w%s", err, e.logNote())
	}
	defer side.close()
	side.engine.Timeout = e.timeout
	var about []string
	for _, cmd := range []string{"name", "version"} {
		// Both are optional in practice: an engine without them plays.
		if answer, err := side.engine.Send(cmd); err == nil && strings.TrimSpace(answer) != "" {
			about = append(about, strings.TrimSpace(answer))
		}
	}
	return strings.Join(about, " "), nil
}

// logNote points to where the engine's standard error went.
func (e *botEngine) logNote() string {
	return fmt.Sprintf(" (the engine's standard error is in %s)", e.logPath)
}

// stderrLog returns the writer of the engine's standard error: each of
// its lines goes to the log (the standard logger, which the node sends to
// the home's kakure.log), named with the engine and the game.
func (e *botEngine) stderrLog(game string) *lineLogger {
	return &lineLogger{prefix: fmt.Sprintf("engine %q game %s stderr: ", e.spec, game)}
}

// engineGame is the player of one game of `kakure bot --engine`: the
// engine's moves (gtp.EnginePlayer, the fallback deciding the rest,
// GTP-D2), and a resignation with a line on stdout when the engine fails
// (GTP-D6).
type engineGame struct {
	bot    *botEngine
	side   *matchPlayer
	engine *gtp.EnginePlayer
	player bot.Player
	ctx    context.Context
	game   string
	say    func(string)
	failed bool
	// stderr is the log of the engine's standard error; closeCtx stops
	// the engine's context; shutdown ends when the bot stops.
	stderr   *lineLogger
	closeCtx func()
	shutdown context.Context
}

// player starts the engine of game g and returns its player; say prints a
// line. The engine's command under way stops when g has an outcome;
// close the player when the game's play is over. shutdown is the bot's
// context: once it has ended (the bot is stopped), an engine that fails
// makes no decision, so that the game is adjourned as any other and not
// resigned.
func (e *botEngine) player(shutdown context.Context, g *session.Game, seed uint64, say func(string)) *engineGame {
	id := g.ID().String()
	eg := &engineGame{bot: e, game: id, say: say, stderr: e.stderrLog(id), shutdown: shutdown}
	side, err := parseMatchPlayer(e.spec, eg.stderr)
	if err != nil {
		// The game has begun: without its engine the side resigns.
		eg.fail(err)
		eg.player = choiceFunc(func(v protocol.View) protocol.Action {
			if v.Variant == nil {
				return nil
			}
			return protocol.Resign{}
		})
		return eg
	}
	side.engine.Timeout = e.timeout
	ep := side.forGame(seed).(*gtp.EnginePlayer)
	ep.ResignOnError = true
	ep.MoveTimeout = e.timeout
	ctx, cancel := context.WithCancelCause(context.Background())
	// The game's end stops a genmove under way (a silent engine whose
	// flag fell, GTP-D7).
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-g.Done():
				if o := g.Outcome(); o != nil {
					cancel(fmt.Errorf("the game ended (%s)", o.Result))
				} else {
					cancel(errors.New("the game stopped"))
				}
				return
			case <-tick.C:
				if o := g.Outcome(); o != nil {
					cancel(fmt.Errorf("the game ended (%s)", o.Result))
					return
				}
			}
		}
	}()
	ep.Context = ctx
	eg.side, eg.engine, eg.ctx = side, ep, ctx
	eg.player = side.timed(ep)
	eg.closeCtx = func() { cancel(errors.New("the game's play is over")) }
	return eg
}

// Choose implements bot.Player.
func (eg *engineGame) Choose(v protocol.View) protocol.Action {
	a := eg.player.Choose(v)
	if _, resign := a.(protocol.Resign); resign && eg.engine != nil && eg.engine.Err != nil {
		if eg.shutdown.Err() != nil {
			return nil // the bot stops: the game is adjourned, not lost
		}
		eg.fail(eg.engine.Err)
	}
	return a
}

// fail prints, once, why the engine's side resigns: the engine failed
// (GTP-D6), or the game ended while it thought (GTP-D7).
func (eg *engineGame) fail(err error) {
	if eg.failed {
		return
	}
	eg.failed = true
	reason := strings.TrimPrefix(err.Error(), gtp.ErrEngine.Error()+": ")
	if eg.ctx != nil && eg.ctx.Err() != nil {
		eg.say(fmt.Sprintf("engine stopped: game %s: %q: %s", eg.game, eg.bot.spec, reason))
		return
	}
	eg.say(fmt.Sprintf("engine failed: game %s: %q: %s%s; its side resigns", eg.game, eg.bot.spec, reason, eg.bot.logNote()))
}

// close stops the game's engine and returns the line of its numbers
// (the decisions' times, the engine's moves, refusals and fallbacks), or
// "" when it never started.
func (eg *engineGame) close() string {
	if eg.side == nil {
		return ""
	}
	eg.closeCtx()
	eg.side.close()
	eg.stderr.flush()
	return fmt.Sprintf("engine: game %s: %s", eg.game, eg.side.summary())
}

// lineLogger writes each line written to it to the standard logger,
// after its prefix.
type lineLogger struct {
	prefix string
	mu     sync.Mutex
	buf    []byte
}

// flush logs what is left of an unfinished last line.
func (l *lineLogger) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		log.Print(l.prefix + string(l.buf))
		l.buf = l.buf[:0]
	}
}

// Write implements io.Writer.
func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		log.Print(l.prefix + strings.TrimRight(string(l.buf[:i]), "\r"))
		l.buf = l.buf[i+1:]
	}
	if len(l.buf) > 4096 {
		// A line without end: logged in pieces.
		log.Print(l.prefix + string(l.buf))
		l.buf = l.buf[:0]
	}
	return len(p), nil
}
