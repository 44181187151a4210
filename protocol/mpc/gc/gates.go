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

func (a blk) label() Label {
	var l Label
	binary.LittleEndian.PutUint64(l[:8], a.lo)
	binary.LittleEndian.PutUint64(l[8:], a.hi)
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
// (evaluation) at a time, without allocating. Where aeshash has its
// assembly path (AES-NI on amd64), one call runs both AES layers of all
// the blocks with their rounds interleaved; otherwise the blocks go
// through crypto/aes one by one from a scratch buffer (the pure-Go path,
// kept: both give identical tables, TestGarblingPathsIdentical).
type gateHash struct {
	asm bool
	b   *aeshash.Batch
	// w holds the words of a batched call: x, t, out of hash4 (8 words
	// each), then x, t, out of hash2 (4 each), then x, t, out of hash8
	// (16 each).
	w *[84]uint64
	// pi and buf are the pure-Go path.
	pi  cipher.Block
	buf *[8 * aeshash.Size]byte
}

func newGateHash() *gateHash {
	k := aeshash.FixedKey()
	c, err := aes.NewCipher(k[:])
	if err != nil {
		panic("gc: " + err.Error())
	}
	return &gateHash{asm: aeshash.Assembly(), b: aeshash.NewBatch(), w: new([84]uint64),
		pi: c, buf: new([8 * aeshash.Size]byte)}
}

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
	if h.asm {
		x, t, o := (*[8]uint64)(h.w[0:8]), (*[8]uint64)(h.w[8:16]), (*[8]uint64)(h.w[16:24])
		x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] = x0.lo, x0.hi, x1.lo, x1.hi, x2.lo, x2.hi, x3.lo, x3.hi
		t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] = ta.lo, ta.hi, ta.lo, ta.hi, tb.lo, tb.hi, tb.lo, tb.hi
		h.b.Hash4(x, t, o)
		return blk{o[0], o[1]}, blk{o[2], o[3]}, blk{o[4], o[5]}, blk{o[6], o[7]}
	}
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

// hash8 returns H(x[k], t[k/2]) for k = 0..7 (assembly path only).
func (h *gateHash) hash8(x [8]blk, t [4]blk) [8]blk {
	xs, ts, o := (*[16]uint64)(h.w[36:52]), (*[16]uint64)(h.w[52:68]), (*[16]uint64)(h.w[68:84])
	for k := range 8 {
		xs[2*k], xs[2*k+1] = x[k].lo, x[k].hi
		ts[2*k], ts[2*k+1] = t[k/2].lo, t[k/2].hi
	}
	h.b.Hash8(xs, ts, o)
	var out [8]blk
	for k := range out {
		out[k] = blk{o[2*k], o[2*k+1]}
	}
	return out
}

// hash4t returns H(x[k], t[k]) for k = 0..3 (assembly path only).
func (h *gateHash) hash4t(x, t [4]blk) [4]blk {
	xs, ts, o := (*[8]uint64)(h.w[0:8]), (*[8]uint64)(h.w[8:16]), (*[8]uint64)(h.w[16:24])
	for k := range 4 {
		xs[2*k], xs[2*k+1] = x[k].lo, x[k].hi
		ts[2*k], ts[2*k+1] = t[k].lo, t[k].hi
	}
	h.b.Hash4(xs, ts, o)
	return [4]blk{{o[0], o[1]}, {o[2], o[3]}, {o[4], o[5]}, {o[6], o[7]}}
}

// hash2 returns H(x0, ta), H(x1, tb).
func (h *gateHash) hash2(x0, x1, ta, tb blk) (blk, blk) {
	if h.asm {
		x, t, o := (*[4]uint64)(h.w[24:28]), (*[4]uint64)(h.w[28:32]), (*[4]uint64)(h.w[32:36])
		x[0], x[1], x[2], x[3] = x0.lo, x0.hi, x1.lo, x1.hi
		t[0], t[1], t[2], t[3] = ta.lo, ta.hi, tb.lo, tb.hi
		h.b.Hash2(x, t, o)
		return blk{o[0], o[1]}, blk{o[2], o[3]}
	}
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

// garbleGates garbles the gates, writing the zero label of every gate
// output into w and the tables of the AND gates into tables. With the
// assembly hash, AND gates are garbled two at a time, eight AES calls in
// flight: an AND gate is held until the next AND gate that does not read
// its output, and the XOR and INV gates in between that do not read it
// either run first (a gate that reads it flushes it alone). The j-th AND
// gate keeps its tweaks and its place in the tables, so the tables are
// the same as one gate at a time.
func garbleGates(gates []circuit.Gate, w []blk, delta blk, instance uint64, tables []byte) {
	h := newGateHash()
	j := uint64(0)
	held, heldJ := -1, uint64(0)
	for k, g := range gates {
		if held >= 0 && reads(g, gates[held].Out) {
			garbleOne(h, gates[held], w, delta, instance, heldJ, tables)
			held = -1
		}
		switch g.Op {
		case circuit.OpXOR:
			w[g.Out] = w[g.A].xor(w[g.B])
		case circuit.OpINV:
			w[g.Out] = w[g.A].xor(delta)
		case circuit.OpAND:
			switch {
			case !h.asm:
				garbleOne(h, g, w, delta, instance, j, tables)
			case held < 0:
				held, heldJ = k, j
			default:
				garbleTwo(h, gates[held], g, w, delta, instance, heldJ, j, tables)
				held = -1
			}
			j++
		}
	}
	if held >= 0 {
		garbleOne(h, gates[held], w, delta, instance, heldJ, tables)
	}
}

// reads reports whether gate g reads wire x.
func reads(g circuit.Gate, x circuit.Wire) bool {
	return g.A == x || (g.Op != circuit.OpINV && g.B == x)
}

// garbleOne garbles AND gate g, the j-th.
func garbleOne(h *gateHash, g circuit.Gate, w []blk, delta blk, instance, j uint64, tables []byte) {
	a0, b0 := w[g.A], w[g.B]
	ha0, ha1, hb0, hb1 := h.hash4(a0, a0.xor(delta), b0, b0.xor(delta), blk{2 * j, instance}, blk{2*j + 1, instance})
	w[g.Out] = garbleAND(a0, b0, delta, ha0, ha1, hb0, hb1, tables[j*TableSize:(j+1)*TableSize])
}

// garbleTwo garbles the independent AND gates g (the j-th) and g2 (the
// j2-th) with one 8-block hash.
func garbleTwo(h *gateHash, g, g2 circuit.Gate, w []blk, delta blk, instance, j, j2 uint64, tables []byte) {
	a0, b0, c0, d0 := w[g.A], w[g.B], w[g2.A], w[g2.B]
	hs := h.hash8(
		[8]blk{a0, a0.xor(delta), b0, b0.xor(delta), c0, c0.xor(delta), d0, d0.xor(delta)},
		[4]blk{{2 * j, instance}, {2*j + 1, instance}, {2 * j2, instance}, {2*j2 + 1, instance}})
	w[g.Out] = garbleAND(a0, b0, delta, hs[0], hs[1], hs[2], hs[3], tables[j*TableSize:(j+1)*TableSize])
	w[g2.Out] = garbleAND(c0, d0, delta, hs[4], hs[5], hs[6], hs[7], tables[j2*TableSize:(j2+1)*TableSize])
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

// evaluateGates evaluates the gates on the labels in w; with the
// assembly hash, AND gates two at a time as garbleGates does.
func evaluateGates(gates []circuit.Gate, w []blk, instance uint64, tables []byte) {
	h := newGateHash()
	j := uint64(0)
	held, heldJ := -1, uint64(0)
	for k, g := range gates {
		if held >= 0 && reads(g, gates[held].Out) {
			evaluateOne(h, gates[held], w, instance, heldJ, tables)
			held = -1
		}
		switch g.Op {
		case circuit.OpXOR:
			w[g.Out] = w[g.A].xor(w[g.B])
		case circuit.OpINV:
			w[g.Out] = w[g.A]
		case circuit.OpAND:
			switch {
			case !h.asm:
				evaluateOne(h, g, w, instance, j, tables)
			case held < 0:
				held, heldJ = k, j
			default:
				g1 := gates[held]
				wa, wb, wc, wd := w[g1.A], w[g1.B], w[g.A], w[g.B]
				hs := h.hash4t([4]blk{wa, wb, wc, wd},
					[4]blk{{2 * heldJ, instance}, {2*heldJ + 1, instance}, {2 * j, instance}, {2*j + 1, instance}})
				w[g1.Out] = evaluateAND(wa, wb, hs[0], hs[1], tables[heldJ*TableSize:(heldJ+1)*TableSize])
				w[g.Out] = evaluateAND(wc, wd, hs[2], hs[3], tables[j*TableSize:(j+1)*TableSize])
				held = -1
			}
			j++
		}
	}
	if held >= 0 {
		evaluateOne(h, gates[held], w, instance, heldJ, tables)
	}
}

// evaluateOne evaluates AND gate g, the j-th.
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
