package referee

// The correlated input OTs of a checked try (MPC-D28): per garbling i a
// correlated OT whose secret is Δ_i, built from the keys of a reverse
// extension whose choices are the bits of the Δ_i, so that everything
// the garbler sends about the evaluator's inputs in garbling i is a
// function of seed_i, its reverse keys K_i (committed) and the
// evaluator's signed request, which the evaluator recomputes in every
// opened garbling and a judge from a certificate.
//
// Per game, before, with or after the base OTs of the forward extension
// (each message depends on its sender's seed and the message it answers
// alone; a session sends ReverseStart with the garbler's seed
// commitment and ReverseRespond with the evaluator's BaseStart):
//
//	G → E  ReverseStart     the base OTs of the reverse extension (G its
//	                        receiver, E its sender), Chou–Orlandi
//	E → G  ReverseRespond   E's answer; G: ReverseFinish
//
// Per try τ, before the evaluator's request (G may send it as soon as
// it has garbled try τ − 1, ReverseRequestAhead: it depends on its seed
// and τ alone):
//
//	G → E  ReverseRequest   λ random-OT requests of 128 OTs of the
//	                        reverse extension (batches τ·λ + i), the
//	                        choices of sub-batch i the bits of Δ_i and
//	                        its KOS pad bits drawn from seed_i; E:
//	                        TakeReverse (KOS check of each, the key
//	                        pairs)
//
// then the five messages of MPC-D14 with the request made of λ
// per-garbling requests and the GGM seed transfer's batch of the
// forward extension, and the commitment's reply made of the
// corrections d_{i,w} = A_{i,w} ⊕ q_{i,w} of every garbling and the
// seed transfer's reply.

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/internal/parallel"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Wire forms of MPC-D28: 'P' 2 kind try:u64 and the body.
const (
	pvcVersionCOT  = 2
	kindReverse    = 'V'
	kindCOTRequest = 'Q'
	kindCOTReply   = 'D'
	cotHeader      = 3 + 8 // magic, version, kind, try
	commitEntryCOT = 4 * sha256.Size
	tagCOTKeys     = "kakure/phantom/pvc/reverse-keys\x00"
)

// cotSessionOf binds the extension of garbling i of try.
func cotSessionOf(cfg Config, try uint64, i int) []byte {
	b := []byte(cotSession)
	b = binary.BigEndian.AppendUint64(b, uint64(len(cfg.Game)))
	b = append(b, cfg.Game...)
	b = binary.BigEndian.AppendUint64(b, try)
	return binary.BigEndian.AppendUint64(b, uint64(i))
}

// keysHash is the garbler's commitment to its reverse keys K_i of
// garbling i of try: SHA-256(tag ‖ game ‖ try ‖ i ‖ the 128 keys).
func keysHash(cfg Config, try uint64, i int, keys []ot.Key) Digest {
	h := sha256.New()
	h.Write([]byte(tagCOTKeys))
	writeGameTry(h, cfg, try, i)
	for _, k := range keys {
		h.Write(k[:])
	}
	return Digest(h.Sum(nil))
}

// deltaBits returns the bits of Δ as the reverse extension's choices,
// bit k of Δ being bit k%8 of byte k/8 (as ot's sender reads its secret).
func deltaBits(d gc.Label) []bool {
	out := make([]bool, ot.Kappa)
	for k := range out {
		out[k] = d[k/8]>>(k%8)&1 == 1
	}
	return out
}

func cotMsgHeader(kind byte, try uint64) []byte {
	b := []byte{pvcMagic, pvcVersionCOT, kind}
	return binary.BigEndian.AppendUint64(b, try)
}

func parseCOTHeader(b []byte, kind byte, size int, try uint64, what string) error {
	if len(b) != size || b[0] != pvcMagic || b[1] != pvcVersionCOT || b[2] != kind {
		return fmt.Errorf("%w: %s of %d bytes, want %d", ErrMessage, what, len(b), size)
	}
	if got := binary.BigEndian.Uint64(b[3:]); got != try {
		return fmt.Errorf("%w: %s of try %d, expected %d", ErrMessage, what, got, try)
	}
	return nil
}

// reverseSize is the size of a reverse request of a game of cfg: λ
// sub-batches of 128 OTs, then, with the authenticated state (MPC-D29),
// λ MAC sub-batches of 2n OTs.
func (c Config) reverseSize() int {
	n := cotHeader + c.lambda()*ot.RequestSize(ot.Kappa)
	if c.authenticated() {
		n += c.lambda() * ot.RequestSizeKappa(c.macKappa(), 2*c.stateBits())
	}
	return n
}

// splitReverse returns the λ sub-batches of a reverse request of try,
// checking its size and kind and, when first is not nil, that sub-batch
// i is a request of 128 OTs of batch *first + i (so that the reverse
// extension's machine takes all of them or none).
func splitReverse(cfg Config, try uint64, msg []byte, first *uint32) ([][]byte, error) {
	if err := parseCOTHeader(msg, kindReverse, cfg.reverseSize(), try, "reverse OT request"); err != nil {
		return nil, err
	}
	n := ot.RequestSize(ot.Kappa)
	subs := make([][]byte, cfg.lambda())
	for i := range subs {
		subs[i] = msg[cotHeader+i*n : cotHeader+(i+1)*n]
		if first == nil {
			continue
		}
		b, m, err := ot.RequestHeader(subs[i])
		if err != nil {
			return nil, fmt.Errorf("%w: reverse OT request of try %d, garbling %d: %v", ErrMessage, try, i, err)
		}
		if b != *first+uint32(i) || m != ot.Kappa {
			return nil, fmt.Errorf("%w: reverse OT request of try %d, garbling %d: batch %d of %d OTs, want batch %d of %d", ErrMessage, try, i, b, m, *first+uint32(i), ot.Kappa)
		}
	}
	return subs, nil
}

// reverseBits returns the choices of sub-batch i of an honest reverse
// request, pad bits included: the bits of Δ_i, then KOSPad bits from
// seed_i.
func reverseBits(seed prg.Seed, delta gc.Label) []bool {
	return append(deltaBits(delta), reversePad(seed)...)
}

// reversePad returns the pad bits of the consistency check of the
// reverse sub-batch of the garbling made from seed.
func reversePad(seed prg.Seed) []bool { return seed.Stream(labelReversePad).Bools(ot.KOSPad) }

// cotRequestSize is the size of the evaluator's request of a try with m
// evaluator inputs.
func (c Config) cotRequestSize(m int) int {
	n := cotHeader + c.lambda()*ot.RequestSize(c.garblingOTs(m))
	if !c.authenticated() {
		// The seed transfer's batch (MPC-D30 has OTs of its own).
		n += ot.RequestSize(c.seedOTs())
	}
	return n
}

// cotReplySize is the size of the commitment's reply part.
func (c Config) cotReplySize(m int) int {
	n := cotHeader + c.lambda()*c.garblingOTs(m)*16
	if !c.authenticated() {
		n += ot.ReplySize(c.seedOTs())
	}
	return n
}

// splitCOTRequest returns the λ per-garbling requests and the seed
// transfer's request of an evaluator's request of try.
func splitCOTRequest(cfg Config, try uint64, m int, b []byte) ([][]byte, []byte, error) {
	if err := parseCOTHeader(b, kindCOTRequest, cfg.cotRequestSize(m), try, "OT request"); err != nil {
		return nil, nil, err
	}
	n := ot.RequestSize(cfg.garblingOTs(m))
	reqs := make([][]byte, cfg.lambda())
	off := cotHeader
	for i := range reqs {
		reqs[i] = b[off : off+n]
		off += n
	}
	return reqs, b[off:], nil
}

// splitCOTReply returns the corrections of every garbling and the seed
// transfer's reply of a commitment's reply part of try.
func splitCOTReply(cfg Config, try uint64, m int, b []byte) ([][]ot.Block, []byte, error) {
	if err := parseCOTHeader(b, kindCOTReply, cfg.cotReplySize(m), try, "OT corrections"); err != nil {
		return nil, nil, err
	}
	d := make([][]ot.Block, cfg.lambda())
	off := cotHeader
	for i := range d {
		d[i] = make([]ot.Block, cfg.garblingOTs(m))
		for w := range d[i] {
			copy(d[i][w][:], b[off:])
			off += 16
		}
	}
	return d, b[off:], nil
}

// forEachGarbling runs f for i < n on up to GOMAXPROCS goroutines and
// returns the error of the lowest i that failed (the same whatever the
// order).
func forEachGarbling(n int, f func(i int) error) error {
	for _, err := range parallel.Each(n, runtime.GOMAXPROCS(0), f) {
		if err != nil {
			return err
		}
	}
	return nil
}

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
// tries it is ReverseRequest.
func (g *Garbler) ReverseRequestAhead() ([]byte, error) {
	if g.phase == phaseFailed {
		return nil, g.failed
	}
	if g.phase == phaseReady {
		return g.ReverseRequest()
	}
	if g.phase != phaseWaiting {
		return nil, fmt.Errorf("%w: garbler in phase %d: the reverse request ahead comes once the try's garbling is made", ErrState, g.phase)
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

// ----- per try: the evaluator's request -----

// evaluatorCOT is the evaluator's state of the correlated OTs of a
// checked try.
type evaluatorCOT struct {
	request []byte // the whole request message, as sent
	pairs   [][][2]ot.Key
	rows    [][]ot.Block // its rows t_{i,w} of every garbling
	reply   []byte       // the commitment's reply part, once received
	// corr are the corrections of every garbling, once received.
	corr [][]ot.Block
}

// cotRequest makes the request of a checked try of the correlated input
// OTs from the choices of every garbling (m each) and the seed
// transfer's.
func (e *Evaluator) cotRequest(ck *evaluatorChecked, m int) ([]byte, error) {
	try := e.pub.Try
	r := e.rev
	if r == nil || r.try != try {
		return nil, fmt.Errorf("%w: the reverse request of try %d has not come", ErrState, try)
	}
	lam := e.cfg.lambda()
	st := &evaluatorCOT{pairs: r.pairs, rows: make([][]ot.Block, lam)}
	msg := make([]byte, 0, e.cfg.cotRequestSize(m))
	m = e.cfg.garblingOTs(m)
	msg = append(msg, cotMsgHeader(kindCOTRequest, try)...)
	// The λ extensions are independent: made on up to GOMAXPROCS cores.
	reqs := make([][]byte, lam)
	err := forEachGarbling(lam, func(i int) error {
		recv, err := ot.NewReceiverFromKeys(e.seed.Derive(labelCOTPad, try, uint64(i)), cotSessionOf(e.cfg, try, i), r.pairs[i])
		if err != nil {
			return err
		}
		if reqs[i], err = recv.Request(ck.choices[i*m : (i+1)*m]); err != nil {
			return err
		}
		st.rows[i], err = recv.Correlated()
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, req := range reqs {
		msg = append(msg, req...)
	}
	if !e.cfg.authenticated() {
		// The seed transfer's batch of the forward extension (MPC-D15);
		// with the authenticated state it has OTs of its own (MPC-D30).
		seedReq, err := e.receiver.Request(ck.choices[e.cfg.lambda()*m:])
		if err != nil {
			return nil, err
		}
		msg = append(msg, seedReq...)
	}
	st.request = msg
	ck.cot = st
	return msg, nil
}

// ----- per try: the garbler's checks and corrections -----

// cotRows checks the per-garbling requests of the evaluator's request
// of the try under way and returns the garbler's rows q_i of every
// garbling, and the seed transfer's request (checked by the forward
// extension). A malformed request is ErrMessage; one that fails a
// check fails the garbler (ErrDeviation, blaming the evaluator).
func (g *Garbler) cotRows(request []byte, m int) ([][]ot.Block, []byte, error) {
	try := g.pub.Try
	r := g.rev
	if r == nil || r.try != try {
		return nil, nil, fmt.Errorf("%w: the reverse request of try %d was not made", ErrState, try)
	}
	reqs, seedReq, err := splitCOTRequest(g.cfg, try, m, request)
	if err != nil {
		return nil, nil, err
	}
	if r.rows != nil && r.checked == Sum(request) {
		if !g.cfg.authenticated() {
			if err := g.sender.Check(seedReq); err != nil {
				return nil, nil, g.requestError(err)
			}
		}
		return r.rows, seedReq, nil
	}
	rows := make([][]ot.Block, len(reqs))
	err = forEachGarbling(len(reqs), func(i int) error {
		q, err := ot.CorrelatedRows(cotSessionOf(g.cfg, try, i), r.deltas[i], r.keys[i], reqs[i])
		if errors.Is(err, ot.ErrConsistency) && g.cheatReverse != nil && g.cheatIgnoreCheck {
			// A cheating garbler whose reverse choices were not Δ_i's
			// bits goes on with rows of its own.
			q, err = make([]ot.Block, g.cfg.garblingOTs(m)), nil
		}
		if err != nil {
			return fmt.Errorf("garbling %d: %w", i, err)
		}
		rows[i] = q
		return nil
	})
	if err != nil {
		return nil, nil, g.requestError(err)
	}
	if !g.cfg.authenticated() {
		if err := g.sender.Check(seedReq); err != nil {
			return nil, nil, g.requestError(err)
		}
	}
	r.checked, r.rows = Sum(request), rows
	return rows, seedReq, nil
}

// commitCorrelated is Commit's work in a game of the correlated input
// OTs: the corrections of every garbling and the seed transfer's reply.
func (g *Garbler) commitCorrelated(request []byte, mover circuit.Party, m int, copies []*copyGarbling, seedPairs [][2]ot.Block) (Commitment, error) {
	try := g.pub.Try
	rows, seedReq, err := g.cotRows(request, m)
	if err != nil {
		return Commitment{}, err
	}
	corr := make([][]ot.Block, len(copies))
	for i, cp := range copies {
		corr[i] = make([]ot.Block, g.cfg.garblingOTs(m))
		for w, pair := range cp.keys.Inputs[circuit.Evaluator] {
			corr[i][w] = pair[0].Xor(rows[i][w])
		}
		for k, z := range cp.blinds {
			corr[i][m+k] = z.Xor(rows[i][m+k])
		}
	}
	if g.cheatCorrections != nil {
		g.cheatCorrections(try, m, corr)
	}
	var seedReply, seedCT []byte
	if g.cfg.authenticated() {
		// The seed transfer of MPC-D30: the level sums under the keys of
		// the evaluator's response, with the commitments.
		levels := ggmLevels(g.seed.Derive(labelPVCRoot, try), g.cfg.depth())
		sums := ggmSums(levels)
		if g.cheatSeedSums != nil {
			g.cheatSeedSums(try, sums)
		}
		if seedCT, err = seedCiphertexts(g.cfg, g.seed, try, g.seedResp, sums); err != nil {
			return Commitment{}, err
		}
	} else {
		seedReply, err = g.sender.Send(seedReq, seedPairs)
		if err := g.requestError(err); err != nil {
			return Commitment{}, err
		}
	}
	reply := make([]byte, 0, g.cfg.cotReplySize(m))
	reply = append(reply, cotMsgHeader(kindCOTReply, try)...)
	for _, d := range corr {
		for _, b := range d {
			reply = append(reply, b[:]...)
		}
	}
	reply = append(reply, seedReply...)
	hashes := make([]Digest, len(copies))
	for i := range copies {
		hashes[i] = keysHash(g.cfg, try, i, g.rev.keys[i])
	}
	if g.cheatKeyHashes != nil {
		g.cheatKeyHashes(try, hashes)
	}
	var macHashes, corrHashes []Digest
	if g.cfg.authenticated() {
		subs, err := splitMAC(g.cfg, try, g.rev.msg)
		if err != nil {
			return Commitment{}, err
		}
		for i, sub := range subs {
			macHashes = append(macHashes, Sum(sub))
			corrHashes = append(corrHashes, Sum(correctionBytes(corr[i])))
		}
	}
	return Commitment{Commitments: append(marshalCommitment(try, mover, copies, hashes, macHashes, corrHashes), seedCT...), Reply: reply}, nil
}

// ----- per try: the evaluator's opening -----

// openCorrelated is Open's work in a game of the correlated input OTs:
// the seed transfer's outputs, the corrections, and the labels of its
// inputs of garbling ĵ, t_{ĵ,w} ⊕ d_{ĵ,w}.
func (e *Evaluator) openCorrelated(cm *commitment, msg Commitment) ([]byte, error) {
	cur, try := e.cur, e.pub.Try
	ck := cur.checked
	corr, seedReply, err := splitCOTReply(e.cfg, try, e.rc.layout[cur.mover].NumInputs[circuit.Evaluator], msg.Reply)
	if err != nil {
		return nil, err
	}
	depth := e.cfg.depth()
	sums := make([]prg.Seed, depth)
	if e.cfg.authenticated() {
		// The seed transfer of MPC-D30: its keys, kept from when it made
		// its response, or made again from its coins.
		keys := e.seedKeys
		if keys == nil || e.seedKeysTry != try {
			var err error
			if _, keys, err = seedResponse(e.cfg, seedCoins(e.seed, try), try, ck.j, e.seedStartMsg); err != nil {
				return nil, err
			}
		}
		sums = seedSums(e.cfg, try, ck.j, keys, cm.seedCT)
	} else {
		got, err := e.receiver.Receive(seedReply)
		if err != nil {
			return nil, fmt.Errorf("%w: OT reply of try %d: %v", ErrMessage, try, err)
		}
		// The OT machine has moved on: from here an error fails the machine.
		for l := range depth {
			copy(sums[l][:16], got[2*l][:])
			copy(sums[l][16:], got[2*l+1][:])
		}
	}
	if e.cfg.authenticated() {
		// The commitment names each garbling's corrections by their
		// digest (MPC-D29); another digest is proven by the two parts
		// of the signed commitment (MPC-D31).
		for i, d := range corr {
			if Sum(correctionBytes(d)) != cm.corrHashes[i] {
				e.cert = &Certificate{Commitment: bytes.Clone(msg.Commitments), Opened: i, What: "corrections' digest",
					Digest: &DigestEvidence{Reply: bytes.Clone(msg.Reply)}}
				return nil, e.fail("try %d: its commitment's digest of the corrections of garbling %d is not the one of the corrections it sent (certificate)", try, i)
			}
		}
	}
	ck.cot.reply = append([]byte(nil), msg.Reply...)
	ck.cot.corr = corr
	labels := make([]gc.Label, len(corr[ck.j]))
	for w := range labels {
		labels[w] = ck.cot.rows[ck.j][w].Xor(corr[ck.j][w])
	}
	return e.openWith(cm, msg.Commitments, labels, ggmPuncture(sums, ck.j, depth), nil)
}

// checkCorrections checks, in every opened garbling i, that the
// garbler's reverse choices of garbling i were the bits of Δ_i (the
// check value x of its reverse sub-batch against Δ_i's bits and seed_i's
// pad bits), that its reverse keys K_i are those Δ_i selects (their hash
// is in the commitment) and that its corrections are A_{i,w} ⊕ q_{i,w},
// q_i recomputed from Δ_i, K_i and the request (MPC-D28). Wrong choices
// and a wrong correction fail the machine with a certificate; a wrong
// hash of the keys (with the right choices: a garbler that committed to
// something else than the keys it holds) fails it without one (the
// audit names the garbler).
func (e *Evaluator) checkCorrections(cm *commitment, seeds []prg.Seed) error {
	cur, try := e.cur, e.pub.Try
	ck := cur.checked
	var macFaults []error
	if e.cfg.authenticated() {
		// The garbler's MAC choices of every opened garbling (MPC-D29),
		// checked at once; judged below in the order of the garblings.
		macFaults = parallel.Each(len(seeds), runtime.GOMAXPROCS(0), func(i int) error {
			if i == ck.j {
				return nil
			}
			return ot.VerifyChoices(e.cfg.macSession(), e.rev.macSubs[i], append(macBits(seeds[i], e.cfg.stateBits()), macPad(seeds[i])...))
		})
	}
	var keyFault error
	for i, s := range seeds {
		if i == ck.j {
			continue
		}
		delta, err := copyDelta(s)
		if err != nil {
			return e.fail("try %d: %v", try, err)
		}
		// The garbler's reverse choices of garbling i: the check value x
		// of its sub-batch, which passed the KOS check, must be the one
		// of Δ_i's bits and seed_i's pad bits.
		if err := ot.VerifyChoices(e.cfg.reverseSession(), e.rev.subs[i], reverseBits(s, delta)); err != nil {
			e.cert = &Certificate{Commitment: ck.commitment, Opened: i, Seed: s, What: "reverse OT choices",
				Reverse: append([]byte(nil), e.rev.msg...)}
			return e.fail("try %d: its reverse OT choices of opened garbling %d are not the bits of the Δ its seed gives (certificate): %v", try, i, err)
		}
		// Its MAC choices of garbling i (MPC-D29): the check value of its
		// MAC sub-batch must be the one of P_i, A_i and the pad seed_i
		// gives.
		if e.cfg.authenticated() {
			if err := macFaults[i]; err != nil {
				e.cert = &Certificate{Commitment: ck.commitment, Opened: i, Seed: s, What: "MAC choices",
					Reverse: append([]byte(nil), e.rev.msg...), MAC: true}
				return e.fail("try %d: its MAC choices of opened garbling %d are not the colours and mask bits its seed gives (certificate): %v", try, i, err)
			}
		}
		bits := deltaBits(delta)
		keys := make([]ot.Key, ot.Kappa)
		for k, p := range ck.cot.pairs[i] {
			keys[k] = p[b2int(bits[k])]
		}
		if keysHash(e.cfg, try, i, keys) != cm.keyHashes[i] {
			if keyFault == nil {
				keyFault = fmt.Errorf("try %d: its reverse OT keys of opened garbling %d are not those its Δ selects (its reverse choices were not Δ's bits)", try, i)
			}
			continue
		}
		// With the keys Δ_i selects, the garbler's rows are the
		// evaluator's own t_{i,w} ⊕ c_{i,w}·Δ_i: exactly what
		// ot.CorrelatedRows, which a judge runs, gives of K_i and the
		// request (the IKNP correlation), without the extension's work.
		m := len(ck.cot.rows[i])
		q := make([]ot.Block, m)
		for w, t := range ck.cot.rows[i] {
			q[w] = t
			if ck.choices[i*m+w] {
				q[w] = t.Xor(delta)
			}
		}
		bad, err := firstWrongCorrection(e.cfg, e.rc, cur.mover, s, q, ck.cot.corr[i])
		if err != nil {
			return e.fail("try %d: garbling %d: %v", try, i, err)
		}
		if bad >= 0 {
			e.cert = &Certificate{Commitment: ck.commitment, Opened: i, Seed: s, What: "OT corrections",
				OT: &OTEvidence{Keys: keys, Request: append([]byte(nil), ck.cot.request...), Reply: append([]byte(nil), ck.cot.reply...)}}
			return e.fail("try %d: the OT correction of its input %d in opened garbling %d is not the one its seed, its keys and the request give (certificate)", try, bad, i)
		}
	}
	if keyFault != nil {
		return e.fail("%v", keyFault)
	}
	return nil
}

// wrongCorrection recomputes the corrections of garbling i from its
// seed, Δ, the garbler's keys and the evaluator's request of that
// garbling, and returns the first wire whose correction in corr
// differs, or -1.
func wrongCorrection(cfg Config, rc *refereeCircuits, mover circuit.Party, try uint64, i int, seed prg.Seed, delta gc.Label, keys []ot.Key, req []byte, corr []ot.Block) (int, error) {
	q, err := ot.CorrelatedRows(cotSessionOf(cfg, try, i), delta, keys, req)
	if err != nil {
		return 0, err
	}
	return firstWrongCorrection(cfg, rc, mover, seed, q, corr)
}

// firstWrongCorrection returns the first wire w of the garbling made
// from seed whose correction differs from A_w ⊕ q_w, or -1 (the blind
// OTs of MPC-D29 after the inputs).
func firstWrongCorrection(cfg Config, rc *refereeCircuits, mover circuit.Party, seed prg.Seed, q, corr []ot.Block) (int, error) {
	zero, err := correctionLabels(cfg, rc, mover, seed)
	if err != nil {
		return 0, err
	}
	if len(q) != len(zero) || len(corr) != len(zero) {
		return 0, fmt.Errorf("%d rows and %d corrections for %d inputs", len(q), len(corr), len(zero))
	}
	for w, pair := range zero {
		if pair[0].Xor(q[w]) != corr[w] {
			return w, nil
		}
	}
	return -1, nil
}

// correctionLabels returns the label pairs of the evaluator's OTs of the
// garbling made from seed: its inputs, then (MPC-D29) the blind OTs.
func correctionLabels(cfg Config, rc *refereeCircuits, mover circuit.Party, seed prg.Seed) ([][2]gc.Label, error) {
	zero, err := copyEvaluatorLabels(rc, mover, seed)
	if err != nil {
		return nil, err
	}
	if cfg.authenticated() {
		delta, err := copyDelta(seed)
		if err != nil {
			return nil, err
		}
		for _, z := range blindLabels(seed) {
			zero = append(zero, [2]gc.Label{z, z.Xor(delta)})
		}
	}
	return zero, nil
}

// madeCorrections returns the corrections an honest garbler sends of
// garbling i of try (made from seed, reverse keys keys) for the
// evaluator's request req of it: A_w ⊕ q_w per OT.
func madeCorrections(cfg Config, rc *refereeCircuits, mover circuit.Party, try uint64, i int, seed prg.Seed, keys []ot.Key, req []byte) ([]ot.Block, error) {
	delta, err := copyDelta(seed)
	if err != nil {
		return nil, err
	}
	q, err := ot.CorrelatedRows(cotSessionOf(cfg, try, i), delta, keys, req)
	if err != nil {
		return nil, err
	}
	zero, err := correctionLabels(cfg, rc, mover, seed)
	if err != nil {
		return nil, err
	}
	if len(q) != len(zero) {
		return nil, fmt.Errorf("%d rows for %d inputs", len(q), len(zero))
	}
	corr := make([]ot.Block, len(q))
	for w, pair := range zero {
		corr[w] = pair[0].Xor(q[w])
	}
	return corr, nil
}

// ----- certificates -----

// OTEvidence is the part of a [Certificate] about the corrections of an
// opened garbling (MPC-D28): the garbler's reverse keys K_i of the
// garbling, which its commitment pins by their hash, and the two
// messages the corrections are judged from, whose digests the record
// holds — nothing of the evaluator's secrets (its bits in an opened
// garbling are random, MPC-D18).
type OTEvidence struct {
	// Keys are the 128 keys K_i, those the bits of Δ_i select among the
	// evaluator's reverse key pairs.
	Keys []ot.Key
	// Request is the evaluator's request of the try, Reply the reply part
	// of the garbler's Commitment (the corrections).
	Request []byte
	Reply   []byte
}

// verifyCorrections judges a certificate about the corrections of an
// opened garbling: nil when they differ from what seed_i, K_i and the
// request give.
func verifyCorrections(cfg Config, rc *refereeCircuits, cm *commitment, c Certificate) error {
	if !cfg.correlated() {
		return fmt.Errorf("%w: the game has no correlated input OTs", ErrNotProven)
	}
	i := c.Opened
	if i < 0 || i >= cfg.lambda() {
		return fmt.Errorf("%w: garbling %d of %d", ErrNotProven, i, cfg.lambda())
	}
	if seedHash(cfg, cm.try, i, c.Seed) != cm.entries[i][0] {
		return fmt.Errorf("%w: the seed is not the one committed to", ErrNotProven)
	}
	if len(c.OT.Keys) != ot.Kappa || keysHash(cfg, cm.try, i, c.OT.Keys) != cm.keyHashes[i] {
		return fmt.Errorf("%w: the keys are not the ones committed to", ErrNotProven)
	}
	m := rc.layout[cm.mover].NumInputs[circuit.Evaluator]
	reqs, _, err := splitCOTRequest(cfg, cm.try, m, c.OT.Request)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	corr, _, err := splitCOTReply(cfg, cm.try, m, c.OT.Reply)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	delta, err := copyDelta(c.Seed)
	if err != nil {
		return err
	}
	bad, err := wrongCorrection(cfg, rc, cm.mover, cm.try, i, c.Seed, delta, c.OT.Keys, reqs[i], corr[i])
	if err != nil {
		// The garbler answered a request its own check refuses under the
		// keys it committed to; not judged here (the audit names the
		// party at fault).
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if bad >= 0 {
		return nil
	}
	return fmt.Errorf("%w: the corrections of garbling %d are the ones its seed gives", ErrNotProven, i)
}

// verifyReverseChoices judges a certificate about the garbler's reverse
// choices of an opened garbling: nil when the check value x of the
// garbling's sub-batch of the reverse request c.Reverse is not the one
// of the bits of Δ_i and the pad bits seed_i gives. An honest garbler's
// x is always that one (it made the sub-batch with those choices), so
// it is never convicted; the sub-batch passed the evaluator's KOS check,
// which makes x the one of the choices its columns carry (ot's
// VerifyChoices), so a mismatch means the garbler's reverse choices were
// not Δ_i's bits.
func verifyReverseChoices(cfg Config, cm *commitment, c Certificate) error {
	if !cfg.correlated() {
		return fmt.Errorf("%w: the game has no correlated input OTs", ErrNotProven)
	}
	i := c.Opened
	if i < 0 || i >= cfg.lambda() {
		return fmt.Errorf("%w: garbling %d of %d", ErrNotProven, i, cfg.lambda())
	}
	if seedHash(cfg, cm.try, i, c.Seed) != cm.entries[i][0] {
		return fmt.Errorf("%w: the seed is not the one committed to", ErrNotProven)
	}
	subs, err := splitReverse(cfg, cm.try, c.Reverse, nil)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	delta, err := copyDelta(c.Seed)
	if err != nil {
		return err
	}
	err = ot.VerifyChoices(cfg.reverseSession(), subs[i], reverseBits(c.Seed, delta))
	switch {
	case errors.Is(err, ot.ErrChoices):
		return nil
	case err != nil:
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	return fmt.Errorf("%w: the reverse choices of garbling %d are the bits of its Δ", ErrNotProven, i)
}

// ----- a refused per-garbling request -----

// ReverseOTSeed returns the seed of the garbler's machine of the reverse
// extension (MPC-D28), and GarblingSeeds the seeds seed_i of the
// garblings of the try under way (nil before its reverse request): what
// the garbler reveals to prove that the evaluator's request of a
// garbling failed the consistency check ([VerifyCorrelatedRefusal]).
// The reverse seed opens the garbler's reverse choices, hence the Δ_i of
// every garbling of every try so far, and nothing else of its seed; the
// seeds open the try's garblings, none of which was sent (the refusal
// comes before the commitment). As [Garbler.OTSeed], they are for a game
// that ends on that refusal.
func (g *Garbler) ReverseOTSeed() prg.Seed { return g.seed.Derive(labelReverseOT) }

// GarblingSeeds returns the seeds seed_i of the garblings of the try
// under way whose reverse request was made (see [Garbler.ReverseOTSeed]),
// or nil.
func (g *Garbler) GarblingSeeds() []prg.Seed {
	if g.rev == nil {
		return nil
	}
	return append([]prg.Seed(nil), g.rev.seeds...)
}

// VerifyCorrelatedRefusal judges the garbler's claim that the
// evaluator's request of try failed the consistency check of one of the
// per-garbling extensions of a game of the correlated input OTs
// (MPC-D28), from messages a record signs — the garbler's reverse setup
// message reverseStart, the evaluator's answer reverseAnswer, the
// garbler's reverse request of the try and the evaluator's request —
// and what the garbler reveals: the seed of its reverse machine
// ([Garbler.ReverseOTSeed]) and the try's seeds seed_i
// ([Garbler.GarblingSeeds]), which give Δ_i and the pad bits of the
// reverse sub-batch i. The judge rebuilds the garbler's reverse machine
// from the seed, checks that it gives exactly reverseStart and, with the
// Δ_i's bits and those pad bits as choices, exactly the reverse request
// (so its keys K_i are those the Δ_i select among the evaluator's
// pairs), and runs the garbler's check of every garbling's request. It
// returns nil when the claim is proven, which convicts the evaluator;
// otherwise an error wrapping ErrNotProven. An honest evaluator's
// request passes the check under the keys its Δ_i selects, so it is
// never convicted. The caller checks that the messages are those of the
// record.
func VerifyCorrelatedRefusal(cfg Config, try uint64, reverseSeed prg.Seed, seeds []prg.Seed, reverseStart, reverseAnswer, reverse, request []byte) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if !cfg.correlated() {
		return fmt.Errorf("%w: the game has no correlated input OTs", ErrNotProven)
	}
	if len(seeds) != cfg.lambda() {
		return fmt.Errorf("%w: %d seeds for λ = %d", ErrNotProven, len(seeds), cfg.lambda())
	}
	subs, err := splitReverse(cfg, try, reverse, nil)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	first, _, err := ot.RequestHeader(subs[0])
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	recv := ot.NewReceiver(reverseSeed, cfg.reverseSession())
	m1, err := recv.BaseStart()
	if err != nil {
		return err
	}
	if !bytes.Equal(m1, reverseStart) {
		return fmt.Errorf("%w: the seed does not give the garbler's reverse setup message", ErrNotProven)
	}
	if err := recv.BaseFinish(reverseAnswer); err != nil {
		return fmt.Errorf("%w: the evaluator's reverse setup answer: %v", ErrNotProven, err)
	}
	for range first {
		if err := recv.Skip(); err != nil {
			return err
		}
	}
	deltas := make([]gc.Label, len(seeds))
	keys := make([][]ot.Key, len(seeds))
	for i, s := range seeds {
		if deltas[i], err = copyDelta(s); err != nil {
			return err
		}
		again, err := recv.RequestPadded(deltaBits(deltas[i]), reversePad(s))
		if err != nil {
			return err
		}
		if !bytes.Equal(again, subs[i]) {
			return fmt.Errorf("%w: the reverse request of try %d, garbling %d, is not the one the seeds give", ErrNotProven, try, i)
		}
		if keys[i], err = recv.ReceiveRandom(); err != nil {
			return err
		}
	}
	// The request's size tells the mover's input count: try both layouts.
	rc, err := circuitsFor(cfg)
	if err != nil {
		return err
	}
	for _, l := range rc.layout {
		reqs, _, err := splitCOTRequest(cfg, try, l.NumInputs[circuit.Evaluator], request)
		if err != nil {
			continue
		}
		for i, req := range reqs {
			_, err := ot.CorrelatedRows(cotSessionOf(cfg, try, i), deltas[i], keys[i], req)
			if errors.Is(err, ot.ErrConsistency) {
				return nil
			}
		}
		return fmt.Errorf("%w: every garbling's request of try %d passes the check", ErrNotProven, try)
	}
	return fmt.Errorf("%w: the request is not one of try %d", ErrNotProven, try)
}

// JudgeCorrelatedRefusal is VerifyCorrelatedRefusal against the record
// of the game: the reverse setup messages, the reverse request and the
// request of try t must be those whose digests the record holds.
func JudgeCorrelatedRefusal(rec Record, t int, reverseSeed prg.Seed, seeds []prg.Seed, reverseStart, reverseAnswer, reverse, request []byte) error {
	if t < 0 || t >= len(rec.Tries) {
		return fmt.Errorf("%w: the record has no try %d", ErrNotProven, t)
	}
	tr := rec.Tries[t]
	if rec.ReverseSent < 2 || Sum(reverseStart) != rec.Reverse[0] || Sum(reverseAnswer) != rec.Reverse[1] ||
		!tr.reversed() || Sum(reverse) != tr.Reverse || tr.Sent < 1 || Sum(request) != tr.Request {
		return fmt.Errorf("%w: the messages are not the ones the record holds for try %d", ErrNotProven, t)
	}
	pub, _, _, err := replayPublic(rec.Config, Record{Config: rec.Config, Tries: rec.Tries[:t]})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	return VerifyCorrelatedRefusal(rec.Config, pub.Try, reverseSeed, seeds, reverseStart, reverseAnswer, reverse, request)
}
