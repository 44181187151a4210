package protocol_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"reflect"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol"
	_ "github.com/kakure/kakure/protocol/variants"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"
)

// TestCLKD31BodiesCarryTheirStamp (CLK-D31, CLK-D8, CLK-D14, CLK-D15,
// CLK-D16): each body of a timed kind writes the clock stamp its kind
// carries, think time, settlement or both, and nothing else; and every
// body type in the package with a think_ms or charge_ms field is one of
// them, so that a new body with a stamp cannot be left out of stamping.
func TestCLKD31BodiesCarryTheirStamp(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind          protocol.Kind
		body          any
		think, charge bool
	}{
		{protocol.KindMove, protocol.MoveBody{Point: "D4"}, true, true},
		{hmgrules.KindCards, hmgrules.CardsBody{}, true, true},
		{hmgrules.KindReveal, hmgrules.RevealBody{}, true, true},
		{gomokurules.KindOpening, gomokurules.PointBody{}, true, true},
		{gomokurules.KindSide, gomokurules.SideBody{}, true, true},
		{gomokurules.KindAnnounce, gomokurules.LineBody{}, true, true},
		{gomokurules.KindResponse, gomokurules.OpeningsBody{}, true, true},
		{gomokurules.KindPass, gomokurules.PassBody{}, true, true},
		{fgorules.KindCommit, fgorules.CommitBody{}, true, false},
		{fgorules.KindOpen, fgorules.OpenBody{}, false, true},
		{phantomrules.KindTry, phantomrules.RequestBody{}, true, false},
		{phantomrules.KindRequest, phantomrules.RequestBody{}, false, false},
		{phantomrules.KindTryGarbling, phantomrules.GarblingBody{}, true, false},
		{phantomrules.KindGarbling, phantomrules.GarblingBody{}, false, true},
		{phantomrules.KindOutputs, phantomrules.OutputsBody{}, false, true},
		// CLK-D32: the evaluator's try by flips.
		{phantomrules.KindFlips, phantomrules.FlipsBody{}, true, false},
	}
	stamped := map[string]bool{}
	for _, c := range cases {
		got := protocol.WithStamp(c.kind, c.body, 7, 9)
		stamped[reflect.TypeOf(got).Name()] = true
		data, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if has := strings.Contains(s, `"think_ms":7`); has != c.think {
			t.Errorf("%s (%T): %s, want think time %v", c.kind, c.body, s, c.think)
		}
		if has := strings.Contains(s, `"charge_ms":9`); has != c.charge {
			t.Errorf("%s (%T): %s, want settlement %v", c.kind, c.body, s, c.charge)
		}
	}
	// Bodies of other kinds that name a clock time for their own ends.
	notStamps := map[string]bool{"clockStamp": true, "TimeoutBody": true, "TimeoutRefuseBody": true}
	for _, name := range typesWithClockFields(t) {
		if !stamped[name] && !notStamps[name] {
			t.Errorf("%s has a clock field but no case here writes it (withStamp)", name)
		}
	}
}

// typesWithClockFields returns the struct types of the package's source
// with a field tagged think_ms or charge_ms.
func typesWithClockFields(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, f := range protocol.ParsedSources(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if field.Tag != nil && (strings.Contains(field.Tag.Value, `json:"think_ms`) || strings.Contains(field.Tag.Value, `json:"charge_ms`)) {
					names = append(names, ts.Name.Name)
					break
				}
			}
			return true
		})
	}
	if len(names) < 10 {
		t.Fatalf("found only %d types with clock fields: %v", len(names), fmt.Sprint(names))
	}
	return names
}
