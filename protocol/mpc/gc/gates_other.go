//go:build !amd64 || purego

package gc

// haveGateAssembly: no fused gate routines on this architecture (or with
// the purego build tag); the gate loops hash through aeshash.
const haveGateAssembly = false

// haveVAES: no garble4VAES.
const haveVAES = false

func garble2AESNI(*[176]byte, *blk, *blk, *blk, *blk, *blk, uint64, uint64, uint64, *blk, *blk, *[TableSize]byte, *[TableSize]byte) {
	panic("gc: no gate assembly")
}

func evaluate4AESNI(*[176]byte, *[4]gateArg, uint64) {
	panic("gc: no gate assembly")
}

func garble4VAES(*[176]byte, *blk, *[4]gateArg, uint64) {
	panic("gc: no gate assembly")
}

func evaluate2AESNI(*[176]byte, *[2]gateArg, uint64) {
	panic("gc: no gate assembly")
}
