package ot

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/kakure/kakure/protocol/mpc/internal/parallel"
	"github.com/kakure/kakure/protocol/mpc/internal/shortsha"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Random and correlated OTs of the extension, and extensions whose base
// OTs were made by another extension (MPC-D28 in docs/mpc.md).
//
// A random OT batch has no reply: the sender's outputs are two keys per
// OT, k_j^b = SHA-256(tag ‖ H(q_j ⊕ b·s, τ_j)), and the receiver's output
// is the key of its choice, SHA-256(tag ‖ H(t_j, τ_j)). A correlated OT
// batch has no reply either: the sender's outputs are its rows q_j and
// the receiver's its rows t_j = q_j ⊕ c_j·s, the 16-byte strings of a
// free-XOR wire whose zero label is q_j when s is the garbling's Δ.
//
// An extension built from keys ([NewSenderFromKeys], [NewReceiverFromKeys])
// takes its 128 base OTs from elsewhere, typically a random OT batch of
// an extension run the other way: the sender's secret s, its keys and
// the request then determine every output of the sender, so a third
// party given them recomputes the sender's side of a batch exactly
// ([CorrelatedRows]); revealing them opens that extension only.

// randomKeyTag is the domain of the keys of random OTs.
const randomKeyTag = "kakure/mpc/ot/random-key/v1\x00"

// randomKeyBatch is how many keys randomKeys hashes at once.
const randomKeyBatch = 32

// randomKeys computes the keys of random OTs, SHA-256(randomKeyTag ‖ h)
// of the TCCR hash h of each, up to randomKeyBatch at once:
// each message (44 bytes) is one SHA-256 block, which shortsha
// compresses two at a time without crypto/sha256's per-call work
// (MPC-D61): the keys are the same, a batch's cost about a quarter.
type randomKeys struct {
	blocks [randomKeyBatch]shortsha.Block
	keys   [randomKeyBatch]Key
}

// init writes the tag and the padding of every message.
func (k *randomKeys) init() {
	for i := range k.blocks {
		copy(k.blocks[i][:], randomKeyTag)
		k.blocks[i].Pad(len(randomKeyTag) + len(Block{}))
	}
}

// set makes h the hash of message i.
func (k *randomKeys) set(i int, h Block) {
	copy(k.blocks[i][len(randomKeyTag):], h[:])
}

// sum returns the keys of messages 0 … n−1.
func (k *randomKeys) sum(n int) []Key {
	shortsha.Sums(k.keys[:n], k.blocks[:n])
	return k.keys[:n]
}

// NewSenderFromKeys returns the sender of an extension whose base OTs are
// done: secret is s, and keys[i] the key it holds of base OT i, the one of
// its choice bit s_i (bit i%8 of byte i/8 of s). session binds the
// extension's hashes and consistency challenges; it must be unique among
// the extensions of a game. There must be Kappa keys.
func NewSenderFromKeys(session []byte, secret Block, keys []Key) (*Sender, error) {
	if len(keys) != Kappa {
		return nil, fmt.Errorf("%w: %d base keys, want %d", ErrInput, len(keys), Kappa)
	}
	s := NewSender(prg.Seed{}, session)
	s.secret = secret
	s.keys = newColumnsOf(keys)
	return s, nil
}

// NewReceiverFromKeys returns the receiver of an extension whose base OTs
// are done: pairs[i] holds both keys of base OT i. The random rows of its
// consistency check come from seed. There must be Kappa pairs.
func NewReceiverFromKeys(seed prg.Seed, session []byte, pairs [][2]Key) (*Receiver, error) {
	if len(pairs) != Kappa {
		return nil, fmt.Errorf("%w: %d base key pairs, want %d", ErrInput, len(pairs), Kappa)
	}
	r := NewReceiver(seed, session)
	r.keys = make([][2]column, Kappa)
	for i, p := range pairs {
		r.keys[i] = [2]column{{key: p[0]}, {key: p[1]}}
	}
	return r, nil
}

// CorrelatedRows is what the sender of an extension built from keys
// computes of its first batch: the rows q_j of request, after the
// consistency check. A judge that holds the sender's secret and keys
// recomputes with it exactly what an honest sender used (MPC-D28).
func CorrelatedRows(session []byte, secret Block, keys []Key, request []byte) ([]Block, error) {
	s, err := NewSenderFromKeys(session, secret, keys)
	if err != nil {
		return nil, err
	}
	return s.Correlated(request)
}

// Secret returns the sender's secret s: the global key of the
// correlated OTs, of which the receiver's rows are q_j ⊕ c_j·s. A sender
// that reveals it (with the seed of its machine) opens its side of every
// batch, nothing of the receiver's choices (MPC-D29's MAC key).
func (s *Sender) Secret() Block { return s.secret }

// Correlated takes the receiver's request of the next batch, checks it
// (an error wrapping ErrConsistency as in Send, after which the sender
// refuses every call) and returns the sender's rows q_j of its m OTs: the
// receiver's rows are q_j ⊕ c_j·s. Nothing is sent back.
func (s *Sender) Correlated(request []byte) ([]Block, error) {
	_, rows, err := s.check(request)
	if err != nil {
		return nil, err
	}
	s.batch++
	s.checked, s.checkedRows = s.checked[:0], nil
	return rows, nil
}

// SendRandom takes the receiver's request of the next batch, checks it as
// Correlated does and returns the two keys of each of its m random OTs;
// the receiver gets the key of its choice bit from ReceiveRandom. Nothing
// is sent back.
func (s *Sender) SendRandom(request []byte) ([][2]Key, error) {
	if err := s.hashed(); err != nil {
		return nil, err
	}
	b := s.batch
	rows, err := s.Correlated(request)
	if err != nil {
		return nil, err
	}
	out := make([][2]Key, len(rows))
	var k randomKeys
	k.init()
	for start := 0; start < len(rows); start += randomKeyBatch / 2 {
		batch := rows[start:min(start+randomKeyBatch/2, len(rows))]
		for i, q := range batch {
			tweak := otTweak(b, start+i)
			h0, h1 := s.hash.Hash2(q, tweak, q.Xor(s.secret), tweak)
			k.set(2*i, h0)
			k.set(2*i+1, h1)
		}
		keys := k.sum(2 * len(batch))
		for i := range batch {
			out[start+i][0], out[start+i][1] = keys[2*i], keys[2*i+1]
		}
	}
	return out, nil
}

// Correlated completes the pending batch without a reply and returns the
// receiver's rows t_j = q_j ⊕ c_j·s.
func (r *Receiver) Correlated() ([]Block, error) {
	p := r.pending
	if p == nil {
		return nil, fmt.Errorf("%w: no request pending", ErrState)
	}
	r.pending = nil
	r.batch++
	return p.rows, nil
}

// ReceiveRandom completes the pending batch of random OTs without a reply
// and returns, per OT, the sender's key of the receiver's choice bit.
func (r *Receiver) ReceiveRandom() ([]Key, error) {
	if r.kappa != Kappa {
		return nil, fmt.Errorf("%w: an extension of %d columns gives correlated OTs only", ErrState, r.kappa)
	}
	b := r.batch
	rows, err := r.Correlated()
	if err != nil {
		return nil, err
	}
	out := make([]Key, len(rows))
	var k randomKeys
	k.init()
	for start := 0; start < len(rows); start += randomKeyBatch {
		batch := rows[start:min(start+randomKeyBatch, len(rows))]
		for i, t := range batch {
			k.set(i, r.hash.Hash(t, otTweak(b, start+i)))
		}
		copy(out[start:], k.sum(len(batch)))
	}
	return out, nil
}

// CorrelatedBatches is Correlated for the requests of the next
// len(requests) batches, checked at once on up to GOMAXPROCS goroutines
// (batches are independent: G is keyed per batch). It returns the rows
// of each, as that many calls of Correlated in order do; at the first
// request that fails — malformed (ErrMessage), or its check
// (ErrConsistency, after which the sender refuses every call) — it
// returns the rows of the ones before it, which it has taken, and that
// request's error.
func (s *Sender) CorrelatedBatches(requests [][]byte) ([][]Block, error) {
	if s.refused != nil {
		return nil, s.refused
	}
	if s.keys == nil {
		return nil, fmt.Errorf("%w: base OTs not done", ErrState)
	}
	out := make([][]Block, len(requests))
	errs := parallel.Each(len(requests), runtime.GOMAXPROCS(0), func(i int) error {
		b := s.batch + uint32(i)
		m, cols, xt, err := parseRequest(requests[i], b, s.kappa)
		if err != nil {
			return err
		}
		out[i], err = s.rowsOf(b, requests[i], m, cols, xt)
		return err
	})
	s.checked, s.checkedRows = s.checked[:0], nil
	for i, err := range errs {
		if err != nil {
			s.batch += uint32(i)
			if errors.Is(err, ErrConsistency) {
				s.refused = err
			}
			return out[:i], err
		}
	}
	s.batch += uint32(len(requests))
	return out, nil
}

// CorrelatedRequests makes the requests of the next len(choices)
// batches, batch i with the choices choices[i] and the KOSPad pad bits
// pads[i] (as RequestPadded), at once on up to GOMAXPROCS goroutines,
// and completes them as Correlated does: it returns the requests and the
// receiver's rows of each, the same as that many calls of RequestPadded
// and Correlated in order. Arguments of the wrong size (ErrInput) leave
// the receiver as it was.
func (r *Receiver) CorrelatedRequests(choices, pads [][]bool) ([][]byte, [][]Block, error) {
	if r.keys == nil {
		return nil, nil, fmt.Errorf("%w: base OTs not done", ErrState)
	}
	if r.pending != nil {
		return nil, nil, fmt.Errorf("%w: batch %d requested and not received", ErrState, r.batch)
	}
	if len(pads) != len(choices) {
		return nil, nil, fmt.Errorf("%w: %d pads for %d batches", ErrInput, len(pads), len(choices))
	}
	for i := range choices {
		if m := len(choices[i]); m == 0 || m > MaxBatch || len(pads[i]) != KOSPad {
			return nil, nil, fmt.Errorf("%w: batch of %d OTs with %d pad bits", ErrInput, m, len(pads[i]))
		}
	}
	msgs, rows := make([][]byte, len(choices)), make([][]Block, len(choices))
	errs := parallel.Each(len(choices), runtime.GOMAXPROCS(0), func(i int) error {
		var err error
		msgs[i], rows[i], err = r.requestOf(r.batch+uint32(i), choices[i], pads[i], nil)
		return err
	})
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	r.batch += uint32(len(choices))
	return msgs, rows, nil
}
