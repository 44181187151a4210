package referee

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/internal/shortsha"
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
//
// This file holds the labels, the λ garblings and the commitment;
// pvc_garbler.go and pvc_evaluator.go each party's side,
// pvc_certificates.go the certificates and their judges, pvc_wire.go
// the wire forms.

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
	var buf [labelHashLen]byte
	copy(buf[:], prefix[:])
	binary.BigEndian.PutUint32(buf[sha256.Size:], uint32(w))
	copy(buf[sha256.Size+4:], l[:])
	return sha256.Sum256(buf[:])
}

// labelHashLen is the length of the message of a label commitment:
// prefix, wire, label.
const labelHashLen = sha256.Size + 4 + 16

// labelBatch is how many label commitments a labelHasher makes at once.
const labelBatch = 32

// labelHasher makes the label commitments of one garbling
// (labelHashOf's, byte for byte) in batches, with shortsha: each is one
// block of SHA-256, which shortsha compresses two at a time, about four
// times the speed of sha256.Sum256 on one (MPC-D57). add queues a
// commitment; flush makes the queued ones and writes each to its
// destination, in the order they were queued (so a later one to the
// same destination wins, as a later assignment would).
type labelHasher struct {
	blocks [labelBatch]shortsha.Block
	sums   [labelBatch]Digest
	dst    [labelBatch]*Digest
	n      int
}

// init sets the prefix of every block (labelPrefix of the garbling) and
// their padding; add writes only the wire and the label.
func (h *labelHasher) init(prefix *Digest) {
	for i := range h.blocks {
		copy(h.blocks[i][:], prefix[:])
		h.blocks[i].Pad(labelHashLen)
	}
	h.n = 0
}

// add queues H(prefix ‖ w ‖ l), to be written to *dst at the next flush
// (made at once when the batch is full).
func (h *labelHasher) add(w int, l gc.Label, dst *Digest) {
	b := &h.blocks[h.n]
	binary.BigEndian.PutUint32(b[sha256.Size:], uint32(w))
	copy(b[sha256.Size+4:labelHashLen], l[:])
	h.dst[h.n] = dst
	h.n++
	if h.n == labelBatch {
		h.flush()
	}
}

// flush makes the queued commitments and writes them to their
// destinations.
func (h *labelHasher) flush() {
	shortsha.Sums(h.sums[:h.n], h.blocks[:h.n])
	for i, d := range h.dst[:h.n] {
		*d = h.sums[i]
	}
	h.n = 0
}

// labelsDigest is the commitment to the labels of the garbler's inputs of
// garbling i: the hash of the pairs of label hashes, each pair ordered by
// the colour of the label (the colour of the zero label is drawn from
// seed_i, so the order opens nothing of the garbler's input).
func labelsDigest(cfg Config, try uint64, i int, pairs [][2]Digest) Digest {
	h := sha256.New()
	h.Write([]byte(tagPVCLabels))
	writeGameTry(h, cfg, try, i)
	h.Write(pairBytes(pairs))
	return Digest(h.Sum(nil))
}

// pairBytes returns the bytes of pairs, each pair's two hashes in order,
// as one slice over the same memory (a [2]Digest is 64 bytes and a
// slice's elements are contiguous), so that the digest takes them in one
// Write rather than two a wire (MPC-D57).
func pairBytes(pairs [][2]Digest) []byte {
	if len(pairs) == 0 {
		return nil
	}
	return unsafe.Slice(&pairs[0][0][0], len(pairs)*2*sha256.Size)
}

// labelPairs returns the pairs of label hashes of the garbler's inputs
// of keys, ordered by colour, but those of the flip wires (MPC-D52),
// ordered by value.
func labelPairs(cfg Config, try uint64, i int, keys *gc.Keys, flips []int) [][2]Digest {
	in := keys.Inputs[circuit.Garbler]
	pairs := make([][2]Digest, len(in))
	prefix := labelPrefix(cfg, try, i)
	var h labelHasher
	h.init(&prefix)
	for w, pair := range in {
		for _, l := range pair {
			h.add(w, l, &pairs[w][b2int(l.LSB())])
		}
	}
	for _, w := range flips {
		for v, l := range in[w] {
			h.add(w, l, &pairs[w][v])
		}
	}
	h.flush()
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
	seed prg.Seed
	// g is the garbling whose tables bytes shares, until release
	// (MPC-D59: the garbler's garblings not sent, once ĵ's is).
	g      *gc.Garbled
	keys   *gc.Keys
	bytes  []byte
	mask   []bool    // the mask bits in its decoding bits (MPC-D27), or nil
	commit [3]Digest // H(seed), H(tables), H(label commitments)
	pairs  [][2]Digest
	// blinds are the zero labels of the 2σ blind OTs (MPC-D29), or nil.
	blinds []gc.Label
}

// release gives the buffer of c's tables back for later garblings
// (MPC-D59): c's message must not be in use, nor be used after.
func (c *copyGarbling) release() {
	if c != nil && c.g != nil {
		c.g.Release()
		c.g, c.bytes = nil, nil
	}
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
// change it before it is committed to. Its message is written around the
// tables in their pooled buffer (c.bytes and c.g.Tables share memory):
// the garbler gives back the buffers of the garblings it does not send
// once it sends ĵ's (MPC-D59, Garbler.GarbleChosen); any other copy's
// buffer, and the one sent, are left to the garbage collector. (The
// evaluator's check of the opened garblings makes their digests with
// openedDigests, MPC-D40.)
func garbleCopy(cfg Config, rc *refereeCircuits, mover circuit.Party, try uint64, i int, seed prg.Seed, hooks copyHooks) (*copyGarbling, error) {
	delta, err := copyDelta(seed)
	if err != nil {
		return nil, err
	}
	var couple func([]bool)
	if hooks.couple != nil {
		couple = func(m []bool) { hooks.couple(try, i, m) }
	}
	gb, keys, mask, err := garbleFromSeed(cfg, rc, mover, try, seed, delta, couple)
	if err != nil {
		return nil, err
	}
	if hooks.cheat != nil {
		hooks.cheat(try, i, gb, keys)
	}
	// The message around the tables, no copy (MPC-D59).
	b, err := gb.MarshalInPlace()
	if err != nil {
		return nil, err
	}
	c := &copyGarbling{seed: seed, g: gb, keys: keys, bytes: b, mask: mask, pairs: labelPairs(cfg, try, i, keys, cfg.flipWires(rc, mover))}
	if cfg.authenticated() {
		c.blinds = blindLabels(seed)
	}
	c.commit = [3]Digest{seedHash(cfg, try, i, seed), Sum(b), labelsDigest(cfg, try, i, c.pairs)}
	return c, nil
}

// garbleFromSeed garbles the circuit of mover as a garbling of try from
// its seed and Δ (copyDelta of the seed): the labels, three-halves'
// coins and (MPC-D27) the mask bits from its labels stream, or with the
// authenticated state (MPC-D29) the mask bits from a stream of their own.
func garbleFromSeed(cfg Config, rc *refereeCircuits, mover circuit.Party, try uint64, seed prg.Seed, delta gc.Label, couple func([]bool)) (*gc.Garbled, *gc.Keys, []bool, error) {
	var masks *prg.Stream
	if cfg.authenticated() {
		// The mask bits from a stream of their own (MPC-D29), so that the
		// garbler's next share does not depend on the mover.
		masks = seed.Stream(labelAuthMask)
	}
	return garbleMasked(cfg, rc, mover, delta, seed.Stream(labelPVCLabels), masks, try, couple)
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
