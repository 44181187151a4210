package session

import (
	"github.com/kakure/kakure/protocol"

	"errors"
	"fmt"
	"runtime/debug"
	"strings"
)

// ErrPanic reports a panic in the code of a game (a bug of this program,
// in a variant's rules or player, the game's loop or one of its helper
// goroutines). The game stops where it was and stays adjourned on disk;
// the other games of the service go on (LIM-D9).
var ErrPanic = errors.New("protocol: internal error (panic)")

// panicError turns a recovered panic into an error that wraps ErrPanic
// and names the game and where it happened. It holds the panic value and
// the stack with the arguments of each call left out: those are raw
// words of memory, which may be a hidden point or a secret's bytes.
func (g *Game) panicError(where string, r any) error {
	return fmt.Errorf("protocol: game %s: %w in the %s: %v\n%s", g.id, ErrPanic, where, r, cleanStack(debug.Stack()))
}

// cleanStack removes the argument values from a stack trace: "f(0x1, 0x2)"
// becomes "f(...)"; file names and lines stay.
func cleanStack(stack []byte) string {
	lines := strings.Split(strings.TrimRight(string(stack), "\n"), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "\t") || !strings.HasSuffix(l, ")") {
			continue
		}
		// The argument list is the last parenthesised group of a call
		// line ("pkg.(*T).f(...)", "created by pkg.f in goroutine 7" has
		// none).
		if open := strings.LastIndex(l, "("); open > 0 {
			lines[i] = l[:open] + "(...)"
		}
	}
	return strings.Join(lines, "\n")
}

// Err returns the error that stopped the game, wrapping ErrPanic, or nil
// when the game runs, ended normally or was closed. A game stopped by an
// error is adjourned: its record holds what was saved before the error,
// and it can be closed and resumed.
func (g *Game) Err() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.endErr
}

// fail stops the game after a panic: it is called in the loop's goroutine
// once the panic is recovered, with no lock of the game held. Nothing is
// saved (the machine may be half changed): the record on disk stays as it
// was after the last message, valid, and the game adjourned.
func (g *Game) fail(err error) {
	defer func() {
		if r := recover(); r != nil {
			g.svc.cfg.Logger.Error("panic while stopping a game", "game", g.id, "panic", fmt.Sprint(r))
		}
	}()
	g.svc.cfg.Logger.Error("game stopped by an internal error; it stays adjourned", "game", g.id, "err", err)
	g.mu.Lock()
	g.endErr = err
	g.adjourn = true
	g.mu.Unlock()
	g.dropStream()
	g.clearBulk()
	g.events.push(protocol.EventAdjourned{Reason: fmt.Sprintf("internal error in game %s: %v (see the log)", g.id, firstLine(err))})
	if g.onAnswer != nil {
		g.onAnswer(err)
		g.onAnswer = nil
	}
}

// firstLine returns the first line of err's text (without the stack).
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// crash hands the panic of a goroutine of the game other than its loop
// (the stream reader, the event pump, a redial, a caller's View) to the
// loop, which stops the game. Only the first one counts.
func (g *Game) crash(err error) {
	select {
	case g.crashed <- err:
	default:
	}
}

// recoverTo is deferred by helper goroutines of a game: a panic becomes
// a crash of the game instead of the end of the process.
func (g *Game) recoverTo(where string) {
	if r := recover(); r != nil {
		err := g.panicError(where, r)
		g.svc.cfg.Logger.Error("panic in a game's goroutine", "game", g.id, "where", where, "err", err)
		g.crash(err)
	}
}

// hook calls the test hook at the point where (export_test.go).
func (g *Game) hook(where string) { g.hookAt(where, "") }

// hookAt calls the test hook at the point where, a step of a message of
// kind (export_test.go).
func (g *Game) hookAt(where string, kind protocol.Kind) {
	if h := g.svc.cfg.hook; h != nil {
		h(g, where, kind)
	}
}

// recoverError turns a panic in code a caller runs directly (loading or
// replaying a record, starting an invitation) into an error in *errp.
func recoverError(errp *error, what string) {
	if r := recover(); r != nil {
		*errp = fmt.Errorf("protocol: %s: %w: %v\n%s", what, ErrPanic, r, cleanStack(debug.Stack()))
	}
}

// replay applies the messages of a record to a new machine. A panic in a
// variant's rules is an error of this record (LIM-D9).
func replay(tr *protocol.Transcript) (m *protocol.Machine, err error) {
	defer recoverError(&err, "replaying game "+tr.Game.String())
	m = protocol.NewMachine(tr.Game)
	for i := range tr.Messages {
		if _, err := m.Apply(&tr.Messages[i]); err != nil {
			return m, err
		}
	}
	return m, nil
}
