package gtp

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/kakure/kakure/engine"
)

// errSyntax is GTP's answer to arguments it cannot read.
var errSyntax = errors.New("syntax error")

// errIllegal is GTP's answer to an illegal move.
var errIllegal = errors.New("illegal move")

// wantArgs checks the number of arguments.
func wantArgs(args []string, n int) error {
	if len(args) != n {
		return errSyntax
	}
	return nil
}

// colorArg reads a GTP colour.
func colorArg(s string) (engine.Color, error) {
	c, err := engine.ParseColor(s)
	if err != nil {
		return engine.Empty, fmt.Errorf("invalid color")
	}
	return c, nil
}

// vertexArg reads a GTP vertex on a board of side size.
func vertexArg(size int, s string) (engine.Point, error) {
	p, err := engine.ParseVertex(size, s)
	if err != nil {
		return engine.NoPoint, fmt.Errorf("invalid coordinate")
	}
	return p, nil
}

// vertexList formats points as GTP list_stones does: space separated.
func vertexList(size int, ps []engine.Point) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Vertex(size)
	}
	return strings.Join(parts, " ")
}

// boolToken writes 0 or 1, as the kakure extensions do.
func boolToken(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// showBoard draws b with a blank first line, so that the drawing starts on
// its own line after "= ".
func showBoard(b engine.Board) string { return "\n" + strings.TrimRight(b.String(), "\n") }

// moveRNG returns a generator for genmove that depends only on the
// position and the move number, so a GTP session is reproducible.
func moveRNG(b engine.Board, moveNumber int) *rand.Rand {
	return rand.New(rand.NewPCG(b.Hash(), uint64(moveNumber)))
}

// botSeed returns the seed of genmove's bot: like moveRNG, it depends
// only on the position and the move number, so a session replays
// identically.
func botSeed(b engine.Board, moveNumber int) uint64 {
	return b.Hash() ^ uint64(moveNumber)*0x9e3779b97f4a7c15
}

// isOwnEye reports whether p is an empty point whose neighbours are all
// stones of c, so that a random mover would only fill its own eye there.
func isOwnEye(b engine.Board, p engine.Point, c engine.Color) bool {
	if b.At(p) != engine.Empty {
		return false
	}
	ns, n := b.Neighbors(p)
	for _, q := range ns[:n] {
		if b.At(q) != c {
			return false
		}
	}
	return true
}

// scoreText writes a score as final_score does: "B+3.5", "W+0.5" or "0".
func scoreText(s engine.Score) string { return s.Result().String() }

// undoLast is GTP's undo for handlers whose state is a value: it takes no
// arguments and restores the newest state of stack into cur.
func undoLast[T any](args []string, cur *T, stack *[]T) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	if len(*stack) == 0 {
		return "", errors.New("cannot undo")
	}
	*cur = (*stack)[len(*stack)-1]
	*stack = (*stack)[:len(*stack)-1]
	return "", nil
}
