package ot_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/internal/kat"
	"github.com/kakure/kakure/protocol/mpc/ot"
)

// reverseKeys runs a random OT batch of the extension (s, r) whose
// choices are the bits of the secrets, Kappa per secret, and returns per
// secret the receiver's keys and the sender's pairs: the base OTs of one
// extension per secret run the other way (MPC-D28), with the receiver of
// this batch as their sender. The request is returned too.
func reverseKeys(t testing.TB, s *ot.Sender, r *ot.Receiver, secrets []ot.Block) ([][]ot.Key, [][][2]ot.Key, []byte) {
	t.Helper()
	var choices []bool
	for _, d := range secrets {
		choices = append(choices, bitsOf(d)...)
	}
	req, err := r.Request(choices)
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := s.SendRandom(req)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := r.ReceiveRandom()
	if err != nil {
		t.Fatal(err)
	}
	outK, outP := make([][]ot.Key, len(secrets)), make([][][2]ot.Key, len(secrets))
	for i := range secrets {
		outK[i] = keys[i*ot.Kappa : (i+1)*ot.Kappa]
		outP[i] = pairs[i*ot.Kappa : (i+1)*ot.Kappa]
	}
	return outK, outP, req
}

func bitsOf(b ot.Block) []bool {
	out := make([]bool, ot.Kappa)
	for i := range out {
		out[i] = b[i/8]>>(i%8)&1 == 1
	}
	return out
}

// TestRandomOT (MPC-D28): a random OT batch gives the receiver the
// sender's key of its choice bit and never the other, with no reply, and
// the batch numbers of both sides move on together (the next batch is an
// ordinary one).
func TestRandomOT(t *testing.T) {
	s, r, _ := session(t, seedOf(31), seedOf(32))
	data := seedOf(33).Stream("data")
	for _, m := range []int{1, 100, 513} {
		choices := data.Bools(m)
		req, err := r.Request(choices)
		if err != nil {
			t.Fatal(err)
		}
		pairs, err := s.SendRandom(req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ReceiveRandom()
		if err != nil {
			t.Fatal(err)
		}
		seen := map[ot.Key]bool{}
		for j, c := range choices {
			if got[j] != pairs[j][b2i(c)] || got[j] == pairs[j][1-b2i(c)] {
				t.Fatalf("batch of %d, OT %d: the receiver's key is not the sender's key of its choice", m, j)
			}
			for _, k := range pairs[j] {
				if seen[k] {
					t.Fatalf("batch of %d, OT %d: a key repeats", m, j)
				}
				seen[k] = true
			}
		}
	}
	if _, err := r.ReceiveRandom(); !errors.Is(err, ot.ErrState) {
		t.Errorf("ReceiveRandom with no request pending: %v, want ErrState", err)
	}
	choices := data.Bools(20)
	pairs := randomPairs(data, 20)
	got, _ := transfer(t, s, r, choices, pairs)
	for j, c := range choices {
		if got[j] != pairs[j][b2i(c)] {
			t.Fatalf("ordinary batch after the random ones, OT %d: wrong message", j)
		}
	}
}

// TestCorrelatedOTFromReverseKeys (MPC-D28): extensions built from the
// keys of a random OT batch run the other way give the correlation of
// their secret, t_j = q_j ⊕ c_j·Δ, for every OT and both choices; and a
// judge that holds Δ and the sender's keys recomputes the sender's rows
// from the request alone.
func TestCorrelatedOTFromReverseKeys(t *testing.T) {
	// The garbler G is the receiver of the reverse extension, the
	// evaluator E its sender.
	eSender, gReceiver, _ := session(t, seedOf(41), seedOf(42))
	data := seedOf(43).Stream("data")
	deltas := make([]ot.Block, 4)
	for i := range deltas {
		deltas[i] = data.Block()
		deltas[i][0] |= 1
	}
	gKeys, ePairs, _ := reverseKeys(t, eSender, gReceiver, deltas)
	for i, delta := range deltas {
		session := []byte(fmt.Sprintf("game 1, try 3, garbling %d", i))
		recv, err := ot.NewReceiverFromKeys(seedOf(44).Derive("garbling", uint64(i)), session, ePairs[i])
		if err != nil {
			t.Fatal(err)
		}
		send, err := ot.NewSenderFromKeys(session, delta, gKeys[i])
		if err != nil {
			t.Fatal(err)
		}
		const m = 810
		choices := data.Bools(m)
		req, err := recv.Request(choices)
		if err != nil {
			t.Fatal(err)
		}
		q, err := send.Correlated(req)
		if err != nil {
			t.Fatalf("garbling %d: an honest request refused: %v", i, err)
		}
		tr, err := recv.Correlated()
		if err != nil {
			t.Fatal(err)
		}
		if len(q) != m || len(tr) != m {
			t.Fatalf("garbling %d: %d and %d rows, want %d", i, len(q), len(tr), m)
		}
		for j, c := range choices {
			want := q[j]
			if c {
				want = want.Xor(delta)
			}
			if tr[j] != want {
				t.Fatalf("garbling %d, OT %d (choice %v): t_j ≠ q_j ⊕ c_j·Δ", i, j, c)
			}
		}
		judged, err := ot.CorrelatedRows(session, delta, gKeys[i], req)
		if err != nil {
			t.Fatal(err)
		}
		for j := range q {
			if judged[j] != q[j] {
				t.Fatalf("garbling %d, OT %d: the judge's row differs from the sender's", i, j)
			}
		}
		// Another garbling's keys or another session give other rows.
		if other, err := ot.CorrelatedRows(session, delta, gKeys[(i+1)%len(deltas)], req); err == nil && other[0] == q[0] {
			t.Fatalf("garbling %d: the rows do not depend on the keys", i)
		}
	}
}

// TestCorrelatedOTWrongReverseChoice (MPC-D28): a garbler whose reverse
// choices are not the bits of the Δ it garbles with (one column off)
// holds a key its Δ does not select, and its own consistency check then
// refuses the evaluator's request whatever the evaluator's choice bits
// (all zeros, all ones, random): no OT of the garbling goes through, so
// the deviation cannot make a failure that depends on the evaluator's
// input. The evaluator, once the garbling is opened, sees that the
// garbler's keys are not those Δ selects (it holds both keys of each
// reverse OT).
func TestCorrelatedOTWrongReverseChoice(t *testing.T) {
	eSender, gReceiver, _ := session(t, seedOf(51), seedOf(52))
	data := seedOf(53).Stream("data")
	delta := data.Block()
	delta[0] |= 1
	chosen := delta
	chosen[5] ^= 1 << 3 // the garbler's choice for column 43 is not Δ's bit
	gKeys, ePairs, _ := reverseKeys(t, eSender, gReceiver, []ot.Block{chosen})
	const m = 300
	for n, choices := range [][]bool{make([]bool, m), allTrue(m), data.Bools(m)} {
		session := []byte(fmt.Sprintf("game 1, try %d, garbling 0", n))
		recv, _ := ot.NewReceiverFromKeys(seedOf(54), session, ePairs[0])
		req, err := recv.Request(choices)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ot.CorrelatedRows(session, delta, gKeys[0], req); !errors.Is(err, ot.ErrConsistency) {
			t.Fatalf("choices %d: the garbler's wrong keys: %v, want its check to refuse", n, err)
		}
	}
	bits := bitsOf(delta)
	differ := 0
	for k, p := range ePairs[0] {
		if gKeys[0][k] != p[b2i(bits[k])] {
			differ++
		}
	}
	if differ != 1 {
		t.Errorf("%d of the garbler's keys differ from those Δ selects, want 1", differ)
	}
}

func allTrue(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}

// TestCorrelatedOTProbingRefused (MPC-D28, T-8(a)): the sender of an
// extension built from keys runs the KOS check: a request whose columns
// were changed after its check values is refused with ErrConsistency,
// and so is every later call.
func TestCorrelatedOTProbingRefused(t *testing.T) {
	eSender, gReceiver, _ := session(t, seedOf(61), seedOf(62))
	data := seedOf(63).Stream("data")
	delta := data.Block()
	delta[0] |= 1
	gKeys, ePairs, _ := reverseKeys(t, eSender, gReceiver, []ot.Block{delta})
	session := []byte("game 1, try 0, garbling 1")
	recv, _ := ot.NewReceiverFromKeys(seedOf(64), session, ePairs[0])
	req, err := recv.Request(data.Bools(100))
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), req...)
	bad[11+3] ^= 0x10 // a bit of the first column
	send, _ := ot.NewSenderFromKeys(session, delta, gKeys[0])
	if _, err := send.Correlated(bad); !errors.Is(err, ot.ErrConsistency) {
		t.Fatalf("a changed column: %v, want ErrConsistency", err)
	}
	if _, err := send.Correlated(req); !errors.Is(err, ot.ErrConsistency) {
		t.Fatalf("after a refusal: %v, want ErrConsistency", err)
	}
	if _, err := ot.NewSenderFromKeys(session, delta, gKeys[0][:5]); !errors.Is(err, ot.ErrInput) {
		t.Errorf("5 keys: %v, want ErrInput", err)
	}
	if _, err := ot.NewReceiverFromKeys(seedOf(1), session, ePairs[0][:127]); !errors.Is(err, ot.ErrInput) {
		t.Errorf("127 pairs: %v, want ErrInput", err)
	}
}

// TestKATCorrelatedOT (MPC-D28, T-8(c)): fixed seeds give a fixed random
// OT batch request and keys, and fixed correlated requests and rows
// (testdata/kat-cot.txt).
func TestKATCorrelatedOT(t *testing.T) {
	got := map[string][]byte{}
	eSender, gReceiver, _ := session(t, seedOf(81), seedOf(82))
	data := seedOf(83).Stream("kat/data")
	deltas := []ot.Block{data.Block(), data.Block()}
	gKeys, ePairs, rreq := reverseKeys(t, eSender, gReceiver, deltas)
	got["cot/reverse-request"] = rreq
	for i := range deltas {
		var ks []byte
		for _, k := range gKeys[i] {
			ks = append(ks, k[:]...)
		}
		got[fmt.Sprintf("cot/garbling-%d/keys", i)] = ks
		session := []byte(fmt.Sprintf("kat garbling %d", i))
		recv, _ := ot.NewReceiverFromKeys(seedOf(84).Derive("g", uint64(i)), session, ePairs[i])
		req, err := recv.Request(data.Bools(77))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := ot.CorrelatedRows(session, deltas[i], gKeys[i], req)
		if err != nil {
			t.Fatal(err)
		}
		var rb []byte
		for _, q := range rows {
			rb = append(rb, q[:]...)
		}
		got[fmt.Sprintf("cot/garbling-%d/request", i)] = req
		got[fmt.Sprintf("cot/garbling-%d/rows", i)] = rb
	}
	kat.Check(t, "testdata/kat-cot.txt", got)
}

// TestRequestPaddedChoicesVerifiable (MPC-D28, T-8(b)): a request made
// with pad bits the caller gives passes the sender's check and gives
// the keys of its choices; its check value x is the public
// recomputation from its choices and pad ([ot.CheckValue]), so
// VerifyChoices accepts exactly those bits and refuses the request
// against any other choice or pad bit (ErrChoices). A receiver whose
// columns carry other choices than the ones it claims, with x forged
// for the claimed ones, fails the sender's consistency check at once.
// Malformed bits or requests are told apart from a mismatch.
func TestRequestPaddedChoicesVerifiable(t *testing.T) {
	const sess = "game 1, garbler A"
	data := seedOf(41).Stream("data")
	for trial := range 8 {
		s, r, _ := session(t, seedOf(byte(50+trial)), seedOf(byte(60+trial)))
		choices, pad := data.Bools(ot.Kappa), data.Bools(ot.KOSPad)
		bits := append(append([]bool(nil), choices...), pad...)
		if _, err := r.RequestPadded(choices, pad[:ot.KOSPad-1]); !errors.Is(err, ot.ErrInput) {
			t.Fatalf("a short pad: %v", err)
		}
		req, err := r.RequestPadded(choices, pad)
		if err != nil {
			t.Fatal(err)
		}
		if b, m, err := ot.RequestHeader(req); err != nil || b != 0 || m != ot.Kappa {
			t.Fatalf("header: batch %d, %d OTs, %v", b, m, err)
		}
		if err := ot.VerifyChoices([]byte(sess), req, bits); err != nil {
			t.Fatalf("the honest choices: %v", err)
		}
		x, err := ot.CheckValue([]byte(sess), req, bits)
		if err != nil || ot.Block(req[len(req)-32:len(req)-16]) != x {
			t.Fatalf("CheckValue is not the request's x (%v)", err)
		}
		for _, k := range []int{0, 77, ot.Kappa - 1, ot.Kappa, ot.Kappa + ot.KOSPad - 1} {
			other := append([]bool(nil), bits...)
			other[k] = !other[k]
			if err := ot.VerifyChoices([]byte(sess), req, other); !errors.Is(err, ot.ErrChoices) {
				t.Fatalf("bit %d flipped: %v, want ErrChoices", k, err)
			}
		}
		if err := ot.VerifyChoices([]byte("another session"), req, bits); !errors.Is(err, ot.ErrChoices) {
			t.Fatalf("another session: %v", err)
		}
		if err := ot.VerifyChoices([]byte(sess), req, bits[1:]); !errors.Is(err, ot.ErrInput) {
			t.Fatalf("bits of the wrong length: %v", err)
		}
		if err := ot.VerifyChoices([]byte(sess), req[:len(req)-1], bits); !errors.Is(err, ot.ErrMessage) {
			t.Fatalf("a cut request: %v", err)
		}
		pairs, err := s.SendRandom(req)
		if err != nil {
			t.Fatalf("the sender refuses a padded request: %v", err)
		}
		keys, err := r.ReceiveRandom()
		if err != nil {
			t.Fatal(err)
		}
		for j, c := range choices {
			if keys[j] != pairs[j][b2i(c)] {
				t.Fatalf("OT %d: not the key of the choice", j)
			}
		}
		// The cheater: columns of other choices (one bit off), x of the
		// claimed ones.
		wrong := append([]bool(nil), choices...)
		wrong[trial*13] = !wrong[trial*13]
		forged, err := r.RequestPadded(wrong, pad)
		if err != nil {
			t.Fatal(err)
		}
		if err := ot.VerifyChoices([]byte(sess), forged, bits); !errors.Is(err, ot.ErrChoices) {
			t.Fatalf("the honest x of other choices against the claimed ones: %v", err)
		}
		claimed, err := ot.CheckValue([]byte(sess), forged, bits)
		if err != nil {
			t.Fatal(err)
		}
		copy(forged[len(forged)-32:], claimed[:])
		if err := ot.VerifyChoices([]byte(sess), forged, bits); err != nil {
			t.Fatalf("the forged x: %v", err)
		}
		if err := s.Check(forged); !errors.Is(err, ot.ErrConsistency) {
			t.Fatalf("columns of other choices with x of the claimed ones pass the check: %v", err)
		}
	}
}
