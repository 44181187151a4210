package protocol_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kakure/kakure/protocol"
	_ "github.com/kakure/kakure/protocol/variants"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/varianttest"
)

// missingRules names each variant of engine.Variants that lacks, in this
// core, the game machine's rules (a protocol.Register entry) or which of
// its kinds are moves for the broadcast delay (broadcastMoveKinds), and each
// rules of no variant.
func missingRules() []string {
	var missing []string
	for _, v := range engine.Variants {
		if protocol.NewVariantRules[v] == nil {
			missing = append(missing, fmt.Sprintf("variant %s has no game rules (no protocol.Register entry: its rules package under protocol/, imported by protocol/variants, ARCH-D3)", v))
		}
		if protocol.BroadcastMoveKinds[v] == nil {
			missing = append(missing, fmt.Sprintf("variant %s does not say which of its kinds are moves for the broadcast delay (broadcastMoveKinds, SPEC-D11): a delay in moves would never pass", v))
		}
	}
	for v := range protocol.NewVariantRules {
		if _, err := engine.LookupDescriptor(v); err != nil {
			missing = append(missing, fmt.Sprintf("rules registered for %v", err))
		}
	}
	return missing
}

// TestEveryVariantHasRules checks that every variant of engine.Variants
// has, in this package, the game machine's rules (T-10: the machine
// replays every message of every variant) and which of its kinds are
// moves for the broadcast delay; the session's TestEveryVariantHasAPlayer
// checks its player. A variant that lacks one is named with what it
// lacks (missingRules).
func TestEveryVariantHasRules(t *testing.T) {
	for _, m := range missingRules() {
		t.Error(m)
	}
}

// defaultRules returns the rules of a new game of variant v with its
// default options. It reports false, saying why, when it cannot: the
// variant has no rules (TestEveryVariantHasRules names it) or
// its default options or rules are refused; the completeness tests then
// go on with the next variant rather than stop at a nil constructor.
func defaultRules(t *testing.T, v engine.Variant) (protocol.VariantRules, bool) {
	t.Helper()
	newRules := protocol.NewVariantRules[v]
	if newRules == nil {
		return nil, false
	}
	o, err := engine.Options{Variant: v}.Normalize()
	if err != nil {
		t.Errorf("variant %s: its default options: %v", v, err)
		return nil, false
	}
	m := protocol.NewMachine(protocol.GameID{})
	m.Options = o
	rules, err := newRules(m)
	if err != nil {
		t.Errorf("variant %s: the rules of a new game: %v", v, err)
		return nil, false
	}
	return rules, true
}

// TestEveryVariantUndoAsDescribed checks the descriptor's Undo against the
// rules: a variant whose descriptor offers take-backs has rules that can
// take a move back (UNDO-D1), and no other.
func TestEveryVariantUndoAsDescribed(t *testing.T) {
	for _, d := range engine.Descriptors {
		rules, ok := defaultRules(t, d.Variant)
		if !ok {
			continue
		}
		if _, ok := rules.(protocol.Undoer); ok != d.Undo {
			t.Errorf("variant %s: rules take moves back: %t, descriptor says %t", d.Variant, ok, d.Undo)
		}
	}
}

// TestEveryVariantHasItsOwnView checks that each variant's rules show a
// sealed VariantView of a type of its own, so that a type switch over the
// views tells the variants apart, and that the view's methods the layers
// above read instead of switching over the views (issue 33) answer for a
// new game: some progress, no pass yet.
func TestEveryVariantHasItsOwnView(t *testing.T) {
	owner := map[string]engine.Variant{}
	for _, v := range engine.Variants {
		rules, ok := defaultRules(t, v)
		if !ok {
			continue
		}
		view := rules.View(protocol.Inviter)
		if view == nil {
			t.Errorf("variant %s has no view", v)
			continue
		}
		if p := view.Progress(); p == "" {
			t.Errorf("variant %s: the view of a new game says no progress (VariantView.Progress)", v)
		}
		if view.OpponentJustPassed(engine.Black) || view.OpponentJustPassed(engine.White) {
			t.Errorf("variant %s: the view of a new game says the opponent just passed", v)
		}
		typ := fmt.Sprintf("%T", view)
		if other, ok := owner[typ]; ok {
			t.Errorf("variants %s and %s share the view type %s", other, v, typ)
		}
		owner[typ] = v
	}
}

// TestEveryVariantHasARecord checks that every variant has a real game
// record in testdata/records (records_gen_test.go makes them) that Verify
// replays to the end without a violation (T-13); sgfexport's
// TestEveryVariantHasAnSGFExport writes each as SGF.
func TestEveryVariantHasARecord(t *testing.T) {
	for _, m := range missingRecords() {
		t.Error(m)
	}
}

// missingRecords names each variant of engine.Variants without a record
// in testdata/records that Verify replays to the end.
func missingRecords() []string {
	var missing []string
	for _, v := range engine.Variants {
		path := filepath.Join("testdata", "records", string(v)+".record.json")
		if _, err := os.Stat(path); err != nil {
			missing = append(missing, fmt.Sprintf("variant %s has no record %s (a game of it in records_gen_test.go's fuzzRecordGames, written with -update): %v", v, path, err))
			continue
		}
		tr, err := protocol.ReadRecordFile(path)
		if err != nil {
			missing = append(missing, fmt.Sprintf("%s: %v", path, err))
			continue
		}
		rep := protocol.Verify(tr)
		if !rep.Finished || rep.Violation != nil {
			missing = append(missing, fmt.Sprintf("%s: Verify: finished %t, violation %v", path, rep.Finished, rep.Violation))
		}
	}
	return missing
}

// TestVARD8SeventhVariantNamedRules: with a seventh descriptor added and
// no file of its own in the core, the core's completeness checks name
// its missing rules, broadcast moves and record by registry (or file),
// and the checks that need its rules (its view, its take-backs) pass over
// it without calling a nil constructor (VAR-D8).
func TestVARD8SeventhVariantNamedRules(t *testing.T) {
	varianttest.Add(t)
	varianttest.Expect(t, missingRules, "variant seventh-test has no game rules (no protocol.Register entry", "variant seventh-test does not say which of its kinds are moves for the broadcast delay (broadcastMoveKinds")
	varianttest.Expect(t, missingRecords, "variant seventh-test has no record testdata/records/seventh-test.record.json (a game of it in records_gen_test.go's fuzzRecordGames")
	TestEveryVariantUndoAsDescribed(t)
	TestEveryVariantHasItsOwnView(t)
	if protocol.PlayableOverNetwork(varianttest.Variant) {
		t.Error("PlayableOverNetwork(seventh) without its rules")
	}
}
