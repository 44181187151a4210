package referee

// The reverse extension of the correlated input OTs (MPC-D28): its
// setup, and per try the garbler's reverse request and the evaluator's
// check of it. pvc_cot.go has the overview.

import (
	"crypto/rand"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// ----- setup -----

// ReverseStart returns the garbler's first message of the reverse
// extension of a game of the correlated input OTs (MPC-D28): the start
// of its base OTs, which the garbler runs as their sender. It depends on
// the garbler's seed alone, so a session may send it first (with the
// garbler's seed commitment, before the forward base OTs) or with the
// answer to the evaluator's base OT message; the same bytes come again
// if it is called again.
func (g *Garbler) ReverseStart() ([]byte, error) {
	if !g.cfg.correlated() {
		return nil, fmt.Errorf("%w: no reverse extension in a game of the %v input OTs", ErrState, g.cfg.InputOT)
	}
	if g.phase == phaseFailed {
		return nil, g.failed
	}
	if g.revStart == nil {
		msg, err := g.revRecv.BaseStart()
		if err != nil {
			return nil, err
		}
		if g.cfg.authenticated() {
			// The MAC extension's base OTs go with them (MPC-D29), and
			// the seed transfer's start (MPC-D30).
			mac, err := g.macRecv.BaseStart()
			if err != nil {
				return nil, err
			}
			start, err := seedStart(g.cfg, g.seed)
			if err != nil {
				return nil, err
			}
			msg = bundle(msg, mac, start)
		}
		g.revStart = msg
	}
	return append([]byte(nil), g.revStart...), nil
}

// ReverseRespond takes the garbler's [Garbler.ReverseStart] and returns
// the evaluator's answer, which completes the evaluator's side of the
// reverse extension. It may come at any point of the setup: right after
// [NewEvaluator] (a session sends the answer with the evaluator's
// [Evaluator.BaseStart], the garbler then calls [Garbler.ReverseFinish]
// and [Garbler.BaseRespond]), or after the forward base OTs are done;
// the answer depends on the evaluator's seed and msg alone, and the
// same message again (a resumed machine already answered it) gives the
// same answer. A malformed message (ErrMessage) leaves the machine as it
// was.
func (e *Evaluator) ReverseRespond(msg []byte) ([]byte, error) {
	if !e.cfg.correlated() {
		return nil, fmt.Errorf("%w: no reverse extension in a game of the %v input OTs", ErrState, e.cfg.InputOT)
	}
	switch {
	case e.phase == phaseFailed:
		return nil, e.failed
	case e.phase != phaseBase && e.phase != phaseReady:
		return nil, fmt.Errorf("%w: evaluator in phase %d: the reverse setup is part of the setup", ErrState, e.phase)
	}
	if e.revDone {
		if e.revAnswer != nil && Sum(msg) == e.revFrom {
			return append([]byte(nil), e.revAnswer...), nil
		}
		return nil, fmt.Errorf("%w: the reverse base OTs are done", ErrState)
	}
	var reply []byte
	if e.cfg.authenticated() {
		parts, err := unbundle(msg, setupParts)
		if err != nil {
			return nil, err
		}
		// Answered on fresh machines, so that a refused part leaves both
		// as they were.
		revSend := ot.NewSender(e.seed.Derive(labelReverseOT), e.cfg.reverseSession())
		macSend := e.cfg.newMACSender(e.MACSeed())
		r1, err := revSend.BaseRespond(parts[0])
		if err != nil {
			return nil, fmt.Errorf("%w: reverse base OT: %v", ErrMessage, err)
		}
		r2, err := macSend.BaseRespond(parts[1])
		if err != nil {
			return nil, fmt.Errorf("%w: MAC base OT: %v", ErrMessage, err)
		}
		// Its seed transfer response of try 0 (MPC-D30).
		r3, keys, err := seedResponse(e.cfg, seedCoins(e.seed, 0), 0, e.choose(0), parts[2])
		if err != nil {
			return nil, err
		}
		e.seedKeys, e.seedKeysTry = keys, 0
		e.revSend, e.macSend, e.seedStartMsg, reply = revSend, macSend, append([]byte(nil), parts[2]...), bundle(r1, r2, r3)
	} else {
		var err error
		if reply, err = e.revSend.BaseRespond(msg); err != nil {
			return nil, fmt.Errorf("%w: reverse base OT: %v", ErrMessage, err)
		}
	}
	e.revDone, e.revFrom, e.revAnswer, e.revStartMsg = true, Sum(msg), reply, append([]byte(nil), msg...)
	return append([]byte(nil), reply...), nil
}

// CheckReverseStart tells whether an evaluator can answer msg, a
// garbler's start of the reverse base OTs (MPC-D28), without changing any
// machine: a program checks it when the message comes, before it takes
// the garbler's commitment that signs its digest, and drops one it
// cannot answer (T-10: it proves nothing, since the record holds only its
// digest).
func CheckReverseStart(cfg Config, msg []byte) error {
	var seed prg.Seed
	if _, err := rand.Read(seed[:]); err != nil {
		return err
	}
	e, err := NewEvaluator(cfg, seed)
	if err != nil {
		return err
	}
	_, err = e.ReverseRespond(msg)
	return err
}

// ReverseFinish takes the evaluator's [Evaluator.ReverseRespond], before
// or after [Garbler.BaseRespond]: once both are done the garbler can
// make reverse requests. A malformed message (ErrMessage) leaves the
// machine as it was.
func (g *Garbler) ReverseFinish(msg []byte) error {
	if !g.cfg.correlated() || g.revStart == nil || g.revDone {
		return fmt.Errorf("%w: the reverse base OTs are not started or already finished", ErrState)
	}
	if g.phase == phaseFailed {
		return g.failed
	}
	if !g.cfg.authenticated() {
		if err := g.revRecv.BaseFinish(msg); err != nil {
			return fmt.Errorf("%w: reverse base OT: %v", ErrMessage, err)
		}
		g.revDone = true
		return nil
	}
	parts, err := unbundle(msg, setupParts)
	if err != nil {
		return err
	}
	rev, mac := parts[0], parts[1]
	if err := checkSeedResponse(g.cfg, parts[2]); err != nil {
		return err
	}
	// On copies, so that a refused part leaves both machines as they were.
	revRecv, macRecv := ot.NewReceiver(g.seed.Derive(labelReverseOT), g.cfg.reverseSession()), g.cfg.newMACReceiver(g.seed.Derive(labelMACOT))
	if _, err := revRecv.BaseStart(); err != nil {
		return err
	}
	if _, err := macRecv.BaseStart(); err != nil {
		return err
	}
	if err := revRecv.BaseFinish(rev); err != nil {
		return fmt.Errorf("%w: reverse base OT: %v", ErrMessage, err)
	}
	if err := macRecv.BaseFinish(mac); err != nil {
		return fmt.Errorf("%w: MAC base OT: %v", ErrMessage, err)
	}
	g.revRecv, g.macRecv, g.revDone = revRecv, macRecv, true
	// The evaluator's seed transfer response of try 0 (MPC-D30).
	g.seedResp = append([]byte(nil), parts[2]...)
	return nil
}

// ----- per try: the reverse request -----

// garblerReverse is the garbler's reverse OTs of a try: the Δ_i its
// choices were made of and its keys K_i.
type garblerReverse struct {
	try    uint64
	msg    []byte
	seeds  []prg.Seed
	deltas []gc.Label
	keys   [][]ot.Key
	// macs are the garbler's rows T of every garbling's MAC sub-batch
	// (MPC-D29: P then A), nil without the authenticated state.
	macs [][]ot.Block
	// checked is the digest of the last request of the try whose
	// per-garbling checks passed, rows the rows q_i they gave (so that
	// Commit does not compute them again after CheckRequest).
	checked Digest
	rows    [][]ot.Block
}

// ReverseRequest returns the garbler's reverse request of the next try
// of a game of the correlated input OTs (MPC-D28): λ random-OT requests
// of 128 OTs of the reverse extension (sub-batch i: the bits of the
// try's Δ_i as choices, the pad bits of its consistency check drawn from
// seed_i, so that opening garbling i opens its choices). It depends on the garbler's seed and the try
// alone, so a session sends it as soon as the previous try is complete
// (or ahead of that, [Garbler.ReverseRequestAhead]); the evaluator takes
// it ([Evaluator.TakeReverse]) before its request. Called again for the
// same try it returns the same bytes, and so does a garbler resumed from
// the same record.
func (g *Garbler) ReverseRequest() ([]byte, error) {
	if err := g.check(phaseReady); err != nil {
		return nil, err
	}
	if !g.cfg.correlated() || !g.revDone {
		return nil, fmt.Errorf("%w: no reverse extension ready", ErrState)
	}
	try := g.pub.Try
	if r := g.rev; r != nil && r.try == try {
		return append([]byte(nil), r.msg...), nil
	}
	if r := g.revAhead; r != nil && r.try == try {
		g.rev, g.revAhead = r, nil
		return append([]byte(nil), r.msg...), nil
	}
	r, err := g.makeReverse(try)
	if err != nil {
		return nil, err
	}
	g.rev = r
	return append([]byte(nil), r.msg...), nil
}

// ReverseRequestAhead returns the reverse request of the try after the
// one under way, once the garbler has made the garbling of that try and
// waits for its outputs (MPC-D28): a session attaches it to the garbling
// message, so that the evaluator has it as soon as the try is over
// (it calls [Evaluator.TakeReverse] only after applying the outputs, and
// only if play goes on; if it ends, the request is never used and the
// record keeps nothing of it). The bytes are those [Garbler.ReverseRequest]
// returns in the next try (they depend on the garbler's seed and the try
// alone), and those a garbler resumed in the same phase returns. Between
// tries it is ReverseRequest. In a checked try it may also come once the
// garbler committed (MPC-D55): in a try of the evaluator's by flips
// (MPC-D52) a session makes it when the choice is in, while the
// evaluator's player thinks, and the garbling after the flips takes it
// made; nothing in it depends on the flips, the choice or the try.
func (g *Garbler) ReverseRequestAhead() ([]byte, error) {
	if g.phase == phaseFailed {
		return nil, g.failed
	}
	if g.phase == phaseReady {
		return g.ReverseRequest()
	}
	if g.phase != phaseWaiting && g.phase != phaseCommitted {
		return nil, fmt.Errorf("%w: garbler in phase %d: the reverse request ahead comes once the garbler committed to the try or made its garbling", ErrState, g.phase)
	}
	if !g.cfg.correlated() || !g.revDone {
		return nil, fmt.Errorf("%w: no reverse extension ready", ErrState)
	}
	try := g.pub.Try + 1
	if r := g.revAhead; r != nil && r.try == try {
		return append([]byte(nil), r.msg...), nil
	}
	if r := g.rev; r == nil || r.try != g.pub.Try {
		return nil, fmt.Errorf("%w: the reverse request of try %d was not made", ErrState, g.pub.Try)
	}
	r, err := g.makeReverse(try)
	if err != nil {
		return nil, err
	}
	g.revAhead = r
	return append([]byte(nil), r.msg...), nil
}

// makeReverse makes the reverse request of try, the next λ batches of
// the reverse extension (τ·λ + i in a game without restarts), and the
// garbler's keys of it.
func (g *Garbler) makeReverse(try uint64) (*garblerReverse, error) {
	seeds := ggmLevels(g.seed.Derive(labelPVCRoot, try), g.cfg.depth())[g.cfg.depth()]
	r := &garblerReverse{try: try, deltas: make([]gc.Label, len(seeds)), keys: make([][]ot.Key, len(seeds)), seeds: seeds}
	choices := make([]bool, 0, len(seeds)*ot.Kappa)
	for i, s := range seeds {
		d, err := copyDelta(s)
		if err != nil {
			return nil, err
		}
		r.deltas[i] = d
		choices = append(choices, deltaBits(d)...)
	}
	honest := append([]bool(nil), choices...)
	if g.cheatReverse != nil {
		g.cheatReverse(try, choices)
	}
	r.msg = append(make([]byte, 0, g.cfg.reverseSize()), cotMsgHeader(kindReverse, try)...)
	for i, s := range seeds {
		pad := reversePad(s)
		req, err := g.revRecv.RequestPadded(choices[i*ot.Kappa:(i+1)*ot.Kappa], pad)
		if err != nil {
			return nil, err
		}
		if g.cheatForgeX {
			// The cheater's check value claims the honest choices.
			x, err := ot.CheckValue(g.cfg.reverseSession(), req, append(honest[i*ot.Kappa:(i+1)*ot.Kappa:(i+1)*ot.Kappa], pad...))
			if err != nil {
				return nil, err
			}
			copy(req[len(req)-2*len(x):], x[:])
		}
		if r.keys[i], err = g.revRecv.ReceiveRandom(); err != nil {
			return nil, err
		}
		r.msg = append(r.msg, req...)
	}
	if g.cfg.authenticated() {
		// The MAC sub-batches (MPC-D29): per garbling, its P and A as
		// choices, the pad bits from its seed; made at once (they are
		// batches of their own).
		n := g.cfg.stateBits()
		bits, pads := make([][]bool, len(seeds)), make([][]bool, len(seeds))
		for i, s := range seeds {
			bits[i], pads[i] = macBits(s, n), macPad(s)
			if g.cheatMAC != nil {
				g.cheatMAC(try, i, bits[i])
			}
		}
		reqs, rows, err := g.macRecv.CorrelatedRequests(bits, pads)
		if err != nil {
			return nil, err
		}
		r.macs = rows
		for _, req := range reqs {
			r.msg = append(r.msg, req...)
		}
	}
	return r, nil
}

// evaluatorReverse is the evaluator's side of the reverse OTs of a try:
// both keys of every one, per garbling.
type evaluatorReverse struct {
	try    uint64
	digest Digest
	pairs  [][][2]ot.Key
	// subs are the λ sub-batches of the garbler's message, kept for a
	// certificate about its choices.
	msg  []byte
	subs [][]byte
	// macSubs are the λ MAC sub-batches (MPC-D29), macRows the MAC keys q
	// of the sub-batch of the garbling the evaluator keeps (P then A).
	macSubs [][]byte
	macRows []ot.Block
}

// TakeReverse takes the garbler's reverse request of the next try
// (MPC-D28), before [Evaluator.Request]: it runs the KOS check of each
// of its λ sub-batches (one per garbling) and keeps both keys of every
// reverse OT, and the message (a certificate about the garbler's
// choices of an opened garbling holds it). A malformed
// message (ErrMessage) leaves the machine as it was; one that fails the
// check fails it (ErrDeviation, blaming the garbler; the audit names
// it). The same message again is accepted and ignored.
func (e *Evaluator) TakeReverse(msg []byte) error {
	if err := e.check(phaseReady); err != nil {
		return err
	}
	if !e.cfg.correlated() || !e.revDone {
		return fmt.Errorf("%w: no reverse extension ready", ErrState)
	}
	try := e.pub.Try
	if r := e.rev; r != nil && r.try == try {
		if Sum(msg) == r.digest {
			return nil
		}
		return fmt.Errorf("%w: a second reverse request of try %d", ErrMessage, try)
	}
	first := e.revSend.Batch()
	msg = append([]byte(nil), msg...)
	subs, err := splitReverse(e.cfg, try, msg, &first)
	if err != nil {
		return err
	}
	// Well formed: from here the reverse machine moves on, and an error
	// fails this one.
	var macSubs [][]byte
	if e.cfg.authenticated() {
		if macSubs, err = splitMAC(e.cfg, try, msg); err != nil {
			return err
		}
		for i, sub := range macSubs {
			b, m, err := ot.RequestHeader(sub)
			if err != nil || b != e.macSend.Batch()+uint32(i) || m != 2*e.cfg.stateBits() {
				return fmt.Errorf("%w: MAC sub-batch %d of try %d is not a request of %d OTs of batch %d", ErrMessage, i, try, 2*e.cfg.stateBits(), e.macSend.Batch()+uint32(i))
			}
		}
	}
	r := &evaluatorReverse{try: try, digest: Sum(msg), pairs: make([][][2]ot.Key, len(subs)), msg: msg, subs: subs, macSubs: macSubs}
	for i, sub := range subs {
		pairs, err := e.revSend.SendRandom(sub)
		if err != nil {
			return e.fail("try %d: its reverse OT request of garbling %d fails the consistency check (%v)", try, i, err)
		}
		r.pairs[i] = pairs
	}
	if macSubs != nil {
		// The MAC sub-batches, checked at once (batches of their own).
		rows, err := e.macSend.CorrelatedBatches(macSubs)
		if err != nil {
			return e.fail("try %d: its MAC sub-batch of garbling %d fails the consistency check (%v)", try, len(rows), err)
		}
		r.macRows = rows[e.choose(try)]
	}
	e.rev = r
	return nil
}
