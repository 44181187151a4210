package session_test

import (
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"

	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// seriesOptions are the options of the series tests: plain Go on 5×5,
// quick between random bots.
var seriesOptions = engine.Options{Variant: engine.VariantGo, Size: 5}

// inviteSeriesGame invites peer 1 to game index of a and returns both
// sides' games once the invitee accepted.
func inviteSeriesGame(t *testing.T, p *pair, a protocol.SeriesAgreement, index int) (host, guest *session.Game) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	host, err := p.services[0].InviteSeries(ctx, p.hosts[1].ID(), a, index)
	if err != nil {
		t.Fatalf("game %d of the series: %v", index+1, err)
	}
	select {
	case guest = <-p.services[1].Accepted():
	case <-ctx.Done():
		t.Fatal("the invitee delivered no accepted game")
	}
	return host, guest
}

// playBoth plays host and guest to the end between random bots and
// returns the inviter's outcome.
func playBoth(t *testing.T, host, guest *session.Game, seed uint64) *protocol.Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	guestOut := make(chan *protocol.Outcome, 1)
	go func() {
		out, _ := bot.Run(ctx, guest, bot.NewRandom(seed+1))
		guestOut <- out
	}()
	out, err := bot.Run(ctx, host, bot.NewRandom(seed))
	if err != nil || out == nil {
		t.Fatalf("inviter's game: %v %v", out, err)
	}
	if g := <-guestOut; g == nil || g.Result != out.Result {
		t.Fatalf("the invitee's outcome %v differs from the inviter's %v", g, out)
	}
	return out
}

// refused asserts that an invitation was declined with a reason that
// contains want.
func refused(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("the invitation was accepted; want it declined with %q", want)
	}
	if !strings.Contains(err.Error(), "declined") || !strings.Contains(err.Error(), want) {
		t.Fatalf("invitation refused with %q; want a decline with %q", err, want)
	}
}

// TestSERD3InviteeRefusesCheats plays a series over loopback while the
// inviter tries every lever on the invitee's checks (SER-D2, SER-D3): a
// replayed first game, a skipped game, another agreement under the same
// series ID, a second invitation of a game that runs, and invitations
// whose options or colours are not those the agreement gives the game.
// Each is declined with its reason; the honest games go on, colours
// alternating, and both records name the series.
func TestSERD3InviteeRefusesCheats(t *testing.T) {
	t.Parallel()
	// The cheating inviter rewrites its invitation before signing it
	// (what a modified program does).
	var cheat atomic.Pointer[func(*protocol.InviteBody)]
	// What the invitee logs: its reasons to decline (the cheater's own
	// program, whose machine refuses what it sent, never reads them).
	var inviteeLog lockedBuffer
	p := newPair(t, func(i int, c *session.Config) {
		if i != 0 {
			// The invitee takes a moment to decide, as a user does: two
			// invitations of one game then cross between its first check
			// and its admission, where it checks again (SER-D3).
			c.OnInvite = func(peer.ID, string, engine.Options) error {
				time.Sleep(testenv.Duration(50 * time.Millisecond))
				return nil
			}
			c.Logger = slog.New(slog.NewTextHandler(io.MultiWriter(testWriter{t, i}, &inviteeLog), &slog.HandlerOptions{Level: slog.LevelDebug}))
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			f := cheat.Load()
			if kind != protocol.KindInvite || f == nil {
				return kind, body, false
			}
			b := body.(protocol.InviteBody)
			(*f)(&b)
			return kind, b, true
		})
	})
	a, err := session.NewSeriesAgreement(p.hosts[0].ID(), p.hosts[1].ID(), seriesOptions, 3, protocol.SeriesAlternate)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	invite := func(a protocol.SeriesAgreement, index int) error {
		g, err := p.services[0].InviteSeries(ctx, p.hosts[1].ID(), a, index)
		if err == nil {
			g.Close()
		}
		return err
	}
	// withCheat sends the invitation of game index rewritten by f and
	// waits for the invitee to decline it with a reason containing want.
	withCheat := func(f func(*protocol.InviteBody), index int, want string) {
		t.Helper()
		cheat.Store(&f)
		defer cheat.Store(nil)
		before := inviteeLog.String()
		cctx, ccancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if g, err := p.services[0].InviteSeries(cctx, p.hosts[1].ID(), a, index); err == nil {
				g.Close()
			}
		}()
		defer func() { ccancel(); <-done }()
		deadline := testenv.Deadline(10 * time.Second)
		for {
			logged := strings.TrimPrefix(inviteeLog.String(), before)
			if strings.Contains(logged, "declining an invitation") && strings.Contains(logged, want) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the invitee did not decline with %q; its log since:\n%s", want, logged)
			}
			time.Sleep(10 * time.Millisecond)
		}
		select {
		case g := <-p.services[1].Accepted():
			t.Fatalf("the invitee accepted game %s", g.ID())
		default:
		}
	}

	// Game 1: the inviter is Black.
	host, guest := inviteSeriesGame(t, p, a, 0)
	if c := host.View().Color; c != engine.Empty && c != engine.Black {
		t.Errorf("game 1: the inviter is %v, want black", c)
	}
	playBoth(t, host, guest, 10)
	if host.View().Color != engine.Black || guest.View().Color != engine.White {
		t.Errorf("game 1: inviter %v, invitee %v; want black, white", host.View().Color, guest.View().Color)
	}
	if s := guest.Series(); s == nil || s.Index != 0 || s.Agreement != a {
		t.Errorf("the invitee's game 1 names series %+v, want index 0 of %+v", s, a)
	}

	refused(t, invite(a, 0), "already played")
	refused(t, invite(a, 2), "comes before game 2 is over")
	other := a
	other.Options.Komi = 0.5
	refused(t, invite(other, 1), "another agreement under the same series ID")
	withCheat(func(b *protocol.InviteBody) { b.Options.Komi = 0.5 }, 1, "not those the series agreement gives game 2")
	withCheat(func(b *protocol.InviteBody) { b.Options.InviterColor = "black" }, 1, "not those the series agreement gives game 2")
	withCheat(func(b *protocol.InviteBody) { b.Series.Index = 3 }, 1, "index 3 of a series of 3")
	withCheat(func(b *protocol.InviteBody) { b.Series.Agreement.Games = 4 }, 1, "another agreement under the same series ID")
	withCheat(func(b *protocol.InviteBody) { b.Series.Agreement.Invitee = b.Inviter }, 1, "series between a peer and itself")
	withCheat(func(b *protocol.InviteBody) {
		b.Series.Agreement.Inviter, b.Series.Agreement.Invitee = b.Series.Agreement.Invitee, b.Series.Agreement.Inviter
	}, 1, "names other peers than the invitation")

	// Game 2, invited twice at once: one invitation is accepted, the
	// other declined; while the game runs, a third is refused; the
	// inviter is White.
	type answer struct {
		g   *session.Game
		err error
	}
	answers := make(chan answer, 2)
	for range 2 {
		go func() {
			g, err := p.services[0].InviteSeries(ctx, p.hosts[1].ID(), a, 1)
			answers <- answer{g, err}
		}()
	}
	first, second := <-answers, <-answers
	if (first.err == nil) == (second.err == nil) {
		t.Fatalf("two invitations of game 2 at once: %v and %v; want one accepted, one declined", first.err, second.err)
	}
	if first.err == nil {
		first, second = second, first
	}
	refused(t, first.err, "game 2 of 3")
	host = second.g
	select {
	case guest = <-p.services[1].Accepted():
	case <-ctx.Done():
		t.Fatal("the invitee delivered no accepted game 2")
	}
	refused(t, invite(a, 1), "unfinished")
	playBoth(t, host, guest, 20)
	if host.View().Color != engine.White {
		t.Errorf("game 2: the inviter is %v, want white", host.View().Color)
	}

	// Both directories hold the two games of the series, in order, over.
	for i, dir := range p.dirs {
		games, err := session.SeriesGames(dir, a.ID)
		if err != nil || len(games) != 2 || games[0].Index != 0 || games[1].Index != 1 || !games[0].Done || !games[1].Done {
			t.Errorf("peer %d: series games %+v %v, want games 1 and 2 over", i, games, err)
		}
	}
}

// TestSERD1AgreementChecks checks the agreement's own rules (SER-D1): a
// colour chosen in the options, a series of no games or too many, an
// unknown colour rule, gomoku alternating colours (its options refuse a
// chosen colour).
func TestSERD1AgreementChecks(t *testing.T) {
	a, b := randomID(t), randomID(t)
	for _, c := range []struct {
		name    string
		o       engine.Options
		games   int
		colours string
		want    string
	}{
		{"colour chosen", engine.Options{Variant: engine.VariantGo, Size: 5, InviterColor: engine.Black}, 3, protocol.SeriesAlternate, "must not choose"},
		{"no games", seriesOptions, 0, protocol.SeriesAlternate, "series of 0 games"},
		{"too many", seriesOptions, protocol.MaxSeriesGames + 1, protocol.SeriesAlternate, "series of 100 games"},
		{"unknown rule", seriesOptions, 3, "random", "colour rule"},
		{"gomoku alternating", engine.Options{Variant: engine.VariantGomoku, Size: 9}, 2, protocol.SeriesAlternate, "series game 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := session.NewSeriesAgreement(a, b, c.o, c.games, c.colours)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("agreement: %v, want an error with %q", err, c.want)
			}
		})
	}
	good, err := session.NewSeriesAgreement(a, b, seriesOptions, 3, protocol.SeriesNigiri)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"", good.ID[:30], strings.ToUpper(good.ID), good.ID[:31] + "g"} {
		bad := good
		bad.ID = id
		if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "32 lowercase hex") {
			t.Errorf("series ID %q: %v", id, err)
		}
	}
	chosen := good
	chosen.Options.InviterColor = "black"
	if err := chosen.Check(); err == nil {
		t.Error("a nigiri series whose options give the inviter Black passed the check")
	}
	if _, err := session.NewSeriesAgreement(a, a, seriesOptions, 3, protocol.SeriesNigiri); err == nil {
		t.Error("a series of a peer with itself was agreed")
	}
	ok, err := session.NewSeriesAgreement(a, b, engine.Options{Variant: engine.VariantGomoku, Size: 9}, 2, protocol.SeriesNigiri)
	if err != nil {
		t.Fatalf("gomoku with nigiri: %v", err)
	}
	if ok.GameOptions(1).InviterColor != "" {
		t.Error("nigiri gave a game a colour")
	}
	if x := ok; x.Digest() != ok.Digest() {
		t.Error("digest of equal agreements differs")
	}
	other := ok
	other.Games = 3
	if other.Digest() == ok.Digest() {
		t.Error("two agreements with one digest")
	}
}

// randomID returns the peer ID of a fresh Ed25519 key.
func randomID(t *testing.T) peer.ID {
	t.Helper()
	_, pub, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// resignedRecord returns tr with edit applied to its messages, every
// hash chain made again and every message signed again with its
// author's key: a record both players signed (a forgery both made, or
// one whose keys leaked).
func resignedRecord(t *testing.T, tr *protocol.Transcript, keys [2]crypto.PrivKey, edit func(m *protocol.Message)) *protocol.Transcript {
	t.Helper()
	out := protocol.NewTranscript(tr.Game, tr.Peers[0], tr.Peers[1])
	var hashes [2][]protocol.Hash
	for _, m := range tr.Messages {
		edit(&m)
		if m.Seq > 0 {
			m.Prev = hashes[m.From][m.Seq-1]
		}
		if m.Ack >= 0 {
			m.AckHash = hashes[m.From.Other()][m.Ack]
		}
		if err := m.Sign(keys[m.From]); err != nil {
			t.Fatal(err)
		}
		hashes[m.From] = append(hashes[m.From], m.Hash())
		if err := out.Append(m); err != nil {
			t.Fatalf("re-signed message %s/%d: %v", m.From, m.Seq, err)
		}
	}
	return out
}

// TestSERD7VerifyChecksTheAgreement plays the first game of a series and
// re-signs its record, with both keys, with an invitation whose series
// part disagrees with its options: another index (the colours then
// disagree), an agreement with other options. Verify refuses each, naming
// the inviter's invitation; the record re-signed unchanged verifies.
func TestSERD7VerifyChecksTheAgreement(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	a, err := session.NewSeriesAgreement(p.hosts[0].ID(), p.hosts[1].ID(), seriesOptions, 3, protocol.SeriesAlternate)
	if err != nil {
		t.Fatal(err)
	}
	host, guest := inviteSeriesGame(t, p, a, 0)
	playBoth(t, host, guest, 30)
	keys := [2]crypto.PrivKey{p.hosts[0].Peerstore().PrivKey(p.hosts[0].ID()), p.hosts[1].Peerstore().PrivKey(p.hosts[1].ID())}
	tr := guest.Transcript()
	editInvite := func(f func(b *protocol.InviteBody)) func(m *protocol.Message) {
		return func(m *protocol.Message) {
			if m.Kind != protocol.KindInvite {
				return
			}
			var b protocol.InviteBody
			if err := json.Unmarshal(m.Body, &b); err != nil {
				t.Fatal(err)
			}
			f(&b)
			m.Body = session.MustEncodeBody(b)
		}
	}
	if rep := protocol.Verify(resignedRecord(t, tr, keys, func(*protocol.Message) {})); rep.Violation != nil || rep.Outcome == nil {
		t.Fatalf("the honest record re-signed: %+v", rep)
	}
	for name, f := range map[string]func(b *protocol.InviteBody){
		"another index":   func(b *protocol.InviteBody) { b.Series.Index = 1 },
		"other komi":      func(b *protocol.InviteBody) { b.Series.Agreement.Options.Komi = 0.5 },
		"index past them": func(b *protocol.InviteBody) { b.Series.Index = 3 },
	} {
		rep := protocol.Verify(resignedRecord(t, tr, keys, editInvite(f)))
		if rep.Violation == nil || rep.Violation.Accused != protocol.Inviter || rep.Violation.Seq != 0 || !strings.Contains(rep.Violation.Detail, "series") {
			t.Errorf("%s: verify gave %+v, want the inviter's invitation refused for its series", name, rep)
		}
	}
}

// TestSERD1NigiriSeries plays a 2-game series whose colours each game's
// coin toss draws: no game's options choose a colour, and both games
// count in both directories.
func TestSERD1NigiriSeries(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	a, err := session.NewSeriesAgreement(p.hosts[0].ID(), p.hosts[1].ID(), seriesOptions, 2, protocol.SeriesNigiri)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		host, guest := inviteSeriesGame(t, p, a, i)
		if c := guest.View().Options.InviterColor; c != engine.Empty {
			t.Errorf("game %d of a nigiri series gives the inviter %v", i+1, c)
		}
		playBoth(t, host, guest, uint64(40+i))
	}
	// A second series between the same peers is another series.
	b, err := session.NewSeriesAgreement(p.hosts[0].ID(), p.hosts[1].ID(), seriesOptions, 2, protocol.SeriesNigiri)
	if err != nil {
		t.Fatal(err)
	}
	host, guest := inviteSeriesGame(t, p, b, 0)
	playBoth(t, host, guest, 50)
	for i, dir := range p.dirs {
		if games, err := session.SeriesGames(dir, a.ID); err != nil || len(games) != 2 || !games[1].Done {
			t.Errorf("peer %d: series games %+v %v, want 2 over", i, games, err)
		}
		if games, err := session.SeriesGames(dir, b.ID); err != nil || len(games) != 1 {
			t.Errorf("peer %d: second series' games %+v %v, want 1", i, games, err)
		}
	}
}
