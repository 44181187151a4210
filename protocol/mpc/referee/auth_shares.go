package referee

// The authenticated state of MPC-D29: what each party keeps of its
// share between tries, and each party's check of the other's share in
// the try that uses it. auth.go has the overview.

import (
	"bytes"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

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
	// flips is the evaluator's flips message of the try when it came by
	// flips (MPC-D52): they place the flip wires' labels in labels.
	flips []byte
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
