package referee

// The wire forms of a checked try's commitment, choice, corrections and labels (T-8(b)).

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// marshalCommitment writes the commitments of a checked try: version 1
// with the three digests of every garbling, or, with keyHashes (a game of
// the correlated input OTs, MPC-D28), version 2 with H(K_i) after them.
//
// With macHashes too (the authenticated state, MPC-D29), version 3 with
// the digest of garbling i's MAC sub-batch after H(K_i): it binds the
// garbler to the sub-batch, so that a certificate needs that one and not
// the whole reverse request.
//
// With corrHashes (the same games) the digest of garbling i's OT
// corrections follows: a certificate against the evaluator then carries
// the corrections of ĵ, not the whole reply part.
func marshalCommitment(try uint64, mover circuit.Party, copies []*copyGarbling, keyHashes, macHashes, corrHashes []Digest) []byte {
	b := make([]byte, commitHeader, commitHeader+len(copies)*(commitEntryCOT+2*sha256.Size))
	b[0], b[1], b[2] = pvcMagic, pvcVersion, kindCommitment
	if keyHashes != nil {
		b[1] = pvcVersionCOT
	}
	if macHashes != nil {
		b[1] = pvcVersionAuth
	}
	binary.BigEndian.PutUint64(b[3:], try)
	b[11], b[12] = byte(mover), byte(len(copies))
	for i, c := range copies {
		for _, d := range c.commit {
			b = append(b, d[:]...)
		}
		if keyHashes != nil {
			b = append(b, keyHashes[i][:]...)
		}
		if macHashes != nil {
			b = append(b, macHashes[i][:]...)
		}
		if corrHashes != nil {
			b = append(b, corrHashes[i][:]...)
		}
	}
	return b
}

// parseCommitment parses the commitments of a Commitment message of a
// game of cfg.
func parseCommitment(cfg Config, b []byte) (*commitment, error) {
	lam := cfg.lambda()
	version, entry := byte(pvcVersion), commitEntry
	if cfg.correlated() {
		version, entry = pvcVersionCOT, commitEntryCOT
	}
	tail := 0
	if cfg.authenticated() {
		// The seed transfer's ciphertexts after the entries (MPC-D30).
		version, entry, tail = pvcVersionAuth, commitEntryCOT+2*sha256.Size, cfg.seedCipherSize()
	}
	if len(b) != commitHeader+lam*entry+tail || b[0] != pvcMagic || b[1] != version || b[2] != kindCommitment {
		return nil, fmt.Errorf("%w: bad commitment header or size", ErrMessage)
	}
	c := &commitment{try: binary.BigEndian.Uint64(b[3:]), mover: circuit.Party(b[11])}
	if c.mover != circuit.Garbler && c.mover != circuit.Evaluator {
		return nil, fmt.Errorf("%w: commitment for mover %d", ErrMessage, b[11])
	}
	if int(b[12]) != lam {
		return nil, fmt.Errorf("%w: commitment to %d garblings, the game has λ = %d", ErrMessage, b[12], lam)
	}
	off := commitHeader
	for range lam {
		var e [3]Digest
		for k := range e {
			copy(e[k][:], b[off:])
			off += sha256.Size
		}
		c.entries = append(c.entries, e)
		if cfg.correlated() {
			var h Digest
			copy(h[:], b[off:])
			off += sha256.Size
			c.keyHashes = append(c.keyHashes, h)
		}
		if cfg.authenticated() {
			var h Digest
			copy(h[:], b[off:])
			off += sha256.Size
			c.macHashes = append(c.macHashes, h)
			copy(h[:], b[off:])
			off += sha256.Size
			c.corrHashes = append(c.corrHashes, h)
		}
	}
	if tail > 0 {
		c.seedCT = b[off:]
	}
	return c, nil
}

// choiceProof is the hash of the λ − 1 seeds the evaluator learned,
// which shows the garbler which garbling it keeps.
func choiceProof(cfg Config, try uint64, j int, seeds []prg.Seed) Digest {
	h := sha256.New()
	h.Write([]byte(tagPVCProof))
	writeGameTry(h, cfg, try, j)
	for i, s := range seeds {
		if i != j {
			h.Write(s[:])
		}
	}
	return Digest(h.Sum(nil))
}

func marshalChoice(try uint64, j int, proof Digest) []byte {
	b := make([]byte, 0, choiceSize)
	b = append(b, pvcMagic, pvcVersion, kindChoice)
	b = binary.BigEndian.AppendUint64(b, try)
	b = append(b, byte(j))
	return append(b, proof[:]...)
}

func parseChoice(cfg Config, try uint64, b []byte) (int, Digest, error) {
	var proof Digest
	if len(b) != choiceSize || b[0] != pvcMagic || b[1] != pvcVersion || b[2] != kindChoice {
		return 0, proof, fmt.Errorf("%w: bad choice message", ErrMessage)
	}
	if got := binary.BigEndian.Uint64(b[3:]); got != try {
		return 0, proof, fmt.Errorf("%w: choice of try %d, expected %d", ErrMessage, got, try)
	}
	j := int(b[11])
	if j >= cfg.lambda() {
		return 0, proof, fmt.Errorf("%w: choice of garbling %d of %d", ErrMessage, j, cfg.lambda())
	}
	copy(proof[:], b[12:])
	return j, proof, nil
}

func marshalCorrections(try uint64, j int) []byte {
	b := make([]byte, 0, correctionsHeader)
	b = append(b, pvcMagic, pvcVersion, kindCorrections)
	b = binary.BigEndian.AppendUint64(b, try)
	return append(b, byte(j))
}

func parseCorrections(b []byte) (*corrections, error) {
	if len(b) != correctionsHeader || b[0] != pvcMagic || b[1] != pvcVersion || b[2] != kindCorrections {
		return nil, fmt.Errorf("%w: reply of a checked garbling of %d bytes", ErrMessage, len(b))
	}
	return &corrections{try: binary.BigEndian.Uint64(b[3:]), j: int(b[11])}, nil
}

// checkedLabels is the Labels part of a checked try's Garbling: the
// garbler's input labels of garbling ĵ, then for every one the hash of
// the label of the other value.
func marshalCheckedLabels(own []gc.Label, other []Digest) []byte {
	b := gc.MarshalLabels(own)
	for _, d := range other {
		b = append(b, d[:]...)
	}
	return b
}

func parseCheckedLabels(b []byte, n int) ([]gc.Label, []Digest, error) {
	split := len(b) - n*sha256.Size
	if split < 0 {
		return nil, nil, fmt.Errorf("%w: %d bytes of labels", ErrMessage, len(b))
	}
	own, err := gc.ParseLabels(b[:split], n)
	if err != nil {
		return nil, nil, err
	}
	other := make([]Digest, n)
	for w := range other {
		copy(other[w][:], b[split+w*sha256.Size:])
	}
	return own, other, nil
}

// openedLabelsDigest rebuilds the label commitment of garbling j from the
// labels the garbler sent and the hashes of the others.
func openedLabelsDigest(cfg Config, try uint64, j int, own []gc.Label, other []Digest, flips []int, d []bool) Digest {
	pairs := make([][2]Digest, len(own))
	prefix := labelPrefix(cfg, try, j)
	place := make(map[int]int, len(flips))
	for k, w := range flips {
		// A flip wire's label is the one of its public value (MPC-D52).
		place[w] = b2int(d[k])
	}
	var h labelHasher
	h.init(&prefix)
	for w, l := range own {
		c, ok := place[w]
		if !ok {
			c = b2int(l.LSB())
		}
		h.add(w, l, &pairs[w][c])
		pairs[w][1-c] = other[w]
	}
	h.flush()
	return labelsDigest(cfg, try, j, pairs)
}
