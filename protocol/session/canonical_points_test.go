package session

import (
	"testing"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// Point.Vertex writes it ("E5", "pass"); "e5", "PASS" and "E05" name the
// Go, Bridge Go and Hidden Move Go, in a dead-stone marking, in gomoku's
// opening piece and in F-Go's choices (FG-1), and the machine is left as
// it was.
func TestT10BodyPointsAreCanonical(t *testing.T) {
	for _, variant := range []engine.Variant{engine.VariantGo, engine.VariantBridge, engine.VariantHMG} {
		for _, bad := range []string{"e5", "PASS", "Pass", "E05", "e05"} {
			t.Run(string(variant)+"/"+bad, func(t *testing.T) {
				o := engine.Options{Variant: variant, Size: 9}
				if variant == engine.VariantHMG {
					o.Cards = 1
				}
				d := newFBDriver(t, o, engine.Black)
				if variant == engine.VariantHMG {
					skipHMGCards(d)
				}
				d.violates("T-10", protocol.Inviter, protocol.KindMove, protocol.MoveBody{Point: bad})
				d.must(protocol.Inviter, protocol.KindMove, protocol.MoveBody{Point: "E5"})
			})
		}
	}
	t.Run("go/mark", func(t *testing.T) {
		d := newFBDriver(t, engine.Options{Variant: engine.VariantGo, Size: 9}, engine.Black)
		d.must(protocol.Inviter, protocol.KindMove, protocol.MoveBody{Point: "E5"})
		d.must(protocol.Invitee, protocol.KindMove, protocol.MoveBody{Point: "pass"})
		d.must(protocol.Inviter, protocol.KindMove, protocol.MoveBody{Point: "pass"})
		// Two passes: the player to move (White, the invitee) marks.
		d.violates("GO-4", protocol.Invitee, protocol.KindMark, protocol.MarkBody{Dead: []string{"e5"}})
		d.must(protocol.Invitee, protocol.KindMark, protocol.MarkBody{Dead: []string{"E5"}})
	})
	t.Run("gomoku/opening", func(t *testing.T) {
		d := newFBDriver(t, engine.Options{Variant: engine.VariantGomoku, Size: 7}, engine.Black)
		d.violates("T-10", protocol.Inviter, gomokurules.KindOpening, gomokurules.PointBody{Point: "c3"})
		d.must(protocol.Inviter, gomokurules.KindOpening, gomokurules.PointBody{Point: "C3"})
	})
}

// skipHMGCards gets a Hidden Move Go machine past its card commitments
// if it starts with them.
func skipHMGCards(d *fbDriver) {
	d.t.Helper()
	for r := protocol.Inviter; r <= protocol.Invitee; r++ {
		kind, _, err := d.players[r].message(d.m, r, hmgrules.SetCards{Points: []engine.Point{d.pt("A1")}})
		if err != nil || kind != "" {
			d.t.Fatalf("the %s's cards: %q, %v", r, kind, err)
		}
	}
	for i := 0; i < 4; i++ {
		from, kinds := d.m.Expected()
		if len(kinds) == 0 || kinds[0] == protocol.KindMove {
			return
		}
		d.auto(from)
	}
}
