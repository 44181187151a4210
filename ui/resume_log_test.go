package ui

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol"
)

// resumedRecord is a recorded game resumed from its first loaded messages
// (ResumedConn).
type resumedRecord struct {
	*recordGame
	loaded int
}

func (r resumedRecord) Loaded() int { return r.loaded }

// TestUID42ResumedLogTellsEachMoveOnce (issue 34 item 8): a game resumed
// from a record of k messages, whose next move arrived (and was saved)
// while the screen opened, writes that move once: Prefill replays the
// record as loaded, the game's event tells the move. A lost connection
// that comes back says so.
func TestUID42ResumedLogTellsEachMoveOnce(t *testing.T) {
	g := loadRecordGame(t, "go", protocol.Inviter)
	k := 0
	for i, st := range g.steps {
		for _, e := range st.events {
			if _, ok := e.(protocol.EventMoved); ok && i > 10 && k == 0 {
				k = i // the step of a move, well into the game
			}
		}
	}
	if k == 0 {
		t.Fatal("no move in the record")
	}
	g.at = k + 1 // the transcript holds the move's message already
	conn := resumedRecord{recordGame: g, loaded: k}
	s := NewGameScreen(conn, func(protocol.Action) {}, nil)
	s.Prefill()
	for _, e := range g.steps[k].events {
		s.Apply(e, g.steps[k].view)
	}
	var line string
	for _, e := range g.steps[k].events {
		if mv, ok := e.(protocol.EventMoved); ok {
			line = describeMove(s.Model(), mv).lines[0]
		}
	}
	if n := strings.Count(strings.Join(s.Model().Log, "\n")+"\n", line+"\n"); n != 1 {
		t.Errorf("the log tells %q %d times:\n%s", line, n, strings.Join(s.Model().Log, "\n"))
	}

	// The connection is lost, then back.
	v := g.steps[k].view
	v.Adjourned = true
	s.Apply(protocol.EventAdjourned{Reason: "stream reset"}, v)
	v.Adjourned = false
	s.Apply(protocol.EventPhase{Phase: protocol.PhasePlay}, v)
	log := strings.Join(s.Model().Log, "\n")
	if !strings.HasSuffix(log, "The connection is lost; the game is saved and goes on when the opponent is back.\nThe opponent is back: the game goes on.") {
		t.Errorf("the log does not say the opponent is back:\n%s", log)
	}
	if strings.Count(log, "is back: the game goes on") != 1 {
		t.Errorf("the replayed record said the opponent is back:\n%s", log)
	}
}
