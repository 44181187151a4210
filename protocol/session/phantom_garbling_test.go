package session_test

import (
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/session"
)

// threeHalvesOptions are checkedOptions with three-halves garbling
// (MPC-D26).
func threeHalvesOptions(rules engine.PhantomRules) engine.Options {
	o := checkedOptions(rules)
	o.Garbling = engine.GarblingThreeHalves
	return o
}

// TestT8GarblingInTheInvitation (MPC-D26): the garbling scheme travels in
// the signed invitation's options as "garbling", absent for half-gates
// (older invitations); one meaning has one form, so "half-gates" written
// out is refused, and so are unknown schemes and a scheme for another
// variant. The names are package gc's.
func TestT8GarblingInTheInvitation(t *testing.T) {
	if engine.GarblingHalfGates != gc.HalfGates.String() || engine.GarblingThreeHalves != gc.ThreeHalves.String() {
		t.Fatal("engine and gc name the garbling schemes differently")
	}
	o, err := threeHalvesOptions(engine.RulesCommon).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	b := protocol.OptionsToBody(o)
	if b.Garbling != "three-halves" {
		t.Fatalf("body garbling %q", b.Garbling)
	}
	if back, err := b.Options(); err != nil || back.Garbling != engine.GarblingThreeHalves {
		t.Fatalf("round trip: %v, garbling %q", err, back.Garbling)
	}
	b.Garbling = ""
	if back, err := b.Options(); err != nil || back.Garbling != "" {
		t.Fatalf("without garbling: %v, %q", err, back.Garbling)
	}
	b.Garbling = "half-gates"
	if _, err := b.Options(); err == nil {
		t.Error(`"garbling": "half-gates" accepted`)
	}
	for _, bad := range []string{"quarter-gates", "Three-Halves"} {
		if _, err := (engine.Options{Variant: engine.VariantPhantom, Garbling: bad}).Normalize(); err == nil {
			t.Errorf("garbling %q accepted", bad)
		}
	}
	if _, err := (engine.Options{Variant: engine.VariantGo, Garbling: engine.GarblingThreeHalves}).Normalize(); err == nil {
		t.Error("garbling accepted for plain Go")
	}
	if n, err := (engine.Options{Variant: engine.VariantPhantom, Garbling: engine.GarblingHalfGates}).Normalize(); err != nil || n.Garbling != "" {
		t.Errorf("half-gates normalizes to %q (%v), want \"\"", n.Garbling, err)
	}
}

// TestT8PhantomCheckedGameThreeHalves is TestT8PhantomCheckedGame with
// three-halves garbling (MPC-D26): two honest programs play a whole game
// with λ = 4 over libp2p, nobody is accused, the garbled tables of the
// record's invitation names three-halves, and Verify, which replays the
// game with the invitation's scheme (an evaluator of a half-gates game
// refuses three-halves tables), finds it clean. Without the race
// detector.
func TestT8PhantomCheckedGameThreeHalves(t *testing.T) {
	t.Parallel()
	if phantomRace {
		t.Skip("a whole checked game: without the race detector (go test ./...)")
	}
	h := playPhantomCheatOpts(t, threeHalvesOptions(engine.RulesKriegspiel), 0, nil, nil)
	if out := h.Outcome(); out == nil || out.Violation != nil {
		t.Fatalf("outcome %+v, want an honest end", out)
	}
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	m := protocol.NewMachine(tr.Game)
	if _, err := m.Apply(&tr.Messages[0]); err != nil || m.Options.Garbling != engine.GarblingThreeHalves {
		t.Fatalf("the record's invitation: garbling %q (%v)", m.Options.Garbling, err)
	}
	if rep := protocol.Verify(tr); rep.Violation != nil {
		t.Errorf("Verify finds %v in an honest three-halves game", rep.Violation)
	}
}

// TestT8PhantomCertificateThreeHalves is
// TestT8PhantomCertificateOfAnOpenedGarbling with three-halves garbling:
// the garbler's program commits to garblings its seeds do not give; the
// evaluator's program catches it with a certificate before it sends any
// output label, and Verify, re-garbling with the record's scheme, finds
// the same on the record (T-8(b), T-13, MPC-D26).
func TestT8PhantomCertificateThreeHalves(t *testing.T) {
	h := playPhantomCheatOpts(t, threeHalvesOptions(engine.RulesHamburg), 0, phantomRewrite(3, func(body any) any {
		return session.PhantomTamper(body, 0, func(b []byte) []byte {
			for i := range 4 {
				b[13+96*i+32+5] ^= 1
			}
			return b
		})
	}, phantomrules.KindCommitment), nil)
	checkPhantomCaught(t, h, "T-8", "certificate")
	checkNoReveal(t, h)
}
