package gomoku_test

import (
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

// One turn of Hidden Move Double Gomoku between two players' views, as the
// network protocol runs it: each action returns the event the other view
// observes.
func ExampleView() {
	opts := engine.Options{Variant: engine.VariantGomoku}
	inviter, _ := gomoku.NewView(opts, gomoku.Inviter)
	invitee, _ := gomoku.NewView(opts, gomoku.Invitee)
	at := func(s string) engine.Point { p, _ := engine.ParseVertex(9, s); return p }

	// GM-2: the inviter places the X opening piece, the invitee takes X.
	inviter, e, _ := inviter.PlaceOpening(at("E5"))
	invitee, _ = invitee.Observe(e)
	invitee, e, _ = invitee.ChooseSide(gomoku.X)
	inviter, _ = inviter.Observe(e)
	fmt.Println("inviter plays", gomoku.PieceName(inviter.Me()), "and moves first:", inviter.MyTurn())

	// GM-3: O commits to C3 and announces its row; X has nothing hidden
	// there to reveal, so the piece stands hidden.
	inviter, e, _ = inviter.Commit(at("C3"))
	invitee, _ = invitee.Observe(e)
	inviter, e, _ = inviter.Announce(gomoku.Row)
	invitee, _ = invitee.Observe(e)
	fmt.Println("announced:", e.Line.Format(9), "- X may reveal:", engine.FormatVertices(9, invitee.HiddenInLine(e.Line)))
	invitee, e, _ = invitee.Respond(nil)
	inviter, _ = inviter.Observe(e)
	inviter, e, _ = inviter.Declare(gomoku.Declaration{Five: inviter.FiveDue()})
	invitee, _ = invitee.Observe(e)
	fmt.Println("O's C3:", inviter.Own(at("C3")) == gomoku.HiddenPiece, "- X knows of", invitee.OpponentHidden(), "hidden O piece")
	fmt.Println("X to move:", invitee.MyTurn(), "in the", invitee.Phase(), "phase")
	// Output:
	// inviter plays o and moves first: true
	// announced: row 3 - X may reveal: -
	// O's C3: true - X knows of 1 hidden O piece
	// X to move: true in the commit phase
}

// DoubleFive tells the win of GM-6: nine in a row is two lines of five
// sharing one piece, eight in a row is still one line.
func ExampleDoubleFive() {
	nine := engine.MustParseBoard(
		".........", ".........", ".........", ".........", ".........",
		".........", ".........", ".........", "XXXXXXXXX")
	lines, ok := gomoku.DoubleFive(nine, gomoku.X)
	fmt.Println(ok, lines[0].Format(9), lines[1].Format(9))
	eight := engine.MustParseBoard(
		".........", ".........", ".........", ".........", ".........",
		".........", ".........", ".........", "XXXXXXXX.")
	_, ok = gomoku.DoubleFive(eight, gomoku.X)
	fmt.Println(ok, len(gomoku.FiveLines(eight, gomoku.X)), "windows")
	// Output:
	// true A1-E1 E1-J1
	// false 4 windows
}
