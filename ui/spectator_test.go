package ui_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
	"github.com/kakure/kakure/ui"
)

// watchedRecord is a recorded game (testdata: games between two bots)
// published as its inviter's program publishes it (session.PublicOf,
// the public announcements, the record in parts) and taken by a
// spectator, whose lines and state feed a spectator screen.
type watchedRecord struct {
	t         *testing.T
	tr        *protocol.Transcript
	options   engine.Options
	publisher peer.ID
	spec      *watch.Spectator
	screen    *ui.SpectatorScreen
	lines     []watch.Line
	sim       tcell.SimulationScreen
}

func newWatchedRecord(t *testing.T, name string) *watchedRecord {
	t.Helper()
	tr, err := session.LoadTranscript("testdata/" + name + ".record.json")
	if err != nil {
		t.Fatal(err)
	}
	m := protocol.NewMachine(tr.Game)
	if _, err := m.Apply(&tr.Messages[0]); err != nil {
		t.Fatal(err)
	}
	w := &watchedRecord{t: t, tr: tr, options: m.Options, publisher: peer.ID(tr.Peers[protocol.Inviter])}
	w.spec = watch.NewSpectator(w.publisher, tr.Game)
	w.screen = ui.NewSpectatorScreen(w.publisher, nil)
	return w
}

// publish gives the spectator one publication and the screen what it
// shows then.
func (w *watchedRecord) publish(p session.Publication) {
	w.t.Helper()
	data, err := session.MarshalPublication(p)
	if err != nil {
		w.t.Fatal(err)
	}
	lines := w.spec.Take(w.publisher, data)
	w.lines = append(w.lines, lines...)
	w.screen.Take(lines, ui.SpectatorStateOf(w.publisher, w.spec))
}

// messages publishes the record's messages from..to.
func (w *watchedRecord) messages(from, to int) {
	for i := from; i < to; i++ {
		w.publish(session.PublicOf(w.options.Variant, i, &w.tr.Messages[i]))
	}
}

// record publishes the record (one part: the testdata records are small).
func (w *watchedRecord) record() {
	w.t.Helper()
	data, err := w.tr.MarshalJSON()
	if err != nil {
		w.t.Fatal(err)
	}
	w.publish(session.Publication{Game: w.tr.Game, Record: &session.RecordPart{Part: 0, Parts: 1, Data: data}})
	if done, ok := w.spec.Done(); !done || !ok {
		w.t.Fatalf("the spectator did not check the record: done %v ok %v:\n%v", done, ok, w.lines)
	}
}

// draw draws the screen on a simulated 140×45 terminal and returns its
// text.
func (w *watchedRecord) draw() (tcell.SimulationScreen, string) {
	w.t.Helper()
	if w.sim == nil {
		w.sim = tcell.NewSimulationScreen("UTF-8")
		if err := w.sim.Init(); err != nil {
			w.t.Fatal(err)
		}
		w.t.Cleanup(w.sim.Fini)
		w.sim.SetSize(140, 45)
	}
	s := w.sim
	s.Clear()
	w.screen.SetRect(0, 0, 140, 45)
	w.screen.Draw(s)
	s.Show()
	return s, screenText(s)
}

// stones returns the stones the screen's board shows, by point.
func (w *watchedRecord) stones() map[engine.Point]engine.Color {
	bm := w.screen.Board().Model()
	out := map[engine.Point]engine.Color{}
	for p := range engine.Point(bm.Size * bm.Size) {
		if c := bm.At(p).Stone; c != engine.Empty {
			out[p] = c
		}
	}
	return out
}

// publicBoard replays the record's first n messages and returns the
// stones of plain Go's board then.
func publicBoard(t *testing.T, tr *protocol.Transcript, n int) map[engine.Point]engine.Color {
	t.Helper()
	m := protocol.NewMachine(tr.Game)
	for i := range n {
		if _, err := m.Apply(&tr.Messages[i]); err != nil {
			t.Fatal(err)
		}
	}
	gv, ok := m.PublicView(protocol.Inviter).(gorules.View)
	if !ok {
		t.Fatalf("not a plain Go view: %T", m.PublicView(protocol.Inviter))
	}
	b := gv.Game.Board()
	out := map[engine.Point]engine.Color{}
	for p := range engine.Point(b.Size() * b.Size()) {
		if c := b.At(p); c != engine.Empty {
			out[p] = c
		}
	}
	return out
}

func sameStones(a, b map[engine.Point]engine.Color) bool {
	if len(a) != len(b) {
		return false
	}
	for p, c := range a {
		if b[p] != c {
			return false
		}
	}
	return true
}

// TestUID48SpectatorScreenGo: the spectator screen of a plain Go game
// shows, live, the board the public messages give at every message, the
// log of the verified events, the review by move, and after the end the
// record's verdict (SPEC-3, SPEC-4, UI-D48).
func TestUID48SpectatorScreenGo(t *testing.T) {
	w := newWatchedRecord(t, "go")
	n := len(w.tr.Messages)
	played := 0
	for i := range n {
		w.messages(i, i+1)
		want := publicBoard(t, w.tr, i+1)
		if got := w.stones(); !sameStones(got, want) {
			t.Fatalf("after message %d the screen shows %v, the public board is %v", i, got, want)
		}
		played = max(played, len(want))
	}
	if played == 0 {
		t.Fatal("the game put no stone on the board")
	}
	// The log follows the game: its last line shows; PgUp scrolls back
	// to its first.
	_, text := w.draw()
	last := w.lines[len(w.lines)-1]
	if last.Status != watch.Verified || !strings.Contains(text, last.String()) {
		t.Errorf("the screen does not show the last event %q as verified:\n%s", last, text)
	}
	for _, want := range []string{"Watching Go", ui.ShortPeer(w.tr.Peers[protocol.Invitee].String())} {
		if !strings.Contains(text, want) {
			t.Errorf("the screen does not show %q:\n%s", want, text)
		}
	}
	for range len(w.lines) {
		w.screen.HandleKey(tcell.NewEventKey(tcell.KeyPgUp, 0, tcell.ModNone))
	}
	_, text = w.draw()
	for _, want := range []string{"[verified] inviter 0 invite", "[verified] invitee 0 accept"} {
		if !strings.Contains(text, want) {
			t.Errorf("the log scrolled back does not show %q:\n%s", want, text)
		}
	}
	w.screen.HandleKey(tcell.NewEventKey(tcell.KeyPgDn, 0, tcell.ModNone))
	// Review: Home is the empty board of the start, → one stone.
	w.screen.HandleKey(tcell.NewEventKey(tcell.KeyHome, 0, tcell.ModNone))
	if got := w.stones(); len(got) != 0 {
		t.Errorf("Home: the board shows %v, not the start", got)
	}
	w.screen.HandleKey(tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModNone))
	if got := w.stones(); len(got) != 1 {
		t.Errorf("Home →: the board shows %v, not the first move", got)
	}
	w.screen.HandleKey(tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModNone))
	if got := w.stones(); !sameStones(got, publicBoard(t, w.tr, n)) {
		t.Errorf("End: the board shows %v, not the last position", got)
	}
	w.record()
	_, text = w.draw()
	for _, want := range []string{"the record checked", "[verdict] ok: result"} {
		if !strings.Contains(text, want) {
			t.Errorf("after the record the screen does not show %q:\n%s", want, text)
		}
	}
}

// TestUID48SpectatorScreenRefused: a publication the spectator refuses
// (another body at a position it holds, as a forging publisher sends)
// is shown in the log as REFUSED, in red, and changes nothing on the
// board (SPEC-3).
func TestUID48SpectatorScreenRefused(t *testing.T) {
	w := newWatchedRecord(t, "go")
	n := len(w.tr.Messages)
	w.messages(0, n)
	before := w.stones()
	// The last move again, with its body altered: a different
	// publication at a position taken.
	forged := w.tr.Messages[n-1]
	forged.Body = json.RawMessage(strings.Replace(string(forged.Body), "}", `,"x":1}`, 1))
	w.publish(session.PublicOf(w.options.Variant, n-1, &forged))
	if got := w.stones(); !sameStones(got, before) {
		t.Errorf("the refused publication changed the board: %v, was %v", got, before)
	}
	s, text := w.draw()
	if !strings.Contains(text, "[REFUSED]") {
		t.Fatalf("the screen does not show the refusal:\n%s\nlines: %v", text, w.lines)
	}
	// The refusal's mark is drawn red.
	cells, width, _ := s.GetContents()
	found := false
	for y, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "[REFUSED]"); i >= 0 {
			x := len([]rune(line[:i])) + 1
			if fg, _, _ := cells[y*width+x].Style.Decompose(); fg != tcell.ColorRed {
				t.Errorf("the refusal is drawn in %v, not red", fg)
			}
			found = true
			break
		}
	}
	if !found {
		t.Error("no line of the screen shows the refusal")
	}
}

// vertexWords finds any of vertices as a word of its own (so that the
// "D3" of a peer ID "12D3Koo…" is not one).
func vertexWords(vertices []string) *regexp.Regexp {
	quoted := make([]string, len(vertices))
	for i, v := range vertices {
		quoted[i] = regexp.QuoteMeta(v)
	}
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9])(` + strings.Join(quoted, "|") + `)(?:$|[^A-Za-z0-9])`)
}

// positionRe reads the position the spectator screen shows.
var positionRe = regexp.MustCompile(`position (\d+) of (\d+)`)

// TestUID48SpectatorScreenPhantomHidesStones: the spectator screen of a
// Phantom Go game shows no stone and no tried point before the end (the
// screen's text is scanned for every point tried, as the T-5 tests scan
// bytes), then the whole game from the record after it, where the same
// scan finds them (SPEC-1, T-5, UI-D48).
func TestUID48SpectatorScreenPhantomHidesStones(t *testing.T) {
	w := newWatchedRecord(t, "phantom")
	// The tried points, which the players reveal at the end.
	var tried []string
	for _, m := range w.tr.Messages {
		if m.Kind != phantomrules.KindReveal {
			continue
		}
		var b phantomrules.RevealBody
		if err := json.Unmarshal(m.Body, &b); err != nil {
			t.Fatal(err)
		}
		tried = append(tried, b.Tries...)
	}
	if len(tried) == 0 {
		t.Fatal("the record reveals no try")
	}
	announcements, err := session.PublicAnnouncements(w.tr)
	if err != nil {
		t.Fatal(err)
	}
	firstReveal := len(w.tr.Messages)
	for i, m := range w.tr.Messages {
		if m.Kind == phantomrules.KindReveal {
			firstReveal = i
			break
		}
	}
	words := vertexWords(tried)
	scan := func() (stones int, found []string, text string) {
		_, text = w.draw()
		for _, m := range words.FindAllStringSubmatch(text, -1) {
			found = append(found, m[1])
		}
		return len(w.stones()), found, text
	}
	// The play: every message before the reveals, an announcement after
	// each try's messages (here all after the play: the screen must hide
	// the stones whatever it was told).
	w.messages(0, firstReveal)
	for _, a := range announcements {
		w.publish(session.Publication{Game: w.tr.Game, Announcement: &a})
	}
	if stones, found, _ := scan(); stones != 0 || len(found) != 0 {
		t.Errorf("during play the screen shows %d stones and the tried points %v", stones, found)
	}
	_, text := w.draw()
	if !strings.Contains(text, fmt.Sprintf("[not verified] try %d: ", len(announcements)-1)) {
		t.Errorf("the screen does not show the announcements:\n%s", text)
	}
	w.messages(firstReveal, len(w.tr.Messages))
	w.record()
	// After the end, the replay of the record: the same scan over every
	// position finds stones and the tried points.
	w.screen.HandleKey(tcell.NewEventKey(tcell.KeyHome, 0, tcell.ModNone))
	most, named := 0, map[string]bool{}
	for {
		stones, found, text := scan()
		most = max(most, stones)
		for _, v := range found {
			named[v] = true
		}
		if m := positionRe.FindStringSubmatch(text); m == nil || m[1] == m[2] {
			break
		}
		w.screen.HandleKey(tcell.NewEventKey(tcell.KeyRune, '.', tcell.ModNone))
	}
	t.Logf("the replay after the end: up to %d stones, the tried points %v named", most, named)
	if most == 0 || len(named) == 0 {
		t.Errorf("after the end the replay shows at most %d stones and names the tried points %v: the scan finds nothing", most, named)
	}
	w.screen.HandleKey(tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModNone))
	_, text = w.draw()
	if !strings.Contains(text, "announcements seen of") {
		t.Errorf("the screen does not show the announcements' check:\n%s", text)
	}
}

// TestUID48SpectatorScreenHMG: Hidden Move Go's spectator sees the
// visible stones and how many hidden moves each player holds, never a
// hidden move's point before the end (UI-D48).
func TestUID48SpectatorScreenHMG(t *testing.T) {
	w := newWatchedRecord(t, "hmg")
	n := len(w.tr.Messages)
	w.messages(0, n)
	m := protocol.NewMachine(w.tr.Game)
	for i := range n {
		if _, err := m.Apply(&w.tr.Messages[i]); err != nil {
			t.Fatal(err)
		}
	}
	hv := m.PublicView(protocol.Inviter).(hmgrules.View)
	b := hv.Game.Board()
	want := map[engine.Point]engine.Color{}
	for p := range engine.Point(b.Size() * b.Size()) {
		if c := b.At(p); c != engine.Empty {
			want[p] = c
		}
	}
	if len(want) == 0 {
		t.Fatal("the game's board is empty")
	}
	if got := w.stones(); !sameStones(got, want) {
		t.Errorf("the screen shows %v, the public board is %v", got, want)
	}
	_, text := w.draw()
	if !strings.Contains(text, "Hidden: Black ") {
		t.Errorf("the screen does not count the hidden moves:\n%s", text)
	}
}

// TestUID48SpectatorScreenEveryVariant: every variant's recorded game,
// watched, draws its board from the public messages and, after the end,
// its replay with the record's check; ? shows the keys and the marks
// (UI-D48).
func TestUID48SpectatorScreenEveryVariant(t *testing.T) {
	for _, name := range []string{"go", "bridge", "fgo", "gomoku", "hmg"} {
		t.Run(name, func(t *testing.T) {
			w := newWatchedRecord(t, name)
			w.messages(0, len(w.tr.Messages))
			w.draw()
			if len(w.stones()) == 0 {
				t.Errorf("after the game's messages the board shows nothing")
			}
			w.record()
			_, text := w.draw()
			if !strings.Contains(text, "over: the record checked") {
				t.Errorf("after the record:\n%s", text)
			}
			w.screen.HandleKey(tcell.NewEventKey(tcell.KeyRune, '?', tcell.ModNone))
			if _, text := w.draw(); !strings.Contains(text, "Marks of the log") || !strings.Contains(text, "stop watching") {
				t.Errorf("? does not show the keys and the marks:\n%s", text)
			}
		})
	}
}
