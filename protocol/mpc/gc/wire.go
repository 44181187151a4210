package gc

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrMessage reports a garbling or label message that cannot be decoded:
// wrong tag or version, wrong length, counts over the limits, non-zero
// padding bits.
var ErrMessage = errors.New("gc: malformed message")

// Limits on decoded messages, far above what the referee circuits need
// (19×19 needs about 57,000 AND gates per try).
const (
	MaxANDGates = 1 << 22 // 128 MiB of tables
	MaxOutputs  = 1 << 20
	MaxLabels   = 1 << 20
)

// Message tags and the version of the formats. A garbling's version
// byte names its scheme: version for HalfGates (the format of every
// record made before ThreeHalves), versionThreeHalves for ThreeHalves.
const (
	tagGarbled         = 'G'
	tagLabels          = 'L'
	version            = 1
	versionThreeHalves = 2
)

// garbledHeader is tag, version, instance (8), AND gates (4), outputs (4).
const garbledHeader = 2 + 8 + 4 + 4

// MarshalBinary encodes g as
//
//	'G' v instance:u64 andGates:u32 outputs:u32 tables decoding
//
// with big-endian numbers, v = 1 for HalfGates (TableSize bytes of tables
// per AND gate) and 2 for ThreeHalves (Scheme.TablesSize bytes), and the
// decoding bits packed eight per byte, least significant bit first, unused
// bits zero.
func (g *Garbled) MarshalBinary() ([]byte, error) {
	if err := g.checkSizes(); err != nil {
		return nil, err
	}
	b := make([]byte, garbledHeader+len(g.Tables)+(len(g.Decoding)+7)/8)
	g.putHeader(b)
	copy(b[garbledHeader:], g.Tables)
	putBits(b[garbledHeader+len(g.Tables):], g.Decoding)
	return b, nil
}

// MarshalInPlace returns the same bytes as [Garbled.MarshalBinary]
// without copying the tables: for a garbling made by this package, the
// message is written around the tables in the buffer they live in, so
// that the result shares memory with g.Tables (changing one changes the
// other; g must not change while the result is in use). For any other
// garbling (parsed, built by hand, or whose Tables or Decoding were
// replaced by slices of other lengths) it is MarshalBinary.
func (g *Garbled) MarshalInPlace() ([]byte, error) {
	if !g.inPlace() {
		return g.MarshalBinary()
	}
	if err := g.checkSizes(); err != nil {
		return nil, err
	}
	g.putHeader(g.msg)
	putBits(g.msg[garbledHeader+len(g.Tables):], g.Decoding)
	return g.msg, nil
}

// inPlace reports whether g's tables sit in its message buffer, with
// room for the header and its decoding bits around them.
func (g *Garbled) inPlace() bool {
	return g.msg != nil && len(g.Tables) > 0 && len(g.msg) == garbledHeader+len(g.Tables)+(len(g.Decoding)+7)/8 &&
		&g.msg[garbledHeader] == &g.Tables[0]
}

// checkSizes refuses tables and decoding bits no message can carry.
func (g *Garbled) checkSizes() error {
	nAND, ok := tablesGates(g.Scheme, len(g.Tables))
	if !ok || nAND > MaxANDGates || len(g.Decoding) > MaxOutputs {
		return fmt.Errorf("%w: %d bytes of %v tables, %d outputs", ErrMessage, len(g.Tables), g.Scheme, len(g.Decoding))
	}
	return nil
}

// putHeader writes the header of g's message into b[:garbledHeader].
func (g *Garbled) putHeader(b []byte) {
	nAND, _ := tablesGates(g.Scheme, len(g.Tables))
	b[0], b[1] = tagGarbled, version
	if g.Scheme == ThreeHalves {
		b[1] = versionThreeHalves
	}
	binary.BigEndian.PutUint64(b[2:], g.Instance)
	binary.BigEndian.PutUint32(b[10:], uint32(nAND))
	binary.BigEndian.PutUint32(b[14:], uint32(len(g.Decoding)))
}

// ParseGarbled decodes a message made by Garbled.MarshalBinary. The
// result does not share memory with b.
func ParseGarbled(b []byte) (*Garbled, error) {
	if len(b) < garbledHeader || b[0] != tagGarbled || (b[1] != version && b[1] != versionThreeHalves) {
		return nil, fmt.Errorf("%w: bad garbling header", ErrMessage)
	}
	scheme := HalfGates
	if b[1] == versionThreeHalves {
		scheme = ThreeHalves
	}
	nAND := binary.BigEndian.Uint32(b[10:])
	nOut := binary.BigEndian.Uint32(b[14:])
	if nAND > MaxANDGates || nOut > MaxOutputs {
		return nil, fmt.Errorf("%w: %d AND gates, %d outputs over the limits", ErrMessage, nAND, nOut)
	}
	tables := scheme.TablesSize(int(nAND))
	if len(b) != garbledHeader+tables+(int(nOut)+7)/8 {
		return nil, fmt.Errorf("%w: %d bytes for %d AND gates and %d outputs", ErrMessage, len(b), nAND, nOut)
	}
	body := b[garbledHeader:]
	decoding, err := unpackBits(body[tables:], int(nOut))
	if err != nil {
		return nil, err
	}
	if scheme == ThreeHalves {
		// The control bits must have one encoding too (checked, not
		// unpacked: the evaluation reads them from the tables).
		if err := checkBits(body[nAND*ThreeHalvesTableSize:tables], int(nAND)*threeHalvesControlBits); err != nil {
			return nil, err
		}
	}
	return &Garbled{
		Scheme:   scheme,
		Instance: binary.BigEndian.Uint64(b[2:]),
		Tables:   append([]byte(nil), body[:tables]...),
		Decoding: decoding,
	}, nil
}

// MarshalLabels encodes labels as 'L' 1 count:u32 followed by 16 bytes
// per label: what the garbler sends for its own input wires, or the
// evaluator for output wires the garbler decodes.
func MarshalLabels(labels []Label) []byte {
	b := make([]byte, 6, 6+len(labels)*len(Label{}))
	b[0], b[1] = tagLabels, version
	binary.BigEndian.PutUint32(b[2:], uint32(len(labels)))
	for _, l := range labels {
		b = append(b, l[:]...)
	}
	return b
}

// ParseLabels decodes a message made by MarshalLabels that must hold
// exactly want labels.
func ParseLabels(b []byte, want int) ([]Label, error) {
	if len(b) < 6 || b[0] != tagLabels || b[1] != version {
		return nil, fmt.Errorf("%w: bad labels header", ErrMessage)
	}
	n := binary.BigEndian.Uint32(b[2:])
	if n > MaxLabels || int(n) != want {
		return nil, fmt.Errorf("%w: %d labels, want %d", ErrMessage, n, want)
	}
	if len(b) != 6+int(n)*len(Label{}) {
		return nil, fmt.Errorf("%w: %d bytes for %d labels", ErrMessage, len(b), n)
	}
	out := make([]Label, n)
	for i := range out {
		copy(out[i][:], b[6+16*i:])
	}
	return out, nil
}

// tablesGates returns the number of AND gates whose tables of scheme s
// take n bytes, and whether n is such a size.
func tablesGates(s Scheme, n int) (int, bool) {
	switch s {
	case HalfGates:
		return n / TableSize, n%TableSize == 0
	case ThreeHalves:
		k := threeHalvesGates(n)
		return k, s.TablesSize(k) == n
	}
	return 0, false
}

// putBits packs bits into b[:(len(bits)+7)/8], eight per byte, least
// significant bit first.
func putBits(b []byte, bits []bool) {
	clear(b[:(len(bits)+7)/8])
	for i, x := range bits {
		if x {
			b[i/8] |= 1 << (i % 8)
		}
	}
}

// checkBits checks what unpackBits checks, without unpacking: that b
// holds n bits, its padding bits zero.
func checkBits(b []byte, n int) error {
	if len(b) != (n+7)/8 {
		return fmt.Errorf("%w: %d bytes for %d bits", ErrMessage, len(b), n)
	}
	if n%8 != 0 && b[len(b)-1]>>(n%8) != 0 {
		return fmt.Errorf("%w: non-zero padding bits", ErrMessage)
	}
	return nil
}

// unpackBits is the inverse of packBits; it rejects non-zero padding so
// that every message has one encoding.
func unpackBits(b []byte, n int) ([]bool, error) {
	if err := checkBits(b, n); err != nil {
		return nil, err
	}
	out := make([]bool, n)
	for i := range out {
		out[i] = b[i/8]>>(i%8)&1 == 1
	}
	return out, nil
}
