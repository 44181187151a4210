package watch_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
)

// TestSPECD7GapEndsWithTheRecord: the inviter's program drops one move's
// publication (as a full queue drops it, SPEC-D7), so that neither the
// topic nor its backlog (SPEC-D8) ever has it. Each of its spectators,
// which asks the backlog again whenever the topic is quiet (SPEC-D31),
// stops waiting for it RecordGrace after the record came, and ends with
// the record checked, saying how many messages it did not see live (the
// one dropped and those held after it), and `kakure verify`'s verdict ok.
func TestSPECD7GapEndsWithTheRecord(t *testing.T) {
	var mu sync.Mutex
	dropped := false
	tamper := func(p session.Publication, publish func(session.Publication)) {
		mu.Lock()
		defer mu.Unlock()
		if m := p.Message; m != nil && m.Kind == protocol.KindMove && p.Pos >= 8 && !dropped {
			dropped = true
			return
		}
		publish(p)
	}
	g := playWatched(t, engine.Options{Variant: engine.VariantGo, Size: 5}, tamper, nil)
	mu.Lock()
	if !dropped {
		t.Fatal("the game was too short to drop a move")
	}
	mu.Unlock()
	for i, s := range g.spectators[:2] {
		lines := s.shown()
		var done, ok bool
		s.w.Spectator(func(sp *watch.Spectator) { done, ok = sp.Done() })
		gap, verdict := false, false
		for _, l := range lines {
			gap = gap || (l.Status == watch.Verdict && strings.HasSuffix(l.Text, "messages of the record were not seen live"))
			verdict = verdict || (l.Status == watch.Verdict && strings.HasPrefix(l.Text, "ok: result"))
		}
		if !done || !ok || !gap || !verdict {
			t.Errorf("spectator %d: done %v, ok %v, the gap said %v, the verdict ok %v; it showed:\n%s", i, done, ok, gap, verdict, linesText(lines))
		}
	}
}
