package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/rivo/tview"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"

	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/engine/phantom"
)

// The records in testdata are games between two random bots on 5×5
// (kakure match --size 5 --games 1): go (seed 3), hmg (--cards 3, seed 2:
// three reveals, one of them an undo, and unused cards opened at the end),
// fgo (seed 3: offers, a collision), bridge (seed 3: Black wins with a
// bridge). phantom is 5×5 under hamburg (kakure match --variant phantom
// --size 5 --rules hamburg --games 1 --seed 7 --black random --white
// random); its end-of-game audit replays the garbled referee and its OT,
// so a change of either (the circuit, the OT messages) means writing it
// again with that command.

// recordStep is one message of a record as a role's screen meets it: the
// events it caused and the view that follows.
type recordStep struct {
	events []protocol.Event
	view   protocol.View
	// count is the number of messages the transcript holds after it.
	count int
}

// recordGame is a recorded game replayed for one role, standing in for a
// running game (GameConn): no network, the same events and views.
type recordGame struct {
	tr    *protocol.Transcript
	role  protocol.Role
	steps []recordStep
	// at is how many steps were delivered.
	at      int
	actions []protocol.Action
	// unanswered are the actions whose answer comes with the next step.
	unanswered []protocol.Action
}

// loadRecordGame loads testdata/NAME.record.json for role r.
func loadRecordGame(t *testing.T, name string, r protocol.Role) *recordGame {
	t.Helper()
	tr, err := session.LoadTranscript("testdata/" + name + ".record.json")
	if err != nil {
		t.Fatal(err)
	}
	g := &recordGame{tr: tr, role: r}
	m := protocol.NewMachine(tr.Game)
	// The player's own secrets, as its program would add them: its card
	// points (Hidden Move Go) and its pieces (gomoku), known in the record
	// once opened or played. (Phantom Go's come from the reveals; its
	// replay, with the audit, is not done twice.)
	final := protocol.NewMachine(tr.Game)
	if !strings.HasPrefix(name, "phantom") {
		for i := range tr.Messages {
			if _, err := final.Apply(&tr.Messages[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	var gomoku *gomokuPrivate
	var phantom *phantomPrivate
	for i := range tr.Messages {
		events, err := m.Apply(&tr.Messages[i])
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		v := viewOf(m, final, r)
		if gv, ok := v.Variant.(gomokurules.View); ok {
			if gomoku == nil {
				gomoku = newGomokuPrivate(t, m.Options, r, final)
			}
			for _, e := range events {
				gomoku.step(t, e)
			}
			gv.Game = gomoku.view
			v.Variant = gv
		}
		if pv, ok := v.Variant.(phantomrules.View); ok && v.Color != engine.Empty {
			if phantom == nil {
				phantom = newPhantomPrivate(t, tr, m.Options, m.Colors, r)
			}
			for _, e := range events {
				phantom.step(t, e)
			}
			pv.Own, pv.Announcements = phantom.view, slices.Clone(phantom.told)
			pv.MyTry = pv.Stage == phantomrules.StagePlay && pv.ToMove == v.Color && v.MyTurn
			v.Variant = pv
		}
		g.steps = append(g.steps, recordStep{events: events, view: v, count: i + 1})
	}
	return g
}

// phantomPrivate is a Phantom Go player's own view of a recorded game,
// built as its program builds it: each try's announcement to the player,
// which the test computes by replaying both players' tries (revealed at the
// end of the record) through a referee.
type phantomPrivate struct {
	me    engine.Color
	roles [2]engine.Color
	tries [2][]engine.Point
	next  [2]int
	ref   phantom.Referee
	view  phantom.View
	told  []string
}

func newPhantomPrivate(t *testing.T, tr *protocol.Transcript, o engine.Options, colors [2]engine.Color, r protocol.Role) *phantomPrivate {
	t.Helper()
	p := &phantomPrivate{me: colors[r], roles: colors}
	for _, msg := range tr.Messages {
		if msg.Kind != phantomrules.KindReveal {
			continue
		}
		var b phantomrules.RevealBody
		if err := json.Unmarshal(msg.Body, &b); err != nil {
			t.Fatal(err)
		}
		for _, v := range b.Tries {
			p.tries[msg.From] = append(p.tries[msg.From], vtx(t, o.Size, v))
		}
	}
	var err error
	if p.ref, err = phantom.NewReferee(o); err != nil {
		t.Fatal(err)
	}
	if p.view, err = phantom.NewView(o, p.me); err != nil {
		t.Fatal(err)
	}
	return p
}

// step takes one event of the game: a try gives the player its
// announcement.
func (p *phantomPrivate) step(t *testing.T, e protocol.Event) {
	t.Helper()
	if _, ok := e.(phantomrules.EventTry); !ok {
		return
	}
	c := p.ref.ToMove()
	r := 0
	if p.roles[1] == c {
		r = 1
	}
	try := p.tries[r][p.next[r]]
	p.next[r]++
	ref, out, err := p.ref.Try(c, try)
	if err != nil {
		t.Fatal(err)
	}
	p.ref = ref
	a := phantom.Announce(p.ref.Rules(), p.ref.Options().Size, out, p.me)
	if p.view, err = p.view.Apply(a); err != nil {
		t.Fatal(err)
	}
	p.told = append(p.told, a.String())
}

// gomokuPrivate is a gomoku player's own view of a recorded game, built as
// its program builds it: the opponent's steps observed, its own replayed
// with its committed points (known from the finished game's record).
type gomokuPrivate struct {
	role protocol.Role
	view gomoku.View
	rec  gomoku.Record
}

func newGomokuPrivate(t *testing.T, o engine.Options, r protocol.Role, final *protocol.Machine) *gomokuPrivate {
	t.Helper()
	seat := gomoku.Inviter
	if r == protocol.Invitee {
		seat = gomoku.Invitee
	}
	v, err := gomoku.NewView(o, seat)
	if err != nil {
		t.Fatal(err)
	}
	fv := final.PublicView(r).(gomokurules.View)
	if fv.Record == nil {
		t.Fatal("the gomoku record has no opened record")
	}
	return &gomokuPrivate{role: r, view: v, rec: *fv.Record}
}

// step takes one event of the game.
func (g *gomokuPrivate) step(t *testing.T, e protocol.Event) {
	t.Helper()
	ge, ok := e.(gomokurules.EventStep)
	if !ok {
		return
	}
	v, ev := g.view, ge.Event
	var err error
	if ge.From != g.role {
		g.view, err = v.Observe(ev)
	} else {
		switch ev.Kind {
		case gomoku.EventOpening:
			g.view, _, err = v.PlaceOpening(ev.Point)
		case gomoku.EventSide:
			g.view, _, err = v.ChooseSide(ev.Side)
		case gomoku.EventCommit:
			g.view, _, err = v.Commit(g.rec.Turns[v.MoveNumber()-1].Point)
		case gomoku.EventPass:
			g.view, _, err = v.Pass()
		case gomoku.EventNoLegalPoint:
			g.view, _, err = v.DeclareNoLegalPoint()
		case gomoku.EventAnnounce:
			g.view, _, err = v.Announce(ev.Line.Kind)
		case gomoku.EventResponse:
			var ps []engine.Point
			for _, o := range ev.Openings {
				ps = append(ps, o.Point)
			}
			g.view, _, err = v.Respond(ps)
		case gomoku.EventReveal:
			g.view, _, err = v.Reveal()
		case gomoku.EventDeclare:
			g.view, _, err = v.Declare(ev.Declaration)
		}
	}
	if err != nil {
		t.Fatalf("gomoku view of role %d: %s: %v", g.role, ev.Kind, err)
	}
}

// viewOf builds the view role r's program gives after the messages m
// applied, with r's secrets taken from the finished game final.
func viewOf(m, final *protocol.Machine, r protocol.Role) protocol.View {
	from, kinds := m.Expected()
	v := protocol.View{Role: r, Color: m.Colors[r], Options: m.Options, Phase: m.Phase,
		MyTurn: from == r && m.Phase == protocol.PhasePlay, Kinds: kinds,
		Variant: m.PublicView(r), Chat: slices.Clone(m.Chat)}
	if m.Outcome != nil {
		o := *m.Outcome
		v.Outcome = &o
	}
	if hv, ok := v.Variant.(hmgrules.View); ok && hv.Committed[r] {
		me := m.Colors[r]
		fv := final.PublicView(r).(hmgrules.View)
		var points []engine.Point
		for _, c := range fv.Game.Cards(me) {
			points = append(points, c.Point)
		}
		if g, err := hv.Game.OpenCards(me, points); err == nil {
			hv.Game, hv.CardsChosen, hv.MyCards = g, true, g.Cards(me)
		}
		v.Variant = hv
	}
	return v
}

func (g *recordGame) ID() protocol.GameID { return g.tr.Game }
func (g *recordGame) Peer() peer.ID       { return peer.ID(g.tr.Peers[g.role.Other()]) }
func (g *recordGame) View() protocol.View {
	if g.at == 0 {
		return protocol.View{Role: g.role, Options: g.steps[0].view.Options, Phase: protocol.PhaseAnswer}
	}
	return g.steps[g.at-1].view
}
func (g *recordGame) Do(a protocol.Action) error {
	g.actions = append(g.actions, a)
	g.unanswered = append(g.unanswered, a)
	return nil
}
func (g *recordGame) Events() <-chan protocol.Event { return nil }
func (g *recordGame) Transcript() *protocol.Transcript {
	t := g.tr.Clone()
	if g.at > 0 {
		t.Messages = t.Messages[:g.steps[g.at-1].count]
	} else {
		t.Messages = nil
	}
	return t
}
func (g *recordGame) Close() {}

// next delivers the next step to the screen; it reports false at the end.
func (g *recordGame) next(s *GameScreen) bool {
	if g.at >= len(g.steps) {
		return false
	}
	st := g.steps[g.at]
	g.at++
	answered := g.unanswered
	g.unanswered = nil
	for _, a := range answered {
		s.ActionDone(a, nil, st.view)
	}
	for _, e := range st.events {
		s.Apply(e, st.view)
	}
	if len(st.events) == 0 {
		s.model.View = st.view
		s.afterChange()
	}
	return true
}

// until delivers steps until cond holds of the screen.
func (g *recordGame) until(t *testing.T, s *GameScreen, cond func() bool) {
	t.Helper()
	for !cond() {
		if !g.next(s) {
			t.Fatal("the record ended before the condition held")
		}
	}
}

// newRecordScreen returns the game screen of a recorded game for role r,
// at the invitation; its actions are recorded, not sent, and get no
// answer (the record goes on as it was played).
func newRecordScreen(t *testing.T, name string, r protocol.Role) (*GameScreen, *recordGame) {
	t.Helper()
	g := loadRecordGame(t, name, r)
	g.at = 1 // the invitation
	s := NewGameScreen(g, func(a protocol.Action) { g.Do(a) }, nil)
	s.SetSaveDir(t.TempDir())
	return s, g
}

// simScreens keeps one simulated screen per test, as making one costs.
var simScreens sync.Map // *testing.T → tcell.SimulationScreen

// drawScreen draws p on a simulated w×h screen and returns its text.
func drawScreen(t *testing.T, p tview.Primitive, w, h int) string {
	t.Helper()
	var sc tcell.SimulationScreen
	if v, ok := simScreens.Load(t); ok {
		sc = v.(tcell.SimulationScreen)
	} else {
		sc = tcell.NewSimulationScreen("UTF-8")
		if err := sc.Init(); err != nil {
			t.Fatal(err)
		}
		simScreens.Store(t, sc)
		t.Cleanup(func() {
			simScreens.Delete(t)
			sc.Fini()
		})
	}
	sc.SetSize(w, h)
	sc.Clear()
	p.SetRect(0, 0, w, h)
	p.Draw(sc)
	sc.Show()
	cells, cw, ch := sc.GetContents()
	lines := make([]string, ch)
	for y := range ch {
		var sb strings.Builder
		for x := range cw {
			c := cells[y*cw+x]
			if len(c.Runes) == 0 {
				sb.WriteByte(' ')
				continue
			}
			sb.WriteString(string(c.Runes))
		}
		lines[y] = strings.TrimRight(sb.String(), " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}

// press sends keys to the screen: runes, with "\n" Enter, "\t" Tab,
// "\x1b" Esc, and control characters for Ctrl keys ("\x04" is Ctrl-D).
func press(s interface{ HandleKey(*tcell.EventKey) }, keys string) {
	for _, r := range keys {
		s.HandleKey(keyEvent(r))
	}
}

// keyEvent returns the key event of r as press reads it.
func keyEvent(r rune) *tcell.EventKey {
	switch {
	case r == '\n':
		return tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
	case r == '\t':
		return tcell.NewEventKey(tcell.KeyTab, 0, tcell.ModNone)
	case r == '\x1b':
		return tcell.NewEventKey(tcell.KeyEsc, 0, tcell.ModNone)
	case r == '\b':
		return tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModNone)
	case r < ' ':
		return tcell.NewEventKey(tcell.Key(r), 0, tcell.ModCtrl)
	}
	return tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone)
}

// pressKey sends one special key.
func pressKey(s interface{ HandleKey(*tcell.EventKey) }, k tcell.Key) {
	s.HandleKey(tcell.NewEventKey(k, 0, tcell.ModNone))
}

// vtx returns the point of a vertex on a board of side n.
func vtx(t *testing.T, n int, v string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(n, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// actionsText writes recorded actions for comparison.
func actionsText(n int, as []protocol.Action) string {
	var parts []string
	for _, a := range as {
		switch a := a.(type) {
		case protocol.Play:
			parts = append(parts, "play "+a.Point.Vertex(n))
		case protocol.MarkDead:
			parts = append(parts, "mark "+engine.FormatVertices(n, a.Dead))
		case hmgrules.SetCards:
			parts = append(parts, "cards "+engine.FormatVertices(n, a.Points))
		case hmgrules.Reveal:
			parts = append(parts, fmt.Sprintf("reveal %d", a.Card))
		case protocol.Chat:
			parts = append(parts, "chat "+a.Text)
		case protocol.AgreeScore:
			parts = append(parts, "agree")
		default:
			// A variant's action reads as its package without "rules." and
			// its name: gomokurules.Opening is "gomokuopening".
			parts = append(parts, strings.ToLower(strings.Replace(strings.TrimPrefix(fmt.Sprintf("%T", a), "protocol."), "rules.", "", 1)))
		}
	}
	return strings.Join(parts, "; ")
}
