package ot

// The consistency check of KOS15 (iknp.go has the overview): the
// challenges χ of a batch and the check values x = Σ r_j·χ_j.

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/kakure/kakure/protocol/mpc/prg"
)

// ErrChoices reports a request whose check value x is not the one the
// choice bits it is judged against give ([VerifyChoices]).
var ErrChoices = errors.New("ot: the request's check value is not the one of those choices")

// CheckValue returns the check value x = Σ_j b_j·χ_j that a receiver
// whose choices, pad included, are bits (m + KOSPad of them, the m real
// choices first) sends with request, χ the request's challenges, drawn
// from the session and its columns. A public recomputation: with the
// choices, anyone checks the x a request carries ([VerifyChoices]).
func CheckValue(session, request []byte, bits []bool) (Block, error) {
	_, m, err := RequestHeader(request)
	if err != nil {
		return Block{}, err
	}
	n := m + KOSPad
	if len(bits) != n {
		return Block{}, fmt.Errorf("%w: %d choice bits for a request of %d rows", ErrInput, len(bits), n)
	}
	chi := challenge(session, request[:batchHeader+RequestColumns(request)*columnBytes(m)], n)
	defer putChallenge(chi)
	return choiceSum(chi, bits), nil
}

// choiceSum is the check value x = Σ_j b_j·χ_j of the choice bits bits
// (pad included) under the challenges chi.
func choiceSum(chi []Block, bits []bool) Block {
	var x Block
	for j, c := range bits {
		if c {
			x = x.Xor(chi[j])
		}
	}
	return x
}

// VerifyChoices returns nil when the check value x that request carries
// is the one the choice bits bits give ([CheckValue]), an error wrapping
// ErrChoices when it is not, ErrMessage or ErrInput when the request or
// the bits are malformed. A request that passes its sender's consistency
// check carries the x of the choices its columns hold, except with
// probability 2^-128 (the KOS check: a wrong x passes only for one value
// of the sender's secret); since χ is drawn from the columns, which
// carry those choices, the x of any other choice bits differs from it
// except with probability 2^-128. So a request that passed the check
// and whose x is not that of bits was made with other choices. (In an
// extension of KappaMAC columns a wrong x passes the check for at most
// one value of the 64-bit secret: probability 2^-64.)
func VerifyChoices(session, request []byte, bits []bool) error {
	x, err := CheckValue(session, request, bits)
	if err != nil {
		return err
	}
	at := len(request) - checkSize
	if Block(request[at:at+16]) != x {
		return fmt.Errorf("%w: batch %d", ErrChoices, binary.BigEndian.Uint32(request[3:]))
	}
	return nil
}

// challenge returns the KOS challenges χ_0 … χ_{n-1} of a batch: a prg
// stream keyed with SHA-256 of a tag, the session and the request up to
// its check values (header and columns).
func challenge(session, request []byte, n int) []Block {
	h := sha256.New()
	var l [8]byte
	h.Write([]byte(chiTag))
	binary.BigEndian.PutUint64(l[:], uint64(len(session)))
	h.Write(l[:])
	h.Write(session)
	h.Write(request)
	var seed prg.Seed
	h.Sum(seed[:0])
	st := prg.New(seed)
	var out []Block
	if p, ok := challengePool.Get().(*[]Block); ok && cap(*p) >= n {
		out = (*p)[:n]
	} else {
		out = make([]Block, n)
	}
	// The stream's bytes in order, through a buffer on the stack (issue
	// 38: no second copy of the challenges on the heap).
	var buf [4096]byte
	for j := 0; j < n; {
		k := min(n-j, len(buf)/16)
		st.Read(buf[:16*k])
		for i := range k {
			out[j+i] = Block(buf[16*i : 16*i+16])
		}
		j += k
	}
	return out
}

// challengePool holds the challenges of checked batches (*[]Block), given
// back by putChallenge, so that the 16·(m + 192) bytes of a batch's χ are
// not allocated batch after batch (issue 38). challenge overwrites every
// block it returns.
var challengePool sync.Pool

// putChallenge gives chi, from challenge, back for reuse: the caller
// holds no other reference to it.
func putChallenge(chi []Block) { challengePool.Put(&chi) }
