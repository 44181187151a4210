package watch_test

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
)

// botGame is a game between two players' bots, run in the background.
type botGame struct{ *testnet.BotGame }

// startGame has a invite b to a game of o and both play it by bot in the
// background.
func startGame(t *testing.T, ctx context.Context, a, b *player, o engine.Options) *botGame {
	t.Helper()
	level := bot.Level{Playouts: 60}
	return &botGame{testnet.StartBotGame(ctx, a.svc, b.svc, b.h.ID(), o, [2]bot.Player{bot.New(level, 1), bot.New(level, 2)})}
}

// wait waits for the game's end and checks both players agree.
func (g *botGame) wait(t *testing.T) {
	t.Helper()
	out := g.Wait(t)
	if out[0] == nil || out[1] == nil || out[0].Result != out[1].Result {
		t.Fatalf("outcomes %v and %v", out[0], out[1])
	}
}

// gameOf waits until p published at least n publications and returns
// their game.
func gameOf(t *testing.T, ctx context.Context, p *player, n int) protocol.GameID {
	t.Helper()
	for {
		if pubs := p.rec.published(); len(pubs) >= n {
			return pubs[0].Game
		}
		if ctx.Err() != nil {
			t.Fatalf("the player published fewer than %d publications", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recordKept waits until p's hub published the record of p's game.
func recordKept(t *testing.T, ctx context.Context, p *player) {
	t.Helper()
	for {
		pubs := p.rec.published()
		if len(pubs) > 0 && pubs[len(pubs)-1].Record != nil && p.hub.Pending() == 0 {
			return
		}
		if ctx.Err() != nil {
			t.Fatal("the record was never published")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// lateWatch starts a spectator of p's game on a fresh node and returns
// its lines once its watch ended.
func lateWatch(t *testing.T, ctx context.Context, p *player, game protocol.GameID) (func() []watch.Line, *watch.Watch) {
	t.Helper()
	h := testnet.Host(t)
	hub := newHub(t, h)
	connect(t, ctx, h, p.h)
	w, err := hub.Watch(ctx, p.h.ID(), game)
	if err != nil {
		t.Fatal(err)
	}
	lines := make(chan []watch.Line, 1)
	go func() {
		var all []watch.Line
		for l := range w.Lines() {
			all = append(all, l)
		}
		lines <- all
	}()
	return func() []watch.Line {
		select {
		case l := <-lines:
			return l
		case <-ctx.Done():
			t.Fatal("a late spectator's watch never ended")
			return nil
		}
	}, w
}

// TestSPECD8LateSpectatorsGetTheBacklog: a spectator that joins in the
// middle of a game, and one that joins after its end, ask the publisher
// for the game's backlog and see the whole game: the public part of the
// record from its invitation on, every message checked as a live one
// (Verified where the rules ran), Phantom Go's announcements those of
// the audit, and verify's verdict; nothing refused (SPEC-D8). GossipSub
// keeps no history: without the backlog, the one after the end would see
// nothing but the record.
func TestSPECD8LateSpectatorsGetTheBacklog(t *testing.T) {
	games := []engine.Options{
		{Variant: engine.VariantGo, Size: 5},
		{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon},
	}
	for _, o := range games {
		t.Run(string(o.Variant), func(t *testing.T) {
			if o.Variant == engine.VariantPhantom && testenv.Race {
				t.Skip("Phantom Go under -race is too slow for this test")
			}
			ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(90*time.Second))
			defer cancel()
			a, b := newPlayer(t, nil), newPlayer(t, nil)
			connect(t, ctx, a.h, b.h)
			g := startGame(t, ctx, a, b, o)
			game := gameOf(t, ctx, a, 6)
			middle, wm := lateWatch(t, ctx, a, game)
			g.wait(t)
			recordKept(t, ctx, a)
			after, wa := lateWatch(t, ctx, a, game)
			tr := record(t, a)
			want := publicPart(o.Variant, tr)
			for name, c := range map[string]struct {
				lines func() []watch.Line
				w     *watch.Watch
			}{"in the middle": {middle, wm}, "after the end": {after, wa}} {
				lines := c.lines()
				var items []watch.Item
				var announced map[uint64]string
				var done, ok bool
				c.w.Spectator(func(s *watch.Spectator) {
					items, announced = s.Items(), s.Announcements()
					done, ok = s.Done()
				})
				if !done || !ok {
					t.Errorf("the spectator %s: done %v, ok %v; it showed:\n%s", name, done, ok, linesText(lines))
				}
				if !slices.Equal(items, want) {
					t.Errorf("the spectator %s took %d messages, not the %d of the record's public part:\n%s", name, len(items), len(want), linesText(lines))
				}
				verified, verdict := 0, false
				for _, l := range lines {
					if l.Status == watch.Refused {
						t.Errorf("the spectator %s refused an honest publication: %s", name, l)
					}
					if l.Status == watch.Verified {
						verified++
					}
					verdict = verdict || (l.Status == watch.Verdict && strings.HasPrefix(l.Text, "ok: result"))
				}
				if !verdict || verified == 0 {
					t.Errorf("the spectator %s showed %d verified messages and verdict %v:\n%s", name, verified, verdict, linesText(lines))
				}
				if o.Variant == engine.VariantPhantom {
					audit, err := session.PublicAnnouncements(tr)
					if err != nil {
						t.Fatal(err)
					}
					if len(audit) == 0 || len(announced) != len(audit) {
						t.Errorf("the spectator %s took %d announcements of %d tries", name, len(announced), len(audit))
					}
				}
			}
		})
	}
}

// TestSPECD8ForgedBacklogRefused: a publisher whose backlog is not what
// it published. (1) A backlog with one message altered, given over the
// network to a spectator that took the live publications: refused, the
// refusal naming the backlog, the view unchanged. (2) A backlog in which
// the publisher equivocates (a resignation it signed in place of its
// move, which the rules take): a late spectator takes it, and the record
// at the end names it as the backlog's, the verdict not ok. The game
// itself is unaffected (SPEC-D8).
func TestSPECD8ForgedBacklogRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(60*time.Second))
	defer cancel()
	a, b := newPlayer(t, nil), newPlayer(t, nil)
	connect(t, ctx, a.h, b.h)
	g := startGame(t, ctx, a, b, engine.Options{Variant: engine.VariantGo, Size: 5})
	g.wait(t)
	recordKept(t, ctx, a)
	pubs := a.rec.published()
	game := pubs[0].Game
	// k is the position of the inviter's second move.
	k, moves := -1, 0
	for i, p := range pubs {
		if m := p.Message; m != nil && m.Kind == protocol.KindMove && m.From == protocol.Inviter {
			if moves++; moves == 2 {
				k = i
				break
			}
		}
	}
	if k < 0 {
		t.Fatal("the inviter made fewer than two moves")
	}
	var (
		forgedMu sync.Mutex
		forged   session.Publication
	)
	forge := func(p session.Publication) {
		forgedMu.Lock()
		defer forgedMu.Unlock()
		forged = p
	}
	a.hub.SetBacklogForger(func(_ protocol.GameID, items [][]byte) [][]byte {
		forgedMu.Lock()
		defer forgedMu.Unlock()
		out := slices.Clone(items)
		for i, data := range out {
			p, err := session.UnmarshalPublication(data)
			if err != nil || p.Message == nil || p.Pos != uint64(k) {
				continue
			}
			if out[i], err = session.MarshalPublication(forged); err != nil {
				t.Error(err)
			}
		}
		return out
	})

	t.Run("behind", func(t *testing.T) {
		// A spectator whose first publications are not at position 0
		// is behind from 0, and no longer once the backlog came: what
		// makes a watch ask for it.
		s := watch.NewSpectator(a.h.ID(), game)
		feed(t, s, a, pubs[3:6]...)
		if from, behind := s.Behind(); !behind || from != 0 {
			t.Errorf("publications from position 3 on: Behind() = %d, %v", from, behind)
		}
		feed(t, s, a, pubs[:3]...)
		if from, behind := s.Behind(); behind || from != 6 {
			t.Errorf("and those before: Behind() = %d, %v", from, behind)
		}
	})

	t.Run("altered", func(t *testing.T) {
		c := *pubs[k].Message
		c.Body = json.RawMessage(strings.Replace(string(c.Body), `"`, `"x`, 1))
		forge(session.Publication{Game: game, Pos: uint64(k), Message: &c})
		s := watch.NewSpectator(a.h.ID(), protocol.GameID{})
		feed(t, s, a, pubs...)
		if done, ok := s.Done(); !done || !ok {
			t.Fatalf("the live publications: done %v, ok %v", done, ok)
		}
		before := s.Items()
		h := testnet.Host(t)
		hub := newHub(t, h)
		connect(t, ctx, h, a.h)
		backlog, _, err := hub.Backlog(ctx, a.h.ID(), game, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(backlog) != len(pubs) {
			t.Errorf("the backlog holds %d publications, %d were published", len(backlog), len(pubs))
		}
		var lines []watch.Line
		for _, data := range backlog {
			lines = append(lines, s.TakeBacklog(a.h.ID(), data)...)
		}
		if len(lines) != 1 || !refusedWith(lines, "the publisher's backlog: ") || !refusedWith(lines, "a different publication at position") {
			t.Errorf("the altered backlog was not refused and named once: %s", linesText(lines))
		}
		if !slices.Equal(s.Items(), before) {
			t.Error("the refused backlog changed the spectator's view")
		}
	})

	t.Run("equivocation", func(t *testing.T) {
		c := *pubs[k].Message
		c.Kind, c.Body = protocol.KindResign, json.RawMessage(`{}`)
		if err := c.Sign(a.h.Peerstore().PrivKey(a.h.ID())); err != nil {
			t.Fatal(err)
		}
		forge(session.Publication{Game: game, Pos: uint64(k), Message: &c})
		lines, w := lateWatch(t, ctx, a, game)
		shown := lines()
		if !refusedWith(shown, "is not the record's message there") || !refusedWith(shown, "(from the backlog)") {
			t.Errorf("the equivocating backlog was not named at the end:\n%s", linesText(shown))
		}
		w.Spectator(func(s *watch.Spectator) {
			if done, ok := s.Done(); !done || ok {
				t.Errorf("done %v, ok %v after an equivocating backlog", done, ok)
			}
		})
	})
}

// TestSPECD8BacklogBounds: a reply holds at most BacklogReplyCount
// publications; the spectator's Backlog asks again for the rest and
// gets them all, in order; a reply of more, a publication over
// BacklogFrame or a reply over BacklogReplyBytes is refused by the
// spectator;
// a game the publisher never published is refused with its reason
// (SPEC-D8).
func TestSPECD8BacklogBounds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	pub := testnet.Host(t)
	pubHub := newHub(t, pub)
	game, err := protocol.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	const n = watch.BacklogReplyCount*2 + 7
	for i := range n {
		pubHub.Publish(session.Publication{Game: game, Announcement: &session.PublicAnnouncement{Try: uint64(i), Text: "Black has moved"}})
	}
	h := testnet.Host(t)
	hub := newHub(t, h)
	connect(t, ctx, h, pub)
	var got [][]byte
	for len(got) < n && ctx.Err() == nil {
		if got, _, err = hub.Backlog(ctx, pub.ID(), game, 0); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(got) != n {
		t.Fatalf("the backlog gave %d publications of %d", len(got), n)
	}
	for i, data := range got {
		p, err := session.UnmarshalPublication(data)
		if err != nil || p.Announcement == nil || p.Announcement.Try != uint64(i) {
			t.Fatalf("publication %d of the backlog: %v, %v", i, p.Announcement, err)
		}
	}
	// A publisher that sends more than a reply may hold.
	pubHub.SetBacklogForger(func(_ protocol.GameID, items [][]byte) [][]byte {
		return append(items, items[0])
	})
	if _, _, err := hub.Backlog(ctx, pub.ID(), game, 0); err == nil || !strings.Contains(err.Error(), "a reply of") {
		t.Errorf("a reply of %d publications: %v", watch.BacklogReplyCount+1, err)
	}
	// One publication over a frame's cap, and a reply over its bytes'.
	for _, tc := range []struct {
		items [][]byte
		words string
	}{
		{[][]byte{make([]byte, watch.BacklogFrame+1)}, "a frame of"},
		{[][]byte{make([]byte, watch.BacklogFrame), make([]byte, watch.BacklogFrame), make([]byte, watch.BacklogFrame)}, "a reply over"},
	} {
		pubHub.SetBacklogForger(func(protocol.GameID, [][]byte) [][]byte { return tc.items })
		if _, _, err := hub.Backlog(ctx, pub.ID(), game, 0); err == nil || !strings.Contains(err.Error(), tc.words) {
			t.Errorf("a reply with %q: %v", tc.words, err)
		}
	}
	pubHub.SetBacklogForger(nil)
	other, err := protocol.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := hub.Backlog(ctx, pub.ID(), other, 0); !errors.Is(err, watch.ErrBacklogRefused) || !strings.Contains(err.Error(), "no publication of game") {
		t.Errorf("the backlog of a game never published: %v", err)
	}
}

// limitedPlayer is a player whose host has a kakure node's resource
// manager (node.ResourceLimits, LIM-D12).
func limitedPlayer(t *testing.T) *player {
	t.Helper()
	mgr, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(node.ResourceLimits()))
	if err != nil {
		t.Fatal(err)
	}
	priv, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h, err := libp2p.New(libp2p.Identity(priv), libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.ResourceManager(mgr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	p := &player{h: h, dir: t.TempDir()}
	p.hub = newHub(t, p.h)
	p.rec = &recorder{hub: p.hub}
	p.svc = testnet.ServiceOn(t, p.h, func(c *session.Config) { c.Dir, c.Publisher = p.dir, p.rec })
	return p
}

// TestLIMD12SpectatorFloodKeepsOffTheGame: 30 spectator nodes, real
// hosts on loopback, each subscribe to a player's topic,
// watch its game, hold three backlog streams open without asking and ask
// for the backlog, while the player (a node's resource manager) plays a
// game and then accepts a second invitation. The games are played to
// their end, the second invitation accepted during the flood; the
// backlog streams beyond BacklogPerPeer of one peer, and beyond
// BacklogStreams in total, are answered with the reason (LIM-D12,
// SPEC-D9); every spectator's watch ends with the record checked.
func TestLIMD12SpectatorFloodKeepsOffTheGame(t *testing.T) {
	const spectators = 30
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(60*time.Second))
	defer cancel()
	a, b := limitedPlayer(t), newPlayer(t, nil)
	connect(t, ctx, a.h, b.h)
	g := startGame(t, ctx, a, b, engine.Options{Variant: engine.VariantGo, Size: 5})
	game := gameOf(t, ctx, a, 2)
	var (
		mu      sync.Mutex
		reasons = map[string]int{}
		held    []network.Stream
		watches []func() []watch.Line
	)
	// One peer holds its share of backlog streams before the flood, while
	// the total has room: its next stream is refused for the per-peer
	// share whatever the flood's timing (in the flood, the total cap is
	// often full before any peer's third stream comes).
	early := testnet.Host(t)
	held = append(held, holdBacklogShare(t, ctx, early, a)...)
	beyond, err := early.NewStream(ctx, a.h.ID(), watch.BacklogProtocol)
	if err != nil {
		t.Fatal(err)
	}
	held = append(held, beyond)
	_ = beyond.SetReadDeadline(time.Now().Add(testenv.Duration(10 * time.Second)))
	if reply, ok := readRefusal(beyond); !ok || !strings.Contains(reply, "of this peer") {
		t.Fatalf("the early peer's stream beyond its share was not refused for the per-peer share (reply %q)", reply)
	}
	reasons["per peer"]++
	var wg sync.WaitGroup
	for range spectators {
		h := testnet.Host(t)
		hub := newHub(t, h)
		// Connected to the publisher only, as `kakure watch` is: beyond
		// GossipSub's mesh of 6 to 12, the publisher reaches them by
		// flood-publishing (SPEC-D30).
		connect(t, ctx, h, a.h)
		w, err := hub.Watch(ctx, a.h.ID(), game)
		if err != nil {
			t.Fatal(err)
		}
		watches = append(watches, collect(ctx, w))
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Three streams held open without a request: the third is
			// beyond the peer's share.
			for range watch.BacklogPerPeer + 1 {
				st, err := h.NewStream(ctx, a.h.ID(), watch.BacklogProtocol)
				if err != nil {
					mu.Lock()
					reasons["stream: "+err.Error()]++
					mu.Unlock()
					continue
				}
				mu.Lock()
				held = append(held, st)
				mu.Unlock()
				_ = st.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
				if reply, ok := readRefusal(st); ok {
					mu.Lock()
					switch {
					case strings.HasPrefix(reply, "busy: ") && strings.Contains(reply, "of this peer"):
						reasons["per peer"]++
					case strings.HasPrefix(reply, "busy: ") && strings.Contains(reply, "backlog requests are being answered"):
						reasons["total"]++
					default:
						reasons[reply]++
					}
					mu.Unlock()
				}
				_ = st.SetReadDeadline(time.Time{})
			}
		}()
	}
	wg.Wait()
	// A second game, invited while the flood's streams are held.
	g.wait(t)
	second := startGame(t, ctx, b, a, engine.Options{Variant: engine.VariantGo, Size: 5})
	second.wait(t)
	mu.Lock()
	for _, st := range held {
		_ = st.Reset()
	}
	t.Logf("backlog streams refused by the publisher: %d; seen by the spectators: %v", a.hub.RefusedBacklogs(), reasons)
	perPeer := reasons["per peer"]
	mu.Unlock()
	if perPeer == 0 || a.hub.RefusedBacklogs() < int64(spectators) {
		t.Errorf("%d backlog streams refused, %d with the per-peer reason; want at least %d", a.hub.RefusedBacklogs(), perPeer, spectators)
	}
	if 2*spectators > watch.BacklogStreams && reasons["total"] == 0 {
		t.Errorf("no backlog stream refused for the total cap: %v", reasons)
	}
	for i, lines := range watches {
		shown := lines()
		if len(shown) == 0 || shown[len(shown)-1].Status != watch.Verdict {
			t.Errorf("spectator %d did not end with the verdict:\n%s", i, linesText(shown))
		}
	}
}

// holdBacklogShare connects h to the publisher pub and opens its share of
// backlog streams (BacklogPerPeer), asking nothing on them; it returns
// once pub answers all of them (none refused).
func holdBacklogShare(t *testing.T, ctx context.Context, h host.Host, pub *player) []network.Stream {
	t.Helper()
	connect(t, ctx, h, pub.h)
	var held []network.Stream
	for range watch.BacklogPerPeer {
		st, err := h.NewStream(ctx, pub.h.ID(), watch.BacklogProtocol)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, st)
		// A read sends the lazy protocol negotiation: the hub admits
		// the stream, or refuses it at once.
		_ = st.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if reply, ok := readRefusal(st); ok {
			t.Fatalf("a backlog stream of %s refused: %s", h.ID(), reply)
		}
	}
	for pub.hub.BacklogsServing(h.ID()) < watch.BacklogPerPeer {
		if ctx.Err() != nil {
			t.Fatalf("the publisher answers %d backlog streams of %s, want %d", pub.hub.BacklogsServing(h.ID()), h.ID(), watch.BacklogPerPeer)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return held
}

// readRefusal reads a backlog stream's refusal, if one comes: its first
// frame, a BacklogReply.
func readRefusal(st network.Stream) (string, bool) {
	raw, err := io.ReadAll(io.LimitReader(st, 4096))
	if err != nil && len(raw) == 0 {
		return "", false
	}
	n, k := binary.Uvarint(raw)
	if k <= 0 || uint64(len(raw)-k) < n {
		return "", false
	}
	var reply watch.BacklogReply
	if json.Unmarshal(raw[k:k+int(n)], &reply) != nil || reply.Refused == "" {
		return "", false
	}
	return reply.Refused, true
}

// TestSPECD30FloodPublishReachesEverySubscriber: twelve spectators
// connected to the publisher only, as `kakure watch` is, watch its next
// game, so that only the live topic can tell them which game it is (a
// watch of an unknown game asks no backlog). Each sees the game to the
// verdict: the publisher sends every publication to every subscriber it
// is connected to, beyond GossipSub's mesh of 6 to 12 peers (SPEC-D30).
func TestSPECD30FloodPublishReachesEverySubscriber(t *testing.T) {
	const spectators = 12
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(60*time.Second))
	defer cancel()
	a, b := newPlayer(t, nil), newPlayer(t, nil)
	connect(t, ctx, a.h, b.h)
	var watches []func() []watch.Line
	for range spectators {
		h := testnet.Host(t)
		hub := newHub(t, h)
		connect(t, ctx, h, a.h)
		w, err := hub.Watch(ctx, a.h.ID(), protocol.GameID{})
		if err != nil {
			t.Fatal(err)
		}
		watches = append(watches, collect(ctx, w))
	}
	// The publisher knows every subscription before the game starts.
	for a.hub.Subscribers(a.h.ID()) == nil || len(a.hub.Subscribers(a.h.ID())) < spectators {
		if ctx.Err() != nil {
			t.Fatalf("the publisher sees %d of %d subscribers", len(a.hub.Subscribers(a.h.ID())), spectators)
		}
		time.Sleep(10 * time.Millisecond)
	}
	startGame(t, ctx, a, b, engine.Options{Variant: engine.VariantGo, Size: 5}).wait(t)
	for i, lines := range watches {
		if shown := lines(); len(shown) == 0 || shown[len(shown)-1].Status != watch.Verdict {
			t.Errorf("spectator %d did not end with the verdict:\n%s", i, linesText(shown))
		}
	}
}

// collect gathers a watch's lines; the function returned waits for the
// watch's end (or ctx's) and returns them.
func collect(ctx context.Context, w *watch.Watch) func() []watch.Line {
	var mu sync.Mutex
	var shown []watch.Line
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for l := range w.Lines() {
			mu.Lock()
			shown = append(shown, l)
			mu.Unlock()
		}
	}()
	return func() []watch.Line {
		select {
		case <-ended:
		case <-ctx.Done():
		}
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(shown)
	}
}

// TestSPECD31QuietWatchAsksAgain: a spectator of a game that already
// ended asks the backlog while the publisher's backlog streams are all
// taken, and is refused (busy). Once they are free, its watch, having
// received nothing for BacklogQuiet, asks again and sees the whole game
// to the verdict (SPEC-D31).
func TestSPECD31QuietWatchAsksAgain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(60*time.Second))
	defer cancel()
	a, b := newPlayer(t, nil), newPlayer(t, nil)
	connect(t, ctx, a.h, b.h)
	startGame(t, ctx, a, b, engine.Options{Variant: engine.VariantGo, Size: 5}).wait(t)
	recordKept(t, ctx, a)
	game := gameOf(t, ctx, a, 1)
	// Every place for a backlog stream taken, by streams that ask
	// nothing.
	var held []network.Stream
	for range watch.BacklogStreams / watch.BacklogPerPeer {
		held = append(held, holdBacklogShare(t, ctx, testnet.Host(t), a)...)
	}
	refused := a.hub.RefusedBacklogs()
	lines, _ := lateWatch(t, ctx, a, game)
	for a.hub.RefusedBacklogs() == refused {
		if ctx.Err() != nil {
			t.Fatal("the late spectator's first backlog was not refused")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, st := range held {
		_ = st.Reset()
	}
	shown := lines()
	if len(shown) == 0 || shown[len(shown)-1].Status != watch.Verdict {
		t.Fatalf("the spectator did not end with the verdict:\n%s", linesText(shown))
	}
	if !slices.ContainsFunc(shown, func(l watch.Line) bool { return l.Status == watch.Notice && strings.Contains(l.Text, "busy") }) {
		t.Errorf("the first refusal was not shown:\n%s", linesText(shown))
	}
}
