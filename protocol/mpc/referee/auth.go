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
//
// This file holds the constants, the parity check's rows and sums, the
// MAC opening and the wire forms; auth_shares.go what the parties keep
// of their shares between tries and their checks of each other's,
// auth_certificates.go the certificates and their judges.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
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
