package session

import (
	"reflect"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine/gomoku"
)

// gomokuKinds are the kinds of the messages a gomoku player makes.
var gomokuKinds = map[protocol.Kind]bool{
	gomokurules.KindOpening: true, gomokurules.KindSide: true, gomokurules.KindCommit: true,
	gomokurules.KindPass: true, gomokurules.KindNoLegalPoint: true, gomokurules.KindAnnounce: true,
	gomokurules.KindResponse: true, gomokurules.KindReveal: true, gomokurules.KindDeclare: true,
	gomokurules.KindOpenAll: true,
}

// GomokuCheats returns a rewrite hook (SetRewrite) through which the
// gomoku player of each game of the service passes the messages it is
// about to send: a cheating program (ARCH-D5). f gets the player's role
// and its view before the step, as the player made the message from it.
// The message f returns goes out only if this peer's own machine takes
// it (the hook never says cheat); its machine and record hold it. The
// player's own view takes the step sent, or, when the view refuses it (a
// lie its own rules would not let it tell, such as a five not due), the
// step it meant, so that the program plays on as it believes it played.
func GomokuCheats(f func(me protocol.Role, v gomoku.View, kind protocol.Kind, body any) (protocol.Kind, any)) func(g *Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
	return func(g *Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
		p, ok := g.player.(*gomokuPlayer)
		if !ok || !gomokuKinds[kind] || gomokuRulesOf(g.m) == nil {
			return kind, body, false
		}
		// The loop runs this, as it runs every change of the machine: the
		// machine stays as it is until the message is applied.
		p.mu.Lock()
		defer p.mu.Unlock()
		p.sync(g.m)
		if p.broken != nil {
			return kind, body, false
		}
		k, b := f(g.role, p.view, kind, body)
		if k == kind && reflect.DeepEqual(b, body) {
			return kind, body, false
		}
		b = g.stampMove(k, b) // as send stamps what the player made
		n := len(gomokuRulesOf(g.m).Log)
		sent, ok := gomokuStepAfter(g, k, b, n)
		if !ok {
			return k, b, false // refused by this peer's own machine: not sent
		}
		if _, err := p.step(g.role, sent); err == nil {
			return k, b, false // the view takes the step sent when it comes
		}
		meant, ok := gomokuStepAfter(g, kind, body, n)
		if !ok {
			return k, b, false
		}
		if next, err := p.step(g.role, meant); err == nil {
			// The view is one step ahead of the machine until the
			// message is applied, which comes next in this loop; sync
			// then goes on after it.
			p.view, p.synced = next, n+1
		}
		return k, b, false
	}
}

// gomokuStepAfter returns step n of the gomoku log of a machine that
// replays the messages g's machine took and then this peer's message of
// kind and body, or false if that machine refuses it.
func gomokuStepAfter(g *Game, kind protocol.Kind, body any, n int) (gomoku.Event, bool) {
	m, err := g.build(kind, body)
	if err != nil {
		return gomoku.Event{}, false
	}
	r := protocol.NewMachine(g.id)
	for _, msg := range append(g.m.History(), m) {
		if _, err := r.Apply(&msg); err != nil {
			return gomoku.Event{}, false
		}
	}
	rules := gomokuRulesOf(r)
	if rules == nil || len(rules.Log) <= n {
		return gomoku.Event{}, false
	}
	return rules.Log[n].Event, true
}

// GomokuOpeningOf returns the opening of the local player's commitment of
// turn move in the gomoku game g.
func GomokuOpeningOf(g *Game, move int) (commit.Opening, bool) {
	p, ok := g.player.(*gomokuPlayer)
	if !ok {
		return commit.Opening{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	o, ok := p.pieces[move]
	return o, ok
}
