package shortsha

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// paths runs f with the SHA-NI routine (where the processor has it) and
// with crypto/sha256.
func paths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	saved := useSHANI
	t.Cleanup(func() { useSHANI = saved })
	for _, on := range []bool{saved, false} {
		useSHANI = on
		name := "crypto-sha256"
		if on {
			name = "sha-ni"
		}
		t.Run(name, f)
	}
}

// TestMPCD57SumsAreSHA256 holds Sums to crypto/sha256 on every message
// length 0 … MaxLen and every count 0 … 37 (odd and even, the last block
// alone), with random messages and stale bytes past each message in the
// blocks before Pad.
func TestMPCD57SumsAreSHA256(t *testing.T) {
	if !useSHANI {
		t.Log("no SHA extensions here: only crypto/sha256's path runs")
	}
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(57, 1))
		for count := range 38 {
			for n := range MaxLen + 1 {
				blocks := make([]Block, count)
				msgs := make([][]byte, count)
				for i := range blocks {
					for j := range blocks[i] {
						blocks[i][j] = byte(r.Uint32())
					}
					m := n
					if i%3 == 1 {
						m = r.IntN(MaxLen + 1) // lengths mixed in one call
					}
					msgs[i] = append([]byte(nil), blocks[i][:m]...)
					blocks[i].Pad(m)
				}
				out := make([][32]byte, count)
				Sums(out, blocks)
				for i := range out {
					if want := sha256.Sum256(msgs[i]); out[i] != want {
						t.Fatalf("%d blocks, message %d of %d bytes: %x, want %x", count, i, len(msgs[i]), out[i], want)
					}
				}
			}
		}
	})
}

// TestMPCD57KnownAnswers: FIPS 180-2's "abc" and the empty message.
func TestMPCD57KnownAnswers(t *testing.T) {
	paths(t, func(t *testing.T) {
		var b [3]Block
		copy(b[0][:], "abc")
		b[0].Pad(3)
		b[1].Pad(0)
		copy(b[2][:], "abc")
		b[2].Pad(3)
		type digest [32]byte
		out := make([]digest, 3)
		Sums(out, b[:])
		for i, want := range []string{
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
			"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		} {
			if got := sprintHex(out[i][:]); got != want {
				t.Errorf("digest %d: %s, want %s", i, got, want)
			}
		}
	})
}

func sprintHex(b []byte) string {
	const hexdigits = "0123456789abcdef"
	s := make([]byte, 0, 2*len(b))
	for _, c := range b {
		s = append(s, hexdigits[c>>4], hexdigits[c&15])
	}
	return string(s)
}

// TestMPCD57RefusesWhatIsNotOneBlock: Pad panics past MaxLen, and Sums on a
// block Pad did not pad panics on crypto/sha256's path rather than hash
// some other message; different lengths panic too.
func TestMPCD57RefusesWhatIsNotOneBlock(t *testing.T) {
	panics := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	var b Block
	panics("Pad(56)", func() { b.Pad(MaxLen + 1) })
	panics("Pad(-1)", func() { b.Pad(-1) })
	panics("two blocks, one digest", func() { Sums(make([][32]byte, 1), make([]Block, 2)) })
	saved := useSHANI
	defer func() { useSHANI = saved }()
	useSHANI = false
	panics("an unpadded block", func() { Sums(make([][32]byte, 1), make([]Block, 1)) })
}

// FuzzMPCD57Sums: any messages of one block, any count.
func FuzzMPCD57Sums(f *testing.F) {
	f.Add([]byte("abc"), uint8(3), uint8(1))
	f.Add(make([]byte, 200), uint8(52), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, n, count uint8) {
		m := int(n) % (MaxLen + 1)
		blocks := make([]Block, int(count)%20)
		msgs := make([][]byte, len(blocks))
		for i := range blocks {
			msg := make([]byte, m)
			if len(data) > 0 {
				for j := range msg {
					msg[j] = data[(i*m+j)%len(data)]
				}
			}
			msgs[i] = msg
			copy(blocks[i][:], msg)
			blocks[i].Pad(m)
		}
		out := make([][32]byte, len(blocks))
		Sums(out, blocks)
		for i := range out {
			if out[i] != sha256.Sum256(msgs[i]) {
				t.Fatalf("message %d of %d bytes", i, m)
			}
		}
	})
}

// BenchmarkSums: 64 label-sized messages (52 bytes) a call, against
// crypto/sha256.Sum256 on each (MPC-D57).
func BenchmarkSums(b *testing.B) {
	blocks := make([]Block, 64)
	for i := range blocks {
		blocks[i][0] = byte(i)
		blocks[i].Pad(52)
	}
	out := make([][32]byte, len(blocks))
	b.Run("shortsha", func(b *testing.B) {
		for b.Loop() {
			Sums(out, blocks)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(blocks)), "ns/digest")
	})
	b.Run("crypto-sha256", func(b *testing.B) {
		for b.Loop() {
			for i := range blocks {
				out[i] = sha256.Sum256(blocks[i][:52])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(blocks)), "ns/digest")
	})
}
