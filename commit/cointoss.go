package commit

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
)

// ContributionSize is the number of random bytes each peer puts into a
// coin toss.
const ContributionSize = 32

// CoinTossDomain is the domain-separation tag of coin-toss commitments.
const CoinTossDomain = "kakure/cointoss/v1"

// Domain tags of the hashes that turn the contributions into randomness.
const (
	jointTag   = "kakure/cointoss/v1/joint"
	deriveTag  = "kakure/cointoss/v1/derive"
	uint64nTag = "kakure/cointoss/v1/uint64n"
)

// CoinToss is one peer's side of a commit-then-reveal coin toss (T-4).
// Each peer draws ContributionSize random bytes and commits to them; once
// it holds the other's commitment it reveals its own contribution; once
// both reveals are checked, the joint randomness is a hash of both
// contributions, which neither peer could choose alone.
//
// The two peers of a toss take seats 0 and 1, fixed by the protocol before
// the toss (for example the inviter takes seat 0). The seat is part of each
// commitment, so a peer that echoes the other's commitment and reveal is
// caught. Steps, for either seat:
//
//	t, _ := NewCoinToss(game, index, seat)
//	send(t.Commitment())
//	t.ReceiveCommitment(theirs)      // before revealing anything
//	send(t.Reveal())
//	t.ReceiveReveal(theirReveal)     // ErrMismatch: the peer cheated
//	r, _ := t.Result()
//
// After an ErrMismatch every later step fails with it. A CoinToss is not
// safe for concurrent use.
type CoinToss struct {
	game  []byte
	index uint32
	seat  uint8

	myOpening    Opening
	myCommitment Commitment

	theirCommitment     Commitment
	haveTheirCommitment bool
	theirContribution   []byte // set once their reveal is verified

	failed error
}

// NewCoinToss starts toss number index of game for the peer in seat (0 or
// 1), drawing its contribution from crypto/rand.
func NewCoinToss(game []byte, index uint32, seat uint8) (*CoinToss, error) {
	if seat > 1 {
		return nil, fmt.Errorf("commit: coin-toss seat %d, want 0 or 1: %w", seat, ErrInvalid)
	}
	contribution := make([]byte, ContributionSize)
	if _, err := rand.Read(contribution); err != nil {
		return nil, fmt.Errorf("commit: reading coin-toss contribution: %w", err)
	}
	c, o, err := New(CoinTossDomain, game, seat, index, contribution)
	if err != nil {
		return nil, err
	}
	return &CoinToss{
		game:         append([]byte{}, game...),
		index:        index,
		seat:         seat,
		myOpening:    o,
		myCommitment: c,
	}, nil
}

// Seat returns the seat of this side of the toss.
func (t *CoinToss) Seat() uint8 { return t.seat }

// Commitment returns this side's commitment, the first message to send.
func (t *CoinToss) Commitment() Commitment { return t.myCommitment }

// ReceiveCommitment records the other peer's commitment. A second
// commitment is refused with ErrDuplicate.
func (t *CoinToss) ReceiveCommitment(c Commitment) error {
	if t.failed != nil {
		return t.failed
	}
	if t.haveTheirCommitment {
		return fmt.Errorf("commit: coin toss %d: second commitment from seat %d: %w", t.index, 1-t.seat, ErrDuplicate)
	}
	t.theirCommitment = c
	t.haveTheirCommitment = true
	return nil
}

// Reveal returns this side's opening, to send once the other peer's
// commitment is in: revealing earlier would let the other peer choose its
// contribution after seeing ours, so Reveal refuses with ErrOutOfOrder.
// Calling it again returns the same opening (to resend it).
func (t *CoinToss) Reveal() (Opening, error) {
	if t.failed != nil {
		return Opening{}, t.failed
	}
	if !t.haveTheirCommitment {
		return Opening{}, fmt.Errorf("commit: coin toss %d: reveal before the other peer's commitment: %w", t.index, ErrOutOfOrder)
	}
	return Opening{Value: append([]byte{}, t.myOpening.Value...), Salt: t.myOpening.Salt}, nil
}

// ReceiveReveal checks the other peer's opening against its commitment.
// It fails with ErrOutOfOrder before that commitment, ErrDuplicate for a
// second reveal, ErrMalformed for a contribution of the wrong size and
// ErrMismatch (final: the peer cheated) when the opening does not open
// the commitment.
func (t *CoinToss) ReceiveReveal(o Opening) error {
	if t.failed != nil {
		return t.failed
	}
	if !t.haveTheirCommitment {
		return fmt.Errorf("commit: coin toss %d: reveal before commitment from seat %d: %w", t.index, 1-t.seat, ErrOutOfOrder)
	}
	if t.theirContribution != nil {
		return fmt.Errorf("commit: coin toss %d: second reveal from seat %d: %w", t.index, 1-t.seat, ErrDuplicate)
	}
	if len(o.Value) != ContributionSize {
		return fmt.Errorf("commit: coin toss %d: contribution of %d bytes, want %d: %w", t.index, len(o.Value), ContributionSize, ErrMalformed)
	}
	if err := Verify(t.theirCommitment, CoinTossDomain, t.game, 1-t.seat, t.index, o); err != nil {
		t.failed = fmt.Errorf("commit: coin toss %d: seat %d's reveal: %w", t.index, 1-t.seat, err)
		return t.failed
	}
	t.theirContribution = append([]byte{}, o.Value...)
	return nil
}

// Done reports whether both reveals are in and checked.
func (t *CoinToss) Done() bool { return t.failed == nil && t.theirContribution != nil }

// Result returns the joint randomness once the other peer's reveal is
// checked; before that it fails with ErrOutOfOrder. Both peers get the
// same Randomness.
func (t *CoinToss) Result() (Randomness, error) {
	if t.failed != nil {
		return Randomness{}, t.failed
	}
	if t.theirContribution == nil {
		return Randomness{}, fmt.Errorf("commit: coin toss %d: result before the other peer's reveal: %w", t.index, ErrOutOfOrder)
	}
	seat0, seat1 := t.myOpening.Value, t.theirContribution
	if t.seat == 1 {
		seat0, seat1 = seat1, seat0
	}
	return jointRandomness(t.game, t.index, seat0, seat1), nil
}

// jointRandomness hashes both contributions, in seat order, with the game
// and the toss index.
func jointRandomness(game []byte, index uint32, seat0, seat1 []byte) Randomness {
	h := sha256.New()
	writeField(h, []byte(jointTag))
	writeField(h, game)
	var buf [4]byte
	binary.BigEndian.PutUint32(buf[:], index)
	h.Write(buf[:])
	writeField(h, seat0)
	writeField(h, seat1)
	var r Randomness
	h.Sum(r[:0])
	return r
}

// Randomness is the outcome of a coin toss: 32 bytes that are uniformly
// random as long as one of the two peers drew its contribution honestly.
type Randomness [sha256.Size]byte

// String returns the randomness in lowercase hex.
func (r Randomness) String() string { return hex.EncodeToString(r[:]) }

// Bit returns 0 or 1, each with probability one half: for example, the
// seat that plays Black.
func (r Randomness) Bit() uint8 { return uint8(r.Uint64n(2)) }

// Uint64n returns a number in [0, n), uniformly distributed (rejection
// sampling over a hash stream keyed by r, so there is no modulo bias). It
// panics if n is 0.
func (r Randomness) Uint64n(n uint64) uint64 {
	if n == 0 {
		panic("commit: Uint64n(0)")
	}
	// Accept x below the largest multiple of n that fits in 64 bits.
	rem := (^uint64(0)%n + 1) % n // 2^64 mod n
	for counter := uint64(0); ; counter++ {
		h := sha256.New()
		writeField(h, []byte(uint64nTag))
		writeField(h, r[:])
		var buf [8]byte
		binary.BigEndian.PutUint64(buf[:], counter)
		h.Write(buf[:])
		block := h.Sum(nil)
		for i := 0; i+8 <= len(block); i += 8 {
			x := binary.BigEndian.Uint64(block[i:])
			if rem == 0 || x < -rem {
				return x % n
			}
		}
	}
}

// Derive returns independent randomness for the named purpose, so that
// one toss can serve several choices ("colours", "komi order", ...).
func (r Randomness) Derive(label string) Randomness {
	h := sha256.New()
	writeField(h, []byte(deriveTag))
	writeField(h, r[:])
	writeField(h, []byte(label))
	var d Randomness
	h.Sum(d[:0])
	return d
}

// writeField writes b to a hash with its length as a big-endian uint32 in
// front, so that no two sequences of fields hash the same bytes.
func writeField(h io.Writer, b []byte) {
	var buf [4]byte
	binary.BigEndian.PutUint32(buf[:], uint32(len(b)))
	h.Write(buf[:])
	h.Write(b)
}
