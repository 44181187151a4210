package commit

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
)

// Size limits of the fields of a commitment. They bound what a decoder
// accepts from a peer (T-10) and what New commits to.
const (
	// MaxDomainLen is the longest domain-separation tag, in bytes.
	MaxDomainLen = 255
	// MaxGameLen is the longest game ID, in bytes.
	MaxGameLen = 255
	// MaxValueLen is the longest committed value, in bytes.
	MaxValueLen = 1 << 16
)

// SaltSize is the size of the fresh random salt of every commitment (T-5).
const SaltSize = 32

// CommitmentSize is the size of a commitment: a SHA-256 digest.
const CommitmentSize = sha256.Size

// schemeTag is hashed in front of every commitment, so that no SHA-256
// digest computed elsewhere (by kakure or anyone) can be passed off as a
// commitment, whatever domain the caller chose.
const schemeTag = "kakure/commit/v1"

// openingVersion is the first byte of an Opening's binary encoding.
const openingVersion = 1

// Commitment binds its author to a value without showing it (T-5). It is
// SHA-256 of the length-prefixed encoding of a scheme tag, the
// caller's domain-separation tag, the game ID, the player, the item's
// index, the value and a 32-byte salt.
//
// SHA-256 was chosen over BLAKE2b and SHA3 because it is in the standard
// library (no dependency in this package), is hardware-accelerated on the
// machines kakure runs on, and is what anyone checking a record with other
// tools will have at hand. Its length extension weakness does not apply:
// the hash input is fully length-prefixed and the digest is never used as
// a MAC.
type Commitment [CommitmentSize]byte

// Salt is the fresh random value that makes a commitment hiding.
type Salt [SaltSize]byte

// Opening is what the committer sends to open a commitment: the value and
// the salt. The receiver checks it with Verify.
type Opening struct {
	Value []byte
	Salt  Salt
}

// New commits to value as item index of player in game, under the
// domain-separation tag domain (say "kakure/hmg/hidden-move"). The salt
// comes from crypto/rand. Send the Commitment now; keep the Opening secret
// until the rules say to open it. New copies value.
func New(domain string, game []byte, player uint8, index uint32, value []byte) (Commitment, Opening, error) {
	o := Opening{Value: append([]byte{}, value...)}
	if _, err := rand.Read(o.Salt[:]); err != nil {
		return Commitment{}, Opening{}, fmt.Errorf("commit: reading random salt: %w", err)
	}
	c, err := Compute(domain, game, player, index, o)
	if err != nil {
		return Commitment{}, Opening{}, err
	}
	return c, o, nil
}

// Compute returns the commitment that o opens for the given domain, game,
// player and index. Verify uses it; so can an auditor replaying a record.
// To make a new commitment call New, which draws a fresh salt: a
// commitment made with a salt that is not fresh and secret is not hiding.
func Compute(domain string, game []byte, player uint8, index uint32, o Opening) (Commitment, error) {
	if err := checkFields(domain, game, o.Value); err != nil {
		return Commitment{}, err
	}
	h := sha256.New()
	writeField(h, []byte(schemeTag))
	writeField(h, []byte(domain))
	writeField(h, game)
	h.Write([]byte{player})
	var buf [4]byte
	binary.BigEndian.PutUint32(buf[:], index)
	h.Write(buf[:])
	writeField(h, o.Value)
	writeField(h, o.Salt[:])
	var c Commitment
	h.Sum(c[:0])
	return c, nil
}

// Verify checks that o opens c as item index of player in game under
// domain. It returns nil if it does, an error wrapping ErrMismatch if it
// does not, and one wrapping ErrInvalid if the fields are out of range.
func Verify(c Commitment, domain string, game []byte, player uint8, index uint32, o Opening) error {
	got, err := Compute(domain, game, player, index, o)
	if err != nil {
		return err
	}
	if subtle.ConstantTimeCompare(got[:], c[:]) != 1 {
		return fmt.Errorf("commit: domain %q, player %d, item %d: %w", domain, player, index, ErrMismatch)
	}
	return nil
}

func checkFields(domain string, game, value []byte) error {
	switch {
	case domain == "":
		return fmt.Errorf("commit: empty domain tag: %w", ErrInvalid)
	case len(domain) > MaxDomainLen:
		return fmt.Errorf("commit: domain tag of %d bytes, at most %d: %w", len(domain), MaxDomainLen, ErrInvalid)
	case len(game) > MaxGameLen:
		return fmt.Errorf("commit: game ID of %d bytes, at most %d: %w", len(game), MaxGameLen, ErrInvalid)
	case len(value) > MaxValueLen:
		return fmt.Errorf("commit: value of %d bytes, at most %d: %w", len(value), MaxValueLen, ErrInvalid)
	}
	return nil
}

// String returns the commitment in lowercase hex.
func (c Commitment) String() string { return hex.EncodeToString(c[:]) }

// MarshalBinary returns the 32 bytes of the commitment.
func (c Commitment) MarshalBinary() ([]byte, error) { return append([]byte{}, c[:]...), nil }

// UnmarshalBinary sets c from exactly 32 bytes.
func (c *Commitment) UnmarshalBinary(b []byte) error {
	if len(b) != CommitmentSize {
		return fmt.Errorf("commit: commitment of %d bytes, want %d: %w", len(b), CommitmentSize, ErrMalformed)
	}
	copy(c[:], b)
	return nil
}

// MarshalText returns the commitment in lowercase hex.
func (c Commitment) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText sets c from 64 lowercase hex digits, the only text form of
// a commitment.
func (c *Commitment) UnmarshalText(text []byte) error {
	b, err := decodeCanonicalHex(text)
	if err != nil {
		return fmt.Errorf("commit: commitment text: %w", err)
	}
	return c.UnmarshalBinary(b)
}

// ParseCommitment parses the text form of a commitment.
func ParseCommitment(s string) (Commitment, error) {
	var c Commitment
	err := c.UnmarshalText([]byte(s))
	return c, err
}

// MarshalBinary encodes the opening as a version byte (1), the value's
// length as a big-endian uint32, the value and the 32-byte salt.
func (o Opening) MarshalBinary() ([]byte, error) {
	if len(o.Value) > MaxValueLen {
		return nil, fmt.Errorf("commit: value of %d bytes, at most %d: %w", len(o.Value), MaxValueLen, ErrInvalid)
	}
	b := make([]byte, 0, 1+4+len(o.Value)+SaltSize)
	b = append(b, openingVersion)
	b = binary.BigEndian.AppendUint32(b, uint32(len(o.Value)))
	b = append(b, o.Value...)
	return append(b, o.Salt[:]...), nil
}

// UnmarshalBinary decodes what MarshalBinary produces, and nothing else:
// unknown versions, wrong lengths, oversized values and trailing bytes are
// refused with an error wrapping ErrMalformed. The value is copied.
func (o *Opening) UnmarshalBinary(b []byte) error {
	if len(b) < 1+4+SaltSize {
		return fmt.Errorf("commit: opening of %d bytes is too short: %w", len(b), ErrMalformed)
	}
	if b[0] != openingVersion {
		return fmt.Errorf("commit: opening version %d, want %d: %w", b[0], openingVersion, ErrMalformed)
	}
	n := binary.BigEndian.Uint32(b[1:5])
	if n > MaxValueLen {
		return fmt.Errorf("commit: opening value of %d bytes, at most %d: %w", n, MaxValueLen, ErrMalformed)
	}
	if want := 1 + 4 + int(n) + SaltSize; len(b) != want {
		return fmt.Errorf("commit: opening of %d bytes, its value length says %d: %w", len(b), want, ErrMalformed)
	}
	o.Value = append([]byte{}, b[5:5+n]...)
	copy(o.Salt[:], b[5+n:])
	return nil
}

// MarshalText returns the binary encoding in lowercase hex.
func (o Opening) MarshalText() ([]byte, error) {
	b, err := o.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return []byte(hex.EncodeToString(b)), nil
}

// UnmarshalText decodes the lowercase hex of the binary encoding.
func (o *Opening) UnmarshalText(text []byte) error {
	if len(text) > 2*(1+4+MaxValueLen+SaltSize) {
		return fmt.Errorf("commit: opening text of %d bytes is too long: %w", len(text), ErrMalformed)
	}
	b, err := decodeCanonicalHex(text)
	if err != nil {
		return fmt.Errorf("commit: opening text: %w", err)
	}
	return o.UnmarshalBinary(b)
}

// decodeCanonicalHex decodes lowercase hex only, so that every value has
// exactly one text form (signed transcripts hash the text they carry).
func decodeCanonicalHex(text []byte) ([]byte, error) {
	for i, ch := range text {
		if !('0' <= ch && ch <= '9' || 'a' <= ch && ch <= 'f') {
			return nil, fmt.Errorf("byte %d (%q) is not a lowercase hex digit: %w", i, ch, ErrMalformed)
		}
	}
	if len(text)%2 != 0 {
		return nil, fmt.Errorf("odd number of hex digits: %w", ErrMalformed)
	}
	b := make([]byte, len(text)/2)
	if _, err := hex.Decode(b, text); err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrMalformed)
	}
	return b, nil
}

// writeField writes b to a hash with its length as a big-endian uint32 in
// front, so that no two sequences of fields hash the same bytes.
func writeField(h io.Writer, b []byte) {
	var buf [4]byte
	binary.BigEndian.PutUint32(buf[:], uint32(len(b)))
	h.Write(buf[:])
	h.Write(b)
}
