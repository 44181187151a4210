//go:build !amd64 || purego

package referee

// hasSHANI: no assembly on this architecture (or with the purego tag).
const hasSHANI = false

func blockSHANI(h *[8]uint32, p *[64]byte) {
	panic("referee: no SHA extensions")
}
