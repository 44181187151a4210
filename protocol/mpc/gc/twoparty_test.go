package gc_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// try is what crossed the wire in one try, as both peers record it.
type try struct {
	garbled     []byte // garbler → evaluator
	garblerIn   []byte // garbler's input labels
	otRequest   []byte // evaluator → garbler
	otReply     []byte // garbler → evaluator
	in0, in1    []bool // revealed at the end
	outputs     []bool // what the evaluator decoded
	instanceNum uint64
}

// playTries runs tries of c between a garbler and an evaluator over byte
// messages only, and returns the transcript.
func playTries(t *testing.T, s gc.Scheme, c *circuit.Circuit, garblerSeed, evaluatorSeed prg.Seed, tries int) ([][]byte, []try) {
	t.Helper()
	session := []byte("game 42, garbler Black")
	sender := ot.NewSender(garblerSeed.Derive("ot"), session)
	receiver := ot.NewReceiver(evaluatorSeed.Derive("ot"), session)
	m1, _ := receiver.BaseStart()
	m2, err := sender.BaseRespond(m1)
	if err != nil {
		t.Fatal(err)
	}
	if err := receiver.BaseFinish(m2); err != nil {
		t.Fatal(err)
	}
	delta, _ := gc.NewDelta(garblerSeed.Stream("gc/delta"))
	inputs := evaluatorSeed.Stream("test inputs")
	var record []try
	for k := range tries {
		in0, in1 := inputs.Bools(len(c.Inputs[0])), inputs.Bools(len(c.Inputs[1]))
		// Garbler.
		g, keys, err := s.Garble(c, delta, garblerSeed.Stream("gc/labels", uint64(k)), uint64(k))
		if err != nil {
			t.Fatal(err)
		}
		gmsg, _ := g.MarshalBinary()
		own, _ := keys.Encode(0, in0)
		ownMsg := gc.MarshalLabels(own)
		// Evaluator asks for its labels.
		req, err := receiver.Request(in1)
		if err != nil {
			t.Fatal(err)
		}
		zero := make([]ot.Block, len(in1))
		for i := range zero {
			zero[i] = keys.Inputs[1][i][0]
		}
		reply, err := sender.SendCorrelated(req, zero, delta)
		if err != nil {
			t.Fatal(err)
		}
		// Evaluator.
		mine, err := receiver.Receive(reply)
		if err != nil {
			t.Fatal(err)
		}
		got, err := gc.ParseGarbled(gmsg)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := gc.ParseLabels(ownMsg, len(c.Inputs[0]))
		if err != nil {
			t.Fatal(err)
		}
		out, err := gc.Evaluate(c, got, [2][]gc.Label{theirs, mine})
		if err != nil {
			t.Fatal(err)
		}
		bits, _ := gc.Decode(out, got.Decoding)
		record = append(record, try{gmsg, ownMsg, req, reply, in0, in1, bits, uint64(k)})
	}
	return [][]byte{m1, m2}, record
}

// audit re-derives everything the garbler and the evaluator should have
// sent from their revealed seeds and inputs (trust.md T-8) and returns the
// first deviation.
func audit(s gc.Scheme, c *circuit.Circuit, garblerSeed, evaluatorSeed prg.Seed, base [][]byte, tries []try) error {
	session := []byte("game 42, garbler Black")
	sender := ot.NewSender(garblerSeed.Derive("ot"), session)
	receiver := ot.NewReceiver(evaluatorSeed.Derive("ot"), session)
	m1, _ := receiver.BaseStart()
	if !bytes.Equal(m1, base[0]) {
		return errors.New("evaluator's base OT message")
	}
	m2, err := sender.BaseRespond(base[0])
	if err != nil || !bytes.Equal(m2, base[1]) {
		return errors.New("garbler's base OT message")
	}
	if err := receiver.BaseFinish(base[1]); err != nil {
		return err
	}
	delta, _ := gc.NewDelta(garblerSeed.Stream("gc/delta"))
	for k, tr := range tries {
		g, err := gc.ParseGarbled(tr.garbled)
		if err != nil {
			return fmt.Errorf("try %d: %w", k, err)
		}
		if err := s.CheckGarbling(c, delta, garblerSeed.Stream("gc/labels", uint64(k)), uint64(k), g); err != nil {
			return fmt.Errorf("try %d: garbler: %w", k, err)
		}
		_, keys, _ := s.Garble(c, delta, garblerSeed.Stream("gc/labels", uint64(k)), uint64(k))
		own, _ := keys.Encode(0, tr.in0)
		if !bytes.Equal(gc.MarshalLabels(own), tr.garblerIn) {
			return fmt.Errorf("try %d: garbler's input labels", k)
		}
		req, _ := receiver.Request(tr.in1)
		if !bytes.Equal(req, tr.otRequest) {
			return fmt.Errorf("try %d: evaluator's OT request", k)
		}
		zero := make([]ot.Block, len(tr.in1))
		for i := range zero {
			zero[i] = keys.Inputs[1][i][0]
		}
		reply, _ := sender.SendCorrelated(tr.otRequest, zero, delta)
		if !bytes.Equal(reply, tr.otReply) {
			return fmt.Errorf("try %d: garbler's OT reply", k)
		}
		receiver.Receive(reply)
	}
	return nil
}

func TestTwoPartyWithOTAndAudit(t *testing.T) {
	for _, s := range schemes {
		t.Run(s.String(), func(t *testing.T) { twoPartyWithOTAndAudit(t, s) })
	}
}

func twoPartyWithOTAndAudit(t *testing.T, s gc.Scheme) {
	var gs, es prg.Seed
	gs[0], es[0] = 'g', 'e'
	c := randomCircuit(prg.Seed{'c'}.Stream("circuit"), 40, 60, 1000, [3]int{3, 2, 1}, 50)
	base, tries := playTries(t, s, c, gs, es, 4)
	for k, tr := range tries {
		want, _ := c.Eval(tr.in0, tr.in1)
		if fmt.Sprint(want) != fmt.Sprint(tr.outputs) {
			t.Fatalf("try %d: evaluator decoded %v, want %v", k, tr.outputs, want)
		}
	}
	if err := audit(s, c, gs, es, base, tries); err != nil {
		t.Fatalf("honest game fails the audit: %v", err)
	}
	// A garbler that flipped a table byte in try 2: the recorded message
	// is what it sent.
	bad := append([]byte(nil), tries[2].garbled...)
	bad[len(bad)/2] ^= 0x40
	tries[2].garbled = bad
	err := audit(s, c, gs, es, base, tries)
	if !errors.Is(err, gc.ErrMismatch) || !contains(err.Error(), "try 2") {
		t.Fatalf("cheating garbler in try 2: audit says %v", err)
	}
}
