package commit_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/kakure/kakure/commit"
)

// FuzzOpeningBinary: the decoder never panics, refuses bad input with
// ErrMalformed, and accepts only canonical encodings (decode, encode gives
// the input back).
func FuzzOpeningBinary(f *testing.F) {
	good, _ := commit.Opening{Value: []byte("D4"), Salt: commit.Salt{9}}.MarshalBinary()
	f.Add(good)
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var o commit.Opening
		if err := o.UnmarshalBinary(b); err != nil {
			if !errors.Is(err, commit.ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		again, err := o.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("decode then encode changed %x into %x", b, again)
		}
	})
}

// FuzzOpeningText: as FuzzOpeningBinary, for the hex text form.
func FuzzOpeningText(f *testing.F) {
	good, _ := commit.Opening{Value: []byte("pass"), Salt: commit.Salt{1, 2}}.MarshalText()
	f.Add(string(good))
	f.Add("")
	f.Add("0100000000")
	f.Fuzz(func(t *testing.T, s string) {
		var o commit.Opening
		if err := o.UnmarshalText([]byte(s)); err != nil {
			if !errors.Is(err, commit.ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		again, err := o.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != s {
			t.Fatalf("decode then encode changed %q into %q", s, again)
		}
	})
}

// FuzzCommitmentText: ParseCommitment never panics and accepts only the
// canonical text form.
func FuzzCommitmentText(f *testing.F) {
	f.Add("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
	f.Add("E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := commit.ParseCommitment(s)
		if err != nil {
			if !errors.Is(err, commit.ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if c.String() != s {
			t.Fatalf("parse then format changed %q into %q", s, c.String())
		}
	})
}

// FuzzT5Binding: for any fields, the honest opening verifies and an
// opening with the value changed does not.
func FuzzT5Binding(f *testing.F) {
	f.Add("kakure/hmg", []byte("g"), uint8(0), uint32(0), []byte("D4"), []byte{0})
	f.Add("d", []byte{}, uint8(255), uint32(1<<31), []byte{}, []byte{})
	f.Fuzz(func(t *testing.T, domain string, game []byte, player uint8, index uint32, value, salt []byte) {
		o := commit.Opening{Value: value}
		copy(o.Salt[:], salt)
		c, err := commit.Compute(domain, game, player, index, o)
		if err != nil {
			if !errors.Is(err, commit.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if err := commit.Verify(c, domain, game, player, index, o); err != nil {
			t.Fatalf("honest opening: %v", err)
		}
		changed := commit.Opening{Value: append(append([]byte{}, value...), 0), Salt: o.Salt}
		if len(changed.Value) <= commit.MaxValueLen {
			if err := commit.Verify(c, domain, game, player, index, changed); !errors.Is(err, commit.ErrMismatch) {
				t.Fatalf("longer value: %v, want ErrMismatch", err)
			}
		}
		if err := commit.Verify(c, domain, game, player^1, index, o); !errors.Is(err, commit.ErrMismatch) {
			t.Fatalf("other player: %v, want ErrMismatch", err)
		}
	})
}
