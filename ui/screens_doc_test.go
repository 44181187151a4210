package ui

import (
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/engine/phantom"
)

// screensDoc is the page of screens TestUIScreensDoc keeps up to date.
const screensDoc = "../docs/screens.md"

// updateDocs reports whether the test run was asked to rewrite the docs
// (the -update flag of docs_test.go).
func updateDocs() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// screenSections returns the screens of docs/screens.md by name, drawn at
// 80×24 from the recorded games.
func screenSections(t *testing.T) map[string]string {
	sections := map[string]string{}
	const w, h = 80, 24

	l, _ := focusedLobby(t, engine.Options{Variant: engine.VariantGo, Size: 9})
	l.Model().AddLANPeer(LANPeer{ID: "12D3KooWNeighbourxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxQa", Addrs: []string{"/ip4/192.0.2.9/tcp/4001"}})
	l.Model().Unfinished = []SavedGame{{Opponent: "12D3KooWFriendxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxQb", Options: options(t, engine.VariantHMG, 13)}}
	l.Render()
	sections["lobby"] = drawScreen(t, l, w, h)

	// Invite codes: hosting one, and joining one (connected, the
	// invitation sent).
	l, _ = focusedLobby(t, engine.Options{Variant: engine.VariantGo, Size: 9})
	l.Model().Code = CodeModel{Hosting: true, Code: "maple-otter-quail",
		Progress: "Waiting for your friend: their invitation shows here, with their peer ID."}
	l.Render()
	sections["lobby-host"] = drawScreen(t, l, w, h)
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo, Size: 9})
	l.HandleKey(keyEvent('\x05'), setFocus)
	lobbyKeys(l, setFocus, "MAPLE otter qua")
	host := "12D3KooWHostOfTheCodexxxxxxxxxxxxxxxxxxxxxxxxxxxxH1"
	l.Model().Code.Connecting, l.Model().Code.Peer = true, host
	l.Model().Code.Progress = "Connected; invitation sent: the host answers on its screen…"
	l.SetConn(host, ConnState{Kind: "hole-punched", RTT: 23400 * time.Microsecond})
	sections["lobby-join"] = drawScreen(t, l, w, h)

	// Plain Go: the opponent proposed its marking of dead stones.
	s, g := newRecordScreen(t, "go", protocol.Inviter)
	g.until(t, s, func() bool {
		gv, ok := s.Model().View.Variant.(gorules.View)
		return ok && gv.HasProposal
	})
	sections["go"] = drawScreen(t, s, w, h)

	// Hidden Move Go: just after an undo (HMG-5).
	s, g = newRecordScreen(t, "hmg", protocol.Inviter)
	g.until(t, s, func() bool {
		for _, e := range g.steps[g.at-1].events {
			if r, ok := e.(hmgrules.EventRevealed); ok && r.Undo {
				return true
			}
		}
		return false
	})
	sections["hmg"] = drawScreen(t, s, w, h)
	for g.next(s) {
	}
	sections["hmg-end"] = drawScreen(t, s, w, h)

	// F-Go: the opponent has chosen; the player chose a point and has not
	// confirmed it yet.
	s, g = newRecordScreen(t, "fgo", protocol.Inviter)
	g.until(t, s, func() bool {
		fv, ok := s.Model().View.Variant.(fgorules.View)
		return ok && fv.Game.TurnNumber() >= 6 && fv.OpponentCommitted && !fv.Committed
	})
	fv := s.Model().View.Variant.(fgorules.View)
	for p := engine.Point(12); ; p++ {
		if fv.Game.CheckChoice(s.Model().Me(), p) == nil {
			press(s, p.Vertex(5)+"\n")
			break
		}
	}
	sections["fgo"] = drawScreen(t, s, w, h)

	// Bridge Go: the end, the winning chain highlighted.
	s, g = newRecordScreen(t, "bridge", protocol.Invitee)
	for g.next(s) {
	}
	sections["bridge"] = drawScreen(t, s, w, h)

	// A spectator of a plain Go game, in the middle of it (UI-D48).
	sections["spectator"] = drawScreen(t, spectatorOfRecord(t, "go", 30), w, h)

	// Hidden Move Double Gomoku: the opponent announced a line where the
	// player has hidden pieces; the player selected one to reveal.
	s, g = newRecordScreen(t, "gomoku", protocol.Inviter)
	g.until(t, s, func() bool {
		gv, ok := s.Model().View.Variant.(gomokurules.View)
		v := gv.Game
		return ok && v.Size() > 0 && v.MoveNumber() > 12 && v.MyTurn() && v.Phase() == gomoku.PhaseRespond &&
			len(v.HiddenInLine(v.Announced())) > 1
	})
	gv := s.Model().View.Variant.(gomokurules.View)
	press(s, gv.Game.HiddenInLine(gv.Game.Announced())[0].Vertex(7)+"\n")
	sections["gomoku"] = drawScreen(t, s, w, h)
	for g.next(s) {
	}
	sections["gomoku-end"] = drawScreen(t, s, w, h)

	// Phantom Go, hamburg rules: own stones perhaps captured, opponent
	// stones learnt, a private note.
	s, g = newRecordScreen(t, "phantom", protocol.Inviter)
	g.until(t, s, func() bool {
		pv, ok := s.Model().View.Variant.(phantomrules.View)
		return ok && pv.MyTry && len(pv.Own.UncertainStones()) > 0 && len(pv.Own.OpponentStones()) > 0
	})
	pv := s.Model().View.Variant.(phantomrules.View)
	for p := engine.Point(0); int(p) < 25; p++ {
		if pv.Own.At(p) == phantom.Unknown {
			s.Board().SetCursor(p)
			press(s, "m")
			break
		}
	}
	sections["phantom"] = drawScreen(t, s, w, h)

	// A game with a peer met by code: the connection in the panel.
	s, g = newRecordScreen(t, "go", protocol.Inviter)
	g.until(t, s, func() bool { return s.Model().View.Phase == protocol.PhasePlay && len(s.Model().Log) > 3 })
	s.SetConnection(ConnState{Kind: "relayed", RTT: 48200 * time.Microsecond})
	sections["connection"] = drawScreen(t, s, w, h)

	// The help screen.
	gf := &fakeGame{view: goView(t, 9)}
	s = gf.screen(t)
	press(s, "?")
	sections["help"] = drawScreen(t, s, w, 40)
	return sections
}

// TestUIScreensDoc checks that docs/screens.md shows the screens the code
// draws now, and docs/ui.md the key tables of the game screen and the
// lobby; go test ./ui -update rewrites them.
func TestUIScreensDoc(t *testing.T) {
	checkDocSections(t, screensDoc, screenSections(t))
	g := &fakeGame{view: goView(t, 9)}
	_, play, review := g.screen(t).Keys()
	lobby, _ := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
	checkDocSections(t, "../docs/ui.md", map[string]string{
		"keys-game": play.Help(), "keys-review": review.Help(), "keys-lobby": lobby.Keys().Help(),
		"keys-spectator": NewSpectatorScreen("", nil).keys.Help(),
	})
}

// checkDocSections checks that the file at path holds each section, as a
// text block between "<!-- begin NAME -->" and "<!-- end NAME -->", and
// rewrites it with -update.
func checkDocSections(t *testing.T, path string, sections map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	screensDoc := path
	for name, want := range sections {
		begin, end := "<!-- begin "+name+" -->\n", "<!-- end "+name+" -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Errorf("%s: no section %q", screensDoc, name)
			continue
		}
		block := "```text\n" + want + "```\n"
		if got := doc[i+len(begin) : j]; got != block {
			if !updateDocs() {
				t.Errorf("%s: section %q is out of date (go test ./ui -update):\n%s", screensDoc, name, block)
				continue
			}
			doc = doc[:i+len(begin)] + block + doc[j:]
		}
	}
	if updateDocs() {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
