//go:build !amd64 || purego

package aeshash

// hasAssembly: no assembly path on this architecture (or with the
// purego build tag).
const hasAssembly = false
