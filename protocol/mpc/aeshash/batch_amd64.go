//go:build amd64 && !purego

package aeshash

import "golang.org/x/sys/cpu"

// hasAssembly: the processor has AES-NI (and SSE2, always on amd64).
var hasAssembly = cpu.X86.HasAES
