package ot

import (
	"crypto/sha256"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/prg"
)

// TestMPCD61RandomKeysBatched (MPC-D61): the keys of random OTs hashed
// in batches through shortsha are SHA-256(randomKeyTag ‖ h) of each
// hash h, for every count of OTs around the batch's edges, on both
// sides: SendRandom's pair is the keys of H(q) and H(q ⊕ s) with the
// OT's tweak, ReceiveRandom's key the one of the receiver's choice.
func TestMPCD61RandomKeysBatched(t *testing.T) {
	key := func(h Block) Key {
		return sha256.Sum256(append([]byte(randomKeyTag), h[:]...))
	}
	data := prg.Seed{61}.Stream("random keys")
	var k randomKeys
	k.init()
	for n := 1; n <= randomKeyBatch; n++ {
		hs := make([]Block, n)
		for i := range hs {
			hs[i] = data.Block()
			k.set(i, hs[i])
		}
		for i, got := range k.sum(n) {
			if got != key(hs[i]) {
				t.Fatalf("%d keys: key %d is not SHA-256(tag ‖ h)", n, i)
			}
		}
	}
	for _, m := range []int{1, randomKeyBatch/2 + 1, randomKeyBatch, randomKeyBatch + 1, 3*randomKeyBatch + 5} {
		sess := []byte("MPC-D61")
		secret := data.Block()
		pairs := make([][2]Key, Kappa)
		keys := make([]Key, Kappa)
		for i := range pairs {
			for c := range 2 {
				b := data.Block()
				copy(pairs[i][c][:], b[:])
			}
			keys[i] = pairs[i][secret[i/8]>>(i%8)&1]
		}
		s, err := NewSenderFromKeys(sess, secret, keys)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReceiverFromKeys(prg.Seed{61, byte(m)}, sess, pairs)
		if err != nil {
			t.Fatal(err)
		}
		choices := data.Bools(m)
		req, err := r.Request(choices)
		if err != nil {
			t.Fatal(err)
		}
		q, err := CorrelatedRows(sess, secret, keys, req)
		if err != nil {
			t.Fatal(err)
		}
		b := s.batch
		sent, err := s.SendRandom(req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ReceiveRandom()
		if err != nil {
			t.Fatal(err)
		}
		for j, c := range choices {
			tweak := otTweak(b, j)
			want := [2]Key{key(s.hash.Hash(q[j], tweak)), key(s.hash.Hash(q[j].Xor(secret), tweak))}
			if sent[j] != want {
				t.Fatalf("%d OTs: the sender's keys of OT %d are not SHA-256(tag ‖ H(q)), SHA-256(tag ‖ H(q ⊕ s))", m, j)
			}
			choice := 0
			if c {
				choice = 1
			}
			if got[j] != want[choice] {
				t.Fatalf("%d OTs: the receiver's key of OT %d is not the sender's key of its choice", m, j)
			}
		}
	}
}
