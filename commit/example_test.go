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

func ExampleCoinToss() {
	game := []byte("example-game")
	inviter, _ := commit.NewCoinToss(game, 0, 0)
	guest, _ := commit.NewCoinToss(game, 0, 1)

	// Commitments cross first, then reveals.
	inviter.ReceiveCommitment(guest.Commitment())
	guest.ReceiveCommitment(inviter.Commitment())
	inviterReveal, _ := inviter.Reveal()
	guestReveal, _ := guest.Reveal()
	fmt.Println(inviter.ReceiveReveal(guestReveal), guest.ReceiveReveal(inviterReveal))

	r1, _ := inviter.Result()
	r2, _ := guest.Result()
	black := r1.Derive("colours").Bit() // the seat that plays Black
	fmt.Println(r1 == r2, black == r2.Derive("colours").Bit())
	// Output:
	// <nil> <nil>
	// true true
}
