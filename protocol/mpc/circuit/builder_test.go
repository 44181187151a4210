package circuit

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"testing"
)

func TestBuilderFolding(t *testing.T) {
	b := NewBuilder()
	in := b.Inputs(Garbler, 2)
	x, y := in[0], in[1]
	nx := b.NOT(x)
	and := b.AND(x, y)
	tests := []struct {
		name      string
		got, want Wire
	}{
		{"AND with 0", b.AND(x, b.Zero()), b.Zero()},
		{"AND with 1", b.AND(b.One(), x), x},
		{"AND with itself", b.AND(x, x), x},
		{"AND with its negation", b.AND(nx, x), b.Zero()},
		{"AND shared, either order", b.AND(y, x), and},
		{"XOR with 0", b.XOR(b.Zero(), x), x},
		{"XOR with 1", b.XOR(x, b.One()), nx},
		{"XOR with itself", b.XOR(x, x), b.Zero()},
		{"XOR with its negation", b.XOR(x, nx), b.One()},
		{"XOR of a negation pulled out", b.XOR(nx, y), b.NOT(b.XOR(x, y))},
		{"XOR of two negations", b.XOR(nx, b.NOT(y)), b.XOR(x, y)},
		{"NOT NOT", b.NOT(nx), x},
		{"NOT shared", b.NOT(x), nx},
		{"NOT of constants", b.NOT(b.Zero()), b.One()},
		{"OR with 1", b.OR(x, b.One()), b.One()},
		{"OR with 0", b.OR(b.Zero(), x), x},
		{"OR with itself", b.OR(x, x), x},
		{"Mux on a constant", b.Mux(b.One(), x, y), x},
		{"Mux of equal values", b.Mux(y, x, x), x},
		{"Equal to itself", b.Equal([]Wire{x, y}, []Wire{x, y}), b.One()},
		{"EqualConst too wide", b.EqualConst([]Wire{x}, 2), b.Zero()},
		{"LessConst above the range", b.LessConst([]Wire{x, y}, 4), b.One()},
		{"LessConst 0", b.LessConst([]Wire{x, y}, 0), b.Zero()},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: wire %d, want %d", tt.name, tt.got, tt.want)
		}
	}
	if v, ok := b.IsConst(b.Const(true)); !v || !ok {
		t.Errorf("IsConst(One) = %v, %v", v, ok)
	}
	if _, ok := b.IsConst(x); ok {
		t.Errorf("an input is a constant")
	}
}

func TestBuilderANDCounts(t *testing.T) {
	tests := []struct {
		name  string
		build func(b *Builder, in []Wire)
		want  int
	}{
		{"AND", func(b *Builder, in []Wire) { b.Outputs(b.AND(in[0], in[1])) }, 1},
		{"XOR, NOT and XNOR are free", func(b *Builder, in []Wire) { b.Outputs(b.XNOR(b.NOT(in[0]), b.XOR(in[1], in[2]))) }, 0},
		{"OR", func(b *Builder, in []Wire) { b.Outputs(b.OR(in[0], in[1])) }, 1},
		{"Mux", func(b *Builder, in []Wire) { b.Outputs(b.Mux(in[0], in[1], in[2])) }, 1},
		{"OrAll of 8", func(b *Builder, in []Wire) { b.Outputs(b.OrAll(in[:8])) }, 7},
		{"AndAll of 8", func(b *Builder, in []Wire) { b.Outputs(b.AndAll(in[:8])) }, 7},
		{"Equal of 4 bits", func(b *Builder, in []Wire) { b.Outputs(b.Equal(in[:4], in[4:8])) }, 3},
		{"EqualConst of 4 bits", func(b *Builder, in []Wire) { b.Outputs(b.EqualConst(in[:4], 9)) }, 3},
		{"LessConst 8 of 4 bits", func(b *Builder, in []Wire) { b.Outputs(b.LessConst(in[:4], 8)) }, 0},
		{"LessConst 9 of 4 bits", func(b *Builder, in []Wire) { b.Outputs(b.LessConst(in[:4], 9)) }, 3},
		{"Add of 4 bits", func(b *Builder, in []Wire) { b.Outputs(b.Add(in[:4], in[4:8])...) }, 4},
		{"PopCount of 8", func(b *Builder, in []Wire) { b.Outputs(b.PopCount(in[:8])...) }, 7},
		{"AnyMany of 8", func(b *Builder, in []Wire) { a, m := b.AnyMany(in[:8]); b.Outputs(a, m) }, 13},
		{"Decode 4 bits to 16", func(b *Builder, in []Wire) { b.Outputs(b.Decode(in[:4], 16)...) }, 24},
		{"Decode 4 bits to 9", func(b *Builder, in []Wire) { b.Outputs(b.Decode(in[:4], 9)...) }, 9 + 4 + 3},
		{"InnerProduct of 8", func(b *Builder, in []Wire) { b.Outputs(b.InnerProduct(in[:8], in[8:16])) }, 8},
		{"unused gates are dropped", func(b *Builder, in []Wire) { b.AND(in[0], in[1]); b.Outputs(in[2]) }, 0},
	}
	for _, tt := range tests {
		b := NewBuilder()
		tt.build(b, b.Inputs(Garbler, 16))
		if got := b.Build().ANDCount(); got != tt.want {
			t.Errorf("%s: %d AND gates, want %d", tt.name, got, tt.want)
		}
	}
}

// word reads bits of v into a bool slice, least significant first.
func word(v uint64, n int) []bool {
	bs := make([]bool, n)
	for i := range bs {
		bs[i] = v>>uint(i)&1 == 1
	}
	return bs
}

func value(bs []bool) uint64 {
	var v uint64
	for i, b := range bs {
		if b {
			v |= 1 << uint(i)
		}
	}
	return v
}

// TestBuilderWords checks the multi-bit helpers against Go arithmetic on
// every input of a few widths.
func TestBuilderWords(t *testing.T) {
	const w = 4
	b := NewBuilder()
	x := b.Inputs(Garbler, w)
	y := b.Inputs(Evaluator, w)
	type field struct {
		name string
		at   int
		n    int
		want func(x, y uint64) uint64
	}
	var fields []field
	add := func(name string, ws []Wire, want func(x, y uint64) uint64) {
		fields = append(fields, field{name, b.Outputs(ws...), len(ws), want})
	}
	boolv := func(c bool) uint64 {
		if c {
			return 1
		}
		return 0
	}
	add("Equal", []Wire{b.Equal(x, y)}, func(x, y uint64) uint64 { return boolv(x == y) })
	add("Equal of different widths", []Wire{b.Equal(x, y[:2])}, func(x, y uint64) uint64 { return boolv(x == y&3) })
	for _, v := range []uint64{0, 1, 5, 9, 15} {
		add("EqualConst", []Wire{b.EqualConst(x, v)}, func(x, _ uint64) uint64 { return boolv(x == v) })
	}
	for _, v := range []uint64{0, 1, 5, 8, 9, 15, 16, 40} {
		add("LessConst", []Wire{b.LessConst(x, v)}, func(x, _ uint64) uint64 { return boolv(x < v) })
		add("GreaterEqualConst", []Wire{b.GreaterEqualConst(x, v)}, func(x, _ uint64) uint64 { return boolv(x >= v) })
	}
	add("Add", b.Add(x, y), func(x, y uint64) uint64 { return x + y })
	add("Add of different widths", b.Add(x, y[:1]), func(x, y uint64) uint64 { return x + y&1 })
	all := append(append([]Wire(nil), x...), y...)
	add("PopCount", b.PopCount(all), func(x, y uint64) uint64 { return uint64(bits.OnesCount64(x | y<<w)) })
	add("PopCount of 3", b.PopCount(x[:3]), func(x, _ uint64) uint64 { return uint64(bits.OnesCount64(x & 7)) })
	add("PopCount of none", b.PopCount(nil), func(_, _ uint64) uint64 { return 0 })
	a, m := b.AnyMany(all)
	add("AnyMany any", []Wire{a}, func(x, y uint64) uint64 { return boolv(x|y != 0) })
	add("AnyMany many", []Wire{m}, func(x, y uint64) uint64 { return boolv(bits.OnesCount64(x|y<<w) >= 2) })
	add("ExactlyOne", []Wire{b.ExactlyOne(all)}, func(x, y uint64) uint64 { return boolv(bits.OnesCount64(x|y<<w) == 1) })
	add("OrAll", []Wire{b.OrAll(all)}, func(x, y uint64) uint64 { return boolv(x|y != 0) })
	add("AndAll", []Wire{b.AndAll(all)}, func(x, y uint64) uint64 { return boolv(x == 15 && y == 15) })
	add("AndAll of none", []Wire{b.AndAll(nil)}, func(_, _ uint64) uint64 { return 1 })
	add("XorAll", []Wire{b.XorAll(all)}, func(x, y uint64) uint64 { return uint64(bits.OnesCount64(x|y<<w) & 1) })
	add("InnerProduct", []Wire{b.InnerProduct(x, y)}, func(x, y uint64) uint64 { return uint64(bits.OnesCount64(x&y) & 1) })
	add("MuxWord", b.MuxWord(x[0], y, x), func(x, y uint64) uint64 {
		if x&1 == 1 {
			return y
		}
		return x
	})
	for _, n := range []int{1, 3, 9, 16, 20} {
		add("Decode", b.Decode(x, n), func(x, _ uint64) uint64 {
			if x < uint64(n) {
				return 1 << x
			}
			return 0
		})
	}
	add("Decode of 2 bits", b.Decode(x[:2], 3), func(x, _ uint64) uint64 {
		if x&3 < 3 {
			return 1 << (x & 3)
		}
		return 0
	})
	add("ConstWord", b.ConstWord(10, 4), func(_, _ uint64) uint64 { return 10 })
	c := b.Build()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for xv := range uint64(1 << w) {
		for yv := range uint64(1 << w) {
			out, err := c.Eval(word(xv, w), word(yv, w))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fields {
				if got, want := value(out[f.at:f.at+f.n]), f.want(xv, yv); got != want {
					t.Errorf("%s(%d, %d) = %d, want %d", f.name, xv, yv, got, want)
				}
			}
		}
	}
}

// TestBuildLayout checks the numbering Build promises to garblers.
func TestBuildLayout(t *testing.T) {
	b := NewBuilder()
	g1 := b.Inputs(Garbler, 2)
	e := b.Inputs(Evaluator, 2)
	unused := b.AND(g1[0], e[0])
	x := b.XOR(b.AND(g1[1], e[1]), unused)
	g2 := b.Inputs(Garbler, 1) // declared after gates
	b.Outputs(b.AND(x, g2[0]), b.Zero(), b.One(), e[1], x)
	b.AND(x, e[0]) // after the outputs, unused
	c := b.Build()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for i, w := range c.Inputs[0] {
		if int(w) != i {
			t.Errorf("garbler input %d is wire %d", i, w)
		}
	}
	for i, w := range c.Inputs[1] {
		if int(w) != len(c.Inputs[0])+i {
			t.Errorf("evaluator input %d is wire %d", i, w)
		}
	}
	nIn := len(c.Inputs[0]) + len(c.Inputs[1])
	for i, g := range c.Gates {
		if int(g.Out) != nIn+i {
			t.Errorf("gate %d writes wire %d", i, g.Out)
		}
	}
	if c.NumWires != nIn+len(c.Gates) {
		t.Errorf("%d wires for %d inputs and %d gates", c.NumWires, nIn, len(c.Gates))
	}
	if n := c.ANDCount(); n != 3 {
		t.Errorf("%d AND gates, want 3 (the unused ones dropped)", n)
	}
	for _, in := range [][2][]bool{
		{{false, false, false}, {false, false}},
		{{true, true, true}, {true, true}},
		{{false, true, true}, {true, true}},
		{{true, true, false}, {true, false}},
	} {
		out, err := c.Eval(in[0], in[1])
		if err != nil {
			t.Fatal(err)
		}
		xv := (in[0][1] && in[1][1]) != (in[0][0] && in[1][0])
		want := []bool{xv && in[0][2], false, true, in[1][1], xv}
		for i := range want {
			if out[i] != want[i] {
				t.Errorf("inputs %v: output %d = %v, want %v", in, i, out[i], want[i])
			}
		}
	}
}

func TestCircuitValidate(t *testing.T) {
	good := func() *Circuit {
		return &Circuit{
			NumWires: 5,
			Inputs:   [2][]Wire{{0}, {1}},
			Gates:    []Gate{{Op: OpAND, A: 0, B: 1, Out: 2}, {Op: OpINV, A: 2, Out: 3}, {Op: OpXOR, A: 3, B: 3, Out: 4}},
			Outputs:  []Wire{4, 0},
		}
	}
	if err := good().Validate(); err != nil {
		t.Fatalf("good circuit: %v", err)
	}
	tests := []struct {
		name  string
		spoil func(c *Circuit)
	}{
		{"input beyond the wires", func(c *Circuit) { c.Inputs[0][0] = 5 }},
		{"input twice", func(c *Circuit) { c.Inputs[1][0] = 0 }},
		{"gate reads a wire not yet written", func(c *Circuit) { c.Gates[0].B = 3 }},
		{"INV reads a wire not yet written", func(c *Circuit) { c.Gates[1].A = 4 }},
		{"INV with B set", func(c *Circuit) { c.Gates[1].B = 1 }},
		{"gate writes an input", func(c *Circuit) { c.Gates[0].Out = 1 }},
		{"gate writes a wire twice", func(c *Circuit) { c.Gates[1].Out = 2 }},
		{"unknown op", func(c *Circuit) { c.Gates[0].Op = 7 }},
		{"gate beyond the wires", func(c *Circuit) { c.Gates[2].Out = 9 }},
		{"output never written", func(c *Circuit) { c.NumWires = 6; c.Outputs[0] = 5 }},
		{"negative wires", func(c *Circuit) { c.NumWires = -1 }},
	}
	for _, tt := range tests {
		c := good()
		tt.spoil(c)
		if err := c.Validate(); !errors.Is(err, ErrBadCircuit) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	c := good()
	if _, err := c.Eval([]bool{true}, nil); !errors.Is(err, ErrInputLength) {
		t.Errorf("Eval with a missing input: %v", err)
	}
	for _, tt := range []struct {
		name  string
		spoil func(c *Circuit)
	}{
		{"input beyond the wires", func(c *Circuit) { c.Inputs[0][0] = 5 }},
		{"gate beyond the wires", func(c *Circuit) { c.Gates[2].Out = 9 }},
		{"unknown op", func(c *Circuit) { c.Gates[0].Op = 7 }},
		{"output beyond the wires", func(c *Circuit) { c.Outputs[1] = 5 }},
	} {
		c := good()
		tt.spoil(c)
		if _, err := c.Eval([]bool{true}, []bool{true}); !errors.Is(err, ErrBadCircuit) {
			t.Errorf("Eval, %s: %v", tt.name, err)
		}
	}
	out, err := good().Eval([]bool{true}, []bool{true})
	if err != nil || out[0] != false || out[1] != true {
		t.Errorf("Eval = %v, %v; want [false true]", out, err)
	}
}

// FuzzBuilder builds a random expression with the builder's folding and
// sharing, and checks the built circuit against the same expression
// computed directly.
func FuzzBuilder(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{0x31, 0x42, 0x12, 0x55, 0x61, 0x7f, 0x80, 0x91, 0xa3, 0xb4, 0xc0, 0xd1})
	f.Add([]byte{9, 9, 9, 9, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 200 {
			data = data[:200]
		}
		b := NewBuilder()
		wires := append(b.Inputs(Garbler, 3), b.Inputs(Evaluator, 2)...)
		wires = append(wires, b.Zero(), b.One())
		// expr[i](in) is the value of wires[i].
		exprs := []func(in []bool) bool{
			func(in []bool) bool { return in[0] }, func(in []bool) bool { return in[1] }, func(in []bool) bool { return in[2] },
			func(in []bool) bool { return in[3] }, func(in []bool) bool { return in[4] },
			func([]bool) bool { return false }, func([]bool) bool { return true },
		}
		for i := 0; i+1 < len(data); i += 2 {
			op, x, y := data[i]%6, int(data[i]/6)%len(wires), int(data[i+1])%len(wires)
			ex, ey := exprs[x], exprs[y]
			var w Wire
			var e func([]bool) bool
			switch op {
			case 0:
				w, e = b.XOR(wires[x], wires[y]), func(in []bool) bool { return ex(in) != ey(in) }
			case 1:
				w, e = b.AND(wires[x], wires[y]), func(in []bool) bool { return ex(in) && ey(in) }
			case 2:
				w, e = b.NOT(wires[x]), func(in []bool) bool { return !ex(in) }
			case 3:
				w, e = b.OR(wires[x], wires[y]), func(in []bool) bool { return ex(in) || ey(in) }
			case 4:
				z := wires[len(wires)-1]
				ez := exprs[len(exprs)-1]
				w, e = b.Mux(wires[x], wires[y], z), func(in []bool) bool {
					if ex(in) {
						return ey(in)
					}
					return ez(in)
				}
			case 5:
				w, e = b.XNOR(wires[x], wires[y]), func(in []bool) bool { return ex(in) == ey(in) }
			}
			wires, exprs = append(wires, w), append(exprs, e)
		}
		b.Outputs(wires...)
		c := b.Build()
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		for v := range 32 {
			in := word(uint64(v), 5)
			out, err := c.Eval(in[:3], in[3:])
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range exprs {
				if out[i] != e(in) {
					t.Fatalf("inputs %v: wire %d = %v, want %v", in, i, out[i], e(in))
				}
			}
		}
	})
}

func TestEvalRandomAgainstBuilderCounts(t *testing.T) {
	// The AND count of a built circuit is the number of AND gates it holds.
	rng := rand.New(rand.NewPCG(3, 4))
	b := NewBuilder()
	ws := b.Inputs(Garbler, 8)
	for range 50 {
		ws = append(ws, b.AND(ws[rng.IntN(len(ws))], ws[rng.IntN(len(ws))]))
	}
	b.Outputs(ws...)
	c := b.Build()
	_, and, _ := c.GateCounts()
	if and != c.ANDCount() || and != b.ANDCount() {
		t.Errorf("GateCounts %d, ANDCount %d, builder %d", and, c.ANDCount(), b.ANDCount())
	}
}
