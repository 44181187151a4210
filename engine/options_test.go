package engine

import (
	"errors"
	"math"
	"testing"
)

// TestOptionsNormalizeDefaults checks the defaults every variant gets from
// the zero value of each field (GO-5 komi 7.5, F-Go komi 0, PG-9 9×9,
// HMG-1 three cards, HMG-7 19×19, GM-1 9×9, FG-5 nz).
func TestOptionsNormalizeDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   Options
		want Options
	}{
		{"GO-5 go: 9x9, komi 7.5", Options{Variant: VariantGo},
			Options{Variant: VariantGo, Size: 9, Komi: 7.5, KomiSet: true}},
		{"PG-9 phantom: 9x9, komi 7.5, common rules", Options{Variant: VariantPhantom},
			Options{Variant: VariantPhantom, Size: 9, Komi: 7.5, KomiSet: true, Rules: RulesCommon}},
		{"HMG-7 hmg: 19x19, komi 7.5, 3 cards", Options{Variant: VariantHMG},
			Options{Variant: VariantHMG, Size: 19, Komi: 7.5, KomiSet: true, Cards: 3, CardsSet: true}},
		{"GM-1 gomoku: 9x9, no komi", Options{Variant: VariantGomoku},
			Options{Variant: VariantGomoku, Size: 9, Komi: 0, KomiSet: true}},
		{"GO-5 fgo: 9x9, komi 0, suicide nz", Options{Variant: VariantFGo},
			Options{Variant: VariantFGo, Size: 9, Komi: 0, KomiSet: true, Suicide: SuicideNZ}},
		{"bridge: 9x9, no komi", Options{Variant: VariantBridge},
			Options{Variant: VariantBridge, Size: 9, Komi: 0, KomiSet: true}},
		{"go: komi 0 chosen on purpose", Options{Variant: VariantGo, Komi: 0, KomiSet: true},
			Options{Variant: VariantGo, Size: 9, Komi: 0, KomiSet: true}},
		{"go: negative komi kept", Options{Variant: VariantGo, Komi: -3.5},
			Options{Variant: VariantGo, Size: 9, Komi: -3.5, KomiSet: true}},
		{"go: 13x13 and komi 6.5 kept", Options{Variant: VariantGo, Size: 13, Komi: 6.5},
			Options{Variant: VariantGo, Size: 13, Komi: 6.5, KomiSet: true}},
		{"go: smallest board", Options{Variant: VariantGo, Size: MinSize},
			Options{Variant: VariantGo, Size: 5, Komi: 7.5, KomiSet: true}},
		{"go: largest board", Options{Variant: VariantGo, Size: MaxSize},
			Options{Variant: VariantGo, Size: 19, Komi: 7.5, KomiSet: true}},
		{"fgo: komi set", Options{Variant: VariantFGo, Komi: 5.5},
			Options{Variant: VariantFGo, Size: 9, Komi: 5.5, KomiSet: true, Suicide: SuicideNZ}},
		{"gomoku: 7x7 allowed", Options{Variant: VariantGomoku, Size: 7},
			Options{Variant: VariantGomoku, Size: 7, Komi: 0, KomiSet: true}},
		{"phantom: hamburg rules", Options{Variant: VariantPhantom, Rules: RulesHamburg},
			Options{Variant: VariantPhantom, Size: 9, Komi: 7.5, KomiSet: true, Rules: RulesHamburg}},
		{"phantom: kriegspiel rules", Options{Variant: VariantPhantom, Rules: RulesKriegspiel},
			Options{Variant: VariantPhantom, Size: 9, Komi: 7.5, KomiSet: true, Rules: RulesKriegspiel}},
		{"hmg: zero cards chosen on purpose", Options{Variant: VariantHMG, CardsSet: true},
			Options{Variant: VariantHMG, Size: 19, Komi: 7.5, KomiSet: true, Cards: 0, CardsSet: true}},
		{"hmg: nine cards", Options{Variant: VariantHMG, Cards: 9, Size: 9},
			Options{Variant: VariantHMG, Size: 9, Komi: 7.5, KomiSet: true, Cards: 9, CardsSet: true}},
		{"fgo: suicide forbidden", Options{Variant: VariantFGo, Suicide: SuicideForbid},
			Options{Variant: VariantFGo, Size: 9, Komi: 0, KomiSet: true, Suicide: SuicideForbid}},
		{"bridge: perpendicular", Options{Variant: VariantBridge, Perpendicular: true},
			Options{Variant: VariantBridge, Size: 9, Komi: 0, KomiSet: true, Perpendicular: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Normalize()
			if err != nil {
				t.Fatalf("Normalize(%+v): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Normalize(%+v)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
			again, err := got.Normalize()
			if err != nil || again != got {
				t.Errorf("Normalize is not idempotent: %+v, %v", again, err)
			}
		})
	}
}

func TestOptionsNormalizeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   Options
	}{
		{"no variant", Options{}},
		{"unknown variant", Options{Variant: "chess"}},
		{"variant in upper case", Options{Variant: "GO"}},
		{"go 4x4", Options{Variant: VariantGo, Size: 4}},
		{"go 20x20", Options{Variant: VariantGo, Size: 20}},
		{"go negative size", Options{Variant: VariantGo, Size: -9}},
		{"phantom 4x4", Options{Variant: VariantPhantom, Size: 4}},
		{"hmg 21x21", Options{Variant: VariantHMG, Size: 21}},
		{"fgo 3x3", Options{Variant: VariantFGo, Size: 3}},
		{"bridge 20x20", Options{Variant: VariantBridge, Size: 20}},
		{"gomoku 6x6", Options{Variant: VariantGomoku, Size: 6}},
		{"gomoku 5x5", Options{Variant: VariantGomoku, Size: 5}},
		{"gomoku 20x20", Options{Variant: VariantGomoku, Size: 20}},
		{"komi too large", Options{Variant: VariantGo, Komi: 500.5}},
		{"komi too small", Options{Variant: VariantGo, Komi: -501}},
		{"komi NaN", Options{Variant: VariantGo, Komi: math.NaN()}},
		{"komi +Inf", Options{Variant: VariantGo, Komi: math.Inf(1)}},
		{"komi -Inf", Options{Variant: VariantFGo, Komi: math.Inf(-1)}},
		{"unknown phantom rules", Options{Variant: VariantPhantom, Rules: "japanese"}},
		{"rules on go", Options{Variant: VariantGo, Rules: RulesCommon}},
		{"rules on hmg", Options{Variant: VariantHMG, Rules: RulesHamburg}},
		{"hmg 10 cards", Options{Variant: VariantHMG, Cards: 10}},
		{"hmg negative cards", Options{Variant: VariantHMG, Cards: -1}},
		{"cards on go", Options{Variant: VariantGo, Cards: 3}},
		{"cards on phantom", Options{Variant: VariantPhantom, Cards: 1, CardsSet: true}},
		{"unknown suicide option", Options{Variant: VariantFGo, Suicide: "allow"}},
		{"suicide on go", Options{Variant: VariantGo, Suicide: SuicideForbid}},
		{"suicide on bridge", Options{Variant: VariantBridge, Suicide: SuicideNZ}},
		{"perpendicular on go", Options{Variant: VariantGo, Perpendicular: true}},
		{"perpendicular on fgo", Options{Variant: VariantFGo, Perpendicular: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Normalize()
			if !errors.Is(err, ErrBadOptions) {
				t.Errorf("Normalize(%+v) = %+v, %v; want an error wrapping ErrBadOptions", tt.in, got, err)
			}
		})
	}
}

func TestDefaultSize(t *testing.T) {
	for _, v := range Variants {
		want := 9
		if v == VariantHMG {
			want = 19
		}
		if got := DefaultSize(v); got != want {
			t.Errorf("DefaultSize(%s) = %d, want %d", v, got, want)
		}
	}
}
