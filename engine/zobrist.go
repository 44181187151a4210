package engine

// zobrist holds a fixed pseudo-random key per point and colour, and
// zobristSize one per board side. They come from a fixed-seed generator, so
// hashes are the same in every run and on every machine.
var (
	zobrist     [MaxPoints][2]uint64
	zobristSize [MaxSize + 1]uint64
)

func init() {
	// splitmix64 with a fixed seed: deterministic and well mixed.
	state := uint64(0x6b616b757265) // "kakure"
	next := func() uint64 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for i := range zobrist {
		zobrist[i][0] = next()
		zobrist[i][1] = next()
	}
	for i := range zobristSize {
		zobristSize[i] = next()
	}
}

// StoneKey returns the Zobrist key of a stone of colour c (Black or White)
// at p: [Board.Hash] is the XOR of the keys of the board's stones and of one
// key for the board's side, so placing or removing a stone changes the hash
// by its key.
func StoneKey(p Point, c Color) uint64 { return zobrist[p][c-1] }
