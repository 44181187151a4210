package tournament_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/tournament"
)

// playSeriesGame plays game index of the series of agreement a over
// loopback, inviter inviting invitee, the built-in bots on both sides;
// it returns the inviter's record and the invitee's.
func playSeriesGame(t *testing.T, ctx context.Context, inviter, invitee *player, a protocol.SeriesAgreement, index int, seed uint64) (inviterRecord, inviteeRecord []byte) {
	t.Helper()
	if err := inviter.host.Connect(ctx, peer.AddrInfo{ID: invitee.id, Addrs: invitee.host.Addrs()}); err != nil {
		t.Fatal(err)
	}
	level := bot.Level{Playouts: 40}
	done := make(chan []byte, 1)
	go func() {
		select {
		case g := <-invitee.svc.Accepted():
			bot.Run(ctx, g, bot.New(level, seed+1))
			rec, _ := g.Transcript().MarshalJSON()
			done <- rec
		case <-ctx.Done():
			done <- nil
		}
	}()
	g, err := inviter.svc.InviteSeries(ctx, invitee.id, a, index)
	if err != nil {
		t.Fatalf("series game %d: %v", index+1, err)
	}
	if _, err := bot.Run(ctx, g, bot.New(level, seed)); err != nil {
		t.Fatal(err)
	}
	rec, _ := g.Transcript().MarshalJSON()
	return rec, <-done
}

// seriesText is the standings of every series of set, as kakure standings
// prints them.
func seriesText(set records) ([]*tournament.SeriesStandings, []string, []byte) {
	series, other := tournament.ComputeSeries(set.files())
	var b bytes.Buffer
	for _, s := range series {
		b.Write(s.Text())
	}
	for _, l := range other {
		b.WriteString(l + "\n")
	}
	return series, other, b.Bytes()
}

// TestSERD9SeriesStandings: a 3-game series of plain Go 5×5 over
// loopback, colours alternating; kakure standings' computation from the
// inviter's copies, the invitee's and both together gives the same
// bytes, and the score each game's verified result gives, checked here
// from the records on their own (protocol.Verify and the alternate
// rule). Then what cannot count is named and not counted (SER-D9): a
// record left out, an edited record re-signed by one player (counted
// from the other's copy when it is there), a game of no series, a second
// game for one place of the series and another agreement under the same
// ID, both played by programs that do not check (fresh homes with the
// same keys: the invitee's check, SER-D3, would refuse them).
func TestSERD9SeriesStandings(t *testing.T) {
	t.Parallel()
	ctx := testenv.Context(t, 120*time.Second)
	a, b := newPlayer(t), newPlayer(t)
	o := engine.Options{Variant: engine.VariantGo, Size: 5}
	agreement, err := session.NewSeriesAgreement(a.id, b.id, o, 3, protocol.SeriesAlternate)
	if err != nil {
		t.Fatal(err)
	}
	byInviter, byInvitee := records{}, records{}
	var want [2]int // quarter points by role, from the records alone
	for i := range 3 {
		ra, rb := playSeriesGame(t, ctx, a, b, agreement, i, uint64(10*i+1))
		name := fmt.Sprintf("game%d.record.json", i+1)
		byInviter["a/"+name], byInvitee["b/"+name] = ra, rb
		tr, err := protocol.ParseTranscript(ra)
		if err != nil {
			t.Fatal(err)
		}
		rep := protocol.Verify(tr)
		if rep.Violation != nil || rep.Outcome == nil || !rep.Finished {
			t.Fatalf("game %d does not verify: %+v", i+1, rep)
		}
		inviterColor := engine.Black
		if i%2 == 1 {
			inviterColor = engine.White
		}
		switch rep.Outcome.Result.Winner {
		case inviterColor:
			want[protocol.Inviter] += 4
		case inviterColor.Opponent():
			want[protocol.Invitee] += 4
		default:
			want[protocol.Inviter] += 2
			want[protocol.Invitee] += 2
		}
	}
	all := records{}
	for k, v := range byInviter {
		all[k] = v
	}
	for k, v := range byInvitee {
		all[k] = v
	}
	series, other, text := seriesText(renamed(byInviter))
	if len(series) != 1 || len(other) != 0 {
		t.Fatalf("%d series, not counted %v:\n%s", len(series), other, text)
	}
	s := series[0]
	if s.Points != want || len(s.NotCounted) != 0 {
		t.Errorf("score %v, the records give %v; not counted %v:\n%s", s.Points, want, s.NotCounted, text)
	}
	for i, g := range s.Games {
		if wantColor := []engine.Color{engine.Black, engine.White, engine.Black}[i]; g.InviterColor != wantColor || !g.Counted {
			t.Errorf("game %d: inviter %v counted %v, want %v counted", i+1, g.InviterColor, g.Counted, wantColor)
		}
	}
	for name, set := range map[string]records{"the invitee's copies": renamed(byInvitee), "both copies": all} {
		if _, _, got := seriesText(set); !bytes.Equal(got, text) {
			t.Errorf("from %s:\n%s\nfrom the inviter's:\n%s", name, got, text)
		}
	}

	named := func(t *testing.T, set records, wantPoints [2]int, wanted ...string) {
		t.Helper()
		series, other, text := seriesText(set)
		var points [2]int
		var lines []string
		for _, s := range series {
			if s.Agreement.ID == agreement.ID && s.Agreement.Digest() == agreement.Digest() {
				points = s.Points
			}
			lines = append(lines, s.NotCounted...)
		}
		lines = append(lines, other...)
		if points != wantPoints {
			t.Errorf("score %v, want %v:\n%s", points, wantPoints, text)
		}
		for _, w := range wanted {
			found := false
			for _, l := range lines {
				found = found || strings.Contains(l, w)
			}
			if !found {
				t.Errorf("nothing names %q:\n%s", w, text)
			}
		}
	}
	points := func(i int) [2]int { return s.Games[i].Points }
	minus := func(p, q [2]int) [2]int { return [2]int{p[0] - q[0], p[1] - q[1]} }

	t.Run("a record left out", func(t *testing.T) {
		set := renamed(byInviter)
		delete(set, "game2.record.json")
		named(t, set, minus(want, points(1)), "game 2: no record")
	})
	f := &field{players: map[string]*player{a.id.String(): a, b.id.String(): b}}
	edited := editRecord(t, byInviter["a/game1.record.json"], f)
	t.Run("an edited record alone", func(t *testing.T) {
		set := renamed(byInviter)
		set["game1.record.json"] = edited
		named(t, set, minus(want, points(0)), "game1.record.json: record rejected", "game 1: no record")
	})
	t.Run("an edited record beside the other's copy", func(t *testing.T) {
		set := renamed(byInvitee)
		set["edited.record.json"] = edited
		named(t, set, want, "edited.record.json: record rejected")
	})
	// A copy cut before the players' results: it reads, and does not
	// count (TRN-D13).
	cut := truncateRecord(t, byInviter["a/game1.record.json"], 3)
	t.Run("an unfinished copy alone", func(t *testing.T) {
		set := renamed(byInviter)
		set["game1.record.json"] = cut
		named(t, set, minus(want, points(0)), "game 1: not a finished game")
	})
	t.Run("an unfinished copy beside the other's", func(t *testing.T) {
		set := renamed(byInvitee)
		set["cut.record.json"] = cut
		named(t, set, want)
	})
	t.Run("a game of no series", func(t *testing.T) {
		rec, _, err := play(t, ctx, a, b, o, nil, 99)
		if err != nil {
			t.Fatal(err)
		}
		set := renamed(byInviter)
		set["single.record.json"] = rec
		named(t, set, want, "single.record.json: game", "is a game of no series")
	})
	// Programs that do not check: fresh homes under the same keys.
	a2, b2 := newPlayerWithKey(t, a.key), newPlayerWithKey(t, b.key)
	t.Run("a second game for one place", func(t *testing.T) {
		again, _ := playSeriesGame(t, ctx, a2, b2, agreement, 0, 77)
		set := renamed(byInviter)
		set["again.record.json"] = again
		named(t, set, minus(want, points(0)), "game 1: 2 games for one place of the series")
	})
	t.Run("another agreement under the same ID", func(t *testing.T) {
		other := agreement
		other.Games = 5
		a3, b3 := newPlayerWithKey(t, a.key), newPlayerWithKey(t, b.key)
		rec, _ := playSeriesGame(t, ctx, a3, b3, other, 0, 55)
		set := renamed(byInviter)
		set["other.record.json"] = rec
		named(t, set, want, "another agreement under the same ID")
	})
}

// truncateRecord returns the record data without its last n messages:
// the prefix of a game, which reads as a record does.
func truncateRecord(t *testing.T, data []byte, n int) []byte {
	t.Helper()
	tr, err := protocol.ParseTranscript(data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(struct {
		Format   string             `json:"format"`
		Game     protocol.GameID    `json:"game"`
		Peers    [2]string          `json:"peers"`
		Messages []protocol.Message `json:"messages"`
	}{protocol.RecordFormat, tr.Game, [2]string{tr.Peers[0].String(), tr.Peers[1].String()}, tr.Messages[:len(tr.Messages)-n]})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
