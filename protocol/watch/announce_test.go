package watch_test

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/leakcheck"
	"github.com/kakure/kakure/protocol/session"
)

// TestSPEC1PublicAnnouncementText: under each rule set, the public words
// of a try are the same whichever player's announcement they come from,
// never name the point tried, give an illegal try's reason under hamburg
// only, and the captured points under common only (SPEC-1).
func TestSPEC1PublicAnnouncementText(t *testing.T) {
	tries := []struct {
		c engine.Color
		v string
	}{{engine.Black, "A2"}, {engine.White, "A1"}, {engine.Black, "B1"}, {engine.White, "A1"}, {engine.White, "C3"}, {engine.Black, "C3"}}
	for _, rules := range []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel} {
		o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: rules, Komi: 7.5, KomiSet: true}
		r, err := phantom.NewReferee(o)
		if err != nil {
			t.Fatal(err)
		}
		var sawCapture, sawIllegal bool
		for _, try := range tries {
			p, _ := engine.ParseVertex(5, try.v)
			next, out, err := r.Try(try.c, p)
			if err != nil {
				t.Fatal(err)
			}
			if out.Legal {
				r = next
			}
			black := session.PublicAnnouncementText(phantom.Announce(rules, 5, out, engine.Black))
			white := session.PublicAnnouncementText(phantom.Announce(rules, 5, out, engine.White))
			if black != white {
				t.Errorf("%s, %s %s: Black's announcement reads %q in public, White's %q", rules, try.c, try.v, black, white)
			}
			if leakcheck.ContainsWord(black, try.v) {
				t.Errorf("%s, %s %s: the public words %q name the point tried", rules, try.c, try.v, black)
			}
			if len(out.Captured) > 0 {
				sawCapture = true
				if listed := strings.Contains(black, "has captured"); listed != (rules == engine.RulesCommon) {
					t.Errorf("%s: the captured points listed %v in %q", rules, listed, black)
				}
			}
			if !out.Legal {
				sawIllegal = true
				if told := strings.Contains(black, ":"); told != (rules == engine.RulesHamburg) {
					t.Errorf("%s: the reason told %v in %q", rules, told, black)
				}
			}
		}
		if !sawCapture || !sawIllegal {
			t.Fatalf("%s: the tries made no capture (%v) or no illegal try (%v)", rules, sawCapture, sawIllegal)
		}
	}
}
