package referee

// The correlated input OTs of a checked try (MPC-D28): per garbling i a
// correlated OT whose secret is Δ_i, built from the keys of a reverse
// extension whose choices are the bits of the Δ_i, so that everything
// the garbler sends about the evaluator's inputs in garbling i is a
// function of seed_i, its reverse keys K_i (committed) and the
// evaluator's signed request, which the evaluator recomputes in every
// opened garbling and a judge from a certificate.
//
// Per game, before, with or after the base OTs of the forward extension
// (each message depends on its sender's seed and the message it answers
// alone; a session sends ReverseStart with the garbler's seed
// commitment and ReverseRespond with the evaluator's BaseStart):
//
//	G → E  ReverseStart     the base OTs of the reverse extension (G its
//	                        receiver, E its sender), Chou–Orlandi
//	E → G  ReverseRespond   E's answer; G: ReverseFinish
//
// Per try τ, before the evaluator's request (G may send it as soon as
// it has garbled try τ − 1, ReverseRequestAhead: it depends on its seed
// and τ alone):
//
//	G → E  ReverseRequest   λ random-OT requests of 128 OTs of the
//	                        reverse extension (batches τ·λ + i), the
//	                        choices of sub-batch i the bits of Δ_i and
//	                        its KOS pad bits drawn from seed_i; E:
//	                        TakeReverse (KOS check of each, the key
//	                        pairs)
//
// then the five messages of MPC-D14 with the request made of λ
// per-garbling requests and the GGM seed transfer's batch of the
// forward extension, and the commitment's reply made of the
// corrections d_{i,w} = A_{i,w} ⊕ q_{i,w} of every garbling and the
// seed transfer's reply.
//
// This file holds the wire forms of those messages and their helpers;
// pvc_cot_reverse.go the reverse extension (its setup and the per-try
// reverse requests), pvc_cot_corrections.go the correlated OTs of a try
// (the request, the corrections and their checks),
// pvc_cot_certificates.go the certificates.

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"runtime"

	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/internal/parallel"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Wire forms of MPC-D28: 'P' 2 kind try:u64 and the body.
const (
	pvcVersionCOT  = 2
	kindReverse    = 'V'
	kindCOTRequest = 'Q'
	kindCOTReply   = 'D'
	cotHeader      = 3 + 8 // magic, version, kind, try
	commitEntryCOT = 4 * sha256.Size
	tagCOTKeys     = "kakure/phantom/pvc/reverse-keys\x00"
)

// cotSessionOf binds the extension of garbling i of try.
func cotSessionOf(cfg Config, try uint64, i int) []byte {
	b := []byte(cotSession)
	b = binary.BigEndian.AppendUint64(b, uint64(len(cfg.Game)))
	b = append(b, cfg.Game...)
	b = binary.BigEndian.AppendUint64(b, try)
	return binary.BigEndian.AppendUint64(b, uint64(i))
}

// keysHash is the garbler's commitment to its reverse keys K_i of
// garbling i of try: SHA-256(tag ‖ game ‖ try ‖ i ‖ the 128 keys).
func keysHash(cfg Config, try uint64, i int, keys []ot.Key) Digest {
	h := sha256.New()
	h.Write([]byte(tagCOTKeys))
	writeGameTry(h, cfg, try, i)
	for _, k := range keys {
		h.Write(k[:])
	}
	return Digest(h.Sum(nil))
}

// deltaBits returns the bits of Δ as the reverse extension's choices,
// bit k of Δ being bit k%8 of byte k/8 (as ot's sender reads its secret).
func deltaBits(d gc.Label) []bool {
	out := make([]bool, ot.Kappa)
	for k := range out {
		out[k] = d[k/8]>>(k%8)&1 == 1
	}
	return out
}

func cotMsgHeader(kind byte, try uint64) []byte {
	b := []byte{pvcMagic, pvcVersionCOT, kind}
	return binary.BigEndian.AppendUint64(b, try)
}

func parseCOTHeader(b []byte, kind byte, size int, try uint64, what string) error {
	if len(b) != size || b[0] != pvcMagic || b[1] != pvcVersionCOT || b[2] != kind {
		return fmt.Errorf("%w: %s of %d bytes, want %d", ErrMessage, what, len(b), size)
	}
	if got := binary.BigEndian.Uint64(b[3:]); got != try {
		return fmt.Errorf("%w: %s of try %d, expected %d", ErrMessage, what, got, try)
	}
	return nil
}

// reverseSize is the size of a reverse request of a game of cfg: λ
// sub-batches of 128 OTs, then, with the authenticated state (MPC-D29),
// λ MAC sub-batches of 2n OTs.
func (c Config) reverseSize() int {
	n := cotHeader + c.lambda()*ot.RequestSize(ot.Kappa)
	if c.authenticated() {
		n += c.lambda() * ot.RequestSizeKappa(c.macKappa(), 2*c.stateBits())
	}
	return n
}

// splitReverse returns the λ sub-batches of a reverse request of try,
// checking its size and kind and, when first is not nil, that sub-batch
// i is a request of 128 OTs of batch *first + i (so that the reverse
// extension's machine takes all of them or none).
func splitReverse(cfg Config, try uint64, msg []byte, first *uint32) ([][]byte, error) {
	if err := parseCOTHeader(msg, kindReverse, cfg.reverseSize(), try, "reverse OT request"); err != nil {
		return nil, err
	}
	n := ot.RequestSize(ot.Kappa)
	subs := make([][]byte, cfg.lambda())
	for i := range subs {
		subs[i] = msg[cotHeader+i*n : cotHeader+(i+1)*n]
		if first == nil {
			continue
		}
		b, m, err := ot.RequestHeader(subs[i])
		if err != nil {
			return nil, fmt.Errorf("%w: reverse OT request of try %d, garbling %d: %v", ErrMessage, try, i, err)
		}
		if b != *first+uint32(i) || m != ot.Kappa {
			return nil, fmt.Errorf("%w: reverse OT request of try %d, garbling %d: batch %d of %d OTs, want batch %d of %d", ErrMessage, try, i, b, m, *first+uint32(i), ot.Kappa)
		}
	}
	return subs, nil
}

// reverseBits returns the choices of sub-batch i of an honest reverse
// request, pad bits included: the bits of Δ_i, then KOSPad bits from
// seed_i.
func reverseBits(seed prg.Seed, delta gc.Label) []bool {
	return append(deltaBits(delta), reversePad(seed)...)
}

// reversePad returns the pad bits of the consistency check of the
// reverse sub-batch of the garbling made from seed.
func reversePad(seed prg.Seed) []bool { return seed.Stream(labelReversePad).Bools(ot.KOSPad) }

// cotRequestSize is the size of the evaluator's request of a try with m
// evaluator inputs.
func (c Config) cotRequestSize(m int) int {
	n := cotHeader + c.lambda()*ot.RequestSize(c.garblingOTs(m))
	if !c.authenticated() {
		// The seed transfer's batch (MPC-D30 has OTs of its own).
		n += ot.RequestSize(c.seedOTs())
	}
	return n
}

// cotReplySize is the size of the commitment's reply part.
func (c Config) cotReplySize(m int) int {
	n := cotHeader + c.lambda()*c.garblingOTs(m)*16
	if !c.authenticated() {
		n += ot.ReplySize(c.seedOTs())
	}
	return n
}

// splitCOTRequest returns the λ per-garbling requests and the seed
// transfer's request of an evaluator's request of try.
func splitCOTRequest(cfg Config, try uint64, m int, b []byte) ([][]byte, []byte, error) {
	if err := parseCOTHeader(b, kindCOTRequest, cfg.cotRequestSize(m), try, "OT request"); err != nil {
		return nil, nil, err
	}
	n := ot.RequestSize(cfg.garblingOTs(m))
	reqs := make([][]byte, cfg.lambda())
	off := cotHeader
	for i := range reqs {
		reqs[i] = b[off : off+n]
		off += n
	}
	return reqs, b[off:], nil
}

// splitCOTReply returns the corrections of every garbling and the seed
// transfer's reply of a commitment's reply part of try.
func splitCOTReply(cfg Config, try uint64, m int, b []byte) ([][]ot.Block, []byte, error) {
	if err := parseCOTHeader(b, kindCOTReply, cfg.cotReplySize(m), try, "OT corrections"); err != nil {
		return nil, nil, err
	}
	d := make([][]ot.Block, cfg.lambda())
	off := cotHeader
	for i := range d {
		d[i] = make([]ot.Block, cfg.garblingOTs(m))
		for w := range d[i] {
			copy(d[i][w][:], b[off:])
			off += 16
		}
	}
	return d, b[off:], nil
}

// forEachGarbling runs f for i < n on up to GOMAXPROCS goroutines and
// returns the error of the lowest i that failed (the same whatever the
// order).
func forEachGarbling(n int, f func(i int) error) error {
	for _, err := range parallel.Each(n, runtime.GOMAXPROCS(0), f) {
		if err != nil {
			return err
		}
	}
	return nil
}
