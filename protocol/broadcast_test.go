package protocol_test

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// TestSPECD10BroadcastDelaySyntax: ParseBroadcastDelay reads what String
// writes, and refuses what is not a delay with the reason (SPEC-D10,
// SPEC-D12); Covers compares moves and time each.
func TestSPECD10BroadcastDelaySyntax(t *testing.T) {
	for in, want := range map[string]protocol.BroadcastDelay{
		"off": {}, "0": {}, "20moves": {Moves: 20}, "1move": {Moves: 1}, "90s": {Seconds: 90},
		"1h30m": {Seconds: 5400}, "20moves,10m": {Moves: 20, Seconds: 600}, "10m, 20moves": {Moves: 20, Seconds: 600},
	} {
		got, err := protocol.ParseBroadcastDelay(in)
		if err != nil || got != want {
			t.Errorf("%q: %v (%v), want %v", in, got, err, want)
			continue
		}
		if back, err := protocol.ParseBroadcastDelay(got.String()); err != nil || back != got {
			t.Errorf("%q written %q reads %v (%v)", in, got.String(), back, err)
		}
	}
	for in, why := range map[string]string{
		"": "empty", "soon": "neither moves", "0moves": "not a positive number", "-2moves": "not a positive number",
		"1.5s": "whole number of seconds", "0s": "whole number of seconds", "3moves,4moves": "moves given twice",
		"1m,2m": "a time given twice", "1001moves": "0 to 1000", "25h": "is over",
	} {
		if d, err := protocol.ParseBroadcastDelay(in); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v (%v), want an error saying %q", in, d, err, why)
		}
	}
	d := protocol.BroadcastDelay{Moves: 4, Seconds: 60}
	for least, want := range map[protocol.BroadcastDelay]bool{
		{}: true, {Moves: 4}: true, {Moves: 4, Seconds: 60}: true, {Moves: 5}: false, {Seconds: 61}: false,
	} {
		if d.Covers(least) != want {
			t.Errorf("%v covers %v: %v", d, least, !want)
		}
	}
}

// TestSPECD11BroadcastMovesCount: the one count of moves that the
// publisher and the spectator share (SPEC-D11): a Phantom Go try is a
// move at its outputs, whoever tried; positions, totals and the moves
// since a position as counted.
func TestSPECD11BroadcastMovesCount(t *testing.T) {
	var c protocol.BroadcastMoves
	kinds := []protocol.Kind{protocol.KindInvite, protocol.KindAccept, phantomrules.KindTry, phantomrules.KindOutputs,
		phantomrules.KindTry, phantomrules.KindOutputs, protocol.KindChat}
	for _, k := range kinds {
		c.Add(engine.VariantPhantom, k)
	}
	if c.Len() != len(kinds) || c.Total() != 2 {
		t.Fatalf("Len %d, Total %d; want %d, 2", c.Len(), c.Total(), len(kinds))
	}
	for i, want := range []uint64{3, 5} {
		if at, ok := c.MoveAt(i); !ok || at != want {
			t.Errorf("MoveAt(%d) = %d, %v; want %d", i, at, ok, want)
		}
	}
	if _, ok := c.MoveAt(2); ok {
		t.Error("MoveAt(2) of two moves")
	}
	for _, tc := range []struct{ after, since int }{{-1, 2}, {0, 2}, {3, 1}, {4, 1}, {5, 0}, {6, 0}} {
		if got := c.Since(tc.after); got != tc.since {
			t.Errorf("Since(%d) = %d, want %d", tc.after, got, tc.since)
		}
	}
	if c.UpTo(2) != 0 || c.UpTo(3) != 1 || c.UpTo(6) != 2 {
		t.Errorf("UpTo(2, 3, 6) = %d, %d, %d; want 0, 1, 2", c.UpTo(2), c.UpTo(3), c.UpTo(6))
	}
}
