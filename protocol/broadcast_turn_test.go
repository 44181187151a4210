package protocol_test

import (
	"github.com/kakure/kakure/protocol"
	_ "github.com/kakure/kakure/protocol/variants"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

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
	kinds := map[protocol.Kind]bool{protocol.KindInvite: true, protocol.KindAccept: true, fgorules.KindAccept: true, fgorules.KindOffer: true, fgorules.KindDecline: true,
		gomokurules.KindCommit: true, gomokurules.KindReveal: true, phantomrules.KindOutputs: true, phantomrules.KindTry: true}
	for k := range protocol.KindTable {
		kinds[k] = true
	}
	for _, v := range engine.Variants {
		if protocol.BroadcastMoveKinds[v] == nil {
			continue // TestEveryVariantHasRules names it
		}
		moves := 0
		for k := range kinds {
			if protocol.BroadcastMove(v, k) {
				moves++
			}
			for _, from := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
				turn := protocol.BroadcastTurn(v, from, k)
				if turn && !protocol.BroadcastMove(v, k) {
					t.Errorf("%s: the %s's %s is a turn of the listing but not a move of the broadcast delay", v, from, k)
				}
				if protocol.TurnCounts[v] == protocol.TurnEachMove && turn != protocol.BroadcastMove(v, k) {
					t.Errorf("%s: the %s's %s: a turn %v, a move %v; each move is a turn in %s", v, from, k, turn, protocol.BroadcastMove(v, k), v)
				}
			}
		}
		if moves == 0 {
			t.Errorf("%s: none of %d kinds is a move", v, len(kinds))
		}
	}
	if !protocol.BroadcastTurn(engine.VariantFGo, protocol.Inviter, fgorules.KindCommit) || protocol.BroadcastTurn(engine.VariantFGo, protocol.Invitee, fgorules.KindCommit) {
		t.Error("F-Go: a turn is counted once, by the inviter's commitment")
	}
	for k := range kinds {
		if protocol.BroadcastTurn(engine.VariantPhantom, protocol.Inviter, k) || protocol.BroadcastTurn(engine.VariantPhantom, protocol.Invitee, k) {
			t.Errorf("Phantom Go: the header of %s counts a turn; its tries are counted by their announcements", k)
		}
	}
	for v := range protocol.TurnCounts {
		if _, err := engine.LookupDescriptor(v); err != nil {
			t.Errorf("turnCounts names %v", err)
		}
	}
}
