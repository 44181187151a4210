package referee

// The garbler's side of a checked try (T-8(b)): garbling the λ
// garblings, committing to them, checking the evaluator's choice and
// sending the chosen garbling. pvc.go has the overview.

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/internal/parallel"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// garblerCommitted is the garbler's state of a checked try between its
// Commitment and the evaluator's Choice.
type garblerCommitted struct {
	try    uint64
	mover  circuit.Party
	copies []*copyGarbling
	seeds  []prg.Seed
	// rows are the rows of the parity check of the authenticated state
	// (MPC-D29), and request, commitment the messages they are drawn
	// from (kept, with the reply, for a certificate).
	rows                       [][]byte
	request, commitment, reply []byte
	// flips are the evaluator's flips of its try (MPC-D52), once taken.
	flips []bool
}

// prepareCopies garbles the λ garblings of try (Prepare's work when the
// game is checked).
func (g *Garbler) prepareCopies(try uint64, mover circuit.Party) ([]*copyGarbling, []prg.Seed, error) {
	return prepareCopiesOf(g.cfg, g.rc, g.seed, try, mover, copyHooks{cheat: g.cheatCopy, couple: g.coupleMask})
}

// prepareCopiesOf garbles the λ garblings of try of the garbler of seed.
func prepareCopiesOf(cfg Config, rc *refereeCircuits, seed prg.Seed, try uint64, mover circuit.Party, hooks copyHooks) ([]*copyGarbling, []prg.Seed, error) {
	leaves := ggmLevels(seed.Derive(labelPVCRoot, try), cfg.depth())
	seeds := leaves[len(leaves)-1]
	copies, err := garbleCopies(cfg, rc, mover, try, seeds, -1, hooks)
	if err != nil {
		return nil, nil, err
	}
	return copies, seeds, nil
}

// garbleCopies garbles the copies of try from their seeds, all but skip
// (-1 for none), on up to GOMAXPROCS cores at once (MPC-D19: each copy is
// a function of its seed alone, so the result does not depend on the
// order). A test hook makes it one at a time.
func garbleCopies(cfg Config, rc *refereeCircuits, mover circuit.Party, try uint64, seeds []prg.Seed, skip int, hooks copyHooks) ([]*copyGarbling, error) {
	copies := make([]*copyGarbling, len(seeds))
	workers := runtime.GOMAXPROCS(0)
	if hooks.cheat != nil || hooks.couple != nil {
		workers = 1
	}
	errs := parallel.Each(len(seeds), workers, func(i int) error {
		if i == skip {
			return nil
		}
		var err error
		copies[i], err = garbleCopy(cfg, rc, mover, try, i, seeds[i], hooks)
		return err
	})
	return copies, errors.Join(errs...)
}

// Commit answers the evaluator's request of the next try of a checked
// game (λ > 1) with the commitments to the λ garblings of the try and
// the OT reply. It does not need the garbler's player's try, which comes
// with [Garbler.GarbleChosen]. An error leaves the machine as it was.
func (g *Garbler) Commit(request []byte) (Commitment, error) {
	if err := g.check(phaseReady); err != nil {
		return Commitment{}, err
	}
	if !g.cfg.Checked() {
		return Commitment{}, fmt.Errorf("%w: Commit in a game without checking", ErrState)
	}
	mover := g.cfg.PartyOf(g.pub.ToMove)
	m := g.rc.layout[mover].NumInputs[circuit.Evaluator]
	try := g.pub.Try
	if g.cfg.correlated() {
		if _, _, err := splitCOTRequest(g.cfg, try, m, request); err != nil {
			return Commitment{}, err
		}
	} else if err := checkRequestSize(request, g.cfg.evaluatorOTs(m)); err != nil {
		return Commitment{}, err
	}
	g.takeAhead(try, mover)
	var copies []*copyGarbling
	var seeds []prg.Seed
	if p := g.pre; p != nil && p.try == try && p.mover == mover && p.copies != nil {
		copies, seeds = p.copies, p.seeds
	} else {
		var err error
		if copies, seeds, err = g.prepareCopies(try, mover); err != nil {
			return Commitment{}, err
		}
	}
	st := &garblerCommitted{try: try, mover: mover, copies: copies, seeds: seeds}
	pairs := make([][2]ot.Block, 0, g.cfg.evaluatorOTs(m))
	if !g.cfg.correlated() {
		for _, cp := range copies {
			for _, pair := range cp.keys.Inputs[circuit.Evaluator] {
				pairs = append(pairs, [2]ot.Block{pair[0], pair[1]})
			}
		}
	}
	levels := ggmLevels(g.seed.Derive(labelPVCRoot, try), g.cfg.depth())
	for _, s := range ggmSums(levels) {
		for half := range 2 {
			var p [2]ot.Block
			for b := range 2 {
				copy(p[b][:], s[b][16*half:16*half+16])
			}
			pairs = append(pairs, p)
		}
	}
	var c Commitment
	if g.cfg.correlated() {
		var err error
		if c, err = g.commitCorrelated(request, mover, m, copies, pairs); err != nil {
			return Commitment{}, err
		}
	} else {
		if g.cheatOT != nil {
			g.cheatOT(try, m, pairs)
		}
		reply, err := g.sender.Send(request, pairs)
		if err := g.requestError(err); err != nil {
			return Commitment{}, err
		}
		c = Commitment{Commitments: marshalCommitment(try, mover, copies, nil, nil, nil), Reply: reply}
	}
	if g.cfg.authenticated() {
		st.rows = authRowsOf(g.cfg, try, Sum(request), c.Commitments)
		st.request, st.commitment, st.reply = bytes.Clone(request), bytes.Clone(c.Commitments), bytes.Clone(c.Reply)
	}
	g.pre = nil
	// The request shows that the evaluator had the messages made again.
	g.again = garblerAgain{}
	g.committed = st
	g.phase = phaseCommitted
	return c, nil
}

// Committed reports whether the garbler committed to the try under way
// of a checked game and waits for the evaluator's choice.
func (g *Garbler) Committed() bool { return g.phase == phaseCommitted }

// CheckChoice checks the evaluator's Choice of the checked try under way
// as soon as it comes: a malformed one is ErrMessage, one whose proof is
// wrong fails the machine (ErrDeviation, blaming the evaluator).
func (g *Garbler) CheckChoice(choice []byte) error {
	if err := g.check(phaseCommitted); err != nil {
		return err
	}
	st := g.committed
	j, proof, z, err := g.parseChoice(st.try, choice)
	if err != nil {
		return err
	}
	if choiceProof(g.cfg, st.try, j, st.seeds) != proof {
		return g.fail("try %d: its choice of garbling %d does not prove that it lacks that garbling's seed", st.try, j)
	}
	return g.checkShare(st, j, z, choice)
}

// parseChoice parses the evaluator's choice of try: ĵ, the proof, and
// with the authenticated state the sums (MPC-D29) and a seed transfer
// response of the next try that the garbler can answer (MPC-D30), else
// the choice is malformed.
func (g *Garbler) parseChoice(try uint64, choice []byte) (int, Digest, []gc.Label, error) {
	if !g.cfg.authenticated() {
		return parseChoiceOf(g.cfg, try, choice)
	}
	c, err := parseAuthChoice(g.cfg, try, choice)
	if err != nil {
		return 0, Digest{}, nil, err
	}
	if d := Sum(choice); d != g.choiceChecked {
		// Once per choice (CheckChoice, then GarbleChosen).
		if err := checkSeedResponse(g.cfg, c.next); err != nil {
			return 0, Digest{}, nil, err
		}
		// The digest of its request of garbling ĵ (MPC-D29): the request
		// it sent, which the garbler holds.
		st := g.committed
		m := g.rc.layout[st.mover].NumInputs[circuit.Evaluator]
		reqs, _, err := splitCOTRequest(g.cfg, try, m, st.request)
		if err != nil {
			return 0, Digest{}, nil, err
		}
		if c.j < len(reqs) && Sum(reqs[c.j]) != c.request {
			// Proven by the two signed messages (MPC-D31).
			g.requestCert = requestDigestCertificate(try, st.request, choice)
			return 0, Digest{}, nil, g.fail("try %d: its choice names its request of garbling %d by a digest that is not the one of the request it sent (certificate)", try, c.j)
		}
		g.choiceChecked = d
	}
	return c.j, c.proof, c.z, nil
}

// checkShare checks the sums z of the evaluator's choice of garbling j
// of the checked try under way (MPC-D29): wrong ones fail the machine,
// blaming the evaluator, with a certificate. Nothing without the
// authenticated state.
func (g *Garbler) checkShare(st *garblerCommitted, j int, z []gc.Label, choice []byte) error {
	if !g.cfg.authenticated() {
		return nil
	}
	l := g.rc.layout[st.mover]
	k := checkParity(l, g.pub.ToMove, st.rows, st.copies[j], g.authPrev, z)
	if k < 0 {
		return nil
	}
	reqPart, corrPart, err := g.partsOf(st, j)
	if err != nil {
		return err
	}
	c := &EvaluatorShareCertificate{Try: st.try, Seed: st.seeds[j], Keys: append([]ot.Key(nil), g.rev.keys[j]...),
		Commitment: st.commitment, RequestPart: reqPart, Corrections: corrPart, Choice: bytes.Clone(choice)}
	if p := g.authPrev; p != nil {
		c.PrevSeed, c.PrevKeys = p.seed, p.rkeys
		c.PrevCommitment, c.PrevRequestPart, c.PrevCorrections, c.PrevChoice, c.PrevLabels = p.commitment, p.requestPart, p.corrections, p.choice, p.labels
		c.PrevFlips = p.flips
	}
	g.shareCert = c
	return g.fail("try %d: its share inputs are not its share: sum %d of its choice is neither of the two its labels give (certificate)", st.try, k)
}

// GarbleChosen takes the evaluator's Choice of a checked try and returns
// garbling ĵ with the labels of the garbler's inputs (try is the
// garbler's player's try when it is to move, as for [Garbler.Garble]).
// A malformed choice or a bad try leaves the machine as it was; a choice
// whose proof is wrong (the evaluator names a garbling whose seed it
// learned, or other seeds than the ones sent) fails it.
func (g *Garbler) GarbleChosen(choice []byte, try engine.Point) (Garbling, error) {
	if err := g.check(phaseCommitted); err != nil {
		return Garbling{}, err
	}
	st := g.committed
	j, proof, z, err := g.parseChoice(st.try, choice)
	if err != nil {
		return Garbling{}, err
	}
	mover := st.mover
	l := g.rc.layout[mover]
	if mover != circuit.Garbler {
		try = engine.NoPoint
	}
	cp := st.copies[j]
	// With the masks in the decoding bits the garbler's next share is the
	// masks of garbling ĵ (MPC-D27).
	mask := g.tryMask(l, st.try, cp.mask)
	in, err := l.Inputs(circuit.Garbler, g.pub.ToMove, g.share, try, mask)
	if err != nil {
		return Garbling{}, fmt.Errorf("referee: the garbler's try: %w", err)
	}
	flips := g.cfg.flipWires(g.rc, mover)
	if flips != nil {
		// The evaluator's flips are the garbler's inputs (MPC-D52).
		if st.flips == nil {
			return Garbling{}, fmt.Errorf("%w: the garbling of try %d before its flips", ErrState, st.try)
		}
		if err := l.PlaceFlips(in, st.flips); err != nil {
			return Garbling{}, err
		}
	}
	if choiceProof(g.cfg, st.try, j, st.seeds) != proof {
		return Garbling{}, g.fail("try %d: its choice of garbling %d does not prove that it lacks that garbling's seed", st.try, j)
	}
	if err := g.checkShare(st, j, z, choice); err != nil {
		return Garbling{}, err
	}
	own, err := cp.keys.Encode(int(circuit.Garbler), in)
	if err != nil {
		return Garbling{}, err
	}
	other := make([]Digest, len(own))
	for w, lb := range own {
		other[w] = cp.pairs[w][1-b2int(lb.LSB())]
	}
	for k, w := range flips {
		// A flip wire's pair is in value order (MPC-D52).
		other[w] = cp.pairs[w][1-b2int(st.flips[k])]
	}
	corr := marshalCorrections(st.try, j)
	if g.cheatSend != nil {
		g.cheatSend(st.try, j, &own, &other, cp)
	}
	labels := marshalCheckedLabels(own, other)
	var auth *garblerAuth
	if g.cfg.authenticated() {
		// The opening of its MACs (MPC-D29), and what it keeps of the try.
		if g.rev == nil || g.rev.try != st.try {
			return Garbling{}, fmt.Errorf("%w: the reverse request of try %d was not made", ErrState, st.try)
		}
		sums := garblerOpeningSums(l, g.pub.ToMove, g.rev.macs[j], g.authPrev)
		if g.cheatOpening != nil {
			g.cheatOpening(st.try, sums)
		}
		op := macOpening(g.cfg, st.try, sums)
		labels = append(labels, op[:]...)
		auth = garblerAuthOf(l, g.pub.ToMove, cp, g.rev.macs[j])
		auth.seed, auth.rkeys = st.seeds[j], append([]ot.Key(nil), g.rev.keys[j]...)
		reqPart, corrPart, err := g.partsOf(st, j)
		if err != nil {
			return Garbling{}, err
		}
		auth.commitment, auth.requestPart, auth.corrections, auth.choice, auth.labels = st.commitment, reqPart, corrPart, bytes.Clone(choice), labels
		if flips != nil {
			// They place the flip wires' labels (MPC-D52).
			auth.flips = marshalFlips(st.try, st.flips)
		}
	}
	g.cur = &garblerTry{keys: cp.keys, mask: mask, try: try, mover: mover, auth: auth}
	if g.cfg.authenticated() {
		// The evaluator's seed transfer response of the next try
		// (MPC-D30).
		c, _ := parseAuthChoice(g.cfg, st.try, choice)
		g.seedResp = append([]byte(nil), c.next...)
	}
	g.committed = nil
	// The garblings not sent are done with (MPC-D59); ĵ's message leaves
	// with the Garbling and keeps its buffer.
	for i, c := range st.copies {
		if i != j {
			c.release()
		}
	}
	if mover == circuit.Garbler {
		g.tries = append(g.tries, try)
	}
	g.movers = append(g.movers, mover)
	g.phase = phaseWaiting
	// The digest of the tables is the one committed to, made of these
	// bytes when they were made (MPC-D49).
	tables := cp.commit[1]
	return Garbling{Tables: cp.bytes, Labels: labels, Reply: corr, made: &tables, of: cp.bytes}, nil
}
