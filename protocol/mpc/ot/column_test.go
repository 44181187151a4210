package ot

import (
	"bytes"
	"testing"
)

// TestShortColumnIsCTR (issue 38): a column made block by block is the
// CTR stream G(k, batch) byte for byte, at every length up to and past
// the threshold and for batches whose counter blocks differ in the high
// word only, whatever dst held before.
func TestShortColumnIsCTR(t *testing.T) {
	var k Key
	for i := range k {
		k[i] = byte(3*i + 1)
	}
	c := columnCipher(k)
	for _, batch := range []uint32{0, 1, 7, 1<<32 - 1} {
		for n := 0; n <= shortColumn+40; n++ {
			want := make([]byte, n)
			readColumnCTR(c, batch, want)
			got := bytes.Repeat([]byte{0xa5}, n)
			readColumn(c, batch, got)
			if !bytes.Equal(got, want) {
				t.Fatalf("batch %d, %d bytes: the column differs from the CTR stream", batch, n)
			}
		}
	}
}

// TestChallengeReused (issue 38): challenges drawn into a buffer given
// back by putChallenge and scribbled over are the challenges drawn into
// a new one, for a longer and a shorter batch.
func TestChallengeReused(t *testing.T) {
	session, request := []byte("session"), []byte("request")
	for _, n := range []int{1000, 1000, 37, 2000} {
		want := append([]Block(nil), challenge(session, request, n)...)
		old := challenge(session, []byte("other"), n+5)
		for i := range old {
			old[i] = Block{0xa5}
		}
		putChallenge(old)
		got := challenge(session, request, n)
		if len(got) != n {
			t.Fatalf("%d challenges, want %d", len(got), n)
		}
		for j := range got {
			if got[j] != want[j] {
				t.Fatalf("n = %d: challenge %d differs in a reused buffer", n, j)
			}
		}
		putChallenge(got)
	}
}

// TestMPCD41ColumnAssemblyIsCTR: a column of the assembly (MPC-D41: the
// AES-256 key schedule on the stack, four counter blocks at a time) is
// the CTR stream of crypto/aes G(k, batch) byte for byte, for keys of
// every shape, at every length of the short path and past it, and for
// batches whose counter blocks differ in the high word only.
func TestMPCD41ColumnAssemblyIsCTR(t *testing.T) {
	if !hasColumnAsm {
		t.Skip("no AES-NI assembly here")
	}
	keys := []Key{{}, {0: 1}, {31: 0x80}}
	var k Key
	for i := range k {
		k[i] = byte(7*i + 3)
	}
	keys = append(keys, k)
	for i := range k {
		k[i] = 0xff - byte(i)
	}
	keys = append(keys, k)
	for _, k := range keys {
		c := columnCipher(k)
		for _, batch := range []uint32{0, 1, 7, 1 << 31, 1<<32 - 1} {
			for n := 0; n <= shortColumn+40; n++ {
				want := make([]byte, n)
				readColumnCTR(c, batch, want)
				got := bytes.Repeat([]byte{0xa5}, n)
				g := column{key: k}
				g.read(batch, got)
				if !bytes.Equal(got, want) {
					t.Fatalf("key %x, batch %d, %d bytes: the column differs from the CTR stream", k[:4], batch, n)
				}
			}
		}
	}
}
