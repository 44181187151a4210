package gc

// Three-halves in the fused gate routines of threehalves_amd64.s
// (issue 38): as the half-gates loops do, the gate loops walk a
// circuit's schedule (AND gates grouped by AND depth, schedule.go) and
// hand independent AND gates to assembly a batch at a time, four per
// th3Garble4VAES call (24 AES blocks of each layer in flight), two per
// th3Garble2AESNI call without VAES, four per th3Evaluate4VAES call
// (th3Evaluate4AESNI without VAES);
// the assembly hashes, does the scheme's arithmetic and writes the
// labels and tables itself. The j-th AND gate keeps its tweaks, its
// coins and its place in the tables, so the tables are byte for byte
// those of garbleAND3 and evaluateAND3 gate by gate in circuit order
// (TestThreeHalvesFusedMatchPureGo, TestKATGarbling on every path,
// TestGarblingPathsIdentical).
//
// The garbler's arithmetic, V⁻¹·y of garbleAND3, is split so that the
// assembly has no branch and no bit loop: thSolutions gives, per
// idx = ᾱ<<3 | β̄<<2 | ρ, which of the halves [A_0L, A_0R, B_0L, B_0R,
// Δ_L, Δ_R] each output [C⁰_L, C⁰_R, G0, G1, G2] takes. With the colour-0
// labels written as A_0 = A ⊕ αΔ, B_0 = B ⊕ βΔ (A, B the zero labels,
// α, β their colours, which idx fixes), that is the halves of A and B
// (th3Lin, masks, constant) and a Δ part (th3Delta, per garbling: 16
// rows, with z without the hashes).

// th3Arg describes one three-halves AND gate for the fused routines: its
// input labels, where its output label goes, its table, its index j
// among the AND gates (tweaks 1<<63 | 3j + m) and ctl, its coins ρ in
// and its control bits z out when garbling, its control bits z when
// evaluating. The assembly reads the fields at offsets 0, 8, ..., 40.
type th3Arg struct {
	a, b, out *blk
	t         *[ThreeHalvesTableSize]byte
	j         uint64
	ctl       uint64
}

// th3Run is a run of AND gates for th3GarbleRun4VAES and
// th3EvaluateRun4VAES: the wire array, the steps of the gates and their
// number n (a multiple of four), the tables, the coins ρ (2 bits a gate;
// garbling only) and the control bits (5 bits a gate; zero before a
// garbling). The assembly reads the fields at offsets 0, 8,
// ..., 40, and a step's a, b, out and j at 4, 8, 12 and 16 of its 20
// bytes (TestTH3RunLayout).
type th3Run struct {
	w      *blk
	steps  *step
	n      uint64
	tables *byte
	coins  *byte
	ctl    *byte
}

// th3LinRow is the part of the halves of the zero labels A and B in the
// outputs of the garbling of one idx: m[k][o] is all ones if output o
// of [C⁰_L, C⁰_R, G0, G1] takes half k of [A_L, A_R, B_L, B_R], m4[k]
// (twice) if G2 does. The assembly reads it at 0, 32, ..., 128, 144, ...
type th3LinRow struct {
	m  [4][4]uint64
	m4 [4][2]uint64
}

// th3DeltaRow is the part of Δ in the outputs [C⁰_L, C⁰_R, G0, G1] (u)
// and G2 (u4) of the garbling of one idx, and its control bits z without
// the hashes (thSolution.z); 64 bytes, read at 0, 32 and 40.
type th3DeltaRow struct {
	u  [4]uint64
	u4 uint64
	z  uint64
	_  [2]uint64
}

// th3Colours returns the colours α, β of the zero labels of the
// garbling of idx.
func th3Colours(idx int) (alpha, beta uint8) {
	return uint8(idx>>3&1) ^ 1, uint8(idx>>2&1) ^ 1
}

// th3Folded returns, for output o of thSolutions[idx], its mask of the
// halves [A_L, A_R, B_L, B_R, Δ_L, Δ_R] of the zero labels: A_0 = A ⊕ αΔ
// moves the A_0 columns' bits into the Δ columns when α = 1, as B_0's
// when β = 1.
func th3Folded(idx, o int) uint8 {
	alpha, beta := th3Colours(idx)
	l := thSolutions[idx].lin[o]
	dL := (l>>4 ^ alpha&l ^ beta&(l>>2)) & 1
	dR := (l>>5 ^ alpha&(l>>1) ^ beta&(l>>3)) & 1
	return l&0b1111 | dL<<4 | dR<<5
}

// th3Lin holds the th3LinRow of every idx.
var th3Lin = func() (rows [16]th3LinRow) {
	for idx := range rows {
		for o := range 5 {
			f := uint64(th3Folded(idx, o))
			for k := range 4 {
				if o < 4 {
					rows[idx].m[k][o] = mask(f >> k)
				} else {
					rows[idx].m4[k] = [2]uint64{mask(f >> k), mask(f >> k)}
				}
			}
		}
	}
	return rows
}()

// th3DeltaRows returns the th3DeltaRow of every idx for Δ = delta.
func th3DeltaRows(delta blk, rows *[16]th3DeltaRow) {
	for idx := range rows {
		r := &rows[idx]
		for o := range 5 {
			f := uint64(th3Folded(idx, o))
			v := delta.lo&mask(f>>4) ^ delta.hi&mask(f>>5)
			if o < 4 {
				r.u[o] = v
			} else {
				r.u4 = v
			}
		}
		r.z = uint64(thSolutions[idx].z)
	}
}

// th3EvalRow is what evaluating a gate takes from its colours i, j and
// its bits r = (r0, r1), at index (2i + j)<<2 | r1<<1 | r0: the rows of
// R_ij as masks of the halves [A_L, A_R, B_L, B_R] (ab[k] = [row 0's bit
// k, row 1's bit k], all ones or zero), the masks [i, j] of G0, G1 and
// [i ⊕ j, i ⊕ j] of G2; 128 bytes, read at 0, 16, ..., 80.
type th3EvalRow struct {
	ab  [4][2]uint64
	g01 [2]uint64
	g2  [2]uint64
	_   [4]uint64
}

// th3EvalRows holds the th3EvalRow of every colour pair and r.
var th3EvalRows = func() (rows [16]th3EvalRow) {
	for c := range rows {
		k := c >> 2
		i, j := uint64(k>>1), uint64(k&1)
		s0, s1 := uint8(c&1), uint8(c>>1&1)
		row0 := s0*thS[0][0] ^ s1*thS[1][0] ^ thRp[k][0]
		row1 := s0*thS[0][1] ^ s1*thS[1][1] ^ thRp[k][1]
		for b := range 4 {
			rows[c].ab[b] = [2]uint64{mask(uint64(row0 >> b)), mask(uint64(row1 >> b))}
		}
		rows[c].g01 = [2]uint64{mask(i), mask(j)}
		rows[c].g2 = [2]uint64{mask(i ^ j), mask(i ^ j)}
	}
	return rows
}()

// th3EvalZ holds, at (2i + j)<<5 | z, the bits r of a gate of colours i,
// j and control bits z without its hashes: r0 = z0 ⊕ i·z2 ⊕ (i⊕j)·z4 at
// bit 0, r1 = z1 ⊕ j·z3 ⊕ (i⊕j)·z4 at bit 1.
var th3EvalZ = func() (zt [128]byte) {
	for e := range zt {
		k, z := e>>5, e&31
		i, j := k>>1, k&1
		ij := i ^ j
		r0 := z ^ i&(z>>2) ^ ij&(z>>4)
		r1 := z>>1 ^ j&(z>>3) ^ ij&(z>>4)
		zt[e] = byte(r0&1 | (r1&1)<<1)
	}
	return zt
}()

// useAVX2 selects the fused three-halves garbling routines, which need
// AVX2, where the processor has it (tests turn it off to check the
// per-gate AES-NI hash of garbleGates3 gives the same tables).
var useAVX2 = haveAVX2

// useTH3Fused reports whether three-halves runs the fused routines:
// where the half-gates ones run (useFused) and, for garbling, with AVX2.
func useTH3Fused(garbling bool) bool {
	return useFused() && (useAVX2 || !garbling)
}

// useTH3Run reports whether the fused three-halves routines take whole
// runs of a group's AND gates (th3GarbleRun4VAES, th3EvaluateRun4VAES):
// with VAES, and BMI2 for their shifts (MPC-D63).
func useTH3Run() bool { return useVAES && haveBMI2 }

// garbleScheduled3 garbles the gates of schedule s with three-halves and
// the fused routines, four AND gates at a time with VAES, two with
// AES-NI: what garbleGates3 does gate by gate.
func garbleScheduled3(s *schedule, w []blk, delta blk, instance uint64, coins []byte, tables []byte, nAND int) {
	rk := &roundKeys
	var dt [16]th3DeltaRow
	th3DeltaRows(delta, &dt)
	ctl := tables[nAND*ThreeHalvesTableSize:]
	width := 2
	if useVAES {
		width = 4
	}
	useRun := useTH3Run()
	var held [4]th3Arg
	for k := 0; k+1 < len(s.start); k++ {
		group := s.steps[s.start[k]:s.start[k+1]]
		if k%2 == 0 {
			garbleLinear(group, w, delta)
			continue
		}
		if run := len(group) &^ 3; useRun && run > 0 {
			r := th3Run{w: &w[0], steps: &group[0], n: uint64(run), tables: &tables[0], coins: &coins[0], ctl: &ctl[0]}
			th3GarbleRun4VAES(rk, &th3Lin, &dt, &delta, &r, instance)
			group = group[run:]
		}
		for len(group) > 0 {
			n := min(width, len(group))
			for i, st := range group[:n] {
				j := uint64(st.j)
				h := &held[i] // field by field: a composite literal is built aside and copied
				h.a, h.b, h.out = &w[st.a], &w[st.b], &w[st.out]
				h.t = (*[ThreeHalvesTableSize]byte)(tables[j*ThreeHalvesTableSize:])
				h.j, h.ctl = j, uint64(coins[2*j/8]>>(2*j%8)&0b11)
			}
			if useVAES && n > 2 {
				for i := n; i < len(held); i++ {
					held[i] = held[0]
				}
				th3Garble4VAES(rk, &th3Lin, &dt, &delta, &held, instance)
			} else {
				if n == 1 {
					held[1] = held[0]
				}
				th3Garble2AESNI(rk, &th3Lin, &dt, &delta, (*[2]th3Arg)(held[:2]), instance)
			}
			for i := range n {
				// setControlBits, its slice of control bits taken once,
				// without a branch on whether z crosses a byte (but
				// at the last byte).
				p := threeHalvesControlBits * held[i].j
				z := uint16(held[i].ctl) << (p % 8)
				if q := p / 8; q+1 < uint64(len(ctl)) {
					ctl[q] |= byte(z)
					ctl[q+1] |= byte(z >> 8)
				} else {
					ctl[q] |= byte(z)
				}
			}
			group = group[n:]
		}
	}
}

// evaluateScheduled3 evaluates the gates of schedule s with three-halves
// and the fused routines, four AND gates at a time (VAES where the
// processor has it), a group's last one or two gates with AES-NI: what
// evaluateGates3 does gate by gate.
func evaluateScheduled3(s *schedule, w []blk, instance uint64, tables []byte, nAND int) {
	rk := &roundKeys
	useRun := useTH3Run()
	var held [4]th3Arg
	for k := 0; k+1 < len(s.start); k++ {
		group := s.steps[s.start[k]:s.start[k+1]]
		if k%2 == 0 {
			evaluateLinear(group, w)
			continue
		}
		if run := len(group) &^ 3; useRun && run > 0 {
			r := th3Run{w: &w[0], steps: &group[0], n: uint64(run), tables: &tables[0], ctl: &tables[nAND*ThreeHalvesTableSize]}
			th3EvaluateRun4VAES(rk, &th3EvalRows, &th3EvalZ, &r, instance)
			group = group[run:]
		}
		for len(group) > 0 {
			n := min(len(held), len(group))
			for i, st := range group[:n] {
				j := uint64(st.j)
				h := &held[i]
				h.a, h.b, h.out = &w[st.a], &w[st.b], &w[st.out]
				h.t = (*[ThreeHalvesTableSize]byte)(tables[j*ThreeHalvesTableSize:])
				h.j, h.ctl = j, uint64(controlBits(tables, nAND, int(j)))
			}
			if n > 2 {
				for i := n; i < len(held); i++ {
					held[i] = held[0]
				}
				if useVAES {
					th3Evaluate4VAES(rk, &th3EvalRows, &th3EvalZ, &held, instance)
				} else {
					th3Evaluate4AESNI(rk, &th3EvalRows, &th3EvalZ, &held, instance)
				}
			} else {
				if n == 1 {
					held[1] = held[0]
				}
				th3Evaluate2AESNI(rk, &th3EvalRows, &th3EvalZ, (*[2]th3Arg)(held[:2]), instance)
			}
			group = group[n:]
		}
	}
}
