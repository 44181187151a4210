package protocol

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestARCHD3RegisterRefusesAnEntryThatReplaces (ARCH-D3): Register
// refuses, by panicking and before it registers anything, an entry that
// would replace another's part: a variant registered twice, a kind
// already declared (by the core or another variant), a second judge of certificates, an entry without its rules or
// its broadcast moves. The test's variant is never left registered.
func TestARCHD3RegisterRefusesAnEntryThatReplaces(t *testing.T) {
	const fake = engine.Variant("arch-d3-test")
	rules := func(*Machine) (VariantRules, error) { return nil, nil }
	moves := func(Kind) bool { return false }
	judge := func(GameID, [2]PeerID, Role, []Message, [][]byte) *Violation { return nil }
	if len(variantEntries) == 0 {
		t.Fatal("no variant is registered: the external tests import protocol/variants")
	}
	var registered engine.Variant
	for v := range variantEntries {
		registered = v
		break
	}
	cases := []struct {
		name  string
		entry VariantEntry
		want  string
	}{
		{"a variant twice", VariantEntry{Variant: registered, NewRules: rules, BroadcastMove: moves}, "registered twice"},
		{"the core's kind", VariantEntry{Variant: fake, NewRules: rules, BroadcastMove: moves,
			Kinds: map[Kind]KindAttrs{"arch-d3-new": {}, KindMove: {Timed: true}}}, "declared twice"},
		{"no rules", VariantEntry{Variant: fake, BroadcastMove: moves}, "without its rules"},
		{"no broadcast moves", VariantEntry{Variant: fake, NewRules: rules}, "without its rules"},
	}
	if certificates != nil {
		cases = append(cases, struct {
			name  string
			entry VariantEntry
			want  string
		}{"a second judge", VariantEntry{Variant: fake, NewRules: rules, BroadcastMove: moves, JudgeCertificate: judge}, "second certificate judge"})
	} else {
		t.Error("no variant registered a judge of certificates (Phantom Go's)")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, kinds := len(variantEntries), len(kindTable)
			got := func() (r any) {
				defer func() { r = recover() }()
				Register(c.entry)
				return nil
			}()
			if got == nil || !strings.Contains(fmtPanic(got), c.want) {
				t.Errorf("Register: panic %v, want one that says %q", got, c.want)
			}
			if len(variantEntries) != before || len(kindTable) != kinds {
				t.Errorf("a refused entry left %d entries and %d kinds, had %d and %d", len(variantEntries), len(kindTable), before, kinds)
			}
			if _, ok := kindTable["arch-d3-new"]; ok {
				t.Error("a refused entry's new kind was registered")
			}
		})
	}
	if _, ok := variantEntries[fake]; ok {
		t.Errorf("%s is registered", fake)
	}
}

// fmtPanic is the text of a recovered panic.
func fmtPanic(r any) string {
	if err, ok := r.(error); ok {
		return err.Error()
	}
	s, _ := r.(string)
	return s
}
