//go:build amd64 && !purego

package gc

//go:generate go run gen_gates_amd64.go gen_threehalves_amd64.go

import (
	"golang.org/x/sys/cpu"

	"github.com/kakure/kakure/protocol/mpc/internal/cpuid"
)

// haveGateAssembly: the fused gate routines of gates_amd64.s exist; they
// run where aeshash.Assembly() is on (AES-NI).
const haveGateAssembly = true

// haveVAES: the processor has VAES (AES on 256-bit registers) and AVX2,
// for garble4VAES. golang.org/x/sys/cpu reports VAES only on processors
// with AVX-512 (HasAVX512VAES), so the VEX-encoded VAES of processors
// without it (AMD Zen 3 and later, Intel Alder Lake cores) is read from
// CPUID by package cpuid (MPC-D44); the routines use only 256-bit
// registers.
var haveVAES = cpu.X86.HasAVX2 && (cpu.X86.HasAVX512VAES || cpuid.VAES())

// garble2AESNI garbles the AND gates with input zero labels a, b (the
// j-th) and c, d (the j2-th): the four TCCR hashes of each with AES-NI,
// both AES layers of the eight blocks interleaved, then half-gates,
// writing the output zero labels to out and out2 and the tables to t and
// t2. The two gates must not read each other's outputs; they may be the
// same gate (a single gate is garbled twice, to the same values).
//
//go:noescape
func garble2AESNI(rk *[176]byte, delta, a, b, c, d *blk, j, j2, instance uint64, out, out2 *blk, t, t2 *[TableSize]byte)

// evaluate4AESNI evaluates the four AND gates of gs (none reading
// another's output; an entry may repeat): the two TCCR hashes of each
// with AES-NI, eight blocks in flight, then half-gates.
//
//go:noescape
func evaluate4AESNI(rk *[176]byte, gs *[4]gateArg, instance uint64)

// garble4VAES garbles the four AND gates of gs (none reading another's
// output; an entry may repeat) with VAES: the four TCCR hashes of each,
// sixteen blocks in flight in eight 256-bit registers, then half-gates.
//
//go:noescape
func garble4VAES(rk *[176]byte, delta *blk, gs *[4]gateArg, instance uint64)

// evaluate2AESNI is evaluate4AESNI on two gates (four blocks in flight),
// for batches that a gate reading their outputs cut short.
//
//go:noescape
func evaluate2AESNI(rk *[176]byte, gs *[2]gateArg, instance uint64)
