//go:build !amd64 || purego

package gc

func tccr6AESNI(*[176]byte, *[6]blk, *[6]blk, *[6]blk) {
	panic("gc: no three-halves assembly")
}

func tccr3AESNI(*[176]byte, *[3]blk, *[3]blk, *[3]blk) {
	panic("gc: no three-halves assembly")
}
