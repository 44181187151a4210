package prg_test

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/prg"
)

// TestStreamIsAES256CTR checks the first block of the zero seed's stream
// against the known AES-256 encryption of the zero block under the zero key
// (counter 0, zero IV).
func TestStreamIsAES256CTR(t *testing.T) {
	var zero prg.Seed
	got := prg.New(zero).Block()
	want, _ := hex.DecodeString("dc95c078a2408989ad48a21492842087")
	if !bytes.Equal(got[:], want) {
		t.Fatalf("first block %x, want %x", got, want)
	}
}

func TestStreamChunking(t *testing.T) {
	seed := prg.Seed{1, 2, 3}
	whole := make([]byte, 5000)
	prg.New(seed).Read(whole)
	for _, sizes := range [][]int{{1}, {7, 9, 600}, {512}, {513, 1}, {16, 3000}} {
		s := prg.New(seed)
		var got []byte
		for k := 0; len(got) < len(whole); k++ {
			n := min(sizes[k%len(sizes)], len(whole)-len(got))
			b := make([]byte, n)
			if m, err := s.Read(b); m != n || err != nil {
				t.Fatalf("Read(%d) = %d, %v", n, m, err)
			}
			got = append(got, b...)
		}
		if !bytes.Equal(got, whole) {
			t.Errorf("reading in chunks %v gives other bytes", sizes)
		}
	}
	// Uint64 and Block read the same stream in order.
	s := prg.New(seed)
	a := s.Uint64()
	b := s.Block()
	if a != leUint64(whole[:8]) || !bytes.Equal(b[:], whole[8:24]) {
		t.Error("Uint64 and Block do not follow the stream")
	}
}

func leUint64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func TestDerive(t *testing.T) {
	seed := prg.Seed{9}
	children := map[prg.Seed]string{}
	add := func(name string, s prg.Seed) {
		if prev, ok := children[s]; ok {
			t.Errorf("%s and %s derive the same seed", name, prev)
		}
		children[s] = name
	}
	add("parent", seed)
	add(`"a"`, seed.Derive("a"))
	add(`"b"`, seed.Derive("b"))
	add(`"a",0`, seed.Derive("a", 0))
	add(`"a",1`, seed.Derive("a", 1))
	add(`"a",1,0`, seed.Derive("a", 1, 0))
	add(`"a",0,1`, seed.Derive("a", 0, 1))
	add(`""`, seed.Derive(""))
	add(`"ab"`, seed.Derive("ab"))
	add(`other parent "a"`, prg.Seed{8}.Derive("a"))
	if first, again := seed.Derive("a", 1), seed.Derive("a", 1); first != again {
		t.Error("Derive is not deterministic")
	}
	x, y := seed.Stream("a", 1).Block(), prg.New(seed.Derive("a", 1)).Block()
	if x != y {
		t.Error("Stream(label) is not New(Derive(label))")
	}
}

func TestIntn(t *testing.T) {
	s := prg.New(prg.Seed{4})
	seen := make([]int, 7)
	for range 7000 {
		v := s.Intn(7)
		if v < 0 || v >= 7 {
			t.Fatalf("Intn(7) = %d", v)
		}
		seen[v]++
	}
	for v, n := range seen {
		if n < 800 || n > 1200 {
			t.Errorf("value %d drawn %d times of 7000", v, n)
		}
	}
	bits := s.Bools(1000)
	ones := 0
	for _, b := range bits {
		if b {
			ones++
		}
	}
	if ones < 400 || ones > 600 {
		t.Errorf("%d ones in 1000 bits", ones)
	}
}
