package ui

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/protocol"
)

// The application tells the player when something needs them while they
// look elsewhere (UI-D24): the window's title when the opponent's move
// makes it the player's turn, and the terminal's bell too when that move
// took the opponent at least bellAfter (a quick answer finds the player
// still looking); the bell and the title when an invitation arrives and
// when a game ends. AppConfig.Quiet turns both off.

// bellAfter is how long the player must have waited for the opponent's
// move before it rings the bell.
const bellAfter = 3 * time.Second

// appTitle is the window title while nothing waits for the player.
const appTitle = "kakure"

// notify rings the bell (when bell is true) and puts what into the window
// title, unless the application is quiet.
func (a *App) notify(what string, bell bool) {
	if a.cfg.Quiet || a.screen == nil {
		return
	}
	if bell {
		a.screen.Beep()
	}
	a.screen.SetTitle(appTitle + " · " + what)
}

// quietTitle puts the window title back once nothing waits.
func (a *App) quietTitle() {
	if a.cfg.Quiet || a.screen == nil {
		return
	}
	a.screen.SetTitle(appTitle)
}

// noticeGame tells the player what an event of the open game screen asks of
// them: wasMyTurn is the screen's turn before the event.
func (a *App) noticeGame(screen *GameScreen, wasMyTurn bool, e protocol.Event) {
	if a.game != screen {
		return
	}
	m := screen.Model()
	switch e.(type) {
	case protocol.EventEnded:
		a.notify("game over: "+DescribeOutcome(*m.View.Outcome, m.Me(), m.View.Options.Variant), true)
		return
	}
	switch now := m.View.MyTurn && !m.Over(); {
	case now && !wasMyTurn:
		waited := a.clock().Sub(a.turnEnded)
		a.notify("your move · "+VariantName(m.View.Options.Variant)+" vs "+m.OpponentLabel(), waited >= bellAfter)
	case !now && wasMyTurn:
		a.turnEnded = a.clock()
		a.quietTitle()
	}
}

// clock returns the time now (a.now in tests).
func (a *App) clock() time.Time {
	if a.now != nil {
		return a.now()
	}
	return time.Now()
}

// keepScreen remembers the screen the application draws on, for the bell
// and the title.
func (a *App) keepScreen(s tcell.Screen) bool {
	a.screen = s
	return false
}
