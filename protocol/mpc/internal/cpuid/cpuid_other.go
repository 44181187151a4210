//go:build !amd64 || purego

package cpuid

func leaf7() (ebx, ecx uint32, ok bool) { return 0, 0, false }
