package referee

// The correlated input OTs of a checked try (MPC-D28): the evaluator's
// request, the garbler's checks of it and its corrections, and the
// evaluator's opening with its check of the corrections. pvc_cot.go has
// the overview.

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/internal/parallel"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

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
// transfer's, with the work pre made ahead when it is not nil
// (MPC-D51): the same request either way.
func (e *Evaluator) cotRequest(ck *evaluatorChecked, m int, pre *requestAhead) (msg []byte, used bool, err error) {
	try := e.pub.Try
	r := e.rev
	if r == nil || r.try != try {
		return nil, false, fmt.Errorf("%w: the reverse request of try %d has not come", ErrState, try)
	}
	lam := e.cfg.lambda()
	st := &evaluatorCOT{pairs: r.pairs, rows: make([][]ot.Block, lam)}
	msg = make([]byte, 0, e.cfg.cotRequestSize(m))
	m = e.cfg.garblingOTs(m)
	msg = append(msg, cotMsgHeader(kindCOTRequest, try)...)
	reqs := make([][]byte, lam)
	if pre != nil && pre.cols.Fits(pre.recv, m) {
		// Made ahead but garbling ĵ's choices (MPC-D51).
		used = true
		for i := range lam {
			if i != ck.j {
				reqs[i], st.rows[i] = pre.reqs[i], pre.rows[i]
			}
		}
		if reqs[ck.j], err = pre.recv.RequestPrepared(pre.cols, ck.choices[ck.j*m:(ck.j+1)*m]); err != nil {
			return nil, false, err
		}
		if st.rows[ck.j], err = pre.recv.Correlated(); err != nil {
			return nil, false, err
		}
	} else {
		// The λ extensions are independent: made on up to GOMAXPROCS
		// cores.
		err = forEachGarbling(lam, func(i int) error {
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
			return nil, false, err
		}
	}
	for _, req := range reqs {
		msg = append(msg, req...)
	}
	if !e.cfg.authenticated() {
		// The seed transfer's batch of the forward extension (MPC-D15);
		// with the authenticated state it has OTs of its own (MPC-D30).
		seedBits := ck.choices[e.cfg.lambda()*m:]
		var seedReq []byte
		if pre != nil && pre.fwd.Fits(e.receiver, len(seedBits)) {
			seedReq, err = e.receiver.RequestPrepared(pre.fwd, seedBits)
			used = true
		} else {
			seedReq, err = e.receiver.Request(seedBits)
		}
		if err != nil {
			return nil, false, err
		}
		msg = append(msg, seedReq...)
	}
	st.request = msg
	ck.cot = st
	return msg, used, nil
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
