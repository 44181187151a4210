//go:build amd64 && !purego

package gc

import "golang.org/x/sys/cpu"

// haveAVX2 says whether the processor has AVX2, which the finishing
// arithmetic of th3Garble4VAES and th3Garble2AESNI uses; with AES-NI but
// no AVX2 three-halves garbling hashes each gate with tccr6AESNI.
var haveAVX2 = cpu.X86.HasAVX2

// haveBMI2 says whether the processor has BMI2, whose shifts
// th3GarbleRun4VAES uses (every processor with VAES has it).
var haveBMI2 = cpu.X86.HasBMI2

// tccr6AESNI sets out[k] = H(x[k], t[k]) for k = 0..5 with AES-NI
// (threehalves_amd64.s, written by gen_gates_amd64.go with
// gen_threehalves_amd64.go through go generate in gates_amd64.go, as are
// all routines of this file).
//
//go:noescape
func tccr6AESNI(rk *[176]byte, x, t, out *[6]blk)

// tccr3AESNI sets out[k] = H(x[k], t[k]) for k = 0..2 with AES-NI.
//
//go:noescape
func tccr3AESNI(rk *[176]byte, x, t, out *[3]blk)

// th3Garble4VAES garbles the four three-halves AND gates of gs (none
// reading another's output; an entry may repeat) with VAES and AVX2:
// their 24 TCCR hashes in twelve 256-bit registers, then the scheme's
// arithmetic with the rows of lin and of the garbling's dt. It writes
// each gate's output zero label and table, and its control bits z over
// the coins in its ctl.
//
//go:noescape
func th3Garble4VAES(rk *[176]byte, lin *[16]th3LinRow, dt *[16]th3DeltaRow, delta *blk, gs *[4]th3Arg, instance uint64)

// th3GarbleRun4VAES garbles the run.n AND gates of run.steps (n a
// multiple of four; none reading another's output) four at a time as
// th3Garble4VAES does, the loop over the steps in assembly: it takes
// each gate's wires, table and coins from its step, as garbleScheduled3
// does for th3Garble4VAES, and ORs its control bits into run.ctl. It
// needs BMI2 besides VAES and AVX2.
//
//go:noescape
func th3GarbleRun4VAES(rk *[176]byte, lin *[16]th3LinRow, dt *[16]th3DeltaRow, delta *blk, run *th3Run, instance uint64)

// th3Garble2AESNI is th3Garble4VAES on two gates with AES-NI (twelve
// blocks in flight) and AVX2.
//
//go:noescape
func th3Garble2AESNI(rk *[176]byte, lin *[16]th3LinRow, dt *[16]th3DeltaRow, delta *blk, gs *[2]th3Arg, instance uint64)

// th3Evaluate4AESNI evaluates the four three-halves AND gates of gs
// (none reading another's output; an entry may repeat; ctl holds each
// gate's control bits) with AES-NI: their twelve TCCR hashes in flight,
// then the scheme's arithmetic with the rows of rows and zt.
//
//go:noescape
func th3Evaluate4AESNI(rk *[176]byte, rows *[16]th3EvalRow, zt *[128]byte, gs *[4]th3Arg, instance uint64)

// th3Evaluate2AESNI is th3Evaluate4AESNI on two gates (six blocks in
// flight), for batches cut short.
//
//go:noescape
func th3Evaluate2AESNI(rk *[176]byte, rows *[16]th3EvalRow, zt *[128]byte, gs *[2]th3Arg, instance uint64)

// th3EvaluateRun4VAES evaluates the run.n AND gates of run.steps (n a
// multiple of four; none reading another's output) four at a time as
// th3Evaluate4VAES does, the loop over the steps in assembly: it takes
// each gate's wires, table and control bits (from run.ctl) from its
// step, as evaluateScheduled3 does for th3Evaluate4VAES. It needs BMI2.
//
//go:noescape
func th3EvaluateRun4VAES(rk *[176]byte, rows *[16]th3EvalRow, zt *[128]byte, run *th3Run, instance uint64)

// th3Evaluate4VAES is th3Evaluate4AESNI with VAES: the twelve blocks of
// each AES layer in six 256-bit registers.
//
//go:noescape
func th3Evaluate4VAES(rk *[176]byte, rows *[16]th3EvalRow, zt *[128]byte, gs *[4]th3Arg, instance uint64)
