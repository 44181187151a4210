//go:build !amd64 || purego

package ot

// hasColumnAsm: no assembly path on this architecture (or with the
// purego build tag).
const hasColumnAsm = false

func shortColumnAESNI(key *Key, batch uint64, dst *byte, groups int) {
	panic("ot: no AES-NI")
}
