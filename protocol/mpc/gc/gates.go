package gc

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// blk is a label as two little-endian 64-bit halves: lo holds bytes 0..7
// (and the colour bit, bit 0 of byte 0), hi bytes 8..15. The gate loops
// work on blk, where XOR and masking are two machine operations each.
type blk struct{ lo, hi uint64 }

func toBlk(l Label) blk {
	return blk{binary.LittleEndian.Uint64(l[:8]), binary.LittleEndian.Uint64(l[8:])}
}

// put writes a into l, as a.label() does into a fresh Label.
func (a blk) put(l *Label) {
	binary.LittleEndian.PutUint64(l[:8], a.lo)
	binary.LittleEndian.PutUint64(l[8:], a.hi)
}

// putPair writes the two labels of a wire whose label of 0 is a into p:
// a and a ⊕ delta (a key's pair), in place (MPC-D62).
func (a blk) putPair(p *[2]Label, delta blk) {
	a.put(&p[0])
	a.xor(delta).put(&p[1])
}

func (a blk) label() Label {
	var l Label
	a.put(&l)
	return l
}

func (a blk) xor(b blk) blk { return blk{a.lo ^ b.lo, a.hi ^ b.hi} }

// and returns a with every bit ANDed with m (all ones or zero).
func (a blk) and(m uint64) blk { return blk{a.lo & m, a.hi & m} }

// colourMask returns all ones if the colour bit of a is 1, else zero, so
// that selections by colour need no branch (colours are random: a branch
// would be mispredicted half the time).
func (a blk) colourMask() uint64 { return -(a.lo & 1) }

// gateHash computes the TCCR hash of package aeshash,
// H(x, i) = π(π(x) ⊕ i) ⊕ π(x), on four blocks (garbling) or two
// (evaluation) at a time through crypto/aes, one block at a time from a
// scratch buffer, without allocating: the pure-Go path of the gate loops.
// Where the fused gate routines run (AES-NI on amd64, [useFused]) the
// gate loops do not use it; both give identical tables
// (TestGarblingPathsIdentical, TestFusedGatesMatchPureGo).
type gateHash struct {
	pi  cipher.Block
	buf *[8 * aeshash.Size]byte
}

func newGateHash() *gateHash {
	k := aeshash.FixedKey()
	c, err := aes.NewCipher(k[:])
	if err != nil {
		panic("gc: " + err.Error())
	}
	return &gateHash{pi: c, buf: new([8 * aeshash.Size]byte)}
}

// gateArg describes one AND gate for the fused routines evaluate4AESNI,
// evaluate2AESNI and garble4VAES: its input labels, where its output
// label goes, its table and its index j among the AND gates (the tweaks
// are (instance, 2j) and (instance, 2j+1)). The assembly reads the
// fields at offsets 0, 8, 16, 24 and 32.
type gateArg struct {
	a, b, out *blk
	t         *[TableSize]byte
	j         uint64
}

// roundKeys is the AES-128 key schedule of π for the fused gate routines.
var roundKeys = aeshash.RoundKeys()

// useAESNI selects the fused assembly routines of gates_amd64.s where
// the processor has AES-NI (aeshash.Assembly); the tests and benchmarks
// of this package turn it off (SetAssembly of export_test.go) to run
// and compare the pure-Go path, crypto/aes one block at a time.
var useAESNI = aeshash.Assembly()

// useFused reports whether the gate loops run the fused assembly
// routines of gates_amd64.s.
func useFused() bool { return haveGateAssembly && useAESNI }

func (h *gateHash) put(i int, x blk) {
	binary.LittleEndian.PutUint64(h.buf[16*i:], x.lo)
	binary.LittleEndian.PutUint64(h.buf[16*i+8:], x.hi)
}

func (h *gateHash) get(i int) blk {
	return blk{binary.LittleEndian.Uint64(h.buf[16*i:]), binary.LittleEndian.Uint64(h.buf[16*i+8:])}
}

func (h *gateHash) enc(i int) {
	b := h.buf[16*i : 16*i+16]
	h.pi.Encrypt(b, b)
}

// hash4 returns H(x0, ta), H(x1, ta), H(x2, tb), H(x3, tb).
func (h *gateHash) hash4(x0, x1, x2, x3, ta, tb blk) (blk, blk, blk, blk) {
	h.put(0, x0)
	h.put(1, x1)
	h.put(2, x2)
	h.put(3, x3)
	h.enc(0)
	h.enc(1)
	h.enc(2)
	h.enc(3)
	p0, p1, p2, p3 := h.get(0), h.get(1), h.get(2), h.get(3)
	h.put(4, p0.xor(ta))
	h.put(5, p1.xor(ta))
	h.put(6, p2.xor(tb))
	h.put(7, p3.xor(tb))
	h.enc(4)
	h.enc(5)
	h.enc(6)
	h.enc(7)
	return h.get(4).xor(p0), h.get(5).xor(p1), h.get(6).xor(p2), h.get(7).xor(p3)
}

// hash2 returns H(x0, ta), H(x1, tb).
func (h *gateHash) hash2(x0, x1, ta, tb blk) (blk, blk) {
	h.put(0, x0)
	h.put(1, x1)
	h.enc(0)
	h.enc(1)
	p0, p1 := h.get(0), h.get(1)
	h.put(2, p0.xor(ta))
	h.put(3, p1.xor(tb))
	h.enc(2)
	h.enc(3)
	return h.get(2).xor(p0), h.get(3).xor(p1)
}

// garbleGates garbles the gates of c, writing the zero label of every
// gate output into w and the tables of the AND gates into tables. With
// the fused routines it walks them by AND depth (schedule.go), AND gates
// four at a time with VAES (sixteen AES blocks in flight), two at a time
// with AES-NI (eight); the j-th AND gate keeps its tweaks and its place
// in the tables, so the tables are the same as one gate at a time in
// circuit order, which the pure-Go path does. The caller has validated
// the circuit and sized w and tables (the routines index them
// unchecked).
func garbleGates(p *Prepared, w []blk, delta blk, instance uint64, tables []byte) {
	if useFused() {
		garbleScheduled(p.ensureSchedule(), w, delta, instance, tables)
		return
	}
	h := newGateHash()
	j := uint64(0)
	for _, g := range p.gates {
		switch g.Op {
		case circuit.OpXOR:
			w[g.Out] = w[g.A].xor(w[g.B])
		case circuit.OpINV:
			w[g.Out] = w[g.A].xor(delta)
		case circuit.OpAND:
			garbleOne(h, g, w, delta, instance, j, tables)
			j++
		}
	}
}

// useVAES selects garble4VAES for garbling where the processor has it
// (tests turn it off to check garble2AESNI gives the same tables).
var useVAES = haveVAES

// garbleHeld garbles the first n gates of held (1..4; at most 2 without
// VAES), three or four with garble4VAES, one or two with garble2AESNI
// (a call of garble4VAES costs about 1.7 times one of garble2AESNI on
// this processor), repeating the first to fill the places of the
// routine.
func garbleHeld(rk *[176]byte, held *[4]gateArg, n int, delta *blk, instance uint64) {
	if useVAES && n > 2 {
		for k := n; k < len(held); k++ {
			held[k] = held[0]
		}
		garble4VAES(rk, delta, held, instance)
		return
	}
	g, g2 := &held[0], &held[0]
	if n == 2 {
		g2 = &held[1]
	}
	garble2AESNI(rk, delta, g.a, g.b, g2.a, g2.b, g.j, g2.j, instance, g.out, g2.out, g.t, g2.t)
}

// garbleOne garbles AND gate g, the j-th, on the pure-Go path.
func garbleOne(h *gateHash, g circuit.Gate, w []blk, delta blk, instance, j uint64, tables []byte) {
	a0, b0 := w[g.A], w[g.B]
	ha0, ha1, hb0, hb1 := h.hash4(a0, a0.xor(delta), b0, b0.xor(delta), blk{2 * j, instance}, blk{2*j + 1, instance})
	w[g.Out] = garbleAND(a0, b0, delta, ha0, ha1, hb0, hb1, tables[j*TableSize:(j+1)*TableSize])
}

// garbleAND garbles one AND gate with half-gates from the hashes of its
// input labels, writes its table to t and returns its output zero label.
func garbleAND(a0, b0, delta, ha0, ha1, hb0, hb1 blk, t []byte) blk {
	pa, pb := a0.colourMask(), b0.colourMask()
	// Generator half-gate: TG = H(A0) ⊕ H(A1) ⊕ pb·Δ,
	// WG0 = H(A0) ⊕ pa·TG.
	tg := ha0.xor(ha1).xor(delta.and(pb))
	wg := ha0.xor(tg.and(pa))
	// Evaluator half-gate: TE = H(B0) ⊕ H(B1) ⊕ A0,
	// WE0 = H(B0) ⊕ pb·(TE ⊕ A0).
	hb := hb0.xor(hb1)
	te := hb.xor(a0)
	we := hb0.xor(hb.and(pb))
	binary.LittleEndian.PutUint64(t[0:], tg.lo)
	binary.LittleEndian.PutUint64(t[8:], tg.hi)
	binary.LittleEndian.PutUint64(t[16:], te.lo)
	binary.LittleEndian.PutUint64(t[24:], te.hi)
	return wg.xor(we)
}

// evaluateGates evaluates the gates of c on the labels in w. With the
// fused routines it walks them by AND depth (schedule.go), AND gates four
// at a time (eight AES blocks in flight), the last of a group with fewer.
// The caller has validated the circuit and the size of the tables.
func evaluateGates(p *Prepared, w []blk, instance uint64, tables []byte) {
	if useFused() {
		evaluateScheduled(p.ensureSchedule(), w, instance, tables)
		return
	}
	h := newGateHash()
	j := uint64(0)
	for _, g := range p.gates {
		switch g.Op {
		case circuit.OpXOR:
			w[g.Out] = w[g.A].xor(w[g.B])
		case circuit.OpINV:
			w[g.Out] = w[g.A]
		case circuit.OpAND:
			evaluateOne(h, g, w, instance, j, tables)
			j++
		}
	}
}

// evaluateHeld evaluates the first n (1..4) gates of held, one or two
// with evaluate2AESNI, three or four with evaluate4AESNI, repeating the
// first to fill the places of the routine.
func evaluateHeld(rk *[176]byte, held *[4]gateArg, n int, instance uint64) {
	if n <= 2 {
		if n == 1 {
			held[1] = held[0]
		}
		evaluate2AESNI(rk, (*[2]gateArg)(held[:2]), instance)
		return
	}
	for k := n; k < len(held); k++ {
		held[k] = held[0]
	}
	evaluate4AESNI(rk, held, instance)
}

// evaluateOne evaluates AND gate g, the j-th, on the pure-Go path.
func evaluateOne(h *gateHash, g circuit.Gate, w []blk, instance, j uint64, tables []byte) {
	wa, wb := w[g.A], w[g.B]
	ha, hb := h.hash2(wa, wb, blk{2 * j, instance}, blk{2*j + 1, instance})
	w[g.Out] = evaluateAND(wa, wb, ha, hb, tables[j*TableSize:(j+1)*TableSize])
}

// evaluateAND evaluates one AND gate from the hashes of its input labels
// and its table t.
func evaluateAND(wa, wb, ha, hb blk, t []byte) blk {
	tg := blk{binary.LittleEndian.Uint64(t[0:]), binary.LittleEndian.Uint64(t[8:])}
	te := blk{binary.LittleEndian.Uint64(t[16:]), binary.LittleEndian.Uint64(t[24:])}
	// WG = H(Wa) ⊕ sa·TG; WE = H(Wb) ⊕ sb·(TE ⊕ Wa).
	wg := ha.xor(tg.and(wa.colourMask()))
	we := hb.xor(te.xor(wa).and(wb.colourMask()))
	return wg.xor(we)
}
