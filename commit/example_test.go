package commit_test

import (
	"fmt"

	"github.com/kakure/kakure/commit"
)

func Example() {
	game := []byte("example-game")
	// Black hides a move: it sends the commitment now and the opening later.
	c, opening, err := commit.New("kakure/hmg/hidden-move", game, 0, 1, []byte("D4"))
	if err != nil {
		panic(err)
	}
	// White checks the opening when it comes.
	fmt.Println(commit.Verify(c, "kakure/hmg/hidden-move", game, 0, 1, opening))
	opening.Value = []byte("Q16")
	fmt.Println(commit.Verify(c, "kakure/hmg/hidden-move", game, 0, 1, opening))
	// Output:
	// <nil>
	// commit: domain "kakure/hmg/hidden-move", player 0, item 1: commit: opening does not match the commitment
}
