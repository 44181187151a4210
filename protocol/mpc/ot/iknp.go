package ot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// IKNP with κ = 128 and the consistency check of KOS15, for a batch of m
// OTs extended to m' = m + KOSPad rows, columns of m' bits:
//
//	receiver (choices r, padded with KOSPad random bits):
//	    t_i = G(k_i^0, b), u_i = t_i ⊕ G(k_i^1, b) ⊕ r          → u_0 … u_127
//	sender (secret s):
//	    q_i = G(k_i^{s_i}, b) ⊕ s_i·u_i = t_i ⊕ s_i·r
//
// Read by rows, q_j = t_j ⊕ r_j·s. The check (Keller, Orsini and Scholl,
// "Actively secure OT extension with optimal overhead", Crypto 2015, §3):
// χ_0 … χ_{m'-1} ∈ GF(2^128) are drawn from a hash of the session, the
// batch header and the columns u (Fiat–Shamir, as emp-ot's malicious
// IKNP does), the receiver sends x = Σ r_j·χ_j and t = Σ t_j·χ_j with
// the columns, and the sender refuses the batch unless Σ q_j·χ_j =
// t ⊕ x·s. A receiver whose row j has a choice vector that is not all
// r_j or all ¬r_j (the probing attack: each of its 2^w candidate labels
// tests w bits of s) passes only by guessing those w bits of s, with
// probability 2^-w, and learns nothing when refused; the KOSPad random
// rows keep x from telling anything of the real choices.
//
// The sender replies y_j^0 = H(q_j, τ_j) ⊕ m_j^0 and y_j^1 = H(q_j ⊕ s,
// τ_j) ⊕ m_j^1 for the m real rows, and the receiver recovers
// m_j^{r_j} = y_j^{r_j} ⊕ H(t_j, τ_j). G(k, b) is AES-256 in counter
// mode keyed with the 32-byte base OT key k, from the counter block
// b‖0 (b the batch number as 8 big-endian bytes, a batch reads at most
// 2^17 blocks), so that a batch can be checked, skipped or replayed
// without the ones before it; τ_j is the tweak (otTweakHi, b·2^32 + j),
// unique per OT of the session.
//
// This file has the sender; iknp_receiver.go the receiver,
// iknp_check.go the challenges and check values of the KOS check,
// iknp_columns.go the columns G(k, b) and their transposition into rows,
// iknp_wire.go the batch messages' headers.

// Labels of the streams derived from a party's seed.
const (
	labelBaseScalars = "ot/base/scalars"
	labelSecret      = "ot/iknp/secret"
	labelPad         = "ot/kos/pad" // index: the batch
	chiTag           = "kakure/mpc/ot/kos/chi/v1\x00"
)

// KOSPad is the number of random rows the receiver adds to every batch
// for the consistency check: 128 + 64, so that x, an element of
// GF(2^128), hides the real choices with statistical security 2^-64.
// An extension of KappaMAC columns has the same pad: its check is in
// GF(2^128) too.
const KOSPad = 128 + 64

// checkSize is the size of the receiver's check values x and t.
const checkSize = 2 * aeshash.Size

// otTweakHi is the high half of every OT tweak; garbling uses the
// instance number there, which should stay below it.
const otTweakHi = ^uint64(0)

// otTweak returns the tweak of OT j of batch b.
func otTweak(batch uint32, j int) Block {
	return aeshash.Tweak(otTweakHi, uint64(batch)<<32|uint64(j))
}

// RequestSize returns the size in bytes of the request of a batch of m
// OTs: the header, κ columns of m + KOSPad bits and the check values.
func RequestSize(m int) int { return RequestSizeKappa(Kappa, m) }

// RequestSizeKappa is RequestSize for an extension of kappa columns
// (Kappa or KappaMAC).
func RequestSizeKappa(kappa, m int) int { return batchHeader + kappa*columnBytes(m) + checkSize }

// ReplySize returns the size in bytes of the reply to a batch of m OTs.
func ReplySize(m int) int { return batchHeader + 32*m }

// columnBytes is the number of bytes of a column of a batch of m OTs.
func columnBytes(m int) int { return (m + KOSPad + 7) / 8 }

// Sender is the sender of the OT extension (the garbler): it holds the
// message pairs. It is not safe for concurrent use.
type Sender struct {
	seed    prg.Seed
	session []byte
	kappa   int   // the number of columns, Kappa or KappaMAC
	secret  Block // s: its choice bits in the base OTs
	keys    []column
	batch   uint32
	hash    *aeshash.Hasher
	// refused is the error of a request that failed the consistency
	// check: the sender then refuses every later call.
	refused error
	// checked is the last request of the next batch that passed Check,
	// with its rows, so that Send does not compute them again.
	checked     []byte
	checkedRows []Block
}

// NewSender returns the extension sender for the session (the game ID and
// the direction, so that the two directions of a game never share
// hashes), with every random choice derived from seed.
func NewSender(seed prg.Seed, session []byte) *Sender {
	return &Sender{seed: seed, session: append([]byte(nil), session...), kappa: Kappa, hash: aeshash.NewHasher()}
}

// NewMACSender returns the sender of an extension of KappaMAC columns
// for the session, with every random choice derived from seed: its
// secret s has 64 bits (the high half of the Block is zero), and it
// gives correlated OTs only ([Sender.Correlated]), whose rows are
// information-theoretic MACs of the receiver's choices under the key s
// (MPC-D32 in docs/mpc.md). Hashed OTs (Send, SendRandom) it refuses:
// their keys would rest on a 64-bit secret.
func NewMACSender(seed prg.Seed, session []byte) *Sender {
	s := NewSender(seed, session)
	s.kappa = KappaMAC
	return s
}

// BaseRespond runs the base OTs as their receiver, with the bits of its
// secret s as choices, and returns the message for the receiver.
func (s *Sender) BaseRespond(msg []byte) ([]byte, error) {
	if s.keys != nil {
		return nil, fmt.Errorf("%w: base OTs already done", ErrState)
	}
	secret := s.seed.Stream(labelSecret).Block()
	for k := s.kappa / 8; k < len(secret); k++ {
		secret[k] = 0
	}
	choices := make([]bool, s.kappa)
	for i := range choices {
		choices[i] = secret[i/8]>>(i%8)&1 == 1
	}
	base, err := NewBaseReceiver(s.seed.Stream(labelBaseScalars), s.session, choices)
	if err != nil {
		return nil, err
	}
	reply, keys, err := base.Respond(msg)
	if err != nil {
		return nil, err
	}
	s.secret = secret
	s.keys = newColumnsOf(keys)
	return reply, nil
}

// Batch returns the number of the next batch.
func (s *Sender) Batch() uint32 { return s.batch }

// check parses a request of the next batch and runs the consistency
// check; it returns the count and the m real rows q_j. A request that
// fails the check makes the sender refuse every later call.
func (s *Sender) check(request []byte) (int, []Block, error) {
	if s.refused != nil {
		return 0, nil, s.refused
	}
	if s.keys == nil {
		return 0, nil, fmt.Errorf("%w: base OTs not done", ErrState)
	}
	m, cols, xt, err := parseRequest(request, s.batch, s.kappa)
	if err != nil {
		return 0, nil, err
	}
	if s.checked != nil && bytes.Equal(s.checked, request) {
		return m, s.checkedRows, nil
	}
	rows, err := s.rowsOf(s.batch, request, m, cols, xt)
	if err != nil {
		if errors.Is(err, ErrConsistency) {
			s.refused = err
		}
		return 0, nil, err
	}
	s.checked, s.checkedRows = append(s.checked[:0], request...), rows
	return m, rows, nil
}

// rowsOf computes the rows q_j of a parsed request of batch and checks
// them; the error of a failed check wraps ErrConsistency. It reads the
// sender's keys and secret and changes nothing.
func (s *Sender) rowsOf(batch uint32, request []byte, m int, cols, xt []byte) ([]Block, error) {
	nb := columnBytes(m)
	q := newColumns(s.kappa, m+KOSPad)
	for i := range s.kappa {
		qi := q.column(i)
		s.keys[i].read(batch, qi[:nb])
		if s.secret[i/8]>>(i%8)&1 == 1 {
			for k := range nb {
				qi[k] ^= cols[i*nb+k]
			}
		}
	}
	rows := q.rows(m + KOSPad)
	chi := challenge(s.session, request[:batchHeader+s.kappa*nb], m+KOSPad)
	var acc wide
	acc.mulAdds(chi, rows)
	putChallenge(chi)
	x, t := Block(xt[:16]), Block(xt[16:])
	var xs wide
	xs.mulAdd(x, s.secret)
	if acc.reduce() != t.Xor(xs.reduce()) {
		return nil, fmt.Errorf("%w: batch %d", ErrConsistency, batch)
	}
	return rows[:m], nil
}

// Check runs the consistency check on the request of the next batch
// without answering it: nil if it passes, an error wrapping
// ErrConsistency if the receiver is caught (the sender then refuses
// every later call), ErrMessage if the request is malformed.
func (s *Sender) Check(request []byte) error {
	_, _, err := s.check(request)
	return err
}

// Send takes the receiver's request for a batch and returns the reply that
// transfers pairs[j][c_j] for the receiver's choice c_j; there must be one
// pair per requested OT. A request that fails the consistency check is
// refused with an error wrapping ErrConsistency, and so is every later
// call: the receiver deviated.
func (s *Sender) Send(request []byte, pairs [][2]Block) ([]byte, error) {
	if err := s.hashed(); err != nil {
		return nil, err
	}
	m, rows, err := s.check(request)
	if err != nil {
		return nil, err
	}
	if len(pairs) != m {
		return nil, fmt.Errorf("%w: %d pairs for a request of %d OTs", ErrInput, len(pairs), m)
	}
	reply := replyHeader(s.batch, m)
	var buf [32]byte
	for j := range m {
		tweak := otTweak(s.batch, j)
		h0, h1 := s.hash.Hash2(rows[j], tweak, rows[j].Xor(s.secret), tweak)
		y0, y1 := h0.Xor(pairs[j][0]), h1.Xor(pairs[j][1])
		copy(buf[:16], y0[:])
		copy(buf[16:], y1[:])
		reply = append(reply, buf[:]...)
	}
	s.batch++
	s.checked, s.checkedRows = s.checked[:0], nil
	return reply, nil
}

// hashed refuses the hashed OTs of an extension of KappaMAC columns.
func (s *Sender) hashed() error {
	if s.kappa != Kappa {
		return fmt.Errorf("%w: an extension of %d columns gives correlated OTs only", ErrState, s.kappa)
	}
	return nil
}

// Skip moves the sender over the next batch without a request, as if it
// had answered one: a machine rebuilt from its seed and a record uses it
// for the batches the record holds. Batches are independent, so nothing
// is computed.
func (s *Sender) Skip() error {
	if s.keys == nil {
		return fmt.Errorf("%w: base OTs not done", ErrState)
	}
	s.batch++
	s.checked, s.checkedRows = s.checked[:0], nil
	return nil
}

// SendCorrelated is Send with the pairs (zero[j], zero[j] ⊕ delta): the
// receiver obtains zero[j] ⊕ c_j·delta, the label of its bit c_j on a
// free-XOR wire whose zero label is zero[j].
func (s *Sender) SendCorrelated(request []byte, zero []Block, delta Block) ([]byte, error) {
	pairs := make([][2]Block, len(zero))
	for j, z := range zero {
		pairs[j] = [2]Block{z, z.Xor(delta)}
	}
	return s.Send(request, pairs)
}

// VerifyRefusal judges a sender's claim that a receiver's request failed
// the consistency check, from what a record holds: the session, the
// receiver's base OT message baseStart, the sender's answer baseReply
// and the request, all signed by the party that sent them, and the
// sender's seed, which the sender reveals to prove the claim. It returns
// nil when the claim is proven: the seed gives exactly baseReply, and
// the request fails the check. Otherwise it returns an error saying why
// not; a request that an honest receiver made always passes the check
// whatever the sender's seed, so an honest receiver is never convicted.
// Revealing the seed opens the sender's OT secret s (every earlier OT of
// the session, hence the Δ of every earlier try), not its other secrets.
func VerifyRefusal(session []byte, senderSeed prg.Seed, baseStart, baseReply, request []byte) error {
	s := NewSender(senderSeed, session)
	if RequestColumns(request) == KappaMAC {
		s = NewMACSender(senderSeed, session)
	}
	reply, err := s.BaseRespond(baseStart)
	if err != nil {
		return fmt.Errorf("ot: refusal not proven: the receiver's base OT message: %w", err)
	}
	if !bytes.Equal(reply, baseReply) {
		return errors.New("ot: refusal not proven: the revealed seed does not give the sender's base OT answer")
	}
	if len(request) < batchHeader {
		return fmt.Errorf("ot: refusal not proven: %w: a request of %d bytes", ErrMessage, len(request))
	}
	s.batch = binary.BigEndian.Uint32(request[3:])
	m, cols, xt, err := parseRequest(request, s.batch, s.kappa)
	if err != nil {
		return fmt.Errorf("ot: refusal not proven: %w", err)
	}
	if _, err := s.rowsOf(s.batch, request, m, cols, xt); !errors.Is(err, ErrConsistency) {
		return fmt.Errorf("ot: refusal not proven: batch %d passes the consistency check", s.batch)
	}
	return nil
}
