package referee

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// TestMPCD45Sha256ShortIsSHA256: Sum is crypto/sha256.Sum256 for messages of
// every length from 0 to past shortMaxLen, of random bytes and of all-ones
// bytes, on the assembly path where the processor has it (MPC-D45).
func TestMPCD45Sha256ShortIsSHA256(t *testing.T) {
	t.Logf("SHA extensions: %v", hasSHANI)
	rng := rand.New(rand.NewPCG(45, 0))
	for n := 0; n <= shortMaxLen+20; n++ {
		for trial := range 50 {
			msg := make([]byte, n)
			for i := range msg {
				msg[i] = byte(rng.Uint32())
				if trial == 0 {
					msg[i] = 0xff
				}
			}
			if got, want := sha256Short(msg), sha256.Sum256(msg); got != want {
				t.Fatalf("%d bytes (trial %d): %x, want %x", n, trial, got, want)
			}
		}
	}
}

var shortSink [32]byte

// BenchmarkSha256Short compares sha256Short with crypto/sha256.Sum256 on a label
// commitment's 52 bytes.
func BenchmarkSha256Short(b *testing.B) {
	var msg [52]byte
	b.Run("one-block", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			msg[0] = byte(i)
			shortSink = sha256Short(msg[:])
		}
	})
	b.Run("crypto-sha256", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			msg[0] = byte(i)
			shortSink = sha256.Sum256(msg[:])
		}
	})
}
