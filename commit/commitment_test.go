package commit_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/kakure/kakure/commit"
)

const testDomain = "kakure/test/hidden-move"

var testGame = []byte("game-0123456789abcdef")

// TestT5Binding: an opening opens its commitment and nothing else; changing
// any field of the opening or of the context is caught.
func TestT5Binding(t *testing.T) {
	c, o, err := commit.New(testDomain, testGame, 1, 7, []byte("D4"))
	if err != nil {
		t.Fatal(err)
	}
	if err := commit.Verify(c, testDomain, testGame, 1, 7, o); err != nil {
		t.Fatalf("Verify of the honest opening: %v", err)
	}
	otherSalt := o.Salt
	otherSalt[31] ^= 1
	tests := []struct {
		name    string
		domain  string
		game    []byte
		player  uint8
		index   uint32
		opening commit.Opening
	}{
		{"T-5 other value", testDomain, testGame, 1, 7, commit.Opening{Value: []byte("D5"), Salt: o.Salt}},
		{"T-5 value with a byte more", testDomain, testGame, 1, 7, commit.Opening{Value: []byte("D4\x00"), Salt: o.Salt}},
		{"T-5 empty value", testDomain, testGame, 1, 7, commit.Opening{Salt: o.Salt}},
		{"T-5 other salt", testDomain, testGame, 1, 7, commit.Opening{Value: o.Value, Salt: otherSalt}},
		{"T-5 zero salt", testDomain, testGame, 1, 7, commit.Opening{Value: o.Value}},
		{"T-5 other index", testDomain, testGame, 1, 8, o},
		{"T-5 other player", testDomain, testGame, 0, 7, o},
		{"T-5 other game", testDomain, []byte("game-0123456789abcdeF"), 1, 7, o},
		{"T-5 no game", testDomain, nil, 1, 7, o},
		{"T-5 other domain", "kakure/test/gomoku-piece", testGame, 1, 7, o},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := commit.Verify(c, tt.domain, tt.game, tt.player, tt.index, tt.opening)
			if !errors.Is(err, commit.ErrMismatch) {
				t.Errorf("Verify = %v, want ErrMismatch", err)
			}
		})
	}
}

// TestT5Hiding: every commitment has its own fresh 32-byte salt, so two
// commitments to the same value in the same place differ.
func TestT5Hiding(t *testing.T) {
	const n = 64
	salts := map[commit.Salt]bool{}
	commitments := map[commit.Commitment]bool{}
	for range n {
		c, o, err := commit.New(testDomain, testGame, 0, 3, []byte("pass"))
		if err != nil {
			t.Fatal(err)
		}
		if len(o.Salt) != 32 {
			t.Fatalf("salt of %d bytes, want 32", len(o.Salt))
		}
		if o.Salt == (commit.Salt{}) {
			t.Fatal("salt is all zero")
		}
		salts[o.Salt] = true
		commitments[c] = true
	}
	if len(salts) != n || len(commitments) != n {
		t.Errorf("%d distinct salts and %d distinct commitments out of %d, want all distinct", len(salts), len(commitments), n)
	}
}

// TestT5NewCopiesValue: changing the caller's slice after New does not
// change the opening.
func TestT5NewCopiesValue(t *testing.T) {
	value := []byte("Q16")
	c, o, err := commit.New(testDomain, testGame, 0, 0, value)
	if err != nil {
		t.Fatal(err)
	}
	value[0] = 'R'
	if err := commit.Verify(c, testDomain, testGame, 0, 0, o); err != nil {
		t.Errorf("Verify after the caller changed its slice: %v", err)
	}
}

// TestT5DomainSeparation: the same value and salt give different
// commitments in different domains, and moving bytes between adjacent
// fields changes the commitment (the encoding is length-prefixed).
func TestT5DomainSeparation(t *testing.T) {
	salt := commit.Salt{1, 2, 3}
	compute := func(domain string, game []byte, value string) commit.Commitment {
		t.Helper()
		c, err := commit.Compute(domain, game, 0, 0, commit.Opening{Value: []byte(value), Salt: salt})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		name string
		a, b commit.Commitment
	}{
		{"T-5 two domains", compute("kakure/hmg", testGame, "x"), compute("kakure/gomoku", testGame, "x")},
		{"T-5 domain/game boundary", compute("ab", []byte("c"), "x"), compute("a", []byte("bc"), "x")},
		{"T-5 game/value boundary", compute("d", []byte("g1"), "v"), compute("d", []byte("g"), "1v")},
		{"T-5 coin-toss domain", compute("kakure/toss/colours", testGame, "x"), compute("kakure/toss/colours/v2", testGame, "x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.a == tt.b {
				t.Errorf("commitments are equal: %v", tt.a)
			}
		})
	}
}

// TestT5Format recomputes a commitment from the documented encoding, so
// that a change of format (which would break every stored record) fails.
func TestT5Format(t *testing.T) {
	o := commit.Opening{Value: []byte("E5"), Salt: commit.Salt{0xaa, 31: 0x55}}
	got, err := commit.Compute("kakure/hmg/hidden-move", []byte("G"), 1, 0x01020304, o)
	if err != nil {
		t.Fatal(err)
	}
	var input []byte
	field := func(b []byte) {
		input = binary.BigEndian.AppendUint32(input, uint32(len(b)))
		input = append(input, b...)
	}
	field([]byte("kakure/commit/v1"))
	field([]byte("kakure/hmg/hidden-move"))
	field([]byte("G"))
	input = append(input, 1, 1, 2, 3, 4)
	field([]byte("E5"))
	field(o.Salt[:])
	if want := commit.Commitment(sha256.Sum256(input)); got != want {
		t.Errorf("Compute = %v, want %v", got, want)
	}
}

func TestT5InvalidFields(t *testing.T) {
	tests := []struct {
		name   string
		domain string
		game   []byte
		value  []byte
	}{
		{"T-5 empty domain", "", testGame, nil},
		{"T-5 domain too long", strings.Repeat("d", commit.MaxDomainLen+1), testGame, nil},
		{"T-5 game too long", testDomain, make([]byte, commit.MaxGameLen+1), nil},
		{"T-5 value too long", testDomain, testGame, make([]byte, commit.MaxValueLen+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := commit.New(tt.domain, tt.game, 0, 0, tt.value); !errors.Is(err, commit.ErrInvalid) {
				t.Errorf("New = %v, want ErrInvalid", err)
			}
			err := commit.Verify(commit.Commitment{}, tt.domain, tt.game, 0, 0, commit.Opening{Value: tt.value})
			if !errors.Is(err, commit.ErrInvalid) {
				t.Errorf("Verify = %v, want ErrInvalid", err)
			}
		})
	}
	// The limits themselves are allowed.
	if _, _, err := commit.New(strings.Repeat("d", commit.MaxDomainLen), make([]byte, commit.MaxGameLen), 0, 0, make([]byte, commit.MaxValueLen)); err != nil {
		t.Errorf("New at the size limits: %v", err)
	}
}

func TestT5CommitmentEncoding(t *testing.T) {
	c, _, err := commit.New(testDomain, testGame, 0, 1, []byte("A1"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var fromBinary commit.Commitment
	if err := fromBinary.UnmarshalBinary(b); err != nil || fromBinary != c {
		t.Errorf("binary round trip = %v, %v; want %v", fromBinary, err, c)
	}
	text, err := c.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	if string(text) != hex.EncodeToString(c[:]) || c.String() != string(text) {
		t.Errorf("text = %q, String = %q, want lowercase hex %x", text, c.String(), c[:])
	}
	parsed, err := commit.ParseCommitment(string(text))
	if err != nil || parsed != c {
		t.Errorf("ParseCommitment(%q) = %v, %v; want %v", text, parsed, err, c)
	}

	lower := strings.Repeat("ab", 32)
	bad := []struct{ name, text string }{
		{"T-5 empty", ""},
		{"T-5 short", lower[:62]},
		{"T-5 long", lower + "ab"},
		{"T-5 odd length", lower[:63]},
		{"T-5 uppercase", strings.ToUpper(lower)},
		{"T-5 not hex", "zz" + lower[2:]},
		{"T-5 space", " " + lower[1:]},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := commit.ParseCommitment(tt.text); !errors.Is(err, commit.ErrMalformed) {
				t.Errorf("ParseCommitment(%q) = %v, want ErrMalformed", tt.text, err)
			}
		})
	}
	for _, n := range []int{0, 31, 33} {
		var c commit.Commitment
		if err := c.UnmarshalBinary(make([]byte, n)); !errors.Is(err, commit.ErrMalformed) {
			t.Errorf("UnmarshalBinary of %d bytes = %v, want ErrMalformed", n, err)
		}
	}
}

func TestT5OpeningEncoding(t *testing.T) {
	for _, value := range [][]byte{nil, []byte("K10"), bytes.Repeat([]byte{0xff}, commit.MaxValueLen)} {
		_, o, err := commit.New(testDomain, testGame, 1, 2, value)
		if err != nil {
			t.Fatal(err)
		}
		b, err := o.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != 1+4+len(value)+32 {
			t.Errorf("binary opening of a %d-byte value has %d bytes", len(value), len(b))
		}
		var fromBinary commit.Opening
		if err := fromBinary.UnmarshalBinary(b); err != nil || !bytes.Equal(fromBinary.Value, o.Value) || fromBinary.Salt != o.Salt {
			t.Errorf("binary round trip of %d-byte value: %v", len(value), err)
		}
		text, err := o.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var fromText commit.Opening
		if err := fromText.UnmarshalText(text); err != nil || !bytes.Equal(fromText.Value, o.Value) || fromText.Salt != o.Salt {
			t.Errorf("text round trip of %d-byte value: %v", len(value), err)
		}
	}

	good, _ := commit.Opening{Value: []byte{0xab, 0xcd}, Salt: commit.Salt{0xef}}.MarshalBinary()
	oversized := append([]byte{1}, binary.BigEndian.AppendUint32(nil, commit.MaxValueLen+1)...)
	oversized = append(oversized, make([]byte, commit.MaxValueLen+1+32)...)
	bad := []struct {
		name string
		b    []byte
	}{
		{"T-5 empty", nil},
		{"T-5 truncated salt", good[:len(good)-1]},
		{"T-5 trailing byte", append(append([]byte{}, good...), 0)},
		{"T-5 version 0", append([]byte{0}, good[1:]...)},
		{"T-5 version 2", append([]byte{2}, good[1:]...)},
		{"T-5 length says more", append([]byte{1, 0, 0, 0, 3}, good[5:]...)},
		{"T-5 length says less", append([]byte{1, 0, 0, 0, 1}, good[5:]...)},
		{"T-5 oversized value", oversized},
		{"T-5 huge length", append([]byte{1, 0xff, 0xff, 0xff, 0xff}, make([]byte, 32)...)},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			var o commit.Opening
			if err := o.UnmarshalBinary(tt.b); !errors.Is(err, commit.ErrMalformed) {
				t.Errorf("UnmarshalBinary = %v, want ErrMalformed", err)
			}
			if err := o.UnmarshalText([]byte(hex.EncodeToString(tt.b))); !errors.Is(err, commit.ErrMalformed) {
				t.Errorf("UnmarshalText = %v, want ErrMalformed", err)
			}
		})
	}
	var o commit.Opening
	if err := o.UnmarshalText([]byte(strings.ToUpper(hex.EncodeToString(good)))); !errors.Is(err, commit.ErrMalformed) {
		t.Errorf("UnmarshalText of uppercase hex = %v, want ErrMalformed", err)
	}
	if _, err := (commit.Opening{Value: make([]byte, commit.MaxValueLen+1)}).MarshalBinary(); !errors.Is(err, commit.ErrInvalid) {
		t.Errorf("MarshalBinary of an oversized value = %v, want ErrInvalid", err)
	}
}

func BenchmarkNew(b *testing.B) {
	value := []byte("D4")
	for b.Loop() {
		if _, _, err := commit.New(testDomain, testGame, 0, 1, value); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	c, o, _ := commit.New(testDomain, testGame, 0, 1, []byte("D4"))
	for b.Loop() {
		if err := commit.Verify(c, testDomain, testGame, 0, 1, o); err != nil {
			b.Fatal(err)
		}
	}
}
