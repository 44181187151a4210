//go:build amd64 && !purego

package gc

// tccr6AESNI sets out[k] = H(x[k], t[k]) for k = 0..5 with AES-NI
// (threehalves_amd64.s, written by gen_gates_amd64.go through go generate
// in gates_amd64.go, as is tccr3AESNI).
//
//go:noescape
func tccr6AESNI(rk *[176]byte, x, t, out *[6]blk)

// tccr3AESNI sets out[k] = H(x[k], t[k]) for k = 0..2 with AES-NI.
//
//go:noescape
func tccr3AESNI(rk *[176]byte, x, t, out *[3]blk)
