package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantScreens[engine.VariantPhantom] = func() variantScreen { return &phantomScreen{} }
}

// phantomScreen is Phantom Go (UI-D19): the board shows the player's own
// stones, the opponent stones it learnt, under hamburg its stones that may
// have been captured (?, dim), and its private notes (the m key); the log
// holds its announcements in the rule set's words. Tries go with Enter;
// an illegal try is announced and the player tries again. Once play ends
// both programs reveal their tries, the audit replays them, and the whole
// board is shown: the count and the replay's full view use it.
type phantomScreen struct {
	// tries counts the tries the events told (the replay's Frame.Index).
	tries int
	// revealed are each role's tries, from the reveals in the record (for
	// the replay's full view); have tells which arrived.
	revealed [2][]engine.Point
	have     [2]bool
}

func phantomViewOf(v any) (phantomrules.View, bool) {
	pv, ok := v.(phantomrules.View)
	return pv, ok
}

func (phantomScreen) scoring(v phantomrules.View) scoringView {
	return scoringView{active: v.Revealed && v.Scoring, hasProposal: v.HasProposal, proposer: v.Proposer,
		proposal: v.Proposal, board: v.Referee.Board(), count: v.Referee.Score, resumeKind: protocol.KindMove}
}

func (s *phantomScreen) board(m *GameModel) BoardModel {
	v, ok := phantomViewOf(m.View.Variant)
	switch {
	case !ok:
		return NewBoardModel(m.Size(), m.Me())
	case v.Revealed:
		// The audit passed: the whole board is known to both.
		bm := ModelFromBoard(v.Referee.Board(), m.Me(), engine.NoPoint)
		return s.scoring(v).overlay(m, bm)
	case v.Own.Size() == 0:
		return NewBoardModel(m.Size(), m.Me())
	}
	return ModelFromPhantomView(v.Own)
}

func (s *phantomScreen) panel(m *GameModel) []string {
	v, ok := phantomViewOf(m.View.Variant)
	if !ok {
		return nil
	}
	me := m.Me()
	var lines []string
	if me != engine.Empty && v.Own.Size() > 0 {
		own := stones(len(v.Own.OwnStones()))
		if n := len(v.Own.UncertainStones()); n > 0 {
			own += fmt.Sprintf(", %d perhaps captured", n)
			if taken := takenUncertain(v.Own); taken > 0 && taken < n {
				// UI-D44: how many of them are gone, which the counts
				// of the captures tell.
				own += fmt.Sprintf(" (%d of them taken)", taken)
			}
		}
		lines = append(lines, m.nameLine()...)
		lines = append(lines,
			fmt.Sprintf("%s %-5s you          %s", stoneGlyph(me), Name(me), own),
			fmt.Sprintf("%s %-5s %-12s %s", stoneGlyph(me.Opponent()), Name(me.Opponent()),
				m.petnames.get().PeerShort(m.Opponent), knownOpponent(v.Own)))
	}
	lines = append(lines, fmt.Sprintf("Rules: %s · %s", v.Rules, plural(int(v.Tries), "try", "tries")))
	switch v.Stage {
	case phantomrules.StageSetup:
		lines = append(lines, "Setting up the secure referee…")
	case phantomrules.StagePlay:
		switch {
		case m.Over():
		case v.MyTry:
			lines = append(lines, "Your try: Enter on a point, p Enter passes (m notes where you think a stone is)")
		case v.ToMove == me:
			lines = append(lines, "Your try goes through the referee…")
		default:
			lines = append(lines, Name(v.ToMove)+" is trying")
		}
	case phantomrules.StageReveal:
		lines = append(lines, "Play has ended: both programs reveal their tries for the audit (PG-9)")
	case phantomrules.StageOpen:
		lines = append(lines, "Play goes on in the open (the board is known to both)")
		if !m.Over() {
			lines = append(lines, turnLine(m, v.ToMove))
		}
	}
	if n := len(v.Announcements); n > 0 && !v.Revealed {
		lines = append(lines, "Last: "+v.Announcements[n-1])
	}
	if v.Caught != "" {
		lines = append(lines, "The other program deviated: "+v.Caught+" (the audit will name who cheated)")
	}
	return append(lines, s.scoring(v).panel(m)...)
}

func (s *phantomScreen) do(m *GameModel, c command) (protocol.Action, error) {
	v, ok := phantomViewOf(m.View.Variant)
	if !ok {
		return nil, errNothing
	}
	if a, handled, err := s.scoring(v).do(m, c); handled || err != nil {
		return a, err
	}
	if c.kind != cmdPoint {
		return nil, errNothing
	}
	switch v.Stage {
	case phantomrules.StagePlay:
		if !v.MyTry {
			return nil, notYourTurn(m)
		}
		if c.point != engine.Pass && v.Own.Size() > 0 {
			switch v.Own.At(c.point) {
			case phantom.Own:
				return nil, fmt.Errorf("your stone is at %s", m.Vertex(c.point))
			case phantom.Opponent:
				return nil, fmt.Errorf("you know of a %s stone at %s", strings.ToLower(Name(m.Me().Opponent())), m.Vertex(c.point))
			}
		}
		return protocol.Play{Point: c.point}, nil
	case phantomrules.StageScoring, phantomrules.StageOpen:
		if !m.May(protocol.KindMove) {
			return nil, notYourTurn(m)
		}
		return protocol.Play{Point: c.point}, nil
	}
	return nil, errors.New("no try now: the referee is being set up or the tries are being audited")
}

func (*phantomScreen) due(*GameModel) protocol.Action { return nil }

func (s *phantomScreen) describe(m *GameModel, e protocol.Event) eventNote {
	switch e := e.(type) {
	case phantomrules.EventTry:
		s.tries++
		v, _ := phantomViewOf(m.View.Variant)
		line := fmt.Sprintf("%s: %s", Name(e.Mover), e.Event)
		if s.tries <= len(v.Announcements) {
			line = v.Announcements[s.tries-1]
			if e.Event == phantom.Illegal {
				// The rule set's words do not name who tried.
				line = Name(e.Mover) + " tries: " + line
			}
		}
		return eventNote{lines: []string{line}, frame: true, index: s.tries, try: e.Event == phantom.Illegal}
	case phantomrules.EventRevealed:
		return eventNote{lines: []string{"The audit passed: the whole board is revealed."}, frame: true, index: s.tries}
	case protocol.EventMoved:
		return describeMove(m, e)
	case protocol.EventPhase:
		if e.Phase == protocol.Phase(phantomrules.StageReveal) {
			return eventNote{lines: []string{"Play has ended: the tries are revealed for the audit."}}
		}
	}
	return eventNote{}
}

// message collects the tries each player revealed (the replay's full
// view).
func (s *phantomScreen) message(msg *protocol.Message, size int) {
	if msg.Kind != phantomrules.KindReveal && msg.Kind != phantomrules.KindAccuse {
		return
	}
	var b phantomrules.RevealBody
	if err := json.Unmarshal(msg.Body, &b); err != nil || int(msg.From) > 1 {
		return
	}
	var tries []engine.Point
	for _, v := range b.Tries {
		p, err := engine.ParseVertex(size, v)
		if err != nil {
			return
		}
		tries = append(tries, p)
	}
	s.revealed[msg.From], s.have[msg.From] = tries, true
}

func (s *phantomScreen) replayBoard(f Frame, final protocol.View, full bool) BoardModel {
	v, ok := phantomViewOf(final.Variant)
	if !ok {
		return NewBoardModel(final.Options.Size, final.Color)
	}
	if pv, ok := phantomViewOf(f.Public); ok && pv.Revealed {
		// After the audit (the count, play in the open) the board is
		// public.
		if b := pv.Referee.Board(); b.Size() > 0 {
			return ModelFromBoard(b, final.Color, f.Last)
		}
	}
	// The try's point: in the full view whoever tried, in the player's
	// own view its own tries only (the other's were unknown then). A
	// stone played is the last move, an illegal try is highlighted.
	mark := func(bm BoardModel) BoardModel {
		if !bm.OnBoard(f.Point) || !full && f.Mover != final.Color {
			return bm
		}
		if f.Try {
			return bm.With(MarkHighlight, f.Point)
		}
		bm.LastMove = f.Point
		return bm
	}
	if full && s.have[0] && s.have[1] {
		if b, ok := s.fullBoard(final, f.Index); ok {
			return mark(ModelFromBoard(b, final.Color, engine.NoPoint))
		}
	}
	// The player's own view after the frame's tries: its announcements so
	// far, applied in order.
	own, err := phantom.NewView(final.Options, final.Color)
	if err != nil {
		return NewBoardModel(final.Options.Size, final.Color)
	}
	for i, a := range v.Own.Log() {
		if i >= f.Index {
			break
		}
		if own, err = own.Apply(a); err != nil {
			break
		}
	}
	return mark(ModelFromPhantomView(own))
}

// namePoints names the point of each try (pointNamer): the player's own
// from its log, the other's once both players revealed their tries (the
// full reveal at the end, PG-9).
func (s *phantomScreen) namePoints(frames []Frame, final protocol.View) {
	v, ok := phantomViewOf(final.Variant)
	if !ok {
		return
	}
	type try struct {
		mover engine.Color
		point engine.Point
	}
	var tries []try
	for _, a := range v.Own.Log() {
		p := a.Point
		if a.Mover != final.Color {
			p = engine.NoPoint
		}
		if a.Event == phantom.Passed {
			p = engine.Pass
		}
		tries = append(tries, try{mover: a.Mover, point: p})
	}
	if s.have[0] && s.have[1] {
		ref, err := phantom.NewReferee(final.Options)
		var next [2]int
		for i := 0; err == nil && !ref.PlayEnded(); i++ {
			c := ref.ToMove()
			r := final.Role
			if c != final.Color {
				r = r.Other()
			}
			if next[r] >= len(s.revealed[r]) {
				break
			}
			p := s.revealed[r][next[r]]
			next[r]++
			if ref, _, err = ref.Try(c, p); err != nil {
				break
			}
			if i < len(tries) {
				tries[i].point = p
			} else {
				tries = append(tries, try{mover: c, point: p})
			}
		}
	}
	last := 0
	for i := range frames {
		f := &frames[i]
		if f.Index <= last || f.Index > len(tries) {
			continue // not a try: the audit, the count, play in the open
		}
		last = f.Index
		t := tries[f.Index-1]
		f.Mover, f.Point = t.mover, t.point
		// The player's own announcements name its point already.
		if vx := t.point.Vertex(final.Options.Size); t.point != engine.NoPoint && t.point != engine.Pass && !strings.Contains(f.Caption, "("+vx+")") {
			f.Caption = vx + " · " + f.Caption
		}
	}
}

// fullBoard replays the first n tries of both players, in the order the
// referee took them, and returns the board.
func (s *phantomScreen) fullBoard(final protocol.View, n int) (engine.Board, bool) {
	ref, err := phantom.NewReferee(final.Options)
	if err != nil {
		return engine.Board{}, false
	}
	var next [2]int
	me := final.Role
	roleOf := func(c engine.Color) protocol.Role {
		if c == final.Color {
			return me
		}
		return me.Other()
	}
	for range n {
		r := roleOf(ref.ToMove())
		if next[r] >= len(s.revealed[r]) {
			return engine.Board{}, false
		}
		p := s.revealed[r][next[r]]
		next[r]++
		if ref, _, err = ref.Try(ref.ToMove(), p); err != nil {
			return engine.Board{}, false
		}
	}
	return ref.Board(), true
}

// stones writes a number of stones: "1 stone", "3 stones".
func stones(n int) string { return plural(n, "stone", "stones") }

// plural writes a count with the word in the number it takes.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// takenUncertain returns how many of the player's stones perhaps captured
// (PG-7) are gone: of the stones it placed, the captures announced took
// their number, and those left are its certain stones and the rest of the
// uncertain ones (UI-D44).
func takenUncertain(v phantom.View) int {
	placed, captured := 0, 0
	for _, a := range v.Log() {
		switch {
		case a.Event == phantom.Moved && a.Mover == v.Me():
			placed++
		case a.Event == phantom.Moved:
			captured += a.Captures
		}
	}
	left := placed - captured - len(v.OwnStones())
	return len(v.UncertainStones()) - left
}

// knownOpponent writes what the player knows of the opponent's stones:
// those certain and, under hamburg and kriegspiel, those its own
// count-only captures may have taken (PG-7).
func knownOpponent(v phantom.View) string {
	s := stones(len(v.OpponentStones())) + " known"
	if n := len(v.UncertainOpponentStones()); n > 0 {
		s += fmt.Sprintf(", %d perhaps captured", n)
	}
	return s
}
