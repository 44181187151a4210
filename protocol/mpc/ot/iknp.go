package ot

import (
	"encoding/binary"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// IKNP with κ = 128, for a batch of m OTs, columns of m bits:
//
//	receiver (choices r): t_i = G(k_i^0), u_i = t_i ⊕ G(k_i^1) ⊕ r   → u_0 … u_127
//	sender (secret s):    q_i = G(k_i^{s_i}) ⊕ s_i·u_i = t_i ⊕ s_i·r
//
// Read by rows, q_j = t_j ⊕ r_j·s. The sender replies
// y_j^0 = H(q_j, τ_j) ⊕ m_j^0 and y_j^1 = H(q_j ⊕ s, τ_j) ⊕ m_j^1, and the
// receiver recovers m_j^{r_j} = y_j^{r_j} ⊕ H(t_j, τ_j). G(k) is the prg
// stream of seed k, read on from batch to batch; τ_j is the OT's index
// counted from the first batch.

// Labels of the streams derived from a party's seed.
const (
	labelBaseScalars = "ot/base/scalars"
	labelSecret      = "ot/iknp/secret"
	labelColumn      = "ot/iknp/column"
)

// otTweakHi is the high half of every OT tweak; garbling uses the
// instance number there, which should stay below it.
const otTweakHi = ^uint64(0)

// Sender is the sender of the OT extension (the garbler): it holds the
// message pairs. It is not safe for concurrent use.
type Sender struct {
	seed    prg.Seed
	session []byte
	secret  Block // s: its choice bits in the base OTs
	columns []*prg.Stream
	batch   uint32
	index   uint64 // OTs transferred so far
	hash    *aeshash.Hasher
}

// NewSender returns the extension sender for the session (the game ID and
// the direction, so that the two directions of a game never share
// hashes), with every random choice derived from seed.
func NewSender(seed prg.Seed, session []byte) *Sender {
	return &Sender{seed: seed, session: append([]byte(nil), session...), hash: aeshash.NewHasher()}
}

// BaseRespond runs the base OTs as their receiver, with the bits of its
// secret s as choices, and returns the message for the receiver.
func (s *Sender) BaseRespond(msg []byte) ([]byte, error) {
	if s.columns != nil {
		return nil, fmt.Errorf("%w: base OTs already done", ErrState)
	}
	secret := s.seed.Stream(labelSecret).Block()
	choices := make([]bool, Kappa)
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
	s.columns = make([]*prg.Stream, Kappa)
	for i, k := range keys {
		s.columns[i] = prg.Seed(k).Stream(labelColumn)
	}
	return reply, nil
}

// Send takes the receiver's request for a batch and returns the reply that
// transfers pairs[j][c_j] for the receiver's choice c_j; there must be one
// pair per requested OT.
func (s *Sender) Send(request []byte, pairs [][2]Block) ([]byte, error) {
	if s.columns == nil {
		return nil, fmt.Errorf("%w: base OTs not done", ErrState)
	}
	m, cols, err := parseRequest(request, s.batch)
	if err != nil {
		return nil, err
	}
	if len(pairs) != m {
		return nil, fmt.Errorf("%w: %d pairs for a request of %d OTs", ErrInput, len(pairs), m)
	}
	nb := (m + 7) / 8
	q := newColumns(m)
	for i := range Kappa {
		qi := q.column(i)
		s.columns[i].Read(qi[:nb])
		if s.secret[i/8]>>(i%8)&1 == 1 {
			for k := range nb {
				qi[k] ^= cols[i*nb+k]
			}
		}
	}
	rows := q.rows(m)
	reply := replyHeader(s.batch, m)
	var buf [32]byte
	for j := range m {
		tweak := aeshash.Tweak(otTweakHi, s.index+uint64(j))
		h0 := s.hash.Hash(rows[j], tweak)
		h1 := s.hash.Hash(rows[j].Xor(s.secret), tweak)
		y0, y1 := h0.Xor(pairs[j][0]), h1.Xor(pairs[j][1])
		copy(buf[:16], y0[:])
		copy(buf[16:], y1[:])
		reply = append(reply, buf[:]...)
	}
	s.batch++
	s.index += uint64(m)
	return reply, nil
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

// Receiver is the receiver of the OT extension (the evaluator): it holds
// the choice bits. It is not safe for concurrent use.
type Receiver struct {
	seed    prg.Seed
	session []byte
	base    *BaseSender
	columns [][2]*prg.Stream
	batch   uint32
	index   uint64
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
	return &Receiver{seed: seed, session: append([]byte(nil), session...), hash: aeshash.NewHasher()}
}

// BaseStart starts the base OTs, which the receiver runs as their sender,
// and returns the first message.
func (r *Receiver) BaseStart() ([]byte, error) {
	if r.base != nil {
		return nil, fmt.Errorf("%w: base OTs already started", ErrState)
	}
	base, err := NewBaseSender(r.seed.Stream(labelBaseScalars), r.session, Kappa)
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
	if r.base == nil || r.columns != nil {
		return fmt.Errorf("%w: base OTs not started or already finished", ErrState)
	}
	keys, err := r.base.Finish(msg)
	if err != nil {
		return err
	}
	r.columns = make([][2]*prg.Stream, Kappa)
	for i, k := range keys {
		r.columns[i] = [2]*prg.Stream{prg.Seed(k[0]).Stream(labelColumn), prg.Seed(k[1]).Stream(labelColumn)}
	}
	return nil
}

// Request returns the request of a batch of OTs with the given choice bits.
func (r *Receiver) Request(choices []bool) ([]byte, error) {
	if r.columns == nil {
		return nil, fmt.Errorf("%w: base OTs not done", ErrState)
	}
	if r.pending != nil {
		return nil, fmt.Errorf("%w: batch %d requested and not received", ErrState, r.batch)
	}
	m := len(choices)
	if m == 0 || m > MaxBatch {
		return nil, fmt.Errorf("%w: batch of %d OTs", ErrInput, m)
	}
	nb := (m + 7) / 8
	packed := make([]byte, nb)
	for j, c := range choices {
		if c {
			packed[j/8] |= 1 << (j % 8)
		}
	}
	t := newColumns(m)
	msg := requestHeader(r.batch, m)
	u := make([]byte, nb)
	for i := range Kappa {
		ti := t.column(i)
		r.columns[i][0].Read(ti[:nb])
		r.columns[i][1].Read(u)
		for k := range nb {
			u[k] ^= ti[k] ^ packed[k]
		}
		msg = append(msg, u...)
	}
	r.pending = &pendingBatch{choices: append([]bool(nil), choices...), rows: t.rows(m)}
	return msg, nil
}

// Receive takes the sender's reply to the pending request and returns the
// chosen message of every OT.
func (r *Receiver) Receive(reply []byte) ([]Block, error) {
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
		h := r.hash.Hash(p.rows[j], aeshash.Tweak(otTweakHi, r.index+uint64(j)))
		off := 32 * j
		if c {
			off += 16
		}
		out[j] = h.Xor(Block(body[off : off+16]))
	}
	r.pending = nil
	r.batch++
	r.index += uint64(m)
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

func requestHeader(batch uint32, m int) []byte {
	h := batchMsgHeader(kindRequest, batch, m)
	return append(make([]byte, 0, batchHeader+Kappa*((m+7)/8)), h...)
}

func replyHeader(batch uint32, m int) []byte {
	h := batchMsgHeader(kindReply, batch, m)
	return append(make([]byte, 0, batchHeader+32*m), h...)
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

// parseRequest checks a request and returns its count and its columns,
// (m+7)/8 bytes each.
func parseRequest(msg []byte, batch uint32) (int, []byte, error) {
	m, err := parseBatchHeader(msg, kindRequest, batch)
	if err != nil {
		return 0, nil, err
	}
	if len(msg) != batchHeader+Kappa*((m+7)/8) {
		return 0, nil, fmt.Errorf("%w: request of %d bytes for %d OTs", ErrMessage, len(msg), m)
	}
	return m, msg[batchHeader:], nil
}

func checkReply(msg []byte, batch uint32, want int) error {
	m, err := parseBatchHeader(msg, kindReply, batch)
	if err != nil {
		return err
	}
	if m != want || len(msg) != batchHeader+32*m {
		return fmt.Errorf("%w: reply of %d bytes for %d OTs, expected %d", ErrMessage, len(msg), m, want)
	}
	return nil
}

// bitColumns holds Kappa columns of m bits, each padded with zeros to a
// multiple of 64 bits for the transposition.
type bitColumns struct {
	stride int // bytes per column
	data   []byte
}

func newColumns(m int) bitColumns {
	stride := (m + 63) / 64 * 8
	return bitColumns{stride: stride, data: make([]byte, Kappa*stride)}
}

func (c bitColumns) column(i int) []byte { return c.data[i*c.stride : (i+1)*c.stride] }

// rows transposes the columns into m rows of Kappa bits: bit i of row j
// (byte i/8, bit i%8) is bit j of column i.
func (c bitColumns) rows(m int) []Block {
	out := make([]Block, m)
	var w [64]uint64
	for og := 0; og*64 < m; og++ {
		for cg := range Kappa / 64 {
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
