package ui

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestDescribeOptionsPerVariant pins what the lobby and the game screen
// say of each variant's default options, as the descriptor gives it: the
// title, the komi where the variant has one (GO-5), the variant's own
// option (PG-6, HMG-1, FG-5, BG-5).
func TestDescribeOptionsPerVariant(t *testing.T) {
	for _, c := range []struct {
		o    engine.Options
		want string
	}{
		{engine.Options{Variant: engine.VariantGo}, "Go 9×9, komi 7.5"},
		{engine.Options{Variant: engine.VariantGo, InviterColor: engine.Black, Handicap: 2}, "Go 9×9, komi 0.5, handicap 2"},
		{engine.Options{Variant: engine.VariantPhantom, Rules: engine.RulesHamburg}, "Phantom Go 9×9, komi 7.5, hamburg rules"},
		{engine.Options{Variant: engine.VariantHMG}, "Hidden Move Go 19×19, komi 7.5, 3 hidden moves"},
		{engine.Options{Variant: engine.VariantHMG, Size: 9, Cards: 1}, "Hidden Move Go 9×9, komi 7.5, 1 hidden move"},
		{engine.Options{Variant: engine.VariantGomoku, Size: 15}, "Hidden Move Double Gomoku 15×15"},
		{engine.Options{Variant: engine.VariantFGo}, "F-Go 9×9, komi 0, suicide nz"},
		{engine.Options{Variant: engine.VariantBridge}, "Bridge Go 9×9"},
		{engine.Options{Variant: engine.VariantBridge, Perpendicular: true}, "Bridge Go 9×9, perpendicular"},
	} {
		o, err := c.o.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		if got := DescribeOptions(o); got != c.want {
			t.Errorf("DescribeOptions(%+v) = %q, want %q", c.o, got, c.want)
		}
	}
}

// TestSideNamesPerVariant checks the names of the sides and of results:
// gomoku's X and O (GM-1), Black and White elsewhere.
func TestSideNamesPerVariant(t *testing.T) {
	r := engine.Result{Winner: engine.White, By: engine.ByResignation}
	for _, v := range engine.Variants {
		black, white, res := "Black", "White", "W+R"
		if v == engine.VariantGomoku {
			black, white, res = "X", "O", "O+R"
		}
		if got := ColorName(v, engine.Black) + "/" + ColorName(v, engine.White); got != black+"/"+white {
			t.Errorf("%s: sides %s, want %s/%s", v, got, black, white)
		}
		if got := ResultString(r, v); got != res {
			t.Errorf("%s: result %s, want %s", v, got, res)
		}
	}
}

// TestUnknownVariantNamed checks that the UI names a variant it does not
// know as unknown, instead of passing it off as another.
func TestUnknownVariantNamed(t *testing.T) {
	for name, got := range map[string]string{
		"VariantName":     VariantName("chess"),
		"DescribeOptions": DescribeOptions(engine.Options{Variant: "chess", Size: 8}),
		"ColorName":       ColorName("chess", engine.Black),
		"RulesText":       RulesText(engine.Options{Variant: "chess"}),
	} {
		if !strings.Contains(got, `unknown variant "chess"`) {
			t.Errorf("%s = %q, want it to name the unknown variant", name, got)
		}
	}
}
