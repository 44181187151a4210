package ot

import (
	"errors"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/prg"
)

// The decoders of the four OT messages: any input is either rejected with
// ErrMessage or accepted with exactly the expected length, and never
// panics.

func FuzzParseRequest(f *testing.F) {
	f.Add(append(batchMsgHeader(kindRequest, 0, 1), make([]byte, RequestSize(1)-batchHeader)...), uint32(0))
	f.Add(append(batchMsgHeader(kindRequest, 2, 9), make([]byte, RequestSize(9)-batchHeader)...), uint32(2))
	f.Add(append(batchMsgHeader(kindRequestMAC, 2, 9), make([]byte, RequestSizeKappa(KappaMAC, 9)-batchHeader)...), uint32(2))
	f.Fuzz(func(t *testing.T, msg []byte, batch uint32) {
		for _, kappa := range []int{Kappa, KappaMAC} {
			m, cols, xt, err := parseRequest(msg, batch, kappa)
			if err != nil {
				if !errors.Is(err, ErrMessage) {
					t.Fatalf("error %v does not wrap ErrMessage", err)
				}
				continue
			}
			if m <= 0 || m > MaxBatch || len(cols) != kappa*columnBytes(m) || len(xt) != checkSize || RequestColumns(msg) != kappa {
				t.Fatalf("κ = %d: accepted %d OTs with %d bytes of columns, a request of %d columns", kappa, m, len(cols), RequestColumns(msg))
			}
		}
	})
}

func FuzzCheckReply(f *testing.F) {
	f.Add(append(batchMsgHeader(kindReply, 0, 1), make([]byte, 32)...), uint32(0), 1)
	f.Add(append(batchMsgHeader(kindReply, 1, 3), make([]byte, 96)...), uint32(1), 3)
	f.Fuzz(func(t *testing.T, msg []byte, batch uint32, want int) {
		err := checkReply(msg, batch, want)
		if err != nil {
			if !errors.Is(err, ErrMessage) {
				t.Fatalf("error %v does not wrap ErrMessage", err)
			}
			return
		}
		if len(msg) != batchHeader+32*want {
			t.Fatalf("accepted %d bytes for %d OTs", len(msg), want)
		}
	})
}

// FuzzBaseOT feeds arbitrary messages to both sides of a small base OT;
// after any rejected message the honest exchange still works.
func FuzzBaseOT(f *testing.F) {
	var seed prg.Seed
	sender, _ := NewBaseSender(seed.Stream("s"), nil, 2)
	receiver, _ := NewBaseReceiver(seed.Stream("r"), nil, []bool{true, false})
	m1, _ := sender.Start()
	m2, _, _ := receiver.Respond(m1)
	f.Add(m1)
	f.Add(m2)
	f.Fuzz(func(t *testing.T, msg []byte) {
		s, _ := NewBaseSender(seed.Stream("s"), nil, 2)
		r, _ := NewBaseReceiver(seed.Stream("r"), nil, []bool{true, false})
		first, _ := s.Start()
		if _, _, err := r.Respond(msg); err != nil && !errors.Is(err, ErrMessage) {
			t.Fatalf("Respond: error %v does not wrap ErrMessage", err)
		}
		if _, err := s.Finish(msg); err != nil && !errors.Is(err, ErrMessage) {
			t.Fatalf("Finish: error %v does not wrap ErrMessage", err)
		}
		r2, _ := NewBaseReceiver(seed.Stream("r"), nil, []bool{true, false})
		reply, keys, err := r2.Respond(first)
		if err != nil {
			t.Fatal(err)
		}
		s2, _ := NewBaseSender(seed.Stream("s"), nil, 2)
		s2.Start()
		if _, err := s2.Finish(msg); err == nil {
			return // msg was a valid reply
		}
		all, err := s2.Finish(reply)
		if err != nil {
			t.Fatalf("honest reply refused after a bad one: %v", err)
		}
		if all[0][1] != keys[0] || all[1][0] != keys[1] {
			t.Fatal("keys wrong after a bad message")
		}
	})
}
