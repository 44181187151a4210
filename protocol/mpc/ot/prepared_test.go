package ot_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/ot"
)

// TestMPCD51PreparedRequest: a request made with its preparation
// (PrepareRequest, RequestPrepared) is the one Request makes, byte for
// byte, and the receiver after it receives the same blocks, batch after
// batch, for short and long columns; a preparation of another batch,
// another size or another receiver, or one already used, is refused
// (ErrState) and the receiver is as it was.
func TestMPCD51PreparedRequest(t *testing.T) {
	s1, r1, _ := session(t, seedOf(51), seedOf(52))
	s2, r2, _ := session(t, seedOf(51), seedOf(52))
	data := seedOf(53).Stream("data")
	for _, m := range []int{1, 7, 64, 65, 400, 2500} {
		choices := data.Bools(m)
		pairs := randomPairs(data, m)
		p, err := r1.PrepareRequest(m)
		if err != nil {
			t.Fatal(err)
		}
		// Refused: another size, another receiver.
		if _, err := r1.RequestPrepared(p, append(choices[:m:m], true)); !errors.Is(err, ot.ErrState) {
			t.Fatalf("batch of %d: a preparation of another size: %v, want ErrState", m, err)
		}
		if _, err := r2.RequestPrepared(p, choices); !errors.Is(err, ot.ErrState) {
			t.Fatalf("batch of %d: another receiver's preparation: %v, want ErrState", m, err)
		}
		req1, err := r1.RequestPrepared(p, choices)
		if err != nil {
			t.Fatal(err)
		}
		req2, err := r2.Request(choices)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(req1, req2) {
			t.Fatalf("batch of %d: the prepared request differs", m)
		}
		var got [2][]ot.Block
		for i, sr := range []struct {
			s   *ot.Sender
			r   *ot.Receiver
			req []byte
		}{{s1, r1, req1}, {s2, r2, req2}} {
			reply, err := sr.s.Send(sr.req, pairs)
			if err != nil {
				t.Fatal(err)
			}
			if got[i], err = sr.r.Receive(reply); err != nil {
				t.Fatal(err)
			}
		}
		for j := range got[0] {
			if got[0][j] != got[1][j] || got[0][j] != pairs[j][b2i(choices[j])] {
				t.Fatalf("batch of %d, OT %d: another block received", m, j)
			}
		}
		// Used, and now of a batch before the receiver's next.
		if _, err := r1.RequestPrepared(p, choices); !errors.Is(err, ot.ErrState) {
			t.Fatalf("batch of %d: a used preparation: %v, want ErrState", m, err)
		}
		q, err := r1.PrepareRequest(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := r1.Skip(); err != nil {
			t.Fatal(err)
		}
		if err := r2.Skip(); err != nil {
			t.Fatal(err)
		}
		s1.Skip()
		s2.Skip()
		if _, err := r1.RequestPrepared(q, choices); !errors.Is(err, ot.ErrState) {
			t.Fatalf("batch of %d: a preparation of the batch before: %v, want ErrState", m, err)
		}
	}
}
