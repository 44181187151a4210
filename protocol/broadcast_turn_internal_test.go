package protocol

import (
	"testing"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/engine"
)

// TestSPECD40TurnsAreBroadcastMoves: the turns the listing of live games
// counts (BroadcastTurn, SPEC-D14) are moves of the broadcast delay
// (BroadcastMove, SPEC-D10) for every variant, role and kind, so the two
// cannot disagree on what a move is; a variant counted each move a turn
// counts every move of either player; F-Go counts the inviter's moves
// only (both choose each turn); Phantom Go counts none of its headers
// (its tries are counted by their announcements); turnCounts names only
// known variants.
func TestSPECD40TurnsAreBroadcastMoves(t *testing.T) {
	kinds := map[Kind]bool{KindInvite: true, KindAccept: true, fgorules.KindAccept: true, fgorules.KindOffer: true, fgorules.KindDecline: true,
		gomokurules.KindCommit: true, gomokurules.KindReveal: true, KindPhantomOutputs: true, KindPhantomTry: true}
	for k := range kindTable {
		kinds[k] = true
	}
	for _, v := range engine.Variants {
		moves := 0
		for k := range kinds {
			if BroadcastMove(v, k) {
				moves++
			}
			for _, from := range []Role{Inviter, Invitee} {
				turn := BroadcastTurn(v, from, k)
				if turn && !BroadcastMove(v, k) {
					t.Errorf("%s: the %s's %s is a turn of the listing but not a move of the broadcast delay", v, from, k)
				}
				if turnCounts[v] == TurnEachMove && turn != BroadcastMove(v, k) {
					t.Errorf("%s: the %s's %s: a turn %v, a move %v; each move is a turn in %s", v, from, k, turn, BroadcastMove(v, k), v)
				}
			}
		}
		if moves == 0 {
			t.Errorf("%s: none of %d kinds is a move", v, len(kinds))
		}
	}
	if !BroadcastTurn(engine.VariantFGo, Inviter, fgorules.KindCommit) || BroadcastTurn(engine.VariantFGo, Invitee, fgorules.KindCommit) {
		t.Error("F-Go: a turn is counted once, by the inviter's commitment")
	}
	for k := range kinds {
		if BroadcastTurn(engine.VariantPhantom, Inviter, k) || BroadcastTurn(engine.VariantPhantom, Invitee, k) {
			t.Errorf("Phantom Go: the header of %s counts a turn; its tries are counted by their announcements", k)
		}
	}
	for v := range turnCounts {
		if _, err := engine.LookupDescriptor(v); err != nil {
			t.Errorf("turnCounts names %v", err)
		}
	}
}
