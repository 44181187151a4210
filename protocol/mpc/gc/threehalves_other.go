//go:build !amd64 || purego

package gc

// haveAVX2: no three-halves assembly here.
const haveAVX2 = false

// haveBMI2: no three-halves assembly here.
const haveBMI2 = false

func tccr6AESNI(*[176]byte, *[6]blk, *[6]blk, *[6]blk) {
	panic("gc: no three-halves assembly")
}

func tccr3AESNI(*[176]byte, *[3]blk, *[3]blk, *[3]blk) {
	panic("gc: no three-halves assembly")
}

func th3Garble4VAES(*[176]byte, *[16]th3LinRow, *[16]th3DeltaRow, *blk, *[4]th3Arg, uint64) {
	panic("gc: no three-halves assembly")
}

func th3GarbleRun4VAES(*[176]byte, *[16]th3LinRow, *[16]th3DeltaRow, *blk, *th3Run, uint64) {
	panic("gc: no three-halves assembly")
}

func th3Garble2AESNI(*[176]byte, *[16]th3LinRow, *[16]th3DeltaRow, *blk, *[2]th3Arg, uint64) {
	panic("gc: no three-halves assembly")
}

func th3Evaluate4AESNI(*[176]byte, *[16]th3EvalRow, *[128]byte, *[4]th3Arg, uint64) {
	panic("gc: no three-halves assembly")
}

func th3Evaluate2AESNI(*[176]byte, *[16]th3EvalRow, *[128]byte, *[2]th3Arg, uint64) {
	panic("gc: no three-halves assembly")
}

func th3Evaluate4VAES(*[176]byte, *[16]th3EvalRow, *[128]byte, *[4]th3Arg, uint64) {
	panic("gc: no three-halves assembly")
}

func th3EvaluateRun4VAES(*[176]byte, *[16]th3EvalRow, *[128]byte, *th3Run, uint64) {
	panic("gc: no three-halves assembly")
}
