//go:build amd64 && !purego

package ot

import "golang.org/x/sys/cpu"

// hasColumnAsm: the processor has AES-NI, for shortColumnAESNI.
var hasColumnAsm = cpu.X86.HasAES

// shortColumnAESNI writes 64·groups bytes of G(k, batch) at dst (the
// CTR stream of AES-256 under key from the counter block batch ‖ 0),
// expanding the key on the stack: no cipher on the heap (issue 38).
//
//go:noescape
func shortColumnAESNI(key *Key, batch uint64, dst *byte, groups int)
