package gc_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

func TestWireRoundTrip(t *testing.T) {
	var seed prg.Seed
	c := randomCircuit(seed.Stream("wire"), 5, 5, 80, [3]int{1, 1, 1}, 13)
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	g, keys, err := gc.Garble(c, delta, seed.Stream("labels"), 1<<40+5)
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if want := 18 + gc.TableSize*gc.CountAND(c) + 2; len(b) != want {
		t.Errorf("message is %d bytes, want %d", len(b), want)
	}
	g2, err := gc.ParseGarbled(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := gc.CheckGarbling(c, delta, seed.Stream("labels"), 1<<40+5, g2); err != nil {
		t.Errorf("decoded garbling differs: %v", err)
	}
	in, _ := keys.Encode(0, []bool{true, false, true, true, false})
	got, err := gc.ParseLabels(gc.MarshalLabels(in), 5)
	if err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if got[i] != in[i] {
			t.Fatalf("label %d changed in transit", i)
		}
	}
	bad := map[string][]byte{
		"empty":           nil,
		"wrong tag":       append([]byte{'X'}, b[1:]...),
		"wrong version":   append([]byte{'G', 9}, b[2:]...),
		"truncated":       b[:len(b)-1],
		"extra byte":      append(append([]byte(nil), b...), 0),
		"padding bits":    append(append([]byte(nil), b[:len(b)-1]...), b[len(b)-1]|0x80),
		"too many gates":  append(append([]byte(nil), b[:10]...), append([]byte{0xff, 0xff, 0xff, 0xff}, b[14:]...)...),
		"too many output": append(append([]byte(nil), b[:14]...), append([]byte{0x7f, 0xff, 0xff, 0xff}, b[18:]...)...),
	}
	for name, m := range bad {
		if _, err := gc.ParseGarbled(m); !errors.Is(err, gc.ErrMessage) {
			t.Errorf("%s: ParseGarbled = %v, want ErrMessage", name, err)
		}
	}
	lm := gc.MarshalLabels(in)
	for name, tc := range map[string]struct {
		b    []byte
		want int
	}{
		"wrong count": {lm, 4},
		"truncated":   {lm[:len(lm)-1], 5},
		"wrong tag":   {append([]byte{'G'}, lm[1:]...), 5},
		"short":       {lm[:3], 5},
	} {
		if _, err := gc.ParseLabels(tc.b, tc.want); !errors.Is(err, gc.ErrMessage) {
			t.Errorf("labels %s: %v, want ErrMessage", name, err)
		}
	}
}

// FuzzParseGarbled checks that any message either is rejected or decodes
// to a garbling that encodes back to the same bytes, and that evaluating a
// decoded garbling on a small circuit never panics.
func FuzzParseGarbled(f *testing.F) {
	c := &circuit.Circuit{NumWires: 4, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{3},
		Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 1, Out: 2}, {Op: circuit.OpINV, A: 2, Out: 3}}}
	var seed prg.Seed
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	g, _, _ := gc.Garble(c, delta, seed.Stream("labels"), 3)
	b, _ := g.MarshalBinary()
	f.Add(b)
	g3, _, _ := gc.ThreeHalves.Garble(c, delta, seed.Stream("labels"), 3)
	b3, _ := g3.MarshalBinary()
	f.Add(b3)
	f.Add([]byte{'G', 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{'G', 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, m []byte) {
		g, err := gc.ParseGarbled(m)
		if err != nil {
			if !errors.Is(err, gc.ErrMessage) {
				t.Fatalf("error %v does not wrap ErrMessage", err)
			}
			return
		}
		back, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(back, m) {
			t.Fatalf("round trip changed the message")
		}
		var l gc.Label
		out, err := gc.Evaluate(c, g, [2][]gc.Label{{l}, {l}})
		if err == nil {
			gc.Decode(out, g.Decoding)
		}
	})
}

// FuzzParseLabels checks that any labels message is rejected or encodes
// back to the same bytes.
func FuzzParseLabels(f *testing.F) {
	f.Add(gc.MarshalLabels(make([]gc.Label, 2)), 2)
	f.Add([]byte{'L', 1, 0, 0, 0, 1}, 1)
	f.Fuzz(func(t *testing.T, m []byte, want int) {
		ls, err := gc.ParseLabels(m, want)
		if err != nil {
			if !errors.Is(err, gc.ErrMessage) {
				t.Fatalf("error %v does not wrap ErrMessage", err)
			}
			return
		}
		if !bytes.Equal(gc.MarshalLabels(ls), m) {
			t.Fatal("round trip changed the message")
		}
	})
}
