package ot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/prg"
)

// gfMulReference multiplies in GF(2^128) bit by bit: for each bit of b,
// add a, then a ← a·X reduced by X^128 + X^7 + X^2 + X + 1.
func gfMulReference(a, b Block) Block {
	lo, hi := binary.LittleEndian.Uint64(a[:8]), binary.LittleEndian.Uint64(a[8:])
	var rlo, rhi uint64
	for i := range 128 {
		if b[i/8]>>(i%8)&1 == 1 {
			rlo ^= lo
			rhi ^= hi
		}
		carry := hi >> 63
		hi = hi<<1 | lo>>63
		lo <<= 1
		if carry == 1 {
			lo ^= 0x87
		}
	}
	var out Block
	binary.LittleEndian.PutUint64(out[:8], rlo)
	binary.LittleEndian.PutUint64(out[8:], rhi)
	return out
}

// TestGF128 checks the product of the consistency check against the
// bit-by-bit reference, and that sums of products reduce as the sum of
// the reduced products (the check sums unreduced).
func TestGF128(t *testing.T) {
	r := prg.Seed{1}.Stream("gf128")
	edge := []Block{{}, {1}, {0: 0x80, 15: 0x80}, {15: 0x80}}
	for k := range 2000 {
		a, b := r.Block(), r.Block()
		if k < len(edge)*len(edge) {
			a, b = edge[k/len(edge)], edge[k%len(edge)]
		}
		var w wide
		w.mulAdd(a, b)
		if got, want := w.reduce(), gfMulReference(a, b); got != want {
			t.Fatalf("%x · %x = %x, want %x", a, b, got, want)
		}
	}
	var w wide
	var sum Block
	for range 50 {
		a, b := r.Block(), r.Block()
		w.mulAdd(a, b)
		sum = sum.Xor(gfMulReference(a, b))
	}
	if w.reduce() != sum {
		t.Fatal("the reduced sum of products is not the sum of the reduced products")
	}
}

func kosSession(t *testing.T, n int) (*Sender, *Receiver, [2][]byte, prg.Seed) {
	t.Helper()
	return kosSessionOf(t, n, Kappa)
}

// kosSessionOf is kosSession for an extension of kappa columns (Kappa,
// or KappaMAC: NewMACSender and NewMACReceiver).
func kosSessionOf(t *testing.T, n, kappa int) (*Sender, *Receiver, [2][]byte, prg.Seed) {
	t.Helper()
	sSeed := prg.Seed{2}.Derive("kos sender", uint64(n))
	session := []byte("kos test session")
	s := NewSender(sSeed, session)
	r := NewReceiver(prg.Seed{3}.Derive("kos receiver", uint64(n)), session)
	if kappa == KappaMAC {
		s = NewMACSender(sSeed, session)
		r = NewMACReceiver(prg.Seed{3}.Derive("kos receiver", uint64(n)), session)
	}
	m1, err := r.BaseStart()
	if err != nil {
		t.Fatal(err)
	}
	m2, err := s.BaseRespond(m1)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.BaseFinish(m2); err != nil {
		t.Fatal(err)
	}
	return s, r, [2][]byte{m1, m2}, sSeed
}

// TestT8KOSRefusesProbingReceiver is the IKNP probing attack of issue 16
// (T-8(a)): a cheating evaluator gives row j of its OT extension matrix a
// choice vector of weight 8 (it flips bit j of 8 columns u_i), so that
// each of its 2^8 candidates for the label of OT j tests 8 bits of the
// garbler's secret s. To pass the KOS15 check it must add χ_j·g to its
// check value t for a guess g of those 8 bits of s; the sender refuses
// the request exactly when the guess is wrong (a blind guess is right
// with probability 2^-8), at once, before answering, and refuses every
// later call. The refusal is proven by VerifyRefusal from the signed
// messages and the sender's revealed seed; an honest request never is,
// whatever seed the sender reveals. The same in an extension of KappaMAC
// columns (MPC-D32), whose correlated OTs replace the hashed ones.
func TestT8KOSRefusesProbingReceiver(t *testing.T) {
	for _, kappa := range []int{Kappa, KappaMAC} {
		t.Run(fmt.Sprintf("kappa-%d", kappa), func(t *testing.T) { probingReceiver(t, kappa) })
	}
}

func probingReceiver(t *testing.T, kappa int) {
	const m = 100
	refused, passed := 0, 0
	for trial := range 24 {
		s, r, base, sSeed := kosSessionOf(t, trial, kappa)
		data := prg.Seed{4}.Stream("kos data", uint64(trial))
		// An honest batch first: the check passes and proves nothing.
		honest, err := r.Request(data.Bools(m))
		if err != nil {
			t.Fatal(err)
		}
		if kappa == Kappa {
			reply, err := s.Send(honest, make([][2]Block, m))
			if err != nil {
				t.Fatalf("trial %d: honest request refused: %v", trial, err)
			}
			if _, err := r.Receive(reply); err != nil {
				t.Fatal(err)
			}
		} else {
			if _, err := s.Correlated(honest); err != nil {
				t.Fatalf("trial %d: honest request refused: %v", trial, err)
			}
			if _, err := r.Correlated(); err != nil {
				t.Fatal(err)
			}
		}
		if err := VerifyRefusal(s.session, sSeed, base[0], base[1], honest); err == nil {
			t.Fatalf("trial %d: an honest request is proven inconsistent", trial)
		}

		// The probing row.
		j := data.Intn(m)
		var e Block
		for w := 0; w < 8; {
			i := data.Intn(kappa)
			if e[i/8]>>(i%8)&1 == 0 {
				e[i/8] |= 1 << (i % 8)
				w++
			}
		}
		var secretBits Block // e ⊙ s, what the guess must be
		for k := range e {
			secretBits[k] = e[k] & s.secret[k]
		}
		guess := secretBits
		if trial%4 != 0 { // a blind guess; every fourth trial guesses right
			g := data.Block()
			for k := range guess {
				guess[k] = e[k] & g[k]
			}
		}
		req, err := r.request(data.Bools(m), nil, func(cols []byte, nb int) func(chi []Block) Block {
			for i := range kappa {
				if e[i/8]>>(i%8)&1 == 1 {
					cols[i*nb+j/8] ^= 1 << (j % 8)
				}
			}
			return func(chi []Block) Block {
				var w wide
				w.mulAdd(chi[j], guess)
				return w.reduce()
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Check(req)
		if guess != secretBits {
			refused++
			if !errors.Is(err, ErrConsistency) {
				t.Fatalf("trial %d: a weight-8 probing row with a wrong guess: %v, want ErrConsistency", trial, err)
			}
			if _, err := s.Correlated(req); !errors.Is(err, ErrConsistency) {
				t.Fatalf("trial %d: Correlated after the refusal: %v, want ErrConsistency", trial, err)
			}
			if err := VerifyRefusal(s.session, sSeed, base[0], base[1], req); err != nil {
				t.Fatalf("trial %d: the refusal is not proven: %v", trial, err)
			}
			// A sender that reveals another seed proves nothing.
			if err := VerifyRefusal(s.session, sSeed.Derive("other"), base[0], base[1], req); err == nil {
				t.Fatalf("trial %d: a refusal proven with a seed that does not give the base OT answer", trial)
			}
		} else {
			passed++
			if err != nil {
				t.Fatalf("trial %d: the right guess of 8 bits of s is refused: %v (the check is not the KOS check)", trial, err)
			}
			if err := VerifyRefusal(s.session, sSeed, base[0], base[1], req); err == nil {
				t.Fatalf("trial %d: a request that passes is proven inconsistent", trial)
			}
		}
	}
	if refused == 0 || passed == 0 {
		t.Fatalf("%d refused and %d passed: the test did not try both", refused, passed)
	}
	t.Logf("κ = %d, weight-8 probing rows: %d refused at once, %d passed with the right guess of 8 bits of s (a blind guess: 2^-8)", kappa, refused, passed)
}

// TestT8CLMULMatchesPureGo checks that the sums of GF(2^128) products of
// the KOS check (T-8(a)) are the same with PCLMULQDQ as in pure Go, on
// random blocks and lengths 0 to 300, all-ones blocks included; and that
// a request made on one path passes the check on the other.
func TestT8CLMULMatchesPureGo(t *testing.T) {
	if !hasCLMUL {
		t.Skip("no PCLMULQDQ path on this machine (or the purego build tag)")
	}
	defer func(v bool) { useCLMUL = v }(useCLMUL)
	st := prg.Seed{7}.Stream("clmul")
	for n := range 301 {
		a, b := make([]Block, n), make([]Block, n)
		for j := range a {
			a[j], b[j] = st.Block(), st.Block()
			if j%37 == 5 {
				a[j], b[j] = Block{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, a[j]
			}
		}
		var fast, slow wide
		fast[1], slow[1] = 3, 3 // sums add to what is there
		useCLMUL = true
		fast.mulAdds(a, b)
		useCLMUL = false
		slow.mulAdds(a, b)
		if fast != slow {
			t.Fatalf("n = %d: PCLMULQDQ gives %x, pure Go %x", n, fast, slow)
		}
	}
	for _, recv := range []bool{true, false} {
		useCLMUL = recv
		s, r, _, _ := kosSession(t, 99)
		req, err := r.Request(st.Bools(100))
		if err != nil {
			t.Fatal(err)
		}
		useCLMUL = !recv
		if err := s.Check(req); err != nil {
			t.Fatalf("a request made with PCLMULQDQ %v fails the check made with it %v: %v", recv, !recv, err)
		}
	}
}

// BenchmarkKOSSums times the sum of products of the consistency check
// of a 9×9 checked try's batch (3,436 + 4 OTs and the KOSPad rows), with
// PCLMULQDQ and in pure Go.
func BenchmarkKOSSums(b *testing.B) {
	st := prg.Seed{8}.Stream("bench")
	n := 3440 + KOSPad
	x, y := make([]Block, n), make([]Block, n)
	for j := range x {
		x[j], y[j] = st.Block(), st.Block()
	}
	defer func(v bool) { useCLMUL = v }(useCLMUL)
	for _, fast := range []bool{true, false} {
		name := "purego"
		if fast {
			if !hasCLMUL {
				continue
			}
			name = "pclmulqdq"
		}
		b.Run(name, func(b *testing.B) {
			useCLMUL = fast
			for b.Loop() {
				var w wide
				w.mulAdds(x, y)
				_ = w.reduce()
			}
		})
	}
}

// TestT8CheckCacheMatchesTheRequest: the sender keeps the rows of the
// request it last checked so that Check then Send of the same request
// checks it once (MPC-D8); the cache must be matched on the request's
// bytes. A receiver that has a request checked and then sends another of
// the same batch and the same size (one column byte or one byte of the
// check value t changed, as a probing row would change it) is refused
// with ErrConsistency, and refused again thereafter, as if the second
// request had come first; the honest request, sent twice, is answered
// from the cache with the same reply as a fresh sender gives.
func TestT8CheckCacheMatchesTheRequest(t *testing.T) {
	const m = 64
	for _, where := range []string{"column", "t"} {
		s, r, _, _ := kosSession(t, 1000)
		honest, err := r.Request(prg.Seed{5}.Stream("cache data").Bools(m))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Check(honest); err != nil {
			t.Fatalf("%s: the honest request refused: %v", where, err)
		}
		other := append([]byte(nil), honest...)
		switch where {
		case "column":
			other[batchHeader+3] ^= 0x10
		case "t":
			other[len(other)-1] ^= 1
		}
		if len(other) != len(honest) {
			t.Fatal("the changed request has another size")
		}
		if _, err := s.Send(other, make([][2]Block, m)); !errors.Is(err, ErrConsistency) {
			t.Fatalf("%s: a request changed after another was checked: %v, want ErrConsistency (the check's cache matched another request)", where, err)
		}
		if err := s.Check(honest); !errors.Is(err, ErrConsistency) {
			t.Fatalf("%s: after the refusal: %v, want ErrConsistency", where, err)
		}
	}
	// The cache itself: Check then Send of the same bytes gives the reply
	// of a sender that only sends.
	pairs := make([][2]Block, m)
	for j := range pairs {
		pairs[j] = [2]Block{{byte(j)}, {byte(j), 1}}
	}
	var replies [2][]byte
	for k := range replies {
		s, r, _, _ := kosSession(t, 1001)
		req, err := r.Request(prg.Seed{6}.Stream("cache data").Bools(m))
		if err != nil {
			t.Fatal(err)
		}
		if k == 1 {
			if err := s.Check(req); err != nil {
				t.Fatal(err)
			}
		}
		if replies[k], err = s.Send(req, pairs); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(replies[0], replies[1]) {
		t.Fatal("a checked request is answered otherwise than an unchecked one")
	}
}
