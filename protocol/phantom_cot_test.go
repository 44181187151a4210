package protocol_test

import (
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/mpc/referee"
)

// correlatedOptions are threeHalvesOptions with the correlated input OTs
// (MPC-D28).
func correlatedOptions(rules engine.PhantomRules) engine.Options {
	o := threeHalvesOptions(rules)
	o.InputOT = engine.InputOTCorrelated
	return o
}

// TestT8InputOTInTheInvitation (MPC-D28): the form of the input OTs
// travels in the signed invitation's options as "input_ot", absent for
// the game's one OT extension (MPC-D18, older invitations); one meaning
// has one form, so "extension" written out is refused, and so are unknown
// forms, the correlated OTs of a game whose tries are not checked (λ = 1)
// and the option for another variant. The names are package referee's.
func TestT8InputOTInTheInvitation(t *testing.T) {
	if engine.InputOTExtension != referee.InputOTExtension.String() || engine.InputOTCorrelated != referee.InputOTCorrelated.String() {
		t.Fatal("engine and referee name the input OT forms differently")
	}
	o, err := correlatedOptions(engine.RulesCommon).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	b := protocol.OptionsToBody(o)
	if b.InputOT != "correlated" {
		t.Fatalf("body input_ot %q", b.InputOT)
	}
	if back, err := b.Options(); err != nil || back.InputOT != engine.InputOTCorrelated {
		t.Fatalf("round trip: %v, input_ot %q", err, back.InputOT)
	}
	b.InputOT = ""
	if back, err := b.Options(); err != nil || back.InputOT != "" {
		t.Fatalf("without input_ot: %v, %q", err, back.InputOT)
	}
	b.InputOT = "extension"
	if _, err := b.Options(); err == nil {
		t.Error(`"input_ot": "extension" accepted`)
	}
	for _, bad := range []string{"Correlated", "cot", "silent"} {
		if _, err := (engine.Options{Variant: engine.VariantPhantom, Lambda: 4, InputOT: bad}).Normalize(); err == nil {
			t.Errorf("input_ot %q accepted", bad)
		}
	}
	for _, lambda := range []int{0, 1} {
		if _, err := (engine.Options{Variant: engine.VariantPhantom, Lambda: lambda, InputOT: engine.InputOTCorrelated}).Normalize(); err == nil {
			t.Errorf("correlated input OTs accepted with λ = %d", lambda)
		}
	}
	if _, err := (engine.Options{Variant: engine.VariantGo, InputOT: engine.InputOTCorrelated}).Normalize(); err == nil {
		t.Error("input_ot accepted for plain Go")
	}
	if n, err := (engine.Options{Variant: engine.VariantPhantom, Lambda: 4, InputOT: engine.InputOTExtension}).Normalize(); err != nil || n.InputOT != "" {
		t.Errorf("extension normalizes to %q (%v), want \"\"", n.InputOT, err)
	}
	// A body that names the correlated OTs without λ is refused when the
	// invitation is read.
	b = protocol.OptionsToBody(o)
	b.Lambda = 0
	if _, err := b.Options(); err == nil {
		t.Error("an invitation body with input_ot and no λ accepted")
	}
}
