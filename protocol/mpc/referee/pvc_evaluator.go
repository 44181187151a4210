package referee

// The evaluator's side of a checked try (T-8(b)): opening the committed garblings, checking them, keeping what a resume needs.

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/internal/parallel"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// evaluatorChecked is the evaluator's state of a checked try.
type evaluatorChecked struct {
	choices    []bool
	commitment []byte
	choice     []byte
	entries    [][3]Digest
	j          int
	labels     []gc.Label // the labels of its inputs of garbling ĵ
	seeds      []prg.Seed // every seed but seed ĵ, once opened
	// check is the check of the opened garblings while it runs or its
	// result is not taken (MPC-D21).
	check *openedCheck
	// cot is the state of the correlated input OTs (MPC-D28), else nil.
	cot *evaluatorCOT
	// next is the seed transfer's response of the next try while it is
	// made (MPC-D43), or nil.
	next *seedAhead
}

// seedAhead is the seed transfer's response of a try made on a
// goroutine of its own (MPC-D43); its fields are written before done is
// closed and read after.
type seedAhead struct {
	try  uint64
	done chan struct{}
	msg  []byte
	keys []ot.Key
	err  error
}

// startSeedResponse makes seedResponse of try, whose garbling j the
// evaluator will choose, in the background.
func startSeedResponse(cfg Config, seed prg.Seed, try uint64, j int, start []byte) *seedAhead {
	a := &seedAhead{try: try, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.msg, a.keys, a.err = seedResponse(cfg, seedCoins(seed, try), try, j, start)
	}()
	return a
}

// openedCheck is the check of the opened garblings of a checked try,
// running on its own goroutines (MPC-D21); its fields are written
// before done is closed and read after.
type openedCheck struct {
	done chan struct{}
	// err is the deviation found (nil: every opened garbling is the one
	// committed to), cert its certificate when it is provable.
	err  error
	cert *Certificate
}

// KeptOpening is what the evaluator keeps of the checked try under way
// once it opened the garbler's commitment, to open it again after a
// restart (MPC-D16, MPC-D20): the commitments, the labels of its inputs
// in garbling ĵ and the seeds of the other garblings that the OT reply
// gave — 13 KiB on 9×9 instead of the reply's 104 KiB at λ = 4.
type KeptOpening struct {
	// Commitments is the commitments part of the garbler's Commitment.
	Commitments []byte
	// Labels are the labels of the evaluator's inputs in garbling ĵ
	// (gc.MarshalLabels).
	Labels []byte
	// Seeds are the λ seeds of the garblings, 32 bytes each, seed ĵ zero.
	Seeds []byte
	// Reply is, instead of Labels and Seeds, the whole OT reply (kept by
	// an older version): the commitment is then opened as it came.
	Reply []byte
}

// choose returns ĵ of try: the garbling the evaluator keeps.
func (e *Evaluator) choose(try uint64) int { return chooseOf(e.cfg, e.seed, try) }

// chooseOf is choose of the evaluator of cfg with seed.
func chooseOf(cfg Config, seed prg.Seed, try uint64) int {
	return seed.Stream(labelPVCChoose, try).Intn(cfg.lambda())
}

// Open takes the garbler's Commitment of the checked try under way,
// obtains the seeds of every garbling but ĵ, checks them and the labels
// the OTs of those garblings gave against what the seeds give, starts
// garbling them again to compare them with the commitments (MPC-D21:
// the result is taken by [Evaluator.Poll] or, at the latest, by
// Evaluate before it evaluates garbling ĵ), and returns the Choice for
// the garbler. A malformed commitment (ErrMessage) leaves the machine as
// it was; a wrong seed or label fails it; a garbling that differs fails
// it when the check's result is taken, and [Evaluator.Certificate] then
// proves the garbler's cheat.
func (e *Evaluator) Open(msg Commitment) ([]byte, error) {
	if err := e.check(phaseWaiting); err != nil {
		return nil, err
	}
	cur := e.cur
	if cur.checked == nil || cur.checked.commitment != nil {
		return nil, fmt.Errorf("%w: no commitment expected", ErrState)
	}
	try := e.pub.Try
	cm, err := parseCommitment(e.cfg, msg.Commitments)
	if err != nil {
		return nil, err
	}
	if cm.try != try || cm.mover != cur.mover {
		return nil, fmt.Errorf("%w: commitment of try %d for %v, expected try %d for %v", ErrMessage, cm.try, cm.mover, try, cur.mover)
	}
	if e.cfg.correlated() {
		return e.openCorrelated(cm, msg)
	}
	got, err := e.receiver.Receive(msg.Reply)
	if err != nil {
		return nil, fmt.Errorf("%w: OT reply of try %d: %v", ErrMessage, try, err)
	}
	// The OT machine has moved on: from here an error fails the machine.
	ck := cur.checked
	m := (len(ck.choices) - e.cfg.seedOTs()) / e.cfg.lambda()
	depth := e.cfg.depth()
	sums := make([]prg.Seed, depth)
	base := e.cfg.lambda() * m
	for l := range depth {
		copy(sums[l][:16], got[base+2*l][:])
		copy(sums[l][16:], got[base+2*l+1][:])
	}
	return e.openWith(cm, msg.Commitments, got[ck.j*m:(ck.j+1)*m], ggmPuncture(sums, ck.j, depth), got)
}

// openWith checks the opened garblings of the checked try under way
// against the commitment cm (raw, as received): the seeds, then the
// garblings made again from them, then (with got, the outputs of every
// OT of the request) the labels the OTs of the opened garblings gave
// (MPC-D18); and returns the choice. labels are the labels of its
// inputs of garbling ĵ, seeds every seed but ĵ's. An error fails the
// machine.
func (e *Evaluator) openWith(cm *commitment, raw []byte, labels []gc.Label, seeds []prg.Seed, got []ot.Block) ([]byte, error) {
	cur, try := e.cur, e.pub.Try
	ck := cur.checked
	ck.commitment = bytes.Clone(raw)
	ck.entries = cm.entries
	ck.labels = labels
	ck.seeds = seeds
	m := len(labels)
	if e.cfg.authenticated() {
		// The commitment binds the garbler to the MAC sub-batches it
		// sent (MPC-D29); a digest of another one is proven by the two
		// signed messages (MPC-D31).
		for i, h := range cm.macHashes {
			if Sum(e.rev.macSubs[i]) != h {
				e.cert = &Certificate{Commitment: bytes.Clone(raw), Opened: i, What: "MAC sub-batch's digest",
					Digest: &DigestEvidence{Reverse: bytes.Clone(e.rev.msg)}}
				return nil, e.fail("try %d: its commitment's digest of the MAC sub-batch of garbling %d is not the one of the sub-batch it sent (certificate)", try, i)
			}
		}
	}
	for i, s := range seeds {
		if i == ck.j {
			continue
		}
		if seedHash(e.cfg, try, i, s) != cm.entries[i][0] {
			if e.cfg.authenticated() {
				// The seed transfer of MPC-D30 is provable: the
				// evaluator's coins of the try open its keys (and ĵ's
				// path, nothing else).
				carrier := e.revAnswer
				if try > 0 {
					carrier = nil
					if e.auth != nil {
						carrier = e.auth.choice
					}
				}
				if carrier != nil {
					e.cert = &Certificate{Commitment: bytes.Clone(raw), Opened: i, What: "seed transfer",
						SeedOT: &SeedTransferEvidence{Coins: seedCoins(e.seed, try), J: ck.j, Start: bytes.Clone(e.revStartMsg), Carrier: bytes.Clone(carrier)}}
					return nil, e.fail("try %d: the seed of garbling %d it sent by OT is not the one it committed to (certificate)", try, i)
				}
			}
			// Not provable by itself (the OT hides what was sent): the
			// audit (T-8(c)) names the garbler.
			return nil, e.fail("try %d: the seed of garbling %d it sent by OT is not the one it committed to", try, i)
		}
	}
	// The labels its OTs gave for its random bits of the opened
	// garblings (MPC-D18), from their seeds alone (cheap: no garbling):
	// a wrong one is caught, not proven by itself (the OT hides what
	// was sent); the audit names the garbler.
	if e.unchecked {
		if err := e.makeChoice(raw, seeds); err != nil {
			return nil, e.fail("try %d: %v", try, err)
		}
		return bytes.Clone(ck.choice), nil
	}
	// The opened garblings themselves are made again and compared with
	// their commitments while the choice travels and the garbler sends
	// garbling ĵ (MPC-D21), from here on: the cheap checks below and the
	// choice run beside it (MPC-D42). Evaluate waits for the result
	// before it evaluates, so a mismatch is caught before any output
	// label goes back, and [Evaluator.Poll] reports it earlier. The
	// check is the machine's only once the cheap checks passed, so that
	// a wrong correction is reported as before (an abandoned check ends
	// by itself).
	check := startOpenedCheck(e.cfg, e.rc, cur.mover, try, ck.j, seeds, ck.commitment, cm.entries)
	if ck.cot != nil && ck.cot.corr != nil {
		// The corrections of the opened garblings (MPC-D28): cheap, no
		// garbling; a wrong one is proven by a certificate. (Reopened
		// after a restart, they were checked when they came.)
		if err := e.checkCorrections(cm, seeds); err != nil {
			return nil, err
		}
	}
	var otFault error
	for i, s := range seeds {
		if i == ck.j || got == nil || otFault != nil {
			continue
		}
		pairs, err := copyEvaluatorLabels(e.rc, cur.mover, s)
		if err != nil {
			return nil, e.fail("try %d: %v", try, err)
		}
		for k, pair := range pairs {
			if got[i*m+k] != pair[b2int(ck.choices[i*m+k])] {
				otFault = fmt.Errorf("try %d: the OT reply of opened garbling %d gives its input %d a label that is not the one its seed gives", try, i, k)
				break
			}
		}
	}
	ck.check = check
	if otFault != nil {
		// A garbling that also differs from its commitment is the
		// stronger finding: it comes with a certificate.
		if err := e.settle(true); err != nil {
			return nil, err
		}
		return nil, e.fail("%v", otFault)
	}
	if err := e.makeChoice(raw, seeds); err != nil {
		return nil, e.fail("try %d: %v", try, err)
	}
	return bytes.Clone(ck.choice), nil
}

// makeChoice makes the choice of the checked try under way: ĵ and its
// proof, and with the authenticated state the sums of MPC-D29.
func (e *Evaluator) makeChoice(commitments []byte, seeds []prg.Seed) error {
	try, ck := e.pub.Try, e.cur.checked
	proof := choiceProof(e.cfg, try, ck.j, seeds)
	if e.cfg.authenticated() {
		// With its seed transfer response of the next try (MPC-D30).
		var next []byte
		var keys []ot.Key
		var err error
		if a := ck.next; a != nil && a.try == try+1 {
			<-a.done
			next, keys, err = a.msg, a.keys, a.err
		} else {
			next, keys, err = seedResponse(e.cfg, seedCoins(e.seed, try+1), try+1, e.choose(try+1), e.seedStartMsg)
		}
		if err != nil {
			return err
		}
		e.seedKeys, e.seedKeysTry = keys, try+1
		reqs, _, err := splitCOTRequest(e.cfg, try, e.rc.layout[e.cur.mover].NumInputs[circuit.Evaluator], ck.cot.request)
		if err != nil {
			return err
		}
		ck.choice = marshalAuthChoice(try, authChoice{j: ck.j, proof: proof, z: e.shareSums(commitments), request: Sum(reqs[ck.j]), next: next})
		return nil
	}
	ck.choice = marshalChoice(try, ck.j, proof)
	return nil
}

// copyEvaluatorLabels returns the labels of the evaluator's inputs of
// the garbling of mover's circuit made from seed, as garbleCopy makes
// them (Δ from the seed's delta stream; the zero labels from its labels
// stream after the garbler's, the order gc.Garble reads them, before
// the coins of three-halves), without garbling.
func copyEvaluatorLabels(rc *refereeCircuits, mover circuit.Party, seed prg.Seed) ([][2]gc.Label, error) {
	delta, err := copyDelta(seed)
	if err != nil {
		return nil, err
	}
	c := rc.circuit[mover]
	st := seed.Stream(labelPVCLabels)
	skip := make([]byte, 16*len(c.Inputs[circuit.Garbler]))
	if _, err := io.ReadFull(st, skip); err != nil {
		return nil, err
	}
	pairs := make([][2]gc.Label, len(c.Inputs[circuit.Evaluator]))
	for k := range pairs {
		if _, err := io.ReadFull(st, pairs[k][0][:]); err != nil {
			return nil, err
		}
		pairs[k][1] = pairs[k][0].Xor(delta)
	}
	return pairs, nil
}

// copyLabelsDigest returns the commitment to the labels of the
// garbler's inputs of garbling i of try made from seed, as garbleCopy
// makes it (labelsDigest of labelPairs of its keys), without garbling:
// Δ from the seed's delta stream and the zero labels, the first of its
// labels stream (gc.Garble reads the garbler's inputs first), each pair
// of label hashes written to the digest as it is made.
func copyLabelsDigest(cfg Config, rc *refereeCircuits, mover circuit.Party, try uint64, i int, seed prg.Seed) (Digest, error) {
	delta, err := copyDelta(seed)
	if err != nil {
		return Digest{}, err
	}
	zeros := make([]byte, 16*len(rc.circuit[mover].Inputs[circuit.Garbler]))
	if _, err := io.ReadFull(seed.Stream(labelPVCLabels), zeros); err != nil {
		return Digest{}, err
	}
	prefix := labelPrefix(cfg, try, i)
	h := sha256.New()
	h.Write([]byte(tagPVCLabels))
	writeGameTry(h, cfg, try, i)
	byValue := map[int]bool{}
	for _, w := range cfg.flipWires(rc, mover) {
		byValue[w] = true
	}
	// The pairs a batch of label commitments fills, written to the
	// digest once made.
	var lh labelHasher
	lh.init(&prefix)
	var chunk [labelBatch / 2][2]Digest
	n := len(zeros) / 16
	for first := 0; first < n; first += len(chunk) {
		pairs := chunk[:min(len(chunk), n-first)]
		for k := range pairs {
			w := first + k
			zero := gc.Label(zeros[16*w : 16*w+16])
			for v, l := range [2]gc.Label{zero, zero.Xor(delta)} {
				at := b2int(l.LSB())
				if byValue[w] {
					at = v // a flip wire's pair in value order (MPC-D52)
				}
				lh.add(w, l, &pairs[k][at])
			}
		}
		lh.flush()
		h.Write(pairBytes(pairs))
	}
	return Digest(h.Sum(nil)), nil
}

// openedDigests makes again, from their seeds, the three digests that
// the commitment of try holds of every garbling but j (H(seed_i),
// H(tables_i), H(label commitments_i)), as garbleCopy makes them. Each
// garbling is two pieces of work, run on up to GOMAXPROCS cores at once
// (MPC-D40): its tables (garbled, hashed in place and released) and its
// label commitments (from the labels its seed gives, without garbling:
// copyLabelsDigest), so that λ − 1 garblings keep the cores busy to the
// end instead of leaving one idle while the last garbling runs alone.
func openedDigests(cfg Config, rc *refereeCircuits, mover circuit.Party, try uint64, seeds []prg.Seed, j int) ([][3]Digest, error) {
	n := len(seeds)
	digests := make([][3]Digest, n)
	// The garblings first: the longer pieces.
	errs := parallel.Each(2*n, runtime.GOMAXPROCS(0), func(k int) error {
		i := k % n
		if i == j {
			return nil
		}
		seed := seeds[i]
		if k < n {
			delta, err := copyDelta(seed)
			if err != nil {
				return err
			}
			gb, _, _, err := garbleFromSeed(cfg, rc, mover, try, seed, delta, nil)
			if err != nil {
				return err
			}
			// Only the digest is needed: the message around the
			// tables, no copy; the tables go back for reuse.
			defer gb.Release()
			b, err := gb.MarshalInPlace()
			if err != nil {
				return err
			}
			digests[i][1] = Sum(b)
			return nil
		}
		var err error
		digests[i][0] = seedHash(cfg, try, i, seed)
		digests[i][2], err = copyLabelsDigest(cfg, rc, mover, try, i, seed)
		return err
	})
	return digests, errors.Join(errs...)
}

// startOpenedCheck makes every garbling of try but j again from its
// seed and compares its digests with the commitment's entries, in the
// background.
func startOpenedCheck(cfg Config, rc *refereeCircuits, mover circuit.Party, try uint64, j int, seeds []prg.Seed, commitment []byte, entries [][3]Digest) *openedCheck {
	oc := &openedCheck{done: make(chan struct{})}
	go func() {
		defer close(oc.done)
		digests, err := openedDigests(cfg, rc, mover, try, seeds, j)
		if err != nil {
			oc.err = fmt.Errorf("try %d: %v", try, err)
			return
		}
		for i, s := range seeds {
			if i == j {
				continue
			}
			for k, what := range []string{"seed", "garbled tables and decoding bits", "input label commitments"} {
				if digests[i][k] != entries[i][k] {
					oc.cert = &Certificate{Commitment: commitment, Opened: i, Seed: s, What: what}
					oc.err = fmt.Errorf("try %d: the %s of opened garbling %d differ from its commitment (certificate)", try, what, i)
					return
				}
			}
		}
	}()
	return oc
}

// settle takes the result of the check of the opened garblings of the
// checked try under way, waiting for it if block is set (else returning
// nil while it runs): a garbling that differs fails the machine, with a
// certificate.
func (e *Evaluator) settle(block bool) error {
	if e.cur == nil || e.cur.checked == nil || e.cur.checked.check == nil {
		return nil
	}
	oc := e.cur.checked.check
	if block {
		<-oc.done
	} else {
		select {
		case <-oc.done:
		default:
			return nil
		}
	}
	e.cur.checked.check = nil
	if oc.err == nil {
		return nil
	}
	e.cert = oc.cert
	return e.fail("%v", oc.err)
}

// Poll reports the check of the opened garblings of the checked try
// under way (MPC-D21) without waiting: nil while it runs, when it
// passed, or when there is none; the error that fails the machine when
// an opened garbling differs from its commitment ([Evaluator.Certificate]
// then proves it). A session calls it while it waits for garbling ĵ, so
// that a garbler that withholds it is reported all the same; Evaluate
// waits for the check.
func (e *Evaluator) Poll() error {
	if e.phase != phaseWaiting {
		return nil
	}
	return e.settle(false)
}

// Kept returns what the evaluator keeps of the checked try under way
// once its commitment is opened (nil before, or in an unchecked game).
func (e *Evaluator) Kept() *KeptOpening {
	if e.cur == nil || e.cur.checked == nil || e.cur.checked.choice == nil {
		return nil
	}
	ck := e.cur.checked
	k := &KeptOpening{Commitments: bytes.Clone(ck.commitment), Labels: gc.MarshalLabels(ck.labels)}
	for _, s := range ck.seeds {
		k.Seeds = append(k.Seeds, s[:]...)
	}
	return k
}

// reopen opens again, after a restart, the commitment of the checked
// try under way from what the evaluator kept (MPC-D20): the OT reply is
// not needed, its outputs were checked when it came (MPC-D18), and the
// opened garblings are checked again.
func (e *Evaluator) reopen(k KeptOpening) ([]byte, error) {
	if k.Reply != nil {
		return e.Open(Commitment{Commitments: k.Commitments, Reply: k.Reply})
	}
	if err := e.check(phaseWaiting); err != nil {
		return nil, err
	}
	cur, try := e.cur, e.pub.Try
	if cur.checked == nil || cur.checked.commitment != nil {
		return nil, fmt.Errorf("%w: no commitment expected", ErrState)
	}
	cm, err := parseCommitment(e.cfg, k.Commitments)
	if err != nil {
		return nil, err
	}
	if cm.try != try || cm.mover != cur.mover {
		return nil, fmt.Errorf("%w: commitment of try %d for %v, expected try %d for %v", ErrMessage, cm.try, cm.mover, try, cur.mover)
	}
	ck := cur.checked
	m := (len(ck.choices) - e.cfg.seedOTs()) / e.cfg.lambda()
	labels, err := gc.ParseLabels(k.Labels, m)
	if err != nil {
		return nil, fmt.Errorf("%w: the labels kept: %v", ErrMessage, err)
	}
	if len(k.Seeds) != e.cfg.lambda()*prg.SeedSize {
		return nil, fmt.Errorf("%w: %d bytes of seeds kept", ErrMessage, len(k.Seeds))
	}
	seeds := make([]prg.Seed, e.cfg.lambda())
	for i := range seeds {
		copy(seeds[i][:], k.Seeds[i*prg.SeedSize:])
	}
	if !e.cfg.authenticated() {
		// The seed transfer's batch of the forward extension, as if
		// received (MPC-D30's seed transfer has OTs of its own).
		if err := e.receiver.Forget(); err != nil {
			return nil, err
		}
	}
	return e.openWith(cm, k.Commitments, labels, seeds, nil)
}

// Opened returns, for the checked try under way once its commitment is
// opened, the garbler's commitments, the seeds the evaluator learned (seed
// ĵ left zero) and ĵ; ok is false otherwise. It is what the evaluator
// could put in a certificate (tests make forged ones from it).
func (e *Evaluator) Opened() (commitments []byte, seeds []prg.Seed, j int, ok bool) {
	if e.cur == nil || e.cur.checked == nil || e.cur.checked.seeds == nil {
		return nil, nil, 0, false
	}
	ck := e.cur.checked
	return bytes.Clone(ck.commitment), slices.Clone(ck.seeds), ck.j, true
}

// Certificate returns the certificate that convicts the garbler when the
// machine failed on a checked garbling that differs from its
// commitment, or nil.
func (e *Evaluator) Certificate() *Certificate {
	if e.cert == nil {
		return nil
	}
	c := *e.cert
	return &c
}

// chosenDigests are the digests of garbling ĵ as it came that
// checkChosen compares with ĵ's commitment: made by Evaluate while the
// check of the opened garblings runs (MPC-D42), compared after it.
type chosenDigests struct {
	tables Digest
	labels Digest
	// labelsOK: the labels parsed and labels is their digest (else
	// checkChosen meets the malformed message itself).
	labelsOK bool
}

// chosenDigestsOf returns the digests of g, garbling j of try, whose
// garbler has n input wires.
func chosenDigestsOf(cfg Config, try uint64, j int, g Garbling, n int, flips []int, d []bool) *chosenDigests {
	dg := &chosenDigests{tables: g.tablesSum()}
	labelsPart, _, err := splitAuthLabels(cfg, g.Labels)
	if err != nil {
		return dg
	}
	own, other, err := parseCheckedLabels(labelsPart, n)
	if err != nil {
		return dg
	}
	dg.labels, dg.labelsOK = openedLabelsDigest(cfg, try, j, own, other, flips, d), true
	return dg
}

// checkChosen checks garbling ĵ of a checked try against its commitment
// and returns the evaluator's input labels and the garbler's. A malformed
// message leaves the machine as it was (ErrMessage); a garbling that
// differs from its commitment fails it with a certificate. pre, when
// set, holds the digests of g made before (chosenDigestsOf).
func (e *Evaluator) checkChosen(g Garbling, c *circuit.Circuit, pre *chosenDigests) (theirs, mine []gc.Label, err error) {
	ck := e.cur.checked
	try := e.pub.Try
	corr, err := parseCorrections(g.Reply)
	if err != nil {
		return nil, nil, err
	}
	if corr.try != try || corr.j != ck.j {
		return nil, nil, fmt.Errorf("%w: corrections of try %d, garbling %d; expected try %d, garbling %d", ErrMessage, corr.try, corr.j, try, ck.j)
	}
	labelsPart, opening, err := splitAuthLabels(e.cfg, g.Labels)
	if err != nil {
		return nil, nil, err
	}
	own, other, err := parseCheckedLabels(labelsPart, len(c.Inputs[circuit.Garbler]))
	if err != nil {
		return nil, nil, err
	}
	entry := ck.entries[ck.j]
	if pre == nil {
		pre = &chosenDigests{tables: g.tablesSum()}
	}
	if !pre.labelsOK {
		pre.labels, pre.labelsOK = openedLabelsDigest(e.cfg, try, ck.j, own, other, e.cfg.flipWires(e.rc, e.cur.mover), e.cur.flips), true
	}
	certify := func(what string, labels []byte) error {
		e.cert = &Certificate{Commitment: ck.commitment, Opened: -1, Choice: bytes.Clone(ck.choice),
			Tables: pre.tables, Labels: bytes.Clone(labels), Flips: bytes.Clone(e.cur.flipsMsg), What: what}
		return e.fail("try %d: the %s of garbling %d differ from its commitment (certificate)", try, what, ck.j)
	}
	if pre.tables != entry[1] {
		return nil, nil, certify("garbled tables and decoding bits", nil)
	}
	if pre.labels != entry[2] {
		return nil, nil, certify("garbler's input labels", g.Labels)
	}
	if e.cfg.authenticated() {
		// The garbler's share inputs against its MACs (MPC-D29).
		if err := e.checkGarblerShare(own, opening, g.Labels); err != nil {
			return nil, nil, err
		}
	}
	mine = ck.labels[:len(c.Inputs[circuit.Evaluator])]
	return own, mine, nil
}
