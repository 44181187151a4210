package ui

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// TestUID43LobbyAt80x24 (issue 34 item 9): at 80×24 the new-game form's
// buttons (Invite, Play the bot) are on the screen; ^G while the saved
// games are being read says so, and once they are read the list holds
// the finished game and ^G chooses it; a saved game is listed by its
// moves, and a finished one says whether the player won.
func TestUID43LobbyAt80x24(t *testing.T) {
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
	l.Model().Internet = "DHT: 14 peers; reachability: private; relay reservations: 2 (12D3KooWAbc…, …)"
	l.Render()
	if text := drawScreen(t, l, 80, 24); !strings.Contains(text, "Invite") || !strings.Contains(text, "Play the bot") {
		t.Errorf("the form's buttons are off the screen at 80×24:\n%s", text)
	}
	l.Model().GamesLoading = true
	lobbyKeys(l, setFocus, "\x07")
	if l.Model().Status != readingGames {
		t.Errorf("^G while the games are read: %q", l.Model().Status)
	}
	finished := SavedGame{ID: protocol.GameID{7}, Opponent: "12D3KooWy", Options: options(t, engine.VariantGo, 9),
		Messages: 166, Moves: 150, Result: "B+T", Color: engine.White, Winner: engine.Black}
	l.GamesRead(nil, []SavedGame{finished})
	text := drawScreen(t, l, 80, 24)
	if strings.Contains(text, readingGames) || strings.Contains(text, noSavedGame) {
		t.Errorf("the status still says the games are missing:\n%s", text)
	}
	if !loosely(text, "B+T, you lost") {
		t.Errorf("the finished game does not say who won:\n%s", text)
	}
	var opened []protocol.GameID
	l.OnOpen = func(id protocol.GameID) { opened = append(opened, id) }
	lobbyKeys(l, setFocus, "\x07\n")
	if len(opened) != 1 || opened[0] != finished.ID {
		t.Errorf("^G Enter opened %v (status %q), want the finished game", opened, l.Model().Status)
	}
	unfinished := SavedGame{Options: options(t, engine.VariantGo, 9), Messages: 166, Moves: 150}
	if p := unfinished.Progress(); !strings.HasPrefix(p, "150 moves") {
		t.Errorf("an unfinished game's progress: %q, want its moves", p)
	}
	won := finished
	won.Color = engine.Black
	if p := won.Progress(); !strings.HasPrefix(p, "B+T, you won") {
		t.Errorf("a won game: %q", p)
	}
}

// TestUID43MoveCount counts the moves of the recorded games from their
// events: plain Go's stones and passes, a take-back's moves subtracted.
func TestUID43MoveCount(t *testing.T) {
	g := loadRecordGame(t, "go", protocol.Inviter)
	var events []protocol.Event
	moves := 0
	for _, st := range g.steps {
		events = append(events, st.events...)
		for _, e := range st.events {
			if _, ok := e.(protocol.EventMoved); ok {
				moves++
			}
		}
	}
	if n := MoveCount(events); n != moves || n == 0 {
		t.Errorf("MoveCount = %d, want the record's %d moves", n, moves)
	}
	events = append(events, protocol.EventUndone{Move: moves - 1, Moves: 2})
	if n := MoveCount(events); n != moves-2 {
		t.Errorf("after a take-back of two: %d, want %d", n, moves-2)
	}
}
