package ot

import (
	"errors"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/prg"
)

// TestMPCD32MACExtension: an extension of KappaMAC columns (the MAC
// extension of MPC-D32) runs 64 base OTs, and each batch of m
// correlated OTs is a request of 64 columns (its own kind, RequestColumns
// 64, RequestSizeKappa(64, m) bytes) after which the receiver's rows are
// t_j = q_j ⊕ c_j·s: the MACs of its choices under the sender's 64-bit
// key s, whose high 64 bits, and every row's, are zero. The KOS check
// and the public check value are those of the 128-column extension (in
// GF(2^128)): VerifyChoices accepts the choices and refuses any other.
// The machines of one width refuse the other's requests, and the
// narrow ones refuse hashed OTs, whose keys would rest on 64 bits.
func TestMPCD32MACExtension(t *testing.T) {
	s, r, base, _ := kosSessionOf(t, 31, KappaMAC)
	if len(base[1]) != baseReceiverHeader+KappaMAC*pointSize {
		t.Fatalf("a base OT answer of %d bytes, want %d OTs", len(base[1]), KappaMAC)
	}
	key := s.Secret()
	if [8]byte(key[8:]) != [8]byte{} || [8]byte(key[:8]) == [8]byte{} {
		t.Fatalf("MAC key %x: want 64 bits, the high ones zero", key)
	}
	data := prg.Seed{9}.Stream("mac data")
	for batch, m := range []int{1, 63, 64, 65, 1620} {
		choices := data.Bools(m)
		req, err := r.Request(choices)
		if err != nil {
			t.Fatal(err)
		}
		if len(req) != RequestSizeKappa(KappaMAC, m) || RequestColumns(req) != KappaMAC || req[2] != kindRequestMAC {
			t.Fatalf("m = %d: a request of %d bytes, %d columns, kind %d", m, len(req), RequestColumns(req), req[2])
		}
		if b, n, err := RequestHeader(req); err != nil || b != uint32(batch) || n != m {
			t.Fatalf("m = %d: header batch %d, %d OTs, %v", m, b, n, err)
		}
		wide := NewSender(prg.Seed{2}.Derive("kos sender", 31), []byte("kos test session"))
		if _, err := wide.BaseRespond(base[0]); err != nil {
			t.Fatal(err)
		}
		wide.batch = uint32(batch)
		if _, err := wide.Correlated(req); !errors.Is(err, ErrMessage) {
			t.Fatalf("m = %d: a 128-column sender takes a 64-column request: %v", m, err)
		}
		q, err := s.Correlated(req)
		if err != nil {
			t.Fatalf("m = %d: an honest request refused: %v", m, err)
		}
		tr, err := r.Correlated()
		if err != nil {
			t.Fatal(err)
		}
		for j, c := range choices {
			want := q[j]
			if c {
				want = want.Xor(key)
			}
			if tr[j] != want || [8]byte(tr[j][8:]) != [8]byte{} {
				t.Fatalf("m = %d: row %d is %x, want q ⊕ c·s = %x", m, j, tr[j], want)
			}
		}
	}

	// The public check value of a padded request.
	choices, pad := data.Bools(100), data.Bools(KOSPad)
	bits := append(append([]bool(nil), choices...), pad...)
	req, err := r.RequestPadded(choices, pad)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyChoices(s.session, req, bits); err != nil {
		t.Fatalf("the honest choices: %v", err)
	}
	other := append([]bool(nil), bits...)
	other[7] = !other[7]
	if err := VerifyChoices(s.session, req, other); !errors.Is(err, ErrChoices) {
		t.Fatalf("a choice flipped: %v, want ErrChoices", err)
	}
	if _, err := s.Correlated(req); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Correlated(); err != nil {
		t.Fatal(err)
	}
	// Columns of other choices with the x of the claimed ones: refused.
	wrong := append([]bool(nil), choices...)
	wrong[3] = !wrong[3]
	forged, err := r.RequestPadded(wrong, pad)
	if err != nil {
		t.Fatal(err)
	}
	claimed, err := CheckValue(s.session, forged, bits)
	if err != nil {
		t.Fatal(err)
	}
	copy(forged[len(forged)-checkSize:], claimed[:])
	if err := s.Check(forged); !errors.Is(err, ErrConsistency) {
		t.Fatalf("columns of other choices with x of the claimed ones: %v, want ErrConsistency", err)
	}

	// Hashed OTs refused on both sides; a 128-column request refused.
	s2, r2, _, _ := kosSessionOf(t, 32, KappaMAC)
	req2, err := r2.Request(data.Bools(10))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Send(req2, make([][2]Block, 10)); !errors.Is(err, ErrState) {
		t.Errorf("Send: %v, want ErrState", err)
	}
	if _, err := s2.SendRandom(req2); !errors.Is(err, ErrState) {
		t.Errorf("SendRandom: %v, want ErrState", err)
	}
	if _, err := s2.SendCorrelated(req2, make([]Block, 10), Block{1}); !errors.Is(err, ErrState) {
		t.Errorf("SendCorrelated: %v, want ErrState", err)
	}
	if _, err := r2.Receive(make([]byte, ReplySize(10))); !errors.Is(err, ErrState) {
		t.Errorf("Receive: %v, want ErrState", err)
	}
	if _, err := r2.ReceiveRandom(); !errors.Is(err, ErrState) {
		t.Errorf("ReceiveRandom: %v, want ErrState", err)
	}
	_, rw, _, _ := kosSessionOf(t, 33, Kappa)
	wideReq, err := rw.Request(data.Bools(10))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Correlated(wideReq); !errors.Is(err, ErrMessage) {
		t.Errorf("a 64-column sender takes a 128-column request: %v", err)
	}
}

// TestMPCD32MACKeyBits: the MAC key of a MAC extension is 64 uniform
// bits (from the sender's seed, as the 128-bit secret is, cut to its
// low half): over 64 seeds every one of the 64 bits takes both values,
// and the high 64 are always zero. A key of fewer bits would be forged
// with more than 2^-64.
func TestMPCD32MACKeyBits(t *testing.T) {
	var ones, zeros Block
	for i := range 64 {
		s := NewMACSender(prg.Seed{5}.Derive("mac key", uint64(i)), []byte("mac key session"))
		r := NewMACReceiver(prg.Seed{6}.Derive("mac key", uint64(i)), []byte("mac key session"))
		m1, err := r.BaseStart()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.BaseRespond(m1); err != nil {
			t.Fatal(err)
		}
		k := s.Secret()
		for b := range k {
			ones[b] |= k[b]
			zeros[b] |= ^k[b]
		}
	}
	for i := range 128 {
		one, zero := ones[i/8]>>(i%8)&1 == 1, zeros[i/8]>>(i%8)&1 == 1
		if i < KappaMAC && (!one || !zero) || i >= KappaMAC && one {
			t.Errorf("key bit %d: one in some key %v, zero in some key %v", i, one, zero)
		}
	}
}

// TestCorrelatedBatchesMatchOneByOne: the batches made and checked at
// once (CorrelatedRequests, CorrelatedBatches, the MAC sub-batches of a
// try, MPC-D32) are byte for byte those of RequestPadded and Correlated
// called in order, at either width; a request that fails in the middle
// leaves the sender as the calls in order would — the batches before it
// taken, refused from there on (ErrConsistency) or ready for that batch
// again (ErrMessage) — and arguments of the wrong size leave the
// receiver as it was.
func TestCorrelatedBatchesMatchOneByOne(t *testing.T) {
	for _, kappa := range []int{Kappa, KappaMAC} {
		data := prg.Seed{10}.Stream("batches", uint64(kappa))
		choices, pads := make([][]bool, 4), make([][]bool, 4)
		for i := range choices {
			choices[i], pads[i] = data.Bools(100+37*i), data.Bools(KOSPad)
		}
		// In order, on one pair of machines; at once, on another made
		// from the same seeds.
		s1, r1, _, _ := kosSessionOf(t, 40, kappa)
		s2, r2, _, _ := kosSessionOf(t, 40, kappa)
		if _, _, err := r2.CorrelatedRequests(choices, append(pads[:3:3], pads[3][1:])); !errors.Is(err, ErrInput) || r2.batch != 0 {
			t.Fatalf("κ = %d: a short pad: %v, batch %d", kappa, err, r2.batch)
		}
		reqs, rows, err := r2.CorrelatedRequests(choices, pads)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s2.CorrelatedBatches(reqs)
		if err != nil {
			t.Fatalf("κ = %d: %v", kappa, err)
		}
		for i := range choices {
			req, err := r1.RequestPadded(choices[i], pads[i])
			if err != nil {
				t.Fatal(err)
			}
			t1, err := r1.Correlated()
			if err != nil {
				t.Fatal(err)
			}
			q1, err := s1.Correlated(req)
			if err != nil {
				t.Fatal(err)
			}
			if string(req) != string(reqs[i]) || len(t1) != len(rows[i]) || len(q1) != len(got[i]) {
				t.Fatalf("κ = %d: batch %d differs", kappa, i)
			}
			for j := range t1 {
				if t1[j] != rows[i][j] || q1[j] != got[i][j] {
					t.Fatalf("κ = %d: batch %d, row %d differs", kappa, i, j)
				}
			}
		}
		if r2.batch != 4 || s2.batch != 4 {
			t.Fatalf("κ = %d: batches %d and %d after four", kappa, r2.batch, s2.batch)
		}

		// A malformed request in the middle, then an inconsistent one.
		reqs, _, err = r2.CorrelatedRequests(choices, pads)
		if err != nil {
			t.Fatal(err)
		}
		bad := append([][]byte(nil), reqs...)
		bad[1] = bad[1][:len(bad[1])-1]
		if got, err := s2.CorrelatedBatches(bad); !errors.Is(err, ErrMessage) || len(got) != 1 || s2.batch != 5 {
			t.Fatalf("κ = %d: a malformed second request: %v, %d taken, batch %d", kappa, err, len(got), s2.batch)
		}
		probed := append([]byte(nil), reqs[2]...)
		probed[batchHeader+5] ^= 0x10 // one bit of one column: a probing row
		if got, err := s2.CorrelatedBatches([][]byte{reqs[1], probed, reqs[3]}); !errors.Is(err, ErrConsistency) || len(got) != 1 || s2.batch != 6 {
			t.Fatalf("κ = %d: an inconsistent request: %v, %d taken, batch %d", kappa, err, len(got), s2.batch)
		}
		if _, err := s2.CorrelatedBatches([][]byte{reqs[2]}); !errors.Is(err, ErrConsistency) {
			t.Fatalf("κ = %d: after the refusal: %v", kappa, err)
		}
	}
}
