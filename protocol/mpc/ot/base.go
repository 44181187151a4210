package ot

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"
)

// The base OT is Chou–Orlandi over Ristretto255 with generator G:
//
//	sender:   y random, S = y·G, T = y·S        → S
//	receiver: per OT i, x_i random, c_i its choice,
//	          R_i = c_i·S + x_i·G               → R_0 … R_{n-1}
//	          k_i = H(i, S, R_i, x_i·S)
//	sender:   k_i^0 = H(i, S, R_i, y·R_i)
//	          k_i^1 = H(i, S, R_i, y·R_i − T)
//
// so k_i^{c_i} = k_i, while k_i^{1−c_i} needs the discrete logarithm of S.
// H is SHA-256 over a domain tag, the session identifier and the inputs.
// Scalars come from the caller's stream, not from crypto/rand (circl's
// RandomScalar for Ristretto255 ignores its reader), so a run is replayable
// from the seed.

var curve = group.Ristretto255

const (
	pointSize   = 32
	scalarTag   = "kakure/mpc/ot/base/scalar/v1"
	baseKeyTag  = "kakure/mpc/ot/base/key/v1\x00"
	scalarBytes = 64
)

// readScalar draws a uniform non-zero scalar from r: 64 bytes reduced
// modulo the group order.
func readScalar(r io.Reader) (group.Scalar, error) {
	for {
		var b [scalarBytes]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("ot: reading scalar: %w", err)
		}
		s := curve.HashToScalar(b[:], []byte(scalarTag))
		if !s.IsZero() {
			return s, nil
		}
	}
}

// baseKey is H(i, S, R_i, P).
func baseKey(session []byte, i int, s, r []byte, p group.Element) Key {
	pb, _ := p.MarshalBinary()
	return baseKeyOf(session, i, s, r, pb)
}

// baseKeyOf is H(i, S, R_i, P) of P's encoding pb.
func baseKeyOf(session []byte, i int, s, r, pb []byte) Key {
	h := sha256.New()
	var n [8]byte
	h.Write([]byte(baseKeyTag))
	binary.BigEndian.PutUint64(n[:], uint64(len(session)))
	h.Write(n[:])
	h.Write(session)
	binary.BigEndian.PutUint64(n[:], uint64(i))
	h.Write(n[:])
	h.Write(s)
	h.Write(r)
	h.Write(pb)
	var k Key
	h.Sum(k[:0])
	return k
}

func decodePoint(b []byte) (group.Element, error) {
	p := curve.NewElement()
	if err := p.UnmarshalBinary(b); err != nil {
		return nil, fmt.Errorf("%w: invalid group element", ErrMessage)
	}
	if p.IsIdentity() {
		return nil, fmt.Errorf("%w: identity element", ErrMessage)
	}
	return p, nil
}

// BaseSender is the sender of a batch of random base OTs: it obtains two
// keys per OT.
type BaseSender struct {
	session []byte
	n       int
	y       group.Scalar
	s       []byte        // encoding of S, nil before Start
	t       group.Element // T = y·S
	done    bool
}

// NewBaseSender returns the sender of n base OTs for the session, drawing
// its scalar from rng.
func NewBaseSender(rng io.Reader, session []byte, n int) (*BaseSender, error) {
	if n <= 0 || n > MaxBaseOTs {
		return nil, fmt.Errorf("%w: %d base OTs", ErrInput, n)
	}
	y, err := readScalar(rng)
	if err != nil {
		return nil, err
	}
	return &BaseSender{session: append([]byte(nil), session...), n: n, y: y}, nil
}

// Start returns the first message: 'O' 1 1 S.
func (b *BaseSender) Start() ([]byte, error) {
	if b.s != nil {
		return nil, fmt.Errorf("%w: base OT already started", ErrState)
	}
	sp := curve.NewElement().MulGen(b.y)
	enc, err := sp.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b.s = enc
	b.t = curve.NewElement().Mul(sp, b.y)
	return append([]byte{msgMagic, msgVersion, kindBaseSender}, enc...), nil
}

// Finish takes the receiver's message and returns the two keys of every
// OT.
func (b *BaseSender) Finish(msg []byte) ([][2]Key, error) {
	if b.s == nil || b.done {
		return nil, fmt.Errorf("%w: base OT not started or already finished", ErrState)
	}
	yb, err := b.y.MarshalBinary()
	if err != nil {
		return nil, err
	}
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(b.n))
	memo := baseMemoKey("finish", b.session, n[:], yb, b.s, msg)
	if e, ok := baseOTs.get(memo); ok {
		b.done = true
		return e.pairs, nil
	}
	rs, err := parseBaseReceiverMsg(msg, b.n)
	if err != nil {
		return nil, err
	}
	keys := make([][2]Key, b.n)
	for i, r := range rs {
		yr := curve.NewElement().Mul(r, b.y)
		enc := msg[baseReceiverHeader+i*pointSize : baseReceiverHeader+(i+1)*pointSize]
		keys[i][0] = baseKey(b.session, i, b.s, enc, yr)
		keys[i][1] = baseKey(b.session, i, b.s, enc, curve.NewElement().Add(yr, curve.NewElement().Neg(b.t)))
	}
	b.done = true
	baseOTs.put(memo, baseMemoEntry{pairs: keys})
	return keys, nil
}

// BaseReceiver is the receiver of a batch of random base OTs: it obtains
// the key of its choice bit in every OT.
type BaseReceiver struct {
	session []byte
	choices []bool
	x       []group.Scalar
	done    bool
}

// NewBaseReceiver returns the receiver of len(choices) base OTs for the
// session, drawing its scalars from rng.
func NewBaseReceiver(rng io.Reader, session []byte, choices []bool) (*BaseReceiver, error) {
	if len(choices) == 0 || len(choices) > MaxBaseOTs {
		return nil, fmt.Errorf("%w: %d base OTs", ErrInput, len(choices))
	}
	x := make([]group.Scalar, len(choices))
	for i := range x {
		s, err := readScalar(rng)
		if err != nil {
			return nil, err
		}
		x[i] = s
	}
	return &BaseReceiver{session: append([]byte(nil), session...), choices: append([]bool(nil), choices...), x: x}, nil
}

// baseReceiverHeader is magic, version, kind and the count (u16).
const baseReceiverHeader = 5

// Respond takes the sender's first message and returns the reply
// 'O' 1 2 n:u16 R_0 … R_{n-1} and the chosen keys.
func (b *BaseReceiver) Respond(msg []byte) ([]byte, []Key, error) {
	if b.done {
		return nil, nil, fmt.Errorf("%w: base OT already answered", ErrState)
	}
	if len(msg) != 3+pointSize || msg[0] != msgMagic || msg[1] != msgVersion || msg[2] != kindBaseSender {
		return nil, nil, fmt.Errorf("%w: bad base OT sender message", ErrMessage)
	}
	sEnc := msg[3:]
	sp, err := decodePoint(sEnc)
	if err != nil {
		return nil, nil, err
	}
	memo, err := b.memoKey(msg)
	if err != nil {
		return nil, nil, err
	}
	if e, ok := baseOTs.get(memo); ok {
		b.done = true
		return e.msg, e.keys, nil
	}
	n := len(b.choices)
	out := make([]byte, baseReceiverHeader, baseReceiverHeader+n*pointSize)
	out[0], out[1], out[2] = msgMagic, msgVersion, kindBaseReceiver
	binary.BigEndian.PutUint16(out[3:], uint16(n))
	keys := make([]Key, n)
	shared, err := newSharedBase(sEnc, n)
	if err != nil {
		return nil, nil, err
	}
	for i, c := range b.choices {
		r := curve.NewElement().MulGen(b.x[i])
		if c {
			r.Add(r, sp)
		}
		enc, err := r.MarshalBinary()
		if err != nil {
			return nil, nil, err
		}
		out = append(out, enc...)
		xs, err := shared.mul(sp, b.x[i])
		if err != nil {
			return nil, nil, err
		}
		keys[i] = baseKeyOf(b.session, i, sEnc, enc, xs)
	}
	b.done = true
	baseOTs.put(memo, baseMemoEntry{msg: out, keys: keys})
	return out, keys, nil
}

// memoKey is the key of Respond's result in the memo (baseMemo): the
// session, the choices, the scalars and the sender's message.
func (b *BaseReceiver) memoKey(msg []byte) ([32]byte, error) {
	choices := make([]byte, len(b.choices))
	for i, c := range b.choices {
		if c {
			choices[i] = 1
		}
	}
	xs := make([]byte, 0, len(b.x)*32)
	for _, x := range b.x {
		xb, err := x.MarshalBinary()
		if err != nil {
			return [32]byte{}, err
		}
		xs = append(xs, xb...)
	}
	return baseMemoKey("respond", b.session, choices, xs, msg), nil
}

// CheckBaseResponse returns nil when msg is a base OT receiver's message
// of n OTs that a sender can answer — its header and count right, every
// point a valid encoding —, the error BaseSender.Finish would give
// otherwise (ErrMessage), without a sender and without its scalar
// multiplications.
func CheckBaseResponse(msg []byte, n int) error {
	_, err := parseBaseReceiverMsg(msg, n)
	return err
}

func parseBaseReceiverMsg(msg []byte, n int) ([]group.Element, error) {
	if len(msg) < baseReceiverHeader || msg[0] != msgMagic || msg[1] != msgVersion || msg[2] != kindBaseReceiver {
		return nil, fmt.Errorf("%w: bad base OT receiver message", ErrMessage)
	}
	if got := int(binary.BigEndian.Uint16(msg[3:])); got != n || len(msg) != baseReceiverHeader+n*pointSize {
		return nil, fmt.Errorf("%w: base OT receiver message of %d bytes for %d OTs", ErrMessage, len(msg), n)
	}
	rs := make([]group.Element, n)
	for i := range rs {
		p, err := decodePoint(msg[baseReceiverHeader+i*pointSize : baseReceiverHeader+(i+1)*pointSize])
		if err != nil {
			return nil, fmt.Errorf("base OT %d: %w", i, err)
		}
		rs[i] = p
	}
	return rs, nil
}
