package referee

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"runtime"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/internal/parallel"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Publicly verifiable covert checking of every try (T-8(b), MPC-D14,
// Hong–Katz–Kolesnikov–Lu–Wang 2019). With λ = Config.Lambda > 1 a try
// has five messages instead of three:
//
//	E → G  Request      OT request: per garbling i < λ, m input bits
//	                    (the evaluator's real ones for ĵ, random ones
//	                    for the others), then 2·log2 λ choice bits of
//	                    the seed transfer
//	G → E  Commitment   per garbling i < λ: H(seed_i), H(tables_i),
//	                    H(label commitments_i); then the OT reply (the
//	                    labels of the evaluator's inputs of every
//	                    garbling, the punctured GGM tree of the λ seeds)
//	E → G  Choice       ĵ and a hash of the λ − 1 seeds it learned
//	G → E  Garbling     garbling ĵ: tables, the garbler's input labels
//	                    with the hashes of the other labels, and a
//	                    12-byte header naming the try and ĵ
//	E → G  Outputs      as with λ = 1
//
// The seeds seed_i are the leaves of a GGM tree whose root the garbler
// derives from its seed per try; the evaluator learns every leaf but
// ĵ (drawn from its own seed per try) by one 1-of-2 OT of 32 bytes per
// level, so it can never hold all λ seeds, and the garbler learns ĵ only
// from the Choice. The evaluator re-garbles every opened garbling and
// compares it with the signed commitments before it answers; the first
// mismatch fails it with a [Certificate] that [VerifyCertificate] checks
// from the garbler's signed messages and the opened seed alone.

// Labels of the checking (part of the protocol).
const (
	labelPVCRoot   = "kakure/phantom/pvc/root"   // garbler seed; index: the try
	labelPVCNode   = "kakure/phantom/pvc/ggm"    // node seed; index: 0 left, 1 right
	labelPVCRandom = "kakure/phantom/pvc/random" // evaluator seed; index: the try, the garbling
	labelPVCChoose = "kakure/phantom/pvc/choose" // evaluator seed; index: the try
	labelPVCDelta  = "kakure/phantom/pvc/delta"  // seed_i
	labelPVCLabels = "kakure/phantom/pvc/labels" // seed_i
	tagPVCSeed     = "kakure/phantom/pvc/seed-hash\x00"
	tagPVCLabel    = "kakure/phantom/pvc/label-hash\x00"
	tagPVCLabels   = "kakure/phantom/pvc/labels-hash\x00"
	tagPVCProof    = "kakure/phantom/pvc/choice-proof\x00"
)

// MaxLambda is the largest number of garblings per try.
const MaxLambda = engine.MaxLambda

// Message kinds of the checking: 'P', version 1, kind.
const (
	pvcMagic          = 'P'
	pvcVersion        = 1
	kindCommitment    = 'C'
	kindChoice        = 'J'
	kindCorrections   = 'R'
	commitHeader      = 3 + 8 + 1 + 1 // magic, version, kind, try, mover, λ
	commitEntry       = 3 * sha256.Size
	choiceSize        = 3 + 8 + 1 + sha256.Size
	correctionsHeader = 3 + 8 + 1 // magic, version, kind, try, ĵ
)

// lambda returns the number of garblings per try: 1 (no checking, the
// three-message try) when Lambda is 0 or 1.
func (c Config) lambda() int {
	if c.Lambda <= 1 {
		return 1
	}
	return c.Lambda
}

// Checked reports whether the tries of c are covertly checked (λ > 1):
// five messages per try instead of three.
func (c Config) Checked() bool { return c.lambda() > 1 }

// depth returns log2 λ: the levels of the GGM tree, 2 OTs each.
func (c Config) depth() int { return bits.TrailingZeros(uint(c.lambda())) }

// evaluatorOTs returns the number of OTs of a request of a try whose
// circuit has m evaluator inputs: m, or in a checked game m per garbling
// and the seed transfer's.
func (c Config) evaluatorOTs(m int) int { return c.lambda()*m + c.seedOTs() }

// seedOTs returns the number of OTs of the seed transfer appended to the
// evaluator's input OTs: none in a game of the authenticated state, whose
// seed transfer has OTs of its own (MPC-D30).
func (c Config) seedOTs() int {
	if !c.Checked() || c.authenticated() {
		return 0
	}
	return 2 * c.depth()
}

// seedHash is the garbler's commitment to the seed of garbling i.
func seedHash(cfg Config, try uint64, i int, seed prg.Seed) Digest {
	h := sha256.New()
	h.Write([]byte(tagPVCSeed))
	writeGameTry(h, cfg, try, i)
	h.Write(seed[:])
	return Digest(h.Sum(nil))
}

type hashWriter interface{ Write([]byte) (int, error) }

func writeGameTry(h hashWriter, cfg Config, try uint64, i int) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(cfg.Game)))
	h.Write(n[:])
	h.Write(cfg.Game)
	binary.BigEndian.PutUint64(n[:], try)
	h.Write(n[:])
	binary.BigEndian.PutUint64(n[:], uint64(i))
	h.Write(n[:])
}

// labelHash commits to one label of the garbler's input wire w of
// garbling i: SHA-256(prefix ‖ w:u32 ‖ label), one block, with prefix the
// SHA-256 of the tag, the game, the try and i (labelPrefix).
func labelHash(cfg Config, try uint64, i, w int, l gc.Label) Digest {
	p := labelPrefix(cfg, try, i)
	return labelHashOf(&p, w, l)
}

// labelPrefix is the hash that binds the label hashes of garbling i of
// try to the game.
func labelPrefix(cfg Config, try uint64, i int) Digest {
	h := sha256.New()
	h.Write([]byte(tagPVCLabel))
	writeGameTry(h, cfg, try, i)
	return Digest(h.Sum(nil))
}

func labelHashOf(prefix *Digest, w int, l gc.Label) Digest {
	var buf [sha256.Size + 4 + 16]byte
	copy(buf[:], prefix[:])
	binary.BigEndian.PutUint32(buf[sha256.Size:], uint32(w))
	copy(buf[sha256.Size+4:], l[:])
	return sha256.Sum256(buf[:])
}

// labelsDigest is the commitment to the labels of the garbler's inputs of
// garbling i: the hash of the pairs of label hashes, each pair ordered by
// the colour of the label (the colour of the zero label is drawn from
// seed_i, so the order opens nothing of the garbler's input).
func labelsDigest(cfg Config, try uint64, i int, pairs [][2]Digest) Digest {
	h := sha256.New()
	h.Write([]byte(tagPVCLabels))
	writeGameTry(h, cfg, try, i)
	for _, p := range pairs {
		h.Write(p[0][:])
		h.Write(p[1][:])
	}
	return Digest(h.Sum(nil))
}

// labelPairs returns the pairs of label hashes of the garbler's inputs
// of keys, ordered by colour.
func labelPairs(cfg Config, try uint64, i int, keys *gc.Keys) [][2]Digest {
	in := keys.Inputs[circuit.Garbler]
	pairs := make([][2]Digest, len(in))
	prefix := labelPrefix(cfg, try, i)
	for w, pair := range in {
		for _, l := range pair {
			pairs[w][b2int(l.LSB())] = labelHashOf(&prefix, w, l)
		}
	}
	return pairs
}

func b2int(b bool) int {
	if b {
		return 1
	}
	return 0
}

// copyGarbling is one of the λ garblings of a try.
type copyGarbling struct {
	seed   prg.Seed
	g      *gc.Garbled
	keys   *gc.Keys
	bytes  []byte
	mask   []bool    // the mask bits in its decoding bits (MPC-D27), or nil
	commit [3]Digest // H(seed), H(tables), H(label commitments)
	pairs  [][2]Digest
	// blinds are the zero labels of the 2σ blind OTs (MPC-D29), or nil.
	blinds []gc.Label
}

// copyHooks are the test hooks of a cheating or coupled garbler on the
// garblings of a checked try; the zero value is the honest garbler.
type copyHooks struct {
	// cheat may change garbling i before it is committed to.
	cheat func(try uint64, i int, g *gc.Garbled, k *gc.Keys)
	// couple may change the mask bits of garbling i (MPC-D27) before they
	// are XORed into its decoding bits.
	couple func(try uint64, i int, mask []bool)
}

// copyDelta is Δ_i of the garbling made from seed: the one place that
// draws it (garbleCopy, copyEvaluatorLabels and the checks of MPC-D28).
func copyDelta(seed prg.Seed) (gc.Label, error) {
	return gc.NewDelta(seed.Stream(labelPVCDelta))
}

// garbleCopy garbles the circuit of mover as garbling i of try from its
// seed: Δ from its delta stream, the labels, three-halves' coins and
// (MPC-D27) the mask bits from its labels stream; hooks (tests only) may
// change it before it is committed to.
func garbleCopy(cfg Config, rc *refereeCircuits, mover circuit.Party, try uint64, i int, seed prg.Seed, hooks copyHooks) (*copyGarbling, error) {
	delta, err := copyDelta(seed)
	if err != nil {
		return nil, err
	}
	var couple func([]bool)
	if hooks.couple != nil {
		couple = func(m []bool) { hooks.couple(try, i, m) }
	}
	var masks *prg.Stream
	if cfg.authenticated() {
		// The mask bits from a stream of their own (MPC-D29), so that the
		// garbler's next share does not depend on the mover.
		masks = seed.Stream(labelAuthMask)
	}
	gb, keys, mask, err := garbleMasked(cfg, rc, mover, delta, seed.Stream(labelPVCLabels), masks, try, couple)
	if err != nil {
		return nil, err
	}
	if hooks.cheat != nil {
		hooks.cheat(try, i, gb, keys)
	}
	b, err := gb.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c := &copyGarbling{seed: seed, g: gb, keys: keys, bytes: b, mask: mask, pairs: labelPairs(cfg, try, i, keys)}
	if cfg.authenticated() {
		c.blinds = blindLabels(seed)
	}
	c.commit = [3]Digest{seedHash(cfg, try, i, seed), Sum(b), labelsDigest(cfg, try, i, c.pairs)}
	return c, nil
}

// commitment is a parsed Commitment message.
type commitment struct {
	try     uint64
	mover   circuit.Party
	entries [][3]Digest
	// keyHashes are the H(K_i) of a game of the correlated input OTs
	// (MPC-D28), else nil.
	keyHashes []Digest
	// macHashes are the digests of the MAC sub-batches of a game of the
	// authenticated state (MPC-D29), else nil; seedCT the seed transfer's
	// ciphertexts (MPC-D30).
	macHashes []Digest
	seedCT    []byte
	// corrHashes are the digests of the OT corrections of every garbling
	// (MPC-D29), else nil.
	corrHashes []Digest
}

// Commitment is the garbler's second message of a checked try: its signed
// commitments to the λ garblings, and the OT reply (the pads of the
// evaluator's inputs and the seed transfer), which a session may send as
// two attachments.
type Commitment struct {
	// Commitments is 'P' 1 'C' try:u64 mover:u8 λ:u8 and, per garbling,
	// H(seed_i), H(tables_i), H(label commitments_i).
	Commitments []byte
	// Reply is the OT extension reply to the request.
	Reply []byte
}

// Digests returns the digests of the two parts.
func (c Commitment) Digests() [2]Digest { return [2]Digest{Sum(c.Commitments), Sum(c.Reply)} }

// corrections is a parsed Reply of a checked try's Garbling: the try and
// ĵ, which the garbler's own signed message names (the labels of the
// evaluator's inputs came with the commitment).
type corrections struct {
	try uint64
	j   int
}

// Certificate proves that the garbler cheated in a checked try (T-8(b)):
// either a garbling it opened is not the one its seed gives, or the
// garbling it sent is not the one it committed to. It holds the
// garbler's signed commitments and either the opened seed or what the
// garbler sent of garbling ĵ, nothing of the evaluator's secrets.
// [VerifyCertificate] and [JudgeCertificate] judge it.
type Certificate struct {
	// Commitment is the commitments part of the garbler's Commitment
	// message of the try (Commitment.Commitments).
	Commitment []byte
	// Opened is the index of the opened garbling that differs from its
	// seed, and Seed that seed; Opened is -1 when the certificate is
	// about garbling ĵ as sent.
	Opened int
	Seed   prg.Seed
	// Choice is the evaluator's choice message of the try (it names ĵ),
	// Tables the digest of the tables the garbler sent and Labels the
	// labels message it sent, when Opened is -1. The tables themselves
	// are not needed: their digest is what the commitment holds; nor are
	// the labels when the tables differ (Labels is then empty).
	Choice []byte
	Tables Digest
	Labels []byte
	// SeedOT, in a game of the authenticated state (MPC-D30), makes the
	// certificate one about the seed transfer: the seeds the evaluator's
	// keys open are not all the ones the commitment names (Opened is the
	// first that differs). Nil for the other kinds.
	SeedOT *SeedTransferEvidence
	// OT, in a game of the correlated input OTs (MPC-D28), makes the
	// certificate one about the OT corrections of opened garbling Opened
	// (seed Seed): they differ from what its seed, the garbler's
	// committed reverse keys and the evaluator's request give. Nil for
	// the other kinds.
	OT *OTEvidence
	// Reverse, in a game of the correlated input OTs (MPC-D28), makes
	// the certificate one about the garbler's reverse choices of opened
	// garbling Opened (seed Seed): it is the garbler's reverse request of
	// the try (its digest is TryRecord.Reverse), whose sub-batch Opened
	// carries a check value x that is not the one of Δ_i's bits and the
	// pad bits seed_i gives. Nil for the other kinds.
	Reverse []byte
	// Digest, in a game of the authenticated state (MPC-D29, MPC-D31),
	// makes the certificate one about a digest the commitment names for
	// garbling Opened that is not the one of the part it names. Nil for
	// the other kinds.
	Digest *DigestEvidence
	// MAC, with Reverse, makes the certificate one about the garbler's
	// MAC choices of opened garbling Opened in a game of the
	// authenticated state (MPC-D29): the check value of its MAC
	// sub-batch in Reverse is not the one of the colours and mask bits
	// seed_i gives (and the pad bits).
	MAC bool
	// What says what differs, for people.
	What string
}

// ErrNotProven reports a certificate that does not convict the garbler:
// whoever made it accuses falsely.
var ErrNotProven = errors.New("referee: certificate not proven")

// VerifyCertificate judges a certificate of a checked try of a game of
// cfg against the garbler. It returns nil when the certificate proves
// that the garbler cheated; otherwise an error wrapping ErrNotProven.
// The caller checks that the messages are those of the record
// ([JudgeCertificate] does). A garbler that followed the protocol is
// never convicted, whatever the certificate holds.
func VerifyCertificate(cfg Config, c Certificate) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if !cfg.Checked() {
		return fmt.Errorf("%w: the game has no checked tries", ErrNotProven)
	}
	cm, err := parseCommitment(cfg, c.Commitment)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	rc, err := circuitsFor(cfg)
	if err != nil {
		return err
	}
	if c.OT != nil && c.Reverse != nil || c.SeedOT != nil && (c.OT != nil || c.Reverse != nil) ||
		c.Digest != nil && (c.OT != nil || c.Reverse != nil || c.SeedOT != nil) {
		return fmt.Errorf("%w: a certificate of two kinds", ErrNotProven)
	}
	if c.Digest != nil {
		return verifyNamedDigest(cfg, rc, cm, c)
	}
	if c.SeedOT != nil {
		return verifySeedTransfer(cfg, cm, c)
	}
	if c.OT != nil {
		return verifyCorrections(cfg, rc, cm, c)
	}
	if c.Reverse != nil {
		if c.MAC {
			return verifyMACChoices(cfg, cm, c)
		}
		return verifyReverseChoices(cfg, cm, c)
	}
	if c.Opened >= 0 {
		if c.Opened >= cfg.lambda() {
			return fmt.Errorf("%w: garbling %d of %d", ErrNotProven, c.Opened, cfg.lambda())
		}
		e := cm.entries[c.Opened]
		if seedHash(cfg, cm.try, c.Opened, c.Seed) != e[0] {
			return fmt.Errorf("%w: the seed is not the one committed to", ErrNotProven)
		}
		cp, err := garbleCopy(cfg, rc, cm.mover, cm.try, c.Opened, c.Seed, copyHooks{})
		if err != nil {
			return err
		}
		if cp.commit != e {
			return nil
		}
		return fmt.Errorf("%w: garbling %d is the one its seed gives", ErrNotProven, c.Opened)
	}
	// The choice of the game's form: with the authenticated state it
	// carries the sums and the next seed transfer response (MPC-D29,
	// MPC-D30) after ĵ and the proof.
	j, _, _, err := parseChoiceOf(cfg, cm.try, c.Choice)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	e := cm.entries[j]
	if c.Tables != e[1] {
		return nil
	}
	labels, _, err := splitAuthLabels(cfg, c.Labels)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	own, other, err := parseCheckedLabels(labels, rc.layout[cm.mover].NumInputs[circuit.Garbler])
	if err != nil {
		// Well-formed messages are the garbler's duty; a malformed one is
		// refused at once and is not a certificate.
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if openedLabelsDigest(cfg, cm.try, j, own, other) != e[2] {
		return nil
	}
	return fmt.Errorf("%w: garbling %d is the one committed to", ErrNotProven, j)
}

// CommitmentTry returns the try number and the mover party a Commitment
// message names, for a judge to compare with the record.
func CommitmentTry(cfg Config, b []byte) (uint64, circuit.Party, error) {
	c, err := parseCommitment(cfg, b)
	if err != nil {
		return 0, 0, err
	}
	return c.try, c.mover, nil
}

// ----- garbler side -----

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
	}
	g.cur = &garblerTry{keys: cp.keys, mask: mask, try: try, mover: mover, auth: auth}
	if g.cfg.authenticated() {
		// The evaluator's seed transfer response of the next try
		// (MPC-D30).
		c, _ := parseAuthChoice(g.cfg, st.try, choice)
		g.seedResp = append([]byte(nil), c.next...)
	}
	g.committed = nil
	if mover == circuit.Garbler {
		g.tries = append(g.tries, try)
	}
	g.movers = append(g.movers, mover)
	g.phase = phaseWaiting
	return Garbling{Tables: cp.bytes, Labels: labels, Reply: corr}, nil
}

// ----- evaluator side -----

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

// JudgeCertificate judges a certificate of try t against the record of
// the game (T-8(b)): the commitment, and for a certificate about the
// garbling sent that garbling, must be the messages of try t whose
// digests the record holds (the record's signatures make them the
// garbler's), and the commitment must name the try and the mover that
// the record gives try t. It returns nil when the certificate convicts
// the garbler, else an error wrapping ErrNotProven: whoever presents it
// accuses falsely.
func JudgeCertificate(rec Record, t int, c Certificate) error {
	cfg := rec.Config
	if err := cfg.Validate(); err != nil {
		return err
	}
	if t < 0 || t >= len(rec.Tries) {
		return fmt.Errorf("%w: the record has no try %d", ErrNotProven, t)
	}
	tr := rec.Tries[t]
	if tr.Sent < 2 || Sum(c.Commitment) != tr.Commitment {
		return fmt.Errorf("%w: the commitment is not the one the record holds for try %d", ErrNotProven, t)
	}
	if c.OT != nil && (Sum(c.OT.Request) != tr.Request || Sum(c.OT.Reply) != tr.CommitReply) {
		return fmt.Errorf("%w: the request or the corrections are not the ones the record holds for try %d", ErrNotProven, t)
	}
	if c.Reverse != nil && (!tr.reversed() || Sum(c.Reverse) != tr.Reverse) {
		return fmt.Errorf("%w: the reverse request is not the one the record holds for try %d", ErrNotProven, t)
	}
	if d := c.Digest; d != nil && (d.Reverse != nil && (!tr.reversed() || Sum(d.Reverse) != tr.Reverse) || d.Reply != nil && Sum(d.Reply) != tr.CommitReply) {
		return fmt.Errorf("%w: the reverse request or the reply is not the one the record holds for try %d", ErrNotProven, t)
	}
	if e := c.SeedOT; e != nil {
		// The transfer's first moves: the garbler's setup message, and
		// the evaluator's message that carried its response (MPC-D30).
		carrier := rec.Reverse[1]
		if t > 0 {
			carrier = rec.Tries[t-1].Choice
		}
		if rec.ReverseSent < 2 || Sum(e.Start) != rec.Reverse[0] || Sum(e.Carrier) != carrier {
			return fmt.Errorf("%w: the seed transfer's messages are not the ones the record holds for try %d", ErrNotProven, t)
		}
	}
	if c.OT == nil && c.Reverse == nil && c.SeedOT == nil && c.Digest == nil && c.Opened < 0 && (tr.Sent < 4 || Sum(c.Choice) != tr.Choice || c.Tables != tr.Tables || len(c.Labels) > 0 && Sum(c.Labels) != tr.Labels) {
		return fmt.Errorf("%w: the choice or the garbling is not the one the record holds for try %d", ErrNotProven, t)
	}
	pub, _, _, err := replayPublic(cfg, Record{Config: cfg, Tries: rec.Tries[:t]})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	try, mover, err := CommitmentTry(cfg, c.Commitment)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if try != pub.Try || mover != cfg.PartyOf(pub.ToMove) {
		return fmt.Errorf("%w: the commitment names try %d for the %v, the record try %d for the %v", ErrNotProven, try, mover, pub.Try, cfg.PartyOf(pub.ToMove))
	}
	return VerifyCertificate(cfg, c)
}
