package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// bellScreen is a simulated screen that counts the bells.
type bellScreen struct {
	tcell.SimulationScreen
	bells int
}

func (s *bellScreen) Beep() error { s.bells++; return nil }

// TestUID24Notifications: the window title says when it is the player's
// move and the bell rings when the opponent took a while to answer, at an
// invitation and at the end; a quick answer changes the title only, and a
// quiet application does neither (issue 20, notifications).
func TestUID24Notifications(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		sim := &bellScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
		if err := sim.Init(); err != nil {
			t.Fatal(err)
		}
		defer sim.Fini()
		first := options(t, engine.VariantGo, 5)
		a := NewApp(AppConfig{Network: &fakeNetwork{}, Defaults: first, Screen: sim, Quiet: quiet})
		now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
		a.now = func() time.Time { return now }
		a.keepScreen(sim)
		s, g := newRecordScreen(t, "go", protocol.Inviter)
		a.game = s
		slow, quick, turns := 0, 0, 0
		for g.at < len(g.steps) {
			st := g.steps[g.at]
			g.at++
			for _, e := range st.events {
				was := s.Model().View.MyTurn && !s.Model().Over()
				s.Apply(e, st.view)
				before := sim.bells
				a.noticeGame(s, was, e)
				if nowMine := s.Model().View.MyTurn && !s.Model().Over(); was && !nowMine {
					// The opponent thinks: 5 s on every other turn,
					// 100 ms on the others.
					turns++
					if turns%2 == 0 {
						now = now.Add(5 * time.Second)
					} else {
						now = now.Add(100 * time.Millisecond)
					}
				}
				if nowMine := s.Model().View.MyTurn && !s.Model().Over(); nowMine && !was {
					if quiet {
						continue
					}
					if !strings.Contains(sim.GetTitle(), "your move") {
						t.Fatalf("title %q on the player's turn", sim.GetTitle())
					}
					if sim.bells > before {
						slow++
					} else {
						quick++
					}
				}
			}
		}
		switch {
		case quiet && (sim.bells != 0 || sim.GetTitle() != ""):
			t.Errorf("quiet: %d bells, title %q", sim.bells, sim.GetTitle())
		case !quiet && (slow == 0 || quick == 0):
			t.Errorf("turns with a bell %d, without %d: want both (a slow answer rings, a quick one does not)", slow, quick)
		case !quiet && !strings.Contains(sim.GetTitle(), "game over"):
			t.Errorf("title at the end: %q", sim.GetTitle())
		}
		bells := sim.bells
		a.invited(&Invitation{From: "12D3KooWInviterxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", Options: first, Deadline: now.Add(time.Minute), Answer: func(error) {}})
		if !quiet && (sim.bells != bells+1 || !strings.Contains(sim.GetTitle(), "invitation")) {
			t.Errorf("an invitation: %d bells more, title %q", sim.bells-bells, sim.GetTitle())
		}
	}
}
