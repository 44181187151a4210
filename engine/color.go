package engine

import "fmt"

// Color is the content of a point, or the player who owns a stone.
type Color uint8

// The colours. Empty is the zero value.
const (
	Empty Color = iota
	Black
	White
)

// Opponent returns the other player; Empty stays Empty.
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String returns "black", "white" or "empty".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	case Empty:
		return "empty"
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// ParseColor reads a GTP colour: "b", "black", "w" or "white", in any case.
func ParseColor(s string) (Color, error) {
	switch lower(s) {
	case "b", "black":
		return Black, nil
	case "w", "white":
		return White, nil
	}
	return Empty, fmt.Errorf("engine: %q is not a colour (want black or white)", s)
}

// lower is strings.ToLower for ASCII, kept here so that the hot path of
// coordinate parsing allocates nothing for already-lowercase input.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
