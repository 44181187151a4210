package circuit

import "math/bits"

// Multi-bit values are slices of wires, least significant bit first.

// ConstWord returns the n-bit constant v (bits of v above n are dropped).
func (b *Builder) ConstWord(v uint64, n int) []Wire {
	ws := make([]Wire, n)
	for i := range ws {
		ws[i] = b.Const(i < 64 && v>>uint(i)&1 == 1)
	}
	return ws
}

// AndAll returns the AND of ws (true for none): len(ws)-1 AND gates at
// most, as a balanced tree.
func (b *Builder) AndAll(ws []Wire) Wire {
	switch len(ws) {
	case 0:
		return b.One()
	case 1:
		return ws[0]
	}
	h := len(ws) / 2
	return b.AND(b.AndAll(ws[:h]), b.AndAll(ws[h:]))
}

// OrAll returns the OR of ws (false for none): len(ws)-1 AND gates at
// most.
func (b *Builder) OrAll(ws []Wire) Wire {
	switch len(ws) {
	case 0:
		return b.Zero()
	case 1:
		return ws[0]
	}
	h := len(ws) / 2
	return b.OR(b.OrAll(ws[:h]), b.OrAll(ws[h:]))
}

// XorAll returns the XOR of ws (false for none), free.
func (b *Builder) XorAll(ws []Wire) Wire {
	acc := b.Zero()
	for _, w := range ws {
		acc = b.XOR(acc, w)
	}
	return acc
}

// AnyMany returns whether at least one and whether at least two of ws are
// true, with 2·len(ws)-3 AND gates at most. Exactly one is
// AND(any, NOT many).
func (b *Builder) AnyMany(ws []Wire) (anyTrue, manyTrue Wire) {
	anyTrue, manyTrue = b.Zero(), b.Zero()
	for _, x := range ws {
		both := b.AND(anyTrue, x)
		anyTrue = b.XOR(b.XOR(anyTrue, x), both) // anyTrue OR x, sharing the AND
		manyTrue = b.OR(manyTrue, both)
	}
	return anyTrue, manyTrue
}

// ExactlyOne returns whether exactly one of ws is true.
func (b *Builder) ExactlyOne(ws []Wire) Wire {
	a, m := b.AnyMany(ws)
	return b.AND(a, b.NOT(m))
}

// InnerProduct returns the XOR over i of sel[i] AND ws[i]. With sel one-hot
// (or all false) it reads ws at the selected position (false for none):
// len(ws) AND gates at most.
func (b *Builder) InnerProduct(sel, ws []Wire) Wire {
	if len(sel) != len(ws) {
		panic("circuit: InnerProduct of different lengths")
	}
	acc := b.Zero()
	for i := range ws {
		acc = b.XOR(acc, b.AND(sel[i], ws[i]))
	}
	return acc
}

// Equal returns whether the words x and y are equal; the shorter one is
// extended with zeros. len-1 AND gates at most, fewer against constants.
func (b *Builder) Equal(x, y []Wire) Wire {
	n := max(len(x), len(y))
	eq := make([]Wire, n)
	for i := range eq {
		eq[i] = b.XNOR(b.bit(x, i), b.bit(y, i))
	}
	return b.AndAll(eq)
}

// EqualConst returns whether the word x equals the constant v.
func (b *Builder) EqualConst(x []Wire, v uint64) Wire {
	if bits.Len64(v) > len(x) {
		return b.Zero()
	}
	return b.Equal(x, b.ConstWord(v, len(x)))
}

// LessConst returns whether the word x is less than the constant v: at
// most one AND gate per bit of x (none below the lowest set bit of v).
func (b *Builder) LessConst(x []Wire, v uint64) Wire {
	if bits.Len64(v) > len(x) {
		return b.One()
	}
	lt := b.Zero()
	for i, xi := range x {
		if v>>uint(i)&1 == 1 {
			lt = b.OR(b.NOT(xi), lt)
		} else {
			lt = b.AND(b.NOT(xi), lt)
		}
	}
	return lt
}

// GreaterEqualConst returns whether the word x is at least v.
func (b *Builder) GreaterEqualConst(x []Wire, v uint64) Wire {
	return b.NOT(b.LessConst(x, v))
}

// Decode returns the one-hot vector of the word x over the values 0 to
// n-1: out[v] is true exactly when x == v, and all are false when x >= n.
// About n AND gates (plus the square root of that for the halves).
func (b *Builder) Decode(x []Wire, n int) []Wire {
	out := make([]Wire, max(n, 0))
	for i := range out {
		out[i] = b.Zero()
	}
	if n <= 0 {
		return out
	}
	if len(x) < 63 && n > 1<<uint(len(x)) {
		n = 1 << uint(len(x)) // values x cannot take stay false
	}
	switch len(x) {
	case 0:
		out[0] = b.One()
		return out
	case 1:
		out[0] = b.NOT(x[0])
		if n > 1 {
			out[1] = x[0]
		}
		return out
	}
	k := len(x) / 2
	lo := b.Decode(x[:k], min(n, 1<<uint(k)))
	hi := b.Decode(x[k:], (n+(1<<uint(k))-1)>>uint(k))
	mask := 1<<uint(k) - 1
	for v := range n {
		out[v] = b.AND(lo[v&mask], hi[v>>uint(k)])
	}
	return out
}

// fullAdd returns the sum and carry bits of x+y+z, one AND gate.
func (b *Builder) fullAdd(x, y, z Wire) (sum, carry Wire) {
	sum = b.XOR(b.XOR(x, y), z)
	carry = b.XOR(z, b.AND(b.XOR(x, z), b.XOR(y, z)))
	return sum, carry
}

// Add returns x + y with one more bit than the longer of them: one AND gate
// per bit.
func (b *Builder) Add(x, y []Wire) []Wire {
	n := max(len(x), len(y))
	out := make([]Wire, n+1)
	carry := b.Zero()
	for i := range n {
		out[i], carry = b.fullAdd(b.bit(x, i), b.bit(y, i), carry)
	}
	out[n] = carry
	return out
}

// PopCount returns the number of true wires among ws, as a word of
// bits.Len(len(ws)) bits: about len(ws) AND gates (full adders compressing
// each column).
func (b *Builder) PopCount(ws []Wire) []Wire {
	width := bits.Len(uint(len(ws)))
	cols := make([][]Wire, width+1)
	cols[0] = append([]Wire(nil), ws...)
	out := make([]Wire, width)
	for w := range width {
		col := cols[w]
		for len(col) >= 3 {
			s, c := b.fullAdd(col[0], col[1], col[2])
			col = append(col[3:], s)
			cols[w+1] = append(cols[w+1], c)
		}
		if len(col) == 2 {
			cols[w+1] = append(cols[w+1], b.AND(col[0], col[1]))
			col = []Wire{b.XOR(col[0], col[1])}
		}
		out[w] = b.Zero()
		if len(col) == 1 {
			out[w] = col[0]
		}
	}
	return out
}

// MuxWord returns ifTrue when sel is true and ifFalse otherwise, bit by
// bit; the shorter word is extended with zeros.
func (b *Builder) MuxWord(sel Wire, ifTrue, ifFalse []Wire) []Wire {
	out := make([]Wire, max(len(ifTrue), len(ifFalse)))
	for i := range out {
		out[i] = b.Mux(sel, b.bit(ifTrue, i), b.bit(ifFalse, i))
	}
	return out
}

// bit returns x[i], or the constant false beyond the end of x.
func (b *Builder) bit(x []Wire, i int) Wire {
	if i < len(x) {
		return x[i]
	}
	return b.Zero()
}
