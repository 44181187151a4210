package watch

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// invitation returns the publication of game's invitation to v.
func invitation(t *testing.T, game protocol.GameID, v engine.Variant, name string) session.Publication {
	t.Helper()
	body, err := json.Marshal(protocol.InviteBody{Inviter: "A", Invitee: "B", InviterName: name,
		Options: protocol.OptionsBody{Variant: string(v), Size: 9}})
	if err != nil {
		t.Fatal(err)
	}
	return session.Publication{Game: game, Message: &protocol.Message{Game: game, Kind: protocol.KindInvite, Body: body}}
}

// header returns a withheld message's publication.
func header(game protocol.GameID, pos uint64, from protocol.Role, k protocol.Kind) session.Publication {
	return session.Publication{Game: game, Pos: pos, Withheld: &session.WithheldMessage{Game: game, From: from, Kind: k}}
}

// TestSPECD14MovesFromHeaders: the moves a listing tells are counted from
// what the topic carried (SPEC-D14): Phantom Go's tries by their
// announcements (not its withheld messages), F-Go's turns once (the
// inviter's commitment), gomoku's commitments and passes; a game comes
// with its invitation only, leaves with its record; a name is cut to
// protocol.MaxNameLength; the listing holds the MaxLiveGames most
// recently published.
func TestSPECD14MovesFromHeaders(t *testing.T) {
	l := liveGames{games: map[protocol.GameID]*LiveGame{}, codes: map[protocol.GameID]string{}}
	ph, fg, gm, orphan := protocol.GameID{1}, protocol.GameID{2}, protocol.GameID{3}, protocol.GameID{4}
	l.track(header(orphan, 3, protocol.Inviter, protocol.KindMove))
	l.track(invitation(t, ph, engine.VariantPhantom, strings.Repeat("é", 40)))
	l.track(invitation(t, fg, engine.VariantFGo, "f"))
	l.track(invitation(t, gm, engine.VariantGomoku, "g"))
	for i := range 3 {
		l.track(header(ph, uint64(10+i), protocol.Inviter, phantomrules.KindTry))
		l.track(header(ph, uint64(20+i), protocol.Invitee, protocol.KindMove))
		l.track(session.Publication{Game: ph, Announcement: &session.PublicAnnouncement{Try: uint64(i)}})
		l.track(header(fg, uint64(10+2*i), protocol.Inviter, fgorules.KindCommit))
		l.track(header(fg, uint64(11+2*i), protocol.Invitee, fgorules.KindCommit))
		l.track(header(gm, uint64(10+2*i), protocol.Inviter, gomokurules.KindCommit))
		l.track(header(gm, uint64(11+2*i), protocol.Invitee, gomokurules.KindAnnounce))
	}
	l.track(header(gm, 30, protocol.Inviter, gomokurules.KindPass))
	if _, ok := l.games[orphan]; ok {
		t.Error("a game with no invitation published is listed")
	}
	for game, want := range map[protocol.GameID]int{ph: 3, fg: 3, gm: 4} {
		if got := l.games[game].Moves; got != want {
			t.Errorf("game %s of %s: %d moves, want %d", game, l.games[game].Variant, got, want)
		}
	}
	if name := l.games[ph].Names[0]; len(name) > protocol.MaxNameLength || !strings.HasPrefix(name, "éé") {
		t.Errorf("the name listed is %q (%d bytes)", name, len(name))
	}
	if got := l.list(); len(got) != 3 || got[0].Game != gm {
		t.Errorf("listed %+v, want the three games, gomoku's (published last) first", got)
	}
	l.track(session.Publication{Game: gm, Record: &session.RecordPart{Parts: 1}})
	if _, ok := l.games[gm]; ok {
		t.Error("a game whose record was published is still listed")
	}
	for i := range MaxLiveGames + 5 {
		l.track(invitation(t, protocol.GameID{9, byte(i)}, engine.VariantGo, ""))
	}
	got := l.list()
	if len(got) != MaxLiveGames || got[0].Game != (protocol.GameID{9, MaxLiveGames + 4}) {
		t.Errorf("listed %d games, the first %s; want %d, the newest first", len(got), got[0].Game, MaxLiveGames)
	}
}
