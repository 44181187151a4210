package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantScreens[engine.VariantGomoku] = func() variantScreen { return &gomokuScreen{} }
}

// gomokuScreen is Hidden Move Double Gomoku (UI-D13): the inviter places
// the X opening piece with Enter, the invitee chooses its side in a
// dialog; in a turn the mover commits to a point (Enter), then announces
// its row or column (a dialog); the opponent answers by selecting which of
// its hidden pieces in that line to reveal (Enter on each, ^D answers).
// The program itself opens the committed point, says "five" and claims
// the win. The player's hidden pieces are in brackets; the opponent's
// hidden pieces are never on the board, only counted, until the end opens
// them all.
type gomokuScreen struct {
	// turns counts the finished turns and responded holds the points
	// revealed in answer in the turn in progress, as the events tell
	// them (for the replay's positions and a failed move).
	turns     int
	responded []engine.Point
	// opened tells, by colour, who opened its hidden pieces at the end
	// (GM-8), and openedAt where they were.
	opened   [3]bool
	openedAt [3][]engine.Point
}

func gomokuViewOf(v any) (gomokurules.View, bool) {
	gv, ok := v.(gomokurules.View)
	return gv, ok
}

// lineName writes an announced line: "row 3", "column C".
func lineName(size int, l gomoku.Line) string {
	if l.Kind == gomoku.Column {
		return "column " + engine.PointAt(size, l.Index, 0).Vertex(size)[:1]
	}
	return fmt.Sprintf("row %d", l.Index+1)
}

func (s *gomokuScreen) board(m *GameModel) BoardModel {
	gv, ok := gomokuViewOf(m.View.Variant)
	if !ok {
		return NewBoardModel(m.Size(), m.Me())
	}
	if gv.Record != nil {
		return gomokuRecordBoard(*gv.Record, len(gv.Record.Turns), m.Me(), true, s.opened)
	}
	v := gv.Game
	bm := NewBoardModel(m.Size(), m.Me())
	if v.Size() == 0 {
		return bm
	}
	me := v.Me()
	if p := v.OpeningPoint(); bm.OnBoard(p) && me == engine.Empty {
		bm.Points[p].Stone = gomoku.X
	}
	own, opp := v.OwnPieces(), v.OpponentPieces()
	var opened [engine.MaxPoints]bool
	if me != engine.Empty {
		for _, p := range s.openedAt[me.Opponent()] {
			if bm.OnBoard(p) {
				opened[p] = true
			}
		}
	}
	for p := engine.Point(0); bm.OnBoard(p); p++ {
		mine := me != engine.Empty && own.At(p) == me
		theirs := me != engine.Empty && (opp.At(p) == me.Opponent() || opened[p])
		switch {
		case mine && theirs:
			// Both have a piece here (GM-4), which the opening showed.
			bm.Points[p] = PointMark{Stone: me, Marks: MarkBoth | MarkHighlight}
		case mine:
			bm.Points[p].Stone = me
			if v.Own(p) == gomoku.HiddenPiece && !s.opened[me] {
				bm.Points[p].Marks |= MarkPending
			}
		case theirs:
			bm.Points[p].Stone = me.Opponent()
		}
	}
	if p := v.Committed(); v.MyTurn() && v.Mover() == me && bm.OnBoard(p) && bm.Points[p].Stone == engine.Empty {
		bm = bm.With(MarkPending, p)
	}
	switch v.Phase() {
	case gomoku.PhaseRespond, gomoku.PhaseReveal, gomoku.PhaseDeclare:
		// The line announced this turn (GM-3), for both players.
		bm = announcedLine(bm, v.Announced())
	}
	bm = bm.With(MarkHighlight, v.JustRevealed()...)
	if v.Phase() == gomoku.PhaseRespond && v.MyTurn() {
		bm = bm.With(MarkHighlight, m.Local.Reveal...)
	}
	return bm
}

// announcedLine marks the points of line l on bm.
func announcedLine(bm BoardModel, l gomoku.Line) BoardModel {
	mark := MarkRowAnnounced
	if l.Kind == gomoku.Column {
		mark = MarkColumnAnnounced
	}
	for i := range bm.Size {
		x, y := i, l.Index
		if l.Kind == gomoku.Column {
			x, y = l.Index, i
		}
		if x < 0 || y < 0 || x >= bm.Size || y >= bm.Size {
			return bm
		}
		bm = bm.With(mark, engine.PointAt(bm.Size, x, y))
	}
	return bm
}

// gomokuRecordBoard returns the position after the first turns of a
// record: as player me knew it, or in full. Hidden pieces are in
// brackets, unless opened says their player opened them at the end (the
// player's own view then shows the other's too); a point where both
// players have a piece shows '&' (MarkBoth), highlighted, so that each
// player's lines read whole.
func gomokuRecordBoard(rec gomoku.Record, turns int, me engine.Color, full bool, opened [3]bool) BoardModel {
	size := rec.Size
	if size == 0 {
		size = 9
	}
	bm := NewBoardModel(size, me)
	cut := rec
	cut.Turns = rec.Turns[:min(max(turns, 0), len(rec.Turns))]
	g, err := gomoku.Replay(cut)
	if err != nil {
		return bm
	}
	for p := engine.Point(0); bm.OnBoard(p); p++ {
		for _, c := range []engine.Color{gomoku.X, gomoku.O} {
			piece := g.Piece(c, p)
			if piece == gomoku.NoPiece || !full && c != me && piece != gomoku.RevealedPiece && !opened[c] {
				continue
			}
			if bm.Points[p].Stone != engine.Empty {
				bm.Points[p].Marks |= MarkHighlight | MarkBoth
			}
			bm.Points[p].Stone = c
			if piece == gomoku.HiddenPiece && !opened[c] {
				bm.Points[p].Marks |= MarkPending
			}
		}
	}
	return bm
}

func (s *gomokuScreen) panel(m *GameModel) []string {
	gv, ok := gomokuViewOf(m.View.Variant)
	if !ok {
		return nil
	}
	v := gv.Game
	if v.Size() == 0 {
		return nil
	}
	me := v.Me()
	var lines []string
	if me != engine.Empty {
		hidden, shown := 0, 0
		for p := engine.Point(0); int(p) < v.Size()*v.Size(); p++ {
			switch v.Own(p) {
			case gomoku.HiddenPiece:
				hidden++
			case gomoku.RevealedPiece:
				shown++
			}
		}
		opp := v.OpponentPieces()
		mine := fmt.Sprintf("%d hidden, %d revealed", hidden, shown)
		if s.opened[me] {
			mine = fmt.Sprintf("%s, all open", plural(hidden+shown, "piece", "pieces"))
		}
		theirs := fmt.Sprintf("%d hidden, %d revealed", v.OpponentHidden(), opp.Count(me.Opponent()))
		if s.opened[me.Opponent()] {
			theirs = fmt.Sprintf("%s, all open", plural(v.OpponentHidden()+opp.Count(me.Opponent()), "piece", "pieces"))
		}
		lines = append(lines, m.nameLine()...)
		lines = append(lines,
			fmt.Sprintf("%s you          %s", m.Name(me), mine),
			fmt.Sprintf("%s %-12s %s", m.Name(me.Opponent()), m.petnames.get().PeerShort(m.Opponent), theirs))
		for _, c := range []engine.Color{me, me.Opponent()} {
			if v.FiveAnnounced(c) {
				lines = append(lines, m.Name(c)+" has a line of five")
			}
		}
	}
	if gv.Closing {
		return append(lines, "Opening every hidden piece for the audit (GM-8)")
	}
	if m.Over() {
		return lines
	}
	if m.View.Phase != protocol.PhasePlay {
		return append(lines, "Starting the game…")
	}
	opp := m.Name(me.Opponent())
	switch ph := v.Phase(); {
	case ph == gomoku.PhaseOpening && v.MyTurn():
		lines = append(lines, "Place the X opening piece: Enter on a point")
	case ph == gomoku.PhaseOpening:
		lines = append(lines, "The inviter places the X opening piece")
	case ph == gomoku.PhaseChooseSide && v.MyTurn():
		lines = append(lines, "Choose your side: X owns the opening piece, O moves first")
	case ph == gomoku.PhaseChooseSide:
		lines = append(lines, "The invited player chooses X or O")
	case ph == gomoku.PhaseCommit && v.MyTurn():
		lines = append(lines, fmt.Sprintf("Turn %d · your turn: choose a point (Enter), p Enter passes", v.MoveNumber()))
	case ph == gomoku.PhaseAnnounce && v.MyTurn():
		lines = append(lines, fmt.Sprintf("Turn %d · announce the row or the column of %s (^D)", v.MoveNumber(), m.Vertex(v.Committed())))
	case ph == gomoku.PhaseRespond && v.MyTurn():
		line := lineName(v.Size(), v.Announced())
		cands := v.HiddenInLine(v.Announced())
		lines = append(lines, fmt.Sprintf("Turn %d · %s announced %s", v.MoveNumber(), opp, line))
		if len(cands) > 0 {
			lines = append(lines, "Your hidden pieces there: "+m.Vertices(cands),
				"Enter selects those to reveal, ^D answers")
			if len(m.Local.Reveal) > 0 {
				lines = append(lines, "Selected: "+m.Vertices(m.Local.Reveal))
			} else {
				lines = append(lines, "Selected: none (reveal nothing)")
			}
		}
	default:
		if mover := v.Mover(); mover != engine.Empty {
			lines = append(lines, fmt.Sprintf("Turn %d · %s to play", v.MoveNumber(), m.Name(mover)))
		}
	}
	return lines
}

func (s *gomokuScreen) do(m *GameModel, c command) (protocol.Action, error) {
	gv, ok := gomokuViewOf(m.View.Variant)
	if !ok || gv.Game.Size() == 0 {
		return nil, errNothing
	}
	v := gv.Game
	if !v.MyTurn() || m.View.Phase != protocol.PhasePlay {
		return nil, notYourTurn(m)
	}
	switch ph := v.Phase(); {
	case ph == gomoku.PhaseOpening && c.kind == cmdPoint:
		if c.point == engine.Pass {
			return nil, errors.New("place the opening piece on a point")
		}
		return gomokurules.Opening{Point: c.point}, nil
	case ph == gomoku.PhaseCommit && c.kind == cmdPoint:
		if c.point == engine.Pass {
			return protocol.Play{Point: engine.Pass}, nil
		}
		if !slices.Contains(v.LegalPoints(), c.point) {
			return nil, fmt.Errorf("%s holds a revealed piece or your own (GM-4)", m.Vertex(c.point))
		}
		return gomokurules.Place{Point: c.point}, nil
	case ph == gomoku.PhaseRespond && c.kind == cmdPoint:
		if !slices.Contains(v.HiddenInLine(v.Announced()), c.point) {
			return nil, fmt.Errorf("only your hidden pieces in %s may be revealed", lineName(v.Size(), v.Announced()))
		}
		if i := slices.Index(m.Local.Reveal, c.point); i >= 0 {
			m.Local.Reveal = slices.Delete(slices.Clone(m.Local.Reveal), i, i+1)
		} else {
			m.Local.Reveal = append(slices.Clone(m.Local.Reveal), c.point)
		}
		return nil, nil
	case ph == gomoku.PhaseRespond && c.kind == cmdConfirm:
		m.Local.Sending = true
		return gomokurules.Respond{Reveal: slices.Clone(m.Local.Reveal)}, nil
	case ph == gomoku.PhaseRespond && c.kind == cmdTakeBack:
		m.Local.Reveal = nil
		return nil, nil
	}
	return nil, errNothing
}

func (s *gomokuScreen) choices(m *GameModel) ([]string, []answer) {
	gv, ok := gomokuViewOf(m.View.Variant)
	if !ok || gv.Game.Size() == 0 || !gv.Game.MyTurn() || m.View.Phase != protocol.PhasePlay {
		return nil, nil
	}
	v := gv.Game
	switch v.Phase() {
	case gomoku.PhaseChooseSide:
		return []string{fmt.Sprintf("The X opening piece is at %s. Your side?", m.Vertex(v.OpeningPoint()))},
			[]answer{
				{Key: 'x', Text: "X: the opening piece is yours, O moves first", Action: gomokurules.ChooseSide{Side: gomoku.X}},
				{Key: 'o', Text: "O: you move first", Action: gomokurules.ChooseSide{Side: gomoku.O}},
			}
	case gomoku.PhaseAnnounce:
		p, size := v.Committed(), v.Size()
		return []string{fmt.Sprintf("Turn %d: you committed to %s. Announce:", v.MoveNumber(), m.Vertex(p))},
			[]answer{
				{Key: 'r', Text: lineName(size, gomoku.LineOf(size, p, gomoku.Row)), Action: gomokurules.Announce{}},
				{Key: 'c', Text: lineName(size, gomoku.LineOf(size, p, gomoku.Column)), Action: gomokurules.Announce{Column: true}},
			}
	}
	return nil, nil
}

// due answers an announced line at once when the player has no hidden
// piece in it: there is nothing to choose.
func (s *gomokuScreen) due(m *GameModel) protocol.Action {
	gv, ok := gomokuViewOf(m.View.Variant)
	if !ok || gv.Game.Size() == 0 || m.Local.Sending || m.View.Phase != protocol.PhasePlay {
		return nil
	}
	v := gv.Game
	if v.MyTurn() && v.Phase() == gomoku.PhaseRespond && len(v.HiddenInLine(v.Announced())) == 0 {
		m.Local.Sending = true
		return gomokurules.Respond{}
	}
	return nil
}

func (s *gomokuScreen) describe(m *GameModel, e protocol.Event) eventNote {
	switch e := e.(type) {
	case gomokurules.EventStep:
		return s.describeStep(m, e)
	case gomokurules.EventOpened:
		ps := make([]engine.Point, len(e.Openings))
		for i, o := range e.Openings {
			ps[i] = o.Point
		}
		if c := m.RoleColor(e.From); c == gomoku.X || c == gomoku.O {
			s.opened[c], s.openedAt[c] = true, ps
		}
		// A position of the replay: nothing of that player is hidden
		// from here on.
		if len(ps) == 0 {
			return eventNote{lines: []string{m.RoleName(e.From) + " had no hidden piece left."}, frame: true, index: s.turns, opened: s.opened}
		}
		return eventNote{lines: []string{fmt.Sprintf("%s opens its hidden pieces: %s.", m.RoleName(e.From), m.Vertices(ps))},
			frame: true, index: s.turns, opened: s.opened}
	case gomokurules.EventAudited:
		if e.Violation != nil {
			return eventNote{lines: []string{fmt.Sprintf("The audit (GM-8): %s broke %s at turn %d: %s.",
				m.Name(e.Violation.Player), e.Violation.Rule, e.Violation.Move, e.Violation.Detail)}}
		}
		return eventNote{lines: []string{"The audit of every hidden piece passed (GM-8)."}}
	}
	return eventNote{}
}

// describeStep tells one step of a turn; the steps that end a turn (and
// the opening) are positions of the replay.
func (s *gomokuScreen) describeStep(m *GameModel, e gomokurules.EventStep) eventNote {
	who := m.RoleName(e.From)
	ev := e.Event
	end := func(line string) eventNote {
		s.turns++
		s.responded = nil
		return eventNote{lines: []string{line}, frame: true, index: s.turns}
	}
	switch ev.Kind {
	case gomoku.EventOpening:
		return eventNote{lines: []string{"The X opening piece is at " + m.Vertex(ev.Point) + "."}, frame: true,
			hasLast: true, last: ev.Point}
	case gomoku.EventSide:
		verb := "chooses"
		if e.From == m.View.Role {
			verb = "choose"
		}
		return eventNote{lines: []string{fmt.Sprintf("%s %s to be %s.", roleWord(m, e.From), verb, ColorName(engine.VariantGomoku, ev.Side))}}
	case gomoku.EventCommit:
		s.responded = nil
		return eventNote{lines: []string{who + " commits to a point."}}
	case gomoku.EventPass:
		return end(who + " passes.")
	case gomoku.EventNoLegalPoint:
		return end(who + " has no legal point left: a draw (GM-7).")
	case gomoku.EventAnnounce:
		return eventNote{lines: []string{fmt.Sprintf("%s announces %s.", who, lineName(m.Size(), ev.Line))}}
	case gomoku.EventResponse:
		s.responded = nil
		for _, o := range ev.Openings {
			s.responded = append(s.responded, o.Point)
		}
		if len(s.responded) == 0 {
			return eventNote{lines: []string{who + " reveals nothing there."}}
		}
		return eventNote{lines: []string{fmt.Sprintf("%s reveals %s.", who, m.Vertices(s.responded))},
			effect: s.responded}
	case gomoku.EventReveal:
		if slices.Contains(s.responded, ev.Point) {
			return end(fmt.Sprintf("%s's point was %s, where a piece was just revealed: the move fails (GM-3).", who, m.Vertex(ev.Point)))
		}
		return eventNote{lines: []string{fmt.Sprintf("%s's piece at %s stands revealed.", who, m.Vertex(ev.Point))},
			hasLast: true, last: ev.Point}
	case gomoku.EventDeclare:
		d := ev.Declaration
		line := who + "'s piece is placed."
		switch {
		case d.Claim:
			line = who + " claims the win: two lines of five (GM-6)."
		case d.Five:
			line = who + " announces five (GM-5)."
		}
		return end(line)
	}
	return eventNote{}
}

// roleWord names a role for a sentence before the colours are known.
func roleWord(m *GameModel, r protocol.Role) string {
	if r == m.View.Role {
		return "You"
	}
	return "The opponent"
}

func (s *gomokuScreen) replayBoard(f Frame, final protocol.View, full bool) BoardModel {
	gv, ok := gomokuViewOf(final.Variant)
	if !ok || gv.Record == nil {
		// No record without the audit (a resignation): the last view.
		return (&gomokuScreen{}).board(&GameModel{View: final})
	}
	bm := gomokuRecordBoard(*gv.Record, f.Index, final.Color, full, f.Opened)
	// The turn's point: in the full view whoever played it, in the
	// player's own view its own turns. A piece placed is the last move;
	// a move that failed (GM-3), on the other's revealed piece, is
	// highlighted.
	if p := f.Point; bm.OnBoard(p) && (full || f.Mover == final.Color) {
		if bm.Points[p].Stone == f.Mover && !bm.Points[p].Has(MarkBoth) {
			bm.LastMove = p
		} else {
			bm = bm.With(MarkHighlight, p)
		}
	}
	return bm
}

// namePoints names the point of each turn from the audited record
// (pointNamer): every turn's committed point is opened at the end.
func (s *gomokuScreen) namePoints(frames []Frame, final protocol.View) {
	gv, ok := gomokuViewOf(final.Variant)
	if !ok || gv.Record == nil {
		return
	}
	rec := *gv.Record
	size := rec.Size
	if size == 0 {
		size = final.Options.Size
	}
	last := 0
	for i := range frames {
		f := &frames[i]
		if f.Index <= last || f.Index > len(rec.Turns) {
			continue // the opening, the openings at the end
		}
		last = f.Index
		cut := rec
		cut.Turns = rec.Turns[:f.Index-1]
		g, err := gomoku.Replay(cut)
		if err != nil {
			return
		}
		t := rec.Turns[f.Index-1]
		f.Mover, f.Point = g.ToMove(), t.Point
		switch {
		case t.Pass:
			f.Point = engine.Pass
		case t.NoLegalPoint:
			f.Point = engine.NoPoint
		}
		if vx := f.Point.Vertex(size); f.Point >= 0 && int(f.Point) < size*size && !strings.Contains(f.Caption, vx) {
			f.Caption = vx + " · " + f.Caption
		}
	}
}
