package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestGameScreenReplaysRecords plays every recorded game through the game
// screen of each role, drawing it at 80×24 after some 40 of its messages: the log
// tells each move, the result shows at the end, and the screen turns into
// the replay, at the last position in the full view.
func TestGameScreenReplaysRecords(t *testing.T) {
	for _, name := range []string{"go", "hmg", "fgo", "bridge", "gomoku", "phantom"} {
		for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
			if name == "phantom" && r == protocol.Invitee {
				continue // its replay (the audit) is slow; TestPG7PhantomScreen plays both sides
			}
			t.Run(name+"/"+[]string{"inviter", "invitee"}[r], func(t *testing.T) {
				t.Parallel()
				s, g := newRecordScreen(t, name, r)
				moves, start := 0, 1
				var responded []engine.Point
				for g.next(s) {
					for _, e := range g.steps[g.at-1].events {
						switch e := e.(type) {
						case protocol.EventMoved, bridgerules.EventMoved, fgorules.EventTurn, hmgrules.EventRevealed, hmgrules.EventCardsOpened,
							phantomrules.EventTry, phantomrules.EventRevealed:
							moves++
						case gomokurules.EventStep:
							// The opening is the first position; each turn
							// ends with a pass, a declaration or a failure.
							start = 0
							switch ev := e.Event; ev.Kind {
							case gomoku.EventOpening, gomoku.EventPass, gomoku.EventNoLegalPoint, gomoku.EventDeclare:
								moves++
							case gomoku.EventResponse:
								responded = nil
								for _, o := range ev.Openings {
									responded = append(responded, o.Point)
								}
							case gomoku.EventReveal:
								if slices.Contains(responded, ev.Point) {
									moves++
								}
							}
						case gomokurules.EventOpened:
							moves++ // a position: nothing of that player is hidden any more
						}
					}
					if g.at%max(len(g.steps)/40, 1) == 0 {
						drawScreen(t, s, 80, 24)
					}
				}
				m := s.Model()
				if !m.Over() || s.review == nil {
					t.Fatal("the game is over but the screen is not the replay")
				}
				if got := len(s.review.frames); got != moves+start {
					t.Errorf("replay has %d positions, want %d moves and %d for the start", got, moves, start)
				}
				if s.review.at != len(s.review.frames)-1 || !s.review.full {
					t.Errorf("replay starts at %d (full %v), want the last position in the full view", s.review.at, s.review.full)
				}
				text := drawScreen(t, s, 80, 24)
				want := "Result: " + DescribeOutcome(*m.View.Outcome, m.Me(), m.View.Options.Variant)
				if !strings.Contains(strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(want), " ")) {
					t.Errorf("screen does not show %q:\n%s", want, text)
				}
				if !strings.Contains(strings.Join(m.Log, "\n"), "You play "+m.Name(m.Me())) {
					t.Errorf("log does not tell the colour:\n%s", strings.Join(m.Log, "\n"))
				}
			})
		}
	}
}

// TestGameScreenReplayKeys steps through the replay of the plain-Go record:
// Home shows the empty board, Right the first stone, End the last position.
func TestGameScreenReplayKeys(t *testing.T) {
	s, g := newRecordScreen(t, "go", protocol.Inviter)
	for g.next(s) {
	}
	final := s.Board().Model()
	pressKey(s, tcell.KeyHome)
	if got := s.Board().Model(); countStones(got) != 0 {
		t.Errorf("Home shows %d stones, want the empty board", countStones(got))
	}
	press(s, "l")
	first := s.Board().Model()
	if countStones(first) != 1 || !first.OnBoard(first.LastMove) {
		t.Errorf("one move forward shows %d stones, last move %v; want the first stone", countStones(first), first.LastMove)
	}
	pressKey(s, tcell.KeyEnd)
	if got := s.Board().Model(); countStones(got) != countStones(final) {
		t.Errorf("End shows %d stones, want %d", countStones(got), countStones(final))
	}
	press(s, "v")
	if s.review.full {
		t.Error("v did not switch to the own view")
	}
}

// TestGameScreenWritesRecord writes the record and its SGF after the game.
func TestGameScreenWritesRecord(t *testing.T) {
	s, g := newRecordScreen(t, "go", protocol.Invitee)
	for g.next(s) {
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.record.json")
	press(s, "w")
	if s.dialog == nil {
		t.Fatal("w opened no dialog")
	}
	pressKey(s, tcell.KeyCtrlU) // clear the default path
	press(s, path+"\n")
	rec, err := session.LoadTranscript(path)
	if err != nil {
		t.Fatalf("record not written: %v (message %q)", err, s.Model().Message)
	}
	if len(rec.Messages) != len(g.tr.Messages) {
		t.Errorf("record holds %d messages, want %d", len(rec.Messages), len(g.tr.Messages))
	}
	sgf, err := os.ReadFile(filepath.Join(dir, "mine.sgf"))
	if err != nil || !strings.Contains(string(sgf), "RE[") {
		t.Errorf("SGF not written: %v %q", err, sgf)
	}
}

// countStones counts the stones a board model shows.
func countStones(m BoardModel) int {
	n := 0
	for p := engine.Point(0); m.OnBoard(p); p++ {
		if m.Points[p].Stone != engine.Empty {
			n++
		}
	}
	return n
}

// TestGameScreenConnectionLostHeader: the header says "connection lost" in
// bold while the game is adjourned (not its markup tags as text), and stops
// saying it as soon as the connection is back (issue 20, bug 3).
func TestGameScreenConnectionLostHeader(t *testing.T) {
	s, g := newRecordScreen(t, "go", protocol.Inviter)
	for range 6 {
		g.next(s)
	}
	header := func() string {
		text := drawScreen(t, s, 100, 24)
		return strings.SplitN(text, "\n", 2)[0]
	}
	v := s.Model().View
	v.Adjourned = true
	s.Apply(protocol.EventAdjourned{Reason: "stream reset"}, v)
	if h := header(); !strings.Contains(h, "connection lost") || strings.Contains(h, "[::") {
		t.Errorf("adjourned header = %q, want \"connection lost\" without markup", h)
	}
	v.Adjourned = false
	s.Apply(protocol.EventPhase{Phase: v.Phase}, v)
	if h := header(); strings.Contains(h, "connection lost") {
		t.Errorf("header after the connection came back = %q, still says it is lost", h)
	}
}

// TestGameScreenRowLabelsClearOfPanel: on a 19×19 board at 80×24 and wider,
// the right-hand row numbers keep a blank column before the side panel
// (issue 20, bug 6: "19○ White" ran together).
func TestGameScreenRowLabelsClearOfPanel(t *testing.T) {
	for _, size := range []struct{ n, w, h int }{{19, 80, 24}, {19, 100, 30}, {13, 80, 24}, {9, 80, 24}, {9, 120, 40}} {
		g := &fakeGame{view: goView(t, size.n)}
		s := g.screen(t)
		text := drawScreen(t, s, size.w, size.h)
		found := 0
		for _, line := range strings.Split(text, "\n") {
			fields := strings.Fields(line)
			if len(fields) < 2 || fields[0] != fmt.Sprint(size.n) {
				continue // only the top row of the board: it starts with n
			}
			found++
			right := strings.Index(line[3:], fmt.Sprint(size.n)) + 3
			rest := []rune(line[right+len(fmt.Sprint(size.n)):])
			if len(rest) > 0 && rest[0] != ' ' {
				t.Errorf("%d×%d at %dx%d: the row number runs into the panel: %q", size.n, size.n, size.w, size.h, line)
			}
		}
		if found == 0 {
			t.Errorf("%d×%d at %dx%d: no board row %d on screen:\n%s", size.n, size.n, size.w, size.h, size.n, text)
		}
	}
}

// TestGM4BothPiecesOnOnePointShown: gomoku's full view shows a point where
// both players have a hidden piece (GM-4) as '&', not as one player's piece,
// so that each player's lines read whole (issue 20, bug 5).
func TestGM4BothPiecesOnOnePointShown(t *testing.T) {
	e5 := vtx(t, 9, "E5")
	rec := gomoku.Record{Size: 9, Opening: vtx(t, 9, "A1"), InviteeChoice: gomoku.O, Turns: []gomoku.Turn{
		{Point: e5, Line: gomoku.LineOf(9, e5, gomoku.Row)},
		{Point: e5, Line: gomoku.LineOf(9, e5, gomoku.Column)},
	}}
	if _, err := gomoku.Replay(rec); err != nil {
		t.Fatalf("the record is not a game: %v", err)
	}
	full := gomokuRecordBoard(rec, 2, gomoku.X, true, [3]bool{})
	if pm := full.At(e5); !pm.Has(MarkBoth) {
		t.Errorf("full view at E5 = %+v, want both players' pieces marked", pm)
	}
	b := NewBoard().SetGlyphs(GomokuGlyphs).SetModel(full)
	text := drawScreen(t, b, 40, 14)
	if !strings.Contains(text, "&") {
		t.Errorf("the full view does not draw E5 as both pieces:\n%s", text)
	}
	own := gomokuRecordBoard(rec, 2, gomoku.X, false, [3]bool{})
	if pm := own.At(e5); pm.Has(MarkBoth) || pm.Stone != gomoku.X {
		t.Errorf("X's own view at E5 = %+v, want only its own hidden piece", pm)
	}
	if pm := full.At(vtx(t, 9, "A1")); pm.Has(MarkBoth) || pm.Stone != gomoku.X {
		t.Errorf("full view at A1 = %+v, want X's opening alone", pm)
	}
}

// TestGameScreenNotesSurviveResume: private notes (m) are saved as they are
// set, and a new screen of the same game (after leaving and resuming) shows
// them again (issue 20, bug 7).
func TestGameScreenNotesSurviveResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes", "game.notes.json")
	g := &fakeGame{view: goView(t, 9)}
	s := g.screen(t)
	s.SetNotesPath(path)
	for _, v := range []string{"C3", "G7"} {
		s.board.SetCursor(vtx(t, 9, v))
		s.board.toggleNote()
	}
	s.board.SetCursor(vtx(t, 9, "E5"))
	s.board.toggleNote()
	s.board.toggleNote() // and taken away again

	again := (&fakeGame{view: goView(t, 9, "D4")}).screen(t)
	again.SetNotesPath(path)
	m := again.Board().Model()
	var notes []engine.Point
	for p := engine.Point(0); m.OnBoard(p); p++ {
		if m.At(p).Has(MarkNote) {
			notes = append(notes, p)
		}
	}
	if got := engine.FormatVertices(9, notes); got != "C3,G7" {
		t.Errorf("notes after resuming: %s, want C3,G7", got)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("notes file: %v, mode %v; want mode 0600 (private)", err, info.Mode().Perm())
	}
	// A damaged file is said, and the screen still works.
	if err := os.WriteFile(path, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	third := (&fakeGame{view: goView(t, 9)}).screen(t)
	third.SetNotesPath(path)
	if !strings.Contains(third.Model().Message, "notes") {
		t.Errorf("a damaged notes file gave no message: %q", third.Model().Message)
	}
}

// TestGameScreenLogScrolls: PgUp scrolls the log back, so that an
// announcement that scrolled off can be read again; the log then stays
// where the player put it while the game goes on, and PgDn back to the end
// makes it follow the game again (issue 20, bug 9).
func TestGameScreenLogScrolls(t *testing.T) {
	s, g := newRecordScreen(t, "go", protocol.Inviter)
	for range 30 {
		g.next(s)
	}
	drawScreen(t, s, 80, 24)
	log := s.Model().Log
	if len(log) < 20 {
		t.Fatalf("only %d log lines: not enough to scroll", len(log))
	}
	first, last := log[0], log[len(log)-1]
	text := drawScreen(t, s, 80, 24)
	if strings.Contains(text, first) || !strings.Contains(text, last) {
		t.Fatalf("the log should show its end, not its start:\n%s", text)
	}
	for range 20 {
		pressKey(s, tcell.KeyPgUp)
	}
	text = drawScreen(t, s, 80, 24)
	if !strings.Contains(text, first) || !strings.Contains(text, "lines back") {
		t.Fatalf("after PgUp the log does not show its first line %q:\n%s", first, text)
	}
	// The game goes on: the log stays where the player put it.
	g.next(s)
	if text = drawScreen(t, s, 80, 24); !strings.Contains(text, first) {
		t.Errorf("a new event scrolled the log away from where the player put it:\n%s", text)
	}
	for range 20 {
		pressKey(s, tcell.KeyPgDn)
	}
	g.next(s)
	text = drawScreen(t, s, 80, 24)
	if last := s.Model().Log[len(s.Model().Log)-1]; !strings.Contains(text, last) || strings.Contains(text, "lines back") {
		t.Errorf("after PgDn to the end the log does not follow the game (%q):\n%s", last, text)
	}
}

// TestGameScreenLogsAcceptedMarking: when the count ends by one player
// accepting the other's marking of dead stones, the log says who accepted
// (issue 20, bug 10).
func TestGameScreenLogsAcceptedMarking(t *testing.T) {
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		s, g := newRecordScreen(t, "go", r)
		for g.next(s) {
		}
		log := strings.Join(s.Model().Log, "\n")
		if !strings.Contains(log, "proposes") {
			t.Fatalf("the recorded game has no marking:\n%s", log)
		}
		i, j := strings.LastIndex(log, "accepts the marking."), strings.LastIndex(log, "Result:")
		if i < 0 || j < i {
			t.Errorf("role %d: the log does not say the marking was accepted before the result:\n%s", r, log)
		}
	}
}

// TestGameScreenReplayPanelFollowsPosition: in the replay, the side panel
// tells the position shown (its captures), not the end of the game (issue
// 20, bug 10).
func TestGameScreenReplayPanelFollowsPosition(t *testing.T) {
	s, g := newRecordScreen(t, "go", protocol.Inviter)
	for g.next(s) {
	}
	if s.review == nil || len(s.review.frames) < 3 {
		t.Fatal("no replay")
	}
	end := strings.Join(s.panel(), "\n")
	if !strings.Contains(end, "captures") || strings.Count(end, "captures 0") == 2 {
		t.Fatalf("the recorded game should end with captures: %q", end)
	}
	s.stepReview(-1 << 20)
	s.stepReview(1) // after the first move: nothing captured yet
	if start := strings.Join(s.panel(), "\n"); strings.Count(start, "captures 0") != 2 {
		t.Errorf("the panel at the first move says %q; want no captures for either player", start)
	}
	drawScreen(t, s, 100, 30)
	pressKey(s, tcell.KeyHome)
	pressKey(s, tcell.KeyRight)
	text := drawScreen(t, s, 100, 30)
	if strings.Count(text, "captures 0") != 2 {
		t.Errorf("the screen at the first move does not show the position's captures:\n%s", text)
	}
}

// TestRulesInTheApp: the rules page of a game shows the variant's rules of
// docs/spec/rules.md and the base they build on, marks the Phantom Go
// announcement rule set in force, and opens with Ctrl-T in a game and in
// the lobby (issue 20, rules in the app).
func TestRulesInTheApp(t *testing.T) {
	cases := []struct {
		o            engine.Options
		want, absent []string
	}{
		{engine.Options{Variant: engine.VariantPhantom, Size: 9, Komi: 7.5, Rules: engine.RulesHamburg},
			[]string{"PG-5 Atari facts", "GO-1 Chains", "▶ in force in this game:\n- PG-7", "This game: Phantom Go 9×9"}, []string{"HMG-1", "**", "▶ in force in this game:\n- PG-6"}},
		{engine.Options{Variant: engine.VariantGomoku, Size: 9},
			[]string{"GM-3 A turn", "GM-8"}, []string{"GO-1", "PG-1"}},
		{engine.Options{Variant: engine.VariantHMG, Size: 9, Cards: 3},
			[]string{"HMG-5", "GO-5 Scoring"}, []string{"PG-1", "BG-1"}},
		{engine.Options{Variant: engine.VariantBridge, Size: 9},
			[]string{"BG-1", "GO-2"}, []string{"FG-1"}},
		{engine.Options{Variant: engine.VariantFGo, Size: 9},
			[]string{"FG-1", "GO-3"}, []string{"BG-1"}},
		{engine.Options{Variant: engine.VariantGo, Size: 9, Komi: 7.5},
			[]string{"GO-6 Resignation"}, []string{"PG-1"}},
	}
	for _, c := range cases {
		text := RulesText(c.o)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the rules lack %q", c.o.Variant, w)
			}
		}
		for _, a := range c.absent {
			if strings.Contains(text, a) {
				t.Errorf("%s: the rules hold %q", c.o.Variant, a)
			}
		}
	}
	s, g := newRecordScreen(t, "phantom", protocol.Inviter)
	for range 10 {
		g.next(s)
	}
	pressKey(s, tcell.KeyCtrlT)
	if text := drawScreen(t, s, 100, 30); !strings.Contains(text, "Rules — Esc closes") || !strings.Contains(text, "This game: Phantom Go") {
		t.Errorf("Ctrl-T in a game shows no rules:\n%s", text)
	}
	pressKey(s, tcell.KeyEsc)
	if s.dialog != nil {
		t.Error("Esc does not close the rules")
	}
	l, _ := focusedLobby(t, engine.Options{Variant: engine.VariantHMG, Size: 9})
	l.HandleKey(tcell.NewEventKey(tcell.KeyCtrlT, 0, tcell.ModCtrl), func(tview.Primitive) {})
	if text := drawScreen(t, l, 100, 30); !strings.Contains(text, "HMG-1") {
		t.Errorf("Ctrl-T in the lobby shows no rules of Hidden Move Go:\n%s", text)
	}
}

// TestGO5FinalViewShowsTheCount: a game decided by the count ends on its
// replay's last position with the agreed dead stones, the territory they
// give marked on the board and the count's breakdown in the panel (issue
// 20, counting).
func TestGO5FinalViewShowsTheCount(t *testing.T) {
	s, g := newRecordScreen(t, "go", protocol.Inviter)
	for g.next(s) {
	}
	dead, sc, ok := s.finalCount()
	if !ok {
		t.Fatal("the recorded game ended by the count, but no count is found")
	}
	text := strings.Join(strings.Fields(drawScreen(t, s, 100, 30)), " ")
	for _, want := range countLines(sc, s.Model().View.Options.Variant) {
		if !strings.Contains(text, strings.Join(strings.Fields(want), " ")) {
			t.Errorf("the final view lacks %q:\n%s", want, text)
		}
	}
	bm := s.reviewBoard()
	marked := 0
	for p := engine.Point(0); bm.OnBoard(p); p++ {
		if bm.At(p).Has(MarkTerritoryWhite) {
			marked++
		}
	}
	if marked != sc.WhiteTerritory {
		t.Errorf("%d points marked White's territory in the final view, the count (dead %v) has %d", marked, dead, sc.WhiteTerritory)
	}
	s.stepReview(-1 << 20)
	if bm := s.reviewBoard(); bm.At(vtx(t, 5, "A1")).Marks&(MarkTerritoryWhite|MarkTerritoryBlack) != 0 {
		t.Error("the empty board at the start is marked as territory")
	}
}

// TestReviewByMove: the replay of a Phantom Go game steps move by move
// (over the illegal tries, which , and . still show one by one), and the
// move list jumps to any move (issue 20, review by move).
func TestReviewByMove(t *testing.T) {
	s, g := newRecordScreen(t, "phantom", protocol.Inviter)
	for g.next(s) {
	}
	r := s.review
	if r == nil || len(r.frames) == 0 {
		t.Fatal("no replay")
	}
	tries := 0
	for _, f := range r.frames {
		if f.Try {
			tries++
		}
	}
	if tries == 0 {
		t.Fatal("the recorded game has no illegal try: nothing to step over")
	}
	drawScreen(t, s, 100, 30)
	pressKey(s, tcell.KeyHome)
	steps := 0
	for r.at < len(r.frames)-1 {
		before := r.at
		pressKey(s, tcell.KeyRight)
		if r.at == before {
			t.Fatalf("Right did not move from %d", before)
		}
		if r.frames[r.at].Try {
			t.Fatalf("Right stopped on an illegal try (position %d)", r.at)
		}
		steps++
	}
	at, lines := s.moveList()
	if steps != len(at)-1 || steps != len(r.frames)-1-tries {
		t.Errorf("%d steps by move; the list has %d moves, the replay %d positions of which %d tries", steps, len(at)-1, len(r.frames), tries)
	}
	// , and . visit every position.
	pressKey(s, tcell.KeyHome)
	for range len(r.frames) - 1 {
		press(s, ".")
	}
	if r.at != len(r.frames)-1 {
		t.Errorf(". %d times ends at %d, want %d", len(r.frames)-1, r.at, len(r.frames)-1)
	}
	// The list: g, down three times, Enter jumps to the third move.
	pressKey(s, tcell.KeyHome)
	press(s, "g")
	if s.dialog == nil {
		t.Fatal("g opened no move list")
	}
	if text := drawScreen(t, s, 100, 30); !strings.Contains(text, strings.TrimSpace(lines[1])) {
		t.Errorf("the list does not show the first move %q:\n%s", lines[1], text)
	}
	for range 3 {
		pressKey(s, tcell.KeyDown)
	}
	pressKey(s, tcell.KeyEnter)
	if s.dialog != nil || r.at != at[3] {
		t.Errorf("Enter on the third move: at %d (dialog open %v), want %d", r.at, s.dialog != nil, at[3])
	}
	if text := drawScreen(t, s, 100, 30); !strings.Contains(text, fmt.Sprintf("Replay 3/%d", len(at)-1)) {
		t.Errorf("the panel does not say move 3:\n%s", text)
	}
}

// TestUID35ScoreEstimateOnRequest: Ctrl-E in a game of plain Go shows the
// score estimate of the board as it stands (UI-D35), with the same
// breakdown as the count; in Phantom Go, whose board is hidden, it says
// why there is none.
func TestUID35ScoreEstimateOnRequest(t *testing.T) {
	s, g := newRecordScreen(t, "go", protocol.Inviter)
	for range 12 {
		g.next(s)
	}
	pressKey(s, tcell.KeyCtrlE)
	text := drawScreen(t, s, 100, 30)
	for _, want := range []string{"Score estimate", "stones,", "area", "Estimate → "} {
		if !strings.Contains(text, want) {
			t.Errorf("Ctrl-E in plain Go: the screen lacks %q:\n%s", want, text)
		}
	}
	pressKey(s, tcell.KeyEsc)
	if s.dialog != nil {
		t.Error("Esc does not close the estimate")
	}
	p, pg := newRecordScreen(t, "phantom", protocol.Inviter)
	for range 10 {
		pg.next(p)
	}
	pressKey(p, tcell.KeyCtrlE)
	if p.dialog != nil || !strings.Contains(p.model.Message, "No estimate") {
		t.Errorf("Ctrl-E in Phantom Go: dialog %v, message %q; want no estimate, said so", p.dialog != nil, p.model.Message)
	}
}
