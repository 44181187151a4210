package session

import (
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/mpc/referee"
	"github.com/kakure/kakure/protocol/phantomrules"
)

// The phantom player's tries: whether its player may try now, the
// messages of a try (the evaluator's request or flips, the garbler's
// garbling), and a try made early held for the other's steps (CLK-D33).

// myTry reports whether the local player may choose a try now: in a
// game whose evaluator's tries come by flips (MPC-D52), the evaluator's
// player from the start of its try, while its program's request,
// commitment and choice are under way, until its try is made; the
// garbler's player from the outcome of the try before, its try held
// until the evaluator's request (and choice) are in (CLK-D33).
func (p *phantomPlayer) myTry(h *phantomrules.Rules) bool {
	if p.me == phantomrules.Evaluator && h.Flipped() {
		_, sent := h.Current()
		return sent <= 3 && p.caught == "" && p.e != nil && p.pendingTry == nil && !p.flipped(h)
	}
	if p.me == phantomrules.Garbler {
		// From the outcome of the try before: a try made before the
		// evaluator's request or choice is held for them (CLK-D33).
		mover, moving := h.TryMover()
		_, sent := h.Current()
		return moving && mover == p.me && sent <= garblerStepsBefore(h) && p.caught == "" && p.g != nil && p.pendingTry == nil
	}
	from, kinds, _ := h.Expected()
	if from != p.me || p.caught != "" || len(kinds) == 0 {
		return false
	}
	return kinds[0] == phantomrules.KindTry && p.e != nil && p.e.Ready()
}

// garblerStepsBefore is how many messages of the garbler's player's try
// come before its garbling: the evaluator's request, and in a checked
// try (λ > 1) the garbler's commitment and the evaluator's choice.
func garblerStepsBefore(h *phantomrules.Rules) int {
	if h.Machine.Options.Lambda > 1 {
		return 3
	}
	return 1
}

// garblerTryReady reports whether the garbler's player's try can go now:
// the steps before its garbling are in (garblerStepsBefore).
func (p *phantomPlayer) garblerTryReady(h *phantomrules.Rules) bool {
	from, kinds, _ := h.Expected()
	if from != p.me || len(kinds) == 0 || kinds[0] != phantomrules.KindTryGarbling || p.g == nil {
		return false
	}
	if h.Machine.Options.Lambda > 1 {
		return p.g.Committed() && p.choice != nil
	}
	return p.g.Ready() && p.request != nil
}

// request1 makes the evaluator's request of the next try. aside lets
// the player's lock go while the machine works (TakeReverse and Request,
// about 3 ms at λ = 4 on 9×9; MPC-D56): for the request of a try by
// flips (MPC-D52; it carries no try), which the try before's outputs
// start, while they wake the caller's View, which takes that lock: held,
// the view counted the try only once the next request was made, 3.5–4.5
// ms of the evaluator's try from its Play (issue 38's breakdown in
// docs/mpc.md). Only the game's loop calls the machine and changes what
// the view reads; the view of an evaluator by flips (myTry) reads the
// try's record, the caught, the pending try and the flips, never the
// machine, and none of them changes while the lock is let go. Called
// with p.mu held, it returns with it held, also on a panic (the caller's
// deferred Unlock, LIM-D9). The reverse request of the try is taken
// first, and what is wrong in it caught (takeReverse).
func (p *phantomPlayer) request1(h *phantomrules.Rules, kind protocol.Kind, try engine.Point, aside bool) (protocol.Kind, any, error) {
	if p.e == nil {
		return "", nil, errPhantomLost
	}
	reverse, err := p.reverseToTake(h)
	if err != nil {
		return "", nil, err
	}
	caught := func() error {
		return fmt.Errorf("%w: the other program was caught: %s", protocol.ErrNotNow, p.caught)
	}
	if p.caught != "" {
		return "", nil, caught()
	}
	e := p.e
	var took error
	var req []byte
	work := func() {
		if reverse != nil {
			took = e.TakeReverse(reverse)
		}
		if took == nil {
			req, err = e.Request(try)
		}
	}
	if aside {
		func() {
			p.mu.Unlock()
			defer p.mu.Lock()
			work()
		}()
	} else {
		work()
	}
	if reverse != nil {
		if err := p.tookReverse(h, took); err != nil {
			return "", nil, err
		}
	}
	if p.caught != "" {
		return "", nil, caught()
	}
	if err != nil {
		return "", nil, err
	}
	return kind, phantomrules.RequestBody{Try: h.Public.Try, Request: referee.Sum(req), Bulk: [][]byte{req}}, nil
}

// keepFlips keeps f, the evaluator's flips of try (MPC-D52), as the last
// ones (once).
func (p *phantomPlayer) keepFlips(f []byte, try uint64) {
	if p.flips != nil && p.flipsTry == try {
		p.flips = f
		return
	}
	p.olderFlips, p.prevFlips, p.flips, p.flipsTry = p.prevFlips, p.flips, f, try
}

// flipped reports whether the evaluator's flips of the try under way
// were made.
func (p *phantomPlayer) flipped(h *phantomrules.Rules) bool {
	return p.flips != nil && p.flipsTry == h.Public.Try
}

// flips1 makes the evaluator's flips of its player's try (MPC-D52), once
// its choice went.
func (p *phantomPlayer) flips1(h *phantomrules.Rules, try engine.Point) (protocol.Kind, any, error) {
	if p.e == nil {
		return "", nil, errPhantomLost
	}
	if p.caught != "" {
		return "", nil, fmt.Errorf("%w: the other program was caught: %s", protocol.ErrNotNow, p.caught)
	}
	if !p.flipped(h) {
		f, err := p.e.Flips(try)
		if err != nil {
			return "", nil, err
		}
		p.keepFlips(f, h.Public.Try)
	}
	p.pendingTry = nil
	return phantomrules.KindFlips, phantomrules.FlipsBody{Try: h.Public.Try, Flips: referee.Sum(p.flips), Bulk: [][]byte{p.flips}}, nil
}

// garble makes the garbler's garbling of the next try.
func (p *phantomPlayer) garble(h *phantomrules.Rules, kind protocol.Kind, try engine.Point) (protocol.Kind, any, error) {
	if p.g == nil {
		return "", nil, errPhantomLost
	}
	var gb referee.Garbling
	var err error
	if h.Machine.Options.Lambda > 1 {
		gb, err = p.g.GarbleChosen(p.choice, try)
	} else {
		gb, err = p.g.Garble(p.request, try)
	}
	if err != nil {
		return "", nil, err
	}
	p.keepEvidence(h, gb.Labels)
	d := gb.Digests()
	b := phantomrules.GarblingBody{Try: h.Public.Try, Tables: d[0], Labels: d[1], Reply: d[2],
		Bulk: [][]byte{gb.Tables, gb.Labels, gb.Reply}}
	if p.correlated() {
		// The next try's reverse request rides on this garbling
		// (MPC-D28): it depends on the garbler's seed and the try alone.
		rev, err := p.g.ReverseRequestAhead()
		if err != nil {
			return "", nil, err
		}
		b.Reverse, b.Bulk = referee.Sum(rev), append(b.Bulk, rev)
	}
	return kind, b, nil
}
