package ui

import (
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol"
)

// variantScreen is one variant's part of the game screen: it turns the
// variant's view into what the board and the side panel show, the
// player's commands into actions, and the variant's events into words.
// Each variant implements it in its own file (screen_go.go ...) and
// registers it in variantScreens.
type variantScreen interface {
	// board returns what the board shows now: what the player may see,
	// with what the player prepared (m.Local) laid over it.
	board(m *GameModel) BoardModel
	// panel returns the variant's lines of the side panel: the players
	// and their captures, whose turn, cards, the count.
	panel(m *GameModel) []string
	// do carries out a command of the player: it returns the action to
	// send, or nil after a change of m.Local only; an error is shown to
	// the player and nothing is sent.
	do(m *GameModel, c command) (protocol.Action, error)
	// due returns an action that m.Local asks to send now that the view
	// changed (an F-Go choice confirmed before its turn), or nil.
	due(m *GameModel) protocol.Action
	// describe returns what an event of the variant says.
	describe(m *GameModel, e protocol.Event) eventNote
	// replayBoard returns the board of one position of the replay (its
	// highlights are added by the caller): f.Public is the variant's
	// public view after it (Machine.PublicView), final the local
	// player's last view of the game; full adds what the end of the game
	// revealed to both players.
	replayBoard(f Frame, final protocol.View, full bool) BoardModel
}

// revealer is a variantScreen with hidden moves to reveal (Hidden Move
// Go): the reveal key lists them.
type revealer interface {
	// revealable returns the cards the player may reveal now: card
	// index and point.
	revealable(m *GameModel) []cardChoice
}

// chooser is a variantScreen that asks the player to choose among a few
// answers at some steps (gomoku: the side, row or column): the screen
// shows them in a dialog, each answer on its key.
type chooser interface {
	// choices returns the question and its answers now, or no answers.
	choices(m *GameModel) (question []string, answers []answer)
}

// answer is one answer of a chooser's question.
type answer struct {
	Key    rune
	Text   string
	Action protocol.Action
}

// messageReader is a variantScreen that reads the record's messages
// during the replay (Phantom Go: the tries revealed at the end).
type messageReader interface {
	message(msg *protocol.Message, size int)
}

// cardChoice is a hidden-move card the player may reveal.
type cardChoice struct {
	Card  int
	Point engine.Point
}

// variantScreens holds each variant's screen, filled by the variant files.
var variantScreens = map[engine.Variant]func() variantScreen{}

// screenFor returns the screen of variant v, or one that says it has none.
func screenFor(v engine.Variant) variantScreen {
	if f, ok := variantScreens[v]; ok {
		return f()
	}
	return noScreen{v}
}

// commandKind says what the player asked for.
type commandKind int

// The commands a variant carries out.
const (
	cmdPoint    commandKind = iota // Enter or a click at a point, or a pass
	cmdConfirm                     // send what was prepared
	cmdTakeBack                    // take back what was prepared
	cmdAccept                      // accept the opponent's marking or offer
	cmdResume                      // resume play during the scoring
	cmdReveal                      // reveal a hidden-move card
)

// command is one request of the player to the variant.
type command struct {
	kind  commandKind
	point engine.Point
	card  int
}

// errNothing is what a command says when it means nothing now.
var errNothing = errors.New("nothing to do with that key now")

// noScreen stands for a variant the console cannot show yet.
type noScreen struct{ v engine.Variant }

func (n noScreen) board(m *GameModel) BoardModel { return NewBoardModel(m.Size(), m.Me()) }
func (n noScreen) panel(*GameModel) []string {
	return []string{VariantName(n.v) + " has no screen yet."}
}
func (n noScreen) do(*GameModel, command) (protocol.Action, error) {
	return nil, fmt.Errorf("%s cannot be played in the console yet", VariantName(n.v))
}
func (noScreen) due(*GameModel) protocol.Action                { return nil }
func (noScreen) describe(*GameModel, protocol.Event) eventNote { return eventNote{} }
func (n noScreen) replayBoard(_ Frame, final protocol.View, _ bool) BoardModel {
	return NewBoardModel(final.Options.Size, final.Color)
}

// Frame is one position of the replay: the variant's public view after
// an event, and the log line of the event.
type Frame struct {
	Public  protocol.VariantView
	Caption string
	Effect  []engine.Point
	Last    engine.Point
	// Index is what the variant's describe said of the position (the
	// number of turns played, for gomoku).
	Index int
	// Try is true for a position that is no move of the game (a Phantom
	// Go illegal try); stepping by moves goes over it.
	Try bool
	// Undone is how many moves the position took back (an undo, UNDO-D1,
	// UNDO-D3): the move list numbers the next move after them.
	Undone int
	// Point is the point of the position's move when the record tells
	// it only at the end (a Phantom Go try once both players revealed
	// theirs, a gomoku piece once audited), Mover who played it; NoPoint
	// when unknown (pointNamer).
	Point engine.Point
	Mover engine.Color
	// Opened tells, by colour, whose hidden pieces the end opened by this
	// position (gomoku, GM-8): they are hidden no more.
	Opened [3]bool
}

// pointNamer is a variantScreen whose moves' points the record tells
// only at the end (Phantom Go's tries, gomoku's hidden pieces): once the
// replay's positions are built, namePoints sets their Point and Mover and
// names the point at the head of their captions, for the move list.
type pointNamer interface {
	namePoints(frames []Frame, final protocol.View)
}

// buildFrames replays a transcript and returns the positions of the game
// as role saw them move by move, beginning with the empty board after the
// coin toss. final is the player's last view (for its colour and what
// only it knows). The replay has its own variant screen, returned to draw
// the frames: a variant may keep state between events.
func buildFrames(t *protocol.Transcript, final protocol.View) ([]Frame, variantScreen) {
	vs := screenFor(final.Options.Variant)
	reader, _ := vs.(messageReader)
	m := protocol.NewMachine(t.Game)
	model := NewGameModel(final, "")
	var frames []Frame
	for i := range t.Messages {
		if reader != nil {
			reader.message(&t.Messages[i], final.Options.Size)
		}
		events, err := m.Apply(&t.Messages[i])
		if err != nil {
			break
		}
		for _, e := range events {
			note := model.note(vs, e)
			if !note.frame {
				continue
			}
			if note.hasLast {
				model.Last = note.last
			}
			caption := ""
			if len(note.lines) > 0 {
				caption = note.lines[0]
			}
			frames = append(frames, Frame{Public: m.PublicView(final.Role), Caption: caption,
				Effect: note.effect, Last: model.Last, Index: note.index, Try: note.try, Undone: note.undone,
				Point: engine.NoPoint, Opened: note.opened})
		}
	}
	if n, ok := vs.(pointNamer); ok {
		n.namePoints(frames, final)
	}
	return frames, vs
}

// MoveCount counts the moves events tell, as the lobby lists a saved game
// (UI-D43): stones and passes (a Hidden Move Go reveal too), F-Go's
// turns, Phantom Go's legal tries, gomoku's turns; a take-back subtracts
// the moves it took back.
func MoveCount(events []protocol.Event) int {
	n := 0
	for _, e := range events {
		switch e := e.(type) {
		case protocol.EventMoved, bridgerules.EventMoved, fgorules.EventTurn, hmgrules.EventRevealed:
			n++
		case phantomrules.EventTry:
			if e.Event != phantom.Illegal {
				n++
			}
		case gomokurules.EventStep:
			switch e.Event.Kind {
			case gomoku.EventCommit, gomoku.EventPass, gomoku.EventNoLegalPoint:
				n++ // each turn begins with one of them
			}
		case protocol.EventUndone:
			n -= max(e.Moves, 1)
		}
	}
	return max(n, 0)
}
