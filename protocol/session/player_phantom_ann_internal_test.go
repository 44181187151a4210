package session

import (
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

// phantomViewsOf plays the tries on a 5×5 common board and returns
// White's view after each (the first: before any).
func phantomViewsOf(t *testing.T, tries ...string) []phantom.View {
	t.Helper()
	o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon}
	ref, err := phantom.NewReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	v, err := phantom.NewView(o, engine.White)
	if err != nil {
		t.Fatal(err)
	}
	views := []phantom.View{v}
	for _, s := range tries {
		p, err := engine.ParseVertex(5, s)
		if err != nil {
			t.Fatal(err)
		}
		var out phantom.TryOutcome
		if ref, out, err = ref.Try(ref.ToMove(), p); err != nil {
			t.Fatalf("try %s: %v", s, err)
		}
		if v, err = v.Apply(phantom.Announce(ref.Rules(), 5, out, engine.White)); err != nil {
			t.Fatal(err)
		}
		views = append(views, v)
	}
	return views
}

// TestPND25AnnouncementsKeptFromView: the announcements a phantom
// player's view gives are its log's strings whether the log grew by one
// announcement or several since the last view, stayed, or was built
// again (a resume: another log, shorter or not); a slice given earlier
// does not change, and one a caller appends to does not change the next.
func TestPND25AnnouncementsKeptFromView(t *testing.T) {
	views := phantomViewsOf(t, "A2", "A1", "A1", "B1", "C3", "D4", "pass")
	again := phantomViewsOf(t, "A2", "A1", "C2")
	strs := func(v phantom.View) []string {
		var out []string
		for _, a := range v.Log() {
			out = append(out, a.String())
		}
		return out
	}
	p := &phantomPlayer{}
	var given [][]string
	var from []phantom.View
	for _, v := range []phantom.View{views[0], views[1], views[1], views[3], views[4], views[7], again[2], again[3], views[5], views[2]} {
		p.view = v
		got := p.announcementsLocked()
		if want := strs(v); !slices.Equal(got, want) {
			t.Fatalf("announcements %q, want %q", got, want)
		}
		_ = append(got, "a caller's line")
		given, from = append(given, got), append(from, v)
	}
	for i, g := range given {
		if want := strs(from[i]); !slices.Equal(g, want) {
			t.Errorf("view %d: the slice given became %q, want %q", i, g, want)
		}
	}
	// A caller appends to its slice after the log grew (the strings
	// made again from views[1], then grown: room left behind them).
	p.view = again[1]
	p.announcementsLocked()
	p.view = views[1]
	p.announcementsLocked()
	p.view = views[3]
	early := p.announcementsLocked()
	p.view = views[4]
	p.announcementsLocked()
	_ = append(early, "a caller's line")
	p.view = views[5]
	if got, want := p.announcementsLocked(), strs(views[5]); !slices.Equal(got, want) {
		t.Errorf("after a caller's append: %q, want %q", got, want)
	}
}
