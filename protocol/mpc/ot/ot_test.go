package ot_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

func seedOf(b byte) prg.Seed {
	var s prg.Seed
	s[0] = b
	return s
}

func TestBaseOT(t *testing.T) {
	const n = 40
	choices := seedOf(9).Stream("choices").Bools(n)
	sender, err := ot.NewBaseSender(seedOf(1).Stream("s"), []byte("game"), n)
	if err != nil {
		t.Fatal(err)
	}
	receiver, err := ot.NewBaseReceiver(seedOf(2).Stream("r"), []byte("game"), choices)
	if err != nil {
		t.Fatal(err)
	}
	m1, err := sender.Start()
	if err != nil {
		t.Fatal(err)
	}
	m2, got, err := receiver.Respond(m1)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := sender.Finish(m2)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[ot.Key]bool{}
	for i, c := range choices {
		if got[i] != keys[i][b2i(c)] {
			t.Errorf("OT %d: receiver key is not the sender's key %d", i, b2i(c))
		}
		if got[i] == keys[i][1-b2i(c)] {
			t.Errorf("OT %d: receiver key equals the other key", i)
		}
		for _, k := range keys[i] {
			if seen[k] {
				t.Errorf("OT %d: key repeated", i)
			}
			seen[k] = true
		}
	}
	// A different session gives different keys from the same seeds.
	s2, _ := ot.NewBaseSender(seedOf(1).Stream("s"), []byte("other game"), n)
	r2, _ := ot.NewBaseReceiver(seedOf(2).Stream("r"), []byte("other game"), choices)
	m1b, _ := s2.Start()
	if !bytes.Equal(m1, m1b) {
		t.Error("same seed gave another first message")
	}
	_, got2, _ := r2.Respond(m1b)
	if got2[0] == got[0] {
		t.Error("session does not separate keys")
	}
}

func TestBaseOTRejects(t *testing.T) {
	sender, _ := ot.NewBaseSender(seedOf(1).Stream("s"), nil, 4)
	receiver, _ := ot.NewBaseReceiver(seedOf(2).Stream("r"), nil, []bool{true, false, true, true})
	if _, err := sender.Finish(nil); !errors.Is(err, ot.ErrState) {
		t.Errorf("Finish before Start: %v, want ErrState", err)
	}
	m1, _ := sender.Start()
	if _, err := sender.Start(); !errors.Is(err, ot.ErrState) {
		t.Errorf("second Start: %v, want ErrState", err)
	}
	identity := make([]byte, 35)
	identity[0], identity[1], identity[2] = 'O', 1, 1
	notAPoint := append([]byte(nil), identity...)
	for i := 3; i < 35; i++ {
		notAPoint[i] = 0xff
	}
	for name, m := range map[string][]byte{
		"empty": nil, "short": m1[:34], "long": append(append([]byte(nil), m1...), 0),
		"wrong kind": append([]byte{'O', 1, 2}, m1[3:]...), "identity": identity, "not a point": notAPoint,
	} {
		if _, _, err := receiver.Respond(m); !errors.Is(err, ot.ErrMessage) {
			t.Errorf("Respond(%s): %v, want ErrMessage", name, err)
		}
	}
	m2, _, err := receiver.Respond(m1)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := receiver.Respond(m1); !errors.Is(err, ot.ErrState) {
		t.Errorf("second Respond: %v, want ErrState", err)
	}
	badPoint := append([]byte(nil), m2...)
	copy(badPoint[5+32:], notAPoint[3:])
	for name, m := range map[string][]byte{
		"short": m2[:len(m2)-1], "wrong count": append([]byte{'O', 1, 2, 0, 3}, m2[5:]...), "bad point": badPoint,
	} {
		if _, err := sender.Finish(m); !errors.Is(err, ot.ErrMessage) {
			t.Errorf("Finish(%s): %v, want ErrMessage", name, err)
		}
		// CheckBaseResponse refuses what Finish refuses, without a sender.
		if err := ot.CheckBaseResponse(m, 4); !errors.Is(err, ot.ErrMessage) {
			t.Errorf("CheckBaseResponse(%s): %v, want ErrMessage", name, err)
		}
	}
	if err := ot.CheckBaseResponse(m2, 4); err != nil {
		t.Errorf("CheckBaseResponse of the receiver's message: %v", err)
	}
	if err := ot.CheckBaseResponse(m2, 3); !errors.Is(err, ot.ErrMessage) {
		t.Errorf("CheckBaseResponse for another count: %v, want ErrMessage", err)
	}
	if _, err := sender.Finish(m2); err != nil {
		t.Errorf("Finish after rejected messages: %v", err)
	}
	if _, err := ot.NewBaseSender(seedOf(1).Stream("s"), nil, 0); !errors.Is(err, ot.ErrInput) {
		t.Errorf("zero OTs: %v, want ErrInput", err)
	}
	if _, err := ot.NewBaseReceiver(seedOf(1).Stream("s"), nil, nil); !errors.Is(err, ot.ErrInput) {
		t.Errorf("no choices: %v, want ErrInput", err)
	}
}

// session runs the base OTs between a new sender and receiver.
func session(t testing.TB, sSeed, rSeed prg.Seed) (*ot.Sender, *ot.Receiver, [][]byte) {
	t.Helper()
	s := ot.NewSender(sSeed, []byte("game 1, garbler A"))
	r := ot.NewReceiver(rSeed, []byte("game 1, garbler A"))
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
	return s, r, [][]byte{m1, m2}
}

// transfer runs one batch and returns the received blocks and both
// messages.
func transfer(t testing.TB, s *ot.Sender, r *ot.Receiver, choices []bool, pairs [][2]ot.Block) ([]ot.Block, [][]byte) {
	t.Helper()
	req, err := r.Request(choices)
	if err != nil {
		t.Fatal(err)
	}
	reply, err := s.Send(req, pairs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Receive(reply)
	if err != nil {
		t.Fatal(err)
	}
	return got, [][]byte{req, reply}
}

func randomPairs(r *prg.Stream, m int) [][2]ot.Block {
	p := make([][2]ot.Block, m)
	for j := range p {
		p[j] = [2]ot.Block{r.Block(), r.Block()}
	}
	return p
}

func TestExtension(t *testing.T) {
	s, r, _ := session(t, seedOf(1), seedOf(2))
	data := seedOf(3).Stream("data")
	// Batches of odd sizes exercise the padding of the columns; several
	// batches check that the streams and tweaks carry on.
	for _, m := range []int{1, 7, 64, 65, 1000, 2500, 128} {
		choices := data.Bools(m)
		pairs := randomPairs(data, m)
		got, _ := transfer(t, s, r, choices, pairs)
		for j, c := range choices {
			if got[j] != pairs[j][b2i(c)] {
				t.Fatalf("batch of %d, OT %d: got a block that is not the chosen message", m, j)
			}
			if got[j] == pairs[j][1-b2i(c)] {
				t.Fatalf("batch of %d, OT %d: got the other message", m, j)
			}
		}
	}
}

func TestExtensionCorrelated(t *testing.T) {
	s, r, _ := session(t, seedOf(4), seedOf(5))
	data := seedOf(6).Stream("data")
	delta := data.Block()
	delta[0] |= 1
	const m = 1500
	zero := make([]ot.Block, m)
	for j := range zero {
		zero[j] = data.Block()
	}
	choices := data.Bools(m)
	req, _ := r.Request(choices)
	reply, err := s.SendCorrelated(req, zero, delta)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Receive(reply)
	if err != nil {
		t.Fatal(err)
	}
	for j, c := range choices {
		want := zero[j]
		if c {
			want = want.Xor(delta)
		}
		if got[j] != want {
			t.Fatalf("OT %d: got %x, want zero label XOR %v·Δ", j, got[j], c)
		}
	}
}

// TestReplayFromSeeds is the audit of trust.md T-8: from the two revealed
// seeds, the choices and the sender's pairs, fresh machines reproduce every
// message byte for byte, and a message that deviates is caught.
func TestReplayFromSeeds(t *testing.T) {
	data := seedOf(7).Stream("data")
	var inputs [][]bool
	var pairs [][][2]ot.Block
	for _, m := range []int{300, 17, 200} {
		inputs = append(inputs, data.Bools(m))
		pairs = append(pairs, randomPairs(data, m))
	}
	run := func() [][]byte {
		s, r, transcript := session(t, seedOf(8), seedOf(9))
		for k := range inputs {
			_, msgs := transfer(t, s, r, inputs[k], pairs[k])
			transcript = append(transcript, msgs...)
		}
		return transcript
	}
	first, second := run(), run()
	for i := range first {
		if !bytes.Equal(first[i], second[i]) {
			t.Fatalf("message %d differs between two runs from the same seeds", i)
		}
	}
	// The auditor replays the sender on the recorded receiver messages: a
	// sender that used other pairs in batch 1 is caught.
	auditor := ot.NewSender(seedOf(8), []byte("game 1, garbler A"))
	if _, err := auditor.BaseRespond(first[0]); err != nil {
		t.Fatal(err)
	}
	cheat := append([][2]ot.Block(nil), pairs[1]...)
	cheat[3][0][5] ^= 1
	for k := range inputs {
		p := pairs[k]
		if k == 1 {
			p = cheat
		}
		reply, err := auditor.Send(first[2+2*k], p)
		if err != nil {
			t.Fatal(err)
		}
		if same := bytes.Equal(reply, first[3+2*k]); same != (k != 1) {
			t.Errorf("batch %d: replayed reply equal = %v", k, same)
		}
	}
	// And a receiver with other choices sends other columns.
	_, r, _ := session(t, seedOf(8), seedOf(9))
	other := append([]bool(nil), inputs[0]...)
	other[0] = !other[0]
	req, _ := r.Request(other)
	if bytes.Equal(req, first[2]) {
		t.Error("other choices gave the same request")
	}
}

func TestExtensionRejects(t *testing.T) {
	s, r, _ := session(t, seedOf(1), seedOf(2))
	fresh := ot.NewSender(seedOf(1), nil)
	if _, err := fresh.Send(nil, nil); !errors.Is(err, ot.ErrState) {
		t.Errorf("Send before base OTs: %v, want ErrState", err)
	}
	if _, err := ot.NewReceiver(seedOf(2), nil).Request([]bool{true}); !errors.Is(err, ot.ErrState) {
		t.Errorf("Request before base OTs: %v, want ErrState", err)
	}
	if _, err := r.Receive(nil); !errors.Is(err, ot.ErrState) {
		t.Errorf("Receive without request: %v, want ErrState", err)
	}
	if _, err := r.Request(nil); !errors.Is(err, ot.ErrInput) {
		t.Errorf("empty request: %v, want ErrInput", err)
	}
	choices := []bool{true, false, true, true, false, false, true, false, true, true}
	req, err := r.Request(choices)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Request(choices); !errors.Is(err, ot.ErrState) {
		t.Errorf("second request: %v, want ErrState", err)
	}
	pairs := randomPairs(seedOf(3).Stream("p"), len(choices))
	badReq := map[string][]byte{
		"empty":       nil,
		"truncated":   req[:len(req)-1],
		"long":        append(append([]byte(nil), req...), 0),
		"wrong kind":  append([]byte{'O', req[1], 4}, req[3:]...),
		"wrong batch": append(append([]byte{'O', req[1], 3}, 0, 0, 0, 1), req[7:]...),
		"zero count":  append(append([]byte(nil), req[:7]...), append([]byte{0, 0, 0, 0}, req[11:]...)...),
		"huge count":  append(append([]byte(nil), req[:7]...), append([]byte{0xff, 0, 0, 0}, req[11:]...)...),
	}
	for name, m := range badReq {
		if _, err := s.Send(m, pairs); !errors.Is(err, ot.ErrMessage) {
			t.Errorf("Send(%s): %v, want ErrMessage", name, err)
		}
	}
	if _, err := s.Send(req, pairs[:3]); !errors.Is(err, ot.ErrInput) {
		t.Errorf("too few pairs: %v, want ErrInput", err)
	}
	reply, err := s.Send(req, pairs)
	if err != nil {
		t.Fatalf("Send after rejected requests: %v", err)
	}
	for name, m := range map[string][]byte{
		"truncated":   reply[:len(reply)-1],
		"wrong kind":  append([]byte{'O', reply[1], 3}, reply[3:]...),
		"wrong batch": append(append([]byte{'O', reply[1], 4}, 0, 0, 0, 9), reply[7:]...),
	} {
		if _, err := r.Receive(m); !errors.Is(err, ot.ErrMessage) {
			t.Errorf("Receive(%s): %v, want ErrMessage", name, err)
		}
	}
	got, err := r.Receive(reply)
	if err != nil {
		t.Fatalf("Receive after rejected replies: %v", err)
	}
	for j, c := range choices {
		if got[j] != pairs[j][b2i(c)] {
			t.Fatalf("OT %d wrong after rejected messages", j)
		}
	}
	// A replayed old reply is refused: its batch number is past.
	if _, err := r.Request(choices); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Receive(reply); !errors.Is(err, ot.ErrMessage) {
		t.Errorf("replayed reply: %v, want ErrMessage", err)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
