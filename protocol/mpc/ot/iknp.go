package ot

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

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
	keys    []cipher.Block
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
	s.keys = make([]cipher.Block, s.kappa)
	for i, k := range keys {
		s.keys[i] = columnCipher(k)
	}
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
		readColumn(s.keys[i], batch, qi[:nb])
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

// ErrChoices reports a request whose check value x is not the one the
// choice bits it is judged against give ([VerifyChoices]).
var ErrChoices = errors.New("ot: the request's check value is not the one of those choices")

// RequestHeader returns the batch number and the count m of a request,
// checking its kind and its size (RequestSizeKappa(κ, m), κ the one its
// kind names); it does not run the consistency check.
func RequestHeader(request []byte) (uint32, int, error) {
	kappa := RequestColumns(request)
	if kappa == 0 {
		return 0, 0, fmt.Errorf("%w: a request of %d bytes", ErrMessage, len(request))
	}
	batch := binary.BigEndian.Uint32(request[3:])
	m, _, _, err := parseRequest(request, batch, kappa)
	return batch, m, err
}

// RequestColumns returns the number of columns κ of a request as its
// kind names it, Kappa or KappaMAC, or 0 when it is not a request.
func RequestColumns(request []byte) int {
	if len(request) < batchHeader || request[0] != msgMagic || request[1] != msgVersion {
		return 0
	}
	switch request[2] {
	case kindRequest:
		return Kappa
	case kindRequestMAC:
		return KappaMAC
	}
	return 0
}

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

// columnCipher returns the AES-256 cipher of G for base OT key k.
func columnCipher(k Key) cipher.Block {
	c, err := aes.NewCipher(k[:])
	if err != nil {
		panic("ot: " + err.Error()) // 32-byte keys are always valid
	}
	return c
}

// readColumn fills dst with the first len(dst) bytes of G(k, batch), c
// the cipher of k.
func readColumn(c cipher.Block, batch uint32, dst []byte) {
	if len(dst) > shortColumn {
		readColumnCTR(c, batch, dst)
		return
	}
	// A short column (the m + 192 rows of a garbling's correlated OTs,
	// MPC-D28: 126 bytes on 9×9) block by block: the same bytes as the
	// CTR stream, counter blocks batch ‖ k, without the CTR's copy of the
	// key schedule on the heap, which cost more than the column (issue
	// 38).
	full := len(dst) / aes.BlockSize * aes.BlockSize
	for k := 0; k < full; k += aes.BlockSize {
		// The counter block in place, encrypted in place.
		b := dst[k : k+aes.BlockSize]
		binary.BigEndian.PutUint64(b[:8], uint64(batch))
		binary.BigEndian.PutUint64(b[8:], uint64(k/aes.BlockSize))
		c.Encrypt(b, b)
	}
	if full < len(dst) {
		ks := make([]byte, aes.BlockSize)
		binary.BigEndian.PutUint64(ks[:8], uint64(batch))
		binary.BigEndian.PutUint64(ks[8:], uint64(full/aes.BlockSize))
		c.Encrypt(ks, ks)
		copy(dst[full:], ks)
	}
}

// shortColumn is the longest column readColumn makes block by block:
// about where a CTR stream's setup (450 ns here) costs as much as the
// blocks one at a time (27 ns each).
const shortColumn = 256

// readColumnCTR is readColumn with the CTR stream of crypto/cipher.
func readColumnCTR(c cipher.Block, batch uint32, dst []byte) {
	var iv [aes.BlockSize]byte
	binary.BigEndian.PutUint64(iv[:8], uint64(batch))
	clear(dst)
	cipher.NewCTR(c, iv[:]).XORKeyStream(dst, dst)
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

// Receiver is the receiver of the OT extension (the evaluator): it holds
// the choice bits. It is not safe for concurrent use.
type Receiver struct {
	seed    prg.Seed
	session []byte
	kappa   int // the number of columns, Kappa or KappaMAC
	base    *BaseSender
	keys    [][2]cipher.Block
	batch   uint32
	hash    *aeshash.Hasher
	// pending is the batch requested and not yet received.
	pending *pendingBatch
}

type pendingBatch struct {
	choices []bool
	rows    []Block // t_j
}

// NewReceiver returns the extension receiver for the session, with every
// random choice derived from seed.
func NewReceiver(seed prg.Seed, session []byte) *Receiver {
	return &Receiver{seed: seed, session: append([]byte(nil), session...), kappa: Kappa, hash: aeshash.NewHasher()}
}

// NewMACReceiver returns the receiver of an extension of KappaMAC
// columns ([NewMACSender]): its rows t_j = q_j ⊕ c_j·s are the MACs of
// its choices c_j under the sender's 64-bit key s ([Receiver.Correlated]).
func NewMACReceiver(seed prg.Seed, session []byte) *Receiver {
	r := NewReceiver(seed, session)
	r.kappa = KappaMAC
	return r
}

// BaseStart starts the base OTs, which the receiver runs as their sender,
// and returns the first message.
func (r *Receiver) BaseStart() ([]byte, error) {
	if r.base != nil {
		return nil, fmt.Errorf("%w: base OTs already started", ErrState)
	}
	base, err := NewBaseSender(r.seed.Stream(labelBaseScalars), r.session, r.kappa)
	if err != nil {
		return nil, err
	}
	msg, err := base.Start()
	if err != nil {
		return nil, err
	}
	r.base = base
	return msg, nil
}

// BaseFinish takes the sender's base OT message; the receiver is then
// ready for requests.
func (r *Receiver) BaseFinish(msg []byte) error {
	if r.base == nil || r.keys != nil {
		return fmt.Errorf("%w: base OTs not started or already finished", ErrState)
	}
	keys, err := r.base.Finish(msg)
	if err != nil {
		return err
	}
	r.keys = make([][2]cipher.Block, r.kappa)
	for i, k := range keys {
		r.keys[i] = [2]cipher.Block{columnCipher(k[0]), columnCipher(k[1])}
	}
	return nil
}

// Request returns the request of a batch of OTs with the given choice bits.
func (r *Receiver) Request(choices []bool) ([]byte, error) {
	return r.request(choices, nil, nil)
}

// RequestPadded is Request with the KOSPad pad bits of the consistency
// check given by the caller instead of drawn from the receiver's seed:
// a receiver that must later prove its choices — pad included — opens
// the seed they come from, and anyone then recomputes the request's
// check value x ([CheckValue], [VerifyChoices]). The pad bits must be
// random and secret until then: x with known pad bits tells the choices.
func (r *Receiver) RequestPadded(choices, pad []bool) ([]byte, error) {
	if len(pad) != KOSPad {
		return nil, fmt.Errorf("%w: %d pad bits, want %d", ErrInput, len(pad), KOSPad)
	}
	return r.request(choices, pad, nil)
}

// request makes the request; pad, when not nil, is the pad bits; cheat,
// when set (tests of the package), may change the columns before the
// check values are computed, and returns the error term to add to t
// (the cheater's guess).
func (r *Receiver) request(choices, pad []bool, cheat func(cols []byte, nb int) func(chi []Block) Block) ([]byte, error) {
	if r.keys == nil {
		return nil, fmt.Errorf("%w: base OTs not done", ErrState)
	}
	if r.pending != nil {
		return nil, fmt.Errorf("%w: batch %d requested and not received", ErrState, r.batch)
	}
	msg, rows, err := r.requestOf(r.batch, choices, pad, cheat)
	if err != nil {
		return nil, err
	}
	r.pending = &pendingBatch{choices: append([]bool(nil), choices...), rows: rows}
	return msg, nil
}

// requestOf makes the request of batch with the choices (pad and cheat
// as request takes them) and returns it with the receiver's rows t_j of
// its m OTs. It reads the receiver's keys and seed and changes nothing,
// so that requests of several batches can be made at once.
func (r *Receiver) requestOf(batch uint32, choices, pad []bool, cheat func(cols []byte, nb int) func(chi []Block) Block) ([]byte, []Block, error) {
	m := len(choices)
	if m == 0 || m > MaxBatch {
		return nil, nil, fmt.Errorf("%w: batch of %d OTs", ErrInput, m)
	}
	n := m + KOSPad
	nb := columnBytes(m)
	if pad == nil {
		pad = r.seed.Stream(labelPad, uint64(batch)).Bools(KOSPad)
	}
	all := append(append(make([]bool, 0, n), choices...), pad...)
	packed := make([]byte, nb)
	for j, c := range all {
		if c {
			packed[j/8] |= 1 << (j % 8)
		}
	}
	t := newColumns(r.kappa, n)
	msg := make([]byte, 0, RequestSizeKappa(r.kappa, m))
	msg = append(msg, batchMsgHeader(requestKind(r.kappa), batch, m)...)
	u := make([]byte, nb)
	for i := range r.kappa {
		ti := t.column(i)
		readColumn(r.keys[i][0], batch, ti[:nb])
		readColumn(r.keys[i][1], batch, u)
		for k := range nb {
			u[k] ^= ti[k] ^ packed[k]
		}
		msg = append(msg, u...)
	}
	var guess func(chi []Block) Block
	if cheat != nil {
		guess = cheat(msg[batchHeader:], nb)
	}
	rows := t.rows(n)
	chi := challenge(r.session, msg, n)
	x := choiceSum(chi, all)
	var acc wide
	acc.mulAdds(chi, rows)
	tc := acc.reduce()
	if guess != nil {
		tc = tc.Xor(guess(chi))
	} else {
		putChallenge(chi)
	}
	msg = append(msg, x[:]...)
	msg = append(msg, tc[:]...)
	return msg, rows[:m], nil
}

// Skip moves the receiver over the next batch without a request, as if
// it had requested and received one (see Sender.Skip).
func (r *Receiver) Skip() error {
	if r.keys == nil || r.pending != nil {
		return fmt.Errorf("%w: base OTs not done or a batch pending", ErrState)
	}
	r.batch++
	return nil
}

// Forget drops the pending request as if its reply had been received:
// for a receiver rebuilt after a restart that kept the messages it had
// received (the referee's checked tries, MPC-D20), not the reply.
func (r *Receiver) Forget() error {
	if r.pending == nil {
		return fmt.Errorf("%w: no request pending", ErrState)
	}
	r.pending = nil
	r.batch++
	return nil
}

// Receive takes the sender's reply to the pending request and returns the
// chosen message of every OT.
func (r *Receiver) Receive(reply []byte) ([]Block, error) {
	if r.kappa != Kappa {
		return nil, fmt.Errorf("%w: an extension of %d columns gives correlated OTs only", ErrState, r.kappa)
	}
	p := r.pending
	if p == nil {
		return nil, fmt.Errorf("%w: no request pending", ErrState)
	}
	m := len(p.choices)
	if err := checkReply(reply, r.batch, m); err != nil {
		return nil, err
	}
	body := reply[batchHeader:]
	out := make([]Block, m)
	for j, c := range p.choices {
		h := r.hash.Hash(p.rows[j], otTweak(r.batch, j))
		off := 32 * j
		if c {
			off += 16
		}
		out[j] = h.Xor(Block(body[off : off+16]))
	}
	r.pending = nil
	r.batch++
	return out, nil
}

// batchHeader is magic, version, kind, batch number (u32) and count (u32).
const batchHeader = 3 + 4 + 4

func batchMsgHeader(kind byte, batch uint32, m int) []byte {
	h := make([]byte, batchHeader)
	h[0], h[1], h[2] = msgMagic, msgVersion, kind
	binary.BigEndian.PutUint32(h[3:], batch)
	binary.BigEndian.PutUint32(h[7:], uint32(m))
	return h
}

func replyHeader(batch uint32, m int) []byte {
	h := batchMsgHeader(kindReply, batch, m)
	return append(make([]byte, 0, ReplySize(m)), h...)
}

// parseBatchHeader checks the header of a batch message and returns its
// count.
func parseBatchHeader(msg []byte, kind byte, batch uint32) (int, error) {
	if len(msg) < batchHeader || msg[0] != msgMagic || msg[1] != msgVersion || msg[2] != kind {
		return 0, fmt.Errorf("%w: bad OT extension header", ErrMessage)
	}
	if got := binary.BigEndian.Uint32(msg[3:]); got != batch {
		return 0, fmt.Errorf("%w: batch %d, expected %d", ErrMessage, got, batch)
	}
	m := binary.BigEndian.Uint32(msg[7:])
	if m == 0 || m > MaxBatch {
		return 0, fmt.Errorf("%w: batch of %d OTs", ErrMessage, m)
	}
	return int(m), nil
}

// requestKind is the kind of the requests of an extension of kappa
// columns.
func requestKind(kappa int) byte {
	if kappa == KappaMAC {
		return kindRequestMAC
	}
	return kindRequest
}

// parseRequest checks a request of an extension of kappa columns and
// returns its count, its columns (columnBytes(m) bytes each) and its
// check values x ‖ t.
func parseRequest(msg []byte, batch uint32, kappa int) (int, []byte, []byte, error) {
	m, err := parseBatchHeader(msg, requestKind(kappa), batch)
	if err != nil {
		return 0, nil, nil, err
	}
	if len(msg) != RequestSizeKappa(kappa, m) {
		return 0, nil, nil, fmt.Errorf("%w: request of %d bytes for %d OTs", ErrMessage, len(msg), m)
	}
	end := batchHeader + kappa*columnBytes(m)
	return m, msg[batchHeader:end], msg[end:], nil
}

func checkReply(msg []byte, batch uint32, want int) error {
	m, err := parseBatchHeader(msg, kindReply, batch)
	if err != nil {
		return err
	}
	if m != want || len(msg) != ReplySize(m) {
		return fmt.Errorf("%w: reply of %d bytes for %d OTs, expected %d", ErrMessage, len(msg), m, want)
	}
	return nil
}

// bitColumns holds kappa columns (Kappa or KappaMAC) of m bits, each
// padded with zeros to a multiple of 64 bits for the transposition.
type bitColumns struct {
	kappa  int
	stride int // bytes per column
	data   []byte
}

func newColumns(kappa, m int) bitColumns {
	stride := (m + 63) / 64 * 8
	return bitColumns{kappa: kappa, stride: stride, data: make([]byte, kappa*stride)}
}

func (c bitColumns) column(i int) []byte { return c.data[i*c.stride : (i+1)*c.stride] }

// rows transposes the columns into m rows of kappa bits: bit i of row j
// (byte i/8, bit i%8) is bit j of column i; the bits from kappa on are
// zero.
func (c bitColumns) rows(m int) []Block {
	out := make([]Block, m)
	var w [64]uint64
	for og := 0; og*64 < m; og++ {
		for cg := range c.kappa / 64 {
			for ii := range 64 {
				w[ii] = binary.LittleEndian.Uint64(c.data[(64*cg+ii)*c.stride+8*og:])
			}
			transpose64(&w)
			for jj := range 64 {
				j := 64*og + jj
				if j >= m {
					break
				}
				binary.LittleEndian.PutUint64(out[j][8*cg:], w[jj])
			}
		}
	}
	return out
}

// transpose64 transposes a 64×64 bit matrix in place: bit c of word r
// moves to bit r of word c. It swaps the off-diagonal blocks of sizes 32,
// 16, …, 1.
func transpose64(a *[64]uint64) {
	m := uint64(0x00000000ffffffff)
	for j := 32; j != 0; j, m = j>>1, m^(m<<(j>>1)) {
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := (a[k]>>j ^ a[k|j]) & m
			a[k] ^= t << j
			a[k|j] ^= t
		}
	}
}
