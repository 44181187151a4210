package referee

// The authenticated state of MPC-D29 (Config.AuthState): each party's
// share of the referee state is bound to the try that made it, so that a
// share substituted by either party is caught in the try where it is
// used, before that party learns anything of the try, with a
// certificate that convicts it and never the honest party.
//
// The evaluator's share. After try t the evaluator holds, for every
// state output of garbling ĵ_t, the label M_k = K_k ⊕ s_k·Δ_t of its
// share bit s_k, whose key K_k (the zero label, with the garbler's mask
// folded in, MPC-D27) and Δ_t only the garbler knows: an information-
// theoretic MAC it cannot change. In try t + 1 its OT gives it the label
// N_k = A_k ⊕ c_k·Δ' of the bit c_k it chose for share bit k in garbling
// ĵ'. With σ = authRows rows R_j of a binary matrix drawn from the
// request and the commitments (so after the evaluator chose its bits), it
// sends with its choice
//
//	Z_j = ⊕_{k ∈ R_j} (M_k ⊕ N_k) ⊕ U_j ⊕ U'_j,
//
// U_j and U'_j its labels of a blind bit u_j it chose in try t (an extra
// OT, in garbling ĵ_t) and chose again in try t + 1 (in ĵ'). If c = s and
// the blind bits agree, Z_j = Z⁰_j ⊕ b_j·(Δ_t ⊕ Δ'), Z⁰_j the same sum of
// zero labels, b_j = (R·s)_j ⊕ u_j: the garbler checks Z_j against its two
// values before it sends garbling ĵ' and learns b_j, a uniform bit (u_j is
// fresh and used once). A substituted share bit (c ≠ s on some k with
// (R·(c ⊕ s))_j = 1, probability 1/2 per row, 2^-σ to pass) leaves a term
// Δ' alone, which the evaluator cannot cancel without Δ'. At try 0 the
// share is the empty state: Z_j must be Z⁰_j exactly (no blind).
//
// The garbler's share. Its share after try t is the mask bits of
// garbling ĵ_t (drawn, in these games, from a stream of seed_i of their
// own, so that they do not depend on the mover), and in try t + 1 it
// sends labels of its share whose colours are c_k = P_k ⊕ x_k, P the
// colours of the zero labels of its share inputs in garbling ĵ'. Per try
// and garbling i it commits, before ĵ is known, to the bit vectors P_i
// and A_i (the colours and the mask bits of garbling i, from seed_i) by a
// sub-batch of correlated OTs of a MAC extension whose sender is the
// evaluator (its secret s: the MAC key, the rows q its keys; the
// garbler's rows T = q ⊕ b·s its MACs), with the KOS pad bits from
// seed_i, so that opening garbling i opens the sub-batch's choices
// (checked in every opened garbling, as MPC-D28's reverse choices). With
// garbling ĵ' it sends the hash of T_{P,k} ⊕ T_{A,k} (ĵ' and ĵ_t), which
// the evaluator checks against q_{P,k} ⊕ q_{A,k} ⊕ c_k·s before it
// evaluates: c_k = P_k ⊕ A_k exactly when the garbler's share input is
// its share, and it cannot make the MAC of another bit without s.
//
// The MAC extension's 128 base OTs go with the reverse extension's
// setup messages (one message each way, as before).

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// authRows is σ, the rows of the evaluator's parity check: a substituted
// share passes it with probability 2^-σ.
const authRows = 40

// Labels and tags of MPC-D29 (part of the protocol).
const (
	labelMACOT       = "kakure/phantom/ot-mac"           // each party's MAC machine
	macSession       = "kakure/phantom/ot-mac-session"   // the MAC extension
	labelMACPad      = "kakure/phantom/pvc/mac-pad"      // seed_i: pad bits of MAC sub-batch i
	labelAuthMask    = "kakure/phantom/pvc/auth-mask"    // seed_i: the garbler's mask bits
	labelBlindLabels = "kakure/phantom/pvc/blind-labels" // seed_i: zero labels of the blind OTs
	labelBlind       = "kakure/phantom/auth/blind"       // evaluator seed; index: the try
	tagAuthRows      = "kakure/phantom/auth/rows\x00"    // the rows R of a try
	tagAuthOpening   = "kakure/phantom/auth/mac-opening\x00"
	pvcVersionAuth   = 3
	choiceSizeAuth   = choiceSize + authRows*16 + sha256.Size
	authOpeningSize  = sha256.Size
)

// stateBits returns n, the bits of one share.
func (c Config) stateBits() int { return c.Size * c.Size * (3 + circuit.RefereeLabelBits(c.Size)) }

// garblingOTs returns the evaluator's OTs per garbling of a try whose
// circuit has m evaluator inputs: with the authenticated state, 2σ blind
// OTs follow its inputs (the blind bits of the try before, then its own).
func (c Config) garblingOTs(m int) int {
	if c.authenticated() {
		return m + 2*authRows
	}
	return m
}

// canonicalPositions returns the positions in sp of the bits of a share
// in canonical order (EncodeShare's: per point black, white, ko, the
// label bits), for a try whose mover has colour col (sp is seen from the
// mover: Own and Opp).
func canonicalPositions(sp circuit.StatePositions, col engine.Color) []int {
	out := make([]int, 0, len(sp.Own)*(3+len(sp.Label[0])))
	for p := range sp.Own {
		black, white := sp.Own[p], sp.Opp[p]
		if col == engine.White {
			black, white = white, black
		}
		out = append(out, black, white, sp.Ko[p])
		out = append(out, sp.Label[p]...)
	}
	return out
}

// authMask returns the garbler's mask bits of the garbling made from
// seed in a game of MPC-D29: from a stream of their own, so that the
// first n (its next share) do not depend on the mover.
func authMask(seed prg.Seed, n int) []bool { return seed.Stream(labelAuthMask).Bools(n) }

// blindLabels returns the zero labels of the 2σ blind OTs of the
// garbling made from seed (the blind bits of the try before, then the
// try's own).
func blindLabels(seed prg.Seed) []gc.Label {
	st := seed.Stream(labelBlindLabels)
	out := make([]gc.Label, 2*authRows)
	for i := range out {
		out[i] = st.Block()
	}
	return out
}

// macBits returns the choices of the MAC sub-batch of the garbling made
// from seed, pad excluded: P (the colours of the zero labels of the
// garbler's first n inputs, its share, in input order) then A (the first
// n of its mask bits). Both are read from seed_i's streams without
// garbling, and neither depends on the mover (the share inputs come
// first in both circuits).
func macBits(seed prg.Seed, n int) []bool {
	// The first n labels of the stream, read at once (as n Blocks).
	labels := make([]byte, 16*n)
	seed.Stream(labelPVCLabels).Read(labels)
	out := make([]bool, 0, 2*n)
	for k := range n {
		out = append(out, labels[16*k]&1 == 1)
	}
	return append(out, authMask(seed, n)...)
}

// macPad returns the pad bits of the MAC sub-batch of the garbling made
// from seed.
func macPad(seed prg.Seed) []bool { return seed.Stream(labelMACPad).Bools(ot.KOSPad) }

// authRowsOf returns the σ rows R_j (n bits each, packed: bit k of row j
// is bit k%8 of byte k/8) of the parity check of try, drawn from its
// request and its commitments: fixed after the evaluator chose its bits,
// and unknown to it when it did.
func authRowsOf(cfg Config, try uint64, request Digest, commitments []byte) [][]byte {
	h := sha256.New()
	h.Write([]byte(tagAuthRows))
	writeGameTry(h, cfg, try, 0)
	h.Write(request[:])
	d := Sum(commitments)
	h.Write(d[:])
	var seed prg.Seed
	copy(seed[:], h.Sum(nil))
	// σ rows of n bits, each the next (n+7)/8 bytes of the stream (as σ
	// calls of Bools would read them).
	nb := (cfg.stateBits() + 7) / 8
	b := make([]byte, authRows*nb)
	seed.Stream(tagAuthRows).Read(b)
	rows := make([][]byte, authRows)
	for j := range rows {
		rows[j] = b[j*nb : (j+1)*nb]
	}
	return rows
}

// parityCheck returns the σ sums ⊕_{k ∈ R_j} (prev_k ⊕ cur_k) ⊕
// prevBlind_j ⊕ curBlind_j; prev and prevBlind are nil at try 0.
func parityCheck(rows [][]byte, prev, cur, prevBlind, curBlind []gc.Label) []gc.Label {
	// prev_k ⊕ cur_k once, as two words: each row then sums its own.
	lo, hi := make([]uint64, len(cur)), make([]uint64, len(cur))
	for k, c := range cur {
		if prev != nil {
			c = c.Xor(prev[k])
		}
		lo[k], hi[k] = binary.LittleEndian.Uint64(c[:8]), binary.LittleEndian.Uint64(c[8:])
	}
	out := make([]gc.Label, len(rows))
	for j, r := range rows {
		var zl, zh uint64
		for k := range cur {
			// All ones when k is in the row: no branch on a random bit.
			m := -uint64(r[k>>3] >> (k & 7) & 1)
			zl ^= lo[k] & m
			zh ^= hi[k] & m
		}
		var z gc.Label
		binary.LittleEndian.PutUint64(z[:8], zl)
		binary.LittleEndian.PutUint64(z[8:], zh)
		z = z.Xor(curBlind[j])
		if prevBlind != nil {
			z = z.Xor(prevBlind[j])
		}
		out[j] = z
	}
	return out
}

// macOpening is the garbler's opening of the MACs of try: the hash of
// the sums, one per share bit in canonical order.
func macOpening(cfg Config, try uint64, sums []ot.Block) [authOpeningSize]byte {
	h := sha256.New()
	h.Write([]byte(tagAuthOpening))
	writeGameTry(h, cfg, try, 0)
	for _, s := range sums {
		h.Write(s[:])
	}
	var out [authOpeningSize]byte
	copy(out[:], h.Sum(nil))
	return out
}

// ----- wire forms -----

// authChoice is a parsed choice of a try of MPC-D29: ĵ, the proof, the
// σ sums Z_j, the digest of the evaluator's request of garbling ĵ (so
// that a certificate carries that part, not the whole request) and its
// seed transfer response of the next try (MPC-D30).
type authChoice struct {
	j       int
	proof   Digest
	z       []gc.Label
	request Digest
	next    []byte
}

// marshalAuthChoice is the choice of a try of MPC-D29: 'P' 3 'J' try ĵ
// proof, the σ sums Z_j, the digest of the request of garbling ĵ and the
// seed transfer response of the next try.
func marshalAuthChoice(try uint64, c authChoice) []byte {
	b := marshalChoice(try, c.j, c.proof)
	b[1] = pvcVersionAuth
	for _, l := range c.z {
		b = append(b, l[:]...)
	}
	b = append(b, c.request[:]...)
	return append(b, c.next...)
}

// parseChoiceOf parses the choice of try of a game of cfg: ĵ, the proof
// and, with the authenticated state, the sums Z_j (nil otherwise).
func parseChoiceOf(cfg Config, try uint64, b []byte) (int, Digest, []gc.Label, error) {
	if !cfg.authenticated() {
		j, proof, err := parseChoice(cfg, try, b)
		return j, proof, nil, err
	}
	c, err := parseAuthChoice(cfg, try, b)
	return c.j, c.proof, c.z, err
}

// parseAuthChoice parses the choice of try of a game of the
// authenticated state: ĵ, the proof, the sums Z_j and the seed transfer
// response of the next try.
func parseAuthChoice(cfg Config, try uint64, b []byte) (authChoice, error) {
	var c authChoice
	if len(b) != choiceSizeAuth+cfg.seedResponseSize() || b[1] != pvcVersionAuth {
		return c, fmt.Errorf("%w: bad choice message", ErrMessage)
	}
	head := bytes.Clone(b[:choiceSize])
	head[1] = pvcVersion
	var err error
	if c.j, c.proof, err = parseChoice(cfg, try, head); err != nil {
		return c, err
	}
	c.z = make([]gc.Label, authRows)
	for i := range c.z {
		copy(c.z[i][:], b[choiceSize+16*i:])
	}
	copy(c.request[:], b[choiceSize+16*authRows:])
	c.next = b[choiceSizeAuth:]
	return c, nil
}

// splitAuthLabels splits the Labels part of a checked try's garbling of
// a game of cfg into the labels and hashes of MPC-D14 and, with the
// authenticated state, the garbler's MAC opening (its last 32 bytes).
func splitAuthLabels(cfg Config, b []byte) ([]byte, []byte, error) {
	if !cfg.authenticated() {
		return b, nil, nil
	}
	if len(b) < authOpeningSize {
		return nil, nil, fmt.Errorf("%w: %d bytes of labels", ErrMessage, len(b))
	}
	return b[:len(b)-authOpeningSize], b[len(b)-authOpeningSize:], nil
}

// bundle writes several setup messages as one, each after its length:
// len:u32 ‖ part, in order (the reverse extension's, the MAC
// extension's, the seed transfer's of MPC-D30).
func bundle(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = binary.BigEndian.AppendUint32(b, uint32(len(p)))
		b = append(b, p...)
	}
	return b
}

// unbundle splits what bundle wrote of n parts.
func unbundle(b []byte, n int) ([][]byte, error) {
	parts := make([][]byte, n)
	for i := range parts {
		if len(b) < 4 || int(binary.BigEndian.Uint32(b)) > len(b)-4 {
			return nil, fmt.Errorf("%w: a setup message of %d parts cut short", ErrMessage, n)
		}
		k := int(binary.BigEndian.Uint32(b))
		parts[i], b = b[4:4+k], b[4+k:]
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the %d parts of a setup message", ErrMessage, len(b), n)
	}
	return parts, nil
}

// ----- the parties' state between tries -----

// garblerAuth is what the garbler keeps of the last complete try for
// the checks of the next (MPC-D29): in canonical order, the keys of the
// evaluator's share labels in garbling ĵ (zero labels, masks folded in),
// Δ of ĵ, the zero labels of ĵ's new blind OTs, and its MACs of ĵ's mask
// bits.
type garblerAuth struct {
	delta  gc.Label
	keys   []gc.Label
	blinds []gc.Label
	macs   []ot.Block
	// seed and rkeys are garbling ĵ's seed and reverse keys, and the
	// messages of the try, for a certificate of the next try.
	seed                                                 prg.Seed
	rkeys                                                []ot.Key
	commitment, requestPart, corrections, choice, labels []byte
	// resumed is set on what a resume made again of the last complete
	// try (its number, mover and ĵ): the messages of the try are then
	// the session's to give ([Garbler.ResumeAuthEvidence]).
	resumed *resumedTry
}

// resumedTry names the try a resumed garbler's garblerAuth is of.
type resumedTry struct {
	try   uint64
	mover circuit.Party
	j     int
}

// evaluatorAuth is what the evaluator keeps of the last complete try
// (MPC-D29): in canonical order, its labels of its share bits (the state
// outputs of garbling ĵ), its labels and bits of the try's blind OTs, and
// the MAC keys q of the garbler's mask bits of ĵ.
type evaluatorAuth struct {
	labels []gc.Label
	blinds []gc.Label
	bits   []bool
	keys   []ot.Block
	// commitment, mac and choice are the garbler's commitments, its MAC
	// sub-batch of garbling ĵ and the evaluator's choice of the try, for
	// a certificate of the next try (nil after a resume: the session
	// fills them in).
	commitment, mac, choice []byte
}

// garblerAuthOf is what the garbler keeps of a complete try whose
// garbling ĵ is cp, whose mover had colour col, and whose MAC sub-batch
// of ĵ gave it the rows macs (P then A, in input order).
func garblerAuthOf(l *circuit.RefereeLayout, col engine.Color, cp *copyGarbling, macs []ot.Block) *garblerAuth {
	out := canonicalPositions(l.ShareOut, col)
	n := len(out)
	mpos := canonicalPositions(l.StateMask, col)
	a := &garblerAuth{delta: cp.keys.Delta, keys: make([]gc.Label, n), blinds: cp.blinds[authRows:], macs: make([]ot.Block, n)}
	for k, o := range out {
		a.keys[k] = cp.keys.Outputs[o][0]
		if cp.mask[l.OutputMask[o]] {
			a.keys[k] = a.keys[k].Xor(cp.keys.Delta)
		}
		a.macs[k] = macs[n+mpos[k]]
	}
	return a
}

// EncodeAuth writes the evaluator's authentication state after the last
// complete try (its secret, kept for a resume as its share is,
// MPC-D29): nil in a game without it or before the first try.
func (e *Evaluator) EncodeAuth() []byte {
	a := e.auth
	if a == nil {
		return nil
	}
	b := gc.MarshalLabels(a.labels)
	b = append(b, gc.MarshalLabels(a.blinds)...)
	for _, q := range a.keys {
		b = append(b, q[:]...)
	}
	bits := make([]byte, (len(a.bits)+7)/8)
	for i, v := range a.bits {
		if v {
			bits[i/8] |= 1 << (i % 8)
		}
	}
	return append(b, bits...)
}

// decodeAuth reads what EncodeAuth wrote for a game of cfg.
func decodeAuth(cfg Config, b []byte) (*evaluatorAuth, error) {
	n := cfg.stateBits()
	header := len(gc.MarshalLabels(nil))
	ln, lb := header+16*n, header+16*authRows
	if len(b) != ln+lb+16*n+(authRows+7)/8 {
		return nil, fmt.Errorf("%w: an authentication state of %d bytes", ErrMessage, len(b))
	}
	a := &evaluatorAuth{}
	var err error
	if a.labels, err = gc.ParseLabels(b[:ln], n); err != nil {
		return nil, err
	}
	if a.blinds, err = gc.ParseLabels(b[ln:ln+lb], authRows); err != nil {
		return nil, err
	}
	off := ln + lb
	a.keys = make([]ot.Block, n)
	for k := range a.keys {
		copy(a.keys[k][:], b[off:])
		off += 16
	}
	a.bits = make([]bool, authRows)
	for i := range a.bits {
		a.bits[i] = b[off+i/8]>>(i%8)&1 == 1
	}
	return a, nil
}

// MACSeed returns the seed of the evaluator's machine of the MAC
// extension (MPC-D29): what it reveals to prove that the garbler's MAC
// opening is wrong ([GarblerShareCertificate]). It opens the MAC key and
// the MAC extension's rows, nothing of the evaluator's inputs (the MAC
// extension carries only the garbler's choices, which its receiver
// privacy keeps from the one who holds the key).
func (e *Evaluator) MACSeed() prg.Seed { return e.seed.Derive(labelMACOT) }

// ----- the evaluator's check of the garbler's share -----

// checkGarblerShare checks the garbler's MAC opening of the checked try
// under way against its share labels own (the garbler's input labels of
// garbling ĵ): nil when it proves that its share inputs are its share;
// otherwise the machine fails with a certificate.
func (e *Evaluator) checkGarblerShare(own []gc.Label, opening []byte, labelsMsg []byte) error {
	cur, try := e.cur, e.pub.Try
	l := e.rc.layout[cur.mover]
	sums, err := expectedOpening(l, e.pub.ToMove, e.rev.macRows, e.auth, own, e.macSend.Secret())
	if err != nil {
		return e.fail("try %d: %v", try, err)
	}
	want := macOpening(e.cfg, try, sums)
	if bytes.Equal(opening, want[:]) {
		return nil
	}
	ck := cur.checked
	e.shareCert = &GarblerShareCertificate{Try: try, MACSeed: e.MACSeed(), ReverseStart: bytes.Clone(e.revStartMsg), ReverseAnswer: bytes.Clone(e.revAnswer),
		Commitment: bytes.Clone(ck.commitment), MAC: bytes.Clone(e.rev.macSubs[ck.j]), Choice: bytes.Clone(ck.choice), Labels: bytes.Clone(labelsMsg)}
	if a := e.auth; a != nil {
		e.shareCert.PrevCommitment, e.shareCert.PrevMAC, e.shareCert.PrevChoice = bytes.Clone(a.commitment), bytes.Clone(a.mac), bytes.Clone(a.choice)
	}
	return e.fail("try %d: its share inputs are not its share: their MAC opening is not the one its MACs give (certificate)", try)
}

// expectedOpening returns the sums an honest garbler's MAC opening
// hashes, from the evaluator's side: per share bit k (canonical order),
// q_{P,x} ⊕ q_{A,k} ⊕ c_k·s, x the position of k among the share inputs
// of the try (layout l, mover colour col), rows the MAC keys of the
// sub-batch of garbling ĵ (P then A, input order), prev the keys of the
// masks of the try before (nil at try 0), own the garbler's input labels
// (c_k the colour of input x), s the MAC key.
func expectedOpening(l *circuit.RefereeLayout, col engine.Color, rows []ot.Block, prev *evaluatorAuth, own []gc.Label, s ot.Block) ([]ot.Block, error) {
	in := canonicalPositions(l.ShareIn[circuit.Garbler], col)
	if len(rows) != 2*len(in) || (prev != nil && len(prev.keys) != len(in)) {
		return nil, fmt.Errorf("%d MAC rows for %d share bits", len(rows), len(in))
	}
	sums := make([]ot.Block, len(in))
	for k, x := range in {
		v := rows[x]
		if prev != nil {
			v = v.Xor(prev.keys[k])
		}
		if own[x].LSB() {
			v = v.Xor(s)
		}
		sums[k] = v
	}
	return sums, nil
}

// garblerOpeningSums returns the sums the garbler's MAC opening of the
// checked try under way hashes (garbling ĵ's MACs macs, mover colour
// col): per share bit k, T_{P,x} ⊕ T_{A,k}.
func garblerOpeningSums(l *circuit.RefereeLayout, col engine.Color, macs []ot.Block, prev *garblerAuth) []ot.Block {
	in := canonicalPositions(l.ShareIn[circuit.Garbler], col)
	sums := make([]ot.Block, len(in))
	for k, x := range in {
		v := macs[x]
		if prev != nil {
			v = v.Xor(prev.macs[k])
		}
		sums[k] = v
	}
	return sums
}

// ----- the garbler's check of the evaluator's share -----

// checkParity checks the sums z of the evaluator's choice of the
// checked try under way against the garbler's keys: cur is garbling ĵ,
// col the mover's colour, rows the check's rows. It returns the index of
// the first wrong sum, or -1.
func checkParity(l *circuit.RefereeLayout, col engine.Color, rows [][]byte, cur *copyGarbling, prev *garblerAuth, z []gc.Label) int {
	in := canonicalPositions(l.ShareIn[circuit.Evaluator], col)
	zero := make([]gc.Label, len(in))
	for k, x := range in {
		zero[k] = cur.keys.Inputs[circuit.Evaluator][x][0]
	}
	var prevKeys, prevBlind []gc.Label
	delta := cur.keys.Delta
	if prev != nil {
		prevKeys, prevBlind, delta = prev.keys, prev.blinds, delta.Xor(prev.delta)
	}
	z0 := parityCheck(rows, prevKeys, zero, prevBlind, cur.blinds[:authRows])
	for j := range z0 {
		d := z[j].Xor(z0[j])
		if d != (gc.Label{}) && (prev == nil || d != delta) {
			return j
		}
	}
	return -1
}

// ----- certificates -----

// GarblerShareCertificate proves that the garbler's share inputs of a
// try of a game of the authenticated state (MPC-D29) were not its share:
// their colours do not match the MAC opening its MACs give. It holds
// the evaluator's MAC seed ([Evaluator.MACSeed]) and the messages the
// judge recomputes the MAC keys from, all of them the record's by their
// digests; nothing of the evaluator's inputs.
type GarblerShareCertificate struct {
	// Try is the try number.
	Try uint64
	// MACSeed is the seed of the evaluator's MAC machine.
	MACSeed prg.Seed
	// ReverseStart and ReverseAnswer are the reverse setup messages
	// (the MAC extension's base OTs are in them).
	ReverseStart, ReverseAnswer []byte
	// PrevCommitment and Commitment are the commitments parts of the
	// garbler's commitments of the try before (nil at try 0) and of the
	// try, which hold the digests of the MAC sub-batches; PrevMAC and MAC
	// the MAC sub-batches of garbling ĵ of both tries; PrevChoice and
	// Choice the evaluator's choices of both tries (they name ĵ).
	PrevCommitment, Commitment []byte
	PrevMAC, MAC               []byte
	PrevChoice, Choice         []byte
	// Labels is the garbler's labels message of the try: its input
	// labels of garbling ĵ, the hashes of the others, its MAC opening.
	Labels []byte
}

// ShareCertificate returns the certificate that convicts the garbler
// when the machine failed on its MAC opening (MPC-D29), or nil. After a
// resume the session fills in what the machine no longer holds of the
// try before (PrevCommitment, PrevMAC, PrevChoice) and ReverseStart.
func (e *Evaluator) ShareCertificate() *GarblerShareCertificate {
	if e.shareCert == nil {
		return nil
	}
	c := *e.shareCert
	return &c
}

// JudgeGarblerShare judges a certificate against the garbler of try t of
// a game's record: it returns nil when the certificate convicts the
// garbler, else an error wrapping ErrNotProven. The judge rebuilds the
// evaluator's MAC machine from the revealed seed (which must give
// exactly its signed setup answer), recomputes the MAC keys of the
// sub-batches of the garblings ĵ of tries t − 1 and t (their KOS checks
// must pass) and the opening an honest garbler sends with the colours of
// the labels it sent; an honest garbler's opening is always that one,
// whatever seed the evaluator reveals.
func JudgeGarblerShare(rec Record, t int, c GarblerShareCertificate) error {
	cfg := rec.Config
	if err := checkAuthenticatedTry(rec, t); err != nil {
		return err
	}
	tr := rec.Tries[t]
	switch {
	case rec.ReverseSent < 2 || Sum(c.ReverseStart) != rec.Reverse[0] || Sum(c.ReverseAnswer) != rec.Reverse[1]:
		return fmt.Errorf("%w: the reverse setup messages are not the record's", ErrNotProven)
	case tr.Sent < 4 || Sum(c.Commitment) != tr.Commitment || Sum(c.Choice) != tr.Choice || Sum(c.Labels) != tr.Labels:
		return fmt.Errorf("%w: the messages of try %d are not the record's", ErrNotProven, t)
	case t > 0 && (Sum(c.PrevCommitment) != rec.Tries[t-1].Commitment || Sum(c.PrevChoice) != rec.Tries[t-1].Choice):
		return fmt.Errorf("%w: the messages of try %d are not the record's", ErrNotProven, t-1)
	}
	pub, movers, _, err := replayPublic(cfg, Record{Config: cfg, Tries: rec.Tries[:t]})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if pub.Try != c.Try {
		return fmt.Errorf("%w: the certificate is of try %d, the record's try %d is try %d", ErrNotProven, c.Try, t, pub.Try)
	}
	rc, err := circuitsFor(cfg)
	if err != nil {
		return err
	}
	// The evaluator's MAC machine, from its seed.
	starts, err := unbundle(c.ReverseStart, setupParts)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	answers, err := unbundle(c.ReverseAnswer, setupParts)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	macStart, macAnswer := starts[1], answers[1]
	send := cfg.newMACSender(c.MACSeed)
	again, err := send.BaseRespond(macStart)
	if err != nil || !bytes.Equal(again, macAnswer) {
		return fmt.Errorf("%w: the seed does not give the evaluator's MAC setup answer", ErrNotProven)
	}
	n := cfg.stateBits()
	rowsOf := func(try uint64, commitment, sub, choice []byte) ([]ot.Block, error) {
		j, _, _, err := parseChoiceOf(cfg, try, choice)
		if err != nil {
			return nil, err
		}
		cm, err := parseCommitment(cfg, commitment)
		if err != nil {
			return nil, err
		}
		if cm.try != try || Sum(sub) != cm.macHashes[j] {
			return nil, fmt.Errorf("the MAC sub-batch is not the one the commitment of try %d names for garbling %d", try, j)
		}
		b, m, err := ot.RequestHeader(sub)
		if err != nil {
			return nil, err
		}
		if m != 2*n {
			return nil, fmt.Errorf("a MAC sub-batch of %d OTs", m)
		}
		for send.Batch() < b {
			if err := send.Skip(); err != nil {
				return nil, err
			}
		}
		if send.Batch() != b {
			return nil, fmt.Errorf("MAC sub-batch of batch %d after batch %d", b, send.Batch())
		}
		return send.Correlated(sub)
	}
	var prev *evaluatorAuth
	if t > 0 {
		q, err := rowsOf(pub.Try-1, c.PrevCommitment, c.PrevMAC, c.PrevChoice)
		if err != nil {
			return fmt.Errorf("%w: try %d: %v", ErrNotProven, t-1, err)
		}
		lp := rc.layout[movers[t-1]]
		mpos := canonicalPositions(lp.StateMask, cfg.ColorOf(movers[t-1]))
		prev = &evaluatorAuth{keys: make([]ot.Block, n)}
		for k, x := range mpos {
			prev.keys[k] = q[n+x]
		}
	}
	q, err := rowsOf(pub.Try, c.Commitment, c.MAC, c.Choice)
	if err != nil {
		return fmt.Errorf("%w: try %d: %v", ErrNotProven, t, err)
	}
	mover := cfg.PartyOf(pub.ToMove)
	l := rc.layout[mover]
	labels, opening, err := splitAuthLabels(cfg, c.Labels)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	own, _, err := parseCheckedLabels(labels, l.NumInputs[circuit.Garbler])
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	sums, err := expectedOpening(l, pub.ToMove, q, prev, own, send.Secret())
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	want := macOpening(cfg, pub.Try, sums)
	if bytes.Equal(want[:], opening) {
		return fmt.Errorf("%w: the garbler's MAC opening of try %d is the one its MACs give", ErrNotProven, t)
	}
	return nil
}

// EvaluatorShareCertificate proves that the evaluator's share inputs of
// a try of a game of the authenticated state (MPC-D29) were not its
// share: a sum Z_j of its choice is neither value its labels give. It
// holds what the garbler reveals of the two garblings ĵ whose labels the
// sums are made of — their seeds and reverse keys, which their signed
// commitments pin — and the messages of the record the judge replays
// them with, to check that everything the garbler sent of them was
// honest (so that the evaluator's labels were the ones those seeds give
// and only its own choices can make a sum wrong).
type EvaluatorShareCertificate struct {
	// Try is the try number.
	Try uint64
	// PrevSeed and Seed are the seeds of garbling ĵ of the try before
	// (zero at try 0) and of the try, PrevKeys and Keys their reverse
	// keys K.
	PrevSeed, Seed prg.Seed
	PrevKeys, Keys []ot.Key
	// The messages of the try before (nil at try 0) and of the try: the
	// commitments part of the garbler's commitment (it names each
	// garbling's corrections by their digest) and the evaluator's choice
	// (it names its request of garbling ĵ by its digest), with the parts
	// of garbling ĵ they name: the evaluator's request of ĵ (an ot
	// request) and the garbler's corrections of ĵ (16 bytes each);
	// PrevLabels the garbler's labels message of the try before.
	PrevCommitment, Commitment   []byte
	PrevRequestPart, RequestPart []byte
	PrevCorrections, Corrections []byte
	PrevChoice, Choice           []byte
	PrevLabels                   []byte
}

// ShareCertificate returns the certificate that convicts the evaluator
// when the garbler's machine failed on its choice's sums (MPC-D29), or
// nil. The session fills in the messages it holds by their digests (the
// ones of the try before).
func (g *Garbler) ShareCertificate() *EvaluatorShareCertificate {
	if g.shareCert == nil {
		return nil
	}
	c := *g.shareCert
	return &c
}

// JudgeEvaluatorShare judges a certificate against the evaluator of try
// t of a game's record: nil when it convicts the evaluator, else an
// error wrapping ErrNotProven. The judge opens the two garblings ĵ with
// the revealed seeds and keys (the commitments pin both) and checks
// everything the garbler sent of them: garbling ĵ of the try before
// made again from its seed is the one committed to and sent, the
// garbler's labels of it open their commitments, and the corrections of
// both are the ones the seeds, the keys and the evaluator's requests
// give (the requests passing their checks under those keys). Then the
// evaluator's labels were the ones the seeds give, and a sum that is
// neither of its two values was made of other choices than its share:
// a garbler that deviated in any of it proves nothing, and an honest
// evaluator's sums are always right.
func JudgeEvaluatorShare(rec Record, t int, c EvaluatorShareCertificate) error {
	cfg := rec.Config
	if err := checkAuthenticatedTry(rec, t); err != nil {
		return err
	}
	same := func(tr TryRecord, cm, choice []byte) bool {
		return tr.Sent >= 3 && Sum(cm) == tr.Commitment && Sum(choice) == tr.Choice
	}
	if !same(rec.Tries[t], c.Commitment, c.Choice) {
		return fmt.Errorf("%w: the messages of try %d are not the record's", ErrNotProven, t)
	}
	if t > 0 && (!same(rec.Tries[t-1], c.PrevCommitment, c.PrevChoice) || Sum(c.PrevLabels) != rec.Tries[t-1].Labels) {
		return fmt.Errorf("%w: the messages of try %d are not the record's", ErrNotProven, t-1)
	}
	pub, movers, _, err := replayPublic(cfg, Record{Config: cfg, Tries: rec.Tries[:t]})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if pub.Try != c.Try {
		return fmt.Errorf("%w: the certificate is of try %d, the record's try %d is try %d", ErrNotProven, c.Try, t, pub.Try)
	}
	rc, err := circuitsFor(cfg)
	if err != nil {
		return err
	}
	// open checks one try's garbling ĵ: the seed and keys against the
	// commitment, the corrections of ĵ; it returns ĵ's garbling (made
	// again) and the sums of the choice.
	open := func(try uint64, mover circuit.Party, seed prg.Seed, keys []ot.Key, cmb, reqPart, corrPart, choice []byte) (*copyGarbling, []gc.Label, error) {
		cm, err := parseCommitment(cfg, cmb)
		if err != nil {
			return nil, nil, err
		}
		if cm.try != try || cm.mover != mover {
			return nil, nil, fmt.Errorf("the commitment names try %d for the %v", cm.try, cm.mover)
		}
		ch, err := parseAuthChoice(cfg, try, choice)
		if err != nil {
			return nil, nil, err
		}
		j, z := ch.j, ch.z
		if Sum(reqPart) != ch.request || Sum(corrPart) != cm.corrHashes[j] {
			return nil, nil, fmt.Errorf("the request or the corrections of garbling %d are not the ones the choice and the commitment name", j)
		}
		if seedHash(cfg, try, j, seed) != cm.entries[j][0] || len(keys) != ot.Kappa || keysHash(cfg, try, j, keys) != cm.keyHashes[j] {
			return nil, nil, fmt.Errorf("the seed or the keys of garbling %d are not the ones committed to", j)
		}
		cp, err := garbleCopy(cfg, rc, mover, try, j, seed, copyHooks{})
		if err != nil {
			return nil, nil, err
		}
		m := rc.layout[mover].NumInputs[circuit.Evaluator]
		corr, err := parseCorrectionBytes(corrPart, cfg.garblingOTs(m))
		if err != nil {
			return nil, nil, err
		}
		bad, err := wrongCorrection(cfg, rc, mover, try, j, seed, cp.keys.Delta, keys, reqPart, corr)
		if err != nil {
			return nil, nil, err
		}
		if bad >= 0 {
			return nil, nil, fmt.Errorf("the garbler's correction of input %d of garbling %d is not the one its seed gives", bad, j)
		}
		return cp, z, nil
	}
	var prev *garblerAuth
	if t > 0 {
		mp := movers[t-1]
		cp, _, err := open(pub.Try-1, mp, c.PrevSeed, c.PrevKeys, c.PrevCommitment, c.PrevRequestPart, c.PrevCorrections, c.PrevChoice)
		if err != nil {
			return fmt.Errorf("%w: try %d: %v", ErrNotProven, t-1, err)
		}
		// Garbling ĵ of the try before, as committed to and as sent.
		cm, _ := parseCommitment(cfg, c.PrevCommitment)
		j, _, _, _ := parseChoiceOf(cfg, pub.Try-1, c.PrevChoice)
		if cp.commit != cm.entries[j] || rec.Tries[t-1].Tables != cm.entries[j][1] {
			return fmt.Errorf("%w: try %d: garbling %d is not the one its seed gives, or not the one sent", ErrNotProven, t-1, j)
		}
		labels, _, err := splitAuthLabels(cfg, c.PrevLabels)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrNotProven, err)
		}
		own, other, err := parseCheckedLabels(labels, rc.layout[mp].NumInputs[circuit.Garbler])
		if err != nil || openedLabelsDigest(cfg, pub.Try-1, j, own, other) != cm.entries[j][2] {
			return fmt.Errorf("%w: try %d: the garbler's labels do not open their commitment", ErrNotProven, t-1)
		}
		// The MACs play no part in this judgement.
		prev = garblerAuthOf(rc.layout[mp], cfg.ColorOf(mp), cp, make([]ot.Block, 2*cfg.stateBits()))
	}
	mover := cfg.PartyOf(pub.ToMove)
	cp, z, err := open(pub.Try, mover, c.Seed, c.Keys, c.Commitment, c.RequestPart, c.Corrections, c.Choice)
	if err != nil {
		return fmt.Errorf("%w: try %d: %v", ErrNotProven, t, err)
	}
	rows := authRowsOf(cfg, pub.Try, rec.Tries[t].Request, c.Commitment)
	if k := checkParity(rc.layout[mover], pub.ToMove, rows, cp, prev, z); k >= 0 {
		return nil
	}
	return fmt.Errorf("%w: the evaluator's sums of try %d are the ones its labels give", ErrNotProven, t)
}

// splitMAC returns the λ MAC sub-batches of a reverse request of try of
// a game of the authenticated state.
func splitMAC(cfg Config, try uint64, msg []byte) ([][]byte, error) {
	if err := parseCOTHeader(msg, kindReverse, cfg.reverseSize(), try, "reverse OT request"); err != nil {
		return nil, err
	}
	off := cotHeader + cfg.lambda()*ot.RequestSize(ot.Kappa)
	n := ot.RequestSizeKappa(cfg.macKappa(), 2*cfg.stateBits())
	subs := make([][]byte, cfg.lambda())
	for i := range subs {
		subs[i] = msg[off+i*n : off+(i+1)*n]
	}
	return subs, nil
}

// authAfter is what the evaluator keeps of the try under way once it
// evaluated garbling ĵ (layout l, mover colour col, its output labels
// out): its share labels, its new blind labels and bits, the MAC keys of
// ĵ's mask bits, canonical order (MPC-D29).
func (e *Evaluator) authAfter(l *circuit.RefereeLayout, col engine.Color, out []gc.Label) *evaluatorAuth {
	ck := e.cur.checked
	n := e.cfg.stateBits()
	a := &evaluatorAuth{labels: make([]gc.Label, n), keys: make([]ot.Block, n), commitment: ck.commitment, mac: e.rev.macSubs[ck.j], choice: ck.choice}
	for k, o := range canonicalPositions(l.ShareOut, col) {
		a.labels[k] = out[o]
	}
	m := l.NumInputs[circuit.Evaluator]
	a.blinds = append([]gc.Label(nil), ck.labels[m+authRows:m+2*authRows]...)
	a.bits = e.seed.Stream(labelBlind, e.pub.Try).Bools(authRows)
	for k, x := range canonicalPositions(l.StateMask, col) {
		a.keys[k] = e.rev.macRows[n+x]
	}
	return a
}

// shareSums returns the σ sums of the evaluator's choice of the checked
// try under way (MPC-D29), from its labels of garbling ĵ (its inputs,
// then the blind OTs) and those it kept of the try before.
func (e *Evaluator) shareSums(commitments []byte) []gc.Label {
	cur, ck := e.cur, e.cur.checked
	l := e.rc.layout[cur.mover]
	m := l.NumInputs[circuit.Evaluator]
	in := canonicalPositions(l.ShareIn[circuit.Evaluator], e.pub.ToMove)
	labels := make([]gc.Label, len(in))
	for k, x := range in {
		labels[k] = ck.labels[x]
	}
	var prev, prevBlind []gc.Label
	if e.auth != nil {
		prev, prevBlind = e.auth.labels, e.auth.blinds
	}
	rows := authRowsOf(e.cfg, e.pub.Try, Sum(ck.cot.request), commitments)
	return parityCheck(rows, prev, labels, prevBlind, ck.labels[m:m+authRows])
}

// verifyMACChoices judges a certificate about the garbler's MAC choices
// of an opened garbling (MPC-D29): nil when the check value of the
// garbling's MAC sub-batch of the reverse request c.Reverse is not the
// one of P_i, A_i and the pad bits seed_i gives. An honest garbler's is
// always that one; the sub-batch passed the evaluator's KOS check, which
// makes its check value the one of the choices its columns carry.
func verifyMACChoices(cfg Config, cm *commitment, c Certificate) error {
	if !cfg.authenticated() {
		return fmt.Errorf("%w: the game has no authenticated state", ErrNotProven)
	}
	i := c.Opened
	if i < 0 || i >= cfg.lambda() {
		return fmt.Errorf("%w: garbling %d of %d", ErrNotProven, i, cfg.lambda())
	}
	if seedHash(cfg, cm.try, i, c.Seed) != cm.entries[i][0] {
		return fmt.Errorf("%w: the seed is not the one committed to", ErrNotProven)
	}
	subs, err := splitMAC(cfg, cm.try, c.Reverse)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	err = ot.VerifyChoices(cfg.macSession(), subs[i], append(macBits(c.Seed, cfg.stateBits()), macPad(c.Seed)...))
	switch {
	case errors.Is(err, ot.ErrChoices):
		return nil
	case err != nil:
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	return fmt.Errorf("%w: the MAC choices of garbling %d are its colours and mask bits", ErrNotProven, i)
}

// correctionBytes writes the corrections of one garbling end to end.
func correctionBytes(d []ot.Block) []byte {
	b := make([]byte, 0, 16*len(d))
	for _, x := range d {
		b = append(b, x[:]...)
	}
	return b
}

// parseCorrectionBytes reads what correctionBytes wrote of n corrections.
func parseCorrectionBytes(b []byte, n int) ([]ot.Block, error) {
	if len(b) != 16*n {
		return nil, fmt.Errorf("%w: %d bytes of corrections, want %d", ErrMessage, len(b), 16*n)
	}
	d := make([]ot.Block, n)
	for i := range d {
		copy(d[i][:], b[16*i:])
	}
	return d, nil
}

// partsOf returns the evaluator's request of garbling j of the checked
// try st and the garbler's corrections of it (MPC-D29's certificates
// carry these parts, which the choice and the commitment name).
func (g *Garbler) partsOf(st *garblerCommitted, j int) ([]byte, []byte, error) {
	m := g.rc.layout[st.mover].NumInputs[circuit.Evaluator]
	reqs, _, err := splitCOTRequest(g.cfg, st.try, m, st.request)
	if err != nil {
		return nil, nil, err
	}
	if err := parseCOTHeader(st.reply, kindCOTReply, g.cfg.cotReplySize(m), st.try, "OT corrections"); err != nil {
		return nil, nil, err
	}
	// The corrections of garbling j as the reply holds them (what
	// correctionBytes writes of splitCOTReply's).
	size := 16 * g.cfg.garblingOTs(m)
	return bytes.Clone(reqs[j]), bytes.Clone(st.reply[cotHeader+j*size : cotHeader+(j+1)*size]), nil
}

// checkAuthenticatedTry is what both share judges (MPC-D29) ask of the
// record first: a valid configuration of the authenticated state, and a
// try t it holds.
func checkAuthenticatedTry(rec Record, t int) error {
	if err := rec.Config.Validate(); err != nil {
		return err
	}
	if !rec.Config.authenticated() {
		return fmt.Errorf("%w: the game has no authenticated state", ErrNotProven)
	}
	if t < 0 || t >= len(rec.Tries) {
		return fmt.Errorf("%w: the record has no try %d", ErrNotProven, t)
	}
	return nil
}
